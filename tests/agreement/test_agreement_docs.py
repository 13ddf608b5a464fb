"""docs/agreement.md as a reader runs it: every Python block prints what its ``print(...)  # value`` comments say,
and the bash blocks run in one shell, in order, on the installed samples."""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGE = (ROOT / "docs" / "agreement.md").read_text(encoding="utf-8")
PYTHON = re.findall(r"```python\n(.*?)```", PAGE, re.S)
BASH = re.findall(r"```bash\n(.*?)```", PAGE, re.S)


def _run(args):
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
           "OMP_NUM_THREADS": "1"}
    return subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=300, check=False, env=env)


@pytest.mark.parametrize("code", PYTHON, ids=[f"block-{k}" for k in range(len(PYTHON))])
def test_python_block_prints_what_it_says(code):
    expected = [line.split("  # ", 1)[1] for line in code.splitlines() if line.startswith("print(") and "  # " in line]
    done = _run([sys.executable, "-W", "error::UserWarning", "-c", code])
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == expected and expected
    assert done.stderr == ""


def test_the_commands_run():
    done = _run(["bash", "-e", "-c", "\n".join(BASH)])
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert done.stdout.count("agreement of 3 annotators (A, B, C) on 3 documents") == 3
    assert "disputed places: 5 (and 1 place every annotator agrees on)" in done.stdout
    assert "written as a brat folder to " in done.stdout
