"""docs/thresholds.md's commands run as written, in order, in one empty folder, from the block that makes the small
set they read ('Try it on a small set'): every ``nested-span-f1`` line of a bash block exits 0, and every line of the
text block after a bash block is a line those commands printed (tests/test_docs.py runs the page's Python blocks
and checks their prints)."""
from __future__ import annotations

import contextlib
import io
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from nested_span_f1.cli.main import main

PAGE = Path(__file__).resolve().parents[2] / "docs" / "thresholds.md"
BLOCK = re.compile(r"^```(\w+)\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def blocks():
    return [(language, code) for language, code in BLOCK.findall(PAGE.read_text(encoding="utf-8"))]


def test_the_commands_run_as_written(tmp_path, monkeypatch):
    pytest.importorskip("matplotlib")
    monkeypatch.chdir(tmp_path)
    found = blocks()
    first = next(k for k, (language, code) in enumerate(found) if language == "python" and 'split("test", 30)' in code)
    done = subprocess.run([sys.executable, "-c", found[first][1]], capture_output=True, text=True, timeout=300,
                          check=False)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    printed: list[str] = []
    options = set()
    for k, (language, code) in enumerate(found[first + 1:], first + 1):
        if language == "bash":
            printed = []
            for line in code.splitlines():
                args = shlex.split(line)
                assert args[:2] == ["nested-span-f1", "thresholds"], line
                options |= {arg for arg in args if arg.startswith("--")}
                out = io.StringIO()
                with contextlib.redirect_stdout(out):
                    assert main(args[1:]) == 0, line
                printed += out.getvalue().splitlines()
        elif language == "text":
            for line in code.splitlines():
                assert any(line in shown for shown in printed), (k, line)
    assert {"--top-k", "--calibration", "--calibration-plot", "--title", "--percent", "--bootstrap", "--seed",
            "--confidence", "--units", "--per-type", "--plot"} <= options
    assert (tmp_path / "curves.png").is_file() and (tmp_path / "reliability.html").is_file()
