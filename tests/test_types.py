"""The core package type-checks (mypy, configured in pyproject.toml)."""
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("mypy")

ROOT = Path(__file__).resolve().parents[1]


def test_mypy_is_clean(request, tmp_path):
    """mypy keeps its cache in pytest's cache folder when there is one (a rerun checks only what changed), else in
    a fresh folder (a whole check, as on a fresh clone)."""
    cache = request.config.cache.mkdir("mypy") if getattr(request.config, "cache", None) else tmp_path
    out = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(cache), "nested_span_f1"],
                         cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout[-3000:]
