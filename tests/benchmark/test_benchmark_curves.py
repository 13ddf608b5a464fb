"""A benchmark system whose predictions carry scores gets its precision-recall curve, drawn in the HTML report;
systems without scores get none."""
import json

from nested_span_f1 import Corpus
from nested_span_f1.benchmark.compare import benchmark
from nested_span_f1.thresholds import threshold_curve

TOKENS = [["a", "b", "c", "d"], ["e", "f"]]
GOLD = Corpus(TOKENS, [[(0, 2, "PER"), (3, 4, "LOC")], [(0, 1, "PER")]], ["s1", "s2"], source="gold")
SCORED = Corpus(TOKENS, [[(0, 2, "PER"), (3, 4, "ORG"), (3, 4, "LOC")], [(0, 1, "PER"), (1, 2, "PER")]], ["s1", "s2"],
                source="scored", scores=[[0.9, 0.8, 0.4], [0.8, 0.2]])


def test_scored_systems_get_their_curve_and_the_page_draws_it(tmp_path):
    result = benchmark(GOLD, {"scored": SCORED, "plain": GOLD}, n_resamples=100, progress=False)
    scored, plain = result.systems
    curve = threshold_curve(GOLD, SCORED, zero_division=0)
    assert "thresholds" not in plain
    assert scored["thresholds"] == {
        **curve.summary(), "per_type": {label: typed.summary() for label, typed in curve.per_type.items()},
        "drawn": [[1 / 3, 1.0], [2 / 3, 2 / 3], [1.0, 0.75], [1.0, 0.6]]}
    assert scored["thresholds"]["average_precision"] == 0.8055555555555556
    json.dumps(result.to_dict(), allow_nan=False)
    page = result.to_html()
    assert '<section id="curves"><h2>Precision-recall curves</h2>' in page
    assert page.count('<svg id="pr-curve-') == 1 and "scored (AP 0.8056)" in page
    assert "best F1 on this gold (0.4)" in page and "oracle figure" in page


def test_a_long_curve_is_kept_to_the_points_drawn():
    tokens = [["w"] * 60 for _ in range(50)]
    spans = [[(i, i + 1, "X") for i in range(60)] for _ in range(50)]
    scores = [[(s * 60 + i) / 3000 for i in range(60)] for s in range(50)]
    gold = Corpus(tokens, [row[::7] for row in spans], source="gold")
    result = benchmark(gold, {"many": Corpus(tokens, spans, source="many", scores=scores)}, n_resamples=100,
                       progress=False)
    found = result.systems[0]["thresholds"]
    assert (found["thresholds"], len(found["drawn"])) == (3000, 2000)
    curve = threshold_curve(gold, Corpus(tokens, spans, source="many", scores=scores), zero_division=0)
    assert found["drawn"][0] == [curve.recall[0], curve.precision[0]]
    assert found["drawn"][-1] == [curve.recall[-1], curve.precision[-1]]
