"""Plots are drawn from result dicts and written as image files."""
import pytest

pytest.importorskip("matplotlib")

from nested_span_f1 import score_exact
from nested_span_f1.render.plots import plot_counts, plot_per_type

PNG = b"\x89PNG\r\n\x1a\n"


def test_per_type_plot_has_one_bar_group_per_type(tmp_path):
    result = score_exact([["B-PER", "O", "B-LOC"]], [["B-PER", "O", "B-ORG"]], zero_division=0)
    fig = plot_per_type(result, str(tmp_path / "types.png"))
    assert (tmp_path / "types.png").read_bytes().startswith(PNG)
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["LOC\n(n=0)", "ORG\n(n=1)", "PER\n(n=1)"]
    assert [round(p.get_height(), 6) for p in ax.patches][:3] == [0.0, 0.0, 1.0]  # precision bars


def test_per_type_plot_needs_types():
    with pytest.raises(ValueError, match="no per-type entries"):
        plot_per_type({"overall_f1": 1.0})


def test_counts_plot_keeps_order_and_values(tmp_path):
    fig = plot_counts({"correct": 3, "missed": 1, "spurious": 2}, str(tmp_path / "c.svg"), order=["missed", "correct"])
    assert (tmp_path / "c.svg").read_text().lstrip().startswith("<?xml")
    assert [p.get_width() for p in fig.axes[0].patches] == [1, 3]


def test_score_command_draws_plot(tmp_path):
    import subprocess
    import sys

    gold = tmp_path / "g.conll"
    pred = tmp_path / "p.conll"
    gold.write_text("a\tB-PER\nb\tO\n")
    pred.write_text("a\tB-PER\nb\tB-LOC\n")
    out = subprocess.run(
        [sys.executable, "-m", "nested_span_f1.cli", "score", "--gold", str(gold), "--pred", str(pred),
         "--plot", str(tmp_path / "s.png")], capture_output=True, text=True,
    )
    assert out.returncode == 0, out.stderr
    assert (tmp_path / "s.png").read_bytes().startswith(PNG)
