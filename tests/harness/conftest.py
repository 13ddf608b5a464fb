"""The command's numbers on the shipped sample (tests/harness_sample.py), which every harness must give."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from nested_span_f1 import sample_path


@pytest.fixture(scope="session")
def command_result() -> dict:
    """``nested-span-f1 generated`` on the sample's gold and answers, as JSON (exact metric)."""
    done = subprocess.run([sys.executable, "-m", "nested_span_f1.cli", "generated", "--gold",
                           str(sample_path("sample.gold.conll")), "--pred", str(sample_path("sample.harness.jsonl")),
                           "--metric", "exact", "--json"], capture_output=True, text=True, check=True)
    return json.loads(done.stdout)
