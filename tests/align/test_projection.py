"""Tokens and characters: locating tokens, projecting spans both ways, categories and snapping (spaCy's modes)."""
from __future__ import annotations

import functools
import warnings

import pytest
from hypothesis import given
from hypothesis import strategies as st

from nested_span_f1 import Corpus
from nested_span_f1.align import locate_tokens, score_text, to_characters, trim_entities
from nested_span_f1.align.project import CATEGORIES, Grid
from nested_span_f1.core.matching import DuplicateSpanWarning

# letters with combining marks, emoji (one with a zero-width joiner), CJK written without spaces, digits, punctuation
PIECES = ["a", "Z", "é", "e\u0301", "ü", "😀", "👩\u200d💻", "東", "京", "語", "ß", "7", "-", ".", "'", "İ"]
SEPARATORS = ["", " ", "\t", "\n", "  ", " \n\t"]
token_text = st.lists(st.sampled_from(PIECES), min_size=1, max_size=4).map("".join)


@st.composite
def texts(draw, max_tokens=8):
    """Tokens and a text that holds them, separated by any whitespace, or none (as CJK is written)."""
    tokens = draw(st.lists(token_text, min_size=1, max_size=max_tokens))
    separators = draw(st.lists(st.sampled_from(SEPARATORS), min_size=len(tokens) + 1, max_size=len(tokens) + 1))
    text = separators[0] + "".join(t + s for t, s in zip(tokens, separators[1:]))
    return tokens, text


@st.composite
def token_spans(draw, n):
    starts = draw(st.lists(st.integers(0, n - 1), max_size=6))
    return [(s, draw(st.integers(s + 1, n)), draw(st.sampled_from(["PER", "LOC"]))) for s in starts]


@given(data=st.data())
def test_tokens_to_characters_and_back_is_the_identity(data):
    tokens, text = data.draw(texts())
    offsets = locate_tokens(tokens, text)
    assert [text[a:b] for a, b in offsets] == tokens
    spans = data.draw(token_spans(len(tokens)))
    characters = to_characters(spans, offsets)
    grid = Grid(offsets)
    for span, character in zip(spans, characters):
        for snap in (None, "expand", "contract"):
            placed = grid.place(character, snap)
            assert (placed.category, placed.moved, placed.tokens, placed.entity) == ("aligned", False, span, character)


@st.composite
def documents(draw):
    """A token gold and character predictions over the same texts: any spans, whitespace edges included."""
    sentences = draw(st.lists(texts(6), min_size=1, max_size=4))
    gold, predicted = [], []
    for tokens, text in sentences:
        gold.append(draw(token_spans(len(tokens))))
        predicted.append([(a, draw(st.integers(a + 1, len(text))), draw(st.sampled_from(["PER", "LOC"])))
                          for a in draw(st.lists(st.integers(0, len(text) - 1), max_size=6)) if len(text)])
    tokens = [t for t, _ in sentences]
    return (Corpus(tokens, gold, [str(i) for i in range(len(tokens))]),
            Corpus([text for _, text in sentences], predicted, [str(i) for i in range(len(tokens))], unit="characters"))


@given(pair=documents(), snap=st.sampled_from([None, "expand", "contract"]), trim=st.booleans(),
       reverse=st.booleans())
def test_every_span_falls_in_exactly_one_category_and_the_counts_add_up(pair, snap, trim, reverse):
    gold, predicted = pair
    if reverse:
        # token predictions against character gold: the gold side is placed against the predicted tokens
        gold, predicted = predicted, gold
    with warnings.catch_warnings():
        # random spans repeat, and snapping makes more repeats: counted in the result, warned about elsewhere
        warnings.simplefilter("ignore", DuplicateSpanWarning)
        result = score_text(predicted, gold, metric="nested", snap=snap, trim=trim, zero_division=0)
    alignment = result["alignment"]
    characters = "references" if reverse else "predictions"
    assert alignment["projected"] == characters
    for side, corpus in (("predictions", predicted), ("references", gold)):
        counts = alignment[side]
        assert counts["total"] == sum(map(len, corpus.entities))
        assert sum(v for k, v in counts.items() if k != "total") == counts["total"]
        assert counts["matched"] == result["tp"]
        if side != characters:
            assert all(counts[c] == 0 for c in CATEGORIES[1:])
    assert alignment["predictions"]["matched"] + alignment["predictions"]["spurious"] <= result["tp"] + result["fp"]
    if snap is None:
        assert alignment[f"snapped_{characters}"] == 0
    else:
        assert alignment[characters]["boundary_inside_token"] == alignment[characters]["boundary_between_tokens"] == 0


@functools.cache
def _vocab():
    return pytest.importorskip("spacy").blank("en").vocab


@given(data=st.data())
def test_snapping_equals_spacy_char_span_alignment_modes(data):
    from spacy.tokens import Doc

    words = data.draw(st.lists(st.sampled_from(["ab", "c", "東京", "😀", "e\u0301t", "-", "xyz"]), min_size=1, max_size=6))
    spaces = data.draw(st.lists(st.booleans(), min_size=len(words), max_size=len(words)))
    doc = Doc(_vocab(), words=words, spaces=spaces)
    grid = Grid(locate_tokens(words, doc.text))
    n = len(doc.text)
    start = data.draw(st.integers(0, n - 1))
    end = data.draw(st.integers(start + 1, n))
    for mode, snap in (("strict", None), ("expand", "expand"), ("contract", "contract")):
        span = doc.char_span(start, end, alignment_mode=mode)
        # spaCy gives an empty span for whitespace only in expand mode: no token, as here
        theirs = None if span is None or len(span) == 0 else (span.start, span.end)
        _, ours, moved = grid.place_piece(start, end, snap)
        assert ours == theirs, (doc.text, start, end, mode)
        assert moved == (snap is not None and ours is not None and doc.char_span(start, end) is None)


@pytest.mark.parametrize(("span", "category", "expand", "contract"), [
    ((0, 5, "X"), "aligned", (0, 5), (0, 5)),          # "Peter"
    ((0, 3, "X"), "boundary_inside_token", (0, 5), None),  # "Pet"
    ((1, 15, "X"), "boundary_inside_token", (0, 15), (6, 15)),  # "eter Blackburn"
    ((5, 15, "X"), "boundary_between_tokens", (6, 15), (6, 15)),  # " Blackburn"
    ((5, 6, "X"), "boundary_between_tokens", None, None),  # " "
])
def test_categories_and_snapping_by_hand(span, category, expand, contract):
    text = "Peter Blackburn visited"
    grid = Grid(locate_tokens(text.split(), text))
    assert grid.place(span, None).category == category
    for snap, expected in (("expand", expand), ("contract", contract)):
        placed = grid.place(span, snap)
        if expected is None:
            assert placed.category == "no_token" and placed.entity == span
        else:
            assert placed.category == "aligned" and placed.entity[:2] == expected
            assert placed.moved == (expected != span[:2])


def test_discontinuous_entities_are_placed_fragment_by_fragment():
    text = "left and right breast"
    grid = Grid(locate_tokens(text.split(), text))
    assert grid.place((((0, 4), (15, 21)), "B"), None).tokens == (((0, 1), (3, 4)), "B")
    assert grid.place((((0, 3), (15, 21)), "B"), None).category == "boundary_inside_token"
    # expanded fragments that meet become one span
    assert grid.place((((0, 6), (7, 21)), "B"), "expand").tokens == (0, 4, "B")


def test_tokens_that_do_not_spell_the_text_are_named():
    with pytest.raises(ValueError, match=r"doc 3: token 1 \('York'\) is not found at character 4"):
        locate_tokens(["New", "York"], "New Yrok", "doc 3")
    with pytest.raises(ValueError, match="goes on after the last token at character 3"):
        locate_tokens(["New"], "New York")
    with pytest.raises(ValueError, match=r"token 0 \(''\)"):
        locate_tokens([""], "x")


def test_trim_counts_the_spans_it_changes():
    spans, changed = trim_entities(" Paris \t", [(0, 7, "LOC"), (1, 6, "LOC"), (6, 8, "O"), (((0, 3), (4, 7)), "L")])
    assert spans == [(1, 6, "LOC"), (1, 6, "LOC"), (6, 8, "O"), (((1, 3), (4, 6)), "L")] and changed == 2


def test_report_examples_and_the_reverse_direction():
    gold = Corpus(["Peter Blackburn visited Paris"], [[(0, 15, "PER"), (24, 29, "LOC")]], ["d"], unit="characters")
    tokens = Corpus([["Peter", "Blackburn", "visited", "Paris"]], [[(0, 2, "PER"), (3, 4, "LOC")]], ["d"])
    assert score_text(tokens, gold, metric="exact")["overall_f1"] == 1.0
    # a gold span a tokenizer cannot produce: counted on the gold side, kept, missed
    odd = Corpus(gold.texts, [[(0, 15, "PER"), (24, 27, "LOC")]], ["d"], unit="characters")
    result = score_text(tokens, odd, metric="exact", zero_division=0)
    assert result["alignment"]["references"] == {"matched": 1, "missed": 0, "duplicate": 0, "boundary_inside_token": 1,
                                                 "boundary_between_tokens": 0, "no_token": 0, "total": 2}
    assert result["alignment"]["examples"] == [{"side": "references", "id": "d", "document": 0, "prediction_id": "d",
                                                "prediction": 0, "paired_by": "id",
                                                "category": "boundary_inside_token", "span": [24, 27, "LOC"],
                                                "text": "Par", "context": "r Blackburn visited Paris"}]
    assert (result["tp"], result["fp"], result["fn"]) == (1, 1, 1)
    snapped = score_text(tokens, odd, metric="exact", snap="expand")
    assert snapped["overall_f1"] == 1.0 and snapped["alignment"]["snapped_references"] == 1
    with pytest.raises(ValueError, match="both sides are texts"):
        score_text(gold, gold, snap="expand")
    with pytest.raises(ValueError, match="snap must be None"):
        score_text(tokens, gold, snap="strict")
