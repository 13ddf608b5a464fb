"""Precision-recall curves drawn: the step curve whose area is the average precision, iso-F1 lines, the marked
points, small multiples; matplotlib figures and SVG text alike."""
import re
from itertools import pairwise

import pytest

from nested_span_f1.render.curves import DRAWN_POINTS, curve_svg, curves_page, iso_f1, panel, steps
from nested_span_f1.thresholds import threshold_curve

GOLD = [[(0, 2, "PER"), (3, 4, "LOC")], [(0, 1, "PER")]]
PRED = [[(0, 2, "PER", 0.9), (3, 4, "ORG", 0.8), (3, 4, "LOC", 0.4)], [(0, 1, "PER", 0.8), (1, 2, "PER", 0.2)]]


def test_the_steps_enclose_the_average_precision():
    curve = threshold_curve(GOLD, PRED, zero_division=0)
    points = list(zip(curve.recall.tolist(), curve.precision.tolist()))
    vertices = steps(points)
    assert vertices[:4] == [(0.0, 1.0), (1 / 3, 1.0), (1 / 3, 2 / 3), (2 / 3, 2 / 3)]
    area = sum((b[0] - a[0]) * a[1] for a, b in pairwise(vertices))
    assert area == pytest.approx(curve.average_precision, abs=1e-15)


def test_long_curves_are_drawn_from_evenly_spaced_points():
    points = [(k / 9999, 1 - k / 9999) for k in range(10_000)]
    vertices = steps(points)
    assert len(vertices) == 2 * DRAWN_POINTS and vertices[-1] == points[-1]


@pytest.mark.parametrize("f1", [0.2, 0.4, 0.6, 0.8])
def test_iso_f1_lines_hold_their_f1(f1):
    for recall, precision in iso_f1(f1):
        assert 2 * precision * recall / (precision + recall) == pytest.approx(f1)
    assert iso_f1(f1)[-1] == (1.0, pytest.approx(f1 / (2 - f1)))


def _panels():
    curve = threshold_curve(GOLD, PRED, zero_division=0).to_dict()
    marks = [{"kind": "chosen", "label": "chosen on dev (0.7)", "recall": 2 / 3, "precision": 2 / 3},
             {"kind": "oracle", "label": "ORACLE: best on test (0.4)", "recall": 1.0, "precision": 0.75}]
    return [panel("all types", curve, marks), *(panel(label, row) for label, row in curve["per_type"].items())]


def test_svg_and_page():
    shown = _panels()
    assert shown[0]["title"] == "all types (AP 0.8056, 3 gold)"
    svg = curve_svg(shown[0], "one")
    assert svg.startswith('<svg id="one"') and svg.count("<polyline") == 5  # four iso-F1 lines and the curve
    assert "ORACLE: best on test (0.4)" in svg and "<circle" in svg and "<path" in svg
    height = int(re.search(r'height="(\d+)"', svg).group(1))
    assert height == 24 + 224 + 36 + 14 * 2 + 8  # the legend of two marks below the plot
    page = curves_page(shown, "t", ["a note"])
    assert page.count('class="chart pr-curve"') == 4 and '<p class="note">a note</p>' in page
    # one legend for the page (each kind of mark once), none under the panels
    assert page.count("chosen on dev (0.7)") == 2  # the legend, and the mark's tooltip
    assert page.index('<div class="legend-row">') < page.index('class="panels"') < page.index('class="note"')


def test_matplotlib_small_multiples(tmp_path):
    pytest.importorskip("matplotlib")
    from nested_span_f1.render.curves import plot_curves

    fig = plot_curves(_panels(), str(tmp_path / "c.svg"), "title")
    assert len(fig.axes) == 4  # a grid of three columns, two rows; the two empty cells removed, not drawn
    assert all(ax.get_legend() is None for ax in fig.axes) and len(fig.legends) == 1  # one legend, shared
    assert [text.get_text() for text in fig.legends[0].get_texts()] == ["chosen on dev (0.7)",
                                                                       "ORACLE: best on test (0.4)"]
    assert (tmp_path / "c.svg").read_text().lstrip().startswith("<?xml")
