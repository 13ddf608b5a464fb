"""The package as published: ``python -m build`` makes an sdist and a wheel that ``twine check`` passes,
with its metadata, ``py.typed``, the metric modules and the sample data; a plain install loads the metrics."""
import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest

import nested_span_f1
from nested_span_f1.hf.metric import PROJECT_URL
from nested_span_f1.hf.paths import MODULES

pytest.importorskip("build")
pytest.importorskip("twine")

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def dist(tmp_path_factory):
    """sdist and wheel of the checkout, built as a release is (no build isolation: the test env has setuptools).

    Built from a copy: a build writes build/, *.egg-info and the sdist's folder beside its sources, and a test that
    runs at the same time checks that the commands leave the checkout as it was."""
    out, source = tmp_path_factory.mktemp("dist"), tmp_path_factory.mktemp("checkout") / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(".*", "build", "dist", "*.egg-info", "__pycache__",
                                                                "venv"))
    done = subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(source)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]
    version = nested_span_f1.__version__
    return out / f"nested_span_f1-{version}.tar.gz", out / f"nested_span_f1-{version}-py3-none-any.whl"


@pytest.fixture(scope="module")
def installed(dist, tmp_path_factory):
    """The wheel installed, without dependencies, into a bare folder."""
    target = tmp_path_factory.mktemp("site")
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target), str(dist[1])],
        check=True, capture_output=True,
    )
    return target


def test_twine_check_passes(dist):
    done = subprocess.run([sys.executable, "-m", "twine", "check", "--strict", *map(str, dist)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("PASSED") == 2


def test_metadata_names_project_licence_python_and_version(dist):
    wheel = zipfile.ZipFile(dist[1])
    meta = Parser().parsestr(wheel.read(f"nested_span_f1-{nested_span_f1.__version__}.dist-info/METADATA").decode())
    assert meta["Name"] == "nested-span-f1"
    assert meta["Version"] == nested_span_f1.__version__
    assert meta["License-Expression"] == "Apache-2.0"
    assert meta["Requires-Python"] == ">=3.10"
    assert meta["Home-page"] == PROJECT_URL
    assert {u.split(", ")[0] for u in meta.get_all("Project-URL")} == {"Source", "Issues"}
    assert "Typing :: Typed" in meta.get_all("Classifier")
    assert meta["Description-Content-Type"] == "text/markdown"


def test_wheel_carries_py_typed_metric_modules_and_samples(dist):
    names = set(zipfile.ZipFile(dist[1]).namelist())
    assert "nested_span_f1/py.typed" in names
    assert "nested_span_f1/space/app.py" in names and "nested_span_f1/cli/commands/space.py" in names
    for metric in MODULES.values():
        for file in (f"{metric}.py", "README.md", "app.py", "requirements.txt"):
            assert f"nested_span_f1/metrics/{metric}/{file}" in names
    for sample in ("sample.gold.conll", "sample.pred.conll", "nested.gold.jsonl", "nested.pred.jsonl",
                   "nested.annotator2.jsonl", "brat-project/annotation.conf", "brat-project/C/d2.ann"):
        assert f"nested_span_f1/sample_data/{sample}" in names


def test_sdist_carries_the_sources_the_wheel_is_built_from(dist):
    prefix = f"nested_span_f1-{nested_span_f1.__version__}/"
    names = set(tarfile.open(dist[0]).getnames())
    # the design document too: the sources cite it by heading
    for path in ("setup.py", "pyproject.toml", "README.md", "nested_span_f1/py.typed", "docs/DESIGN.md",
                 *(f"metrics/{m}/{m}.py" for m in MODULES.values())):
        assert prefix + path in names, path


def test_evaluate_load_from_installed_package(installed, tmp_path):
    code = (
        "import evaluate, nested_span_f1\n"
        "path = nested_span_f1.metric_path('exact')\n"
        f"assert path.startswith({str(installed)!r}), path\n"
        "m = evaluate.load(path)\n"
        "r = m.compute(predictions=[['B-PER', 'I-PER', 'O']], references=[['B-PER', 'I-PER', 'B-LOC']])\n"
        "print(r['overall_f1'], r['PER']['number'])\n"
    )
    env = dict(os.environ, PYTHONPATH=str(installed), HF_EVALUATE_OFFLINE="1", HF_HUB_OFFLINE="1",
               HF_DATASETS_OFFLINE="1", HF_HOME=str(tmp_path / "hf"))
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["0.6666666666666666", "1"]
