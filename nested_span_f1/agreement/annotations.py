"""Annotators' files read and paired document by document (docs/DESIGN.md, 'Agreement between annotators').

Every set of annotations (an annotator's, the adjudicated reference's, a model's)
is read by the readers every command uses: any format they detect, a brat folder
or ``.ann`` file, a spaCy DocBin, CoNLL tag columns, or a :class:`Corpus` in
memory. Sets of different formats are compared when they hold the same text:

- documents pair by id when every set carries ids (brat's file names, the
  ``id`` of text spans, OneIE's ``sent_id``), else by position, which needs as
  many documents in every set;
- a document some sets lack is listed, with the sets that hold it, and left
  out of every figure (:attr:`Table.shared`), never scored as if it were empty;
- two sets holding one document must hold the same tokens, or the same text,
  else they are refused naming the document and the first difference; a set of
  tokens against a set of texts is located in the text (the tokens must spell
  it, whitespace aside), and every figure is then in characters.

Each set's spans are its contiguous entities, distinct (repeats counted); its
discontinuous entities are kept apart (:attr:`Table.fragmented`): left out and
counted, as the benchmark leaves them, unless they are compared by their fragments.

A brat project laid out as bratiaa expects it (a root folder holding one folder
per annotator, the same documents' ``.ann`` files in each) is read from its root
(:func:`project_annotators`): each folder is an annotator.
"""
from __future__ import annotations

import os
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Union

import numpy as np

from ..align.project import locate_tokens, to_characters
from ..benchmark.inputs import read_side
from ..core.entities import Record, check_entities
from ..core.matching import distinct
from ..core.spans import SpanArrays
from ..core.wording import plural
from ..flat.pipeline import tags_to_spans
from ..formats import Corpus
from ..formats.brat import ann_pairs, document_id
from ..formats.corpus import first_difference, look_alike
from ..formats.places import in_file

Source = Union[str, "os.PathLike[str]", Corpus]
"""One set of annotations: a file or folder any reader takes (CoNLL tag columns too), or a Corpus."""


@dataclass(frozen=True)
class Named:
    """A set of annotations as given: its name, what it is, and where it comes from."""

    name: str
    source: Source
    role: str = "annotator"


def letters(k: int) -> str:
    """The name of the ``k``-th annotator of a list (from 0): ``A`` ... ``Z``, then ``AA``, ``AB``, ..."""
    name = ""
    k += 1
    while k:
        k, rest = divmod(k - 1, 26)
        name = chr(ord("A") + rest) + name
    return name


def check_name(name: Any, what: str) -> str:
    """A set's name: a non-empty string without ``|``, which joins the two names of a pair (``A|B``)."""
    if not isinstance(name, str):
        raise TypeError(f"{what}: a name must be a string, got {name!r}")
    if not name or "|" in name:
        raise ValueError(f"{what}: a name must be non-empty and hold no '|' (it joins the names of a pair), got {name!r}")
    return name


def _same_source(a: Source, b: Source) -> bool:
    """Whether two sources are one: the same Corpus object, or paths naming one file or folder."""
    if isinstance(a, Corpus) or isinstance(b, Corpus):
        return a is b
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.realpath(a) == os.path.realpath(b)


def check_distinct(sets: Sequence[Named]) -> None:
    """Refuse two sets given one source (the same folder twice): they would agree perfectly, by construction."""
    for k, later in enumerate(sets):
        for earlier in sets[:k]:
            if _same_source(earlier.source, later.source):
                shown = "one Corpus" if isinstance(later.source, Corpus) else f"the same file or folder, {later.source}"
                raise ValueError(f"{earlier.role} {earlier.name} and {later.role} {later.name} are {shown}; give each "
                                 "its own annotations")


def read_set(given: Named, format: str | None = None, types: Sequence[str] | None = None,
             spans_key: str | None = None, event_triggers: bool = True, offsets: str = "codepoints") -> Corpus:
    """A set's annotations as a :class:`Corpus` (CoNLL tag columns decoded into spans as ``span_f1`` decodes them;
    ``event_triggers=False`` leaves out a brat set's event triggers, counted in its ``conversion``).

    Raises:
        ValueError: the readers' refusals (an empty file, a folder without ``.ann`` files, malformed lines), a set
            that holds no annotation at all.
        TypeError: a source that is neither a path nor a Corpus.
    """
    if not isinstance(given.source, (str, os.PathLike, Corpus)):
        raise TypeError(f"{given.role} {given.name}: expected a file or folder path or a Corpus (tokens or texts "
                        f"and their spans), got {type(given.source).__name__}")
    side = read_side(given.source, format, given.name, types=types, spans_key=spans_key,
                     event_triggers=event_triggers, offsets=offsets)
    if side.corpus is not None:
        corpus = side.corpus
    else:
        columns = side.columns
        assert columns is not None and side.tags is not None  # a path reads as a corpus or as tag columns
        try:
            spans = tags_to_spans(side.tags)
        except ValueError as error:
            raise ValueError(f"{given.role} {given.name}: {in_file(error, columns)}") from None
        corpus = Corpus(columns.tokens, spans, format="conll", source=columns.name)
    if not len(corpus):
        raise ValueError(f"{given.role} {given.name} ({corpus.source}): no documents")
    if not any(map(len, corpus.entities)):
        why = (f"--types {' '.join(types)} kept none of its T lines: {corpus.conversion}"
               if types and corpus.format == "brat" else "was it exported empty?")
        raise ValueError(f"{given.role} {given.name} ({corpus.source}): no annotation in any of its "
                         f"{plural(len(corpus), corpus.sentence_word)}; a set that marks nothing cannot be compared "
                         f"({why})")
    return corpus


@dataclass(frozen=True)
class Table:
    """Every set's spans over the documents two or more sets hold, in the unit they are compared in.

    ``present[d, k]`` tells whether set ``k`` holds document ``d``; ``spans[k]`` has no span in a document it
    lacks. ``items[d]`` is the document's tokens, or its text when ``unit`` is ``characters``.
    """

    sets: tuple[Named, ...]
    ids: list[str]
    present: np.ndarray
    items: list[Any]
    unit: str
    spans: list[SpanArrays]
    doc_ids: list[str] | None
    """The larger document each item belongs to (OneIE's ``doc_id``), when the first set names them."""
    left_out: dict[str, list[str]]
    """Every document some set lacks, with the sets that hold it."""
    duplicates: dict[str, int]
    discontinuous: dict[str, int]
    formats: dict[str, str]
    conversions: dict[str, str]
    """How each set's file was read (a brat set: its ``T`` lines as entities and event triggers)."""
    by_position: bool
    """Whether documents were paired by position (some set has no ids): ``ids`` are then positions from 0."""
    fragmented: list[list[Record]]
    """Each set's discontinuous entities, ``(document, fragments, type)`` as given (repeats included)."""
    places: list[list[str | None]]
    """Where each set holds each document (``file, line N``, or a brat document's ``.ann``), where its reader
    says."""

    @property
    def shared(self) -> np.ndarray:
        """The documents every set holds: those every figure is computed on."""
        return np.asarray(self.present.all(axis=1))

    @property
    def lengths(self) -> np.ndarray:
        """Tokens (or characters) of every document."""
        return np.array([len(item) for item in self.items], dtype=np.int64)

    @property
    def word(self) -> str:
        """What one document is called: ``sentence`` in a corpus of tokens without document ids, else ``document``."""
        return "sentence" if self.unit == "tokens" and self.doc_ids is None else "document"


def _ids(corpora: Sequence[Corpus], sets: Sequence[Named]) -> list[list[str]]:
    """Each set's document ids: its own when every set carries ids, else positions (as many in every set)."""
    if all(corpus.sentence_ids is not None for corpus in corpora):
        out = [[str(i) for i in corpus.sentence_ids] for corpus in corpora]  # type: ignore[union-attr]
        for given, ids, corpus in zip(sets, out, corpora):
            seen: set[str] = set()
            for ident in ids:
                if ident in seen:
                    raise ValueError(f"{given.role} {given.name} ({corpus.source}): {corpus.sentence_word} id "
                                     f"{ident!r} is given to two {corpus.sentence_word}s; documents are paired by id, "
                                     "so each needs its own")
                seen.add(ident)
        return out
    sizes = {len(corpus) for corpus in corpora}
    if len(sizes) > 1:
        without = next(given.name for given, corpus in zip(sets, corpora) if corpus.sentence_ids is None)
        counts = ", ".join(f"{given.name} {plural(len(corpus), corpus.sentence_word)}"
                           for given, corpus in zip(sets, corpora))
        raise ValueError(f"{without} carries no document ids, so documents pair by position, which needs as many in "
                         f"every set ({counts}); give every set ids (brat file names, text spans' id, OneIE's sent_id)")
    return [[str(i) for i in range(len(corpus))] for corpus in corpora]


def _name(ident: str, word: str, by_position: bool) -> str:
    """A document as messages name it: ``sentence 3`` (from 0: the command line counts it from 1) or ``document 'x'``."""
    return f"{word} {ident}" if by_position else f"document {ident!r}"


def _same_tokens(first: Named, tokens: Sequence[str], other: Named, theirs: Sequence[str], where: str) -> None:
    mine, other_tokens = list(tokens), list(theirs)
    if mine != other_tokens:
        at = first_difference(mine, other_tokens)
        raise ValueError(f"{where}: tokens differ at position {at} between {first.name} ({len(mine)} tokens, "
                         f"{mine[at:at + 3]!r}) and {other.name} ({len(other_tokens)} tokens, "
                         f"{other_tokens[at:at + 3]!r}); annotators are compared on the same tokens")


def _same_text(first: Named, text: str, other: Named, theirs: str, where: str) -> None:
    if text != theirs:
        at = first_difference(text, theirs)
        raise ValueError(f"{where}: texts differ at offset {at} between {first.name} ({len(text)} characters, "
                         f"{text[at:at + 10]!r}) and {other.name} ({len(theirs)} characters, {theirs[at:at + 10]!r})"
                         f"{look_alike(text, theirs, at)}; annotators are compared on the same text")


@dataclass(frozen=True)
class _Pairing:
    """Which documents pair: each set's ids and their rows, the documents two or more sets hold (the table's, in
    order of first appearance), the sets that hold each, and those some set lacks."""

    ids: list[list[str]]
    index: list[dict[str, int]]
    holders: dict[str, list[int]]
    table_ids: list[str]
    left_out: dict[str, list[str]]
    by_position: bool


def _pairing(sets: Sequence[Named], corpora: Sequence[Corpus]) -> _Pairing:
    """Pair the sets' documents by id (or by position), refusing sets that share no document."""
    ids = _ids(corpora, sets)
    index = [{ident: k for k, ident in enumerate(found)} for found in ids]
    order = list(dict.fromkeys(ident for found in ids for ident in found))
    holders = {ident: [k for k in range(len(sets)) if ident in index[k]] for ident in order}
    left_out = {ident: [sets[k].name for k in have] for ident, have in holders.items() if len(have) < len(sets)}
    table_ids = [ident for ident in order if len(holders[ident]) >= 2]
    if not any(len(holders[ident]) == len(sets) for ident in table_ids):
        sizes = ", ".join(f"{given.name} {plural(len(found), 'document')}" for given, found in zip(sets, ids))
        examples = ", ".join(repr(found[0]) for found in ids if found)
        raise ValueError(f"no document is held by every set ({sizes}; first ids {examples}); documents pair by id")
    by_position = not all(corpus.sentence_ids is not None for corpus in corpora)
    return _Pairing(ids, index, holders, table_ids, left_out, by_position)


def _item(sets: Sequence[Named], corpora: Sequence[Corpus], rows: Mapping[int, int], unit: str, where: str) -> Any:
    """One document as every set holding it (``rows``: set -> its row) must hold it: its tokens, or in
    ``characters`` its text (a set of texts', else the tokens of the first joined by spaces); refused where two
    sets differ."""
    have = list(rows)
    if unit == "tokens":
        first = have[0]
        item: Any = list(corpora[first].tokens[rows[first]])
        for k in have[1:]:
            _same_tokens(sets[first], item, sets[k], corpora[k].tokens[rows[k]], where)
        return item
    texts = [k for k in have if corpora[k].unit == "characters"]
    first = texts[0] if texts else have[0]
    item = str(corpora[first].tokens[rows[first]]) if texts else " ".join(corpora[first].tokens[rows[first]])
    for k in texts[1:]:
        _same_text(sets[first], item, sets[k], str(corpora[k].tokens[rows[k]]), where)
    return item


def _entities(given: Named, corpus: Corpus, row: int | None, item: Any, unit: str, where: str) -> list[Any]:
    """A set's entities of one document (none where it lacks the document), in characters when the document is
    a text and the set holds tokens (located in the text)."""
    if row is None:
        return []
    found = corpus.entities[row]
    if unit == "characters" and corpus.unit == "tokens":
        offsets = locate_tokens(list(corpus.tokens[row]), item, f"{given.role} {given.name}, {where}")
        found = to_characters(found, offsets)
    return list(found)


def document_table(sets: Sequence[Named], corpora: Sequence[Corpus]) -> Table:
    """Pair the sets' documents and bring them to one unit (see the module docstring).

    Raises:
        ValueError: an id given twice in a set, sets of different sizes without ids, no document that every set
            holds, tokens or texts that differ (naming the document and the first difference), tokens that do not
            spell the text of a set of texts.
    """
    paired = _pairing(sets, corpora)
    unit = "characters" if any(corpus.unit == "characters" for corpus in corpora) else "tokens"
    word = corpora[0].sentence_word
    items: list[Any] = []
    entities: list[list[Any]] = [[] for _ in sets]
    for ident in paired.table_ids:
        where = _name(ident, word, paired.by_position)
        rows = {k: paired.index[k][ident] for k in paired.holders[ident]}
        item = _item(sets, corpora, rows, unit, where)
        items.append(item)
        for k, entity_lists in enumerate(entities):
            entity_lists.append(_entities(sets[k], corpora[k], rows.get(k), item, unit, where))
    present = np.array([[ident in paired.index[k] for k in range(len(sets))] for ident in paired.table_ids], dtype=bool)
    lengths = [len(item) for item in items]
    spans, duplicates, discontinuous, fragmented = [], {}, {}, []
    for given, entity_lists in zip(sets, entities):
        checked = check_entities(entity_lists, lengths, f"{given.role} {given.name}")
        unique, removed = distinct(checked.spans)
        spans.append(unique)
        fragmented.append(checked.fragmented)
        duplicates[given.name], discontinuous[given.name] = removed, len(checked.fragmented)
    places = [[None if corpus.places is None or ident not in index else corpus.places[index[ident]]
               for ident in paired.table_ids] for corpus, index in zip(corpora, paired.index)]
    first_docs = corpora[0].doc_ids
    doc_ids = None
    if first_docs is not None and unit == "tokens":
        # every figure is on the documents every set holds, the first set's among them
        first = paired.index[0]
        doc_ids = [str(first_docs[first[ident]]) if ident in first else ident for ident in paired.table_ids]
    formats = {given.name: corpus.format for given, corpus in zip(sets, corpora)}
    conversions = {given.name: corpus.conversion for given, corpus in zip(sets, corpora)}
    return Table(tuple(sets), paired.table_ids, present, items, unit, spans, doc_ids, paired.left_out, duplicates,
                 discontinuous, formats, conversions, paired.by_position, fragmented, places)


def restrict(spans: SpanArrays, keep: np.ndarray) -> SpanArrays:
    """The spans of the documents ``keep`` marks, on those documents renumbered from 0, under the types they use
    (a type marked only in documents left out is no type of the figures)."""
    new = np.cumsum(keep) - 1
    rows = keep[spans.sentence]
    used = np.unique(spans.label[rows])
    renumber = np.zeros(len(spans.labels), dtype=np.int64)
    renumber[used] = np.arange(len(used))
    return SpanArrays(new[spans.sentence[rows]], spans.start[rows], spans.end[rows], renumber[spans.label[rows]],
                      tuple(spans.labels[i] for i in used.tolist()), int(keep.sum()))


def _documents_in(folder: Path) -> set[str] | None:
    """The brat documents of a folder and its subfolders (their ids), None when it holds none."""
    try:
        return {document_id(ann, folder) for _, ann in ann_pairs(folder)}
    except ValueError:
        return None


def project_annotators(path: Any) -> dict[str, str] | None:
    """The annotators of a brat project laid out as bratiaa expects it, ``{folder name: folder}``, when ``path`` is
    such a project's root: a folder with no ``.ann`` file of its own whose folders (two or more) hold ``.ann``
    files, some document in two of them or more; else None."""
    if isinstance(path, Corpus) or not isinstance(path, (str, os.PathLike)) or not os.path.isdir(path):
        return None
    root = Path(path)
    if any(root.glob("*.ann")):
        return None
    found = {}
    for folder in sorted(root.iterdir()):
        if folder.is_dir() and not folder.name.startswith("."):
            documents = _documents_in(folder)
            if documents:
                found[folder.name] = documents
    shared = [ident for ident, seen in Counter(i for docs in found.values() for i in docs).items() if seen > 1]
    if len(found) < 2 or not shared:
        return None
    return {name: str(root / name) for name in found}


def _check_no_root(sets: Sequence[Named]) -> None:
    """Refuse a project root among several sets: its folders are the annotators."""
    for given in sets:
        inside = project_annotators(given.source)
        if inside is not None:
            raise ValueError(f"{given.role} {given.name} ({given.source}) is a brat project's root, one folder per "
                             f"annotator inside ({', '.join(inside)}); pass the annotators' folders, or the root "
                             "alone to compare all of them")


def named_sets(annotations: Any, reference: Any = None, models: Mapping[str, Source] | None = None) -> list[Named]:
    """The sets of a call: the annotators (a list, named ``A``, ``B``, ...; a dict of name to source; or a brat
    project's root, its folders named by their names), the reference when it is no annotator (a source named
    ``reference``, or a one-item dict), then the models.

    Raises:
        ValueError: fewer than two annotators, a name given twice or holding ``|``, models without a reference, a
            project's root among several sets.
        TypeError: annotations that are neither a list nor a dict, a name that is not a string.
    """
    root = project_annotators(annotations)
    sets = _annotators(annotations if root is None else root)
    _check_no_root(sets)
    if models is not None and not isinstance(models, Mapping):
        raise TypeError(f"models: expected a dict of name to a model's predictions, got {type(models).__name__}")
    names = [named.name for named in sets]
    if models and reference is None:
        raise ValueError("a model is compared with the reference: name the reference (an annotator, or a file) too")
    if reference is not None and not (isinstance(reference, str) and reference in names):
        sets.append(_reference_set(reference, names))
    sets += [Named(check_name(name, "models"), source, "model") for name, source in (models or {}).items()]
    seen: set[str] = set()
    for named in sets:
        if named.name in seen:
            raise ValueError(f"{named.role} {named.name}: the name is given twice; name each set once")
        seen.add(named.name)
    return sets


def _annotators(annotations: Any) -> list[Named]:
    """The annotators: a list, named ``A``, ``B``, ..., or a dict of name to source; two or more."""
    if isinstance(annotations, Mapping):
        pairs = [(check_name(name, "annotations"), source) for name, source in annotations.items()]
    elif isinstance(annotations, Sequence) and not isinstance(annotations, (str, bytes)):
        pairs = [(letters(k), source) for k, source in enumerate(annotations)]
    else:
        raise TypeError(f"annotations: expected a list of annotators' annotations or a dict of name to annotations, "
                        f"got {type(annotations).__name__}")
    if len(pairs) < 2:
        given = f" ({pairs[0][0]})" if pairs else ""
        raise ValueError(f"agreement needs two annotators or more, got {len(pairs)}{given}")
    return [Named(name, source) for name, source in pairs]


def _reference_set(reference: Any, names: Sequence[str]) -> Named:
    """A reference that is no annotator: a file or folder (named ``reference``), or a one-item dict of its name
    to its annotations."""
    if isinstance(reference, str) and not os.path.exists(reference):
        raise ValueError(f"reference {reference!r} is no annotator's name ({', '.join(names)}) and no file or "
                         "folder")
    if isinstance(reference, Mapping):
        if len(reference) != 1:
            raise ValueError(f"reference: give one set (a name and its annotations), got {len(reference)}")
        ((name, source),) = reference.items()
        return Named(check_name(name, "reference"), source, "reference")
    return Named("reference", reference, "reference")
