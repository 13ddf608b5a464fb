"""``nested-span-f1 nested``: GENIA gold against itself and against a perturbed prediction file."""
import fcntl
import json
import os
import pty
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest

from nested_span_f1.cli.commands.inputs import LARGE_FILE
from nested_span_f1.formats import Corpus, read_corpus, write_corpus


def _run(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "nested_span_f1.cli", "nested", *map(str, args)],
                          capture_output=True, text=True, timeout=300, check=False, cwd=cwd)


def test_genia_against_itself_prints_size_and_tables(shared_data):
    gold = shared_data / "genia" / "genia-docsplit.test.jsonl"
    done = _run("--gold", gold, "--pred", gold)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "1,732 sentences, 46,873 tokens, 5,119 entities" in out and "22.4% nested, max depth 3" in out
    assert "aligned by sentence id" in out and "nested vs flat" in out and "span length" in out
    assert done.stderr == ""


def test_json_output_and_formats(shared_data, tmp_path):
    gold = read_corpus(shared_data / "genia" / "genia-classic.test.w2ner.json")
    dropped = Corpus(gold.tokens, [list(e)[1:] for e in gold.entities])
    pred = tmp_path / "pred.txt"
    write_corpus(dropped, pred, "biaffine")
    done = _run("--gold", gold.source, "--pred", pred, "--pred-format", "biaffine", "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["test_set"]["entities"] == 5506 and result["overall_precision"] == 1.0
    assert result["fn"] == sum(1 for e in gold.entities if e)


def test_token_mismatch_names_the_sentence(tmp_path):
    gold = Corpus([["a", "b"], ["c", "d"]], [[(0, 1, "X")], []])
    pred = Corpus([["a", "b"], ["c", "e"]], [[(0, 1, "X")], []])
    write_corpus(gold, tmp_path / "g.jsonl")
    write_corpus(pred, tmp_path / "p.jsonl")
    done = _run("--gold", tmp_path / "g.jsonl", "--pred", tmp_path / "p.jsonl")
    assert done.returncode == 2
    # counted from 1 for people: the second sentence, its second token
    assert "sentence 2: tokens differ at position 2" in done.stderr


def test_console_script(shared_data):
    exe = Path(sys.executable).with_name("nested-span-f1")
    if not exe.is_file():
        pytest.skip(f"console script not installed next to {sys.executable}")
    gold = shared_data / "genia" / "genia-classic.test.w2ner.json"
    done = subprocess.run([exe, "nested", "--gold", gold, "--pred", gold, "--gold-format", "w2ner"],
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    assert "1,854 sentences, 48,179 tokens, 5,506 entities" in done.stdout and "21.8% nested" in done.stdout


def _on_terminal(args, stdout):
    """Run the command with stderr on a pseudo-terminal (80 columns) and stdout to a file; stderr's bytes.

    TQDM_MININTERVAL/TQDM_MINITERS make tqdm draw every update, so the bar's end is on the terminal however
    fast the run."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    env = {**os.environ, "TQDM_MININTERVAL": "0", "TQDM_MINITERS": "1"}
    with open(stdout, "wb") as out:
        child = subprocess.Popen([sys.executable, "-m", "nested_span_f1.cli", "nested", *map(str, args)],
                                 stdout=out, stderr=slave, env=env)
    os.close(slave)
    err = []
    while True:
        try:
            chunk = os.read(master, 1 << 16)
        except OSError:  # EIO: the child has ended and the terminal has no writer left
            break
        err.append(chunk)
    os.close(master)
    assert child.wait(timeout=120) == 0, b"".join(err)
    return b"".join(err)


def test_progress_bar_on_a_terminal_for_a_large_gold_file_never_on_stdout(tmp_path):
    big = tmp_path / "big.jsonl"
    token = "x" * 120
    lines = [json.dumps({"tokens": [token] * 8, "sent_id": f"s{i}",
                         "entity_mentions": [{"start": i % 4, "end": i % 4 + 2, "entity_type": "T"}]}) + "\n"
             for i in range(LARGE_FILE // 1000)]
    big.write_text("".join(lines))
    size = big.stat().st_size
    assert LARGE_FILE < size < LARGE_FILE * 1.1
    err = _on_terminal(["--gold", big, "--pred", big], tmp_path / "bar.out").decode()
    assert "big.jsonl:   0%|" in err and "big.jsonl: 100%|" in err and f"{size / 1e6:.1f}M/{size / 1e6:.1f}M" in err
    plain = _run("--gold", big, "--pred", big)
    assert (plain.returncode, plain.stderr) == (0, "")  # stderr is a pipe here: no bar
    with_bar = (tmp_path / "bar.out").read_text()
    assert with_bar == plain.stdout and "\r" not in with_bar and "%|" not in with_bar
    assert f"test set: {len(lines):,} sentences, {8 * len(lines):,} tokens, {len(lines):,} entities" in with_bar


@pytest.mark.parametrize("case", ["reversed with one more", "one more in the middle", "one more at the end",
                                  "one fewer", "reversed with one more, by a pipe"])
def test_sentences_paired_by_id_are_refused_as_every_command_refuses_them(case, tmp_path, capsys, monkeypatch):
    """QA: five gold sentences against six predictions in reverse order blamed s1 ("no prediction for sentence id
    's1'"), which the file holds; the whole-file fallback paired the first five predictions before aligning by id.
    nested, lenient and benchmark pair by formats.align's one rule and name s6, the prediction without gold."""
    from nested_span_f1 import sample_path
    from nested_span_f1.cli.main import main

    lines = Path(sample_path("nested.gold.jsonl")).read_text().splitlines(keepends=True)
    gold, pred = lines[:5], {"reversed with one more": lines[::-1], "one more in the middle": lines[:2] + lines[5:] +
                             lines[2:5], "one more at the end": lines, "one fewer": lines[:4],
                             "reversed with one more, by a pipe": lines[::-1]}[case]
    (tmp_path / "gold5.jsonl").write_text("".join(gold))
    (tmp_path / "pred.jsonl").write_text("".join(pred))
    expected = ("pred.jsonl: sentence id 's6' is not in gold5.jsonl (1 predicted sentence without gold)"
                if len(pred) > 5 else "pred.jsonl: no prediction for sentence id 's5' (1 gold sentence missing)")
    monkeypatch.chdir(tmp_path)
    if case.endswith("pipe"):
        done = subprocess.run([sys.executable, "-m", "nested_span_f1.cli", "nested", "--gold", "gold5.jsonl",
                               "--pred", "/dev/stdin"], input="".join(pred), capture_output=True, text=True,
                              timeout=300, check=False)
        assert (done.returncode, done.stderr) == (2, "nested-span-f1 nested: error: " +
                                                  expected.replace("pred.jsonl", "/dev/stdin") + "\n")
        return
    for command in ("nested", "lenient", "benchmark"):
        pred_arg = "a=pred.jsonl" if command == "benchmark" else "pred.jsonl"
        assert main([command, "--gold", "gold5.jsonl", "--pred", pred_arg, *(["--no-progress"] if command ==
                                                                             "benchmark" else [])]) == 2
        assert capsys.readouterr().err == f"nested-span-f1 {command}: error: {expected}\n", command
