"""The tag vocabulary read against the scheme tables: each distinct tag split into (prefix, type) once.

Malformed tags and, in strict mode, prefixes the scheme lacks are refused where
they first occur; the scheme strict mode decodes with is chosen here (passed, or
detected from the references as seqeval does).
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from ..core.wording import quote
from .encoding import EncodedPair
from .schemes import PREFIXES, SCHEMES, Scheme, detect_scheme, get_scheme

EMPTY_TYPE = "_"
"""Type name of untyped chunks (bare ``B``/``I``) and of ``O``, as seqeval names it."""


@dataclass(frozen=True)
class ParsedTags:
    """Per-code prefix and type: ``prefix[code]``, ``type_id[code]`` index ``types`` (sorted names)."""

    prefix: np.ndarray
    type_id: np.ndarray
    types: tuple[str, ...]


def parse_tags(tags: Sequence[str], suffix: bool = False) -> tuple[ParsedTags, dict[int, str]]:
    """Split each distinct tag into prefix and type.

    Returns the parsed table and ``{code: reason}`` for tags that are malformed:
    no prefix (``PER``), an empty type (``B-``), a prefix outside ``OBIESULM``
    (``b-PER``, ``X-PER``, ``-100``), a typed ``O``, or whitespace inside (``B-PER ``). The caller turns a reason
    into an error that names where the tag first occurs.
    """
    types: dict[str, int] = {EMPTY_TYPE: 0}
    prefix = np.zeros(len(tags), dtype=np.int64)
    type_id = np.zeros(len(tags), dtype=np.int64)
    problems: dict[int, str] = {}
    for code, tag in enumerate(tags):
        letter, name, problem = _split(tag, suffix)
        if problem:
            problems[code] = problem
            continue
        prefix[code] = PREFIXES.index(letter)
        type_id[code] = types.setdefault(name or EMPTY_TYPE, len(types))
    # type ids in the order of the names: the label order every matched side shares
    names = sorted(types)
    rank = np.array([names.index(name) for name in types], dtype=np.int64)
    return ParsedTags(prefix, rank[type_id], tuple(names)), problems


def _split(tag: str, suffix: bool) -> tuple[str, str, str]:
    if tag == "O":
        return "O", "", ""
    if not tag:
        return "", "", "an empty tag"
    if tag.endswith("\r"):
        return "", "", "a carriage return at its end (a Windows line end: convert the file, e.g. with dos2unix)"
    if any(character.isspace() for character in tag):
        # seqeval would make "PER " a type of its own; column files cannot even hold it
        return "", "", "whitespace inside the tag"
    letter, rest = (tag[-1], tag[:-1]) if suffix else (tag[0], tag[1:])
    sep, name = ((rest[-1], rest[:-1]) if suffix else (rest[0], rest[1:])) if rest else ("", "")
    if letter not in PREFIXES or sep.isalnum():  # "PER", and "MISC" or "LOC": a type without its prefix
        form = "TYPE-B" if suffix else "B-TYPE"
        return "", "", f"no valid prefix: tags are O or {form} with a prefix among {', '.join(PREFIXES)}"
    if not rest:
        return letter, "", ""
    if sep != "-":
        form = f"TYPE-{letter}" if suffix else f"{letter}-TYPE"
        return "", "", f"no valid prefix: expected {form}, O or a bare prefix"
    if not name:
        return "", "", "an empty type after the prefix"
    if name[0] == "-" or name[-1] == "-":
        return "", "", "a type that begins or ends with '-'"
    if letter == "O":
        return "", "", "O takes no type"
    return letter, name, ""


def read_vocabulary(
    pair: EncodedPair, *, suffix: bool = False, scheme: str | Scheme | None = None, strict: bool = False
) -> tuple[ParsedTags, Scheme | None]:
    """Parse the pair's tags and choose the scheme; return both.

    The scheme is None when none is known (not passed, and not strict mode). Passed in
    default mode, it is kept even when tags use prefixes it lacks: default mode
    decodes them as seqeval does, and the chunks holding them are counted as rejected,
    so the invalid-chunk counts of any two batches add up to those of their union.

    Raises:
        ValueError: a malformed tag, or in strict mode a prefix outside the scheme
            or no scheme to detect; the message names side, sentence and token.
    """
    parsed, problems = parse_tags(pair.tags, suffix)
    if not (problems or scheme is not None or strict):
        return parsed, None
    present = pair.present()
    if problems:
        used = np.array([code for code in problems if present[code]], dtype=np.int64)
        if len(used):
            pair.refuse(used, lambda code: f"tag {quote(pair.tags[code])}: malformed: {problems[code]}")
    chosen = get_scheme(scheme) if scheme is not None else None
    if not strict:
        # default mode decodes any prefix; a chunk holding one the scheme lacks is one it rejects
        return parsed, chosen
    if chosen is None:
        # seqeval detects the strict scheme from the prefixes of the references
        in_references = np.bincount(pair.references.codes, minlength=len(pair.tags)) > 0
        found = np.unique(parsed.prefix[in_references])
        chosen = _detected(found, "the reference prefixes")
    outside = np.flatnonzero(present & ~chosen.allowed[parsed.prefix])
    if len(outside):
        pair.refuse(outside, lambda code: f"tag {quote(pair.tags[code])}: {_outside(parsed, code, chosen)}")
    return parsed, chosen


def _outside(parsed: ParsedTags, code: int, scheme: Scheme) -> str:
    """Why a tag whose prefix the strict scheme lacks is refused, and the schemes that have it."""
    letter = PREFIXES[parsed.prefix[code]]
    holders = [name for name, other in SCHEMES.items() if letter in other.letters]
    return (f"prefix {letter} is not part of scheme {scheme.name} (allowed: {', '.join(scheme.letters)}; "
            f"{letter} is in {', '.join(holders)}); pick the scheme the tags use, or score in default mode")


def _detected(found: np.ndarray, what: str) -> Scheme:
    """The scheme seqeval detects from these prefix codes; ValueError (naming ``what``) where it detects none."""
    chosen = detect_scheme(found)
    if chosen is None:
        letters = ", ".join(PREFIXES[p] for p in found) or "none"
        raise ValueError(
            f"strict mode needs a scheme: {what} ({letters}) are none of the sets seqeval "
            "detects IOB2, IOE2, IOBES or BILOU from, or BMES from its M; pass the scheme the tags use (scheme= in Python, "
            "--scheme on the command line): IOB2, IOB1, IOE1, IOE2, IOBES, BILOU, BMES or IO")
    return chosen


def label_list_scheme(labels: Sequence[str], *, scheme: str | Scheme | None = None, strict: bool = False) -> Scheme | None:
    """Read a model's whole tag vocabulary once, before any evaluation: the scheme to decode every batch with.

    A label list holds every tag the model can output, so each must be well formed,
    and in strict mode allowed by the scheme; without a scheme, strict mode detects it
    from the label list's prefixes as seqeval does from the references' (never per
    batch: a batch whose references are all ``O`` shows no scheme).

    Raises:
        ValueError: a malformed tag, a tag outside the strict scheme, or no scheme to
            detect; the message names the tag and its label id.
    """
    parsed, problems = parse_tags(labels)
    if problems:
        code = min(problems)
        raise ValueError(f"label_list: label id {code}, tag {quote(labels[code])}: malformed: {problems[code]}")
    chosen = get_scheme(scheme) if scheme is not None else None
    if not strict:
        return chosen
    if chosen is None:
        chosen = _detected(np.unique(parsed.prefix), "the label_list prefixes")
    outside = np.flatnonzero(~chosen.allowed[parsed.prefix])
    if len(outside):
        code = int(outside[0])
        raise ValueError(f"label_list: label id {code}, tag {quote(labels[code])}: {_outside(parsed, code, chosen)}")
    return chosen


def reference_prefixes(tags: Iterable[str], suffix: bool = False) -> np.ndarray:
    """The prefix codes of a corpus's distinct well-formed reference tags, from which strict mode detects its
    scheme (malformed tags left out: the scoring names them).

    What :func:`read_vocabulary` reads for one call, for a corpus read in parts (record
    batches, partitions) that must all decode with the scheme of the whole: the tags
    are gathered first, then :func:`scheme_from_prefixes` decides.
    """
    parsed, malformed = parse_tags(sorted(set(tags)), suffix)
    return np.unique([p for code, p in enumerate(parsed.prefix.tolist()) if code not in malformed]).astype(np.int64)


def scheme_from_prefixes(found: np.ndarray) -> Scheme:
    """The scheme strict mode detects from the references' prefix codes, or the ValueError one call raises."""
    return _detected(found, "the reference prefixes")
