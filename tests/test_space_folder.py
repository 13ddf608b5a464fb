"""``nested-span-f1 space NAME OUT_DIR`` tried as the Hub would: a fresh virtual environment, the folder alone.

Each folder is written outside the repository, its requirements are installed
by pip run from inside it into one fresh venv shared by the three metrics (their
pins are the same, so pip has nothing to do after the first), then ``python
app.py`` must serve its page (the browser test drives the same app), and ``evaluate.load(folder)`` must compute what
the repository's module computes.
"""
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from importlib import metadata
from pathlib import Path

import evaluate
import pytest

from nested_span_f1.paths import METRICS, metric_path
from nested_span_f1.space_inputs import parse, preset

pytest.importorskip("gradio")

EXAMPLE = {"span_f1": "flat", "lenient_span_f1": "nested", "nested_span_f1": "nested"}
CLEAN_ENV = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
OFFLINE = dict(CLEAN_ENV, HF_HUB_OFFLINE="1", HF_DATASETS_OFFLINE="1", HF_EVALUATE_OFFLINE="1",
               GRADIO_ANALYTICS_ENABLED="False", PYTHONDONTWRITEBYTECODE="1")


@pytest.fixture(scope="module")
def fresh_python(tmp_path_factory):
    """A virtual environment without the repository or its packages: only what a folder installs."""
    venv = tmp_path_factory.mktemp("hub") / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    return venv / "bin" / "python"


@pytest.fixture(scope="module")
def spaces(tmp_path_factory):
    """Write a metric's Space folder; the first builds the wheel, the others ship that same wheel."""
    root = tmp_path_factory.mktemp("spaces")
    wheels: list[Path] = []

    def write(name: str) -> Path:
        out = root / f"org_{name}"
        cli = [sys.executable, "-m", "nested_span_f1.cli", "space", name, str(out)]
        done = subprocess.run(cli + [f"--wheel={w}" for w in wheels[:1]], cwd=root, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        wheels.extend(out.glob("nested_span_f1-*.whl"))
        return out

    return write


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _run(python: Path, code: str, cwd: Path) -> str:
    done = subprocess.run([str(python), "-c", code], cwd=cwd, env=OFFLINE, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


@pytest.mark.parametrize("name", METRICS)
def test_space_folder_installs_serves_and_loads_alone(name, spaces, fresh_python, tmp_path):
    out = spaces(name)
    assert sorted(p.name for p in out.iterdir() if p.suffix != ".whl") == sorted(
        ["README.md", "app.py", "requirements.txt", f"{out.name}.py"])
    requirements = (out / "requirements.txt").read_text().splitlines()
    wheel = next(out.glob("nested_span_f1-*.whl")).name
    needs = ("evaluate", "datasets", "gradio", "matplotlib", "numpy", "pandas")
    assert requirements[1:] == [f"./{wheel}", *(f"{n}=={metadata.version(n)}" for n in needs)]
    gradio_pin = next(r for r in requirements if r.startswith("gradio=="))
    assert f"sdk_version: {gradio_pin[8:]}\n" in (out / "README.md").read_text()

    # this pip installs into the fresh venv (--python): the venv needs no pip of its own; --no-compile
    # skips writing bytecode, which changes no behaviour and is a large part of the install time
    install = subprocess.run([sys.executable, "-m", "pip", "--python", str(fresh_python), "install", "-q",
                              "--no-compile", "-r", "requirements.txt"],
                             cwd=out, env=CLEAN_ENV, capture_output=True, text=True)
    assert install.returncode == 0, install.stderr[-3000:]

    text = preset(EXAMPLE[name])
    predictions, references = parse(text)
    expected = json.loads(json.dumps(evaluate.load(metric_path(name)).compute(
        predictions=predictions, references=references, zero_division=0)))

    loaded = _run(fresh_python, (
        "import json, sys, evaluate, nested_span_f1\n"
        f"assert {str(Path(metric_path(name)).parents[1])!r} not in nested_span_f1.__file__\n"
        f"m = evaluate.load({str(out)!r})\n"
        f"print(json.dumps(m.compute(predictions={predictions!r}, references={references!r}, zero_division=0)))\n"
    ), cwd=out)
    assert json.loads(loaded) == expected

    port = _free_port()
    log = open(tmp_path / "app.log", "w")
    app = subprocess.Popen([str(fresh_python), "app.py"], cwd=out, stdout=log, stderr=subprocess.STDOUT,
                           env=dict(OFFLINE, GRADIO_SERVER_PORT=str(port), GRADIO_SERVER_NAME="127.0.0.1"))
    url = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.time() + 120
        while True:
            assert app.poll() is None, (tmp_path / "app.log").read_text()[-3000:]
            try:
                urllib.request.urlopen(url, timeout=2)
                break
            except OSError:
                assert time.time() < deadline, (tmp_path / "app.log").read_text()[-3000:]
                time.sleep(0.5)
        with urllib.request.urlopen(url, timeout=10) as page:
            assert f'"title":"{name}"' in page.read().decode("utf-8")
    finally:
        app.terminate()
        app.wait(timeout=30)
        log.close()
