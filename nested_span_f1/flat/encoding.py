"""Both sides of a tagged corpus -> integer tag codes over one vocabulary, with the one error locator.

Three input kinds arrive here: lists of tag-string lists; integer label ids with a
``label_list`` (lists of int lists or 2-D arrays padded with -100, as Trainer holds
them); and the Arrow list columns evaluate hands over with format "arrow". Each
becomes an :class:`EncodedPair`: per side, one int code per token (sentences
concatenated) and the length of every sentence; one tuple of tag strings, one per
code, with code 0 always ``O``. Everything after this stage works on codes; when a
later stage finds a bad tag, :meth:`EncodedPair.refuse` names where it first occurs.
"""
from __future__ import annotations

import operator
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import chain, compress
from typing import Any, NoReturn

import numpy as np

from ..core.sequences import check_each, check_sequence, is_sequence
from ..core.wording import misaligned, quote
from .kinds import not_a_string

IGNORE_INDEX = -100
"""Label id that marks positions to ignore (special tokens, non-first sub-tokens)."""

SIDES = ("predictions", "references")
"""How errors name the two sides of a pair."""

LabelList = Sequence[str] | Mapping[int, str] | Mapping[str, int]
"""The tag of each label id: a list, or a model's ``id2label`` or ``label2id`` (see :func:`read_label_list`)."""


class TagTypeError(TypeError, ValueError):
    """A tag that is not a string (None, an integer id without ``label_list``).

    A TypeError by nature, and a ValueError too, so that ``except ValueError``
    catches every kind of bad label, as evaluate-seqeval users expect.
    """


def check_sides(predictions: Any, references: Any, names: tuple[str, str] = SIDES) -> None:
    """What every door checks first, in the same words: each side is a list with one entry a sentence, and
    both sides hold as many.

    Raises:
        TypeError: a side that is not a sequence (None, a string, a set, a mapping, an iterator; see
            :func:`nested_span_f1.core.sequences.is_sequence`).
        ValueError: different numbers of sentences.
    """
    for name, side in zip(names, (predictions, references)):
        if type(side) not in (list, tuple):  # lists pass without a call: this is on every scoring path
            check_sequence(side, name, "sentences (one list per sentence)")
    if len(predictions) != len(references):
        raise ValueError(misaligned(len(predictions), len(references)))


def locate(lengths: np.ndarray, flat_index: int) -> tuple[int, int]:
    """(sentence, position) of the item at ``flat_index`` of sentences of these lengths, concatenated."""
    ends = np.cumsum(lengths)
    sentence = int(np.searchsorted(ends, flat_index, side="right"))
    return sentence, int(flat_index - (ends[sentence] - lengths[sentence]))


@dataclass(frozen=True)
class Given:
    """Label id rows as given, before the positions whose reference is -100 were dropped: which
    positions were kept (flat, rows concatenated) and each row's length. Errors name a token by
    its column in the row as given: the padded row a Trainer user looks at."""

    kept: np.ndarray
    lengths: np.ndarray

    def locate(self, kept_index: int) -> tuple[int, int]:
        """(sentence, column as given) of the ``kept_index``-th kept position."""
        return locate(self.lengths, int(np.flatnonzero(self.kept)[kept_index]))


@dataclass(frozen=True)
class Encoded:
    """One side: ``codes`` (one per token, sentences concatenated) and ``lengths`` (tokens per sentence)."""

    codes: np.ndarray
    lengths: np.ndarray
    given: Given | None = None
    """Label ids some of whose positions were dropped (-100 references): where errors look tokens up."""

    def locate(self, flat_index: int) -> tuple[int, int]:
        """(sentence, position) of the token at ``flat_index`` in ``codes``, the position counted in the
        sentence as given."""
        if self.given is not None:
            return self.given.locate(flat_index)
        return locate(self.lengths, flat_index)


@dataclass(frozen=True)
class EncodedPair:
    """Predictions and references over one tag vocabulary (``tags[code]``; code 0 is ``O``)."""

    predictions: Encoded
    references: Encoded
    tags: tuple[str, ...]
    names: tuple[str, str] = SIDES
    complete: bool = False
    """Every tag of ``tags`` but ``O`` occurs in the sides: the vocabulary was built from them (string
    input); a label list may hold labels no token has."""

    def present(self) -> np.ndarray:
        """Bool mask over codes: which tags occur on either side (``O`` counts as present)."""
        if self.complete:
            return np.ones(len(self.tags), dtype=bool)
        present = np.zeros(len(self.tags), dtype=bool)
        present[0] = True
        present[self.predictions.codes] = True
        present[self.references.codes] = True
        return present

    def refuse(self, bad: np.ndarray, problem: Callable[[int], str], error: type[Exception] = ValueError) -> NoReturn:
        """Raise ``error`` at the first token whose code is in ``bad``, in the order the sides are read: sentence by
        sentence, token by token (both sides align), so that a gold file's bad tag is named before a later one of
        the predictions; at the same token, the predictions' tag first.

        The message names side, sentence and token, then says ``problem(code)``.
        """
        firsts = []
        for name, side in zip(self.names, (self.predictions, self.references)):
            found = np.flatnonzero(np.isin(side.codes, bad))
            if len(found):
                firsts.append((int(found[0]), name, side))
        if not firsts:
            raise AssertionError("refuse() called with codes that occur nowhere")
        at, name, side = min(firsts, key=lambda first: first[0])  # min keeps the first of a tie: the predictions
        sentence, token = side.locate(at)
        raise error(f"{name}, sentence {sentence}, token {token}: {problem(int(side.codes[at]))}")


class _Vocab(dict):
    """tag -> code, giving the next code to each new tag on first lookup."""

    def __missing__(self, tag: Any) -> int:
        code = self[tag] = len(self)
        return code


def encode(
    predictions: Any, references: Any, *, label_list: LabelList | None = None, names: tuple[str, str] = SIDES
) -> EncodedPair:
    """Encode both sides and check that they align sentence by sentence and token by token.

    ``label_list``, read by :func:`read_label_list`, marks integer label ids; errors name
    a label id's position in its row as given, the positions of -100 counted.

    Raises:
        ValueError: different numbers of sentences, a sentence whose two sides differ
            in length, a label id outside ``label_list``.
        TypeError: a side that is not a list of sentences, a sentence that is not a
            list of tags, a tag that is not a string (:class:`TagTypeError`), label
            ids that are not integers.
    """
    if not hasattr(predictions, "shape") and not hasattr(references, "shape"):  # 2-D id arrays are checked as grids
        check_sides(predictions, references, names)
    if label_list is not None:
        return _encode_ids(predictions, references, label_list, names)
    if not isinstance(predictions, list) and _is_arrow(predictions) and _is_arrow(references):
        arrow = _arrow_strings(predictions, references, names)
        if arrow is not None:
            return arrow
        predictions, references = predictions.to_pylist(), references.to_pylist()
    vocab = _Vocab(O=0)
    ref = _encode_side(references, vocab, names[1])
    pred = _encode_side(predictions, vocab, names[0], like=(references, ref))
    pair = EncodedPair(pred, ref, tuple(vocab), names, complete=True)
    not_strings = [code for code, tag in enumerate(pair.tags) if not isinstance(tag, str)]
    if not_strings:
        pair.refuse(np.array(not_strings), lambda code: not_a_string(pair.tags[code], label_list=True), TagTypeError)
    return pair


def _check_sentences(sentences: Any, side: str) -> bool:
    """TypeError unless every sentence of a side (checked by :func:`check_sides`) is a sequence of tags
    (not a string, a set or an iterator). Returns True when every sentence is a plain list or tuple.
    """
    if set(map(type, sentences)) <= {list, tuple}:
        return True
    check_each(sentences, f"{side}, sentence {{}}", "tags")
    return False


def _encode_side(sentences: Any, vocab: _Vocab, side: str, like: tuple[Any, Encoded] | None = None) -> Encoded:
    """One side's tags as codes, looked up in ``vocab`` (which gives each new tag the next code).

    The codes stand for the tags ``reference.count`` reads, sentence by sentence,
    concatenated. ``like``: the other side, as given and as encoded. The two must
    align, and a sentence equal to its counterpart takes the counterpart's codes
    instead of being looked up: comparing two lists of strings costs a fraction of
    looking their tags up, and most sentences of a useful model's output are right.
    """
    plain = _check_sentences(sentences, side)
    lengths = np.fromiter(map(len, sentences), dtype=np.int64, count=len(sentences))
    differs = None  # which sentences differ from their counterpart; None: every sentence is looked up
    if like is not None:
        counterparts, encoded = like
        check_aligned(lengths, encoded.lengths)
        # plain lists compare to one bool; a numpy sentence would compare token by token
        if plain and set(map(type, counterparts)) <= {list, tuple}:
            differs = np.frombuffer(bytes(map(operator.ne, sentences, counterparts)), dtype=bool)
    looked_up = sentences if differs is None else list(compress(sentences, differs))
    expected = int(lengths.sum() if differs is None else lengths[differs].sum())
    try:
        codes = _codes(looked_up, vocab)
    except TypeError:  # an unhashable tag
        _refuse_tag(sentences, side)
        raise
    if len(codes) != expected:
        raise ValueError(f"{side}: the sentences hold {len(codes)} tags when iterated but {expected} by len()")
    if differs is None:
        return Encoded(codes, lengths)
    # the counterparts' codes, with the looked-up sentences' codes in their places
    merged = encoded.codes.astype(np.result_type(encoded.codes, codes))
    merged[np.repeat(differs, lengths)] = codes
    return Encoded(merged, lengths)


def _codes(sentences: Any, vocab: _Vocab) -> np.ndarray:
    """Every tag's code, sentences concatenated; the lookup is most of the cost of scoring.

    One byte a code while the vocabulary fits a byte (a bytearray fills faster than
    ``np.fromiter``); the bytearray refuses the 257th code, and the tags are then
    looked up again, four bytes a code.
    """
    try:
        return np.frombuffer(bytearray(map(vocab.__getitem__, chain.from_iterable(sentences))), dtype=np.uint8)
    except ValueError:  # a code past 255
        return np.fromiter(map(vocab.__getitem__, chain.from_iterable(sentences)), dtype=np.int32)


def _refuse_tag(sentences: Any, side: str) -> None:
    """TagTypeError naming the first tag that is not a string (an unhashable one stops the lookup)."""
    for s, sentence in enumerate(sentences):
        for p, tag in enumerate(sentence):
            if not isinstance(tag, str):
                raise TagTypeError(f"{side}, sentence {s}, token {p}: {not_a_string(tag, label_list=True)}") from None


def check_aligned(pred_lengths: Any, ref_lengths: Any) -> None:
    """ValueError naming the first sentence whose two sides differ in length (the counts are checked)."""
    pred_lengths, ref_lengths = np.asarray(pred_lengths), np.asarray(ref_lengths)
    differ = np.flatnonzero(pred_lengths != ref_lengths)
    if len(differ):
        s = int(differ[0])
        raise ValueError(
            f"sentence {s}: {pred_lengths[s]} predicted tags but {ref_lengths[s]} reference tags; "
            "they must align token by token"
        )


# --------------------------------------------------------------------------- label ids

def read_label_list(label_list: Any) -> tuple[str, ...]:
    """The tag of each label id, from ``label_list`` as every door that takes one reads it.

    A sequence gives id ``i`` the tag at position ``i``. A mapping is read as id -> tag
    either way round: ``{0: "O", 1: "B-PER"}`` (a model's ``id2label``) as it stands,
    ``{"O": 0, "B-PER": 1}`` (``label2id``) inverted; never in the mapping's own order.
    The ids of a mapping must be exactly 0..n-1. A ``datasets.ClassLabel`` (a dataset's
    ``features["ner_tags"].feature``) is read by its ``names``.

    >>> read_label_list({"B-PER": 1, "O": 0})
    ('O', 'B-PER')

    Raises:
        TypeError: None, a string, an unordered collection (a set), a tag that is not a
            string, a mapping that is neither id -> tag nor tag -> id.
        ValueError: an empty list or mapping (no label id has a tag: refused when a scorer
            is built, not at its first evaluation), a mapping whose ids are not 0..n-1
            (names the first id missing), or that gives one id to two tags.
    """
    what = "label_list must be the tag of each label id: a list, or a dict id -> tag (id2label) or tag -> id (label2id)"
    if label_list is None or isinstance(label_list, (str, bytes)):
        raise TypeError(f"{what}; got {'None' if label_list is None else f'one string {quote(label_list)}'}")
    if type(label_list).__name__ == "ClassLabel" and is_sequence(getattr(label_list, "names", None)):
        label_list = label_list.names  # datasets.ClassLabel, read by duck type: datasets stays optional
    if isinstance(label_list, Mapping):
        labels = _from_mapping(label_list, what)
    elif not is_sequence(label_list):
        raise TypeError(f"{what}; got a {type(label_list).__name__}, which has no order")
    else:
        labels = tuple(label_list)
    if not labels:
        raise ValueError(f"label_list is empty; it must hold the tag of each label id, id 0 first "
                         f"(got {quote(label_list)})")
    for label_id, tag in enumerate(labels):
        if not isinstance(tag, str):
            raise TypeError(f"{what}; label id {label_id} has {quote(tag)}, not a tag string")
    return tuple(map(str, labels))


def _from_mapping(mapping: Mapping[Any, Any], what: str) -> tuple[str, ...]:
    """The tags of an id2label or label2id mapping, in id order (see :func:`read_label_list`)."""
    def is_id(value: Any) -> bool:
        return isinstance(value, (int, np.integer)) and not isinstance(value, bool)

    items = list(mapping.items())
    if all(is_id(key) and isinstance(value, str) for key, value in items):
        pairs = [(int(key), value) for key, value in items]
    elif all(isinstance(key, str) and is_id(value) for key, value in items):
        pairs = [(int(value), key) for key, value in items]
    else:
        key, value = next((k, v) for k, v in items if not (is_id(k) and isinstance(v, str)))
        # a config.json read as JSON has its id2label keys as strings
        hint = "; convert the id strings to int" if isinstance(key, str) and key.isdigit() else ""
        raise TypeError(f"{what}; the dict holds {quote(key)}: {quote(value)}, and its items must all be "
                        f"int id: tag string, or all tag string: int id{hint}")
    tags: dict[int, str] = {}
    for label_id, tag in pairs:
        if label_id in tags:
            raise ValueError(f"label_list gives label id {label_id} to both {quote(tags[label_id])} and {quote(tag)}")
        tags[label_id] = tag
    missing = next((i for i in range(len(tags)) if i not in tags), None)
    if missing is not None:
        raise ValueError(f"label_list has label ids {quote(sorted(tags))}; they must be exactly 0..{len(tags) - 1}, "
                         f"and id {missing} is missing")
    return tuple(tags[i] for i in range(len(tags)))


def _encode_ids(predictions: Any, references: Any, label_list: Any, names: tuple[str, str]) -> EncodedPair:
    """Label ids -> codes; positions whose reference is -100 are dropped from both sides."""
    labels = read_label_list(label_list)
    pred, ref, lengths, given = _kept_ids(predictions, references, names)
    vocab = _Vocab(O=0)
    remap = np.fromiter(map(vocab.__getitem__, labels), dtype=np.int32, count=len(labels))
    # one byte a code while the label list allows it, as the string path's codes
    remap = remap.astype(np.uint8 if len(vocab) <= 256 else np.int32)
    sides = []
    for name, ids in zip(names, (pred, ref)):
        if len(ids) and (ids.min() < 0 or ids.max() >= len(labels)):
            first = int(np.flatnonzero((ids < 0) | (ids >= len(labels)))[0])
            sentence, token = Encoded(ids, lengths, given).locate(first)
            raise ValueError(
                f"{name}, sentence {sentence}, token {token}: label id {int(ids[first])} is outside label_list "
                f"(ids 0..{len(labels) - 1}; -100 is only ignored in references)"
            )
        sides.append(Encoded(remap.take(ids), lengths, given))
    return EncodedPair(sides[0], sides[1], tuple(vocab), names)


def _kept_ids(
    predictions: Any, references: Any, names: tuple[str, str]
) -> tuple[np.ndarray, np.ndarray, np.ndarray, Given | None]:
    """Both sides' ids at the positions whose reference is not -100, flat, the sentence lengths left, and
    where the kept positions were in the rows as given (None when every position is kept)."""
    if hasattr(predictions, "shape") or hasattr(references, "shape"):
        grids = [_int_array(np.asarray(side.detach().cpu() if hasattr(side, "detach") else side), name)
                 for side, name in zip((predictions, references), names)]
        if any(grid.ndim != 2 for grid in grids) or grids[0].shape != grids[1].shape:
            raise ValueError(f"{names[0]} and {names[1]}: expected two 2-D arrays of label ids of one shape, "
                             f"got shapes {grids[0].shape} and {grids[1].shape}")
        keep = grids[1] != IGNORE_INDEX
        kept = np.flatnonzero(keep)  # flat positions: taking them is faster than a 2-D boolean index
        lengths = np.count_nonzero(keep, axis=1).astype(np.int64)
        given = None if len(kept) == keep.size else Given(keep.ravel(), np.full(len(keep), keep.shape[1]))
        return grids[0].take(kept), grids[1].take(kept), lengths, given
    if _is_arrow(predictions) and _is_arrow(references):
        sides = [_arrow_list(side) for side in (predictions, references)]
        lengths = sides[1][1]
        check_aligned(sides[0][1], lengths)
        pred, ref = (_int_array(values.to_numpy(zero_copy_only=False), name) for (values, _), name in zip(sides, names))
    else:
        for side, name in zip((predictions, references), names):
            _check_sentences(side, name)
        pred_lengths, lengths = (np.fromiter(map(len, side), dtype=np.int64, count=len(side))
                                 for side in (predictions, references))
        check_aligned(pred_lengths, lengths)
        flat = []
        for side, name in zip((predictions, references), names):
            # only ints (a bool is not a label id, a float is never truncated)
            if any(issubclass(kind, bool) or not issubclass(kind, (int, np.integer))
                   for kind in set(map(type, chain.from_iterable(side)))):
                _refuse_id(side, name)
            try:
                flat.append(np.fromiter(chain.from_iterable(side), dtype=np.int64))
            except OverflowError:
                _refuse_id(side, name)
        pred, ref = flat
    keep = ref != IGNORE_INDEX
    if keep.all():
        return pred, ref, lengths, None
    kept = np.bincount(np.repeat(np.arange(len(lengths)), lengths)[keep], minlength=len(lengths))
    return pred[keep], ref[keep], kept.astype(np.int64), Given(keep, lengths)


def _int_array(values: np.ndarray, side: str) -> np.ndarray:
    if not np.issubdtype(values.dtype, np.integer):
        raise TypeError(f"{side}: label ids must be integers, got an array of {values.dtype}")
    if values.dtype == np.uint64 and values.size and values.max() >= 2**63:
        raise ValueError(f"{side}: label id {int(values.max())} is out of range")
    return values.astype(np.int64, copy=False)


def _refuse_id(sentences: Any, side: str) -> NoReturn:
    """Name the first label id that is not an integer an int64 holds."""
    for s, sentence in enumerate(sentences):
        for p, value in enumerate(sentence):
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
                raise TypeError(f"{side}, sentence {s}, token {p}: label id {quote(value)} is not an integer")
            if not -(2**63) <= int(value) < 2**63:
                raise ValueError(f"{side}, sentence {s}, token {p}: label id {quote(value)} is out of range")
    raise AssertionError("no bad label id found")


# --------------------------------------------------------------------------- Arrow columns

def _is_arrow(values: Any) -> bool:
    """An Arrow array or chunked array (what evaluate hands over with format "arrow")."""
    return type(values).__module__.startswith("pyarrow")


def _chunked(values: Any) -> Any:
    """An Arrow column as a chunked array, read chunk by chunk: evaluate hands over one chunk a batch, and
    combining them into one array first costs more than the whole encoding."""
    import pyarrow as pa

    return values if isinstance(values, pa.ChunkedArray) else pa.chunked_array([values])


def _arrow_list(values: Any) -> tuple[Any, np.ndarray]:
    """(flat values, sentence lengths) of an Arrow list column."""
    import pyarrow.compute as pc

    values = _chunked(values)
    flat = pc.list_flatten(values)
    if values.null_count or flat.null_count:
        raise TypeError("a sentence or a tag is None (null); every sentence must be a list of tags")
    return flat, pc.list_value_length(values).to_numpy(zero_copy_only=False).astype(np.int64)


def _arrow_strings(predictions: Any, references: Any, names: tuple[str, str]) -> EncodedPair | None:
    """Arrow list<string> columns encoded without a Python string per tag; None for other columns
    (nulls, other types), which are read as lists and get their error messages."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if any(not pa.types.is_list(side.type) or not pa.types.is_string(side.type.value_type)
           for side in (predictions, references)):
        return None
    try:
        columns = [_arrow_list(side) for side in (predictions, references)]
    except TypeError:  # a null
        return None
    vocab = _Vocab(O=0)
    sides = []
    for flat, lengths in columns:
        # one dictionary for all chunks, so that one remap serves them all
        encoded = pc.dictionary_encode(flat).unify_dictionaries()
        tags = encoded.chunk(0).dictionary.to_pylist() if encoded.num_chunks else []
        remap = np.fromiter(map(vocab.__getitem__, tags), dtype=np.int32, count=len(tags))
        indices = [chunk.indices.to_numpy(zero_copy_only=False) for chunk in encoded.chunks]
        codes = remap[np.concatenate(indices)] if indices else np.zeros(0, dtype=np.int32)
        sides.append(Encoded(codes, lengths))
    check_aligned(sides[0].lengths, sides[1].lengths)
    return EncodedPair(sides[0], sides[1], tuple(vocab), names, complete=True)
