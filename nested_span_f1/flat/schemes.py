"""Tagging schemes as data: prefix alphabets and transition tables.

A scheme is a table, not code. Each rule is a three-character pattern
``<previous prefix><current prefix><type condition>``, where a prefix is one of
``O B I E S U L M`` or ``*`` (any), and the condition is ``=`` (same type), ``~``
(different type) or ``*`` (any). Adding a scheme is adding a table.

Two kinds of tables live here:

* default-mode rules (``CONLLEVAL_DEFAULT``, ``SEQEVAL_DEFAULT``): when does a
  chunk end before the current token, and when does one start at it. These
  decode any prefix mix the way conlleval.pl / seqeval's default mode do.
* strict schemes (``SCHEMES``): the allowed prefixes and the start / inside /
  end rules of seqeval's strict mode, plus IO and BMES, which seqeval lacks.

BMES (B/M/E/S, as the Chinese corpora MSRA, Resume and Weibo are tagged) is
IOBES with ``M`` for ``I``: its strict table is IOBES's with the letter
changed, and the default tables read ``M`` as ``I``, so that a BMES file
gives the chunks of the same file with every ``M-`` rewritten ``I-``, in
every mode. seqeval 1.2.2 knows no ``M``: it warns that ``M-X`` "seems not
to be NE tag" and decodes it by type changes alone, which gives the same
chunks on well-formed BMES but loses or merges chunks around a stray ``M-``
(``B-X M-X B-X``: seqeval keeps only the last ``B-X``).

Every table is compiled once to boolean arrays indexed by
``[previous prefix, current prefix, same type]`` so decoding is array lookups.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from ..core.wording import quote

PREFIXES = "OBIESULM"
"""Prefix alphabet; the position of a letter is its integer prefix code."""
_CODE = {letter: code for code, letter in enumerate(PREFIXES)}


def _compile(rules: str) -> np.ndarray:
    """Compile space-separated rule patterns to a bool table [prev, cur, same]."""
    table = np.zeros((len(PREFIXES), len(PREFIXES), 2), dtype=bool)
    for rule in rules.split():
        prev, cur, cond = rule[0], rule[1], rule[2]
        prevs = range(len(PREFIXES)) if prev == "*" else [_CODE[prev]]
        curs = range(len(PREFIXES)) if cur == "*" else [_CODE[cur]]
        sames = {"*": (0, 1), "=": (1,), "~": (0,)}[cond]
        for p in prevs:
            for c in curs:
                for s in sames:
                    table[p, c, s] = True
    return table


def _any_typed(letters: str, cond: str) -> str:
    """Rules 'any previous non-O prefix, any current prefix' for a type condition."""
    return " ".join(f"{p}*{cond}" for p in letters)


@dataclass(frozen=True, eq=False)  # its fields are arrays: compared by identity
class DefaultRules:
    """Chunk end/start rules of a default (repairing) decoder.

    ``ends[p, c, s]``: a chunk ends just before a token with prefix ``c`` that
    follows prefix ``p`` (``s``: same type). ``starts`` likewise.
    """

    name: str
    ends: np.ndarray
    starts: np.ndarray


def _default_rules(name: str, ends: str, starts: str, change_letters: str) -> DefaultRules:
    # Both reference scorers end a chunk at any type change after a non-O tag and
    # start one at any type change onto a non-O tag.
    type_change_end = _any_typed(change_letters, "~")
    type_change_start = " ".join(f"*{c}~" for c in change_letters)
    return DefaultRules(
        name,
        _compile(f"{ends} {type_change_end}"),
        _compile(f"{starts} {type_change_start}"),
    )


# conlleval.pl (2004-01-26): only B/I/E transitions are known; S, U, L tags only
# change chunks through type changes. M (BMES's inside) is read as I: the rules
# of I with M for it ("MB* MO* EM*" ends, "MB* OM* EM*" starts).
CONLLEVAL_DEFAULT = _default_rules(
    "conlleval",
    ends="BB* BO* IB* IO* EE* EI* EO* MB* MO* EM*",
    starts="BB* IB* OB* OI* EE* EI* OE* MB* OM* EM*",
    change_letters="BIESULM",
)
# seqeval's default mode: conlleval plus S- singletons and "E/S always end"; M read
# as I, as above.
SEQEVAL_DEFAULT = _default_rules(
    "seqeval",
    ends="E** S** BB* BS* BO* IB* IS* IO* MB* MS* MO*",
    starts="*B* *S* EE* EI* SE* SI* OE* OI* EM* SM* OM*",
    change_letters="BIESULM",
)


@dataclass(frozen=True, eq=False)  # its fields are arrays: compared by identity
class Scheme:
    """A strict tagging scheme: allowed prefixes and start/inside/end rules."""

    name: str
    letters: str
    starts: np.ndarray = field(repr=False)
    inside: np.ndarray = field(repr=False)
    ends: np.ndarray = field(repr=False)
    read_as: str = ""
    """Prefix substitutions (``"US LE"``: U read as S, L as E) under which the
    default decoder repairs valid tags of this scheme into strict mode's chunks.
    seqeval's default mode knows no U-/L-, so BILOU needs them to tell which
    chunks the scheme rejects."""

    @cached_property
    def allowed(self) -> np.ndarray:
        """Bool mask over prefix codes: which prefixes the scheme admits."""
        return np.array([p in self.letters for p in PREFIXES])

    @cached_property
    def repair_prefix(self) -> np.ndarray:
        """Prefix code -> prefix code the default decoder should read it as (see ``read_as``)."""
        table = np.arange(len(PREFIXES))
        for pair in self.read_as.split():
            table[_CODE[pair[0]]] = _CODE[pair[1]]
        return table


def _scheme(name: str, letters: str, starts: str, inside: str, ends: str, read_as: str = "") -> Scheme:
    return Scheme(name, letters, _compile(starts), _compile(inside), _compile(ends), read_as)


# Strict tables reproduce seqeval 1.2.2's strict mode rule for rule, so that
# strict scores equal seqeval's (including its IOB1/IOE1 quirks).
SCHEMES: dict[str, Scheme] = {
    s.name: s
    for s in (
        _scheme("IO", "IO", starts="OI* II~", inside="II=", ends="IO* II~"),
        _scheme(
            "IOB1", "IOB",
            starts="OI* II~ BI* IB= BB=",
            inside="BI= II=",
            ends="II~ IO* IB* BO* BI~ BB=",
        ),
        _scheme(
            "IOB2", "IOB",
            starts="*B*",
            inside="BI= II=",
            ends="IO* II~ IB* BO* BI~ BB*",
        ),
        _scheme(
            "IOE1", "IOE",
            starts="OI* II~ EI* EE=",
            inside="II= IE=",
            ends="II~ IO* IE~ EI= EE=",
        ),
        _scheme(
            "IOE2", "IOE",
            starts="OI* OE* EI* EE* II~ IE~",
            inside="IE= II=",
            ends="E**",
        ),
        _scheme(
            "IOBES", "IOBES",
            starts="*B* *S*",
            inside="BI= BE= II= IE=",
            ends="S** E**",
        ),
        _scheme(
            "BILOU", "IOBLU",
            starts="*B* *U*",
            inside="BI= BL= II= IL=",
            ends="U** L**",
            read_as="US LE",
        ),
        _scheme(
            "BMES", "OBMES",
            starts="*B* *S*",
            inside="BM= BE= MM= ME=",
            ends="S** E**",
        ),
    )
}
ALIASES = {"BIO": "IOB2", "BIOES": "IOBES", "IOBES": "IOBES", "BILUO": "BILOU", "BMESO": "BMES", "BMEOS": "BMES"}


def get_scheme(name: str | Scheme) -> Scheme:
    """Return the strict scheme called ``name`` (case-insensitive; BIO, BIOES accepted).

    >>> get_scheme("bio").name
    'IOB2'
    """
    if isinstance(name, Scheme):
        return name
    # seqeval passes scheme classes; accept them by their class name.
    key = getattr(name, "__name__", name)
    if not isinstance(key, str):
        raise TypeError(f"scheme must be a name such as 'IOB2', got {quote(name)}")
    key = key.upper()
    key = ALIASES.get(key, key)
    if key not in SCHEMES:
        raise ValueError(
            f"unknown scheme {quote(name)}; choose one of {', '.join(SCHEMES)} "
            f"(aliases: {', '.join(ALIASES)})"
        )
    return SCHEMES[key]


# seqeval's auto-detection (strict mode without a scheme): the exact sets of reference
# prefixes, ``O`` included, that pick each scheme, tried in this order. Any other set is refused.
# BMES, which seqeval lacks, is detected from IOBES's sets that hold I, with M for it (a set
# without M, such as ``OBES``, is IOBES's, whose chunks are the same).
DETECTED = (
    ("IOB2", "IOB IB BO B"),
    ("IOE2", "IOE IE EO E"),
    ("IOBES", "IOBES IBES IOBE OBES IBE BES OBE BE S"),
    ("BILOU", "IOBLU IBLU IOBL OBLU IBL BLU OBL BL U"),
    ("BMES", "MOBES MBES MOBE MBE"),
)


def detect_scheme(prefixes: Iterable[int]) -> Scheme | None:
    """The scheme seqeval's auto-detection picks for the reference prefix codes present; None where it refuses.

    >>> detect_scheme([_CODE["B"], _CODE["I"], _CODE["O"]]).name
    'IOB2'
    >>> detect_scheme([_CODE["I"], _CODE["O"]]) is None  # seqeval detects no scheme from I and O alone
    True
    """
    letters = {PREFIXES[p] for p in prefixes}
    for name, sets in DETECTED:
        if any(letters == set(allowed) for allowed in sets.split()):
            return SCHEMES[name]
    return None
