"""The package as published and as installed from a clone: ``python -m build`` makes an sdist, and from it a wheel,
that ``twine check --strict`` passes (the README renders as the long description), with its metadata, ``py.typed``,
the metric modules, the sample data and the files the README links; the wheel built from the sdist installs and runs
``nested-span-f1 demo``; a plain (non-editable) ``pip install .`` in a fresh virtual environment writes a Space folder
whose wheel is the built one, file for file; a plain install loads the metrics."""
import contextlib
import io
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest

import nested_span_f1
from nested_span_f1.cli.main import main
from nested_span_f1.hf.metric import PROJECT_URL
from nested_span_f1.hf.paths import METRICS, MODULES

pytest.importorskip("build")
pytest.importorskip("twine")

ROOT = Path(__file__).resolve().parents[1]
VERSION = nested_span_f1.__version__
CLEAN_ENV = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}


@pytest.fixture(scope="module")
def source(tmp_path_factory):
    """A copy of the checkout as a clone has it: a build writes build/, *.egg-info and the sdist's folder beside its
    sources, and a test that runs at the same time checks that the commands leave the checkout as it was."""
    copy = tmp_path_factory.mktemp("checkout") / "source"
    shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns(".*", "build", "dist", "*.egg-info", "__pycache__", "venv"))
    return copy


@pytest.fixture(scope="module")
def dist(source, tmp_path_factory):
    """sdist and wheel of the checkout, built as a release is (no build isolation: the test env has setuptools):
    the sdist from the sources, the wheel from the sdist."""
    out = tmp_path_factory.mktemp("dist")
    done = subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(source)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Building wheel from sdist" in done.stdout + done.stderr, done.stderr[-3000:]
    return out / f"nested_span_f1-{VERSION}.tar.gz", out / f"nested_span_f1-{VERSION}-py3-none-any.whl"


def fresh_venv(folder: Path) -> Path:
    """A fresh virtual environment without pip whose Python also sees this environment's packages (numpy, evaluate,
    gradio...: a ``.pth`` file names this site-packages, whose own ``.pth`` files, this checkout's editable install
    among them, are not read), so that ``pip install --no-deps`` installs the package alone; its ``bin/`` folder."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True)
    python = folder / "bin" / "python"
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    Path(site, "test_environment.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    return folder / "bin"


def pip_install(bin_folder: Path, *what: str) -> None:
    """This environment's pip, run with the fresh environment's Python, installs ``what`` there, without
    dependencies (they are seen already) and without build isolation (setuptools is seen already)."""
    done = subprocess.run([sys.executable, "-m", "pip", "--python", str(bin_folder / "python"), "install", "-q",
                           "--no-deps", "--no-build-isolation", "--no-compile", *what],
                          env=CLEAN_ENV, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]


def entries(wheel: Path) -> dict[str, bytes]:
    """A wheel's files and their bytes, its RECORD's lines sorted (their order is the packer's)."""
    archive = zipfile.ZipFile(wheel)
    files = {name: archive.read(name) for name in archive.namelist()}
    record = f"nested_span_f1-{VERSION}.dist-info/RECORD"
    files[record] = b"\n".join(sorted(files[record].splitlines()))
    return files


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
    assert all(f"nested_span_f1/harness/{m}.py" in names for m in ("figures", "lm_eval", "inspect_ai", "lighteval"))
    for sample in ("sample.gold.conll", "sample.pred.conll", "nested.gold.jsonl", "nested.pred.jsonl",
                   "nested.annotator2.jsonl", "brat-project/annotation.conf", "brat-project/C/d2.ann",
                   "sample.ner.jsonl", "sample.harness.jsonl", "chunks.conll"):
        assert f"nested_span_f1/sample_data/{sample}" in names


def test_sdist_carries_the_sources_the_wheel_is_built_from(dist):
    prefix = f"nested_span_f1-{nested_span_f1.__version__}/"
    names = set(tarfile.open(dist[0]).getnames())
    # the design document too: the sources cite it by heading
    for path in ("setup.py", "pyproject.toml", "README.md", "nested_span_f1/py.typed", "docs/DESIGN.md",
                 *(f"metrics/{m}/{m}.py" for m in MODULES.values())):
        assert prefix + path in names, path


def test_sdist_carries_every_file_the_readme_links(dist):
    """A reader of the unpacked sdist (or of the long description next to it) finds every page the README links."""
    names = set(tarfile.open(dist[0]).getnames())
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    linked = {target.split("#", 1)[0] for target in re.findall(r"\]\(([^)\s]+)\)", readme)
              if not re.match(r"[a-z]+:|#", target)}
    assert linked, "the README links no file of the repository: the pattern no longer matches its links"
    assert sorted(path for path in linked if f"nested_span_f1-{VERSION}/{path}" not in names) == []


def test_the_wheel_built_from_the_sdist_installs_and_runs_the_demo(dist, tmp_path):
    bin_folder = fresh_venv(tmp_path / "venv")
    pip_install(bin_folder, str(dist[1]))
    done = subprocess.run([str(bin_folder / "nested-span-f1"), "demo"], cwd=tmp_path, env=CLEAN_ENV,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]
    here = io.StringIO()
    with contextlib.redirect_stdout(here):
        assert main(["demo"]) == 0
    assert done.stdout == here.getvalue() and "overall" in done.stdout


def test_a_plain_install_from_a_clone_writes_a_space_folder_with_the_built_wheel(source, dist, tmp_path):
    """``pip install .`` (not editable) leaves no checkout beside the installed package: ``nested-span-f1 space``
    packs the installed files back into their wheel, which is the wheel ``python -m build`` makes, file for file."""
    bin_folder = fresh_venv(tmp_path / "venv")
    pip_install(bin_folder, str(source))
    found = subprocess.run([str(bin_folder / "python"), "-c", "import nested_span_f1; print(nested_span_f1.__file__)"],
                           cwd=tmp_path, env=CLEAN_ENV, capture_output=True, text=True, check=True).stdout.strip()
    package = Path(found).parent
    assert package.is_relative_to(tmp_path / "venv") and not (package.parent / "setup.py").exists()

    def space(out: Path, **env: str) -> subprocess.CompletedProcess:
        return subprocess.run([str(bin_folder / "python"), "-m", "nested_span_f1.cli", "space", METRICS[0], str(out)],
                              cwd=tmp_path, env={**CLEAN_ENV, **env}, capture_output=True, text=True)

    done = space(tmp_path / "my_space")
    assert done.returncode == 0, done.stderr[-3000:]
    (wheel,) = (tmp_path / "my_space").glob("*.whl")
    assert wheel.name == dist[1].name
    assert entries(wheel) == entries(dist[1])
    requirements = (tmp_path / "my_space" / "requirements.txt").read_text(encoding="utf-8").splitlines()
    assert requirements[1] == f"./{wheel.name}"

    # the package copied elsewhere: no checkout beside it, and no installed distribution lists its files
    shutil.copytree(package, tmp_path / "elsewhere" / "nested_span_f1")
    done = space(tmp_path / "not_written", PYTHONPATH=str(tmp_path / "elsewhere"))
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (f"nested-span-f1 space: error: {(tmp_path / 'elsewhere' / 'nested_span_f1').resolve()} is "
                           "neither in a source checkout nor installed by pip (no nested-span-f1 distribution lists its "
                           "files), so there is no wheel to ship; pass --wheel PATH\n")
    # an installed file changed since it was installed is not packed as if it were the release
    with open(package / "py.typed", "a", encoding="utf-8") as typed:
        typed.write("# changed\n")
    done = space(tmp_path / "not_written_either")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (f"nested-span-f1 space: error: {package / 'py.typed'} is not the file that was installed (its "
                           f"hash differs from nested_span_f1-{VERSION}.dist-info/RECORD); reinstall nested-span-f1, or "
                           "pass --wheel PATH\n")
    assert not (tmp_path / "not_written").exists() and not (tmp_path / "not_written_either").exists()


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
