"""The README and docs/ as a reader meets them: every Python block runs as written and prints what its comments
say, every fence closes, every link between pages (anchors included) resolves, each page starts with its task and
one command, the README stays the face (short, the seqeval drop-in on its first screen, one table that links every
page), and the public API is what the pages import."""
import ast
import importlib
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from pages import FENCE, PAGES, ROOT, blocks, expected_output, name, section, text

import nested_span_f1

DOCS = sorted(name(path) for path in (ROOT / "docs").glob("*.md"))
RUN_ELSEWHERE = {"docs/DESIGN.md": "tests/test_design_doc.py runs its examples, beside its checks of the citations"}
"""Pages whose Python blocks this file does not run, and why."""
RUN = ["README.md", *(page for page in DOCS if page not in RUN_ELSEWHERE)]
PYTHON = [(page, code, heading) for page in RUN for language, code, heading in blocks(page) if language == "python"]
TOPICS = [page for page in DOCS if page not in ("docs/index.md", "docs/DESIGN.md")]
"""The pages of one task each."""


def _run(args, cwd, **kwargs):
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=600, check=False, env=env, **kwargs)


def _trainer_log(line):
    """True for a line Trainer prints itself (a dict of logs with the epoch), which no comment can state: it holds
    run times."""
    try:
        logged = ast.literal_eval(line)
    except (ValueError, SyntaxError):
        return False
    return isinstance(logged, dict) and "epoch" in logged


def test_every_page_is_read_and_blocks_run():
    assert {"README.md", "docs/index.md", "docs/chunkers.md", "docs/cli.md", "docs/python.md"} <= {
        name(path) for path in PAGES}
    assert len(PYTHON) >= 25 and {page for page, _, _ in PYTHON} >= {"README.md", "docs/chunkers.md"}


@pytest.mark.parametrize("page", [name(path) for path in PAGES])
def test_fences_close_and_open_with_a_language(page):
    assert blocks(page) is not None  # blocks() asserts, naming the page and line
    assert not [line for line in text(page).splitlines() if line.startswith("````")]


@pytest.mark.parametrize(("page", "code", "heading"), PYTHON,
                         ids=[f"{page}-{i}-{heading.lstrip('# ')}" for i, (page, _, heading) in enumerate(PYTHON)])
def test_python_block_runs_as_written(page, code, heading, tmp_path):
    done = _run([sys.executable, "-W", "error::UserWarning", "-c", code], tmp_path)
    assert done.returncode == 0, done.stderr
    printed = done.stdout.splitlines()
    if "Trainer(" in code:
        printed = [line for line in printed if not _trainer_log(line)]
    assert printed == expected_output(code)
    assert done.stderr == ""


LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")


def _prose(page):
    """``(number, line)`` of a page's lines outside fenced blocks, inline code taken out (a link shown as code is
    no link)."""
    lines, fenced = [], False
    for number, line in enumerate(text(page).splitlines(), 1):
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced:
            lines.append((number, re.sub(r"`[^`]*`", "", line)))
    return lines


def anchors(path):
    """The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces as hyphens, a repeated
    one numbered."""
    seen, out = {}, set()
    for _, line in _prose(name(path)):
        if re.match(r"#+ ", line):
            slug = re.sub(r"[^\w\- ]", "", line.split(" ", 1)[1].strip().lower()).replace(" ", "-")
            out.add(slug if slug not in seen else f"{slug}-{seen[slug]}")
            seen[slug] = seen.get(slug, 0) + 1
    return out


def links(page):
    """``(line, target)`` of every relative link of a page."""
    return [(number, target) for number, line in _prose(page) for target in LINK.findall(line)
            if not re.match(r"[a-z]+:", target)]


def test_anchors_follow_githubs_rule():
    assert {"drop-in-for-evaluates-seqeval", "with-trainer", "set-up-two-commands"} <= anchors(ROOT / "README.md")
    assert "conlleval-and-conllevalpl" in anchors(ROOT / "docs" / "cli.md")


@pytest.mark.parametrize("page", [name(path) for path in PAGES])
def test_every_link_between_pages_resolves(page):
    broken = []
    for number, target in links(page):
        file, _, anchor = target.partition("#")
        path = (ROOT / page).parent / file if file else ROOT / page
        if not path.resolve().exists():
            broken.append(f"line {number}: {target}: no such file")
        elif anchor and path.suffix == ".md" and anchor not in anchors(path.resolve()):
            broken.append(f"line {number}: {target}: no heading {anchor!r} in {name(path.resolve())}")
    assert not broken, f"{page}: {broken}"


def test_the_link_check_sees_links_anchors_and_code():
    assert ("docs/python.md#exact-span-f1") in [target for _, target in links("README.md")]
    assert not [target for _, target in links("docs/cli.md") if target.startswith("http")]
    assert all("`" not in target for page in DOCS for _, target in links(page))


@pytest.mark.parametrize("page", [page for page in DOCS if page != "docs/DESIGN.md"])
def test_a_page_starts_with_its_task_and_one_command(page):
    body = text(page)
    title, rest = body.split("\n", 1)
    assert title.startswith("# ")
    intro = rest.split("```", 1)[0].strip()
    assert intro and not intro.startswith("#"), f"{page}: the task first, in a sentence"
    language, code, _ = blocks(page)[0]
    # a shell variable the command reads (samples=$(...)) is set-up, not a second command
    commands = [line for line in code.splitlines() if line.strip() and not line.startswith("#")
                and not re.match(r"\w+=\S", line)]
    assert (language, len(commands)) == ("bash", 1), f"{page}: its first block is one command"


def test_the_index_lists_every_page():
    listed = {target.partition("#")[0] for _, target in links("docs/index.md")}
    assert {page.removeprefix("docs/") for page in DOCS if page != "docs/index.md"} <= listed


README = text("README.md")


def test_the_readme_is_the_face():
    lines = README.splitlines()
    assert len(lines) <= 250
    first = next(n for n, line in enumerate(lines, 1) if "evaluate.load(nested_span_f1.metric_path(" in line)
    assert first <= 40
    headings = [line for line in lines if line.startswith("## ")]
    assert headings == ["## Install", "## Drop-in for evaluate's seqeval", "## With Trainer",
                        "## Which metric, which command", "## Set-up: two commands"]
    assert "Trainer(" in section("README.md", "## With Trainer")
    assert {language for language, _, _ in blocks("README.md")} == {"bash", "python", "diff"}


def test_one_table_links_every_topic_page():
    tables = [line for line in section("README.md", "## Which metric, which command").splitlines()
              if line.startswith("| ")]
    rows = tables[1:]  # after the header (the line of dashes starts with |-)
    assert tables[0] == "| you want | from Python (in `nested_span_f1`) | on the command line | page |"
    for row in rows:  # every name in the Python column is where it says: nested_span_f1.<name>
        for dotted in re.findall(r"(?<!module )`([\w.]+)`", row.split("|")[2]):
            module, _, attribute = f"nested_span_f1.{dotted}".rpartition(".")
            assert callable(getattr(importlib.import_module(module), attribute)), dotted
    assert all(LINK.search(row.rsplit("|", 2)[1]) for row in rows), "every row links its page in its last column"
    assert "compute_metrics_for" in rows[0] and "trainer.md" in rows[0]
    linked = {target.partition("#")[0] for row in rows for target in LINK.findall(row)}
    assert {page for page in TOPICS} <= linked
    assert sum(bool(re.fullmatch(r"\|(-+\|)+", line)) for line in README.splitlines()) == 1, "one table"


def test_set_up_commands_are_marked():
    marked = re.search(r"<!-- test-command -->\n```bash\n(.*)\n```\n<!-- /test-command -->", README)
    assert marked and marked.group(1) == ('python -m pip install torch==2.13.0 -e ".[test,train]" && '
                                          "python -m pytest -q -n 2 --dist loadfile --no-loadscope-reorder tests")
    assert "```bash\npython -m pip install . && nested-span-f1 demo\n```" in README
    contributing = text("CONTRIBUTING.md")
    assert f"```bash\n{marked.group(1)}\n```" in contributing  # the same command where its details are


def test_one_install_story():
    """The package is on no index: said once in the README, and no page installs it by its name from one."""
    assert README.count("on no index") == 1
    for page in [name(path) for path in PAGES]:
        assert not re.search(r"pip install [\"']?nested-span-f1", text(page)), page
    for extra in ("evaluate", "train", "plots", "arrow", "spark", "spacy", "nltk", "app"):
        assert f"`{extra}`" in section("README.md", "## Install"), extra


def test_contributing_says_how_long_what_skips_and_where_torch_comes_from():
    """What a newcomer running the tests tripped on (issue 26): how long the test command takes, which tests skip
    and why (printed by -rs), and how to get torch's CPU build anywhere; moved from the README (issue 47)."""
    setup = section("CONTRIBUTING.md", "## Running the tests")
    assert re.search(r"The test command takes about \d+ minutes: measured on \d{4}-\d\d-\d\d", setup)
    assert "--index-url https://download.pytorch.org/whl/cpu" in setup
    assert "`chromium` and `chromium-driver`" in setup
    browsers = sorted(str(path.relative_to(ROOT)) for path in (ROOT / "tests").rglob("test_*.py")
                      if re.search(r"^from selenium", path.read_text(encoding="utf-8"), re.M))
    skipping = setup.split("the browser tests", 1)[1].split("skip without", 1)[0]
    assert len(browsers) >= 2 and all(f"`{path}`" in skipping for path in browsers), (browsers, skipping)
    assert not re.search(r"\d[\d,]* tests", setup), setup  # no count of tests, which goes stale at each commit
    assert re.search(r"^addopts = .*-r\w*s", (ROOT / "pytest.ini").read_text(encoding="utf-8"), re.M)


def _imported_from_the_package(code):
    """The names a block takes from ``nested_span_f1`` itself: ``from nested_span_f1 import x`` and
    ``nested_span_f1.x`` where ``x`` is no submodule."""
    names = set()
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.ImportFrom) and node.module == "nested_span_f1" and not node.level:
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "nested_span_f1":
            if not (ROOT / "nested_span_f1" / node.attr).is_dir():
                names.add(node.attr)
    return names


def test_the_public_api_is_what_the_pages_import():
    imported = set()
    for page in ["README.md", *DOCS]:
        for language, code, _ in blocks(page):
            if language == "python":
                imported |= _imported_from_the_package(code)
            elif language == "bash":
                for script in re.findall(r"<<'PY'\n(.*?)\nPY\n", code, re.S):
                    imported |= _imported_from_the_package(script)
    assert sorted(nested_span_f1.__all__) == sorted(imported)
    assert all(getattr(nested_span_f1, public) is not None for public in nested_span_f1.__all__)


def test_python_md_lists_the_public_api_with_a_page_each():
    table = section("docs/python.md", "## The public API")
    rows = [line for line in table.splitlines() if line.startswith("| `")]
    listed = [re.match(r"\| `(\w+)` \|", row).group(1) for row in rows if re.match(r"\| `(\w+)` \|", row)]
    assert sorted(listed) == sorted(nested_span_f1.__all__) and len(listed) == len(set(listed))
    assert all(LINK.search(row) for row in rows)


def test_genia_path_runs_from_predictions_to_report(tmp_path):
    found = [(language, code) for language, code, heading in blocks("docs/formats.md")
             if heading == "## Score a nested model on GENIA"]
    assert [language for language, _ in found] == ["python", "bash"]
    done = _run([sys.executable, "-c", found[0][1]], tmp_path)
    assert done.returncode == 0, done.stderr
    done = _run(["bash", "-e", "-c", found[1][1]], tmp_path)
    assert done.returncode == 0, done.stderr
    assert "test set: 6 sentences" in done.stdout and "errors: correct=9" in done.stdout
    assert done.stderr == ""


def test_the_chunkers_conlleval_report(tmp_path):
    """The chunker's output written as CoNLL-2000 lines, scored by the command the page ends with."""
    written = section("docs/chunkers.md", "## conlleval")
    found = [(language, code) for language, code, heading in blocks("docs/chunkers.md") if heading == "## conlleval"]
    assert [language for language, _ in found] == ["python", "bash"]
    assert _run([sys.executable, "-c", found[0][1]], tmp_path).returncode == 0
    done = _run(["bash", "-e", "-c", found[1][1]], tmp_path)
    assert done.returncode == 0, done.stderr
    shown = re.search(r"prints `([^`]+)`", written).group(1)
    assert shown in done.stdout.splitlines()
    # the numbers of the page's first block, as percentages
    assert shown == "accuracy:  95.51%; precision:  84.00%; recall:  80.77%; FB1:  82.35"


def test_the_training_scripts_read_the_clones_samples():
    """The training scripts live in a clone only, where the repository's sample path is there too; every other
    block reads the installed samples (sample_path)."""
    for page in ["README.md", *DOCS]:
        for _, code, _ in blocks(page):
            assert "sample_data/" not in code or "scripts/" in code, (page, code)
