"""Plots a paper takes (issue 50, item 5): the title the user sets, one shared legend, no empty panel (a type
without predictions listed under the figure), both axes on one scale, 0-1 or 0-100, the same in the PNG and the
HTML page."""
from __future__ import annotations

import json
import re

import pytest

from nested_span_f1.cli.main import main
from nested_span_f1.render.curves import curve_svg, panel, plot_curves
from nested_span_f1.render.panels import LIMIT, TICKS, svg_frame, tick_text
from nested_span_f1.render.reliability import plot_reliability, reliability_panel, reliability_svg
from nested_span_f1.thresholds import calibration, threshold_curve

GOLD = [[(0, 2, "PER"), (3, 4, "LOC")], [(0, 1, "PER"), (1, 2, "RNA")]]
PRED = [[(0, 2, "PER", 0.9), (3, 4, "ORG", 0.8), (3, 4, "LOC", 0.4)], [(0, 1, "PER", 0.8), (1, 2, "PER", 0.2)]]


def svg_ticks(svg):
    """The tick labels an SVG chart writes, in order."""
    return re.findall(r'class="tick" text-anchor="(?:middle|end)">([0-9.]+)</text>', svg)


@pytest.mark.parametrize("percent", [False, True])
def test_the_png_and_the_html_share_one_scale(percent):
    pytest.importorskip("matplotlib")
    curve = threshold_curve(GOLD, PRED, zero_division=0).to_dict()
    shown = [panel("all types", curve)]
    fig = plot_curves(shown, percent=percent)
    ax = fig.axes[0]
    assert ax.get_xlim() == ax.get_ylim() == (0, LIMIT) and ax.get_aspect() == 1.0
    labels = [t.get_text() for t in ax.get_xticklabels()]
    assert labels == [t.get_text() for t in ax.get_yticklabels()] == [tick_text(t, percent) for t in TICKS]
    assert labels == (["0", "20", "40", "60", "80", "100"] if percent else ["0", "0.2", "0.4", "0.6", "0.8", "1"])
    svg = curve_svg(shown[0], percent=percent)
    assert svg_ticks(svg) == [label for label in labels for _ in range(2)]  # each tick on both axes
    assert ("recall (%)" in svg) == percent == (ax.get_xlabel() == "recall (%)")
    _, x, y = svg_frame("t", "recall", "precision")
    assert x(1) - x(0) == pytest.approx(y(0) - y(1)) and x(LIMIT) - x(0) == 224  # square


def test_a_figure_has_the_title_given_and_one_legend():
    pytest.importorskip("matplotlib")
    curve = threshold_curve(GOLD, PRED, zero_division=0).to_dict()
    marks = [{"kind": "system", "label": "system threshold (0.5)", "value": "0.5", "recall": 0.5, "precision": 1.0}]
    shown = [panel("all types", curve, marks), *(panel(label, row, marks) for label, row in curve["per_type"].items()
                                                  if row["predicted"])]
    fig = plot_curves(shown, title="Model A on the test set")
    assert fig._suptitle.get_text() == "Model A on the test set"
    assert len(fig.legends) == 1 and [t.get_text() for t in fig.legends[0].get_texts()] == ["system threshold (0.5)"]
    assert all(ax.get_legend() is None for ax in fig.axes)
    assert plot_curves(shown, title="")._suptitle is None
    table = calibration(GOLD, PRED)
    fig = plot_reliability([reliability_panel("all types", table)], title="", notes=["a note"])
    assert fig._suptitle is None and len(fig.legends) == 1 and "a note" in [t.get_text() for t in fig.texts]


def test_reliability_svg_draws_a_bar_a_filled_bin():
    table = calibration(GOLD, PRED, bins=4)
    svg = reliability_svg(reliability_panel("all types", table), "r")
    filled = [row for row in table["bins"] if row["count"]]
    assert svg.count("<rect") == 2 * len(filled) and svg.count("<title>") == 2 * len(filled)
    assert "[0.75, 1]: 3 predicted, 2 right (0.6667), mean score 0.8333" in svg
    assert reliability_panel("all types", table)["title"] == "all types (ECE 0.2600, 5 predicted)"


@pytest.fixture
def files(tmp_path):
    """Test files where RNA has gold but no prediction."""
    rows = [({"sent_id": f"s{k}", "tokens": ["w"] * 5, "entity_mentions": [
                 {"start": s, "end": e, "entity_type": lab} for s, e, lab in gold]},
             {"sent_id": f"s{k}", "tokens": ["w"] * 5, "entity_mentions": [
                 {"start": s, "end": e, "entity_type": lab, "score": x} for s, e, lab, x in pred]})
            for k, (gold, pred) in enumerate(zip(GOLD, PRED))]
    out = {}
    for name, index in (("gold", 0), ("pred", 1)):
        out[name] = str(tmp_path / f"{name}.jsonl")
        (tmp_path / f"{name}.jsonl").write_text("".join(json.dumps(r[index]) + "\n" for r in rows))
    return out


def test_a_type_without_predictions_gets_no_panel_but_a_line_under_the_figure(files, capsys, tmp_path):
    from PIL import Image

    for name in ("c.html", "c.png", "r.html", "r.png"):
        option = "--plot" if name.startswith("c") else "--calibration-plot"
        assert main(["thresholds", "--gold", files["gold"], "--pred", files["pred"], option, str(tmp_path / name),
                     "--title", "Curves of model A"]) == 0
    page = (tmp_path / "c.html").read_text()
    assert page.count('class="chart pr-curve"') == 4  # all types, LOC, ORG, PER: no RNA
    assert '<p class="note">not drawn, no predictions: RNA (1 gold)</p>' in page
    assert "<h1>Curves of model A</h1>" in page and "<title>Curves of model A</title>" in page
    assert page.count('<div class="legend-row">') == 1 and page.count('class="legend"') == 4  # panel titles only
    reliability = (tmp_path / "r.html").read_text()
    assert reliability.count('class="chart reliability"') == 4
    assert '<p class="note">not drawn, no predictions: RNA (1 gold)</p>' in reliability
    with Image.open(tmp_path / "c.png") as image:
        assert image.size[0] == 3 * int((3.6 + 0.6) * 120) and image.size[1] > 2 * 3.6 * 120  # two rows of three
    assert "pred.jsonl" not in page and "gold.jsonl" not in page  # no file names in the title


def test_the_default_title_names_what_is_drawn_not_the_files(files, capsys, tmp_path):
    assert main(["thresholds", "--gold", files["gold"], "--pred", files["pred"], "--plot", str(tmp_path / "c.html"),
                 "--metric", "lenient"]) == 0
    assert "<h1>Precision-recall: lenient metric, nested decoding</h1>" in (tmp_path / "c.html").read_text()
    assert main(["thresholds", "--gold", files["gold"], "--pred", files["pred"], "--plot", str(tmp_path / "d.html"),
                 "--title", ""]) == 0
    assert "<h1>" not in (tmp_path / "d.html").read_text()
