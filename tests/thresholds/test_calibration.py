"""Calibration (issue 50, item 4): the reliability table and the expected calibration error against a hand
computation and a plain loop, overall and per type; the bins' edges and counts in the JSON; scores that are no
probabilities refused, saying why; the diagram drawn."""
from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from nested_span_f1.cli.main import main
from nested_span_f1.thresholds import calibration, scored_pair
from nested_span_f1.thresholds.calibration import bin_edges, reliability
from nested_span_f1.thresholds.score import gains

# (score, right, type): one prediction a sentence, right when the gold holds it
HAND = [(0.05, 0, "X"), (0.15, 1, "X"), (0.2, 0, "Y"), (0.35, 1, "X"), (0.45, 0, "Y"), (0.55, 1, "Y"),
        (0.62, 1, "X"), (0.7, 0, "Y"), (0.78, 1, "Y"), (0.8, 1, "Y"), (0.9, 1, "X"), (1.0, 0, "Y")]


def hand_sides():
    gold = [[(0, 1, label)] if right else [(1, 2, label)] for _, right, label in HAND]
    pred = [[(0, 1, label, score)] for score, _, label in HAND]
    return gold, pred


def test_the_table_and_the_error_equal_a_hand_computation():
    gold, pred = hand_sides()
    found = calibration(gold, pred, bins=5)
    assert found["edges"] == [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]
    # by hand: a score on an edge goes to the bin above it, 1.0 to the last bin
    expected = [(2, 1, 0.1, 0.5), (2, 1, 0.275, 0.5), (2, 1, 0.5, 0.5), (3, 2, 0.7, 2 / 3), (3, 2, 0.9, 2 / 3)]
    assert [(row["lower"], row["upper"]) for row in found["bins"]] == [(0.0, 0.2), (0.2, 0.4), (0.4, 0.6),
                                                                       (0.6, 0.8), (0.8, 1.0)]
    assert [(row["count"], row["right"]) for row in found["bins"]] == [e[:2] for e in expected]
    assert found["counts"] == [2, 2, 2, 3, 3] and (found["predicted"], found["right"]) == (12, 7)
    for row, (_, _, mean, precision) in zip(found["bins"], expected):
        assert row["mean_score"] == pytest.approx(mean, abs=1e-15) and row["precision"] == precision
    # ECE: (|1 - 0.2| + |1 - 0.55| + |1 - 1.0| + |2 - 2.1| + |2 - 2.7|) / 12 = 2.05 / 12
    assert found["ece"] == pytest.approx(2.05 / 12, abs=1e-15)
    x, y = found["per_type"]["X"], found["per_type"]["Y"]
    assert x["counts"] == [2, 1, 0, 1, 1] and y["counts"] == [0, 1, 2, 2, 2]
    assert x["bins"][2] == {"lower": 0.4, "upper": 0.6, "count": 0, "right": 0, "mean_score": None,
                            "precision": None}
    assert x["ece"] == pytest.approx((0.8 + 0.65 + 0.38 + 0.1) / 5, abs=1e-15)
    assert y["ece"] == pytest.approx((0.2 + 0 + 0.48 + 0.8) / 7, abs=1e-15)


@st.composite
def scored(draw):
    n = draw(st.integers(1, 6))
    gold, pred = [], []
    for _ in range(n):
        spans = draw(st.lists(st.tuples(st.integers(0, 4), st.integers(1, 3), st.sampled_from("AB")), max_size=5))
        spans = [(s, s + w, label) for s, w, label in spans]
        gold.append(draw(st.lists(st.sampled_from(spans), unique=True)) if spans else [])
        values = st.floats(0, 1) | st.sampled_from([0.0, 0.25, 0.5, 0.75, 1.0])
        pred.append([(*s, draw(values)) for s in spans])
    return gold, pred


@given(data=scored(), bins=st.sampled_from([1, 3, 10, [0, 0.5, 0.8, 0.99, 1]]))
def test_every_bin_equals_a_plain_loop(data, bins):
    gold, pred = data
    best = {}
    for s, spans in enumerate(pred):  # each distinct span once, at its highest score
        for start, end, label, score in spans:
            best[s, start, end, label] = max(score, best.get((s, start, end, label), -1.0))
    right = {key: (key[1], key[2], key[3]) in gold[key[0]] for key in best}
    edges = bin_edges(bins)
    import warnings

    from nested_span_f1.core.matching import DuplicateSpanWarning

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DuplicateSpanWarning)
        found = calibration(gold, pred, bins=bins)
    for label in (None, "A", "B"):
        keys = [key for key in best if label is None or key[3] == label]
        if label is not None and not keys:
            assert label not in found["per_type"]
            continue
        table = found if label is None else found["per_type"][label]
        for b, row in enumerate(table["bins"]):
            lower, upper = edges[b], edges[b + 1]
            inside = [key for key in keys if lower <= best[key] < upper or (upper == 1 and best[key] == 1)]
            assert (row["count"], row["right"]) == (len(inside), sum(right[key] for key in inside))
            if inside:
                assert row["mean_score"] == pytest.approx(sum(best[k] for k in inside) / len(inside), abs=1e-12)
        gaps = sum(abs(sum(right[k] for k in keys if row["lower"] <= best[k] < row["upper"]
                           or (row["upper"] == 1 and best[k] == 1))
                       - sum(best[k] for k in keys if row["lower"] <= best[k] < row["upper"]
                             or (row["upper"] == 1 and best[k] == 1))) for row in table["bins"])
        assert table["ece"] == (pytest.approx(gaps / len(keys), abs=1e-12) if keys else None)


def test_lenient_right_is_the_gain_of_the_optimal_matching():
    """Two predictions overlap one gold span: the first (higher score) is right, the second adds nothing."""
    found = calibration([[(0, 2, "A")]], [[(0, 1, "A", 0.9), (1, 2, "A", 0.4)]], bins=2, metric="lenient")
    assert [(row["count"], row["right"]) for row in found["bins"]] == [(1, 0), (1, 1)]


@pytest.mark.parametrize(("bins", "error", "message"), [
    (0, ValueError, "bins must be 1 or more, got 0"),
    ([0, 0.5], ValueError, "bin edges must increase from 0 to 1 (0 first, 1 last), got [0, 0.5]"),
    ([0, 0.6, 0.4, 1], ValueError, "bin edges must increase from 0 to 1"),
    ("10", TypeError, "bins must be a number of bins or a list of edges, got '10'"),
])
def test_bad_bins_are_refused(bins, error, message):
    with pytest.raises(error) as raised:
        bin_edges(bins)
    assert message in str(raised.value)


def test_logits_are_no_probabilities():
    pair = scored_pair([[(0, 1, "A")]], [[(0, 1, "A", 3.0), (1, 2, "A", -2.0)]])
    with pytest.raises(ValueError) as raised:
        reliability(gains(pair))
    assert str(raised.value) == ("calibration compares scores with the share of right predictions, so scores must be "
                                 "probabilities in [0, 1]; these run from -2 to 3 (logits? apply the model's sigmoid "
                                 "or softmax first)")
    assert bin_edges(10) == [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0]  # k / 10, not 0.30000000000000004


@pytest.fixture
def files(tmp_path):
    gold, pred = hand_sides()

    def write(name, sides, scored):
        rows = [{"sent_id": f"s{k}", "tokens": ["w"] * 3, "entity_mentions": [
                    {"start": s[0], "end": s[1], "entity_type": s[2], **({"score": s[3]} if scored else {})}
                    for s in spans]} for k, spans in enumerate(sides)]
        path = tmp_path / f"{name}.jsonl"
        path.write_text("".join(json.dumps(r) + "\n" for r in rows))
        return str(path)

    logits = [[(s, e, label, 4 * score - 2) for s, e, label, score in spans] for spans in pred]
    return {"gold": write("gold", gold, False), "pred": write("pred", pred, True),
            "logits": write("logits", logits, True)}


def test_the_command_gives_the_table_and_the_json_its_edges_and_counts(files, capsys):
    assert main(["thresholds", "--gold", files["gold"], "--pred", files["pred"], "--calibration", "5", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)["calibration"]
    assert found == calibration(files["gold"], files["pred"], bins=5)
    assert found["edges"] == [0.0, 0.2, 0.4, 0.6, 0.8, 1.0] and found["counts"] == [2, 2, 2, 3, 3]
    assert main(["thresholds", "--gold", files["gold"], "--pred", files["pred"], "--calibration", "0,0.5,1"]) == 0
    text = capsys.readouterr().out
    table = text[text.index("calibration (2 score bins"):].splitlines()
    assert table[1].split() == ["bin", "count", "right", "mean", "score", "precision", "gap"]
    assert table[2].split() == ["[0,", "0.5)", "5", "2", "0.2400", "0.4000", "-0.1600"]
    # by hand: 0.55 + 0.62 + 0.7 + 0.78 + 0.8 + 0.9 + 1.0 = 5.35 over 7; ECE (|2 - 1.2| + |5 - 5.35|) / 12
    assert table[3].split() == ["[0.5,", "1]", "7", "5", "0.7643", "0.7143", "+0.0500"]
    assert table[4] == "expected calibration error: 0.0958 overall; per type: X 0.3860, Y 0.2114"


def test_the_command_says_why_logits_get_no_table(files, capsys, tmp_path):
    assert main(["thresholds", "--gold", files["gold"], "--pred", files["logits"], "--calibration", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["calibration"] == {"not_computed": (
        "calibration compares scores with the share of right predictions, so scores must be probabilities in [0, 1]; "
        "these run from -1.8 to 2 (logits? apply the model's sigmoid or softmax first)")}
    assert main(["thresholds", "--gold", files["gold"], "--pred", files["logits"], "--calibration-plot",
                 str(tmp_path / "r.html")]) == 2
    assert capsys.readouterr().err.startswith(f"nested-span-f1 thresholds: error: --calibration-plot {tmp_path}/r.html: "
                                              "calibration compares scores")
    assert not (tmp_path / "r.html").exists()


@pytest.mark.parametrize(("value", "message"), [
    ("0,0.5", "argument --calibration: '0,0.5': bin edges must increase from 0 to 1 (0 first, 1 last), got [0.0, 0.5]"),
    ("0", "argument --calibration: '0': bins must be 1 or more, got 0"),
    ("ten", "argument --calibration: 'ten' is neither a number of bins nor edges"),
])
def test_bad_bins_on_the_command_line(files, capsys, value, message):
    with pytest.raises(SystemExit):
        main(["thresholds", "--gold", files["gold"], "--pred", files["pred"], "--calibration", value])
    assert message in capsys.readouterr().err


def test_the_diagram_is_drawn_as_png_and_html_on_one_scale(files, capsys, tmp_path):
    pytest.importorskip("matplotlib")
    for suffix in ("png", "html"):
        assert main(["thresholds", "--gold", files["gold"], "--pred", files["pred"], "--calibration-plot",
                     str(tmp_path / f"r.{suffix}"), "--title", "Reliability of model X", "--percent"]) == 0
    page = (tmp_path / "r.html").read_text()
    assert page.count('class="chart reliability"') == 3  # all types, X, Y
    assert "<h1>Reliability of model X</h1>" in page and page.count("predictions in the bin") == 1
    assert ">100</text>" in page and ">0.2</text>" not in page  # percent ticks
    found = calibration(files["gold"], files["pred"])
    assert page.count("<rect x=") == 2 * sum(1 for row in found["bins"] if row["count"]) + 2 * sum(
        1 for table in found["per_type"].values() for row in table["bins"] if row["count"]) + 2  # + legend
