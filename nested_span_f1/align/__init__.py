"""Score what models output: character spans against character or token gold, every alignment decision counted.

``project`` moves spans between tokens and characters (and says where a
character span falls against tokens), ``trim`` takes whitespace off span edges,
``score`` pairs documents and hands both sides, in characters, to the flat,
lenient or nested metric.
"""
from .project import CATEGORIES, join_tokens, locate_tokens, to_characters
from .score import METRICS, TextPair, pair_texts, score_pair, score_text
from .trim import trim_entities

__all__ = ["CATEGORIES", "METRICS", "TextPair", "join_tokens", "locate_tokens", "pair_texts", "score_pair",
           "score_text", "to_characters", "trim_entities"]
