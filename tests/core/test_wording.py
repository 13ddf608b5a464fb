"""core/wording.quote: every message quotes a value one way, shortened where it is long, never inside a key."""
from __future__ import annotations

import doctest
import importlib
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from nested_span_f1.core.wording import QUOTE_LIMIT, quote


@pytest.mark.parametrize("module", ["core.wording", "formats.registry", "formats.corpus", "formats.pipeline"])
def test_the_examples_in_the_docstrings_hold(module):
    found = doctest.testmod(importlib.import_module(f"nested_span_f1.{module}"))
    assert found.attempted and not found.failed


def test_short_values_are_their_repr_and_long_ones_say_what_was_left_out():
    assert quote("Paris") == "'Paris'" and quote(None) == "None" and quote({"a": 1}) == "{'a': 1}"
    assert quote("x" * 1_000_000) == f"'{'x' * 52}...' (1,000,000 characters)"
    assert quote(b"\xff" * 100) == "b'\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\xff...' (100 bytes)"
    assert quote(list(range(1000))) == "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, ... 984 more]"
    assert quote({"text": None, "label": "PER"} | {f"k{i}": i for i in range(50)}, as_json=True) == (
        '{"text": null, "label": "PER", "k0": 0, "k1": 1, ... 48 more}')
    # an item that would not fit is counted among the rest, never cut to more than it was ('b...' (12 characters))
    assert quote({"entity_group": "PER", "score": 0.98, "word": "barack obama", "start": 0, "end": 12}) == (
        "{'entity_group': 'PER', 'score': 0.98, 'word': 'barack obama', ... 2 more}")
    assert quote({"0": {"entity_group": "PER", "score": 0.98, "word": "barack obama", "start": 0, "end": 12}}) == (
        "{'0': {'entity_group': 'PER', 'score': 0.98, ... 3 more}}")


@given(st.dictionaries(st.text(min_size=1, max_size=30), st.text(max_size=300), min_size=1, max_size=20))
def test_a_dict_is_cut_between_items_and_every_key_shown_whole(value):
    text = quote(value)
    if text == repr(value):
        return
    shown = re.findall(r"\.\.\. (\d+) more\}$", text)
    kept = len(value) - (int(shown[0]) if shown else 0)
    assert kept >= 1
    for key in list(value)[:kept]:
        assert f"{key!r}: " in text  # the first keys, each whole
    assert len(text) <= QUOTE_LIMIT + 40 + max(len(repr(key)) for key in value)
