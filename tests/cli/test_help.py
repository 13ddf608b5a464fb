"""The help a user reads: ``nested-span-f1 --help`` lists the commands by task, and each command's ``--help``
starts with one example that runs on the sample data, then its options in groups by input kind, so that a user
with two column files reads the first screen of ``score --help`` only."""
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import nested_span_f1
from nested_span_f1.cli.main import COMMANDS, TASKS, build_parser

SCREEN = 25
"""The lines of a terminal's first screen."""


def _help(*argv: str) -> str:
    done = subprocess.run([sys.executable, "-m", "nested_span_f1.cli", *argv, "--help"], capture_output=True,
                          text=True, timeout=120, check=True, env={**os.environ, "COLUMNS": "80"})
    return done.stdout


def test_the_commands_are_listed_by_task_each_once():
    text = _help()
    listed: dict[str, list[str]] = {}
    task = None
    for line in text.splitlines():
        if re.fullmatch(r"[a-z]+:", line):
            task = line[:-1]
            listed[task] = []
        elif task and line.startswith("  ") and not line.startswith("   "):
            listed[task].append(line.split()[0])
        elif not line:
            task = None
    assert list(listed) == ["score", "analyse", "publish", "convert", "options"]
    commands = [name for group in ("score", "analyse", "publish", "convert") for name in listed[group]]
    assert sorted(commands) == sorted(COMMANDS) and len(commands) == len(set(commands)) == 13
    assert listed["publish"] == ["table", "space"] and listed["convert"] == ["convert", "formats"]
    assert max(map(len, text.splitlines())) <= 80, text
    assert len(text.splitlines()) == 32


def _example(command: str) -> str:
    """The example a command's help starts with: the second paragraph, after the usage, its one indented line."""
    text = _help(command)
    assert text.startswith(f"usage: nested-span-f1 {command}")
    header, example = text.split("\n\n")[1].splitlines()
    assert header in ("example:", "example, run in a copy of the sample folder `nested-span-f1 demo --help` names:")
    assert example.startswith("  ") and "nested-span-f1 " + command in example, example
    return example.strip()


@pytest.mark.parametrize("command", [c for c in COMMANDS if c != "space"])
def test_each_help_starts_with_an_example_that_runs_on_the_samples(command, tmp_path):
    """Run in a copy of the sample folder, as the help says, through bash (the conlleval and table examples use
    a pipe and process substitution); `nested-span-f1` is this Python's module."""
    example = _example(command)
    samples = tmp_path / "samples"
    shutil.copytree(nested_span_f1.sample_path(), samples)
    script = f'nested-span-f1() {{ {shlex.quote(sys.executable)} -m nested_span_f1.cli "$@"; }}\nset -o pipefail\n{example}'
    done = subprocess.run(["bash", "-c", script], cwd=samples, capture_output=True, text=True, timeout=300,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip()
    if command == "convert":
        assert (samples / "sample.text.jsonl").read_text(encoding="utf-8").count("\n") == 15


def test_the_command_line_page_shows_the_example_score_help_starts_with():
    page = (Path(__file__).resolve().parents[2] / "docs" / "cli.md").read_text(encoding="utf-8")
    assert f"\n{_example('score')}\n```" in page


def test_the_space_example_parses():
    """`space` builds a wheel (tests/space runs it): here its example is a command line the parser takes."""
    args = build_parser().parse_args(shlex.split(_example("space"))[1:])
    assert (args.command, args.name, args.out_dir) == ("space", "exact", Path("my_span_f1"))


def _groups(text: str) -> dict[str, list[str]]:
    """Each option group's title and the options it lists."""
    groups: dict[str, list[str]] = {}
    for block in text.split("\n\n"):
        title, *lines = block.splitlines()
        if title.endswith(":") and lines and lines[0].startswith("  -"):
            groups[title[:-1]] = [line.split()[0].rstrip(",") for line in lines if re.match(r"  -", line)]
    return groups


def test_score_help_groups_its_options_by_input_kind():
    groups = _groups(_help("score"))
    assert list(groups) == [
        "input and output", "tags (column files: token ... tag, a blank line between sentences)",
        "formats (detected unless named)", "texts and brat (text spans, pipeline output, brat, spaCy DocBin)",
        "answers (a language model's, when --pred holds them)", "Parquet input"]
    assert groups["input and output"] == ["-h", "--gold", "--pred", "--json", "--plot"]
    assert groups["tags (column files: token ... tag, a blank line between sentences)"] == [
        "--scheme", "--mode", "--suffix", "--column", "--delimiter"]
    assert "--trim" in groups["texts and brat (text spans, pipeline output, brat, spaCy DocBin)"]
    assert "--label-map" in groups["answers (a language model's, when --pred holds them)"]


def test_the_first_screen_of_score_help_is_what_two_column_files_need():
    text = _help("score")
    screen = "\n".join(text.splitlines()[:SCREEN])
    assert screen.startswith("usage: nested-span-f1 score --gold GOLD --pred PRED [options]\n")
    assert "  nested-span-f1 score --gold sample.gold.conll --pred sample.pred.conll\n" in screen
    for option in ("--gold", "--pred", "--json", "--scheme", "--mode", "--suffix", "--column", "--delimiter"):
        assert f"  {option} " in screen, option
    assert "--trim" not in screen and "--label-map" not in screen
    assert len(text.splitlines()) > SCREEN  # the other inputs' options come after


@pytest.mark.parametrize(("command", "kinds"), [
    ("lenient", ("tags", "texts and brat", "answers")), ("nested", ("texts and brat", "answers")),
    ("answers", ("answers", "texts and brat")), ("thresholds", ("tags", "texts and brat")),
    ("benchmark", ("tags", "texts and brat")), ("convert", ("tags", "texts and brat")),
    ("agreement", ("texts and brat",)), ("conlleval", ("tags",)),
])
def test_every_command_groups_the_options_of_its_inputs(command, kinds):
    titles = [title.split(" (")[0] for title in _groups(_help(command))]
    assert titles[0] == "input and output"
    assert [t for t in titles if t in ("tags", "texts and brat", "answers")] == list(kinds)


def test_the_tasks_hold_every_command_module():
    modules = {path.stem for path in Path(nested_span_f1.__file__).parent.joinpath("cli", "commands").glob("*.py")
               if "def add_parser" in path.read_text(encoding="utf-8")}
    assert modules == set(COMMANDS) == {name for commands in TASKS.values() for name in commands}
