"""scripts/bench/harness.py times what it says: the answers counted one at a time give the corpus call's figures
(it checks so before timing) and both ways are timed for each metric."""
import importlib.util
import sys
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_both_ways_are_timed_on_the_same_answers(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "scripts" / "bench"))  # it imports answers.py beside it
    spec = importlib.util.spec_from_file_location("bench_harness", ROOT / "scripts" / "bench" / "harness.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    documents = [(["Peter", "Blackburn", "visited", "Paris", "."], [(0, 2, "PER"), (3, 4, "LOC")]),
                 (["Rain", "fell", "."], [])]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a 100th answer is prose: with 120 answers, 1 unreadable
        figures = module.measure(documents, repeat=1, size=120)
    assert figures["answers"] == 120 and 0 < figures["exact_f1"] == figures["nested_f1"] == figures["lenient_f1"] < 1
    assert set(figures) >= {"exact_ratio", "nested_ratio", "lenient_ratio", "exact_one_call_seconds",
                            "exact_one_at_a_time_seconds"}
    sys.modules.pop("answers", None)
