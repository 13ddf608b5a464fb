"""Which systems a benchmark compares, and how many resamples those comparisons need to be able to hold.

Every comparison made is one more test Holm's correction accounts for, so a
report compares what its reader asks: each system against a named baseline,
each checkpoint against the one before it, the best system against the rest, or
all pairs. With ``m`` comparisons the smallest p-value ``B`` resamples can give is
``1 / (B + 1)`` and Holm multiplies it by ``m``: unless ``m / (B + 1) < alpha``
no difference can hold, however large. :func:`rounds_needed` is the smallest such
``B``.

>>> rounds_needed(55, 0.05), rounds_needed(10, 0.05)
(1100, 200)
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

from ..core.wording import plural, quote
from .options import MAX_ROUNDS

COMPARISONS = ("auto", "baseline", "consecutive", "best", "all")
"""The ``comparisons`` a benchmark takes (``auto``: see :func:`choose`)."""


def choose(comparisons: str, baseline: str | None, runs: Sequence[str | None]) -> str:
    """The comparisons ``auto`` stands for: against ``baseline`` when one is named; consecutive checkpoints when
    every system is a checkpoint of one run (``runs``: each system's run, None for a named system); else all pairs.

    Raises:
        ValueError: an unknown ``comparisons``, or ``baseline`` comparisons without a baseline.
    """
    if comparisons not in COMPARISONS:
        raise ValueError(f"comparisons must be one of {', '.join(COMPARISONS)}, got {quote(comparisons)}")
    if comparisons == "baseline" and baseline is None:
        raise ValueError("comparisons='baseline' compares every system with the baseline: name it (baseline=NAME)")
    if comparisons != "auto":
        return comparisons
    if baseline is not None:
        return "baseline"
    return "consecutive" if len(set(runs)) == 1 and runs and runs[0] is not None else "all"


def pairs(kind: str, names: Sequence[str], runs: Sequence[str | None], baseline: str | None,
          best: int) -> list[tuple[int, int]]:
    """``(a, b)`` index pairs to compare, the difference taken as ``a`` minus ``b``.

    ``baseline``: each other system against it (``a`` the system); ``consecutive``:
    each system against the one before it in its run, named systems in the order
    given (``a`` the later); ``best``: the ``best``-th system against each other one
    (``a`` the best); ``all``: every pair in report order (``a`` the first).

    Raises:
        ValueError: a baseline that is not one of ``names``.
    """
    n = len(names)
    if kind == "baseline":
        if baseline is None or baseline not in names:
            raise ValueError(f"the baseline {quote(baseline)} is not one of the systems ({', '.join(names)})")
        base = list(names).index(baseline)
        return [(i, base) for i in range(n) if i != base]
    if kind == "consecutive":
        last: dict[str | None, int] = {}
        out = []
        for i, run in enumerate(runs):
            if run in last:
                out.append((i, last[run]))
            last[run] = i
        return out
    if kind == "best":
        return [(best, i) for i in range(n) if i != best]
    return [(i, j) for i in range(n) for j in range(i + 1, n)]


def rounds_needed(m: int, alpha: float) -> int:
    """The fewest resamples (or randomization rounds) ``B`` with ``m / (B + 1) < alpha``: the number below which
    no difference can hold after Holm's correction over ``m`` comparisons."""
    rounds = max(math.floor(m / alpha) - 1, 1)
    while m / (rounds + 1) >= alpha:
        rounds += 1
    return rounds


def describe(kind: str, runs: Sequence[str | None], baseline: str | None = None, selected: str | None = None) -> str:
    """What ``kind`` compares, in words: ``"each checkpoint against the one before it in its run"`` for checkpoints,
    ``"each system against the one before it, in the order given"`` for named systems."""
    if kind == "baseline":
        return f"each system against {baseline}" if baseline is not None else "each system against the baseline"
    if kind == "best":
        return f"{selected} (the selected system) against each other one" if selected else \
            "the selected system against each other one"
    if kind == "all":
        return "every pair of systems"
    checkpoints = [run is not None for run in runs]
    if all(checkpoints):
        return "each checkpoint against the one before it in its run"
    if not any(checkpoints):
        return "each system against the one before it, in the order given"
    return ("each checkpoint against the one before it in its run, and each named system against the named system "
            "before it, in the order given")




DEFAULT_ROUNDS = 1000
"""Bootstrap resamples and randomization rounds when none are given, raised to what the comparisons need."""


class Rounds(NamedTuple):
    """The resamples and randomization rounds a benchmark draws (:func:`plan_rounds`)."""

    n_resamples: int
    n_permutations: int
    needed: int
    """The fewest with which a difference can hold after Holm's correction (0 when nothing is compared)."""
    raised_from: int | None
    """:data:`DEFAULT_ROUNDS` when the default was raised to ``needed``, else None."""


def _rounds(given: int | None, needed: int, option: str, what: str, m: int, alpha: float) -> int:
    """The resamples (or rounds) to draw: ``given``, refused when fewer than ``needed``; else
    :data:`DEFAULT_ROUNDS` raised to the next thousand at or above ``needed``. ``what``: the comparisons in words
    (:func:`describe`)."""
    if given is None:
        rounds = max(DEFAULT_ROUNDS, -(-needed // 1000) * 1000)
        if rounds > MAX_ROUNDS:
            raise ValueError(f"{plural(m, 'comparison')} ({what}) need {needed:,} resamples for a difference to "
                             f"be able to hold at {alpha:g}, more than the {MAX_ROUNDS:,} a benchmark draws; compare "
                             "fewer pairs (comparisons='baseline' or 'consecutive')")
        return rounds
    if given < needed:
        by = "Holm's correction" if m > 1 else "the tests"
        raise ValueError(f"{option} {given:,} is too few for {plural(m, 'comparison')} ({what}): the smallest "
                         f"p-value {by} can give is {m}/{given + 1:,} "
                         f"= {m / (given + 1):.4f}, not below alpha {alpha:g}, so no difference could hold; use at "
                         f"least {needed:,} (or leave it out: it is raised to what the comparisons need)"
                         + (", or compare fewer pairs" if m > 1 else ""))
    return given


def plan_rounds(kind: str, names: Sequence[str], runs: Sequence[str | None], baseline: str | None, alpha: float,
                n_resamples: int | None, n_permutations: int | None) -> Rounds:
    """The rounds of both tests for the comparisons ``kind`` makes: those given, refused when too few for a
    difference to be able to hold, else the default raised to what they need (``n_permutations`` defaults to
    ``n_resamples``). How many pairs are compared does not depend on which system is selected (the best is one
    of them), so the rounds are known before the selection.

    Raises:
        ValueError: too few rounds given, more needed than :data:`MAX_ROUNDS`, a baseline that is no system.
    """
    m = len(pairs(kind, names, runs, baseline, 0))
    needed = rounds_needed(m, alpha) if m else 0
    raised_from = DEFAULT_ROUNDS if n_resamples is None and needed > DEFAULT_ROUNDS else None
    what = describe(kind, runs, baseline)
    n_resamples = _rounds(n_resamples, needed, "n_resamples (--bootstrap)", what, m, alpha)
    n_permutations = (n_resamples if n_permutations is None else
                      _rounds(n_permutations, needed, "n_permutations (--permutations)", what, m, alpha))
    return Rounds(n_resamples, n_permutations, needed, raised_from)
