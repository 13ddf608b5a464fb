"""Tag strings -> (prefix, type): each distinct tag parsed once, malformed ones named with a reason."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .schemes import PREFIXES

EMPTY_TYPE = "_"
"""Type name of untyped chunks (bare ``B``/``I``) and of ``O``, as seqeval names it."""


@dataclass(frozen=True)
class ParsedTags:
    """Per-code prefix and type: ``prefix[code]``, ``type_id[code]`` index ``types``."""

    prefix: np.ndarray
    type_id: np.ndarray
    types: tuple[str, ...]


def parse_tags(tags: Sequence[str], suffix: bool = False) -> tuple[ParsedTags, dict[int, str]]:
    """Split each distinct tag into prefix and type.

    Returns the parsed table and ``{code: reason}`` for tags that are malformed:
    no prefix (``PER``), an empty type (``B-``), a prefix outside ``OBIESUL``
    (``b-PER``, ``X-PER``, ``-100``), or a typed ``O``. The caller turns a reason
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
    return ParsedTags(prefix, type_id, tuple(types)), problems


def _split(tag: str, suffix: bool) -> tuple[str, str, str]:
    if tag == "O":
        return "O", "", ""
    if not tag:
        return "", "", "an empty tag"
    letter, rest = (tag[-1], tag[:-1]) if suffix else (tag[0], tag[1:])
    if letter not in PREFIXES:
        form = "TYPE-B" if suffix else "B-TYPE"
        return "", "", f"no valid prefix: tags are O or {form} with a prefix among {', '.join(PREFIXES)}"
    if not rest:
        if letter == "O":
            return "O", "", ""
        return letter, "", ""
    sep, name = (rest[-1], rest[:-1]) if suffix else (rest[0], rest[1:])
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
