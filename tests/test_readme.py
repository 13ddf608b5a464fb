"""The README as a new user reads it: every fence closes, every Python block runs as written on the
shipped sample data and prints what its comments say, and the set-up commands stay marked."""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
FENCE = re.compile(r"^```(\S*)\s*$")


def _blocks():
    """(language, code, heading) of every fenced block; fails on a fence left open or opened bare."""
    blocks, heading, language, code = [], "", None, []
    for number, line in enumerate(README.splitlines(), 1):
        fence = FENCE.match(line)
        if language is None:
            if line.startswith("#"):
                heading = line
            elif fence:
                assert fence.group(1), f"README line {number}: a fence opens without a language"
                language, code = fence.group(1), []
            else:
                assert "```" not in line or line.count("`") != 3, f"README line {number}: stray fence {line!r}"
        elif fence:
            assert not fence.group(1), f"README line {number}: a fence opens inside the {language} block"
            blocks.append((language, "\n".join(code) + "\n", heading))
            language = None
        else:
            code.append(line)
    assert language is None, f"the README ends inside a {language} block"
    return blocks


BLOCKS = _blocks()
PYTHON = [(code, heading) for language, code, heading in BLOCKS if language == "python"]


def test_fences_close_and_headings_render():
    headings = [line for line in README.splitlines() if line.startswith("## ")]
    inside = {heading for _, code, _ in BLOCKS for heading in code.splitlines() if heading.startswith("## ")}
    assert not inside
    for expected in ("## Set-up: two commands", "## Which metric do I want", "## Use from evaluate",
                     "## Use with Trainer", "## Score a nested model on GENIA", "## Use from the command line"):
        assert expected in headings
    assert {language for language, _, _ in BLOCKS} == {"bash", "python"}


def test_set_up_commands_are_marked():
    marked = re.search(r"<!-- test-command -->\n```bash\n(.*)\n```\n<!-- /test-command -->", README)
    assert marked and marked.group(1).endswith("python -m pytest -q -n 2 --dist loadfile --no-loadscope-reorder tests")
    assert "```bash\npython -m pip install . && nested-span-f1 demo\n```" in README


def test_extras_are_listed():
    for extra in ("evaluate", "plots", "train", "app"):
        assert re.search(rf"^\| `{extra}` \| .+ \| .+ \|$", README, re.M), extra


def _expected_output(code):
    """The comment of every ``print(...)  # value`` line, in order: what the block must print."""
    return [line.split("  # ", 1)[1] for line in code.splitlines() if line.startswith("print(") and "  # " in line]


def _run(args, **kwargs):
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    return subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=300, check=False, env=env, **kwargs)


@pytest.mark.parametrize(("code", "heading"), PYTHON, ids=[f"{i}-{h[3:]}" for i, (_, h) in enumerate(PYTHON)])
def test_python_block_runs_as_written(code, heading):
    done = _run([sys.executable, "-W", "error::UserWarning", "-c", code])
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == _expected_output(code)
    assert done.stderr == ""


def test_genia_path_runs_from_predictions_to_report():
    section = [(language, code) for language, code, heading in BLOCKS if heading == "## Score a nested model on GENIA"]
    assert [language for language, _ in section] == ["python", "bash"]
    done = _run([sys.executable, "-c", section[0][1]])
    assert done.returncode == 0, done.stderr
    done = _run(["bash", "-e", "-c", section[1][1]])
    assert done.returncode == 0, done.stderr
    assert "test set: 6 sentences" in done.stdout and "errors: correct=9" in done.stdout
    assert done.stderr == ""


def test_newcomer_finds_time_skips_torch_build_space_and_installed_samples():
    """What a newcomer following the README tripped on (issue 26): how long the test command takes, which
    tests skip and why (printed by -rs), how to get torch's CPU build anywhere, the space command, and
    examples that read the installed samples, not paths of a clone."""
    setup = README.split("## Set-up: two commands", 1)[1].split("\n## ", 1)[0]
    assert re.search(r"The test command takes about \d+ minutes: measured on \d{4}-\d\d-\d\d", setup)
    assert "--index-url https://download.pytorch.org/whl/cpu" in setup
    assert "`chromium` and `chromium-driver`" in setup
    # every test file that drives a browser is named where the README says which tests skip without one
    browsers = sorted(str(path.relative_to(ROOT)) for path in (ROOT / "tests").rglob("test_*.py")
                      if re.search(r"^from selenium", path.read_text(encoding="utf-8"), re.M))
    skipping = setup.split("the browser tests", 1)[1].split("skip without", 1)[0]
    assert len(browsers) >= 2 and all(f"`{path}`" in skipping for path in browsers), (browsers, skipping)
    # no count of tests, which goes stale at each commit
    assert not re.search(r"\d[\d,]* tests", setup), setup
    assert re.search(r"^addopts = .*-r\w*s", (ROOT / "pytest.ini").read_text(encoding="utf-8"), re.M)
    assert "nested-span-f1 space " in README
    for _, code, _ in BLOCKS:
        # the training scripts live in a clone only, where the repository's sample path is there too
        assert "sample_data/" not in code or "scripts/" in code, code
