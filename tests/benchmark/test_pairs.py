"""Which pairs a benchmark compares, and the resamples Holm's correction needs for a difference to be able to hold."""
import pytest
from hypothesis import given
from hypothesis import strategies as st

from nested_span_f1.benchmark.pairs import choose, pairs, rounds_needed

NAMES = ["run/checkpoint-100", "run/checkpoint-200", "run/checkpoint-300", "base"]
RUNS = ["run", "run", "run", None]


@pytest.mark.parametrize("kind, expected", [
    ("baseline", [(0, 3), (1, 3), (2, 3)]),
    ("consecutive", [(1, 0), (2, 1)]),
    ("best", [(2, 0), (2, 1), (2, 3)]),
    ("all", [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]),
])
def test_pairs_of_each_kind(kind, expected):
    assert pairs(kind, NAMES, RUNS, "base", best=2) == expected


def test_consecutive_pairs_stay_within_their_run():
    runs = ["a", "b", "a", "b", None, None]
    assert pairs("consecutive", list("uvwxyz"), runs, None, 0) == [(2, 0), (3, 1), (5, 4)]


@pytest.mark.parametrize("baseline, runs, expected", [
    ("base", RUNS, "baseline"),
    (None, ["run"] * 3, "consecutive"),
    (None, RUNS, "all"),
    (None, [None, None], "all"),
    (None, ["a", "b"], "all"),
])
def test_auto(baseline, runs, expected):
    assert choose("auto", baseline, runs) == expected


def test_bad_choices_are_named():
    with pytest.raises(ValueError, match="comparisons must be one of auto, baseline, consecutive, best, all, got 'pairs'"):
        choose("pairs", None, RUNS)
    with pytest.raises(ValueError, match=r"comparisons='baseline' compares every system with the baseline: name it"):
        choose("baseline", None, RUNS)
    with pytest.raises(ValueError, match=r"the baseline 'gpt' is not one of the systems \(run/checkpoint-100, "):
        pairs("baseline", NAMES, RUNS, "gpt", 0)


def test_the_issue_numbers():
    # 11 checkpoints, all pairs: 55 comparisons; 1,000 resamples give at best 55/1001 = 0.055
    assert rounds_needed(55, 0.05) == 1100 and 55 / 1001 > 0.05 > 55 / 1101
    assert rounds_needed(10, 0.05) == 200 and rounds_needed(1, 0.05) == 20


@given(st.integers(1, 5000), st.sampled_from([0.1, 0.05, 0.01, 0.001, 0.3, 0.5]))
def test_rounds_needed_is_the_fewest(m, alpha):
    rounds = rounds_needed(m, alpha)
    assert m / (rounds + 1) < alpha <= m / rounds
