"""docs/thresholds.md runs as written, in order, in one empty folder: every Python block prints what its
``print(...)  # value`` comments say, every ``nested-span-f1`` line of a bash block exits 0, and every line of the
text block after a bash block is a line those commands printed."""
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


def test_the_page_runs_as_written(tmp_path, monkeypatch):
    pytest.importorskip("matplotlib")
    monkeypatch.chdir(tmp_path)
    printed: list[str] = []
    options = set()
    for k, (language, code) in enumerate(blocks()):
        if language == "python":
            done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                                  check=False)
            assert done.returncode == 0 and done.stderr == "", (k, done.stderr)
            expected = [line.split("  # ", 1)[1] for line in code.splitlines()
                        if line.startswith("print(") and "  # " in line]
            assert done.stdout.splitlines() == expected, k
        elif language == "bash":
            printed = []
            for line in code.splitlines():
                args = shlex.split(line)
                if k == 0:  # the first command names the files the page makes next
                    continue
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
