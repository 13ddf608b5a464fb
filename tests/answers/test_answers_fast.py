"""The fast paths of reading answers give what the plain readers give (the table of
docs/DESIGN.md, 'A fast path is held to a plain one'): the line reader's (``lines.simple_lines``, for the commonest
answers) on answers drawn from the lines models write, tricky strings and types included, the whole parse with it
equal to the parse without it, and it does read the answers it is for; the first JSON value after prose
(``values._first_json``) is what the scan of every bracketed value finds first."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nested_span_f1.answers import lines
from nested_span_f1.answers.parse import parse_answer

STRINGS = ["Peter Blackburn", "land-use intensification", "1990", "None", "no", "Answer", "Note", "final answer",
           "**bold**", "`code`", "*it*", "a, b", "x: y", "(x)", "O", "none", "PER", "per", "N/A", "1. item", "- item",
           "a - b", "Paris  Rome", "there are no entities", "“quoted”", "| cell |", "Here", "the rest", "x" * 45,
           " ".join(["w"] * 21), "Ja\rpan", "Ja\u2028pan", "Ja\x0cpan", "Ja\xa0pan", "-", "-\nx", "\tx",
           # whitespace the plain reader strips or splits words at, and the fast path once kept or did not count
           "Japan\xa0", "Japan\u2003", "\t".join(["w"] * 21), "\xa0".join(["w"] * 21),
           # Chinese typography: full-width separators inside strings, and none said in Chinese
           "周杰伦", "中国（北京）", "周杰伦、林俊杰", "台湾，北京", "无", "没有实体", "无。", "Paris：x"]
TYPES = ["PER", "LOC", "person", "O", "none", "no entity, as it is a method", "not an entity", "B-PER", "n/a",
         "Cell Line", "two words", "CLIMATE-GREENHOUSE-GASES", "NONE", "null", "x" * 45, "人名", "无", "不是实体"]
TEMPLATES = ["{s} ({t})", "{s} ({t}).", "- {s} ({t})", "1. **{s}** ({t})", "* `{s}` ({t})", "2) {s} ({t})",
             "({s}, {t})", '("{s}", "{t}")', "{s}: {t}", "{t}: {s}, {s}", "{t}: {s}; {s}", "{t}: {s}", "{s} - {t}",
             "{s} -- {t}", "{s} – {t}", "Here is the answer:", "Answer:", "Final answer:", "Note: {s}",
             "However, the corrected answer would be:", "I hope this helps!", "", "None", "{s}", "| {s} | {t} |",
             "{s}（{t}）", "{s}：{t}", "{t}：{s}，{s}", "{t}: {s}、{s}", "（{s}，{t}）", "{s} ({t})、{s} ({t})",
             "| 实体 | 类型 |", "答案：", "以下是实体：", "无", "没有实体。"]


@st.composite
def answers(draw):
    rows = draw(st.lists(st.tuples(st.sampled_from(TEMPLATES), st.sampled_from(STRINGS), st.sampled_from(STRINGS),
                                   st.sampled_from(TYPES)), min_size=1, max_size=6))
    text = "\n".join(t.format(s=s, t=kind).replace("{s}", other) for t, s, other, kind in rows)
    text = text.replace(", {s}", f", {rows[0][2]}")
    return text + draw(st.sampled_from(["", "\n", "  \n\n"])), draw(st.sets(st.sampled_from([*TYPES, "per", "loc"])))


SIMPLE_TEMPLATES = ["{s} ({t})", "- {s} ({t})", "1. **{s}** ({t})", "({s}, {t})", "{s}: {t}", "{t}: {s}, {s}",
                    "{s} - {t}", "{t}: {s}、{s}", "{s}（{t}）"]
PLAIN_STRINGS = ["Peter Blackburn", "land-use intensification", "Paris", "UN", "1990 World Cup", "Obama",
                 "Japan\xa0", "\t".join(["w"] * 21)]


@st.composite
def near_simple(draw):
    """Answers of one plain line shape, most of which the fast path reads: plain strings and the gold's types,
    with now and then a tricky string or type, a lead-in, a declined line or a line of prose."""
    template = draw(st.sampled_from(SIMPLE_TEMPLATES))
    pieces = st.tuples(st.sampled_from(PLAIN_STRINGS) | st.sampled_from(STRINGS),
                       st.sampled_from(["PER", "LOC", "MISC"]) | st.sampled_from(TYPES))
    rows = [template.format(s=s, t=t) for s, t in draw(st.lists(pieces, min_size=1, max_size=5))]
    extra = draw(st.sampled_from(["", "Here is the answer:", "x (no entity, a word)", "Note: x", "None"]))
    where = draw(st.integers(0, len(rows)))
    rows.insert(where, extra)
    return "\n".join(rows), draw(st.sets(st.sampled_from(["PER", "LOC", "MISC", "per", "person"])))


def plain(text, labels):
    """The parse with the fast path off."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("nested_span_f1.answers.parse.simple_lines", lambda *args: None)
        return parse_answer(text, labels=labels)


@settings(max_examples=800, deadline=None)
@given(answers() | near_simple())
def test_the_fast_path_gives_what_the_plain_reader_gives(drawn):
    text, labels = drawn
    fast = lines.simple_lines(text, labels)
    if fast is not None:
        assert fast == lines.read_lines(text, labels)
    assert parse_answer(text, labels=labels) == plain(text, labels)


@pytest.mark.parametrize("text, labels, shape", [
    ("Here is the answer:\n\nmetabolic (QUALITY)\nfood-web (QUALITY)\necosystem (ENVIRONMENT)", (), "parentheses"),
    ("Answer:\n- **metabolic** (QUALITY)  \n- food-web (QUALITY)\n- rates (no entity, a measure)", (), "parentheses"),
    ("(Peter Blackburn, PER)\n(Paris, LOC)", (), "tuples"),
    ("Peter Blackburn: PER\nParis: LOC", {"PER", "LOC"}, "colon"),
    ("PER: Peter Blackburn, Ann\nLOC: Paris", {"PER", "LOC"}, "type_lines"),
    ("Peter Blackburn - PER\nParis - LOC", (), "dash"),
])
def test_the_fast_path_reads_the_answers_it_is_for(text, labels, shape):
    fast = lines.simple_lines(text, labels)
    assert fast is not None and fast.shape == shape
    assert fast == lines.read_lines(text, labels) == parse_answer(text, labels=labels)


@pytest.mark.parametrize("text", [
    "Paris (LOC)\nHowever, the corrected answer would be:\nRome (LOC)",  # a correction: the plain reader
    "Paris (LOC)\nNote: Paris is a city.",  # prose after the list
    "Paris: LOC",  # string: TYPE without the gold's types: the plain reader decides
    "PER: Ann, Bob\nLOC: None",  # a type said to have none
])
def test_the_fast_path_leaves_the_rest_to_the_plain_reader(text):
    assert lines.simple_lines(text) is None


VALUES = ['[["Paris", "LOC"]]', "[('Paris', 'LOC')]", '{"LOC": ["Paris"]}', "[]", "[1]", '["Paris"]', '[["Paris", ""]]',
          '{"text": "Paris", "label": "LOC"}', "[x]", '["a", "b"', '[{"text": "Rome", "type": "LOC"}, 3]', "{",
          '"[not a value]"', '[["a]b", "X"]]']
PROSE_BITS = ["Here are the entities: ", "Sure! ", "(see [1]) ", " Let me know.", "\n```json\n", "\n```\n", ". ", ""]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(VALUES) | st.sampled_from(PROSE_BITS), min_size=1, max_size=5),
       st.sampled_from([None, "LOC"]))
def test_the_first_json_value_is_what_the_scan_finds_first(pieces, label):
    text = "".join(pieces)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("nested_span_f1.answers.values._first_json", lambda *args: None)
        scanned = parse_answer(text, label)
    assert parse_answer(text, label) == scanned
