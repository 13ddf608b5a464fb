"""docs/harnesses.md runs as written: its Python blocks that need no harness print what their ``# value`` comments
say (the task files are run by the harness tests: test_lm_eval.py, test_inspect_ai.py, test_lighteval.py)."""
from __future__ import annotations

import subprocess
import sys

import pytest
from harness_sample import DOC, doc_blocks

HARNESSES = ("inspect_ai", "lighteval")
BLOCKS = [block for block in doc_blocks("python") if not any(f"from {h}" in block for h in HARNESSES)]


def test_every_python_block_is_run_somewhere():
    task_files = [block for block in doc_blocks("python") if block not in BLOCKS]
    assert len(task_files) == 2 and len(BLOCKS) == 1


@pytest.mark.parametrize("code", BLOCKS)
def test_python_block_runs_as_written(code):
    done = subprocess.run([sys.executable, "-W", "error::UserWarning", "-c", code], capture_output=True, text=True,
                          timeout=300, check=False, cwd=DOC.parent)
    assert done.returncode == 0, done.stderr
    expected = [line.split("  # ", 1)[1] for line in code.splitlines() if line.startswith("print(") and "  # " in line]
    assert done.stdout.splitlines() == expected
    assert done.stderr == ""
