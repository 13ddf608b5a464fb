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


def test_import_loads_only_the_flat_pipeline():
    """Readers, lenient, nested and paths load on first use of one of their names (PEP 562)."""
    code = ("import sys, json, nested_span_f1; before = sorted(sys.modules); nested_span_f1.score_nested; "
            "print(json.dumps([before, sorted(sys.modules)]))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    before, after = (sorted(m for m in names if m.startswith("nested_span_f1.")) for names in json.loads(out.stdout))
    assert before == [f"nested_span_f1.{m}" for m in (
        "core", "core.caller", "core.counts", "core.matching", "core.scores", "core.sequences", "core.spans",
        "flat", "flat.decoding", "flat.encoding", "flat.kinds", "flat.pipeline", "flat.schemes", "flat.tags")]
    assert "nested_span_f1.nested.score" in after
