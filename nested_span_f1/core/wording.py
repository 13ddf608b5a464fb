"""How messages and reports count things: a number and its noun, agreeing.

Every door words its counts the same way ("1 sentence", "2 sentences",
"1,100 resamples"), so a message read against another never differs in form.
"""
from __future__ import annotations


def plural(n: int, word: str, many: str | None = None) -> str:
    """``n`` and ``word``, the noun in the plural (``many``, else ``word + "s"``) unless ``n`` is 1.

    >>> plural(1, "sentence"), plural(2, "predicted sentence"), plural(1100, "resample")
    ('1 sentence', '2 predicted sentences', '1,100 resamples')
    """
    return f"{n:,} {word if n == 1 else many or word + 's'}"


def misaligned(predicted: int, reference: int) -> str:
    """The message for sides of different numbers of sentences, the same at every door."""
    return (f"{plural(predicted, 'predicted sentence')} but {plural(reference, 'reference sentence')}; "
            "they must align sentence by sentence")
