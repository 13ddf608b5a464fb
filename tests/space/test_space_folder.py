"""``nested-span-f1 space NAME OUT_DIR`` tried as the Hub would: a fresh virtual environment, the folder alone.

Each folder is written outside the repository and its requirements are
installed by pip run from inside it, into one fresh venv shared by the three
metrics (their pins are the same, so pip has nothing to do after the first).
Then, for the three folders at once, ``python app.py`` must serve its page (the
browser test drives the same app) and ``evaluate.load(folder)``, run from inside
the folder, must compute what the repository's module computes.
"""
import json
import os
import shlex
import socket
import subprocess
import sys
import time
import urllib.request
import warnings
from importlib import metadata
from pathlib import Path

import evaluate
import pytest

import nested_span_f1
from nested_span_f1.cli.commands.space import write_space
from nested_span_f1.cli.main import main
from nested_span_f1.core.matching import DuplicateSpanWarning
from nested_span_f1.hf.paths import METRICS, MODULES, metric_path
from nested_span_f1.space.inputs import parse, preset

pytest.importorskip("gradio")

EXAMPLE = {"exact": "flat", "lenient": "nested", "nested": "nested"}
NEEDS = ("evaluate", "datasets", "gradio", "matplotlib", "numpy", "pandas")
CLEAN_ENV = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
OFFLINE = dict(CLEAN_ENV, HF_HUB_OFFLINE="1", HF_DATASETS_OFFLINE="1", HF_EVALUATE_OFFLINE="1",
               GRADIO_ANALYTICS_ENABLED="False")
WARM_UP = "import evaluate, gradio, matplotlib.pyplot, nested_span_f1"
"""What the apps and the loads import, imported once before they start so that they read compiled bytecode."""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _load_code(folder: Path, predictions, references) -> str:
    return (
        "import json, evaluate, nested_span_f1\n"
        f"assert {str(Path(metric_path('exact')).parents[1])!r} not in nested_span_f1.__file__\n"
        f"m = evaluate.load({str(folder)!r})\n"
        f"print(json.dumps(m.compute(predictions={predictions!r}, references={references!r}, zero_division=0)))\n"
    )


@pytest.fixture(scope="module")
def hub(tmp_path_factory):
    """Write the three folders, install each folder's requirements into one fresh venv, then start every
    app and every ``evaluate.load`` at once; yield per metric the folder, the app's URL and the processes."""
    root = tmp_path_factory.mktemp("hub")
    # bytecode goes to a folder of its own: none is written into the metric folders, whose files are checked
    env = dict(OFFLINE, PYTHONPYCACHEPREFIX=str(root / "bytecode"), TMPDIR=str(root))  # gradio's cache there too
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    venv = root / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    folders = {}
    for name in METRICS:
        out = root / f"org_{name}"
        wheel = [f"--wheel={w}" for w in (root.glob("org_*/nested_span_f1-*.whl"))][:1]
        done = subprocess.run([sys.executable, "-m", "nested_span_f1.cli", "space", name, str(out), *wheel],
                              cwd=root, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        # this pip installs into the fresh venv (--python), which needs no pip of its own; --no-compile
        # skips writing bytecode, which changes no behaviour and is a large part of the install time
        install = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q",
                                  "--no-compile", "-r", "requirements.txt"],
                                 cwd=out, env=CLEAN_ENV, capture_output=True, text=True)
        assert install.returncode == 0, install.stderr[-3000:]
        folders[name] = out
    # pip ran with --no-compile; six processes compiling the same modules at once cost more than one doing it first
    warm = subprocess.run([str(python), "-c", WARM_UP], env=env, capture_output=True, text=True)
    assert warm.returncode == 0, warm.stderr[-3000:]
    running = {}
    try:
        for name, out in folders.items():
            port = _free_port()
            log = open(out.parent / f"{name}.log", "w")
            app = subprocess.Popen([str(python), "app.py"], cwd=out, stdout=log, stderr=subprocess.STDOUT,
                                   env=dict(env, GRADIO_SERVER_PORT=str(port), GRADIO_SERVER_NAME="127.0.0.1"))
            predictions, references, _ = parse(preset(EXAMPLE[name]))
            load = subprocess.Popen([str(python), "-c", _load_code(out, predictions, references)], cwd=out,
                                    env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            running[name] = (out, f"http://127.0.0.1:{port}/", app, load, log)
        yield running
    finally:
        for _, _, app, load, log in running.values():
            app.terminate()
            app.wait(timeout=30)
            load.kill()
            load.wait()
            log.close()


@pytest.mark.parametrize("name", METRICS)
def test_space_folder_installs_serves_and_loads_alone(name, hub):
    out, url, app, load, _ = hub[name]
    assert sorted(p.name for p in out.iterdir() if p.suffix != ".whl") == sorted(
        ["README.md", "app.py", "requirements.txt", f"{out.name}.py"])
    requirements = (out / "requirements.txt").read_text().splitlines()
    wheel = next(out.glob("nested_span_f1-*.whl")).name
    assert requirements[1:] == [f"./{wheel}", *(f"{n}=={metadata.version(n)}" for n in NEEDS)]
    assert f"sdk_version: {metadata.version('gradio')}\n" in (out / "README.md").read_text()
    # the card's install command, exactly as it stands, names the shipped wheel and pip takes it from the folder
    (command,) = _card_commands(out)
    assert command == f'python -m pip install "./{wheel}[evaluate]"'
    args = shlex.split(command)[1:]
    report = subprocess.run([sys.executable, *args, "--dry-run", "--no-deps", "--ignore-installed", "--quiet",
                             "--report", "-"], cwd=out, env=CLEAN_ENV, capture_output=True, text=True)
    assert report.returncode == 0, report.stderr[-3000:]
    (installed,) = json.loads(report.stdout)["install"]
    assert (installed["metadata"]["name"], installed["metadata"]["version"]) == ("nested-span-f1", nested_span_f1.__version__)
    assert installed["requested_extras"] == ["evaluate"] and installed["download_info"]["url"].endswith(wheel)

    predictions, references, _ = parse(preset(EXAMPLE[name]))
    with warnings.catch_warnings():
        # the nested sample lists one span twice on purpose; the result reports it as duplicate_predictions
        warnings.simplefilter("ignore", DuplicateSpanWarning)
        expected = json.loads(json.dumps(evaluate.load(metric_path(name)).compute(
            predictions=predictions, references=references, zero_division=0)))
    stdout, stderr = load.communicate(timeout=300)
    assert load.returncode == 0, stderr[-3000:]
    assert json.loads(stdout) == expected

    deadline = time.time() + 180
    while True:
        assert app.poll() is None, (out.parent / f"{name}.log").read_text()[-3000:]
        try:
            with urllib.request.urlopen(url, timeout=5) as page:
                assert f'"title":"{MODULES[name]}"' in page.read().decode("utf-8")
            break
        except OSError:
            assert time.time() < deadline, (out.parent / f"{name}.log").read_text()[-3000:]
            time.sleep(0.5)


@pytest.mark.parametrize(("folder", "message"), [
    ("org-span", "the folder name 'org-span' is not a Python identifier"),
    ("taken", "exists and is not an empty folder; choose a new folder"),
    ("span_f1 --space org", "--space 'org' is not ORG/NAME"),
], ids=["not-an-identifier", "not-empty", "not-a-space"])
def test_space_command_refuses_a_folder_in_one_line(folder, message, tmp_path, capsys):
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "file").write_text("x")
    folder, *more = folder.split()
    assert main(["space", "exact", str(tmp_path / folder), *more]) == 2
    err = capsys.readouterr().err
    assert err.startswith("nested-span-f1 space: error: ") and message in err and err.count("\n") == 1


def test_space_command_can_name_the_wheel_by_its_url_on_the_space(tmp_path):
    out = tmp_path / "span_f1"
    wheel = tmp_path / "nested_span_f1-0.0.0-py3-none-any.whl"
    wheel.write_bytes(b"")
    with pytest.raises(ValueError, match="is not a wheel of nested-span-f1"):
        write_space("exact", out, wheel, space="org/span_f1")
    wheel = wheel.rename(tmp_path / f"nested_span_f1-{nested_span_f1.__version__}-py3-none-any.whl")
    write_space("exact", out, wheel, space="org/span_f1")
    url = f"https://huggingface.co/spaces/org/span_f1/resolve/main/{wheel.name}"
    assert (out / "requirements.txt").read_text().splitlines()[1] == f"nested-span-f1 @ {url}"
    # the card says exactly what to run: the wheel's URL with the evaluate extra, then the Space's name to load
    assert _card_commands(out) == [f'python -m pip install "nested-span-f1[evaluate] @ {url}"']
    assert 'then `evaluate.load("org/span_f1")` loads the module.' in _card_section(out, "Installation")


def test_space_command_prints_the_commands_to_publish_the_folder(tmp_path, capsys):
    wheel = tmp_path / f"nested_span_f1-{nested_span_f1.__version__}-py3-none-any.whl"
    wheel.write_bytes(b"")
    out = tmp_path / "genia_f1"
    assert main(["space", METRICS[-1], str(out), "--wheel", str(wheel), "--space", "my-org/genia_f1"]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed[:-2] == [str(path) for path in sorted(out.iterdir())]
    assert printed[-2:] == [f"publish it: hf upload my-org/genia_f1 {out} . --repo-type space",
                            "then try it (requirements.txt reads the wheel from the Space): "
                            f"cd {out} && python -m pip install -r requirements.txt && python app.py"]


def _card_section(folder: Path, heading: str) -> str:
    card = (folder / "README.md").read_text(encoding="utf-8")
    return card.split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]


def _card_commands(folder: Path) -> list[str]:
    """The lines of the bash blocks of a written card's Installation section."""
    section = _card_section(folder, "Installation")
    return [line for block in section.split("```bash\n")[1:] for line in block.split("```", 1)[0].splitlines()]


VISIT = """
import contextlib, io, json, os, traceback

for name, folder, code in {visits!r}:
    os.chdir(folder)
    printed = io.StringIO()
    try:
        with contextlib.redirect_stdout(printed):
            exec(code, {{}})
        print(json.dumps([name, printed.getvalue().splitlines()]))
    except Exception:
        print(json.dumps([name, traceback.format_exc()]))
"""


@pytest.fixture(scope="module")
def card_advice(tmp_path_factory):
    """Per metric, what the card's advice printed inside a written Space folder: the scores by the folder's
    absolute path and by the script's path, and evaluate's error for ``"."``. One fresh process visits the three
    folders (evaluate loads once), the nested one first: only its script is named like the package, which nothing
    has imported there yet."""
    root = tmp_path_factory.mktemp("cards")
    stub = root / f"nested_span_f1-{nested_span_f1.__version__}-py3-none-any.whl"
    stub.write_bytes(b"")  # the package is importable here already: the folder's wheel is not installed
    predictions, references, _ = parse(preset("flat"))
    visits = []
    for name in sorted(METRICS, key=lambda name: name != "nested"):
        out = root / MODULES[name]
        write_space(name, out, stub)
        card = (out / "README.md").read_text(encoding="utf-8")
        section = card.split("## Publishing a Space", 1)[1].split("\n## ", 1)[0]
        (advice,) = [block.split("```", 1)[0] for block in section.split("```python\n")[1:]]
        score = f"print(json.dumps({{}}.compute(predictions={predictions!r}, references={references!r}, zero_division=0)))\n"
        code = (f"import json\n{advice}{score.format(MODULES[name])}"
                f"print(json.dumps(evaluate.load({f'{out.name}.py'!r}).compute(predictions={predictions!r}, "
                f"references={references!r}, zero_division=0)))\n"
                "try:\n    evaluate.load('.')\nexcept FileNotFoundError as error:\n    print(json.dumps(str(error)))\n")
        visits.append((name, str(out), code))
    done = subprocess.run([sys.executable, "-c", VISIT.format(visits=visits)],
                          env=OFFLINE | {"PYTHONPATH": os.environ.get("PYTHONPATH", "")},
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    return {name: printed for name, printed in map(json.loads, done.stdout.splitlines())}


@pytest.mark.parametrize("name", METRICS)
def test_the_card_says_how_to_load_the_module_inside_its_folder(name, card_advice):
    """Inside a Space folder ``evaluate.load(".")`` fails (evaluate looks for ``..py``); the card's way, the
    folder's absolute path, and the script's path it names both load the module and score as the repository's."""
    printed = card_advice[name]
    assert isinstance(printed, list), printed  # else the traceback
    by_path, by_script, dot = map(json.loads, printed)
    predictions, references, _ = parse(preset("flat"))
    expected = json.loads(json.dumps(evaluate.load(metric_path(name)).compute(
        predictions=predictions, references=references, zero_division=0)))
    assert by_path == by_script == expected
    assert "..py" in dot


def test_pasted_columns_end_their_lines_at_line_ends_only():
    # QA item 7: str.splitlines() split a pasted token holding U+2028 (or U+0085) into two lines
    predictions, references, _ = parse("Pe\u2028ter B-PER B-PER\r\nParis\x85 B-LOC O\n\nEU B-ORG B-ORG\n")
    assert (predictions, references) == ([["B-PER", "O"], ["B-ORG"]], [["B-PER", "B-LOC"], ["B-ORG"]])
