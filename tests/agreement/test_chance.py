"""Kappa and alpha: each the float nearest its definition's exact value, and equal to the reference packages
(scikit-learn's cohen_kappa_score, statsmodels' fleiss_kappa, the krippendorff package) on the same labels, to the
rounding of their float sums; positions labelled with their IOB2 tags.

The design: docs/DESIGN.md, 'Kappa and alpha on positions'."""
import math
from collections import Counter
from fractions import Fraction
from itertools import combinations, permutations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from nested_span_f1 import Corpus
from nested_span_f1.agreement import agreement
from nested_span_f1.agreement.chance import Tagging, cohen_kappa, fleiss_kappa, krippendorff_alpha
from nested_span_f1.core.spans import spans_from_lists

sklearn_metrics = pytest.importorskip("sklearn.metrics")
inter_rater = pytest.importorskip("statsmodels.stats.inter_rater")
krippendorff = pytest.importorskip("krippendorff")

TOLERANCE = 1e-12
"""The references sum floats in their own order: they agree with the exact value's float to this relative error."""


def close(ours, reference):
    """Ours equals the reference package's value to the rounding of its sums; None where it gives NaN."""
    if ours is None:
        return reference is None or math.isnan(reference)
    return math.isclose(ours, reference, rel_tol=TOLERANCE, abs_tol=TOLERANCE)


# --------------------------------------------------------------------------- the definitions, in fractions

def exact_cohen(a, b):
    n = len(a)
    observed = Fraction(sum(x == y for x, y in zip(a, b)), n)
    ca, cb = Counter(a), Counter(b)
    expected = sum(Fraction(ca[c] * cb[c], n * n) for c in ca)
    return None if expected == 1 else (observed - expected) / (1 - expected)


def exact_fleiss(rows):
    """``rows[annotator][position]``."""
    raters, n = len(rows), len(rows[0])
    units = [Counter(row[i] for row in rows) for i in range(n)]
    p_bar = sum(Fraction(sum(v * v for v in u.values()) - raters, raters * (raters - 1)) for u in units) / n
    totals = Counter(x for row in rows for x in row)
    p_e = sum(Fraction(v, n * raters) ** 2 for v in totals.values())
    return None if p_e == 1 else (p_bar - p_e) / (1 - p_e)


def exact_alpha(rows):
    """Krippendorff's nominal alpha by its coincidence matrix; ``None`` in ``rows`` is a missing value."""
    coincidences = Counter()
    for i in range(len(rows[0])):
        values = [row[i] for row in rows if row[i] is not None]
        if len(values) < 2:
            continue
        for x, y in permutations(values, 2):
            coincidences[x, y] += Fraction(1, len(values) - 1)
    n_c = Counter()
    for (x, _), weight in coincidences.items():
        n_c[x] += weight
    n = sum(n_c.values())
    observed = sum(w for (x, y), w in coincidences.items() if x != y)
    expected = sum(n_c[x] * n_c[y] for x in n_c for y in n_c if x != y) / (n - 1) if n > 1 else 0
    return None if expected == 0 else 1 - observed / expected


def as_float(value):
    return None if value is None else float(value)


# --------------------------------------------------------------------------- the coefficients

labels = st.sampled_from(["O", "B-PER", "I-PER", "B-LOC", "B-LOC|B-PER"])


@given(st.integers(1, 30).flatmap(lambda n: st.tuples(st.lists(labels, min_size=n, max_size=n),
                                                      st.lists(labels, min_size=n, max_size=n))))
def test_cohen_kappa_is_its_definition_and_scikit_learns(pair):
    a, b = pair
    names = sorted(set(a) | set(b))
    codes = [np.array([names.index(x) for x in side]) for side in (a, b)]
    ours = cohen_kappa(*codes)
    assert ours == as_float(exact_cohen(a, b))
    assert close(ours, sklearn_kappa(a, b))


def sklearn_kappa(a, b):
    """scikit-learn's kappa; NaN where it is undefined (one label in all: it warns and gives NaN, asserted in
    test_undefined_coefficients_are_none)."""
    if len(set(a) | set(b)) == 1:
        return float("nan")
    return sklearn_metrics.cohen_kappa_score(a, b)


@given(st.integers(2, 5).flatmap(lambda raters: st.integers(1, 25).flatmap(
    lambda n: st.lists(st.lists(labels, min_size=n, max_size=n), min_size=raters, max_size=raters))))
def test_fleiss_kappa_is_its_definition_and_statsmodels(rows):
    names = sorted({x for row in rows for x in row})
    codes = np.array([[names.index(x) for x in row] for row in rows])
    ours = fleiss_kappa(codes)
    assert ours == as_float(exact_fleiss(rows))
    table = inter_rater.aggregate_raters(codes.T, n_cat=len(names))[0]
    with np.errstate(all="ignore"):
        assert close(ours, inter_rater.fleiss_kappa(table))


@given(st.integers(2, 4).flatmap(lambda raters: st.integers(1, 25).flatmap(
    lambda n: st.lists(st.lists(st.one_of(st.none(), labels), min_size=n, max_size=n), min_size=raters,
                       max_size=raters))))
def test_krippendorff_alpha_with_missing_values_is_its_definition_and_the_packages(rows):
    names = sorted({x for row in rows for x in row if x is not None})
    present = np.array([[x is not None for x in row] for row in rows])
    codes = np.array([[names.index(x) if x is not None else 0 for x in row] for row in rows])
    ours = krippendorff_alpha(codes, present)
    assert ours == as_float(exact_alpha(rows))
    data = [[np.nan if x is None else float(names.index(x)) for x in row] for row in rows]
    pairable = sum(sum(x is not None for x in column) for column in zip(*rows)
                   if sum(x is not None for x in column) >= 2)
    values = {x for column in zip(*rows) if sum(v is not None for v in column) >= 2 for x in column if x is not None}
    if pairable < 2 or len(values) < 2:
        assert ours is None  # the package refuses one value or no pairable value
        return
    assert close(ours, krippendorff.alpha(reliability_data=data, level_of_measurement="nominal"))


def test_undefined_coefficients_are_none():
    same = np.zeros(5, dtype=np.int64)
    assert cohen_kappa(same, same) is None
    exceptions = pytest.importorskip("sklearn.exceptions")
    with pytest.warns(exceptions.UndefinedMetricWarning, match="cohen_kappa_score` is undefined"), \
            pytest.warns(UserWarning, match="A single label was found"):
        assert math.isnan(sklearn_metrics.cohen_kappa_score(["O"] * 5, ["O"] * 5))
    assert fleiss_kappa(np.zeros((3, 5), dtype=np.int64)) is None
    assert krippendorff_alpha(np.zeros((2, 5), dtype=np.int64), np.ones((2, 5), dtype=bool)) is None
    # perfect agreement on two categories is 1, not undefined
    two = np.array([0, 1, 0, 1])
    assert cohen_kappa(two, two) == fleiss_kappa(np.stack([two, two, two])) == 1.0
    assert krippendorff_alpha(np.stack([two, two]), np.ones((2, 4), dtype=bool)) == 1.0


# --------------------------------------------------------------------------- the labels of positions

def plain_tags(tokens, spans):
    """Every position's label by the rule as stated: the tags of the spans over it, outermost first (by start,
    then the longer, then the type), joined by '|'; O outside every span."""
    out = []
    for t in range(tokens):
        over = sorted((s for s in set(spans) if s[0] <= t < s[1]), key=lambda s: (s[0], -s[1], s[2]))
        out.append("|".join(("B-" if s[0] == t else "I-") + s[2] for s in over) or "O")
    return out


nested_spans = st.integers(1, 9).flatmap(lambda n: st.tuples(st.just(n), st.lists(
    st.tuples(st.integers(0, n - 1), st.integers(1, 4), st.sampled_from(["DNA", "protein", "RNA"]))
    .map(lambda t: (t[0], min(t[0] + t[1], n), t[2])), max_size=5)))


@given(st.lists(nested_spans, min_size=1, max_size=4))
def test_position_labels_follow_the_stated_rule(documents):
    """Nested, crossing and twice-typed spans: the labels are those of the rule written out in plain Python; flat
    spans get their plain IOB2 tags."""
    lengths = np.array([n for n, _ in documents])
    side = spans_from_lists([sorted(set(spans)) for _, spans in documents], lengths.tolist())
    tagging = Tagging(("DNA", "RNA", "protein"))
    codes = tagging.codes(side, lengths)
    expected = [tag for n, spans in documents for tag in plain_tags(n, spans)]
    assert [tagging.name(code) for code in codes.tolist()] == expected


def test_flat_spans_give_iob2_tags_and_nested_ones_all_theirs():
    tagging = Tagging(("DNA", "protein"))
    side = spans_from_lists([[(0, 2, "DNA"), (0, 1, "protein"), (3, 4, "protein")], [(1, 3, "DNA")]], [5, 3])
    names = [tagging.name(c) for c in tagging.codes(side, np.array([5, 3])).tolist()]
    assert names == ["B-DNA|B-protein", "I-DNA", "O", "B-protein", "O", "O", "B-DNA", "I-DNA"]


@given(st.lists(st.tuples(nested_spans, st.lists(st.tuples(st.integers(0, 8), st.integers(1, 3),
                                                           st.sampled_from(["DNA", "protein"])), max_size=4),
                          st.lists(st.tuples(st.integers(0, 8), st.integers(1, 3),
                                             st.sampled_from(["DNA", "protein"])), max_size=4)),
                min_size=1, max_size=4))
def test_agreement_kappa_and_alpha_are_the_packages_on_the_stated_labels(documents):
    """agreement()'s Cohen's kappa, Fleiss' kappa and alpha are the reference packages' on the positions'
    labels written out by the rule, for three annotators of nested spans."""
    sides = [[], [], []]
    for (n, first), second, third in documents:
        for k, spans in enumerate((first, second, third)):
            sides[k].append(sorted(set(spans) if k == 0 else {(s, min(s + w, n), label) for s, w, label in spans
                                                              if s < n}))
    if not all(any(side) for side in sides):
        return
    tokens = [["t"] * n for (n, _), _, _ in documents]
    corpora = {name: Corpus(tokens, side) for name, side in zip("ABC", sides)}
    result = agreement(corpora, n_resamples=10)
    labelled = [[tag for doc, spans in zip(tokens, side) for tag in plain_tags(len(doc), spans)] for side in sides]
    for (a, first), (b, second) in combinations(zip("ABC", labelled), 2):
        with np.errstate(all="ignore"):
            assert close(result["cohen_kappa"][f"{a}|{b}"], sklearn_kappa(first, second))
    names = sorted({x for row in labelled for x in row})
    codes = np.array([[names.index(x) for x in row] for row in labelled])
    with np.errstate(all="ignore"):
        assert close(result["fleiss_kappa"], inter_rater.fleiss_kappa(
            inter_rater.aggregate_raters(codes.T, n_cat=len(names))[0]))
    assert result["fleiss_kappa"] == as_float(exact_fleiss(labelled))
    assert result["krippendorff_alpha"] == as_float(exact_alpha(labelled))
    if len(names) > 1:
        assert close(result["krippendorff_alpha"], krippendorff.alpha(reliability_data=codes.astype(float),
                                                                      level_of_measurement="nominal"))
