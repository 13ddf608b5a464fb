"""Tag strings and label ids -> integer codes, with validation that points at the bad token.

Every distinct tag string is parsed once into ``(prefix code, type id)``; the corpus
itself is only ever handled as an int array of tag codes. Code 0 is always ``O``.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import chain, compress
from typing import Any

import numpy as np

from .schemes import OUTSIDE, PREFIXES

EMPTY_TYPE = "_"
"""Type name of untyped chunks (bare ``B``/``I``) and of ``O``, as seqeval names it."""
IGNORE_INDEX = -100
"""Label id that marks positions to ignore (special tokens, non-first sub-tokens)."""


class TagTypeError(TypeError, ValueError):
    """A tag that is not a string (None, an integer id without ``label_list``).

    A TypeError by nature, and a ValueError too, so that ``except ValueError``
    catches every kind of bad label, as evaluate-seqeval users expect.
    """


def _where(sentence: int, position: int) -> str:
    return f"sentence {sentence}, token {position}"


class _Vocab(dict):
    """tag -> code, assigning the next code to each new tag on first lookup."""

    def __missing__(self, tag: Any) -> int:
        code = self[tag] = len(self)
        return code


@dataclass(frozen=True)
class Encoded:
    """A tokenised corpus side as integer tag codes.

    ``codes`` holds one code per token, sentences concatenated; ``lengths`` the
    number of tokens in each sentence (one byte a length while they fit, int64
    otherwise); ``tags`` the tag string of each code.
    """

    codes: np.ndarray
    lengths: np.ndarray
    tags: tuple[str, ...]
    complete: bool = False
    """True when every tag of ``tags`` but ``O`` occurs in this side or the other one
    (string input); label ids may leave entries of the label list unused."""

    @property
    def offsets(self) -> np.ndarray:
        """Start of each sentence in ``codes`` (length n_sentences + 1)."""
        out = np.zeros(len(self.lengths) + 1, dtype=np.int64)
        np.cumsum(self.lengths, out=out[1:])
        return out

    def locate(self, flat_index: int) -> tuple[int, int]:
        """(sentence, position) of a token given its index in ``codes``."""
        offsets = self.offsets
        sentence = int(np.searchsorted(offsets, flat_index, side="right") - 1)
        return sentence, int(flat_index - offsets[sentence])


_CHUNK = 4096
"""Sentences measured at a time: a chunk's list objects are still in cache when the second look at them comes."""


def _lengths(side: str, sentences: Any) -> np.ndarray:
    """The length of every sentence; a sentence that is a string, or has no length, is a TypeError.

    Lists of lists, the usual input, are recognised by their types and measured
    by ``len``, a chunk of sentences at a time: two quick looks at a chunk cost
    less than one pass calling ``list.__len__`` (a slot wrapper, about twice the
    cost of ``len``), and far less than two passes over a corpus too large for
    the cache. Anything else is checked one sentence at a time, and a list
    subclass is measured by its items, which is what iterating it yields.
    """
    if isinstance(sentences, (str, bytes)) or not hasattr(sentences, "__len__"):
        raise TypeError(f"{side} must be a list of sentences (lists of tags), got {type(sentences).__name__}")
    lengths = _list_lengths(sentences)
    if lengths is not None:
        return lengths
    n = len(sentences)
    for index, sentence in enumerate(sentences):
        if isinstance(sentence, (str, bytes)) or not hasattr(sentence, "__len__"):
            raise TypeError(f"{side}, sentence {index}: expected a list of tags, got {type(sentence).__name__} {sentence!r}")
    return np.fromiter((list.__len__(s) if isinstance(s, list) else len(s) for s in sentences), dtype=np.int64, count=n)


def _list_lengths(sentences: Any) -> np.ndarray | None:
    """Sentence lengths when ``sentences`` is a list or tuple of lists (the usual input); None otherwise."""
    if type(sentences) not in (list, tuple):
        return None
    n = len(sentences)
    # an eval-sized corpus is one chunk, measured where it lies (a slice would copy it)
    chunks = (sentences,) if n <= _CHUNK else (sentences[start : start + _CHUNK] for start in range(0, n, _CHUNK))
    parts = []
    for chunk in chunks:
        if list(map(type, chunk)).count(list) != len(chunk):
            return None
        parts.append(_measure(chunk))
    return parts[0] if len(parts) == 1 else np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)


def _total(lengths: np.ndarray) -> int:
    """The number of tokens, as an int64 reduction: a sum of byte lengths would be a uint64, and a
    first reduction of its kind costs a numpy cold start."""
    return int(np.add.reduce(lengths, dtype=np.int64))


def _same_lengths(a: np.ndarray, b: np.ndarray) -> bool:
    """Equal sentence lengths, by one memcmp: the usual case, and cheaper than numpy's first
    comparison in a process."""
    return a.dtype == b.dtype and a.tobytes() == b.tobytes()


def _measure(chunk: list[list[Any]]) -> np.ndarray:
    """``len`` of each list, one byte a length while every sentence has fewer than 256 tokens.

    A bytearray fills faster than ``np.fromiter`` (62 against 88 us for 3.5k sentences)
    and is an eighth of the fresh memory.
    """
    try:
        return np.frombuffer(bytearray(map(len, chunk)), dtype=np.uint8)
    except ValueError:  # a sentence of 256 tokens or more
        return np.fromiter(map(len, chunk), dtype=np.int64, count=len(chunk))


def _codes(sentences: Sequence[Sequence[str]], vocab: _Vocab) -> np.ndarray:
    """Every tag's code, one byte a code while the vocabulary allows it.

    Filling a bytearray is the fastest way from Python objects to an array, and
    fresh memory is a large part of the cost here. A vocabulary that outgrows a
    byte is encoded again, wider.
    """
    try:
        return np.frombuffer(bytearray(map(vocab.__getitem__, chain.from_iterable(sentences))), dtype=np.uint8)
    except ValueError:  # a code past 255
        return np.fromiter(map(vocab.__getitem__, chain.from_iterable(sentences)), dtype=np.int64)


def encode_tags(
    sentences: Sequence[Sequence[str]], vocab: _Vocab, side: str
) -> tuple[np.ndarray, np.ndarray]:
    """Map every tag of ``sentences`` to its code in ``vocab`` (adding new tags).

    Returns the codes of all tokens, concatenated, and the length of each sentence.
    """
    # codes first, while the heap is untouched: the bytearray then grows with far fewer
    # page faults (first call at 35k sentences: 532 against 1835 minor faults, 37.7 ms
    # against 41.3 ms with the lengths measured first)
    try:
        codes = _codes(sentences, vocab)
    except TypeError:
        _lengths(side, sentences)  # a sentence that is not a list of tags
        for s, sentence in enumerate(sentences):
            for p, tag in enumerate(sentence):
                if not isinstance(tag, str):
                    raise TagTypeError(f"{side}, {_where(s, p)}: tag {tag!r} is not a string") from None
        raise
    lengths = _lengths(side, sentences)
    total = _total(lengths)
    if len(codes) != total:
        raise ValueError(f"{side}: the sentences hold {len(codes)} tags when iterated but {total} by len()")
    return codes, lengths


SIDES = ("predictions", "references")
"""How errors name the two sides of a pair."""


@dataclass(frozen=True)
class Agreement:
    """Both sides, split by agreement: the sentences the predictions got wrong, on each side,
    and the ones they got exactly right, once (they are the same on both sides).

    Scoring needs no more; the sides whole, in corpus order, are assembled on first use
    of :attr:`pair` (spans of each side, and the place of a bad tag in an error message).
    """

    predictions: Encoded
    """The predicted sentences that differ from their reference."""
    references: Encoded
    """Their references."""
    agreed: Encoded
    """The sentences predicted exactly right."""
    differ: np.ndarray
    """Bool per sentence of the corpus: whether the prediction differs from the reference."""

    @property
    def tags(self) -> tuple[str, ...]:
        return self.agreed.tags

    def sides(self) -> tuple[Encoded, Encoded, Encoded]:
        return self.predictions, self.references, self.agreed

    @cached_property
    def pair(self) -> tuple[Encoded, Encoded]:
        """(predictions, references), each whole and in corpus order."""
        differ, wrong, right = self.differ, self.references, self.agreed
        lengths = np.zeros(len(differ), dtype=np.result_type(wrong.lengths, right.lengths))
        lengths[differ] = wrong.lengths
        lengths[~differ] = right.lengths
        tokens = np.repeat(differ, lengths)
        ref = np.zeros(len(tokens), dtype=np.result_type(self.predictions.codes, wrong.codes, right.codes))
        ref[tokens] = wrong.codes
        ref[~tokens] = right.codes
        pred = ref.copy()
        pred[tokens] = self.predictions.codes
        return Encoded(pred, lengths, self.tags, True), Encoded(ref, lengths, self.tags, True)


_FLIP = bytes([1, 0]) + bytes(254)
"""``bytes.translate`` table that turns 0/1 bytes into 1/0."""


def encode_pair(
    predictions: Sequence[Sequence[str]], references: Sequence[Sequence[str]], names: tuple[str, str] = SIDES
) -> tuple[Encoded, Encoded] | Agreement:
    """Encode both sides with one shared vocabulary and check they align.

    ``names``: what error messages call the two sides. Returns the two sides, or, where
    that is cheaper, an :class:`Agreement` (its ``pair`` is the two sides; :func:`whole`
    gives them either way). Comparing a predicted sentence with its reference (two lists
    of strings: one C loop, identity first, then the bytes) costs a fraction of looking
    its tags up, and most sentences of a useful model's output are right (88% of the
    CoNLL-2003 test sentences in the Flair output): those are looked up once, as the
    reference's. Anything but two aligned lists of lists is encoded side by side, and its
    errors are reported from there.

    Raises:
        ValueError: different numbers of sentences, or a sentence whose lengths differ.
        TypeError: a sentence that is not a list, or a tag that is not a string.
    """
    if _is_arrow(predictions) and _is_arrow(references):
        arrow = _encode_arrow_tags(predictions, references)
        if arrow is not None:
            return arrow
    vocab = _Vocab(O=OUTSIDE)
    split = _encode_parts(predictions, references, vocab)
    if split is not None:
        parts, differs = split
        tags = tuple(vocab)
        wrong, referenced, right = (Encoded(codes, lengths, tags, True) for codes, lengths in parts)
        agreement = Agreement(wrong, referenced, right, np.frombuffer(differs, dtype=bool))
        if not all(isinstance(tag, str) for tag in tags):
            _refuse_non_strings(*agreement.pair, names)
        return agreement
    vocab = _Vocab(O=OUTSIDE)
    pred_codes, pred_lengths = encode_tags(predictions, vocab, names[0])
    ref_codes, ref_lengths = encode_tags(references, vocab, names[1])
    check_aligned(pred_lengths, ref_lengths)
    tags = tuple(vocab)
    pair = Encoded(pred_codes, pred_lengths, tags, True), Encoded(ref_codes, ref_lengths, tags, True)
    _refuse_non_strings(*pair, names)
    return pair


def whole(encoded: tuple[Encoded, Encoded] | Agreement) -> tuple[Encoded, Encoded]:
    """(predictions, references), each whole and in corpus order, however they were encoded."""
    return encoded.pair if isinstance(encoded, Agreement) else encoded


def _refuse_non_strings(pred: Encoded, ref: Encoded, names: tuple[str, str]) -> None:
    """TagTypeError naming the first tag, in corpus order (predictions, then references), that is not a string."""
    not_strings = [code for code, tag in enumerate(pred.tags) if not isinstance(tag, str)]
    if not not_strings:
        return
    side, enc = next((name, enc) for name, enc in zip(names, (pred, ref)) if np.isin(enc.codes, not_strings).any())
    first = int(np.argmax(np.isin(enc.codes, not_strings)))
    tag = enc.tags[int(enc.codes[first])]
    hint = " (integer label ids need label_list)" if isinstance(tag, (int, np.integer)) else ""
    raise TagTypeError(f"{side}, {_where(*enc.locate(first))}: tag {tag!r} is not a string{hint}")


def _encode_parts(
    predictions: Any, references: Any, vocab: _Vocab
) -> tuple[list[tuple[np.ndarray, np.ndarray]], bytes] | None:
    """(codes, lengths) of the wrong predicted sentences, of their references and of the right
    ones, and a 0/1 byte per sentence (1: the prediction differs); None unless both sides are
    aligned lists of lists of hashable tags (the caller encodes them side by side and says what
    is wrong).

    ``list.__ne__`` compares as lists do and refuses a sentence that is not a list (a string
    would otherwise be read as a sentence of characters). A chunk of sentences is compared,
    looked up and measured while it is in the cache: on a corpus larger than the cache, a
    pass over all of it for each job costs more than the jobs.
    """
    if type(predictions) not in (list, tuple) or type(references) not in (list, tuple):
        return None
    n = len(references)
    if len(predictions) != n:
        return None
    differs = bytearray()
    parts: list[tuple[list[np.ndarray], list[np.ndarray]]] = [([], []), ([], []), ([], [])]
    for start in range(0, n, _CHUNK):
        chunk = (predictions, references) if n <= _CHUNK else (
            predictions[start : start + _CHUNK], references[start : start + _CHUNK])
        try:
            differ = bytes(map(list.__ne__, *chunk))
            groups = (list(compress(chunk[0], differ)), list(compress(chunk[1], differ)),
                      list(compress(chunk[1], differ.translate(_FLIP))))
            codes = [_codes(group, vocab) for group in groups]
        except (TypeError, ValueError):  # not a list, an unhashable tag, a comparison without a truth value
            return None
        lengths = [m for m in map(_list_lengths, groups) if m is not None]
        if len(lengths) < len(groups):
            return None  # a list subclass: measured one sentence at a time, side by side
        if not _same_lengths(lengths[0], lengths[1]):
            return None  # misaligned sentences
        for (all_codes, all_lengths), c, m in zip(parts, codes, lengths):
            all_codes.append(c)
            all_lengths.append(m)
        differs += differ
    joined = [(_join(c), _join(m)) for c, m in parts]
    if any(len(c) != _total(m) for c, m in joined):
        return None  # a len() that disagrees with the items
    return joined, bytes(differs)


def _join(arrays: list[np.ndarray]) -> np.ndarray:
    return arrays[0] if len(arrays) == 1 else np.concatenate(arrays) if arrays else np.zeros(0, dtype=np.uint8)


def _is_arrow(values: Any) -> bool:
    """An Arrow array or chunked array (what evaluate hands over with format "arrow")."""
    return type(values).__module__.startswith("pyarrow")


def _arrow_lists(values: Any) -> tuple[Any, np.ndarray] | None:
    """(flat values, sentence lengths) of an Arrow list column; None when it holds nulls."""
    if hasattr(values, "combine_chunks"):
        values = values.combine_chunks()
    if not hasattr(values, "flatten") or not hasattr(values, "value_lengths") or values.null_count:
        return None
    flat = values.flatten()
    if flat.null_count:
        return None
    lengths = values.value_lengths().to_numpy(zero_copy_only=False).astype(np.int64)
    return flat, lengths


def _encode_arrow_tags(predictions: Any, references: Any) -> tuple[Encoded, Encoded] | None:
    """encode_pair for Arrow list<string> columns, without making a Python string per tag.

    Returns None for columns it does not take (nulls, other types), which then go
    the list way and get its error messages.
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    sides = [side for side in (_arrow_lists(predictions), _arrow_lists(references)) if side is not None]
    if len(sides) < 2 or any(not pa.types.is_string(flat.type) and not pa.types.is_large_string(flat.type)
                             for flat, _ in sides):
        return None
    vocab = _Vocab(O=OUTSIDE)
    out = []
    for flat, lengths in sides:
        encoded = pc.dictionary_encode(flat)
        remap = np.fromiter(map(vocab.__getitem__, encoded.dictionary.to_pylist()), np.int64, len(encoded.dictionary))
        indices = encoded.indices.to_numpy(zero_copy_only=False)
        out.append((remap[indices], lengths))
    (pred_codes, pred_lengths), (ref_codes, ref_lengths) = out
    check_aligned(pred_lengths, ref_lengths)
    tags = tuple(vocab)
    return Encoded(pred_codes, pred_lengths, tags, True), Encoded(ref_codes, ref_lengths, tags, True)


def check_aligned(pred_lengths: np.ndarray, ref_lengths: np.ndarray) -> None:
    """Raise ValueError naming the first sentence whose predicted and reference lengths differ."""
    if len(pred_lengths) != len(ref_lengths):
        raise ValueError(
            f"{len(pred_lengths)} predicted sentences but {len(ref_lengths)} reference sentences; "
            "they must align sentence by sentence"
        )
    if _same_lengths(pred_lengths, ref_lengths):
        return
    bad = np.flatnonzero(pred_lengths != ref_lengths)
    if len(bad):
        s = int(bad[0])
        raise ValueError(
            f"sentence {s}: {pred_lengths[s]} predicted tags but {ref_lengths[s]} reference tags; "
            "they must align token by token"
        )


def encode_ids(
    predictions: Any, references: Any, label_list: Sequence[str]
) -> tuple[Encoded, Encoded]:
    """Encode integer label ids (Trainer's arrays); positions whose reference is -100 are dropped.

    ``predictions``/``references`` are 2-D arrays (padded with -100) or lists of
    int lists. ``label_list[i]`` is the tag string of id ``i``.
    """
    labels = list(label_list)
    if not all(isinstance(t, str) for t in labels):
        raise TypeError("label_list must be a list of tag strings, one per label id")
    arrow = _arrow_ids(predictions, references) if _is_arrow(predictions) and _is_arrow(references) else None
    if arrow is not None:
        predictions, references = arrow
    pred_rows, ref_rows = _as_rows(predictions, "predictions"), _as_rows(references, "references")
    if isinstance(pred_rows, np.ndarray) and isinstance(ref_rows, np.ndarray) and pred_rows.shape == ref_rows.shape:
        keep = ref_rows != IGNORE_INDEX
        lengths = keep.sum(axis=1, dtype=np.int64)
        kept = np.flatnonzero(keep)  # one index for both sides: cheaper than two mask selections
        pred, ref = pred_rows.reshape(-1).take(kept), ref_rows.reshape(-1).take(kept)
    else:
        check_aligned(_lengths("predictions", pred_rows), _lengths("references", ref_rows))
        keeps = [np.asarray(r) != IGNORE_INDEX for r in ref_rows]
        lengths = np.fromiter((k.sum() for k in keeps), np.int64, len(keeps))
        pred = np.concatenate([np.asarray(p, dtype=np.int64)[k] for p, k in zip(pred_rows, keeps)] or [np.zeros(0, np.int64)])
        ref = np.concatenate([np.asarray(r, dtype=np.int64)[k] for r, k in zip(ref_rows, keeps)] or [np.zeros(0, np.int64)])
    # Re-code so that "O" is code 0 whatever id the label list gives it.
    vocab = _Vocab(O=OUTSIDE)
    remap = np.fromiter(map(vocab.__getitem__, labels), np.int64, len(labels))
    tags = tuple(vocab)
    # one byte a code while the label list allows it (what the string path produces too)
    remap = remap.astype(np.uint8 if len(tags) <= 256 else np.int64)
    out = []
    for side, ids in (("predictions", pred), ("references", ref)):
        if len(ids) and (ids.min() < 0 or ids.max() >= len(labels)):
            bad = np.flatnonzero((ids < 0) | (ids >= len(labels)))
            where = Encoded(ids, lengths, tags).locate(int(bad[0]))
            raise ValueError(
                f"{side}, {_where(*where)}: label id {int(ids[bad[0]])} is outside label_list "
                f"(ids 0..{len(labels) - 1}; -100 is only ignored in references)"
            )
        out.append(Encoded(remap[ids], lengths, tags))
    return out[0], out[1]


def _arrow_ids(predictions: Any, references: Any) -> tuple[Any, Any] | None:
    """Arrow list<int> columns as 2-D arrays padded with -100 (the references' ignore id)."""
    import pyarrow as pa

    sides = [side for side in (_arrow_lists(predictions), _arrow_lists(references)) if side is not None]
    if len(sides) < 2 or any(not pa.types.is_integer(flat.type) for flat, _ in sides):
        return None
    (pred_flat, pred_lengths), (ref_flat, ref_lengths) = sides
    check_aligned(pred_lengths, ref_lengths)
    width = int(ref_lengths.max(initial=0))
    rows = []
    for flat in (pred_flat, ref_flat):
        grid = np.full((len(ref_lengths), width), IGNORE_INDEX, dtype=np.int64)
        grid[np.arange(width) < ref_lengths[:, None]] = flat.to_numpy(zero_copy_only=False)
        rows.append(grid)
    return rows[0], rows[1]


def _as_rows(values: Any, side: str) -> Any:
    if isinstance(values, np.ndarray) or hasattr(values, "numpy"):
        array = np.asarray(values.numpy() if hasattr(values, "numpy") else values)
        if array.ndim != 2 or not np.issubdtype(array.dtype, np.integer):
            raise TypeError(f"{side}: expected a 2-D integer array of label ids, got shape {array.shape} {array.dtype}")
        return array
    return values


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
