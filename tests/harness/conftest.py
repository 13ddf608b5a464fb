"""The command's numbers on the shipped sample (tests/harness_sample.py), which every harness must give."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from nested_span_f1 import sample_path


def command(metric: str) -> dict:
    """``nested-span-f1 answers`` on the sample's gold and answers, as JSON."""
    done = subprocess.run([sys.executable, "-m", "nested_span_f1.cli", "answers", "--gold",
                           str(sample_path("sample.gold.conll")), "--pred", str(sample_path("sample.harness.jsonl")),
                           "--metric", metric, "--json"], capture_output=True, text=True, check=True)
    assert done.stderr == "warning: 1 of 15 answers (6.7%) could not be read: ['line 9']\n"
    return json.loads(done.stdout)


@pytest.fixture(scope="session")
def command_result() -> dict:
    """The command's result with the exact metric."""
    return command("exact")


@pytest.fixture(scope="session")
def lenient_result() -> dict:
    """The command's result with the lenient metric."""
    return command("lenient")
