"""Each metric folder works from inside itself, as a Hub Space runs it.

There the folder is first on ``sys.path``, and the nested metric's script is
named like the package: ``evaluate.load`` of the folder must score with the
package (not with the script), and ``app.py`` must build its gradio app on the
package. One fresh process visits the three folders in turn (evaluate and
gradio load once): the nested folder first, so that its load runs before
anything has imported the package; only that script could shadow it. ``python
app.py`` with nothing imported before it is what tests/space/test_space_browser.py
starts in every folder.
"""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from nested_span_f1.hf.paths import METRICS, metric_path

pytest.importorskip("evaluate")
pytest.importorskip("gradio")

VISIT = """
import json, os, sys, traceback
import evaluate

for name, folder, predictions, references, keys in {cases!r}:
    os.chdir(folder)  # sys.path[0] is '' (the working folder), as for ``python app.py`` run there
    try:
        result = evaluate.load(folder).compute(predictions=predictions, references=references, zero_division=0)
        import nested_span_f1
        sys.path.insert(0, folder)  # the nested script took the folder off sys.path
        sys.modules.pop("app", None)
        import app
        print(json.dumps([name, [result[key] for key in keys], nested_span_f1.__file__, type(app.demo).__name__]))
    except Exception:
        print(json.dumps([name, traceback.format_exc()]))
"""
NESTED_REF = [[{"start": 0, "end": 2, "label": "protein"}, {"start": 0, "end": 1, "label": "protein"}], []]
NESTED_PRED = [[{"start": 0, "end": 2, "label": "protein"}], [{"start": 1, "end": 3, "label": "DNA"}]]
CASES = {
    # name: predictions, references, the keys printed and their values
    "nested": (NESTED_PRED, NESTED_REF, ("overall_f1",), [0.5]),
    "exact": ([["B-PER", "I-PER"]], [["B-PER", "I-PER"]], ("overall_f1",), [1.0]),
    "lenient": ([[{"start": 0, "end": 2, "label": "A"}]], [[{"start": 0, "end": 1, "label": "A"}]],
                        ("partial_partial", "type_correct"), [1, 1]),
}


@pytest.fixture(scope="module")
def visited():
    """Per metric what the process found in its folder: the values, the package's file, the app's type."""
    cases = [(name, str(metric_path(name)), *CASES[name][:3]) for name in CASES]
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "HF_EVALUATE_OFFLINE": "1",
           "GRADIO_ANALYTICS_ENABLED": "False"}
    done = subprocess.run([sys.executable, "-c", VISIT.format(cases=cases)], env=env, capture_output=True, text=True,
                          timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("[")]
    return {name: found for name, *found in lines}


def test_every_folder_has_the_same_app_py_naming_no_metric():
    """One app for the three Spaces: each folder's ``app.py`` is the same launcher of
    ``nested_span_f1.space.app.build_app``, which reads the metric from the folder's script."""
    apps = {name: (Path(metric_path(name)) / "app.py").read_text(encoding="utf-8") for name in METRICS}
    assert len(set(apps.values())) == 1
    assert "    demo = build_app(HERE)\n" in apps[METRICS[0]]


def test_the_nested_folder_comes_first_and_every_metric_has_a_case():
    assert next(iter(CASES)) == "nested" and sorted(CASES) == sorted(METRICS)


@pytest.mark.parametrize("name", METRICS)
def test_loads_and_builds_its_app_from_inside_its_folder(name, visited):
    found = visited[name]
    assert len(found) == 3, found[0]  # else the traceback
    values, package, kind = found
    assert values == CASES[name][3]
    assert package.endswith(os.path.join("nested_span_f1", "__init__.py"))
    assert kind == "Blocks"
