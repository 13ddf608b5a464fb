"""Resampling statistics: sums of resamples equal gathering the drawn rows, p-value conventions, Holm."""
import numpy as np
import pytest

from nested_span_f1.benchmark.stats import (
    bootstrap_sums,
    holm,
    interval,
    p_value,
    paired_bootstrap_p,
    prf,
    resample_indices,
    streams,
    swap_chunks,
)
from nested_span_f1.core.counts import Counts, Tally
from nested_span_f1.core.scores import summarize


@pytest.fixture(scope="module")
def matrix():
    return np.random.default_rng(7).integers(0, 5, size=(2000, 6))


def test_bootstrap_sums_equal_the_drawn_rows_summed(matrix):
    # 1100 resamples of 2000 units span several chunks of draws
    indices = resample_indices(len(matrix), 1100, seed=3)
    assert indices.shape == (1100, 2000)
    expected = matrix[indices].sum(axis=1)
    np.testing.assert_array_equal(bootstrap_sums(matrix, 1100, seed=3), expected)


def test_same_seed_same_sums_other_seed_other_sums(matrix):
    a, b = bootstrap_sums(matrix, 50, seed=1), bootstrap_sums(matrix, 50, seed=1)
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, bootstrap_sums(matrix, 50, seed=2))


def test_swap_sums_equal_the_swapped_rows_summed(matrix):
    swapped = streams(5)[1].random((100, len(matrix))) < 0.5
    # 100 rounds of 2000 units span two chunks
    chunks = list(swap_chunks(matrix, 100, seed=5))
    assert len(chunks) > 1
    np.testing.assert_array_equal(np.concatenate(chunks), swapped.astype(np.int64) @ matrix)
    assert 0.45 < swapped.mean() < 0.55


def test_prf_equals_the_metric_on_the_same_counts():
    rng = np.random.default_rng(0)
    gold = rng.integers(0, 40, 200)
    predicted = rng.integers(0, 40, 200)
    tp = np.minimum(gold, predicted) - rng.integers(0, 3, 200).clip(0, np.minimum(gold, predicted))
    precision, recall, f1 = prf(tp.astype(float), predicted.astype(float), gold.astype(float))
    for k in range(200):
        result = summarize(Counts({"X": Tally(int(tp[k]), int(predicted[k]), int(gold[k]))}), zero_division=0)
        assert (precision[k], recall[k], f1[k]) == (
            result["overall_precision"], result["overall_recall"], result["overall_f1"])


def test_interval_is_the_percentiles():
    low, high = interval(np.arange(101.0), 0.5)
    assert (low, high) == (25.0, 75.0)
    with pytest.raises(ValueError, match="confidence must be between 0 and 1"):
        interval(np.arange(3.0), 95)


@pytest.mark.parametrize("null, observed, expected", [
    ([0.0, 0.1, -0.3, 0.2], 0.2, 0.6),
    ([0.0, 0.1, -0.3, 0.2], -0.2, 0.6),
    ([0.0, 0.0, 0.0], 0.0, 1.0),
    ([0.01, -0.02], 0.5, 1 / 3),
], ids=["two-sided", "negative observed", "all ties", "none as extreme"])
def test_p_value_counts_plus_one_over_rounds_plus_one(null, observed, expected):
    assert p_value(np.array(null), observed) == expected


def test_paired_bootstrap_p_centres_the_differences():
    # differences centred on the observed 0.3: -0.3, 0.0, 0.3, 0.1 -> |.| >= 0.3 twice
    assert paired_bootstrap_p(np.array([0.0, 0.3, 0.6, 0.4]), 0.3) == 3 / 5


def test_holm():
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02], abs=1e-15)
    assert holm([0.2, 0.9]) == pytest.approx([0.4, 0.9], abs=1e-15)
    assert holm([0.7, 0.6]) == [1.0, 1.0]
    assert holm([0.04]) == [0.04]
