"""Placing answers' strings on a text: crafted cases with hand-computed spans and categories, and properties."""
from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nested_span_f1.answers.locate import CATEGORIES, fold, locate, loose_occurrences, occurrences
from nested_span_f1.answers.parse import parse_answer


def placed(text, mentions, **options):
    p = locate(text, mentions, **options)
    return p.spans, p.categories


def test_repeated_strings_take_their_occurrences_in_reading_order():
    text = "Paris and Paris and Paris"
    assert placed(text, [("Paris", "LOC")] * 2) == ([(0, 5, "LOC"), (10, 15, "LOC")], ["exact", "exact"])
    spans, categories = placed(text, [("Paris", "LOC")] * 4)
    assert spans == [(0, 5, "LOC"), (10, 15, "LOC"), (20, 25, "LOC")]
    assert categories == ["exact", "exact", "exact", "excess"]
    # the k-th mention of a string, whatever its label, gets the k-th occurrence
    assert placed(text, [("Paris", "PER"), ("Paris", "LOC")])[0] == [(0, 5, "PER"), (10, 15, "LOC")]


def test_one_span_with_two_labels():
    # GENIA marks a few spans twice ("NF kappa B" as DNA and as protein): a mention beyond the occurrences shares
    # one with a mention of another label, never with one of its own
    text = "NF kappa B binds"
    assert placed(text, [("NF kappa B", "DNA"), ("NF kappa B", "protein")]) == (
        [(0, 10, "DNA"), (0, 10, "protein")], ["exact", "exact"])
    assert placed(text, [("NF kappa B", "DNA"), ("NF kappa B", "DNA"), ("NF kappa B", "protein")]) == (
        [(0, 10, "DNA"), (0, 10, "protein")], ["exact", "excess", "exact"])


def test_every_occurrence_policy():
    text = "Paris and Paris and Paris"
    spans, categories = placed(text, [("Paris", "LOC"), ("Paris", "LOC"), ("Paris", "PER")], policy="every")
    assert spans == [(0, 5, "LOC"), (10, 15, "LOC"), (20, 25, "LOC"), (0, 5, "PER"), (10, 15, "PER"), (20, 25, "PER")]
    assert categories == ["exact"] * 3


def test_a_string_inside_another_entity_string():
    text = "The New York Times reported from New York."
    mentions = [("New York Times", "ORG"), ("New York", "LOC")]
    # the occurrence inside the longer placed string counts last: the standalone one is taken
    assert placed(text, mentions)[0] == [(4, 18, "ORG"), (33, 41, "LOC")]
    # in the answer's order, or reversed: longer strings are placed first either way
    assert sorted(placed(text, mentions[::-1])[0]) == [(4, 18, "ORG"), (33, 41, "LOC")]
    # without inner_last the first occurrence is taken, inside the newspaper's name
    assert placed(text, mentions, inner_last=False)[0] == [(4, 18, "ORG"), (4, 12, "LOC")]
    # named twice, the string takes both occurrences: a nested entity, as GENIA annotates them
    assert placed(text, [*mentions, ("New York", "LOC")])[0] == [(4, 18, "ORG"), (4, 12, "LOC"), (33, 41, "LOC")]


def test_nested_entities_with_every_occurrence_named():
    text = "IL-2 gene expression needs IL-2"
    mentions = [("IL-2 gene", "DNA"), ("IL-2", "protein"), ("IL-2", "protein")]
    assert placed(text, mentions)[0] == [(0, 9, "DNA"), (0, 4, "protein"), (27, 31, "protein")]


def test_overlapping_occurrences():
    text = "aa aa aa"
    assert occurrences(text, "aa aa") == [(0, 5), (3, 8)]
    spans, categories = placed(text, [("aa aa", "X"), ("aa aa", "X"), ("aa aa", "X")])
    assert spans == [(0, 5, "X"), (3, 8, "X")] and categories == ["exact", "exact", "excess"]


def test_a_string_inside_a_word_does_not_occur():
    assert occurrences("Parisian Paris", "Paris") == [(9, 14)]
    assert occurrences("USA", "US") == []
    assert occurrences("banana", "ana") == []
    assert placed("the USA", [("US", "LOC")]) == ([], ["not_in_text"])
    # punctuation is no word: a name before a full stop or a possessive occurs
    assert occurrences("Obama's wife, Obama.", "Obama") == [(0, 5), (14, 19)]
    assert occurrences("(Obama)", "(Obama)") == [(0, 7)]


def test_strings_across_line_breaks():
    text = "He flew to New\nYork and\r\nSão  Paulo."
    # the string as written in the text is found exactly
    assert placed(text, [("New\nYork", "LOC")]) == ([(11, 19, "LOC")], ["exact"])
    # a space for the line break: found with whitespace normalised, unless the fallback is off
    assert placed(text, [("New York", "LOC"), ("são paulo", "LOC")]) == (
        [(11, 19, "LOC"), (25, 35, "LOC")], ["normalized", "normalized"])
    assert placed(text, [("New York", "LOC")], fallback=False) == ([], ["not_in_text"])
    # whitespace at a string's ends is not part of the name
    assert placed(text, [(" New York ", "LOC")]) == ([(11, 19, "LOC")], ["normalized"])


def test_unicode_combining_marks_emoji_and_cjk():
    decomposed = "Jose\u0301 met Zoe\u0308"  # José, Zoë with combining accents
    assert placed(decomposed, [("Jose\u0301", "PER"), ("Zoe\u0308", "PER")])[0] == [(0, 5, "PER"), (10, 14, "PER")]
    # a string that would cut a letter from its accent does not occur
    assert placed(decomposed, [("Jose", "PER")]) == ([], ["not_in_text"])
    # the composed form is another string exactly; the fallback composes both sides and places it on the text's own
    assert placed(decomposed, [("José", "PER")]) == ([(0, 5, "PER")], ["normalized"])
    assert placed(decomposed, [("José", "PER")], fallback=False) == ([], ["not_in_text"])
    emoji = "I ❤️ 🍕 in Napoli 🇮🇹!"
    assert placed(emoji, [("🍕", "FOOD"), ("Napoli", "LOC"), ("🇮🇹", "FLAG")])[0] == [
        (5, 6, "FOOD"), (10, 16, "LOC"), (17, 19, "FLAG")]
    cjk = "我爱北京天安门。北京很大"
    assert placed(cjk, [("北京", "LOC"), ("天安门", "LOC"), ("北京", "LOC")])[0] == [
        (2, 4, "LOC"), (4, 7, "LOC"), (8, 10, "LOC")]
    assert placed("東京タワーは東京にある", [("東京", "LOC")])[0] == [(0, 2, "LOC")]


def test_normalized_matches_take_what_exact_ones_left():
    text = "Paris, PARIS and paris"
    spans, categories = placed(text, [("Paris", "LOC"), ("paris", "LOC"), ("pARIS", "LOC")])
    # "Paris" and "paris" occur exactly; "pARIS" only with case ignored, where no exact mention went
    assert spans == [(0, 5, "LOC"), (17, 22, "LOC"), (7, 12, "LOC")]
    assert categories == ["exact", "exact", "normalized"]
    # every occurrence already taken: the case variant is excess, not fabricated
    assert placed("Paris", [("Paris", "LOC"), ("PARIS", "LOC")]) == ([(0, 5, "LOC")], ["exact", "excess"])


def test_not_in_the_text_and_empty_strings():
    spans, categories = placed("Obama visited Paris.", [("Rome", "LOC"), ("", "LOC"), ("   ", "PER"), ("Obama", "PER")])
    assert spans == [(0, 5, "PER")]
    assert categories == ["not_in_text", "not_in_text", "not_in_text", "exact"]


def test_empty_answer_places_nothing():
    answer = parse_answer("")
    assert placed("Obama visited Paris.", answer.mentions) == ([], [])


def test_prose_around_the_json():
    text = "Barack Obama visited Paris in 2009."
    answer = parse_answer('Sure! Here is the list:\n```json\n[{"text": "Barack Obama", "label": "PER"}, '
                          '{"text": "paris", "label": "LOC"}]\n```\nI hope this helps.')
    assert placed(text, answer.mentions) == ([(0, 12, "PER"), (21, 26, "LOC")], ["exact", "normalized"])


def test_inline_tags_place_mentions_where_the_tags_are():
    text = "Paris Hilton visited Paris."
    answer = parse_answer("<PER>Paris Hilton</PER> visited <LOC>Paris</LOC>.")
    assert placed(text, answer.mentions, plain=answer.plain) == (
        [(0, 12, "PER"), (21, 26, "LOC")], ["markup", "markup"])
    # a text the tags do not reproduce: the strings are located as any others
    changed = parse_answer("<PER>Paris Hilton</PER> went to <LOC>Paris</LOC>.")
    assert placed(text, changed.mentions, plain=changed.plain) == (
        [(0, 12, "PER"), (21, 26, "LOC")], ["exact", "exact"])


def test_unknown_policy():
    with pytest.raises(ValueError, match="policy must be one of kth, every, got 'first'"):
        locate("x", [], policy="first")


TEXT = st.text(alphabet=st.sampled_from("ab \n\u0301é北京🍕.-"), max_size=40)


@settings(max_examples=300, deadline=None)
@given(TEXT, st.lists(st.tuples(st.text(alphabet=st.sampled_from("ab \n\u0301é北京🍕.-"), max_size=6),
                                st.sampled_from("XY")), max_size=8),
       st.sampled_from(["kth", "every"]), st.booleans(), st.booleans())
def test_every_mention_lands_in_one_category_and_spans_hold_its_string(text, mentions, policy, fallback, inner_last):
    p = locate(text, mentions, policy=policy, fallback=fallback, inner_last=inner_last)
    assert len(p.categories) == len(mentions) and set(p.categories) <= set(CATEGORIES)
    for (string, _), category, place in zip(mentions, p.categories, p.places):
        if category == "exact":
            assert text[place[0]:place[1]] == string
        elif category == "normalized":
            assert fold(text[place[0]:place[1]]).split() == fold(string).split()
        elif category in ("not_in_text", "excess"):
            assert place is None
        if category == "not_in_text":
            assert not occurrences(text, string) or string != string.strip()
            assert not fallback or not loose_occurrences(text, string)
    if policy == "kth":
        placed_mentions = [(place, label) for (_, label), place in zip(mentions, p.places) if place is not None]
        assert Counter((s, e, label) for (s, e), label in placed_mentions) == Counter(p.spans)
        # one string never takes one occurrence twice with one label
        taken = Counter((string, label, place) for (string, label), place in zip(mentions, p.places) if place)
        assert max(taken.values(), default=1) == 1
    for start, end, _ in p.spans:
        assert 0 <= start < end <= len(text)
