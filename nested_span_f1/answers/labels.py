"""Types a model writes otherwise than the gold: a label map, applied to the answers before both protocols.

A model asked for ``PER`` may answer ``person`` or ``Person``: the report lists the
answers' types the gold never uses, with their mentions ("labels not in the gold:
person 12, Person 3"), and a label map (``{"person": "PER", "Person": "PER"}``,
on the command line ``--label-map person=PER,Person=PER`` or a JSON file) renames
them before scoring, each renamed mention counted. Names are compared exactly:
``person`` and ``Person`` are two entries.
"""
from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ..core.wording import quote


def check_label_map(value: Mapping[str, str] | None) -> dict[str, str]:
    """A label map as a dict of strings (``{}`` for None).

    Raises:
        TypeError: a map that is not a mapping of strings to strings.
        ValueError: an empty name.
    """
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise TypeError(f"label_map must be a mapping of the answers' types to the gold's, got {type(value).__name__}")
    for key, target in value.items():
        if not isinstance(key, str) or not isinstance(target, str):
            raise TypeError(f"label_map: {quote(key)}: {quote(target)} is not a type name mapped to a type name (strings)")
        if not key.strip() or not target.strip():
            raise ValueError(f"label_map: {quote(key)}: {quote(target)} maps an empty type name")
    return dict(value)


def parse_label_map(text: str) -> dict[str, str]:
    """A label map as the command line takes it: ``person=PER,location=LOC``, or a JSON object's text.

    >>> parse_label_map("person=PER, Person=PER")
    {'person': 'PER', 'Person': 'PER'}

    Raises:
        ValueError: an entry without ``=``, a name given twice, JSON that is not an object of strings.
    """
    if text.lstrip().startswith("{"):
        try:
            value: Any = json.loads(text)
        except ValueError as error:
            raise ValueError(f"label map: not a JSON object ({error})") from None
        try:
            return check_label_map(value)
        except TypeError as error:
            raise ValueError(str(error)) from None
    out: dict[str, str] = {}
    for entry in text.split(","):
        name, equals, target = entry.partition("=")
        if not equals:
            raise ValueError(f"label map: {quote(entry.strip())} is not NAME=TYPE (entries are joined by commas)")
        name = name.strip()
        if name in out:
            raise ValueError(f"label map: {quote(name)} is mapped twice")
        out[name] = target.strip()
    return check_label_map(out)
