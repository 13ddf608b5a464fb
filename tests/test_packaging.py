"""After a plain (non-editable) install, the metric modules and sample data ship with the package."""
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from nested_span_f1.paths import METRICS

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """Build a wheel of the checkout and install it, without dependencies, into a bare folder."""
    wheels = tmp_path_factory.mktemp("wheels")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(wheels), str(ROOT)],
        check=True, capture_output=True,
    )
    wheel = next(wheels.glob("nested_span_f1-*.whl"))
    target = tmp_path_factory.mktemp("site")
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target), str(wheel)],
        check=True, capture_output=True,
    )
    return wheel, target


def test_wheel_carries_metric_modules_and_samples(installed):
    wheel, _ = installed
    names = set(zipfile.ZipFile(wheel).namelist())
    for metric in METRICS:
        for file in (f"{metric}.py", "README.md", "app.py", "requirements.txt"):
            assert f"nested_span_f1/metrics/{metric}/{file}" in names
    for sample in ("sample.gold.conll", "sample.pred.conll", "nested.gold.jsonl", "nested.pred.jsonl"):
        assert f"nested_span_f1/sample_data/{sample}" in names


def test_evaluate_load_from_installed_package(installed, tmp_path):
    _, target = installed
    code = (
        "import evaluate, nested_span_f1\n"
        "path = nested_span_f1.metric_path('span_f1')\n"
        f"assert path.startswith({str(target)!r}), path\n"
        "m = evaluate.load(path)\n"
        "r = m.compute(predictions=[['B-PER', 'I-PER', 'O']], references=[['B-PER', 'I-PER', 'B-LOC']])\n"
        "print(r['overall_f1'], r['PER']['number'])\n"
    )
    env = dict(os.environ, PYTHONPATH=str(target), HF_EVALUATE_OFFLINE="1", HF_HUB_OFFLINE="1",
               HF_DATASETS_OFFLINE="1", HF_HOME=str(tmp_path / "hf"))
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["0.6666666666666666", "1"]
