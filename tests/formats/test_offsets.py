"""Offsets in UTF-16 code units and UTF-8 bytes read into code points (nested_span_f1.formats.offsets): every
offset between two characters maps back to its code point, as Python's own encoders count them, and nothing else
is read."""
from hypothesis import given
from hypothesis import strategies as st

from nested_span_f1.formats.offsets import Units, fitting_unit

ENCODINGS = {"utf16": ("utf-16-le", 2), "bytes": ("utf-8", 1)}
TEXTS = st.text(st.sampled_from(list("ab é中😀🇵🇹\n")), max_size=40)


def counted(text: str, offset: int, unit: str) -> int:
    """``offset`` (a code point) in ``unit``, as Python's encoder counts the text before it."""
    encoding, size = ENCODINGS[unit]
    return len(text[:offset].encode(encoding)) // size


@given(TEXTS, st.sampled_from(sorted(ENCODINGS)), st.data())
def test_every_offset_between_characters_reads_back_as_its_code_point(text, unit, data):
    units = Units(text, unit)
    assert units.length == counted(text, len(text), unit)
    offset = data.draw(st.integers(0, len(text)))
    assert units.fits(counted(text, offset, unit)) and units.point(counted(text, offset, unit), "t") == offset


@given(TEXTS, st.sampled_from(sorted(ENCODINGS)))
def test_an_offset_inside_a_character_never_fits(text, unit):
    units = Units(text, unit)
    between = {counted(text, k, unit) for k in range(len(text) + 1)}
    inside = [o for o in range(units.length + 2) if o not in between]
    assert not any(units.fits(o) for o in inside)


def test_the_unit_that_covers_every_claimed_text_is_found():
    text = "Loved the concert 🎶🎶 by Adele and Zoë"
    claims = [(((counted(text, 24, "utf16"), counted(text, 29, "utf16")),), "Adele")]
    assert fitting_unit([(text, claims)]) == "utf16"
    claims = [(((counted(text, 34, "bytes"), counted(text, 37, "bytes")),), "Zoë")]
    assert fitting_unit([(text, claims)]) == "bytes"
    assert fitting_unit([(text, [(((24, 29),), "Adele")])]) is None  # code points cover it: nothing to say
    assert fitting_unit([(text, [(((24, 29),), "Adèle")])]) is None  # no unit covers it
