"""String normalisation for the string protocol, as UniversalNER's evaluation normalises answers.

UniversalNER (Zhou et al. 2024, ``src/eval/evaluate.py``) compares answers after
four steps, in this order: lower-case the string, delete every ASCII punctuation
character (Python's ``string.punctuation``), replace the whole words ``a``, ``an``
and ``the`` by a space, and collapse runs of whitespace into one space with no
space at either end. :class:`Normalization` runs the same steps in the same
order, each one optional; the defaults are UniversalNER's (all four on).

Two details follow from the order: a string made only of punctuation or articles
normalises to ``""`` (which is still a string that can match another ``""``, as
in UniversalNER), and punctuation is deleted before articles are looked for, so
``"the-art"`` becomes ``"theart"`` and keeps its letters. Articles are matched
without regard to case, so that turning lower-casing off does not make
``"The"`` an article no longer.
"""
from __future__ import annotations

import re
import string
from dataclasses import dataclass
from functools import lru_cache

from ..core.wording import quote

STEPS = ("lowercase", "punctuation", "articles", "whitespace")
"""The normalisation steps, in the order they run."""

_PUNCTUATION = str.maketrans("", "", string.punctuation)
_ARTICLES = re.compile(r"\b(?:a|an|the)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Normalization:
    """Which of the four steps to run (all by default, as UniversalNER does).

    >>> Normalization()("The  U.S. Army")
    'us army'
    >>> Normalization(punctuation=False)("The  U.S. Army")
    'u.s. army'
    >>> Normalization.parse("none")("The  U.S. Army")
    'The  U.S. Army'
    """

    lowercase: bool = True
    punctuation: bool = True
    articles: bool = True
    whitespace: bool = True

    def __call__(self, text: str) -> str:
        return _normalize(text, self.lowercase, self.punctuation, self.articles, self.whitespace)

    @property
    def name(self) -> str:
        """The steps on, joined by ``+`` (``"none"`` when none is): how results and counts record the setting."""
        on = [step for step in STEPS if getattr(self, step)]
        return "+".join(on) if on else "none"

    @classmethod
    def parse(cls, value: str | Normalization | None) -> Normalization:
        """A normalisation from its :attr:`name` (``"lowercase+whitespace"``, ``"none"``, ``"all"``), or itself.

        Raises:
            ValueError: a step that is not one of :data:`STEPS`.
        """
        if isinstance(value, Normalization):
            return value
        if value is None or value == "all":
            return cls()
        if not isinstance(value, str):
            raise TypeError(f"normalization must be a Normalization or a string such as 'lowercase+whitespace', "
                            f"got {type(value).__name__}")
        steps = [] if value == "none" else [step.strip() for step in value.split("+")]
        unknown = [step for step in steps if step not in STEPS]
        if unknown:
            raise ValueError(f"normalization step {quote(unknown[0])} is not one of {', '.join(STEPS)} "
                             "(join steps with '+', or give 'all' or 'none')")
        return cls(**{step: step in steps for step in STEPS})


@lru_cache(maxsize=1 << 16)
def _normalize(text: str, lowercase: bool, punctuation: bool, articles: bool, whitespace: bool) -> str:
    # names repeat within and across documents: the cache makes each distinct string cost one pass
    if lowercase:
        text = text.lower()
    if punctuation:
        text = text.translate(_PUNCTUATION)
    if articles:
        text = _ARTICLES.sub(" ", text)
    if whitespace:
        text = " ".join(text.split())
    return text
