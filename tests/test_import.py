"""`import nested_span_f1` stays light: numpy only, none of the heavy Hugging Face / plotting stacks."""
import json
import subprocess
import sys

HEAVY = ("transformers", "torch", "evaluate", "sklearn", "datasets", "gradio", "matplotlib")


def test_import_loads_no_heavy_package():
    code = "import sys, json, nested_span_f1; print(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = {name.split(".")[0] for name in json.loads(out.stdout)}
    assert sorted(loaded.intersection(HEAVY)) == []
