"""The benchmark's figure as people read it: eleven long type names that do not overlap, a zero F1 drawn as zero,
the interval level in the legend, error categories in colours no system has."""
import numpy as np
import pytest

pytest.importorskip("matplotlib", reason="plots need matplotlib (pip install '.[plots]' in the clone)")
from matplotlib.colors import to_hex

from nested_span_f1.benchmark.compare import benchmark
from nested_span_f1.render.colours import CATEGORIES, SYSTEMS, system_colour

TYPES = ["abstract", "animal", "event", "object", "organization", "person", "place", "plant", "quantity", "substance",
         "time_expression_or_duration"]
"""GUM's eleven entity types, the last made long."""


@pytest.fixture(scope="module")
def result():
    rng = np.random.default_rng(0)
    gold, preds = [], {"base": [], "large": [], "xl": [], "never-plant": []}
    for _ in range(300):
        spans = sorted({(int(a), int(a) + 1, TYPES[int(rng.integers(len(TYPES)))]) for a in rng.integers(0, 11, 3)})
        gold.append(spans)
        for k, name in enumerate(preds):
            kept = [sp for sp in spans if rng.random() < 0.6 + 0.1 * k and not (name == "never-plant" and sp[2] == "plant")]
            if name == "never-plant" and rng.random() < 0.2:
                kept.append((11, 12, "plant"))  # wrong plants only: F1 0 on plant
            preds[name].append(sorted(set(kept)))
    return benchmark(gold, preds, n_resamples=200, progress=False)


@pytest.fixture(scope="module")
def figure(result, tmp_path_factory):
    fig = result.plot(tmp_path_factory.mktemp("plots") / "gum.png")
    fig.canvas.draw()
    return fig


def overlapping(texts):
    boxes = [t.get_window_extent() for t in texts if t.get_text()]
    return [(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1:] if a.overlaps(b)]


def test_eleven_type_names_do_not_overlap(figure):
    types = figure.axes[0]
    labels = types.get_yticklabels()
    assert [t.get_text().replace("\n", "") for t in labels] == TYPES
    assert not overlapping(labels)
    assert all(t.get_window_extent().x1 <= types.get_window_extent().x0 for t in labels)  # left of the bars
    assert not overlapping(types.get_xticklabels())


def test_a_zero_f1_is_drawn_at_zero(result, figure):
    (zero,) = [s for s in result.systems if s["per_type"]["plant"]["f1"]["value"] == 0.0]
    assert zero["name"] == "never-plant" and zero["per_type"]["plant"]["predicted"] > 0
    ax = figure.axes[0]
    ticks = [line for line in ax.lines if list(line.get_xdata()) == [0, 0]]
    assert len(ticks) == 1 and to_hex(ticks[0].get_color()) == system_colour(3)
    row = TYPES.index("plant")
    assert row - 0.4 < np.mean(ticks[0].get_ydata()) < row + 0.4
    assert [t.get_text() for t in ax.texts] == ["0"]


def test_the_legend_names_the_interval_level(figure):
    legend = [t.get_text() for t in figure.axes[0].get_legend().get_texts()]
    assert legend == ["base", "large", "xl", "never-plant", "95% bootstrap interval"]


def test_error_categories_have_colours_no_system_has(figure):
    types, errors = figure.axes[:2]
    system_colours = {to_hex(p.get_facecolor()) for p in types.patches}
    assert system_colours == {system_colour(k) for k in range(4)}
    category_colours = {to_hex(p.get_facecolor()) for p in errors.patches}
    assert category_colours <= {CATEGORIES[k] for k in CATEGORIES if k != "correct"}
    assert not set(CATEGORIES.values()) & set(SYSTEMS)


def stepped(steps):
    """A result of one run whose checkpoints are at ``steps``."""
    gold = [[(0, 1, "A"), (1, 2, "B")]] * 20
    runs = {f"checkpoint-{step}": [[(0, 1, "A")] if k % 2 else [(1, 2, "B")] for k in range(20)] for step in steps}
    result = benchmark(gold, runs, n_resamples=200, progress=False).to_dict()
    for system, step in zip(result["systems"], steps):
        system.update(run="run", step=step)
    return result


@pytest.mark.parametrize("steps, scale", [([100, 500, 1000], "linear"), ([50, 100, 800, 3200], "log")])
def test_steps_over_more_than_a_factor_of_ten_are_drawn_on_a_log_axis(steps, scale):
    from nested_span_f1.render.plots import plot_benchmark

    fig = plot_benchmark(stepped(steps))
    ax = fig.axes[2]
    assert ax.get_xscale() == scale
    if scale == "log":
        assert list(ax.get_xticks()) == steps and ax.get_xlabel() == "step (log scale)"
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend == ["run", "95% bootstrap interval"]
    (points,) = ax.collections[1:]  # the band, then the points
    assert [to_hex(c) for c in points.get_facecolors()] == [system_colour(k) for k in range(len(steps))]
