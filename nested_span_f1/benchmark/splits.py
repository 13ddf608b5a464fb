"""The standard splits of the nested-NER benchmarks, and recognising a gold file as one of them.

Papers report on fixed splits, and a score on another split is not comparable
with theirs (GENIA's classic sentence split of 1,854 test sentences against the
document split of 1,732 is the best-known case). A gold is recognised from its
sentence, token and entity counts; :data:`SPLITS` holds the counts that have a
source, each split naming it. Where a source gives only some counts, a split is
matched on those only, and the report says which were compared.

Counts: sentences; tokens (the words of every sentence); entities (every
annotated entity, contiguous or not, a span listed with two labels counting twice).

>>> [s.describe() for s in recognise({"sentences": 1732, "tokens": 46873, "entities": 5119})]
['GENIA test, document split of Yan et al. (2022)']
>>> recognise({"sentences": 1731, "tokens": 46850, "entities": 5115})
[]
"""
from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..core.caller import warn_caller
from ..core.spans import SpanArrays
from .inputs import Side

COUNTS = ("sentences", "tokens", "entities")

CNN_NESTED_NER = ("Yan et al. (2022), the statistics table of yhcc/CNN_Nested_NER preprocess/readme.md "
                  "(commit 1fd90b2808c9177ad75882584cd9ab3cf5867699)")
SEDA = ("fang1204/SEDA data/genia (commit aa05a259eff67f6c0403fe7b2dd93b33121c3d01), counted by this package; "
        "the test set's 1,854 sentences and 5,506 entities are also in the evaluation log of Shen et al. (2021), "
        "tricktreat/locate-and-label README.md (commit 0e05376fb0174e7eacf66d3c6443a8f1dcab8d5d)")
CLASSIC = "Shen et al. (2021) and W2NER's data (fang1204/SEDA)"
COMMON = "most papers before 2022 (sentence count only)"
ISSUE_30 = ("the sentence count the nested-NER literature reports, as this project's issue 30 states it; no "
            "token or entity count of this preprocessing was found with a source, so only sentences are compared")


class UnknownSplitWarning(UserWarning):
    """The dataset named for a benchmark has known splits, and the gold matches none of them."""


@dataclass(frozen=True)
class Split:
    """One part (train, dev or test) of a dataset's standard split, with the counts a source gives.

    Attributes:
        dataset: the dataset's name as papers write it ("GENIA", "ACE2004").
        name: which split ("classic sentence split", "document split of Yan et al. (2022)").
        part: "train", "dev" or "test".
        counts: the known counts among sentences, tokens and entities.
        as_in: who uses it, for the report ("as in Yan et al. (2022)").
        source: where the counts come from, in full.
    """

    dataset: str
    name: str
    part: str
    counts: Mapping[str, int]
    as_in: str
    source: str

    def describe(self) -> str:
        """``"GENIA test, classic sentence split"``."""
        return f"{self.dataset} {self.part}, {self.name}"

    def to_dict(self, matched_on: Sequence[str]) -> dict[str, Any]:
        """The split as the report's settings hold it, with the counts that were compared."""
        return {"dataset": self.dataset, "name": self.name, "part": self.part, "counts": dict(self.counts),
                "matched_on": list(matched_on), "as_in": self.as_in, "source": self.source}


def _yan(dataset: str, rows: Mapping[str, tuple[int, int, int]]) -> list[Split]:
    return [Split(dataset, "document split of Yan et al. (2022)" if dataset == "GENIA" else
                  "preprocessing of Yan et al. (2022)", part, dict(zip(COUNTS, row)),
                  "Yan et al. (2022), yhcc/CNN_Nested_NER", CNN_NESTED_NER)
            for part, row in rows.items()]


SPLITS: tuple[Split, ...] = (
    Split("GENIA", "classic sentence split", "test", {"sentences": 1854, "tokens": 48179, "entities": 5506},
          CLASSIC, SEDA),
    Split("GENIA", "classic sentence split", "dev", {"sentences": 1669, "tokens": 43419, "entities": 5365},
          CLASSIC, SEDA),
    *_yan("GENIA", {"test": (1732, 46873, 5119), "dev": (1765, 45495, 4714), "train": (15038, 398328, 46203)}),
    *_yan("ACE2004", {"test": (824, 19798, 3036), "dev": (742, 17998, 2514), "train": (6297, 147128, 22231)}),
    *_yan("ACE2005", {"test": (1051, 19603, 3099), "dev": (960, 19745, 3321), "train": (7178, 149843, 25300)}),
    Split("ACE2004", "commonly used preprocessing (document split of Lu and Roth 2015)", "test",
          {"sentences": 812}, COMMON, ISSUE_30),
    Split("ACE2005", "commonly used preprocessing (document split of Lu and Roth 2015)", "test",
          {"sentences": 1047}, COMMON, ISSUE_30),
    Split("KBP2017", "commonly used preprocessing", "test", {"sentences": 4267}, COMMON, ISSUE_30),
)
"""Every split with sourced counts (test, dev and train where known)."""

ALIASES = {"genia": "GENIA", "ace2004": "ACE2004", "ace04": "ACE2004", "ace2005": "ACE2005", "ace05": "ACE2005",
           "kbp2017": "KBP2017", "kbp17": "KBP2017", "tackbp2017": "KBP2017"}
"""Names a user may give a dataset, lower-cased without punctuation, and the dataset they name."""


def dataset_named(name: str | None) -> str | None:
    """The dataset of :data:`SPLITS` that ``name`` names (``"ace-05"`` names ACE2005), or None."""
    return None if name is None else ALIASES.get(re.sub(r"[^a-z0-9]", "", name.lower()))


def gold_counts(gold: Side, references: SpanArrays) -> dict[str, int | None]:
    """The gold's sentences, tokens and entities (tokens None when the gold is span lists without tokens; a gold
    of texts has characters instead).

    ``references`` are the gold's spans as scored (decoded from tags, for a tag gold);
    a nested corpus counts every entity it holds, discontinuous ones included, as the
    statistics tables of papers do.
    """
    lengths = gold.lengths
    entities = len(references) if gold.corpus is None else sum(len(sentence) for sentence in gold.corpus.entities)
    if gold.unit == "characters":
        return {"sentences": gold.n_sentences, "tokens": None, "characters": sum(gold.corpus.lengths),  # type: ignore[union-attr]
                "entities": entities}
    return {"sentences": gold.n_sentences, "tokens": None if lengths is None else int(lengths.sum()),
            "entities": entities}


def _compared(split: Split, counts: Mapping[str, int | None]) -> list[str] | None:
    """The counts compared when ``counts`` match ``split`` on every count both know, else None."""
    shared = [key for key in COUNTS if key in split.counts and counts.get(key) is not None]
    if not shared or any(split.counts[key] != counts[key] for key in shared):
        return None
    return shared


def recognise(counts: Mapping[str, int | None], dataset: str | None = None) -> list[Split]:
    """The splits ``counts`` match, the best first (most counts compared; ``dataset``'s own splits first)."""
    found = [(split, compared) for split in SPLITS if (compared := _compared(split, counts)) is not None]
    found.sort(key=lambda item: (item[0].dataset != dataset, -len(item[1])))
    return [split for split, _ in found]


def identify(counts: Mapping[str, int | None], dataset_name: str | None) -> dict[str, Any] | None:
    """The split the gold is, as the report's settings hold it, or None; warns when ``dataset_name`` names a
    dataset of :data:`SPLITS` whose known splits the gold matches none of (:class:`UnknownSplitWarning`)."""
    named = dataset_named(dataset_name)
    found = recognise(counts, named)
    if named is not None and not any(split.dataset == named for split in found):
        known = "; ".join(f"{s.part} of the {s.name} ({_counts(s.counts)})" for s in SPLITS if s.dataset == named)
        warn_caller(f"the gold ({_counts(counts)}) is none of the known splits of {named} ({known}): scores on it "
                    f"cannot be compared with papers that report on {named}", UnknownSplitWarning)
    if not found:
        return None
    best = found[0]
    return best.to_dict(_compared(best, counts) or [])


def _counts(counts: Mapping[str, int | None]) -> str:
    return ", ".join(f"{counts[key]:,} {key}" for key in COUNTS if counts.get(key) is not None)
