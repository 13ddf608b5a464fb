"""Where a text's words are: the one rule for whether an offset falls inside a word.

A word is a run of letters, digits, ``_`` and combining marks. Letters of the
scripts written without spaces between words (Chinese, Japanese kana, Thai, Lao,
Khmer, Myanmar) are words of one letter each (with the marks that follow them):
nothing in the text says where their words end, and two entities that meet between
two of them cut no word. An offset before a combining mark is inside a word in
every script (it would cut a letter from its accent, or a Thai consonant from its
vowel sign).

Placing a language model's strings on the text (``answers/locate.py``: a string
occurs only where it neither starts nor ends inside a word) and the pipeline
reader's count of words split across entities (``formats/pipeline.py``) read words
by this rule.
"""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

UNSPACED = re.compile(
    "[\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
    "\U00020000-\U0003134f]"
)
"""Letters of scripts written without spaces between words: each is a word of its own."""


@lru_cache(maxsize=4096)
def is_mark(char: str) -> bool:
    """A combining mark (Unicode category M*): part of the letter before it."""
    return unicodedata.category(char)[0] == "M"


@lru_cache(maxsize=4096)
def joins(char: str) -> bool:
    """A character that makes a word with its neighbours of the same kind: a letter, digit, ``_`` or combining
    mark of a script written with spaces."""
    return (char.isalnum() or char == "_" or is_mark(char)) and not UNSPACED.match(char)


def inside_word(text: str, at: int) -> bool:
    """Whether offset ``at`` (between ``text[at - 1]`` and ``text[at]``) falls inside a word.

    >>> inside_word("Paris", 2), inside_word("北京", 1), inside_word("Paris, 1900", 5)
    (True, False, False)
    """
    return 0 < at < len(text) and (is_mark(text[at]) or (joins(text[at - 1]) and joins(text[at])))


def word_around(text: str, at: int) -> tuple[int, int]:
    """``(start, end)`` of the word an offset inside a word (:func:`inside_word`) falls in.

    >>> word_around("New Yorker", 6), word_around("我爱北京", 3)
    ((4, 10), (3, 4))
    """
    begin, end = at, min(at + 1, len(text))
    while begin > 0 and inside_word(text, begin):
        begin -= 1
    while end < len(text) and inside_word(text, end):
        end += 1
    return begin, end
