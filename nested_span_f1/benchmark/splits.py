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
COMMON = "most papers before 2022"
UNVERIFIED = ("unverified: the sentence count the nested-NER literature commonly reports for this preprocessing; no "
              "statistics table with a source we could read gives it, nor its tokens and entities, and papers "
              "that split sentences with other tools report other counts (yhcc/CNN_Nested_NER preprocess/readme.md)")
CONLL = ("Tjong Kim Sang and De Meulder (2003), tables 1 and 2 (English test set: 3,453 sentences, 46,435 tokens; "
         "1,668 + 702 + 1,661 + 1,617 entities); the same counts in neulab/ExplainaBoard's copy of the test set "
         "(commit 841586af230544e42826e4200ad7ea8ef6d885a6), counted by this package")


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
        as_in: who uses it, for the report ("Yan et al. (2022)").
        source: where the counts come from, in full (or why they are unverified).
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
        """The split as the report's settings hold it, with the counts that were compared and those that were not
        (``unchecked``: a gold is named as the split only when that is empty)."""
        return {"dataset": self.dataset, "name": self.name, "part": self.part, "counts": dict(self.counts),
                "matched_on": list(matched_on), "unchecked": [key for key in COUNTS if key not in matched_on],
                "as_in": self.as_in, "source": self.source}


def _yan(dataset: str, rows: Mapping[str, tuple[int, int, int]]) -> list[Split]:
    return [Split(dataset, "document split of Yan et al. (2022)" if dataset == "GENIA" else
                  "preprocessing of Yan et al. (2022)", part, dict(zip(COUNTS, row)), "Yan et al. (2022)",
                  CNN_NESTED_NER)
            for part, row in rows.items()]


SPLITS: tuple[Split, ...] = (
    Split("GENIA", "classic sentence split", "test", {"sentences": 1854, "tokens": 48179, "entities": 5506},
          CLASSIC, SEDA),
    Split("GENIA", "classic sentence split", "dev", {"sentences": 1669, "tokens": 43419, "entities": 5365},
          CLASSIC, SEDA),
    *_yan("GENIA", {"test": (1732, 46873, 5119), "dev": (1765, 45495, 4714), "train": (15038, 398328, 46203)}),
    *_yan("ACE2004", {"test": (824, 19798, 3036), "dev": (742, 17998, 2514), "train": (6297, 147128, 22231)}),
    *_yan("ACE2005", {"test": (1051, 19603, 3099), "dev": (960, 19745, 3321), "train": (7178, 149843, 25300)}),
    Split("ACE2004", "commonly used preprocessing", "test", {"sentences": 812}, COMMON, UNVERIFIED),
    Split("ACE2005", "commonly used preprocessing", "test", {"sentences": 1047}, COMMON, UNVERIFIED),
    Split("KBP2017", "commonly used preprocessing", "test", {"sentences": 4267}, COMMON, UNVERIFIED),
    Split("CoNLL-2003", "English shared-task split", "test", {"sentences": 3453, "tokens": 46435, "entities": 5648},
          "Tjong Kim Sang and De Meulder (2003)", CONLL),
)
"""Every split with sourced counts (test, dev and train where known); the ACE and KBP splits most papers before
2022 used have a sentence count only, unverified, so a gold is never named as one of them."""

ALIASES = {"genia": "GENIA", "ace2004": "ACE2004", "ace04": "ACE2004", "ace2005": "ACE2005", "ace05": "ACE2005",
           "kbp2017": "KBP2017", "kbp17": "KBP2017", "tackbp2017": "KBP2017", "conll2003": "CoNLL-2003",
           "conll03": "CoNLL-2003"}
"""Names a user may give a dataset, lower-cased without punctuation, and the dataset they name."""


def dataset_named(name: str | None) -> str | None:
    """The dataset of :data:`SPLITS` that ``name`` names (``"ace-05"`` names ACE2005, ``"GENIA-doc"`` GENIA: a
    name that starts with an alias, punctuation and case aside), or None."""
    if name is None:
        return None
    key = re.sub(r"[^a-z0-9]", "", name.lower())
    return next((ALIASES[alias] for alias in sorted(ALIASES, key=len, reverse=True) if key.startswith(alias)), None)


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
    """The splits ``counts`` are: those that match on sentences, tokens and entities alike (a split whose source
    gives fewer counts is never recognised), ``dataset``'s own first."""
    found = [split for split in SPLITS if _compared(split, counts) == list(COUNTS)]
    return sorted(found, key=lambda split: split.dataset != dataset)


def identify(counts: Mapping[str, int | None], dataset_name: str | None) -> dict[str, Any] | None:
    """The split the gold is, as the report's settings hold it, or None.

    A split is named only when the gold matches it on sentences, tokens and
    entities, and only a split of the dataset ``dataset_name`` names when one is
    given (a name with no known splits names none). For a named dataset, a split the
    gold matches on fewer counts (a sentence count alone, where that is all that is
    known) is returned with those counts as ``matched_on`` and the others as
    ``unchecked``, and the report says only that they match. When ``dataset_name``
    names a dataset of :data:`SPLITS` and the gold matches none of its splits,
    :class:`UnknownSplitWarning` says so (and which split the counts are, if another
    dataset's).
    """
    named = dataset_named(dataset_name)
    if dataset_name is not None and named is None:
        return None
    found = [split for split in recognise(counts, named) if named is None or split.dataset == named]
    if found:
        return found[0].to_dict(COUNTS)
    if named is None:
        return None
    partial = [(split, compared) for split in SPLITS if split.dataset == named
               and (compared := _compared(split, counts)) is not None]
    if partial:
        split, compared = max(partial, key=lambda item: len(item[1]))
        return split.to_dict(compared)
    known = "; ".join(f"{s.part} of the {s.name} ({_counts(s.counts)})" for s in SPLITS if s.dataset == named)
    others = "".join(f"; its counts are those of {split.describe()}" for split in recognise(counts)[:1])
    warn_caller(f"the gold ({_counts(counts)}) is none of the known splits of {named} ({known}): scores on it "
                f"cannot be compared with papers that report on {named}{others}", UnknownSplitWarning)
    return None


def _counts(counts: Mapping[str, int | None]) -> str:
    return ", ".join(f"{counts[key]:,} {key}" for key in COUNTS if counts.get(key) is not None)
