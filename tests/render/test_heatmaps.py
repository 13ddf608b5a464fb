"""Agreement's heatmaps (issue 50 items 2 and 5): pairwise F1 and the label confusion drawn from the result, on one
fixed scale, with the user's title, as PNG, SVG or a self-contained HTML page."""
import re

import pytest

pytest.importorskip("matplotlib")

from brat_project import write_project

from nested_span_f1.agreement import agreement
from nested_span_f1.cli.main import main
from nested_span_f1.render.heatmaps import heatmaps_page, panels, plot_heatmaps

PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def result(tmp_path_factory):
    return agreement(str(write_project(tmp_path_factory.mktemp("heatmaps") / "project")), n_resamples=10)


def test_the_panels_hold_the_result_s_figures(result):
    shown = panels(result)
    assert [p["title"] for p in shown] == ["exact span F1", "lenient span F1", "label confusion (span pairs)"]
    exact = shown[0]
    assert exact["rows"] == exact["columns"] == ["A", "B", "C"]
    assert exact["values"][0] == [None, result["pairwise"]["A|B"]["f1"], result["pairwise"]["A|C"]["f1"]]
    assert exact["values"][2][1] == result["pairwise"]["B|C"]["f1"]  # symmetric: C|B is B|C
    confusion = shown[2]
    assert confusion["rows"] == ["LOC", "MISC", "ORG", "PER", "(nothing)"]
    assert confusion["values"][0] == [3, 2, 0, 0, 4] and confusion["values"][4][4] is None


def test_one_scale_one_colour_bar_and_the_title(result, tmp_path):
    fig = plot_heatmaps(result, str(tmp_path / "h.png"), title="Inter-annotator agreement")
    assert (tmp_path / "h.png").read_bytes().startswith(PNG)
    assert fig._suptitle.get_text() == "Inter-annotator agreement"
    images = [ax.images[0] for ax in fig.axes if ax.images]
    assert [image.get_clim() for image in images] == [(0, 1.0), (0, 1.0), (0, 6.0)]
    bars = [ax for ax in fig.axes if not ax.images]
    assert sorted(bar.get_ylabel() for bar in bars) == ["F1 (0 to 1)", "span pairs"]  # one for both F1 panels
    texts = [t.get_text() for t in fig.axes[0].texts]
    assert texts[:3] == ["-", f"{result['pairwise']['A|B']['f1']:.2f}", f"{result['pairwise']['A|C']['f1']:.2f}"]
    assert fig.axes[1].yaxis.get_tick_params()["labelleft"] is False  # the annotators' names once, on the left


def test_the_html_page_is_the_same_drawing(result):
    page = heatmaps_page(result, "Agreement <test>")
    assert page.startswith("<!DOCTYPE html>") and "<title>Agreement &lt;test&gt;</title>" in page
    assert re.search(r"<svg[^>]*>", page) and "Agreement &lt;test&gt;" in page.split("<svg", 1)[1]
    assert f"{result['pairwise']['A|B']['f1']:.2f}" in page and "F1 (0 to 1)" in page
    assert not re.search(r"<script|<link|<img|\ssrc=|xlink:href=\"http", page)  # it fetches nothing


def test_the_command_draws_and_refuses_what_it_cannot(tmp_path, capsys):
    project = write_project(tmp_path / "project")
    for name in ("h.png", "h.svg", "h.html"):
        assert main(["agreement", str(project), "--bootstrap", "10", "--plot", str(tmp_path / name), "--title",
                     "Agreement on the example"]) == 0
        assert (tmp_path / name).stat().st_size > 0
    assert "Agreement on the example" in (tmp_path / "h.html").read_text()
    capsys.readouterr()
    assert main(["agreement", str(project), "--plot", str(tmp_path / "h.txt")]) == 2
    assert capsys.readouterr().err == ("nested-span-f1 agreement: error: --plot " + str(tmp_path / "h.txt")
                                       + ": heatmaps are drawn as .png, .svg, .pdf or .html\n")
    assert main(["agreement", str(project), "--title", "x"]) == 2
    assert capsys.readouterr().err == "nested-span-f1 agreement: error: --title names the plot; give --plot FILE too\n"
