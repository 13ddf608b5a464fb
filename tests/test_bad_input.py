"""The catalogue of malformed input (issue 17): one table, every door it applies to.

Each row of :data:`CATALOGUE` is one malformed (or awkward but valid) input: its
kind, the input, the exception every Python door must raise and fragments its
message must hold, and for file rows the fragments of the CLI's one stderr line.
The row runs against every entry point of its kind that takes its options: the
core functions, the three evaluate modules (``compute`` and ``add_batch``, a real
``evaluate.load``), the CLI commands (exit 2, one stderr line naming file, line
and value, never a traceback), the file readers and the Trainer glue.

Python messages count sentences and tokens from 0; CLI messages from 1, with the
file and its line. Rows whose ``error`` is None are valid input that a door used
to mis-read: the door must give the result of the same data in a plain form
(``same_as``).
"""
from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import warnings
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import nested_span_f1
from nested_span_f1.align import score_text
from nested_span_f1.align.score import score_documents
from nested_span_f1.answers import read_answers, score_answers
from nested_span_f1.answers.score import UnreadableAnswersWarning
from nested_span_f1.benchmark import benchmark
from nested_span_f1.cli.main import main
from nested_span_f1.flat.pipeline import decode_pair
from nested_span_f1.formats import FORMATS, read_batches, read_corpus, read_dataset
from nested_span_f1.formats import columns as conll
from nested_span_f1.formats.columns import read_text
from nested_span_f1.formats.text import TextMismatchWarning
from nested_span_f1.lenient import score as lenient
from nested_span_f1.nested import score as nested
from nested_span_f1.thresholds import threshold_curve

evaluate = pytest.importorskip("evaluate")

LABELS = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC"]
"""The label list of the id rows."""
SCRAMBLED = [3, 0, 4, 1, 2]
"""An order of the label ids that is not theirs: the order of the mapping rows' dicts."""
TRAINER_FACTORIES = ("compute_metrics_for", "span_metrics_for", "layered_metrics_for")

BIG = 2**63
"""The least integer an int64 cannot hold."""


@dataclass(frozen=True)
class Bad:
    """One catalogue row.

    kind: ``tags``, ``ids`` (with ``label_list``), ``spans``, ``layers`` (pairs of
    sides); ``columns`` (gold and predicted column files), ``conlleval`` (stdin
    bytes), ``corpus`` (a span-format file), ``trainer`` (a compute_metrics factory,
    or a tuple of those the row runs through, its options, and an EvalPrediction's
    predictions and label_ids; both None: the factory must refuse its options);
    ``Corpus`` (the arguments of a Corpus), ``path`` (a file of a kind, ``columns`` or
    ``corpus``, given to its readers in another form than a str path), ``space`` (a
    Space request: text, upload, options); ``benchmark`` (a gold file, against one prediction file, with the row's options),
    ``checkpoints`` (a gold file and a run directory's files), ``outputs`` (a command
    line whose output is one of its inputs), ``tables`` (a command line on Parquet input, or with its options).
    """

    id: str
    kind: str
    data: Any
    error: type[Exception] | None
    match: tuple[str, ...] = ()
    side: str | None = None
    """The side the message must name (pair kinds); tags_to_spans is run on that side alone."""
    options: dict[str, Any] = field(default_factory=dict)
    cli: tuple[str, ...] = ()
    """Fragments of the CLI's stderr line (file rows)."""
    entries: tuple[str, ...] | None = None
    """Only these entry points (default: every one of the kind that takes the options)."""
    same_as: Any = None
    """Valid rows: the plain input whose result the door must give."""
    metric_match: tuple[str, ...] | None = None
    """Fragments for the evaluate modules where evaluate's own check rightly comes first (default: ``match``)."""
    metric_error: type[Exception] | None = None
    """The evaluate modules' exception where their feature sets change the rule (spans are dicts there)."""


def _span(start: Any, end: Any, label: Any = "PER", **extra: Any) -> dict[str, Any]:
    return {"start": start, "end": end, "label": label, **extra}


GOOD_SPANS = [[_span(0, 2), _span(0, 1, "LOC")], [_span(1, 2, "LOC")]]
GOOD_COLUMNS = b"EU B-ORG\nrejects O\nGerman B-MISC\ncall O\n\nPeter B-PER\nBlackburn I-PER\n"
GOOD_CONLLEVAL = b"EU NNP B-ORG B-ORG\nrejects VBZ O O\nGerman JJ B-MISC B-MISC\n\nPeter NNP B-PER B-PER\nBlackburn NNP I-PER O\n"
GOOD_ONEIE = (b'{"tokens": ["IL-2", "gene", "expression"], "entity_mentions": '
              b'[{"start": 0, "end": 2, "entity_type": "DNA"}, {"start": 0, "end": 1, "entity_type": "protein"}]}\n'
              b'{"tokens": ["NF-kappa", "B"], "entity_mentions": [{"start": 0, "end": 2, "entity_type": "protein"}]}\n')
BOM = b"\xef\xbb\xbf"
SPACE_JSON = json.dumps({"predictions": [["B-PER", "I-PER", "O"], ["B-LOC"]], "references": [["B-PER", "O", "O"], ["B-LOC"]]})
"""A valid request of every Space (tags, which all three metrics take), pasted as JSON."""
SPACE_BAD_CONLL = "a O O\nb O O\n\nc B-PER O\nd O PER"
"""CoNLL columns whose last prediction (sentence 2, token 2, line 5) has no prefix."""
EXAMPLES = {name: fmt.example().encode() for name, fmt in FORMATS.items()}
"""One sentence in each span format, as the format's writer writes it."""


def _line_of(text: bytes, word: bytes) -> int:
    """The 1-based line of the first ``word`` in ``text``."""
    return text[:text.index(word)].count(b"\n") + 1


def _ones(kind: str) -> Any:
    """Two well-formed sides of a kind (the second sentence of each side is the same)."""
    return {
        "tags": ([["B-PER", "I-PER", "O"], ["B-LOC"]], [["B-PER", "O", "O"], ["B-LOC"]]),
        "spans": (GOOD_SPANS, GOOD_SPANS),
    }[kind]


KEEP = object()
"""The default of :func:`tags` and :func:`ids`: leave that side as it is."""


def tags(pred_bad: Any = KEEP, ref_bad: Any = KEEP) -> tuple[Any, Any]:
    """The good tag pair with token 1 of sentence 0 replaced on one side."""
    pred, ref = ([list(s) for s in side] for side in _ones("tags"))
    if pred_bad is not KEEP:
        pred[0][1] = pred_bad
    if ref_bad is not KEEP:
        ref[0][1] = ref_bad
    return pred, ref


def spans(bad: Any, *, side: int = 0) -> tuple[Any, Any]:
    """The good span pair with the first span of sentence 0 replaced on one side (0 predictions, 1 references)."""
    pair = [[list(s) for s in GOOD_SPANS] for _ in range(2)]
    pair[side][0][0] = bad
    return pair[0], pair[1]


def ids(pred_bad: Any = KEEP, ref_bad: Any = KEEP) -> tuple[Any, Any]:
    """A good id pair (B-PER I-PER O / B-LOC) with token 1 of sentence 0 replaced on one side."""
    pred, ref = [[1, 2, 0], [3]], [[1, 2, 0], [3]]
    if pred_bad is not KEEP:
        pred[0][1] = pred_bad
    if ref_bad is not KEEP:
        ref[0][1] = ref_bad
    return pred, ref


def col(gold: bytes | None, pred: bytes = GOOD_COLUMNS) -> dict[str, bytes | None]:
    """A column-file row's two files (None: the file does not exist)."""
    return {"gold": gold, "pred": pred}


# issue 28: text spans
TEXT = "Peter Blackburn visited Paris"
GOOD_TEXT = {"text": TEXT, "entities": [{"start": 0, "end": 15, "label": "PER"}, {"start": 24, "end": 29, "label": "LOC"}]}


def texts_pair(entity: Any = None, *, text: str | None = None) -> tuple[Any, Any]:
    """Good documents with the predicted one's first entity (or its text) replaced."""
    predicted = {"text": text or TEXT, "entities": [entity, *GOOD_TEXT["entities"][1:]] if entity else
                 GOOD_TEXT["entities"]}
    return [predicted], [GOOD_TEXT]


def _text_line(document: Any) -> bytes:
    if isinstance(document, dict):
        return json.dumps(document).encode() + b"\n"
    ident, text, spans = document
    entities = [{"start": s, "end": e, "label": lab} for s, e, lab in spans]
    return json.dumps({"id": ident, "text": text, "entities": entities}).encode() + b"\n"


def text_files(pred: list[Any]) -> dict[str, bytes]:
    """A gold text-span file of two documents (d1, d2) and a prediction file of the documents given."""
    gold = [("d1", TEXT, [(0, 15, "PER"), (24, 29, "LOC")]), ("d2", "Ann", [(0, 3, "PER")])]
    return {"gold": b"".join(map(_text_line, gold)), "pred": b"".join(map(_text_line, pred))}


PAIRING = ("score_text", "cli score", "cli nested", "cli lenient")
"""The doors of rows about pairing the documents of two files (each file reads well on its own)."""


# issue 29: language models' answers
def answers_files(*lines: Any, gold: list[Any] | None = None) -> dict[str, bytes]:
    """The text-span gold of :func:`text_files` (d1, d2; or ``gold``) and an answer system's lines (dicts, or
    raw bytes for a line that is not json)."""
    golds = gold or [("d1", TEXT, [(0, 15, "PER"), (24, 29, "LOC")]), ("d2", "Ann", [(0, 3, "PER")])]
    pred = b"".join(line if isinstance(line, bytes) else json.dumps(line).encode() + b"\n" for line in lines)
    return {"gold": b"".join(map(_text_line, golds)), "pred": pred}


def answers_pair(entities: Any) -> tuple[Any, Any]:
    """Entity lists (or answers) of the predictions against the one good text document."""
    return [entities], [GOOD_TEXT]


ANSWERS_PAIRING = ("score_answers", "cli answers", "cli nested", "cli lenient")
"""The doors of rows of answers about pairing the answers with the gold (the file reads well on its own)."""



# issue 40: agreement between annotators
def annotator(*documents: Any) -> tuple[str, bytes]:
    """An annotator's text-span file: ``(id, text, spans)`` documents."""
    return "ann.jsonl", b"".join(map(_text_line, documents))


def brat_annotator(*documents: Any) -> tuple[str, dict[str, bytes]]:
    """An annotator's brat folder: ``(id, text, spans)`` documents as .txt and .ann pairs."""
    files: dict[str, bytes] = {}
    for ident, text, spans in documents:
        files[f"{ident}.txt"] = text.encode()
        files[f"{ident}.ann"] = "".join(f"T{k}\t{lab} {s} {e}\t{text[s:e]}\n"
                                        for k, (s, e, lab) in enumerate(spans, 1)).encode()
    return "brat", files


def conll_annotator(*sentences: Any) -> tuple[str, bytes]:
    """An annotator's CoNLL file: ``(tokens, tags)`` sentences."""
    return "ann.conll", "\n".join("".join(f"{t} {g}\n" for t, g in zip(tokens, tags))
                                  for tokens, tags in sentences).encode()


DOC1 = ("d1", TEXT, [(0, 15, "PER"), (24, 29, "LOC")])
DOC2 = ("d2", "Ann", [(0, 3, "PER")])
ONE_AGREEMENT = {"A": annotator(DOC1, DOC2), "B": annotator(("d1", TEXT, [(0, 5, "PER"), (24, 29, "LOC")]), DOC2)}
"""Two annotators of two documents who disagree on one boundary."""


ID = {"label_list": LABELS}
VALID_IDS = ("score_exact", "count_exact", "decode_pair", "score_lenient", "count_lenient", "exact.compute",
             "exact.add_batch")
"""Where ids must give the result of the same tags: the core (another input form) and the span_f1 module."""
METRIC_DOORS = tuple(f"{m}.{call}" for m in ("exact", "lenient", "nested") for call in ("compute", "add_batch"))
"""The evaluate modules: valid rows of tags or spans check them against the core."""

# issue 39: scored predictions
def scored(*items: Any) -> tuple[Any, Any]:
    """Scored predictions of one sentence (span dicts with a score, or without one) against the good spans."""
    return [list(items), []], [list(GOOD_SPANS[0]), []]


def _mention(start: int, end: int, label: str, **score: Any) -> dict[str, Any]:
    return {"start": start, "end": end, "entity_type": label, **score}


def scored_files(*mentions: Any, dev: bool = False, gold: bytes = GOOD_ONEIE) -> dict[str, Any]:
    """A OneIE gold (the good file) and predictions of its two sentences, the first with the mentions given; with
    ``dev``, the same pair again as development files."""
    tokens = [["IL-2", "gene", "expression"], ["NF-kappa", "B"]]
    lines = [{"tokens": tokens[0], "entity_mentions": list(mentions)},
             {"tokens": tokens[1], "entity_mentions": [_mention(0, 2, "protein", score=0.8)]}]
    pred = "".join(json.dumps(line) + "\n" for line in lines).encode()
    return {"gold": gold, "pred": pred, **({"dev_gold": gold, "dev_pred": pred} if dev else {})}


SCORED_FILES = ("read_corpus", "cli thresholds")
"""The doors of a scored prediction file: read alone, and the thresholds command against the gold."""

# issue 26: commands and benchmark (what the rows of that block use)

@dataclass(frozen=True)
class Plain:
    """A valid file row's plain form when it is read with other options than the row's."""

    data: Any
    options: dict[str, Any]


BENCHMARK_FLAGS = {"n_resamples": "--bootstrap", "n_permutations": "--permutations", "seed": "--seed",
                   "confidence": "--confidence", "alpha": "--alpha", "units_by": "--units", "comparisons": "--compare",
                   "baseline": "--baseline"}
"""The benchmark command's option for each keyword of ``benchmark()``."""
WEIGHTS = b"\x00\x08\x00\x00\x00\x00\x00\x00{}"
"""A model file's first bytes (safetensors: a little-endian header length, then json)."""


CATALOGUE: list[Bad] = [
    # ---------------------------------------------------------------- tag sequences: shape
    Bad("tags-more-predicted-sentences", "tags", ([["O"], ["O"]], [["O"]]), ValueError,
        ("2 predicted sentences but 1 reference sentence; they must align sentence by sentence",)),
    Bad("tags-fewer-predicted-sentences", "tags", ([["O"]], [["O"], ["O"]]), ValueError,
        ("1 predicted sentence but 2 reference sentences",)),
    Bad("tags-sentence-lengths", "tags", ([["O"], ["O", "O"]], [["O"], ["O"]]), ValueError,
        ("sentence 1: 2 predicted tags but 1 reference tags; they must align token by token",)),
    Bad("tags-empty-predictions-only", "tags", ([], [["O"]]), ValueError, ("0 predicted sentences but 1",)),
    Bad("tags-predictions-none", "tags", (None, [["O"]]), TypeError, ("list of sentences", "None"),
        side="predictions"),
    Bad("tags-references-none", "tags", ([["O"]], None), TypeError, ("list of sentences", "None"),
        side="references"),
    Bad("tags-predictions-string", "tags", ("B-PER O", [["B-PER", "O"]]), TypeError, ("list of sentences", "str"),
        side="predictions"),
    Bad("tags-predictions-flat-token-list", "tags", (["B-PER", "O"], [["B-PER"], ["O"]]), TypeError,
        ("sentence 0", "list of tags", "'B-PER'"), side="predictions"),
    Bad("tags-references-sentence-string", "tags", ([["O"], ["O", "O"]], [["O"], "O O"]), TypeError,
        ("sentence 1", "list of tags", "'O O'"), side="references"),
    Bad("tags-sentence-none", "tags", ([["O"], None], [["O"], ["O"]]), TypeError,
        ("sentence 1", "list of tags", "None"), side="predictions"),
    Bad("tags-predictions-dict", "tags", ({"a": ["O"]}, [["O"]]), TypeError, ("list of",), side="predictions"),
    Bad("tags-predictions-int", "tags", (5, [["O"]]), TypeError, ("list of sentences", "int"), side="predictions"),
    # ---------------------------------------------------------------- tag sequences: tags
    Bad("tag-trailing-space", "tags", tags("I-PER "), ValueError, ("sentence 0, token 1", "'I-PER '"),
        side="predictions"),
    Bad("tag-space-inside", "tags", tags("I-P ER"), ValueError, ("sentence 0, token 1", "'I-P ER'"),
        side="predictions"),
    Bad("tag-leading-space", "tags", tags(ref_bad=" O"), ValueError, ("sentence 0, token 1", "' O'"),
        side="references"),
    Bad("tag-tab", "tags", tags("I-PER\t"), ValueError, ("sentence 0, token 1", "'I-PER\\t'"), side="predictions"),
    Bad("tag-newline", "tags", tags(ref_bad="O\n"), ValueError, ("sentence 0, token 1", "'O\\n'"),
        side="references"),
    Bad("tag-no-break-space", "tags", tags("I-PER\u00a0"), ValueError, ("sentence 0, token 1", "I-PER"),
        side="predictions"),
    Bad("tag-no-prefix", "tags", tags("PER"), ValueError, ("sentence 0, token 1: tag 'PER': malformed: no valid prefix",),
        side="predictions"),
    Bad("tag-string-minus-100", "tags", tags(ref_bad="-100"), ValueError,
        ("sentence 0, token 1: tag '-100': malformed: no valid prefix",), side="references"),
    Bad("tag-empty-type", "tags", tags("B-"), ValueError, ("sentence 0, token 1: tag 'B-': malformed: an empty type",),
        side="predictions"),
    Bad("tag-lower-case-prefix", "tags", tags("i-PER"), ValueError,
        ("sentence 0, token 1: tag 'i-PER': malformed: no valid prefix",), side="predictions"),
    Bad("tag-unknown-prefix", "tags", tags(ref_bad="X-PER"), ValueError,
        ("sentence 0, token 1: tag 'X-PER': malformed: no valid prefix",), side="references"),
    Bad("tag-empty-string", "tags", tags(""), ValueError, ("sentence 0, token 1: tag '': malformed: an empty tag",),
        side="predictions"),
    Bad("tag-typed-O", "tags", tags("O-PER"), ValueError,
        ("sentence 0, token 1: tag 'O-PER': malformed: O takes no type",), side="predictions"),
    Bad("tag-type-ends-with-dash", "tags", tags("I-PER-"), ValueError,
        ("sentence 0, token 1: tag 'I-PER-': malformed: a type that begins or ends with '-'",), side="predictions"),
    Bad("tag-type-begins-with-dash", "tags", tags(ref_bad="B--PER"), ValueError,
        ("sentence 0, token 1: tag 'B--PER': malformed: a type that begins or ends with '-'",), side="references"),
    Bad("tag-underscore-separator", "tags", tags("I_PER"), ValueError, ("sentence 0, token 1", "'I_PER'"),
        side="predictions"),
    Bad("tag-none-in-predictions", "tags", tags(None),
        TypeError, ("sentence 0, token 1", "None"), side="predictions"),
    Bad("tag-none-in-references", "tags", (_ones("tags")[0], [["B-PER", "O", "O"], [None]]), TypeError,
        ("sentence 1, token 0", "None"), side="references"),
    Bad("tag-int-without-label-list", "tags", ([[1, 2, 0]], [[1, 2, 0]]), TypeError,
        ("sentence 0, token 0", "label_list"), side="predictions",
        metric_match=("label",)),  # the modules see that the whole input is ids: span_f1 asks for label_list
    Bad("tag-bytes", "tags", tags(b"I-PER"), TypeError, ("sentence 0, token 1", "b'I-PER'"), side="predictions"),
    Bad("tag-list-inside-sentence", "tags", tags(["I-PER"]), TypeError, ("sentence 0, token 1", "['I-PER']"),
        side="predictions", entries=("score_exact", "count_exact", "decode_pair", "tags_to_spans", "score_lenient",
                                     "count_lenient", "exact.compute", "exact.add_batch")),
    Bad("tag-float", "tags", tags(1.5), TypeError, ("sentence 0, token 1", "1.5"), side="predictions"),
    Bad("tag-suffix-but-prefix-tags", "tags", _ones("tags"), ValueError, ("sentence 0, token 0", "'B-PER'"),
        side="predictions", options={"suffix": True}),
    # ---------------------------------------------------------------- options
    Bad("option-mode-unknown", "tags", _ones("tags"), ValueError, ("mode", "or \"strict\", got 'lenient'"),
        options={"mode": "lenient"}),
    Bad("option-scheme-unknown", "tags", _ones("tags"), ValueError, ("unknown scheme 'IOB3'; choose one of IO, IOB1, IOB2",),
        options={"scheme": "IOB3"}),
    Bad("option-strict-prefix-outside-scheme", "tags", tags("S-PER"), ValueError,
        ("sentence 0, token 1", "'S-PER'", "IOB2"), side="predictions", options={"scheme": "IOB2", "mode": "strict"}),
    Bad("option-zero-division-2", "tags", _ones("tags"), ValueError, ("zero_division must be \"warn\", 0 or 1, got 2",),
        options={"zero_division": 2}),
    Bad("option-partial-weight-2", "spans", _ones("spans"), ValueError, ("partial_weight",),
        options={"partial_weight": 2}),
    Bad("option-min-iou-negative", "spans", _ones("spans"), ValueError, ("min_iou",), options={"min_iou": -0.1}),
    Bad("option-scheme-with-spans", "spans", _ones("spans"), ValueError, ("scheme",), options={"scheme": "IOB2"},
        entries=("score_lenient", "count_lenient", "lenient.compute", "lenient.add_batch")),
    # ---------------------------------------------------------------- label ids
    Bad("id-outside-label-list", "ids", ids(5), ValueError,
        ("sentence 0, token 1: label id 5 is outside label_list (ids 0..4",), side="predictions", options=ID),
    Bad("id-negative", "ids", ids(ref_bad=-1), ValueError, ("sentence 0, token 1", "label id -1"),
        side="references", options=ID),
    Bad("id-minus-100-in-predictions", "ids", ids(-100), ValueError, ("sentence 0, token 1", "label id -100"),
        side="predictions", options=ID),
    Bad("id-float", "ids", ids(1.7), TypeError, ("sentence 0, token 1", "1.7"), side="predictions", options=ID),
    Bad("id-integral-float", "ids", ids(ref_bad=2.0), TypeError, ("sentence 0, token 1", "2.0"),
        side="references", options=ID),
    Bad("id-bool", "ids", ids(True), TypeError, ("sentence 0, token 1", "True"), side="predictions", options=ID),
    Bad("id-string", "ids", ids("2"), TypeError, ("sentence 0, token 1", "'2'"), side="predictions", options=ID),
    Bad("id-none", "ids", ids(ref_bad=None), TypeError,
        ("sentence 0, token 1", "None"), side="references", options=ID),
    Bad("id-beyond-int64", "ids", ids(BIG), ValueError, ("sentence 0, token 1", str(BIG)), side="predictions",
        options=ID),
    Bad("id-below-int64", "ids", ids(ref_bad=-(2**64)), ValueError, ("sentence 0, token 1", str(-(2**64))),
        side="references", options=ID),
    Bad("id-sentence-lengths", "ids", ([[1, 2], [3]], [[1, 2, 0], [3]]), ValueError,
        ("sentence 0: 2 predicted tags but 3 reference tags",), options=ID),
    Bad("id-sentence-string", "ids", ([[1, 2, 0], "3"], [[1, 2, 0], [3]]), TypeError, ("sentence 1", "'3'"),
        side="predictions", options=ID),
    Bad("id-predictions-none", "ids", (None, [[1, 2, 0]]), TypeError, ("list of sentences", "None"),
        side="predictions", options=ID),
    Bad("id-label-list-not-strings", "ids", ids(), TypeError, ("label_list",),
        options={"label_list": ["O", "B-PER", "I-PER", None, "I-LOC"]}),
    Bad("id-label-list-malformed-tag", "ids", ids(), ValueError, ("sentence 1, token 0", "'LOC'"),
        side="predictions", options={"label_list": ["O", "B-PER", "I-PER", "LOC", "I-LOC"]}),
    Bad("id-label-list-whitespace-tag", "ids", ids(), ValueError, ("sentence 1, token 0", "'B-LOC '"),
        side="predictions", options={"label_list": ["O", "B-PER", "I-PER", "B-LOC ", "I-LOC"]}),
    Bad("id-float-array", "ids", (np.array([[1.7, 2.0]]), np.array([[1, 2]])), TypeError, ("integers", "float"),
        side="predictions", options=ID, metric_match=("sentence 0, token 0", "1.7", "label id (integer)")),
    Bad("id-arrays-of-two-shapes", "ids", (np.array([[1, 2, 0]]), np.array([[1, 2]])), ValueError,
        ("(1, 3)", "(1, 2)"), options=ID, metric_match=("sentence 0: 3 predicted tags but 2 reference tags",)),
    Bad("id-one-dimensional-array", "ids", (np.array([1, 2]), np.array([1, 2])), ValueError, ("2-D",), options=ID),
    # ---------------------------------------------------------------- span lists
    Bad("span-missing-label", "spans", spans({"start": 0, "end": 2}), ValueError,
        ("sentence 0", "{'start': 0, 'end': 2}", "label"), side="predictions"),
    Bad("span-missing-end", "spans", spans({"start": 0, "label": "PER"}, side=1), ValueError,
        ("sentence 0", "'start': 0", "end"), side="references"),
    # the nested module takes scored spans (issue 39): there the other spans of the sentence lack their score
    Bad("span-extra-key", "spans", spans(_span(0, 2, score=0.9)), ValueError, ("sentence 0", "'score'"),
        side="predictions", metric_match=("sentence 0", "score")),
    Bad("span-misspelt-key", "spans", spans({"start": 0, "stop": 2, "label": "PER"}), ValueError,
        ("sentence 0", "'stop'"), side="predictions"),
    Bad("span-start-half", "spans", spans(_span(0.5, 2)), TypeError, ("sentence 0", "0.5"), side="predictions"),
    Bad("span-start-true", "spans", spans(_span(True, 2), side=1), TypeError, ("sentence 0", "True"),
        side="references"),
    Bad("span-start-string", "spans", spans(_span("0", 2)), TypeError, ("sentence 0", "'0'"), side="predictions"),
    Bad("span-end-integral-float", "spans", spans(_span(0, 2.0)), TypeError, ("sentence 0", "2.0"),
        side="predictions"),
    Bad("span-end-none", "spans", spans(_span(0, None)), TypeError, ("sentence 0", "None"), side="predictions"),
    Bad("span-label-none", "spans", spans(_span(0, 2, None)), TypeError, ("sentence 0", "label"),
        side="predictions"),
    Bad("span-label-empty", "spans", spans(_span(0, 2, ""), side=1), TypeError, ("sentence 0", "label"),
        side="references"),
    Bad("span-label-int", "spans", spans(_span(0, 2, 3)), TypeError, ("sentence 0", "label"), side="predictions"),
    Bad("span-empty", "spans", spans(_span(1, 1)), ValueError, ("sentence 0", "0 <= start < end"),
        side="predictions"),
    Bad("span-reversed", "spans", spans(_span(2, 1), side=1), ValueError, ("sentence 0", "0 <= start < end"),
        side="references"),
    Bad("span-negative-start", "spans", spans(_span(-1, 1)), ValueError, ("sentence 0", "-1"), side="predictions"),
    Bad("span-end-beyond-int64", "spans", spans(_span(0, BIG)), ValueError, ("sentence 0", str(BIG)),
        side="predictions"),
    Bad("span-end-beyond-sentence", "spans", spans(_span(0, 3)), ValueError, ("sentence 0", "end <= 2"),
        side="predictions", options={"lengths": [2, 2]}),
    Bad("span-pair-tuple", "spans", spans((0, 2)), ValueError, ("sentence 0", "(0, 2)"), side="predictions",
        metric_error=TypeError),
    Bad("span-as-string", "spans", spans("0,2,PER"), TypeError, ("sentence 0", "'0,2,PER'"), side="predictions"),
    Bad("span-sentence-none", "spans", ([GOOD_SPANS[0], None], GOOD_SPANS), TypeError, ("sentence 1", "None"),
        side="predictions"),
    Bad("span-sentence-string", "spans", (GOOD_SPANS, [GOOD_SPANS[0], "0,1 LOC"]), TypeError,
        ("sentence 1", "'0,1 LOC'"), side="references"),
    Bad("span-sentence-counts", "spans", (GOOD_SPANS, GOOD_SPANS[:1]), ValueError,
        ("2 predicted sentences but 1 reference sentence",)),
    Bad("span-predictions-none", "spans", (None, GOOD_SPANS), TypeError, ("list",), side="predictions"),
    Bad("span-fragments-overlap", "spans", spans({"fragments": [[0, 2], [1, 2]], "label": "PER"}), ValueError,
        ("sentence 0", "overlap"), side="predictions", metric_match=("sentence 0", "'fragments'"),
        entries=("score_nested", "count_nested", "nested.compute", "nested.add_batch")),
    Bad("span-fragment-float", "spans", spans({"fragments": [[0, 0.5]], "label": "PER"}), TypeError,
        ("sentence 0", "0.5"), side="predictions", metric_error=ValueError, metric_match=("sentence 0", "'fragments'"),
        entries=("score_nested", "count_nested", "nested.compute", "nested.add_batch")),
    Bad("layers-tag-whitespace", "layers", ([[["B-PER", "I-PER "]]], [[["B-PER", "I-PER"]]]), ValueError,
        ("'I-PER '",), side="predictions"),
    Bad("layers-none-layer", "layers", ([[["B-PER", "I-PER"], None]], [[["B-PER", "I-PER"]]]), TypeError,
        ("sentence 0", "None"), side="predictions"),
    # ---------------------------------------------------------------- valid input a door used to mis-read
    Bad("valid-ids-empty-first-sentence", "ids", ([[], [1, 2, 0], [3, 4]], [[], [1, 2, 0], [3, 0]]), None,
        options={**ID, "zero_division": 0}, same_as=([[], ["B-PER", "I-PER", "O"], ["B-LOC", "I-LOC"]],
                                                    [[], ["B-PER", "I-PER", "O"], ["B-LOC", "O"]]),
        entries=VALID_IDS),
    Bad("valid-ids-first-sentence-all-ignored", "ids", ([[0, 1], [1, 2, 0]], [[-100, -100], [1, 2, 0]]), None,
        options={**ID, "zero_division": 0}, same_as=([[], ["B-PER", "I-PER", "O"]], [[], ["B-PER", "I-PER", "O"]]),
        entries=VALID_IDS),
    Bad("valid-tags-empty-first-sentence", "tags", ([[], ["B-PER", "I-PER"]], [[], ["B-PER", "O"]]), None,
        options={"zero_division": 0}, same_as=([[], ["B-PER", "I-PER"]], [[], ["B-PER", "O"]]), entries=METRIC_DOORS),
    Bad("valid-spans-empty-first-sentence", "spans", ([[], GOOD_SPANS[0]], [[], GOOD_SPANS[1]]), None,
        options={"zero_division": 0}, same_as=([[], GOOD_SPANS[0]], [[], GOOD_SPANS[1]]), entries=METRIC_DOORS),
    Bad("valid-tags-all-O-first-sentence", "tags", ([["O", "O"], ["B-PER"]], [["O", "O"], ["B-LOC"]]), None,
        options={"zero_division": 0}, same_as=([["O", "O"], ["B-PER"]], [["O", "O"], ["B-LOC"]]),
        entries=METRIC_DOORS),
    Bad("valid-tags-empty", "tags", ([], []), None, options={"zero_division": 0}, same_as=([], []),
        entries=METRIC_DOORS),
    Bad("valid-spans-empty", "spans", ([], []), None, options={"zero_division": 0}, same_as=([], []),
        entries=METRIC_DOORS),
    # ---------------------------------------------------------------- column files (score, lenient, read_columns)
    Bad("columns-token-count-differs", "columns", col(GOOD_COLUMNS, pred=GOOD_COLUMNS.replace(b"Blackburn I-PER\n", b"")),
        None, cli=("pred.conll", "line 6", "2 gold tokens but 1 predicted")),
    Bad("columns-token-differs", "columns", col(GOOD_COLUMNS, pred=GOOD_COLUMNS.replace(b"German", b"French")),
        None, cli=("pred.conll", "line 3", "'French'")),
    Bad("columns-width-differs", "columns", col(GOOD_COLUMNS.replace(b"call O", b"call VB O")), ValueError,
        ("gold.conll", "line 4", "3 columns"), cli=("gold.conll", "line 4", "3 columns")),
    Bad("columns-undecodable-byte", "columns", col(GOOD_COLUMNS.replace(b"German", b"Germ\xe4n")), ValueError,
        ("gold.conll", "line 3"), cli=("gold.conll", "line 3")),
    Bad("columns-malformed-tag", "columns", col(GOOD_COLUMNS, pred=GOOD_COLUMNS.replace(b"call O", b"call MISC")),
        None, cli=("pred.conll", "line 4", "'MISC'")),
    Bad("columns-strict-prefix-outside-scheme", "columns",
        col(GOOD_COLUMNS, pred=GOOD_COLUMNS.replace(b"EU B-ORG", b"EU S-ORG")), None,
        options={"scheme": "IOB2", "mode": "strict"}, cli=("pred.conll", "line 1", "'S-ORG'")),
    Bad("columns-tab-tag-with-space", "columns",
        col(GOOD_COLUMNS.replace(b" ", b"\t"), pred=GOOD_COLUMNS.replace(b" ", b"\t").replace(b"\tO\n", b"\tO \n", 1)),
        None, options={"delimiter": "\t"}, cli=("pred.conll", "line 2", "'O '")),
    Bad("columns-empty-delimiter", "columns", col(GOOD_COLUMNS), ValueError, ("delimiter",),
        options={"delimiter": ""}, cli=("delimiter",)),
    Bad("columns-column-beyond-width", "columns", col(GOOD_COLUMNS), None, options={"column": "5"},
        cli=(".conll", "--column 5", "line 1")),
    Bad("columns-empty-gold", "columns", col(b""), None, cli=("gold.conll", "0 sentences", "pred.conll")),
    Bad("columns-gold-missing", "columns", col(None), FileNotFoundError, ("gold.conll",), cli=("gold.conll",)),
    Bad("columns-bom", "columns", col(BOM + GOOD_COLUMNS), None, same_as=col(GOOD_COLUMNS)),
    Bad("columns-crlf", "columns", col(GOOD_COLUMNS.replace(b"\n", b"\r\n")), None, same_as=col(GOOD_COLUMNS)),
    # ---------------------------------------------------------------- conlleval (stdin)
    Bad("conlleval-one-field", "conlleval", GOOD_CONLLEVAL.replace(b"rejects VBZ O O", b"rejects"), None,
        cli=("<stdin>", "line 2", "'rejects'")),
    Bad("conlleval-field-count-differs", "conlleval", GOOD_CONLLEVAL.replace(b"rejects VBZ O O", b"rejects O O"),
        None, cli=("<stdin>", "line 2")),
    Bad("conlleval-malformed-tag", "conlleval", GOOD_CONLLEVAL.replace(b"German JJ B-MISC B-MISC",
                                                                        b"German JJ B-MISC MISC"),
        None, cli=("<stdin>", "line 3", "'MISC'")),
    Bad("conlleval-tag-with-tab", "conlleval", GOOD_CONLLEVAL.replace(b"rejects VBZ O O", b"rejects VBZ O O\t"),
        None, cli=("<stdin>", "line 2", "'O\\t'")),
    Bad("conlleval-bad-delimiter-regex", "conlleval", GOOD_CONLLEVAL, None, options={"-d": "("},
        cli=("-d", "'('")),
    Bad("conlleval-undecodable-token", "conlleval", GOOD_CONLLEVAL.replace(b"German", b"Germ\xe4n"), None,
        same_as=GOOD_CONLLEVAL),
    Bad("conlleval-bom", "conlleval", BOM + GOOD_CONLLEVAL, None, same_as=GOOD_CONLLEVAL),
    Bad("conlleval-crlf-blank-line", "conlleval", GOOD_CONLLEVAL.replace(b"\n", b"\r\n"), None,
        cli=("<stdin>", "line")),
    # ---------------------------------------------------------------- span-format files (read_corpus, nested, lenient)
    Bad("oneie-tokens-string", "corpus", ("oneie", b'{"tokens": "IL-2 gene", "entity_mentions": []}\n'), TypeError,
        ("gold.json", "line 1", "tokens"), cli=("gold.json", "line 1", "tokens")),
    Bad("oneie-invalid-json-line-2", "corpus", ("oneie", GOOD_ONEIE.replace(b'"B"]', b'"B"')), ValueError,
        ("gold.json", "line 2", "json"), cli=("gold.json", "line 2", "json")),
    Bad("oneie-missing-mentions", "corpus", ("oneie", b'{"tokens": ["a"]}\n'), ValueError,
        ("gold.json", "line 1", "'entity_mentions'"), cli=("gold.json", "line 1", "'entity_mentions'")),
    Bad("oneie-end-beyond-sentence", "corpus", ("oneie", GOOD_ONEIE.replace(b'"end": 2, "entity_type": "DNA"',
                                                                            b'"end": 5, "entity_type": "DNA"')),
        ValueError, ("gold.json", "(0, 5, 'DNA')"), cli=("gold.json", "line 1", "(0, 5, 'DNA')")),
    Bad("oneie-start-half", "corpus", ("oneie", GOOD_ONEIE.replace(b'"start": 0, "end": 1', b'"start": 0.5, "end": 1')),
        TypeError, ("gold.json", "0.5"), cli=("gold.json", "line 1", "0.5")),
    Bad("oneie-start-true", "corpus", ("oneie", GOOD_ONEIE.replace(b'"start": 0, "end": 1', b'"start": true, "end": 1')),
        TypeError, ("gold.json", "True"), cli=("gold.json", "line 1", "True")),
    Bad("oneie-start-string", "corpus", ("oneie", GOOD_ONEIE.replace(b'"start": 0, "end": 1', b'"start": "0", "end": 1')),
        TypeError, ("gold.json", "'0'"), cli=("gold.json", "line 1", "'0'")),
    Bad("oneie-undecodable-line-2", "corpus", ("oneie", GOOD_ONEIE.replace(b"kappa", b"k\xe4ppa")), ValueError,
        ("gold.json", "line 2"), cli=("gold.json", "line 2")),
    Bad("oneie-bom-detected", "corpus", (None, BOM + GOOD_ONEIE), None, same_as=("oneie", GOOD_ONEIE)),
    Bad("json-nested-too-deep", "corpus", (None, b"[" * 100_000 + b"]" * 100_000), ValueError,
        ("gold.json", "deep"), cli=("gold.json", "deep")),
    Bad("triaffine-nested-too-deep", "corpus", ("triaffine", b"[" * 100_000 + b"]" * 100_000), ValueError,
        ("gold.json", "deep"), cli=("gold.json", "deep")),
    Bad("triaffine-not-a-list", "corpus", ("triaffine", b'{"tokens": ["a"], "entities": []}'), TypeError,
        ("gold.json", "list"), cli=("gold.json", "list")),
    Bad("triaffine-tokens-string", "corpus", ("triaffine", b'[{"tokens": "IL-2 gene", "entities": []}]'), TypeError,
        ("gold.json", "item 1", "tokens"), cli=("gold.json", "tokens")),
    Bad("pyramid-span-of-three", "corpus", ("pyramid", b'[{"tokens": ["a", "b"], "entities": '
                                                      b'[{"entity_type": "X", "span": [0, 1, 2]}]}]'),
        ValueError, ("gold.json", "[0, 1, 2]"), cli=("gold.json", "[0, 1, 2]")),
    Bad("biaffine-end-float", "corpus", ("biaffine", b'{"doc_key": "d", "sentences": [["a", "b"]], '
                                                    b'"ners": [[[0, 1.5, "X"]]]}\n'),
        TypeError, ("gold.json", "line 1", "1.5"), cli=("gold.json", "line 1", "1.5")),
    Bad("biaffine-sentence-count", "corpus", ("biaffine", b'{"doc_key": "d", "sentences": [["a"], ["b"]], '
                                                         b'"ners": [[]]}\n'),
        ValueError, ("gold.json", "line 1", "2 sentences but 1"), cli=("gold.json", "line 1", "2 sentences but 1")),
    Bad("w2ner-index-float", "corpus", ("w2ner", b'[{"sentence": ["a", "b"], "ner": [{"index": [0.5], "type": "X"}]}]'),
        TypeError, ("gold.json", "0.5"), cli=("gold.json", "0.5")),
    Bad("w2ner-empty-index", "corpus", ("w2ner", b'[{"sentence": ["a", "b"], "ner": [{"index": [], "type": "X"}]}]'),
        ValueError, ("gold.json", "index list"), cli=("gold.json", "index list")),
    Bad("shibuya-bad-annotation", "corpus", ("shibuya", b"IL-2 gene\n0-2 G#DNA\n\n"), ValueError,
        ("gold.json", "line 2", "'0-2 G#DNA'"), cli=("gold.json", "line 2", "'0-2 G#DNA'")),
    Bad("lu-roth-pos-count", "corpus", ("lu_roth", b"IL-2 gene\nNN\n0,2 G#DNA\n\n"), ValueError,
        ("gold.json", "line 2", "1 POS tags for 2 tokens"), cli=("gold.json", "line 2", "1 POS tags for 2 tokens")),
    # every format: a byte-order mark is skipped; an undecodable byte is named by file and line
    *(Bad(f"{name}-bom", "corpus", (name, BOM + EXAMPLES[name]), None, same_as=(name, EXAMPLES[name]))
      for name in FORMATS),
    *(Bad(f"{name}-undecodable-byte", "corpus", (name, EXAMPLES[name].replace(b"gene", b"g\xe4ne", 1)), ValueError,
          ("gold.json", f"line {_line_of(EXAMPLES[name], b'gene')}"),
          cli=("gold.json", f"line {_line_of(EXAMPLES[name], b'gene')}"))
      for name in FORMATS),
    # ---------------------------------------------------------------- Trainer glue
    Bad("trainer-id-outside-label-list", "trainer",
        ("compute_metrics_for", {"label_list": LABELS}, np.array([[1, 7, 0]]), np.array([[1, 2, -100]])),
        ValueError, ("sentence 0, token 1", "label id 7", "label_list"), side="predictions"),
    Bad("trainer-float-ids", "trainer",
        ("compute_metrics_for", {"label_list": LABELS}, np.array([[1.7, 2.0]]), np.array([[1, 2]])),
        TypeError, ("integers", "float"), side="predictions"),
    Bad("trainer-shapes-differ", "trainer",
        ("compute_metrics_for", {"label_list": LABELS}, np.array([[1, 2, 0]]), np.array([[1, 2]])),
        ValueError, ("(1, 3)", "(1, 2)")),
    Bad("trainer-logits-wider-than-label-list", "trainer",
        ("compute_metrics_for", {"label_list": LABELS[:3]}, np.eye(5)[[[1, 4]]], np.array([[1, 2]])),
        ValueError, ("sentence 0, token 1", "label id 4", "label_list"), side="predictions"),
    # issue 26: refused when built, not at the first evaluation after eval_steps of training
    Bad("trainer-malformed-label", "trainer",
        (("compute_metrics_for", "layered_metrics_for"), {"label_list": ["O", "PER"]}, None, None),
        ValueError, ("label_list", "label id 1", "'PER'", "malformed")),
    Bad("trainer-label-ids-none", "trainer",
        (TRAINER_FACTORIES, {"label_list": LABELS}, np.array([[1, 0]]), None), TypeError, ("label_ids is None",)),
    Bad("trainer-span-label-ids-not-tuple", "trainer",
        ("span_metrics_for", {"label_list": ["O", "PER"]}, np.array([[1]]), np.array([[1]])), ValueError,
        ("label_ids must be (labels, starts, ends",)),
    Bad("trainer-span-empty-candidate", "trainer",
        ("span_metrics_for", {"label_list": ["O", "PER"]}, np.array([[1, 0]]),
         (np.array([[1, 0]]), np.array([[2, 0]]), np.array([[2, 1]]))),
        ValueError, ("sentence 0", "start 2, end 2"), side="predictions"),
    Bad("trainer-span-float-starts", "trainer",
        ("span_metrics_for", {"label_list": ["O", "PER"]}, np.array([[1, 0]]),
         (np.array([[1, 0]]), np.array([[0.5, 0.0]]), np.array([[2, 1]]))),
        TypeError, ("0.5",)),
    Bad("trainer-span-gold-rows-shape", "trainer",
        ("span_metrics_for", {"label_list": ["O", "PER"]}, np.array([[1]]),
         (np.array([[1]]), np.array([[0]]), np.array([[1]]), np.array([[0, 1]]))),
        ValueError, ("gold_spans must have shape",)),
    Bad("trainer-span-none-label-outside", "trainer",
        ("span_metrics_for", {"label_list": ["O", "PER"], "none_label": 2}, None, None), ValueError,
        ("none_label 2",)),
    Bad("trainer-layered-shapes", "trainer",
        ("layered_metrics_for", {"label_list": LABELS}, np.zeros((1, 3, 2), dtype=int), np.zeros((1, 3), dtype=int)),
        ValueError, ("[batch, tokens, layers]",)),
    Bad("trainer-layered-skips-differ", "trainer",
        ("layered_metrics_for", {"label_list": LABELS}, np.zeros((1, 2, 2), dtype=int),
         np.array([[[1, 0], [-100, 0]]])),
        ValueError, ("sentence 0, token 1", "layer 0 skips")),
    Bad("trainer-layered-id-outside", "trainer",
        ("layered_metrics_for", {"label_list": LABELS}, np.array([[[9, 0], [0, 0]]]), np.zeros((1, 2, 2), dtype=int)),
        ValueError, ("label id 9", "label_list")),
    # issue 26: Trainer glue
    # label_list as a model's id2label or label2id: read in id order, in every door that takes one
    Bad("valid-ids-label2id-out-of-order", "ids", ids(), None,
        options={"label_list": {LABELS[i]: i for i in SCRAMBLED}, "zero_division": 0},
        same_as=([["B-PER", "I-PER", "O"], ["B-LOC"]], [["B-PER", "I-PER", "O"], ["B-LOC"]]), entries=VALID_IDS),
    Bad("valid-ids-id2label-out-of-order", "ids", ids(3), None,
        options={"label_list": {i: LABELS[i] for i in SCRAMBLED}, "zero_division": 0},
        same_as=([["B-PER", "B-LOC", "O"], ["B-LOC"]], [["B-PER", "I-PER", "O"], ["B-LOC"]]), entries=VALID_IDS),
    Bad("id-label-list-ids-with-a-gap", "ids", ids(), ValueError, ("label_list", "0..4", "id 3 is missing"),
        options={"label_list": {0: "O", 1: "B-PER", 2: "I-PER", 4: "B-LOC", 5: "I-LOC"}}),
    Bad("id-label-list-id-given-twice", "ids", ids(), ValueError, ("label_list", "label id 2", "'I-PER'", "'B-LOC'"),
        options={"label_list": {"O": 0, "B-PER": 1, "I-PER": 2, "B-LOC": 2, "I-LOC": 4}}),
    Bad("id-label-list-id-strings", "ids", ids(), TypeError, ("label_list", "'0': 'O'", "int"),
        options={"label_list": {str(i): tag for i, tag in enumerate(LABELS)}}),
    Bad("id-label-list-set", "ids", ids(), TypeError, ("label_list", "set", "no order"),
        options={"label_list": set(LABELS)}),
    # a position in ids is its column in the row as given, the -100 positions before it counted
    Bad("id-outside-after-ignored-positions", "ids", ([[0, 1, 9]], [[-100, 1, 2]]), ValueError,
        ("sentence 0, token 2", "label id 9"), side="predictions", options=ID),
    Bad("id-malformed-tag-after-ignored-positions", "ids", ([[0, 0, 3]], [[-100, -100, 3]]), ValueError,
        ("sentence 0, token 2", "'LOC'"), side="predictions", options={"label_list": ["O", "B-PER", "I-PER", "LOC"]}),
    Bad("id-strict-prefix-after-ignored-positions", "ids", ([[0, 0, 3]], [[-100, 0, 3]]), ValueError,
        ("sentence 0, token 2", "'S-PER'", "IOB2"), side="predictions",
        options={"label_list": ["O", "B-PER", "I-PER", "S-PER"], "scheme": "IOB2", "mode": "strict"}),
    Bad("trainer-id-outside-after-ignored-positions", "trainer",
        ("compute_metrics_for", {"label_list": LABELS}, np.array([[0, 1, 9]]), np.array([[-100, 1, 2]])),
        ValueError, ("sentence 0, token 2", "label id 9"), side="predictions"),
    Bad("trainer-layered-id-outside-names-its-layer", "trainer",
        ("layered_metrics_for", {"label_list": LABELS}, np.array([[[0, 0], [1, 9]]]), np.array([[[-100, -100], [1, 1]]])),
        ValueError, ("sentence 0, token 1, layer 1", "label id 9"), side="predictions"),
    Bad("trainer-span-id-outside-names-its-candidate", "trainer",
        ("span_metrics_for", {"label_list": ["none", "PER"]}, np.array([[0, 5]]),
         (np.array([[-100, 1]]), np.array([[0, 0]]), np.array([[1, 2]]))),
        ValueError, ("sentence 0, candidate 1", "label id 5"), side="predictions"),
    # every factory reads label_list by the same rule, and checks it (and every option) when built
    *(Bad(f"trainer-{name}-{form}", "trainer", (factory, {"label_list": mapping, "entity_level": True}, pred, ref),
          None, same_as={"label_list": plain, "entity_level": True})
      for factory, plain, pred, ref in [
          ("compute_metrics_for", LABELS, np.array([[1, 2, 3]]), np.array([[1, 2, 0]])),
          ("layered_metrics_for", LABELS, np.array([[[1], [2], [3]]]), np.array([[[1], [2], [0]]])),
          ("span_metrics_for", ["none", "PER", "LOC", "ORG"], np.array([[1, 3]]),
           (np.array([[1, 2]]), np.array([[0, 1]]), np.array([[1, 2]])))]
      for form, mapping in [("id2label", {i: plain[i] for i in reversed(range(len(plain)))}),
                            ("label2id", {plain[i]: i for i in reversed(range(len(plain)))})]
      for name in [factory.split("_")[0]]),
    Bad("trainer-label-list-none", "trainer", (TRAINER_FACTORIES, {"label_list": None}, None, None), TypeError,
        ("label_list", "got None")),
    Bad("trainer-label-list-ids-with-a-gap", "trainer", (TRAINER_FACTORIES, {"label_list": {0: "O", 2: "B-PER"}}, None,
                                                         None), ValueError, ("label_list", "id 1 is missing")),
    Bad("trainer-label-list-set", "trainer", (TRAINER_FACTORIES, {"label_list": {"O", "B-PER"}}, None, None), TypeError,
        ("label_list", "no order")),
    Bad("trainer-strict-without-scheme-to-detect", "trainer",
        (("compute_metrics_for", "layered_metrics_for"), {"label_list": ["O", "I-PER"], "mode": "strict"}, None, None),
        ValueError, ("strict mode needs a scheme", "label_list prefixes (O, I)")),
    Bad("trainer-strict-label-outside-scheme", "trainer",
        (("compute_metrics_for", "layered_metrics_for"), {"label_list": [*LABELS, "S-PER"], "mode": "strict",
                                                          "scheme": "IOB2"}, None, None),
        ValueError, ("label id 5", "'S-PER'", "IOB2")),
    Bad("trainer-unknown-mode", "trainer", (("compute_metrics_for", "layered_metrics_for"),
                                            {"label_list": LABELS, "mode": "lenient"}, None, None),
        ValueError, ("mode", "'lenient'")),
    Bad("trainer-zero-division-2", "trainer", (TRAINER_FACTORIES, {"label_list": LABELS, "zero_division": 2}, None,
                                               None), ValueError, ("zero_division", "2")),
    # strict mode detects the scheme once, from label_list: a batch whose references are all O is no error
    Bad("trainer-strict-batch-of-all-O-streamed", "trainer",
        ("compute_metrics_for", {"label_list": LABELS, "mode": "strict"}, np.array([[0, 1, 0], [1, 2, 0], [3, 0, 0]]),
         np.array([[0, 0, -100], [1, 2, 0], [3, 4, 0]])), None, options={"streamed": True},
        same_as={"label_list": LABELS, "mode": "strict", "scheme": "IOB2"}),
    Bad("trainer-layered-strict-batch-of-all-O-streamed", "trainer",
        ("layered_metrics_for", {"label_list": LABELS, "mode": "strict"},
         np.array([[[0], [1], [0]], [[1], [2], [0]]]), np.array([[[0], [0], [0]], [[1], [2], [0]]])), None,
        options={"streamed": True}, same_as={"label_list": LABELS, "mode": "strict", "scheme": "IOB2"}),
    # an evaluation interrupted midway, then reset: the next one reports its own counts
    *(Bad(f"trainer-{factory.split('_')[0]}-interrupted-then-reset", "trainer", (factory, {"label_list": labels}, pred, ref),
          None, options={"streamed": True, "interrupted": True}, same_as={"label_list": labels})
      for factory, labels, pred, ref in [
          ("compute_metrics_for", LABELS, np.array([[1, 2, 0], [3, 0, 0]]), np.array([[1, 2, 0], [3, 4, -100]])),
          ("layered_metrics_for", LABELS, np.array([[[1], [2]], [[3], [0]]]), np.array([[[1], [2]], [[3], [4]]])),
          ("span_metrics_for", ["none", "PER"], np.array([[1, 0], [0, 1]]),
           (np.array([[1, 0], [0, 1]]), np.array([[0, 0], [0, 1]]), np.array([[1, 2], [1, 2]])))]),
    # the span classifier: none_label, gold_spans rows and shapes
    Bad("trainer-span-none-label-bool", "trainer",
        ("span_metrics_for", {"label_list": ["none", "PER"], "none_label": True}, None, None), TypeError,
        ("none_label", "True")),
    Bad("trainer-span-none-label-none", "trainer",
        ("span_metrics_for", {"label_list": ["none", "PER"], "none_label": None}, None, None), TypeError,
        ("none_label", "None")),
    Bad("trainer-span-gold-row-of-the-none-label", "trainer",
        ("span_metrics_for", {"label_list": ["none", "PER"]}, np.array([[1, 0]]),
         (np.array([[1, 0]]), np.array([[0, 1]]), np.array([[1, 2]]), np.array([[[0, 1, 1], [1, 2, 0]]]))),
        ValueError, ("gold_spans", "sentence 0, row 1", "(1, 2)", "none label")),
    Bad("trainer-span-starts-of-another-shape", "trainer",
        ("span_metrics_for", {"label_list": ["none", "PER"]}, np.array([[1, 0]]),
         (np.array([[1, 0]]), np.array([[0, 1, 2]]), np.array([[1, 2]]))),
        ValueError, ("labels [1, 2]", "starts [1, 3]")),
    Bad("trainer-span-gold-spans-none", "trainer",
        ("span_metrics_for", {"label_list": ["none", "PER"]}, np.array([[1, 0]]),
         (np.array([[1, 0]]), np.array([[0, 1]]), np.array([[1, 2]]), None)),
        TypeError, ("gold_spans", "None")),
    # issue 26: inputs and Space
    # ---------------------------------------------------------------- sequences only: a set is read in hash order
    Bad("seq-tags-sentence-set", "tags", ([{"B-PER", "I-PER", "O"}, ["B-LOC"]], _ones("tags")[1]), TypeError,
        ("sentence 0", "set {", "no order"), side="predictions"),
    Bad("seq-tags-sentence-frozenset", "tags", (_ones("tags")[0], [frozenset({"B-PER", "O"}), ["B-LOC"]]), TypeError,
        ("sentence 0", "frozenset", "no order"), side="references"),
    Bad("seq-tags-predictions-set", "tags", ({("B-PER", "O")}, [["B-PER", "O"]]), TypeError,
        ("list of sentences", "set {", "no order"), side="predictions"),
    Bad("seq-tags-sentence-dict", "tags", ([{"B-PER": 0, "I-PER": 1, "O": 2}, ["B-LOC"]], _ones("tags")[1]), TypeError,
        ("sentence 0", "dict {", "keys"), side="predictions"),
    Bad("seq-tags-sentence-generator", "tags", ([(tag for tag in ("B-PER", "I-PER", "O")), ["B-LOC"]], _ones("tags")[1]),
        TypeError, ("sentence 0", "generator", "used up"), side="predictions"),
    Bad("seq-tags-references-dict-values", "tags", (_ones("tags")[0], {"s0": ["B-PER", "O", "O"], "s1": ["B-LOC"]}.values()),
        TypeError, ("list of sentences", "dict_values"), side="references"),
    Bad("seq-ids-sentence-set", "ids", ([{1, 2, 0}, [3]], [[1, 2, 0], [3]]), TypeError, ("sentence 0", "set {", "no order"),
        side="predictions", options=ID),
    Bad("seq-ids-references-frozenset", "ids", ([[1, 2, 0], [3]], [[1, 2, 0], frozenset({3})]), TypeError,
        ("sentence 1", "frozenset", "no order"), side="references", options=ID),
    Bad("seq-spans-sentence-set", "spans", ([{(0, 2, "PER"), (0, 1, "LOC")}, [(1, 2, "LOC")]], GOOD_SPANS), TypeError,
        ("sentence 0", "set {", "no order"), side="predictions"),
    Bad("seq-spans-sentence-iterator", "spans", (GOOD_SPANS, [GOOD_SPANS[0], iter(GOOD_SPANS[1])]), TypeError,
        ("sentence 1", "list_iterator", "used up"), side="references"),
    Bad("seq-spans-predictions-generator", "spans", ((spans for spans in GOOD_SPANS), GOOD_SPANS), TypeError,
        ("list of sentences", "generator"), side="predictions"),
    Bad("seq-spans-lengths-set", "spans", _ones("spans"), TypeError, ("lengths", "set {", "no order"),
        options={"lengths": {2}}),
    Bad("seq-layers-sentence-set", "layers", ([{("B-PER", "I-PER")}], [[["B-PER", "I-PER"]]]), TypeError,
        ("sentence 0", "set {"), side="predictions"),
    Bad("seq-layers-layer-set", "layers", ([[["B-PER", "I-PER"], {"O"}]], [[["B-PER", "I-PER"]]]), TypeError,
        ("sentence 0", "set {"), side="predictions"),
    Bad("seq-corpus-sentence-string", "Corpus", (["abc"], [[]]), TypeError, ("sentence 0", "str 'abc'", "token strings")),
    Bad("seq-corpus-sentence-set", "Corpus", ([{"IL-2", "gene"}], [[]]), TypeError, ("sentence 0", "set {", "no order")),
    Bad("seq-corpus-tokens-string", "Corpus", ("IL-2 gene", [[], []]), TypeError, ("tokens", "str 'IL-2 gene'")),
    Bad("seq-corpus-token-int", "Corpus", ([["IL-2", 2]], [[]]), TypeError, ("sentence 0, token 1", "token 2")),
    Bad("seq-corpus-entities-set", "Corpus", ([["IL-2", "gene"]], [{(0, 2, "DNA")}]), TypeError,
        ("sentence 0", "set {", "no order")),
    Bad("seq-corpus-sentence-ids-set", "Corpus", ([["a"], ["b"]], [[], []], {"s1", "s2"}), TypeError,
        ("sentence_ids", "set {", "no order")),
    Bad("trainer-predictions-set-rows", "trainer",
        ("compute_metrics_for", {"label_list": LABELS}, [{1, 2}], np.array([[1, 2]])), TypeError,
        ("predictions, row 0", "set {", "no order")),
    Bad("trainer-label-ids-generator", "trainer",
        ("compute_metrics_for", {"label_list": LABELS}, np.array([[1, 2]]), (row for row in [[1, 2]])), TypeError,
        ("label_ids", "generator")),
    Bad("trainer-span-starts-set-rows", "trainer",
        ("span_metrics_for", {"label_list": ["O", "PER"]}, np.array([[1, 0]]),
         (np.array([[1, 0]]), [{0, 1}], np.array([[2, 2]]))),
        TypeError, ("label_ids[1] (span_starts), row 0", "set {", "no order")),
    Bad("trainer-span-gold-spans-set", "trainer",
        ("span_metrics_for", {"label_list": ["O", "PER"]}, np.array([[1, 0]]),
         (np.array([[1, 0]]), np.array([[0, 1]]), np.array([[2, 2]]), [{(0, 2, 1)}])),
        TypeError, ("gold_spans, row 0", "set {")),
    # ---------------------------------------------------------------- offsets too large to pack (one sentence)
    Bad("span-offset-near-2-62", "spans", spans(_span(2**62, 2**62 + 1)), ValueError,
        ("sentence 0", "(4611686018427387904, 4611686018427387905, 'PER')", "too large to pack",
         "token positions counted from 0"), side="predictions"),
    # ---------------------------------------------------------------- paths given as bytes, files opened as bytes
    Bad("path-bytes-column-file", "path", ("columns", "bytes path"), None, same_as="str path"),
    Bad("path-bytes-span-file", "path", ("corpus", "bytes path"), None, same_as="str path"),
    Bad("path-binary-column-handle", "path", ("columns", "binary handle"), TypeError, ("gold.conll", "binary mode")),
    Bad("path-bytes-column-lines", "path", ("columns", "bytes lines"), TypeError, ("line 1", "bytes", "decode")),
    # ---------------------------------------------------------------- json nulls where a list belongs
    Bad("oneie-mentions-null", "corpus", ("oneie", b'{"tokens": ["IL-2"], "entity_mentions": null}\n'), TypeError,
        ("gold.json", "line 1", "'entity_mentions'", "null"), cli=("gold.json", "line 1", "'entity_mentions'", "null")),
    Bad("oneie-mention-null", "corpus", ("oneie", b'{"tokens": ["IL-2"], "entity_mentions": [null]}\n'), TypeError,
        ("gold.json", "line 1", "'start'", "null"), cli=("gold.json", "line 1", "null")),
    Bad("oneie-tokens-null", "corpus", ("oneie", b'{"tokens": null, "entity_mentions": []}\n'), TypeError,
        ("gold.json", "line 1", "'tokens'", "null"), cli=("gold.json", "line 1", "'tokens'", "null")),
    Bad("triaffine-entities-null", "corpus", ("triaffine", b'[{"tokens": ["IL-2"], "entities": null}]'), TypeError,
        ("gold.json", "item 1", "'entities'", "null"), cli=("gold.json", "item 1", "'entities'", "null")),
    Bad("pyramid-entities-null", "corpus", ("pyramid", b'[{"tokens": ["IL-2"], "entities": null}]'), TypeError,
        ("gold.json", "item 1", "'entities'", "null"), cli=("gold.json", "item 1", "'entities'", "null")),
    Bad("biaffine-ners-null", "corpus", ("biaffine", b'{"doc_key": "d", "sentences": [["IL-2"]], "ners": null}\n'),
        TypeError, ("gold.json", "line 1", "'ners'", "null"), cli=("gold.json", "line 1", "'ners'", "null")),
    Bad("biaffine-sentence-ners-null", "corpus",
        ("biaffine", b'{"doc_key": "d", "sentences": [["IL-2"]], "ners": [null]}\n'), TypeError,
        ("gold.json", "line 1, sentence #1", "'ners'", "null"), cli=("gold.json", "line 1, sentence #1", "null")),
    Bad("w2ner-ner-null", "corpus", ("w2ner", b'[{"sentence": ["IL-2"], "ner": null}]'), TypeError,
        ("gold.json", "item 1", "'ner'", "null"), cli=("gold.json", "item 1", "'ner'", "null")),
    # ---------------------------------------------------------------- the Space: every bad request is one plain sentence
    Bad("space-deep-json", "space", ("[" * 5000, None, ""), ValueError, ("JSON input", "nests", "more than 8 deep")),
    Bad("space-deep-json-in-an-object", "space", ('{"predictions": ' + "[" * 5000, None, ""), ValueError,
        ("JSON input", "more than 8 deep")),
    Bad("space-deep-json-python-can-read", "space",
        ('{"predictions": ' + "[" * 900 + "]" * 900 + ', "references": []}', None, ""), ValueError,
        ("JSON input", "more than 8 deep")),
    Bad("space-deep-options", "space", (SPACE_JSON, None, "[" * 5000), ValueError, ("options", "more than 8 deep")),
    Bad("space-deep-option-value", "space", (SPACE_JSON, None, '{"scheme": ' + "[" * 900 + "]" * 900 + "}"), ValueError,
        ("options", "more than 8 deep")),
    Bad("space-json-list", "space", ('[["B-PER", "O"]]', None, ""), ValueError, ("must be an object",)),
    Bad("space-upload-dev-zero", "space", ("", ("device", "/dev/zero"), ""), ValueError, ("zero", "a device", "not a file")),
    Bad("space-upload-folder", "space", ("", ("folder",), ""), ValueError, ("a folder", "not a file")),
    Bad("space-upload-fifo", "space", ("", ("fifo",), ""), ValueError, ("a pipe", "not a file")),
    Bad("space-upload-missing", "space", ("", ("missing",), ""), ValueError, ("cannot be read",)),
    Bad("space-upload-json-with-bom", "space", ("", ("file", BOM + SPACE_JSON.encode()), ""), None,
        same_as=(SPACE_JSON, None, "")),
    Bad("space-paste-json-with-bom", "space", ("\ufeff" + SPACE_JSON, None, ""), None, same_as=(SPACE_JSON, None, "")),
    Bad("space-options-with-bom", "space", (SPACE_JSON, None, '\ufeff{"zero_division": 0}'), None,
        same_as=(SPACE_JSON, None, '{"zero_division": 0}')),
    # QA item 11: pasted or uploaded columns are counted from 1 and their line named, as the command line does; the
    # strict-mode hint names the options box, not scheme= or --scheme
    Bad("space-paste-conll-counted-from-1", "space", (SPACE_BAD_CONLL, None, ""), ValueError,
        ("predictions, sentence 2, token 2 (the input line 5): tag 'PER'",)),
    Bad("space-upload-conll-names-the-file", "space", ("", ("file", SPACE_BAD_CONLL.encode()), ""), ValueError,
        ("predictions, sentence 2, token 2 (upload.json line 5): tag 'PER'",)),
    Bad("space-json-tags-counted-from-1", "space",
        (json.dumps({"predictions": [["O"], ["O", "PER"]], "references": [["O"], ["O", "O"]]}), None, ""), ValueError,
        ("predictions, sentence 2, token 2: tag 'PER'",)),
    Bad("space-strict-scheme-in-the-options-box", "space", ("a U-PER U-PER\nb B-PER I-PER", None, '{"mode": "strict"}'),
        ValueError, ('pass the scheme the tags use ("scheme" in the options box, such as {"mode": "strict", "scheme": '
                     '"IOB2"})',)),
    # ---------------------------------------------------------------- issue 26: commands and benchmark
    # delimiters: spelled as conlleval.pl's -d takes them, and never able to hang the scorer
    Bad("columns-delimiter-backslash-t", "columns", col(GOOD_COLUMNS.replace(b" ", b"\t"), GOOD_COLUMNS.replace(b" ", b"\t")),
        None, options={"delimiter": "\\t"}, entries=("cli score", "cli lenient"), same_as=Plain(col(GOOD_COLUMNS), {})),
    Bad("columns-delimiter-regex-class", "columns", col(GOOD_COLUMNS), None, options={"delimiter": "\\s+"},
        entries=("cli score", "cli lenient"), cli=("--delimiter", "'\\\\s+'", "no one character")),
    Bad("conlleval-delimiter-backslash-t", "conlleval", GOOD_CONLLEVAL.replace(b" ", b"\t"), None, options={"-d": "\\t"},
        same_as=Plain(GOOD_CONLLEVAL, {})),
    Bad("conlleval-delimiter-exponential", "conlleval", b"a" * 40 + b" B-X B-X\n", None, options={"-d": "(a+)+$"},
        cli=("-d '(a+)+$'", "groups", "exponential time")),
    Bad("conlleval-delimiter-inner-repeat", "conlleval", GOOD_CONLLEVAL, None, options={"-d": "a*a*a*a*a*a*a*a*a*b"},
        cli=("-d 'a*a*a*a*a*a*a*a*a*b'", "inner repeats")),
    # benchmark options: each named with its value by the API and by the command line
    Bad("benchmark-resamples-huge", "benchmark", GOOD_ONEIE, ValueError, ("n_resamples", "1,000,000,000"),
        options={"n_resamples": 10**9}, cli=("--bootstrap", "1,000,000", "1,000,000,000")),
    Bad("benchmark-resamples-fraction", "benchmark", GOOD_ONEIE, TypeError, ("n_resamples", "10.5"),
        options={"n_resamples": 10.5}, cli=("--bootstrap", "'10.5'")),
    Bad("benchmark-permutations-huge", "benchmark", GOOD_ONEIE, ValueError, ("n_permutations", "100,000,000"),
        options={"n_permutations": 10**8}, cli=("--permutations", "100,000,000")),
    Bad("benchmark-permutations-zero", "benchmark", GOOD_ONEIE, ValueError, ("n_permutations", "got 0"),
        options={"n_permutations": 0}, cli=("--permutations", "got 0")),
    Bad("benchmark-confidence-string", "benchmark", GOOD_ONEIE, TypeError, ("confidence", "'0.95'"),
        options={"confidence": "0.95"}, entries=("benchmark",)),
    Bad("benchmark-confidence-one", "benchmark", GOOD_ONEIE, ValueError, ("confidence", "1.0"),
        options={"confidence": 1.0}, cli=("--confidence", "1.0")),
    Bad("benchmark-alpha-nan", "benchmark", GOOD_ONEIE, ValueError, ("alpha", "nan"), options={"alpha": float("nan")},
        cli=("--alpha", "nan")),
    Bad("benchmark-seed-negative", "benchmark", GOOD_ONEIE, ValueError, ("seed", "-1"), options={"seed": -1},
        cli=("--seed", "-1")),
    Bad("benchmark-seed-true", "benchmark", GOOD_ONEIE, TypeError, ("seed", "True"), options={"seed": True},
        entries=("benchmark",)),
    Bad("benchmark-units-number", "benchmark", GOOD_ONEIE, TypeError, ("units_by", "3"), options={"units_by": 3},
        entries=("benchmark",)),
    Bad("benchmark-empty-gold", "benchmark", b"", ValueError, ("gold.jsonl: the file is empty", "no sentences"),
        cli=("no sentences",)),
    # checkpoint discovery: one rule for benchmark(gold, DIR), benchmark(gold, {"run": DIR}) and --pred run=DIR
    Bad("checkpoints-log-beside-predictions", "checkpoints",
        ("gold.jsonl", GOOD_ONEIE, {"checkpoint-500.jsonl": GOOD_ONEIE, "checkpoint-500.log": b"step 500 loss 0.31\n",
                                    "checkpoint-1000.jsonl": GOOD_ONEIE, "notes.txt": b"a run\n"}),
        None, same_as=[("checkpoint-500", 500, "checkpoint-500.jsonl"), ("checkpoint-1000", 1000, "checkpoint-1000.jsonl")]),
    Bad("checkpoints-gold-of-any-suffix", "checkpoints",
        ("gum6.test", GOOD_COLUMNS, {"checkpoint-500/predictions.txt": GOOD_COLUMNS,
                                     "checkpoint-500/vocab.txt": b"[PAD]\n[UNK]\nEU\n",
                                     "checkpoint-500/config.json": b'{"model_type": "bert"}\n',
                                     "checkpoint-500/model.safetensors": WEIGHTS}),
        None, same_as=[("checkpoint-500", 500, "checkpoint-500/predictions.txt")]),
    Bad("checkpoints-weights-folder-beside-predictions", "checkpoints",
        ("gold.jsonl", GOOD_ONEIE, {"checkpoint-500/model.safetensors": WEIGHTS, "checkpoint-500.jsonl": GOOD_ONEIE}),
        None, same_as=[("checkpoint-500", 500, "checkpoint-500.jsonl")]),
    Bad("checkpoints-file-and-folder-clash", "checkpoints",
        ("gold.jsonl", GOOD_ONEIE, {"checkpoint-500.jsonl": GOOD_ONEIE, "checkpoint-500/predictions.jsonl": GOOD_ONEIE}),
        ValueError, ("step 500", "checkpoint-500.jsonl", "checkpoint-500/predictions.jsonl"),
        cli=("step 500", "checkpoint-500.jsonl", "checkpoint-500/predictions.jsonl")),
    Bad("checkpoints-zero-padded-clash", "checkpoints",
        ("gold.jsonl", GOOD_ONEIE, {"checkpoint-500.jsonl": GOOD_ONEIE, "checkpoint-0500.jsonl": GOOD_ONEIE}),
        ValueError, ("step 500", "checkpoint-500.jsonl", "checkpoint-0500.jsonl"),
        cli=("step 500", "checkpoint-500.jsonl", "checkpoint-0500.jsonl")),
    Bad("checkpoints-folder-without-predictions", "checkpoints",
        ("gold.jsonl", GOOD_ONEIE, {"checkpoint-500/model.safetensors": WEIGHTS, "checkpoint-1000.jsonl": GOOD_ONEIE}),
        ValueError, ("checkpoint-500", "no file of entity spans", "model.safetensors"),
        cli=("checkpoint-500", "no file of entity spans")),
    Bad("checkpoints-tags-for-a-spans-gold", "checkpoints",
        ("gold.jsonl", GOOD_ONEIE, {"checkpoint-500.conll": GOOD_COLUMNS}), ValueError,
        ("no checkpoint-STEP file or folder holds entity spans",),
        cli=("no checkpoint-STEP file or folder holds entity spans",)),
    # outputs: no command writes over one of its inputs (files, links, checkpoint files, stdin), checked first
    Bad("outputs-benchmark-html-over-gold", "outputs",
        ["benchmark", "--gold", "{gold}", "--pred", "a={pred}", "--html", "{gold}"], None,
        cli=("--html {gold} would overwrite --gold {gold}",)),
    Bad("outputs-benchmark-markdown-over-pred", "outputs",
        ["benchmark", "--gold", "{gold}", "--pred", "a={pred}", "--markdown", "{pred}"], None,
        cli=("--markdown {pred} would overwrite --pred a={pred}",)),
    Bad("outputs-benchmark-plot-over-hard-link", "outputs",
        ["benchmark", "--gold", "{gold}", "--pred", "a={pred}", "--plot", "{hard}"], None,
        cli=("--plot {hard} would overwrite --gold {gold}",)),
    Bad("outputs-benchmark-model-card-over-symbolic-link", "outputs",
        ["benchmark", "--gold", "{gold}", "--pred", "a={pred}", "--model-card", "{link}"], None,
        cli=("--model-card {link} would overwrite --pred a={pred}",)),
    Bad("outputs-benchmark-markdown-over-checkpoint-file", "outputs",
        ["benchmark", "--gold", "{gold}", "--pred", "run={run}", "--markdown", "{run}/checkpoint-500.jsonl"], None,
        cli=("would overwrite {run}/checkpoint-500.jsonl (a checkpoint file of --pred run={run})",)),
    Bad("outputs-benchmark-two-views-one-file", "outputs",
        ["benchmark", "--gold", "{gold}", "--pred", "a={pred}", "--html", "{tmp}/out", "--markdown", "{tmp}/out"], None,
        cli=("--markdown and --html name one file",)),
    Bad("outputs-score-plot-over-hard-link", "outputs",
        ["score", "--gold", "{conll}", "--pred", "{conll}", "--plot", "{hard}"], None,
        cli=("--plot {hard} would overwrite --gold {conll}",)),
    Bad("outputs-space-folder-is-the-wheel", "outputs",
        ["space", "exact", "{tmp}/my_space", "--wheel", "{wheel}"], None,
        cli=("OUT_DIR {tmp}/my_space would overwrite --wheel {wheel}",)),
    Bad("outputs-nested-stdout-into-gold", "outputs", ["nested", "--gold", "{gold}", "--pred", "{pred}"], None,
        options={"stdout": "{gold}"}, cli=("standard output is redirected to --gold {gold}",)),
    Bad("outputs-conlleval-stdout-into-stdin", "outputs", ["conlleval"], None, options={"stdout": "{stdin}"},
        cli=("standard output is redirected to standard input",)),
    Bad("outputs-agreement-stdout-into-an-annotator", "outputs", ["agreement", "a={gold}", "b={pred}"], None,
        options={"stdout": "{pred}"}, cli=("standard output is redirected to annotator b={pred}",)),
    # issue 30: the benchmark's comparisons, its development data, and the views it added
    Bad("benchmark-comparisons-unknown", "benchmark", GOOD_ONEIE, ValueError,
        ("comparisons must be one of auto, baseline, consecutive, best, all, got 'pairs'",),
        options={"comparisons": "pairs"}, cli=("--compare", "invalid choice: 'pairs'")),
    Bad("benchmark-baseline-unknown", "benchmark", GOOD_ONEIE, ValueError,
        ("the baseline 'nobody' is not one of the systems (a)",), options={"baseline": "nobody"},
        cli=("the baseline 'nobody' is not one of the systems (a)",)),
    Bad("benchmark-baseline-comparisons-without-a-baseline", "benchmark", GOOD_ONEIE, ValueError,
        ("comparisons='baseline' compares every system with the baseline: name it (baseline=NAME)",),
        options={"comparisons": "baseline"}, cli=("--compare baseline compares every system with --baseline NAME",)),
    Bad("benchmark-baseline-not-a-string", "benchmark", GOOD_ONEIE, TypeError, ("baseline", "3"),
        options={"baseline": 3}, entries=("benchmark",)),
    Bad("outputs-benchmark-html-over-pred", "outputs",
        ["benchmark", "--gold", "{gold}", "--pred", "a={pred}", "--html", "{pred}"], None,
        cli=("--html {pred} would overwrite --pred a={pred}",)),
    Bad("outputs-benchmark-markdown-over-dev-gold", "outputs",
        ["benchmark", "--gold", "{gold}", "--pred", "a={pred}", "--dev-gold", "{conll}", "--markdown", "{conll}"], None,
        cli=("--markdown {conll} would overwrite --dev-gold {conll}",)),
    # options that would do nothing are refused, not ignored (run by the one-line command runner of this block)
    Bad("options-snap-with-two-column-files", "outputs",
        ["score", "--gold", "{conll}", "--pred", "{conll}", "--snap", "expand"], None,
        cli=("--snap moves character spans onto the other side's tokens, but both --gold and --pred hold tokens",)),
    Bad("options-trim-with-two-token-files", "outputs", ["lenient", "--gold", "{gold}", "--pred", "{pred}", "--trim"],
        None, cli=("--trim trims whitespace at the edges of character spans, but both --gold and --pred hold tokens",)),
    Bad("options-types-with-column-files", "outputs",
        ["score", "--gold", "{conll}", "--pred", "{conll}", "--types", "PER"], None,
        cli=("--types keeps the T lines of these types in brat files, but --gold and --pred are column files",)),
    Bad("options-spans-key-with-token-spans", "outputs",
        ["nested", "--gold", "{gold}", "--pred", "{pred}", "--spans-key", "sc"], None,
        cli=("--spans-key reads doc.spans[KEY] of spaCy DocBins, but --gold and --pred are files of token spans",)),
    Bad("options-convert-types-without-brat", "outputs",
        ["convert", "{conll}", "--to", "text", "--output", "{tmp}/out.jsonl", "--types", "PER"], None,
        cli=("--types keeps the T lines of these types in brat files, but the input is not one",)),
    Bad("options-benchmark-trim-without-texts", "outputs",
        ["benchmark", "--gold", "{conll}", "--pred", "a={conll}", "--trim", "--bootstrap", "50"], None,
        cli=("trim (--trim) takes whitespace off the edges of character spans, but neither the gold nor a system",)),
    Bad("options-benchmark-types-without-brat", "outputs",
        ["benchmark", "--gold", "{gold}", "--pred", "a={pred}", "--types", "PER", "--bootstrap", "50"], None,
        cli=("types=['PER'] (--types) keeps a brat corpus's T lines of these types, but neither the gold nor",)),
    Bad("outputs-table-latex-over-a-result", "outputs", ["table", "{gold}", "--latex", "{gold}"], None,
        cli=("--latex {gold} would overwrite {gold}, an input",)),
    # QA of the benchmark: the predictions argument and --pred spelled without a name or a file
    Bad("benchmark-predictions-a-list", "benchmark", GOOD_ONEIE, TypeError,
        ("predictions must be {name: source}", "got a list"), options={"predictions": ["{pred}", "{gold}"]},
        entries=("benchmark",)),
    Bad("benchmark-predictions-name-not-a-string", "benchmark", GOOD_ONEIE, TypeError,
        ("predictions: a system's name must be a string, got 1 (int)",), options={"predictions": {1: "{pred}"}},
        entries=("benchmark",)),
    Bad("benchmark-predictions-name-empty", "benchmark", GOOD_ONEIE, ValueError,
        ("predictions: a system's name must not be empty, got ''",), options={"predictions": {"": "{pred}"}},
        entries=("benchmark",)),
    Bad("benchmark-dev-predictions-name-empty", "benchmark", GOOD_ONEIE, ValueError,
        ("dev_predictions: a system's name must not be empty, got ''",),
        options={"dev_references": "{gold}", "dev_predictions": {"": "{pred}"}}, entries=("benchmark",)),
    Bad("benchmark-dev-predictions-are-the-test-predictions", "benchmark", GOOD_ONEIE, ValueError,
        ("the development predictions of a are its test predictions",),
        options={"dev_references": "{gold}", "dev_predictions": {"a": "{pred}"}}, entries=("benchmark",)),
    Bad("benchmark-pred-without-a-name", "benchmark", GOOD_ONEIE, ValueError,
        ("'={pred}': write NAME=FILE, a name and a file",), options={"pred": "={pred}"},
        cli=("--pred", "'={pred}': write NAME=FILE, a name and a file",), entries=("cli benchmark",)),
    Bad("benchmark-pred-without-a-file", "benchmark", GOOD_ONEIE, ValueError, ("'a=': write NAME=FILE",),
        options={"pred": "a="}, cli=("--pred", "'a=': write NAME=FILE, a name and a file"), entries=("cli benchmark",)),
    # QA of the benchmark: a file named for the other split is never scored as this one's predictions
    Bad("checkpoints-only-development-predictions", "checkpoints",
        ("gold.jsonl", GOOD_ONEIE, {"checkpoint-300/dev_predictions.jsonl": GOOD_ONEIE,
                                    "checkpoint-600/test_predictions.jsonl": GOOD_ONEIE}),
        ValueError, ("checkpoint-300 holds no test predictions (only dev_predictions.jsonl)",),
        cli=("checkpoint-300 holds no test predictions (only dev_predictions.jsonl)",)),
    Bad("checkpoints-only-test-predictions-for-a-development-gold", "checkpoints",
        ("gold.jsonl", GOOD_ONEIE, {"checkpoint-300/test_predictions.jsonl": GOOD_ONEIE,
                                    "checkpoint-300/dev_predictions.jsonl": GOOD_ONEIE,
                                    "checkpoint-600/test_predictions.jsonl": GOOD_ONEIE}),
        ValueError, ("checkpoint-600 holds no development predictions (only test_predictions.jsonl)",),
        options={"dev": True}, cli=("checkpoint-600 holds no development predictions (only test_predictions.jsonl)",)),
    Bad("checkpoints-unnamed-predictions-are-no-development-ones", "checkpoints",
        ("gold.jsonl", GOOD_ONEIE, {"checkpoint-300/predictions.jsonl": GOOD_ONEIE}),
        ValueError, ("checkpoint-300 holds no development predictions (only predictions.jsonl)",),
        options={"dev": True}, cli=("checkpoint-300 holds no development predictions (only predictions.jsonl)",)),
    # issue 28: text spans
    # documents ({"text", "entities"}, offsets in characters) through score_documents and the evaluate modules
    Bad("texts-offset-beyond-the-text", "texts", texts_pair({"start": 0, "end": 99, "label": "PER"}), ValueError,
        ("predictions, sentence 0", "'end': 99", "out of range", "end <= 29 (the text's length in characters)")),
    Bad("texts-end-before-start", "texts", texts_pair({"start": 9, "end": 2, "label": "PER"}), ValueError,
        ("predictions, sentence 0", "'start': 9, 'end': 2", "0 <= start < end")),
    Bad("texts-non-integer-offset", "texts", texts_pair({"start": 0, "end": 1.5, "label": "PER"}), TypeError,
        ("predictions, sentence 0", "end 1.5", "never truncated")),
    Bad("texts-bool-offset", "texts", texts_pair({"start": True, "end": 4, "label": "PER"}), TypeError,
        ("predictions, sentence 0", "start True")),
    Bad("texts-text-differs", "texts", texts_pair(text="Peter Blackburn visited Pariz"), ValueError,
        ("sentence 0", "differs from the reference text at offset 28", "'z'", "'s'")),
    Bad("texts-unknown-key", "texts", ([{**GOOD_TEXT, "id": "d1"}], [GOOD_TEXT]), ValueError,
        ("predictions, sentence 0", "'text' and 'entities' and nothing else", "'id'")),
    Bad("texts-text-not-a-string", "texts", ([{**GOOD_TEXT, "text": ["Peter"]}], [GOOD_TEXT]), TypeError,
        ("predictions, sentence 0", "'text' must be a string")),
    Bad("texts-mixed-with-tag-lists", "texts", ([GOOD_TEXT, ["B-PER"]], [GOOD_TEXT, GOOD_TEXT]), TypeError,
        ("predictions, sentence 1", "is not a text")),
    # QA item 13: a lone surrogate (json's "\ud800") is no character: refused naming the document and the offset
    Bad("texts-lone-surrogate", "texts", ([{**GOOD_TEXT, "text": "Peter Blackburn visited Par\ud800s"}],) * 2,
        ValueError, ("sentence 0", "lone surrogate U+D800 at offset 27")),
    # text-span and pipeline files through read_corpus, score_text and the commands (which count documents from 1)
    Bad("text-file-lone-surrogate", "text-files", text_files(pred=[("d1", TEXT, []), ("d2", "A\udc00n", [])]),
        ValueError, ("pred.jsonl, line 2", "a lone surrogate U+DC00 at offset 1"),
        cli=("pred.jsonl, line 2: a lone surrogate U+DC00 at offset 1",)),
    Bad("text-file-offset-out-of-range", "text-files", text_files(pred=[("d1", TEXT, [(0, 99, "PER")])]), ValueError,
        ("pred.jsonl, line 1", "(0, 99, 'PER')", "end <= 29 (the text's length in characters)"),
        cli=("pred.jsonl, line 1", "(0, 99, 'PER')")),
    Bad("text-file-end-before-start", "text-files", text_files(pred=[("d1", TEXT, [(9, 2, "PER")])]), ValueError,
        ("pred.jsonl, line 1", "(9, 2, 'PER')", "0 <= start < end"), cli=("pred.jsonl, line 1", "(9, 2, 'PER')")),
    Bad("text-file-non-integer-offset", "text-files", text_files(pred=[("d1", TEXT, [(0, 5.0, "PER")])]), TypeError,
        ("pred.jsonl, line 1", "end 5.0", "never truncated"), cli=("pred.jsonl, line 1", "end 5.0")),
    Bad("text-file-document-missing", "text-files", text_files(pred=[("d1", TEXT, [])]), ValueError,
        ("no prediction for document id 'd2'", "1 gold document missing"),
        cli=("no prediction for document id 'd2'",), entries=PAIRING),
    Bad("text-file-prediction-without-gold", "text-files",
        text_files(pred=[("d1", TEXT, []), ("d2", "Ann", []), ("d3", "x", [])]), ValueError,
        ("document id 'd3' is not in", "1 predicted document without gold"), cli=("document id 'd3' is not in",),
        entries=PAIRING),
    Bad("text-file-id-given-twice", "text-files", text_files(pred=[("d1", TEXT, []), ("d1", "Ann", [])]), ValueError,
        ("document id 'd1' is given to two documents",), cli=("document id 'd1' is given to two documents",),
        entries=PAIRING),
    Bad("text-file-texts-differ", "text-files", text_files(pred=[("d1", TEXT, []), ("d2", "Anne", [])]), ValueError,
        ("document 1 (id 'd2'): texts differ at offset 3", "'e'"),
        cli=("document 2 (id 'd2'): texts differ at offset 3",), entries=PAIRING),
    Bad("pipeline-file-subtoken-float-offset", "text-files",
        text_files(pred=[{"id": "d1", "text": TEXT, "entities": [{"entity": "B-PER", "index": 1, "word": "peter",
                                                                   "start": 0, "end": 5.0}]}]), TypeError,
        ("pred.jsonl, line 1", "end 5.0"), cli=("pred.jsonl, line 1", "end 5.0")),
    Bad("pipeline-file-mixed-outputs", "text-files",
        text_files(pred=[{"id": "d1", "text": TEXT, "entities": [
            {"entity_group": "PER", "word": "peter", "start": 0, "end": 5},
            {"entity": "B-LOC", "index": 4, "word": "paris", "start": 24, "end": 29}]}]), ValueError,
        ("pred.jsonl, line 1", "mix aggregated items"), cli=("pred.jsonl, line 1", "mix aggregated items")),
    # a pipeline word that differs from the text at its offsets is reported (counted, warned), never refused:
    # the result is the one of the same spans without words
    Bad("pipeline-file-word-differs-is-reported", "text-files",
        text_files(pred=[{"id": "d1", "text": TEXT, "entities": [
            {"entity_group": "PER", "word": "peter blackburn", "start": 0, "end": 15},
            {"entity_group": "LOC", "word": "london", "start": 24, "end": 29}]}, ("d2", "Ann", [])]), None,
        ("1 entity whose word differs from the text", "word 'london' where the document reads 'Paris'"),
        cli=("warning: ", "word 'london' where the document reads 'Paris'"),
        same_as=text_files(pred=[("d1", TEXT, [(0, 15, "PER"), (24, 29, "LOC")]), ("d2", "Ann", [])])),
    # issue 29: language models' answers
    # a file of answers (JSON lines of entity lists or raw answers) through read_answers, score_answers
    # and the commands: what the file gets wrong is refused with its line; what the model gets wrong is counted
    Bad("answers-answer-not-text", "answers-files", answers_files({"id": "d1", "output": 42}), TypeError,
        ("pred.jsonl, line 1", "'output' must be the model's answer as a string, got 42"),
        cli=("pred.jsonl, line 1", "got 42")),
    # issue 37: an item of an entity list that cannot be read is counted with its line, never fatal
    Bad("answers-entities-not-objects", "answers-files",
        answers_files({"id": "d1", "entities": ["Peter"]}, {"id": "d2", "output": "[]"}), None,
        ('"unreadable_items": 1', '"category": "unreadable_items", "id": "d1", "line": "line 1"',
         "item 1: item 'Peter' is a string without a type"), entries=ANSWERS_PAIRING),
    Bad("answers-entity-without-label", "answers-files",
        answers_files({"id": "d1", "entities": [{"text": "Peter"}]}, {"id": "d2", "output": "[]"}), None,
        ('"unreadable_items": 1', "item 1: object {'text': 'Peter'} needs its label under one of label"),
        entries=ANSWERS_PAIRING),
    Bad("answers-entity-without-text", "answers-files",
        answers_files({"id": "d1", "entities": [{"label": "PER"}]}, {"id": "d2", "output": "[]"}), None,
        ('"unreadable_items": 1', "needs its text under one of text"), entries=ANSWERS_PAIRING),
    Bad("answers-entity-text-not-a-string", "answers-files",
        answers_files({"id": "d1", "entities": [{"text": ["Peter"], "label": "PER"}]}, {"id": "d2", "output": "[]"}),
        None, ('"unreadable_items": 1', "item 1: text ['Peter'] of"), entries=ANSWERS_PAIRING),
    Bad("answers-empty-label-is-counted", "answers-files",
        answers_files({"id": "d1", "output": '[["Peter Blackburn", "PER"], ["Paris", ""]]'},
                        {"id": "d2", "entities": [{"text": "Ann", "label": ""}]}), None,
        ('"unreadable_items": 2', "item 2: label of ['Paris', ''] is empty",
         "item 1: label of {'text': 'Ann', 'label': ''} is empty", '"unparseable": 0'), entries=ANSWERS_PAIRING),
    Bad("answers-line-not-json", "answers-files", answers_files({"id": "d1", "output": "[]"}, b"{oops\n"),
        ValueError, ("pred.jsonl, line 2",), cli=("pred.jsonl, line 2",)),
    Bad("answers-neither-entities-nor-output", "answers-files", answers_files({"id": "d1", "answer": "[]"}),
        ValueError, ("pred.jsonl, line 1", "either 'entities'", "or 'output'"), cli=("pred.jsonl, line 1",),
        entries=("read_answers", "score_answers", "cli answers")),
    Bad("answers-id-on-some-lines", "answers-files", answers_files({"id": "d1", "output": "[]"}, {"output": "[]"}),
        ValueError, ("pred.jsonl, line 2: no 'id', where the first line has one",), cli=("line 2: no 'id'",)),
    Bad("answers-id-given-twice", "answers-files",
        answers_files({"id": "d1", "output": "[]"}, {"id": "d1", "output": "[]"}), ValueError,
        ("pred.jsonl, line 2: id 'd1' is given twice",), cli=("line 2: id 'd1' is given twice",)),
    Bad("answers-question-given-twice", "answers-files",
        answers_files({"id": "d1", "label": "PER", "output": "[]"}, {"id": "d1", "label": "PER", "output": "[]"},
                        {"id": "d2", "output": "[]"}), ValueError,
        ("pred.jsonl, line 2: id 'd1' is given twice (with label 'PER'",), cli=("with label 'PER'",)),
    Bad("answers-document-missing", "answers-files", answers_files({"id": "d1", "output": "[]"}), ValueError,
        ("gold.jsonl, line 2: document id 'd2' has no answer in", "1 gold document without one"),
        cli=("line 2: document id 'd2' has no answer in",),
        entries=ANSWERS_PAIRING),
    Bad("answers-answer-without-gold", "answers-files",
        answers_files({"id": "d1", "output": "[]"}, {"id": "d2", "output": "[]"}, {"id": "d3", "output": "[]"}),
        ValueError, ("pred.jsonl, line 3: document id 'd3' is not in", "1 answered document without gold"),
        cli=("line 3: document id 'd3' is not in",), entries=ANSWERS_PAIRING),
    Bad("answers-gold-id-given-twice", "answers-files",
        answers_files({"id": "d1", "output": "[]"}, gold=[("d1", TEXT, []), ("d1", "Ann", [])]), ValueError,
        ("document id 'd1' is given to two documents",), cli=("document id 'd1' is given to two documents",),
        entries=ANSWERS_PAIRING),
    Bad("answers-text-differs", "answers-files",
        answers_files({"id": "d1", "text": "Peter Blackburn visited Pariz", "output": "[]"}, {"id": "d2", "output": "[]"}),
        ValueError, ("pred.jsonl, line 1: its text differs from the gold's at offset 28", "'z'", "'s'"),
        cli=("pred.jsonl, line 1: its text differs", "offset 28"), entries=ANSWERS_PAIRING),
    # what a model writes is read item by item, or counted as unparseable with the id, its gold entities missed
    Bad("answers-unparseable-answers-are-counted", "answers-files",
        answers_files({"id": "d1", "output": '[{"text": "Peter Blackburn"}, {"text": "Paris", "label": "LOC"}]'},
                        {"id": "d2", "output": "[1, 2]"}), None,
        ('"unparseable_ids": ["d2"]', "needs its label under one of label", "item 1 is not an object",
         '"unparseable_gold": 1', '"unreadable_items": 1'), entries=ANSWERS_PAIRING),
    # no answer at all can be read: the commands exit 2 saying what was tried on the first one
    Bad("answers-no-answer-can-be-read", "answers-files",
        answers_files({"id": "d1", "output": "Sorry, I cannot help."}, {"id": "d2", "output": "[1, 2]"}),
        ValueError, ("pred.jsonl: no answer can be read (2 tried); the first (id 'd1', line 1), 'Sorry, I cannot "
                     "help.': none of a JSON or Python list or object",),
        cli=("no answer can be read (2 tried); the first (id 'd1', line 1), 'Sorry, I cannot help.'",),
        entries=("cli answers", "cli nested", "cli lenient")),
    # entity lists and answers through the nested and lenient evaluate modules (texts as references)
    Bad("answers-entity-not-a-dict", "answers", answers_pair(["Peter"]), TypeError,
        ("predictions, sentence 0, entity 0", "'Peter' is not a {'text', 'label'} dict")),
    Bad("answers-entity-without-label-dict", "answers", answers_pair([{"text": "Peter"}]), TypeError,
        ("predictions, sentence 0, entity 0", "{'text': 'Peter'} is not a {'text', 'label'} dict")),
    Bad("answers-entity-label-not-a-string", "answers", answers_pair([{"text": "Peter", "label": 3}]),
        TypeError, ("predictions, sentence 0, entity 0", "label 3 is not a string")),
    Bad("answers-answer-not-a-string", "answers", answers_pair(42), TypeError,
        ("predictions, sentence 0", "expected a model's answer (a string) or a list", "got int 42")),
    Bad("answers-answers-mixed-with-lists", "answers", (["[]", []], [GOOD_TEXT, GOOD_TEXT]), TypeError,
        ("predictions, sentence 0 is a model's answer (a string) but sentence 1 is []",)),
    Bad("answers-tag-option", "answers", answers_pair([{"text": "Peter", "label": "PER"}]), ValueError,
        ("scheme applies to tags, but the input holds language models' answers",), options={"scheme": "IOB2"}),
    Bad("answers-option-with-spans", "spans", _ones("spans"), ValueError,
        ("policy applies to language models' answers, but the input holds spans",), options={"policy": "every"}),
    # word ids beside sub-word labels (the factories' word_ids option)
    Bad("trainer-word-ids-not-given", "trainer",
        (("compute_metrics_for", "layered_metrics_for"), {"label_list": LABELS, "word_ids": True},
         np.array([[1, 2]]), np.array([[1, 2]])), ValueError, ("label_names=['labels', 'word_ids']",)),
    Bad("trainer-word-ids-float", "trainer",
        ("compute_metrics_for", {"label_list": LABELS, "word_ids": True}, np.array([[1, 2]]),
         (np.array([[1, 2]]), np.array([[0.0, 1.0]]))), TypeError, ("word ids must be integers", "float64")),
    Bad("trainer-word-ids-shape", "trainer",
        ("compute_metrics_for", {"label_list": LABELS, "word_ids": True}, np.array([[1, 2]]),
         (np.array([[1, 2]]), np.array([[0]]))), ValueError, ("word ids of shape (1, 1)", "labels of shape (1, 2)")),
    # word ids that would drop a word or count one twice (every alignment decision counted, nothing dropped)
    Bad("trainer-word-ids-negative", "trainer",
        (("compute_metrics_for", "layered_metrics_for"), {"label_list": LABELS, "word_ids": True},
         np.array([[1, 2, 0]]), (np.array([[1, 2, 0]]), np.array([[0, -5, 1]]))), ValueError,
        ("word ids, example 0, position 1: word id -5", "or -100 where a position has no word")),
    Bad("trainer-word-ids-go-back", "trainer",
        ("compute_metrics_for", {"label_list": LABELS, "word_ids": True}, np.array([[1, 0, 1], [1, 0, 2]]),
         (np.array([[1, 0, 1], [1, 0, 2]]), np.array([[0, 1, 2], [0, 1, 0]]))), ValueError,
        ("word ids, example 1, position 2: word 0 after word 1", "or a word is counted twice")),
    Bad("trainer-word-ids-split-by-no-word", "trainer",
        ("compute_metrics_for", {"label_list": LABELS, "word_ids": True}, np.array([[1, 0, 2]]),
         (np.array([[1, -100, 2]]), np.array([[0, -100, 0]]))), ValueError,
        ("word ids, example 0, position 2: word 0 after the same word before a position of no word",)),
    Bad("trainer-word-first-subtoken-unlabelled", "trainer",
        (("compute_metrics_for", "layered_metrics_for"), {"label_list": LABELS, "word_ids": True},
         np.array([[0, 1, 2, 0]]), (np.array([[0, -100, 2, 0]]), np.array([[0, 1, 1, 2]]))), ValueError,
        ("labels, example 0, position 2: word 1 is labelled here but not at its first sub-token (position 1",)),
    Bad("trainer-word-label-without-word", "trainer",
        ("compute_metrics_for", {"label_list": LABELS, "word_ids": True}, np.array([[0, 1]]),
         (np.array([[0, 1]]), np.array([[-100, 0]]))), ValueError,
        ("labels, example 0, position 0: a label where the word id is -100 (no word)",)),
    Bad("trainer-word-ids-streamed", "trainer",
        ("compute_metrics_for", {"label_list": LABELS, "word_ids": True}, np.array([[1, 1, 0], [3, 4, 0]]),
         (np.array([[1, 1, 2], [3, 3, -100]]), np.array([[0, 0, 1], [0, 0, -100]]))), None,
        options={"streamed": True}, same_as={"label_list": LABELS, "word_ids": True}),
    # an empty label list: refused where it is read (read_label_list), when a scorer is built
    Bad("trainer-label-list-empty", "trainer", (TRAINER_FACTORIES, {"label_list": []}, None, None), ValueError,
        ("label_list is empty",)),
    Bad("id-label-list-empty", "ids", ([[]], [[]]), ValueError, ("label_list is empty",), options={"label_list": []}),
    # tables: Parquet input on the command line ({table} a Parquet file of tags, {folder} a folder of Parquet files,
    # {conll} a column file, {empty} an empty folder, {no_tags} an empty file); refused before Spark starts
    Bad("tables-spark-with-a-column-file", "tables", ["score", "--gold", "{conll}", "--pred", "{conll}",
                                                      "--spark", "local[1]"], ValueError,
        cli=("--spark applies to Parquet input; {conll} is no Parquet file or folder",)),
    Bad("tables-spark-with-two-span-files", "tables", ["nested", "--gold", "{gold}", "--pred", "{pred}",
                                                       "--spark", "local[1]"], ValueError,
        cli=("--spark applies to Parquet input; {gold} is no Parquet file or folder",)),
    Bad("tables-column-and-delimiter", "tables", ["score", "--gold", "{table}", "--pred", "{table}", "--column", "2",
                                                  "--delimiter", "x"], ValueError,
        cli=("--column, --delimiter do not apply to Parquet input ({table} is a Parquet table",)),
    Bad("tables-format-and-trim", "tables", ["lenient", "--gold", "{folder}", "--pred", "{folder}", "--gold-format",
                                             "oneie", "--trim"], ValueError,
        cli=("--gold-format, --trim do not apply to Parquet input",)),
    Bad("tables-answers-options", "tables", ["nested", "--gold", "{table}", "--pred", "{table}", "--multiset",
                                               "--no-fallback", "--show", "2"], ValueError,
        cli=("--multiset, --no-fallback, --show do not apply to Parquet input",)),
    Bad("tables-workers-with-spark", "tables", ["score", "--gold", "{table}", "--pred", "{table}", "--workers", "2",
                                                "--spark", "local[1]"], ValueError,
        cli=("with --spark the executors count (leave --workers out)",)),
    Bad("tables-label-list-empty", "tables", ["score", "--gold", "{table}", "--pred", "{table}", "--label-list",
                                              "{no_tags}"], ValueError,
        cli=("--label-list {no_tags}: no tags in the file",)),
    Bad("tables-gold-an-empty-folder", "tables", ["score", "--gold", "{empty}", "--pred", "{empty}"], ValueError,
        cli=("{empty}: an empty folder",)),
    Bad("tables-gold-an-empty-folder-nested", "tables", ["nested", "--gold", "{empty}", "--pred", "{pred}"],
        ValueError, cli=("{empty}: an empty folder",)),
    Bad("tables-folder-with-a-file-not-parquet", "tables", ["score", "--gold", "{folder}", "--pred", "{folder}"],
        ValueError, options={"add": {"notes.txt": b"not a table"}},
        cli=("{folder}/notes.txt: not a Parquet file (no PAR1 at its start and end); a Parquet folder holds "
             "Parquet files only",)),
    Bad("tables-folder-with-a-plain-subfolder", "tables", ["score", "--gold", "{folder}", "--pred", "{folder}"],
        ValueError, options={"add": {"sub/part-1.parquet": "table"}},
        cli=("{folder}/sub: a folder inside a Parquet table that is no partition (key=value)",)),
    # issue 40: agreement between annotators ({name: (file name, bytes or a brat folder's files)}); each refused in
    # one message by agreement() and in one line by the command, which counts sentences from 1
    Bad("agreement-one-annotator", "agreement", {"A": annotator(DOC1)}, ValueError,
        ("agreement needs two annotators or more, got 1 (A)",)),
    Bad("agreement-same-folder-twice", "agreement", {"A": brat_annotator(DOC1), "B": brat_annotator(DOC1)}, ValueError,
        ("annotator A and annotator B are the same file or folder", "give each its own annotations"),
        options={"same": True}),
    Bad("agreement-same-file-twice", "agreement", ONE_AGREEMENT, ValueError,
        ("annotator A and annotator B are the same file or folder",), options={"same": True}),
    Bad("agreement-empty-annotator-file", "agreement", {**ONE_AGREEMENT, "B": ("empty.jsonl", b"")}, ValueError,
        ("empty.jsonl: the file is empty",)),
    Bad("agreement-empty-annotator-folder", "agreement", {**ONE_AGREEMENT, "B": ("empty", {})}, ValueError,
        ("no .ann files",)),
    Bad("agreement-annotator-who-marked-nothing", "agreement",
        {**ONE_AGREEMENT, "B": annotator(("d1", TEXT, []), ("d2", "Ann", []))}, ValueError,
        ("annotator B", "no annotation in any of its 2 documents", "was it exported empty?")),
    Bad("agreement-texts-differ-between-formats", "agreement",
        {"A": brat_annotator(DOC1, DOC2), "B": annotator(("d1", "Peter Blackburn visited Pariz", []), DOC2)},
        ValueError, ("document 'd1': texts differ at offset 28 between A (29 characters, 's') and B "
                     "(29 characters, 'z')",)),
    Bad("agreement-tokens-do-not-spell-the-text", "agreement",
        {"A": annotator(DOC1, DOC2), "B": conll_annotator((["Peter", "Blackburn", "visits", "Paris"], ["B-PER", "I-PER",
                                                                                                    "O", "B-LOC"]),
                                                       (["Ann"], ["B-PER"]))}, ValueError,
        ("annotator B, document 0: token 2 ('visits') is not found at character 16",),
        cli=("annotator B, document 1: token 2 ('visits') is not found at character 16",)),
    Bad("agreement-tokens-differ", "agreement",
        {"A": conll_annotator((["Peter", "Blackburn"], ["B-PER", "I-PER"]), (["Ann"], ["B-PER"])),
         "B": conll_annotator((["Peter", "Blackburn"], ["B-PER", "I-PER"]), (["Anne"], ["B-PER"]))}, ValueError,
        ("sentence 1: tokens differ at position 0 between A (1 tokens, ['Ann']) and B (1 tokens, ['Anne'])",),
        cli=("sentence 2: tokens differ at position 1 between A",)),
    Bad("agreement-sizes-differ-without-ids", "agreement",
        {"A": conll_annotator((["Ann"], ["B-PER"]), (["Bob"], ["B-PER"])), "B": conll_annotator((["Ann"], ["B-PER"]))},
        ValueError, ("A carries no document ids, so documents pair by position", "A 2 sentences, B 1 sentence")),
    Bad("agreement-no-shared-document", "agreement",
        {"A": annotator(DOC1), "B": annotator(("d9", TEXT, [(0, 5, "PER")]))}, ValueError,
        ("no document is held by every set (A 1 document, B 1 document; first ids 'd1', 'd9')",)),
    Bad("agreement-an-id-given-twice", "agreement", {"A": annotator(DOC1, DOC1), "B": annotator(DOC1)}, ValueError,
        ("annotator A", "document id 'd1' is given to two documents",)),
    Bad("agreement-model-without-reference", "agreement", ONE_AGREEMENT, ValueError,
        ("a model is compared with the reference: name the reference",), options={"models": {"crf": "B"}}),
    Bad("agreement-reference-unknown", "agreement", ONE_AGREEMENT, ValueError,
        ("no annotator's name (A, B) and no file or folder",),
        options={"reference": "C"}, cli=("--reference C: no annotator is named so (A, B)",)),
    Bad("agreement-name-with-a-bar", "agreement", ONE_AGREEMENT, ValueError,
        ("a name must be non-empty and hold no '|'",), options={"names": ("A|x", "B")}),
    Bad("agreement-examples-negative", "agreement", ONE_AGREEMENT, ValueError, ("examples must be 0 or more, got -1",),
        options={"examples": -1}, cli=("--show takes a number of disagreements, 0 or more; got -1",)),
    Bad("agreement-resamples-zero", "agreement", ONE_AGREEMENT, ValueError, ("n_resamples must be from 1",),
        options={"n_resamples": 0}, cli=("--bootstrap must be from 1",)),
    Bad("agreement-models-a-list", "agreement", ONE_AGREEMENT, TypeError,
        ("models: expected a dict of name to a model's predictions, got list",),
        options={"reference": "A", "models": ["B"]}, entries=("agreement",)),
    Bad("agreement-annotations-a-string", "agreement", ONE_AGREEMENT, TypeError,
        ("annotations: expected a list of annotators' annotations or a dict", "got str"),
        options={"given": "one string"}, entries=("agreement",)),
    # formats mixed between annotators are compared when their texts agree: the figures of one format
    Bad("agreement-brat-against-text-spans", "agreement", {"A": brat_annotator(DOC1, DOC2), **{"B": ONE_AGREEMENT["B"]}},
        None, same_as={"A": ONE_AGREEMENT["A"], "B": ONE_AGREEMENT["B"]}),
    Bad("agreement-conll-tokens-against-text-spans", "agreement",
        {"A": conll_annotator((["Peter", "Blackburn", "visited", "Paris"], ["B-PER", "I-PER", "O", "B-LOC"]),
                              (["Ann"], ["B-PER"])), "B": ONE_AGREEMENT["B"]},
        None, same_as={"A": annotator(("0", TEXT, [(0, 15, "PER"), (24, 29, "LOC")]), ("1", "Ann", [(0, 3, "PER")])),
                       "B": annotator(("0", TEXT, [(0, 5, "PER"), (24, 29, "LOC")]), ("1", "Ann", [(0, 3, "PER")]))}),
    # issue 39: scored predictions, in Python (threshold_curve, the nested module) and in files (read, and the
    # thresholds command): a span without a score where others have one, NaN, an infinity, a string or a bool for
    # a score, each refused with its place; scores outside [0, 1] are scores
    Bad("scored-span-without-a-score", "scored", scored(_span(0, 2, score=0.9), _span(0, 1, "LOC")), ValueError,
        ("predictions, sentence 0: entity {'start': 0, 'end': 1, 'label': 'LOC'} has no score, but other entities "
         "have one", "(position 1 in the sentence)")),
    Bad("scored-nan", "scored", scored(_span(0, 2, score=float("nan"))), ValueError,
        ("predictions, sentence 0: entity {'start': 0, 'end': 2, 'label': 'PER'} has score nan",
         "a score must be a finite number", "(position 0 in the sentence)")),
    Bad("scored-infinity", "scored", scored(_span(0, 2, score=float("-inf"))), ValueError,
        ("predictions, sentence 0", "has score -inf")),
    Bad("scored-string", "scored", scored(_span(0, 2, score=0.2), _span(0, 1, "LOC", score="0.9")), TypeError,
        ("predictions, sentence 0: entity {'start': 0, 'end': 1, 'label': 'LOC'} has score '0.9', which is not a "
         "number", "(position 1 in the sentence)")),
    Bad("scored-bool", "scored", scored(_span(0, 2, score=True)), TypeError, ("has score True, which is not a number",)),
    Bad("scored-span-out-of-range", "scored", scored(_span(3, 2, score=0.5)), ValueError,
        ("predictions, sentence 0", "'start': 3, 'end': 2", "0 <= start < end")),
    Bad("scored-threshold-with-plain-spans", "spans", _ones("spans"), ValueError,
        ("threshold applies to scored predictions",), options={"threshold": 0.5}),
    Bad("scored-file-mention-without-a-score", "scored-files",
        scored_files(_mention(0, 2, "DNA", score=0.9), _mention(0, 1, "protein")), ValueError,
        ("pred.jsonl, line 1: entity (0, 1, 'protein') has no score, but other entities have one",
         "(position 2 in the sentence)"), cli=("pred.jsonl, line 1: entity (0, 1, 'protein') has no score",)),
    Bad("scored-file-nan", "scored-files", scored_files(_mention(0, 2, "DNA", score=float("nan"))), ValueError,
        ("pred.jsonl, line 1: entity (0, 2, 'DNA') has score nan",), cli=("pred.jsonl, line 1", "has score nan")),
    Bad("scored-file-string", "scored-files", scored_files(_mention(0, 2, "DNA", prob="high")), TypeError,
        ("pred.jsonl, line 1: entity (0, 2, 'DNA') has score 'high', which is not a number",),
        cli=("pred.jsonl, line 1", "'high'")),
    Bad("scored-file-without-scores", "scored-files", {"gold": GOOD_ONEIE, "pred": GOOD_ONEIE}, ValueError,
        cli=("pred.jsonl: the predictions carry no scores; give each entity a 'score' (or 'prob')",),
        entries=("cli thresholds",)),
    Bad("scored-file-dev-shares-no-label", "scored-files",
        {**scored_files(_mention(0, 2, "DNA", score=0.9)),
         "dev_gold": b'{"tokens": ["a"], "entity_mentions": [{"start": 0, "end": 1, "entity_type": "GENE"}]}\n',
         "dev_pred": b'{"tokens": ["a"], "entity_mentions": [{"start": 0, "end": 1, "entity_type": "GENE", '
                     b'"score": 0.5}]}\n'}, ValueError,
        cli=("share no label (GENE against DNA, protein)",), entries=("cli thresholds",)),
    Bad("scored-file-dev-types-unseen-are-counted", "scored-files",
        {**scored_files(_mention(0, 2, "DNA", score=0.9), _mention(0, 1, "protein", score=0.4)),
         "dev_gold": b'{"tokens": ["a"], "entity_mentions": [{"start": 0, "end": 1, "entity_type": "DNA"}]}\n',
         "dev_pred": b'{"tokens": ["a"], "entity_mentions": [{"start": 0, "end": 1, "entity_type": "DNA", '
                     b'"score": 0.5}]}\n', "args": ["--per-type"]}, None,
        ('"types_without_dev_threshold": {"protein": "never predicted on dev"}', '"labels_only_in_test": ["protein"]'),
        entries=("cli thresholds",)),
    Bad("scored-file-logits-are-scores", "scored-files",
        scored_files(_mention(0, 2, "DNA", score=-2.5), _mention(0, 1, "protein", score=3.5)), None,
        ('"threshold": 3.5', '"threshold": -2.5'), entries=("cli thresholds",)),
    Bad("scored-file-conll-score-not-a-number", "scored-files",
        {"gold": GOOD_COLUMNS, "pred": b"EU B-ORG 0.9\nrejects O 0.1\nGerman B-MISC high\ncall O 0.2\n\n"
                                       b"Peter B-PER 0.7\nBlackburn I-PER 0.6\n",
         "args": ["--gold-format", "conll", "--pred-format", "conll", "--column", "2", "--score-column", "3"]},
        ValueError, cli=("pred.conll, line 3, column 3: score 'high' is not a finite number",),
        entries=("cli thresholds",)),
]


# --------------------------------------------------------------------------- the doors

TAG_OPTIONS = {"scheme", "mode", "suffix"}


@dataclass(frozen=True)
class Door:
    """A Python entry point: the kinds of input and the options it takes, and its core function (what a
    core door calls; what an evaluate module's result must equal on valid input)."""

    kinds: frozenset[str]
    options: frozenset[str]
    core: Callable[..., Any]


def _door(kinds: str, options: str, core: Callable[..., Any]) -> Door:
    return Door(frozenset(kinds.split()), frozenset(options.split()), core)


def _decoded(*args: Any, **kw: Any) -> Any:
    d = decode_pair(*args, **kw)
    return d.predictions.to_lists(), d.references.to_lists(), d.notes


def _nested_core(predictions: Any, references: Any, kind: str, **options: Any) -> dict[str, Any]:
    """What the nested module computes for a kind of input, straight from the core."""
    zero_division = options.pop("zero_division", "warn")
    count = {"spans": nested.count_nested, "layers": nested.count_layered, "tags": nested.count_nested_tags}[kind]
    return nested.summarize_nested(count(predictions, references, **options), zero_division)


ANSWER_OPTIONS = "normalization multiset policy fallback inner_last"
"""The options of language models' answers (the nested and lenient modules take them)."""

CORE_DOORS = {
    "score_exact": _door("tags ids", "scheme mode suffix zero_division label_list", nested_span_f1.score_exact),
    "count_exact": _door("tags ids", "scheme mode suffix label_list", nested_span_f1.count_exact),
    "decode_pair": _door("tags ids", "scheme mode suffix label_list", _decoded),
    "score_lenient": _door("tags ids spans", "partial_weight min_iou zero_division scheme mode suffix label_list",
                           lenient.score_lenient),
    "count_lenient": _door("tags ids spans", "partial_weight min_iou scheme mode suffix label_list",
                           lenient.count_lenient),
    "score_nested": _door("spans", "lengths zero_division", nested.score_nested),
    "count_nested": _door("spans", "lengths", nested.count_nested),
    "count_layered": _door("layers", "", nested.count_layered),
    "score_documents": _door("texts", "zero_division", score_documents),
    "threshold_curve": _door("scored", "zero_division", lambda p, r, **o: threshold_curve(r, p, **o).to_dict()),
}
METRICS = {
    "exact": _door("tags ids texts", "scheme mode suffix zero_division label_list", nested_span_f1.score_exact),
    "lenient": _door("tags spans texts lists",
                             "partial_weight min_iou zero_division scheme mode suffix " + ANSWER_OPTIONS,
                             lenient.score_lenient),
    "nested": _door("tags spans layers texts lists scored",
                            "zero_division scheme mode suffix threshold decode " + ANSWER_OPTIONS, _nested_core),
}
RECOVERY = {
    "exact": {"tags": "ids", "ids": "tags", "texts": "tags"},
    "lenient": {"tags": "spans", "spans": "tags", "texts": "spans", "lists": "spans"},
    "nested": {"tags": "spans", "spans": "tags", "layers": "spans", "texts": "spans", "lists": "spans",
                       "scored": "spans"},
}
"""After a failed call of one input kind, a valid call of another kind must work on the same instance."""
RECOVERY_INPUT = {
    "tags": (_ones("tags"), {}, _ones("tags")),
    "ids": (([[1, 2, 0], [3]], [[1, 0, 0], [3]]), {"label_list": LABELS}, _ones("tags")),
    "spans": (_ones("spans"), {}, _ones("spans")),
}
"""Per kind: the valid input, its options, and the same data as the core reads it without options."""

FILE_DOORS = {
    "columns": ("read_columns", "cli score", "cli lenient"),
    "conlleval": ("cli conlleval",),
    "corpus": ("read_corpus", "cli nested", "cli lenient"),
    "benchmark": ("benchmark", "cli benchmark"),
    "checkpoints": ("benchmark", "benchmark dir", "cli benchmark"),
    "text-files": ("read_corpus", "score_text", "cli score", "cli nested", "cli lenient"),
    "answers-files": ("read_answers", "score_answers", "cli answers", "cli nested", "cli lenient"),
    "agreement": ("agreement", "cli agreement"),
    "scored-files": SCORED_FILES,
}
PATH_DOORS = {"columns": ("read_columns", "iter_columns"), "corpus": ("read_corpus", "read_batches", "read_dataset")}
"""The readers of a file by its kind: a ``path`` row gives each the file in another form (a bytes path, a binary
handle, bytes lines); valid forms must read as the str path reads."""
SPACE_DOORS = tuple(f"space {name}" for name in ("exact", "lenient", "nested"))
"""The Space of each metric: its request handler (:class:`nested_span_f1.space.app.Scorer`)."""


def _takes(door: Door, row: Bad) -> bool:
    # zero_division only keeps valid rows quiet; a row about a bad option runs where the option is taken
    essential = set(row.options) - ({"zero_division"} if row.error is None else set())
    return row.kind in door.kinds and essential <= door.options and (row.kind != "ids" or "label_list" in door.options)


def entries(row: Bad) -> list[str]:
    """Every entry point the row applies to."""
    if row.kind == "trainer":
        return list(row.data[0]) if isinstance(row.data[0], tuple) else [row.data[0]]
    if row.kind == "Corpus":
        return ["Corpus"]
    if row.kind == "path":
        kind, given = row.data
        return [d for d in PATH_DOORS[kind] if given == "bytes path" or d in ("read_columns", "read_corpus")]
    if row.kind == "space":
        return list(SPACE_DOORS)
    if row.kind in ("outputs", "tables"):
        return [f"cli {row.data[0]}"]
    if row.kind in FILE_DOORS:
        names = [d for d in FILE_DOORS[row.kind] if d.startswith("cli") or row.error is not None or row.same_as
                 or row.kind == "answers-files"]
        return [n for n in names if row.entries is None or n in row.entries]
    names = [name for name, door in CORE_DOORS.items() if _takes(door, row)]
    if row.kind == "tags" and row.side and row.error and not set(row.options) - TAG_OPTIONS:
        names.append("tags_to_spans")
    for metric, door in METRICS.items():
        if _takes(door, row):
            names += [f"{metric}.compute", f"{metric}.add_batch"]
    if row.entries is not None:
        names = [n for n in names if n in row.entries]
    return names


CASES = [pytest.param(row, entry, id=f"{row.id}-{entry.replace(' ', '-')}") for row in CATALOGUE for entry in entries(row)]


def test_catalogue_is_large_and_covers_every_door():
    assert len(CATALOGUE) >= 80
    assert len({row.id for row in CATALOGUE}) == len(CATALOGUE)
    covered = {entry for row in CATALOGUE for entry in entries(row)}
    expected = {*CORE_DOORS, "tags_to_spans", "read_columns", "read_corpus", "score_text", "cli score", "cli conlleval",
                "cli nested", "cli lenient", "compute_metrics_for", "span_metrics_for", "layered_metrics_for",
                "Corpus", *PATH_DOORS["columns"], *PATH_DOORS["corpus"], *SPACE_DOORS,
                "benchmark", "benchmark dir", "cli benchmark", "cli space",
                "read_answers", "score_answers", "cli answers", "agreement", "cli agreement",
                "threshold_curve", "cli thresholds",
                *(f"{m}.{call}" for m in METRICS for call in ("compute", "add_batch"))}
    assert covered >= expected, expected - covered


# --------------------------------------------------------------------------- running a row

def _check_error(error: BaseException, row: Bad, *, side: str | None, match: tuple[str, ...] | None = None,
                 expected: type[Exception] | None = None) -> None:
    """The raised error is the row's type, and its message holds every fragment (and the side, if named)."""
    assert isinstance(error, expected or row.error), f"{type(error).__name__}: {error}"
    message = str(error)
    assert "pyarrow" not in message and "Scalar" not in message, message
    fragments = match or row.match
    # evaluate's generic refusal repeats the whole input, so it would hold any value's fragment
    generic = "Expected format" in message and not any("expected format" in f for f in fragments)
    assert not generic, f"evaluate's generic format error, not one naming the place: {message[:200]}"
    for fragment in fragments:
        assert fragment in message, f"{fragment!r} not in {message!r}"
    if side:
        assert side in message, f"{side!r} not in {message!r}"


def _expect(row: Bad, call: Callable[[], Any], reference: Callable[[], Any] | None, *, side: str | None = None) -> None:
    if row.error is None:
        assert _plain(call()) == _plain(reference())
        return
    with pytest.raises(Exception) as raised:
        call()
    _check_error(raised.value, row, side=side)


def _plain(value: Any) -> Any:
    """Results and counts in a comparable, JSON-safe form."""
    if hasattr(value, "to_dict"):
        value = value.to_dict()
    return json.loads(json.dumps(value, allow_nan=False, default=list))


@pytest.fixture(scope="module")
def metrics():
    """One instance of each evaluate module, reused across rows (a failure must not break the next call)."""
    return {name: evaluate.load(nested_span_f1.metric_path(name)) for name in METRICS}


def _run_metric(module: Any, how: str, predictions: Any, references: Any, options: dict[str, Any]) -> Any:
    if how == "compute":
        return module.compute(predictions=predictions, references=references, **options)
    module.add_batch(predictions=predictions, references=references)
    return module.compute(**options)


def _python_row(row: Bad, entry: str, metrics: dict[str, Any]) -> None:
    predictions, references = row.data
    options = dict(row.options)
    if entry == "tags_to_spans":
        sentences = predictions if row.side == "predictions" else references
        _expect(row, lambda: nested_span_f1.tags_to_spans(sentences, **options), None)
        return
    if entry in CORE_DOORS:
        door = CORE_DOORS[entry]
        options = {k: v for k, v in options.items() if k in door.options}
        same = row.same_as or (None, None)
        _expect(row, lambda: door.core(predictions, references, **options),
                lambda: door.core(*same, **{k: v for k, v in options.items() if k != "label_list"}), side=row.side)
        return
    metric, how = entry.split(".")
    door, module = METRICS[metric], metrics[metric]
    options = {k: v for k, v in options.items() if k in door.options}
    if row.error is None:
        plain = {k: v for k, v in options.items() if k != "label_list"}
        if metric == "nested":
            # input in which no sentence holds anything is read as spans (the module's empty kind)
            empty = not any(map(len, [*predictions, *references]))
            plain["kind"] = "spans" if row.kind == "spans" or empty else "tags"
        plain.setdefault("zero_division", 0)
        options.setdefault("zero_division", 0)
        got = _run_metric(module, how, predictions, references, options)
        assert _plain(got) == _plain(door.core(*row.same_as, **plain))
        return
    with pytest.raises(Exception) as raised:
        _run_metric(module, how, predictions, references, options)
    _check_error(raised.value, row, side=row.side, match=row.metric_match, expected=row.metric_error)
    kind = RECOVERY[metric][row.kind]
    (pred, ref), extra, plain_pair = RECOVERY_INPUT[kind]
    expected = door.core(*plain_pair, zero_division=0, **({"kind": kind} if metric == "nested" else {}))
    try:
        again = module.compute(predictions=pred, references=ref, zero_division=0, **extra)
    except Exception as error:  # reported as the row's failure, with what the instance did
        pytest.fail(f"the refusal was right, but then a valid {kind} call failed on the same instance: "
                    f"{type(error).__name__}: {str(error)[:200]}")
    assert _plain(again) == _plain(expected), "the module gives other numbers after a failed call"


def _batch(label_ids: Any, index: int) -> Any:
    """Sentence ``index`` of label ids (an array, or a tuple of arrays), as a batch of one."""
    if isinstance(label_ids, tuple):
        return tuple(_batch(x, index) for x in label_ids)
    return label_ids[index:index + 1]


def _trainer_row(row: Bad, entry: str) -> None:
    """The row through one factory: built (a row whose predictions and label_ids are None is about the
    options alone), then called one shot, or with ``streamed`` one sentence a batch as Trainer does with
    batch_eval_metrics (``interrupted``: after an evaluation stopped before its last batch, and a reset)."""
    from transformers import EvalPrediction

    from nested_span_f1.hf import nested_trainer, trainer

    _, kwargs, predictions, label_ids = row.data
    factory = getattr(trainer if entry == "compute_metrics_for" else nested_trainer, entry)

    def call() -> Any:
        compute = factory(**kwargs)
        if predictions is None and label_ids is None:
            return compute
        if not row.options.get("streamed"):
            return compute(EvalPrediction(predictions=predictions, label_ids=label_ids))
        n = len(predictions)
        if row.options.get("interrupted"):
            for i in range(n - 1):
                compute(EvalPrediction(predictions=predictions[i:i + 1], label_ids=_batch(label_ids, i)),
                        compute_result=False)
            compute.reset()
        for i in range(n):
            result = compute(EvalPrediction(predictions=predictions[i:i + 1], label_ids=_batch(label_ids, i)),
                             compute_result=i == n - 1)
        return result

    def one_shot() -> Any:
        return factory(**row.same_as)(EvalPrediction(predictions=predictions, label_ids=label_ids))

    _expect(row, call, one_shot, side=row.side)


# --------------------------------------------------------------------------- files and the CLI

def _write(tmp_path: Any, name: str, content: bytes | None) -> str:
    path = tmp_path / name
    if content is not None:
        path.write_bytes(content)
    return str(path)


def _cli_args(row: Bad, entry: str, tmp_path: Any, data: Any, options: dict[str, Any] | None = None,
              ) -> tuple[list[str], bytes | None]:
    """The command line of a file row (and the stdin of conlleval); ``options`` default to the row's."""
    command = entry.split()[1]
    options = row.options if options is None else options
    if row.kind == "conlleval":
        args = ["conlleval"]
        if "-d" in options:
            args += ["-d", options["-d"]]
        return args, data
    if row.kind == "columns":
        gold, pred = _write(tmp_path, "gold.conll", data["gold"]), _write(tmp_path, "pred.conll", data["pred"])
        args = [command, "--gold", gold, "--pred", pred, "--json"]
        for option in ("scheme", "mode", "delimiter", "column"):
            if option in options:
                args += [f"--{option}", options[option]]
        if command == "lenient":
            args += ["--gold-format", "conll", "--pred-format", "conll"]
        return args, None
    fmt, text = data
    gold = _write(tmp_path, "gold.json", text)
    # valid rows are scored against their plain form; bad rows against a good file
    pred_format, pred_text = row.same_as or ("oneie", GOOD_ONEIE)
    pred = _write(tmp_path, "pred.json", pred_text)
    args = [command, "--gold", gold, "--pred", pred, "--pred-format", pred_format, "--json"]
    if fmt:
        args += ["--gold-format", fmt]
    return args, None


CHECKOUT = Path(nested_span_f1.__file__).resolve().parents[1]
"""The source checkout the tests run in (the package's parent folder)."""


def _checkout() -> tuple[list[str], list[tuple[str, int, int]]]:
    """The checkout's top-level names (a new ``build/`` or ``*.egg-info`` shows) and every file of the package
    tree with its size and time; bytecode caches, which Python writes on import, left out."""
    if not (CHECKOUT / "setup.py").is_file():
        return [], []
    names = sorted(p.name for p in CHECKOUT.iterdir() if not p.name.startswith("."))
    files = sorted((str(p), p.stat().st_size, p.stat().st_mtime_ns) for folder in ("nested_span_f1", "metrics")
                   for p in (CHECKOUT / folder).rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    return names, files


def _files(folder: Any) -> dict[str, tuple[bytes, int]]:
    return {str(p): (p.read_bytes(), p.stat().st_mtime_ns) for p in Path(folder).rglob("*") if p.is_file()}


@contextmanager
def _leaves_alone(folder: Any, outputs: tuple[str, ...] = ()) -> Any:
    """The command inside leaves the checkout as it was, and every file of ``folder`` (bytes and time);
    the only files it may add are ``outputs``."""
    checkout, before = _checkout(), _files(folder)
    yield
    after = _files(folder)
    changed = [path for path, was in before.items() if after.get(path) != was]
    assert not changed, f"inputs changed: {changed}"
    added = sorted(set(after) - set(before) - set(outputs))
    assert not added, f"files written that are not outputs: {added}"
    assert _checkout() == checkout, "the command wrote into the source checkout"


def _run_cli(args: list[str], stdin: bytes | None, capsys: Any, monkeypatch: Any, folder: Any,
             outputs: tuple[str, ...] = ()) -> tuple[int, str, str]:
    """Run the command line in this process: its status (argparse's too), stdout and stderr; the checkout and
    the files of ``folder`` (its inputs) must be left as they were."""
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"))
    capsys.readouterr()
    with _leaves_alone(folder, outputs):
        try:
            code = main(args)
        except SystemExit as stopped:  # argparse refuses the command line
            code = stopped.code
    out, err = capsys.readouterr()
    return code, out, err


def _one_line_error(entry: str, code: int, out: str, err: str, fragments: tuple[str, ...]) -> None:
    """Status 2, nothing on stdout, one line on stderr holding every fragment."""
    assert (code, out) == (2, ""), (code, out, err)
    lines = err.splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    assert lines[0].startswith(f"nested-span-f1 {entry.split()[1]}: error: "), lines[0]
    for fragment in fragments:
        assert fragment in lines[0], f"{fragment!r} not in {lines[0]!r}"


def _file_row(row: Bad, entry: str, tmp_path: Any, capsys: Any, monkeypatch: Any) -> None:
    if entry == "read_columns":
        path = _write(tmp_path, "gold.conll", row.data["gold"])
        delimiter = row.options.get("delimiter")
        if row.error is None:
            same = _write(tmp_path, "plain.conll", row.same_as["gold"])
            got, want = conll.read_columns(path, delimiter), conll.read_columns(same, delimiter)
            assert (got.tokens, got.rows, got.lines) == (want.tokens, want.rows, want.lines)
            return
        _expect(row, lambda: conll.read_columns(path, delimiter), None)
        return
    if entry == "read_corpus":
        fmt, text = row.data
        path = _write(tmp_path, "gold.json", text)
        if row.error is None:
            got, want = read_corpus(path, fmt), read_corpus(_write(tmp_path, "plain.json", row.same_as[1]), row.same_as[0])
            assert (got.format, got.tokens, got.entities) == (want.format, want.tokens, want.entities)
            return
        _expect(row, lambda: read_corpus(path, fmt), None)
        return
    args, stdin = _cli_args(row, entry, tmp_path, row.data)
    code, out, err = _run_cli(args, stdin, capsys, monkeypatch, tmp_path)
    if row.same_as is not None:
        (tmp_path / "plain").mkdir()
        plain = row.same_as if isinstance(row.same_as, Plain) else Plain(row.same_as, row.options)
        plain_args, plain_stdin = _cli_args(row, entry, tmp_path / "plain", plain.data, plain.options)
        expected = _run_cli(plain_args, plain_stdin, capsys, monkeypatch, tmp_path)
        assert expected[0] == 0 and expected[1], expected
        assert (code, out, err) == expected
        return
    _one_line_error(entry, code, out, err, row.cli)


def _filled(value: Any, place: dict[str, str]) -> Any:
    """``value`` with ``{gold}`` and ``{pred}`` in its strings (keys too) replaced by the row's files."""
    if isinstance(value, str):
        return value.format(**place)
    if isinstance(value, dict):
        return {_filled(k, place): _filled(v, place) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_filled(v, place) for v in value)
    return value


def _benchmark_row(row: Bad, entry: str, tmp_path: Any, capsys: Any, monkeypatch: Any) -> None:
    """A gold file against one prediction file, with the row's options: by benchmark() and by the command.
    ``options["predictions"]`` replaces ``{"a": pred}`` in the call, ``options["pred"]`` the command's
    ``--pred a=PRED``."""
    gold, pred = _write(tmp_path, "gold.jsonl", row.data), _write(tmp_path, "pred.jsonl", GOOD_ONEIE)
    place = {"gold": gold, "pred": pred}
    options = {key: _filled(value, place) for key, value in row.options.items()}
    predictions = options.pop("predictions", {"a": pred})
    given = options.pop("pred", f"a={pred}")
    if entry == "benchmark":
        _expect(row, lambda: benchmark(gold, predictions, progress=False, **options), None)
        return
    flags = [text for key, value in options.items() for text in (BENCHMARK_FLAGS[key], str(value))]
    args = ["benchmark", "--gold", gold, "--pred", given, "--no-progress", *flags]
    _one_line_error(entry, *_run_cli(args, None, capsys, monkeypatch, tmp_path), _filled(row.cli, place))


def _checkpoints_row(row: Bad, entry: str, tmp_path: Any, capsys: Any, monkeypatch: Any) -> None:
    """A run directory's checkpoints, found by one rule whether benchmark() is given the directory or a name
    for it, or the command ``--pred run=DIR``; ``same_as`` lists ``(name, step, file in the run)``."""
    gold_name, gold_text, tree = row.data
    gold, run = _write(tmp_path, gold_name, gold_text), tmp_path / "run"
    for name, content in tree.items():
        (run / name).parent.mkdir(parents=True, exist_ok=True)
        (run / name).write_bytes(content)
    prefix = "" if entry == "benchmark dir" else "run/"
    expected = [(prefix + name, step, str(run / file)) for name, step, file in row.same_as or ()]
    dev = row.options.get("dev", False)  # the gold is also the development gold: the run's folders are read for it
    if entry != "cli benchmark":
        given = run if entry == "benchmark dir" else {"run": run}
        call = lambda: benchmark(gold, given, n_resamples=20, progress=False,  # noqa: E731
                                 dev_references=gold if dev else None)
        if row.error is None:
            assert [(s["name"], s["step"], s["source"]) for s in call().systems] == expected
        else:
            _expect(row, call, None)
        return
    args = ["benchmark", "--gold", gold, "--pred", f"run={run}", "--bootstrap", "20", "--no-progress", "--json",
            *(["--dev-gold", gold] if dev else [])]
    code, out, err = _run_cli(args, None, capsys, monkeypatch, tmp_path)
    if row.error is None:
        assert (code, err) == (0, ""), err
        systems = json.loads(out)["systems"]
        assert [(s["name"], s["step"], s["source"]) for s in systems] == expected
        return
    _one_line_error(entry, code, out, err, row.cli)


def _outputs_row(row: Bad, entry: str, tmp_path: Any, capsys: Any, monkeypatch: Any) -> None:
    """A command line whose output is one of its inputs: refused in one line, every file left as it was.
    Standard output redirected into an input needs a real process (``options["stdout"]``)."""
    place = {"tmp": str(tmp_path), "gold": _write(tmp_path, "gold.jsonl", GOOD_ONEIE),
             "pred": _write(tmp_path, "pred.jsonl", GOOD_ONEIE), "conll": _write(tmp_path, "gold.conll", GOOD_COLUMNS),
             "stdin": _write(tmp_path, "stdin.txt", GOOD_CONLLEVAL), "run": str(tmp_path / "run"),
             "hard": str(tmp_path / "hard-link.png"), "link": str(tmp_path / "link.md"),
             "wheel": _write(tmp_path, f"nested_span_f1-{nested_span_f1.__version__}-py3-none-any.whl", b"")}
    (tmp_path / "run").mkdir()
    _write(tmp_path / "run", "checkpoint-500.jsonl", GOOD_ONEIE)
    os.link(place["conll"] if row.data[0] == "score" else place["gold"], place["hard"])
    os.symlink(place["pred"], place["link"])
    os.symlink(place["wheel"], tmp_path / "my_space")
    args = [arg.format(**place) for arg in row.data]
    fragments = tuple(fragment.format(**place) for fragment in row.cli)
    if "stdout" not in row.options:
        _one_line_error(entry, *_run_cli(args, None, capsys, monkeypatch, tmp_path), fragments)
        return
    target = row.options["stdout"].format(**place)
    with _leaves_alone(tmp_path), open(target, "ab") as out, open(place["stdin"], "rb") as stdin:
        done = _cli(args, stdin=stdin, stdout=out, stderr=subprocess.PIPE)
    _one_line_error(entry, done.returncode, "", done.stderr.decode(), fragments)


def _tables_row(row: Bad, entry: str, tmp_path: Any, capsys: Any, monkeypatch: Any) -> None:
    """A command line on Parquet input (or options of Parquet input on other input): refused in one line, before
    anything is counted; ``options["add"]`` puts more files in the folder (``"table"``: a copy of the table)."""
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    table = pa.table({"predictions": [["B-PER", "O"]], "references": [["B-PER", "O"]]})
    place = {"table": str(tmp_path / "table.parquet"), "folder": str(tmp_path / "folder"),
             "empty": str(tmp_path / "empty"), "no_tags": _write(tmp_path, "no_tags.txt", b"\n"),
             "conll": _write(tmp_path, "gold.conll", GOOD_COLUMNS), "gold": _write(tmp_path, "gold.jsonl", GOOD_ONEIE),
             "pred": _write(tmp_path, "pred.jsonl", GOOD_ONEIE)}
    pq.write_table(table, place["table"])
    for name in ("folder", "empty", "empty/_temporary"):
        (tmp_path / name).mkdir()
    pq.write_table(table, tmp_path / "folder" / "part-0.parquet")
    _write(tmp_path / "folder", "_SUCCESS", b"")
    for name, content in row.options.get("add", {}).items():
        (tmp_path / "folder" / name).parent.mkdir(exist_ok=True)
        if content == "table":
            pq.write_table(table, tmp_path / "folder" / name)
        else:
            _write(tmp_path / "folder", name, content)
    args = [arg.format(**place) for arg in row.data]
    _one_line_error(entry, *_run_cli(args, None, capsys, monkeypatch, tmp_path),
                    tuple(fragment.format(**place) for fragment in row.cli))


ISSUE_26_KINDS = {"benchmark": _benchmark_row, "checkpoints": _checkpoints_row, "outputs": _outputs_row}
"""The kinds of the block ``issue 26: commands and benchmark`` and their runners."""


# --------------------------------------------------------------------------- Corpus, paths, the Space

def _corpus_row(row: Bad) -> None:
    _expect(row, lambda: nested_span_f1.Corpus(*row.data), None)


def _read(door: str, source: Any) -> Any:
    """What a reader read, in a comparable form."""
    if door in ("read_columns", "iter_columns"):
        blocks = conll.read_columns(source) if door == "read_columns" else list(conll.iter_columns(source))
        return [(b.fields, b.width, b.line) for b in (blocks.blocks if door == "read_columns" else blocks)]
    if door == "read_dataset":
        return read_dataset(source).to_dict()
    corpora = [read_corpus(source)] if door == "read_corpus" else list(read_batches(source))
    return [(c.format, c.source, list(c.tokens), list(c.entities)) for c in corpora]


def _path_row(row: Bad, entry: str, tmp_path: Any) -> None:
    kind, given = row.data
    path = _write(tmp_path, "gold.conll" if kind == "columns" else "gold.json",
                  GOOD_COLUMNS if kind == "columns" else GOOD_ONEIE)
    with open(path, "rb") as handle:
        source = {"bytes path": os.fsencode(path), "binary handle": handle,
                  "bytes lines": handle.read().splitlines(keepends=True)}[given]
        _expect(row, lambda: _read(entry, source), lambda: _read(entry, path))


def _upload(spec: tuple[Any, ...] | None, tmp_path: Any) -> str | None:
    """The path of an upload row's file: a device, a folder, a FIFO, a missing file, or a file of the given bytes."""
    if spec is None:
        return None
    what = spec[0]
    if what == "device":
        return spec[1]
    path = tmp_path / "upload.json"
    if what == "folder":
        path.mkdir()
    elif what == "fifo":
        os.mkfifo(path)
    elif what == "file":
        path.write_bytes(spec[1])
    return str(path)


def _space_row(row: Bad, entry: str, tmp_path: Any) -> None:
    """The request through the Space's handler: a refused one is one plain sentence on the page (and the
    exception behind it is the row's); a valid one gives the result of its plain form."""
    from nested_span_f1.space.app import SPECS, Scorer, metric_script

    name = entry.split()[1]
    scorer = Scorer(metric_script(nested_span_f1.metric_path(name)), SPECS[name])
    text, upload, options = row.data
    request = (text, _upload(upload, tmp_path), options)

    def alarm(*_: Any) -> None:
        raise TimeoutError("the Space did not answer within 60 s")

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(60)
    try:
        page = scorer(*request)
        if row.error is None:
            assert page[0] == scorer(*row.same_as)[0] and not page[0].startswith("Error")
            results = (json.loads(Path(out[-1]).read_text(encoding="utf-8")) for out in (page, scorer(*row.same_as)))
            assert next(results) == next(results)
            return
        message = page[0]
        assert message.startswith("Error: ") and "\n" not in message and not message.startswith("Error ("), message
        with pytest.raises(Exception) as raised:
            scorer.request(*request)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    _check_error(raised.value, row, side=None)
    assert message == f"Error: {' '.join(str(raised.value).split())}"


@pytest.mark.parametrize(("row", "entry"), CASES)
def test_bad_input(row, entry, metrics, tmp_path, capsys, monkeypatch):
    if row.kind == "trainer":
        _trainer_row(row, entry)
    elif row.kind == "Corpus":
        _corpus_row(row)
    elif row.kind == "path":
        _path_row(row, entry, tmp_path)
    elif row.kind == "space":
        _space_row(row, entry, tmp_path)
    elif row.kind in ISSUE_26_KINDS:
        ISSUE_26_KINDS[row.kind](row, entry, tmp_path, capsys, monkeypatch)
    elif row.kind == "tables":
        _tables_row(row, entry, tmp_path, capsys, monkeypatch)
    elif row.kind == "text-files":
        _text_file_row(row, entry, tmp_path, capsys)
    elif row.kind == "answers-files":
        _answers_file_row(row, entry, tmp_path, capsys)
    elif row.kind == "agreement":
        _agreement_row(row, entry, tmp_path, capsys, monkeypatch)
    elif row.kind == "scored-files":
        _scored_file_row(row, entry, tmp_path, capsys)
    elif row.kind in FILE_DOORS:
        _file_row(row, entry, tmp_path, capsys, monkeypatch)
    else:
        _python_row(row, entry, metrics)


# --------------------------------------------------------------------------- issue 28: text files

def _text_file_row(row: Bad, entry: str, tmp_path: Any, capsys: Any) -> None:
    """A text-span or pipeline file row: the prediction file read alone, scored against the gold (score_text),
    and on the command line (exit 2 and one line counting documents from 1; a reported row exits 0 with one
    warning line and the output of the same spans without their words)."""
    def paths(data: dict[str, bytes], folder: Any) -> tuple[str, str]:
        folder.mkdir(exist_ok=True)
        return _write(folder, "gold.jsonl", data["gold"]), _write(folder, "pred.jsonl", data["pred"])

    gold, pred = paths(row.data, tmp_path / "row")
    calls = {"read_corpus": lambda g, p: read_corpus(p).entities,
             "score_text": lambda g, p: score_text(p, g, zero_division=0)}
    if entry in calls:
        if row.error is not None:
            _expect(row, lambda: calls[entry](gold, pred), None)
            return
        with pytest.warns(TextMismatchWarning) as caught:
            got = calls[entry](gold, pred)
        assert len(caught) == 1 and all(fragment in str(caught[0].message) for fragment in row.match)
        plain = calls[entry](*paths(row.same_as, tmp_path / "plain"))
        if entry == "score_text":
            assert got["alignment"].pop("read")["predictions"] == {"pipeline_word_mismatches": 1}
            plain["alignment"].pop("read")
        assert _plain(got) == _plain(plain)
        return
    args = [entry.split()[1], "--gold", gold, "--pred", pred, "--json"]
    capsys.readouterr()
    code = main(args)
    out, err = capsys.readouterr()
    lines = err.splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    for fragment in row.cli:
        assert fragment in lines[0], f"{fragment!r} not in {lines[0]!r}"
    if row.error is None:
        plain_gold, plain_pred = paths(row.same_as, tmp_path / "plain")
        assert code == 0 and main([entry.split()[1], "--gold", plain_gold, "--pred", plain_pred, "--json"]) == 0
        got = json.loads(out)
        assert got["alignment"].pop("read") == {"predictions": {"pipeline_word_mismatches": 1}, "references": {}}
        plain = json.loads(capsys.readouterr().out)
        plain["alignment"].pop("read")
        assert got == plain
        return
    assert code == 2 and lines[0].startswith(f"nested-span-f1 {entry.split()[1]}: error: "), (code, err)


# --------------------------------------------------------------------------- issue 29: language models' answers

def _answers_file_row(row: Bad, entry: str, tmp_path: Any, capsys: Any) -> None:
    """A file of answers row: read alone (read_answers), scored against the gold (score_answers), and
    on the command line (exit 2 and one line; a counted row exits 0 and its JSON holds the row's fragments)."""
    gold = _write(tmp_path, "gold.jsonl", row.data["gold"])
    pred = _write(tmp_path, "pred.jsonl", row.data["pred"])
    calls = {"read_answers": lambda: read_answers(read_text(pred), pred),
             "score_answers": lambda: score_answers(pred, gold, zero_division=0)}
    if entry in calls:
        if row.error is not None:
            _expect(row, calls[entry], None)
            return
        # more than 5% of the answers unreadable: score_answers warns once, naming them as the report does
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", UnreadableAnswersWarning)
            text = json.dumps(calls[entry]())
        unreadable = [str(w.message) for w in caught if issubclass(w.category, UnreadableAnswersWarning)]
        assert len(unreadable) == (json.loads(text).get("answers", {}).get("unparseable_share", 0) > 0.05), unreadable
        for fragment in row.match:
            assert fragment in text, f"{fragment!r} not in {text[:300]!r}"
        return
    capsys.readouterr()
    code = main([entry.split()[1], "--gold", gold, "--pred", pred, "--json"])
    out, err = capsys.readouterr()
    if row.error is None:
        # more than 5% of the answers unreadable: one warning line on stderr, which the row's fragments then name
        assert code == 0 and (not err or (err.startswith("warning: ") and len(err.splitlines()) == 1)), err
        text = json.dumps(json.loads(out))
        for fragment in row.match:
            assert fragment in text, f"{fragment!r} not in {text[:300]!r}"
        return
    lines = err.splitlines()
    assert code == 2 and len(lines) == 1 and "Traceback" not in err, (code, err)
    assert lines[0].startswith(f"nested-span-f1 {entry.split()[1]}: error: "), lines[0]
    for fragment in row.cli:
        assert fragment in lines[0], f"{fragment!r} not in {lines[0]!r}"


# --------------------------------------------------------------------------- issue 40: agreement

def _annotators(data: dict[str, Any], folder: Any, same: bool = False) -> dict[str, str]:
    """Each annotator's file (or brat folder) written into ``folder``, by name; ``same``: the second annotator is
    given the first one's path."""
    folder.mkdir(exist_ok=True)
    paths: dict[str, str] = {}
    for k, (name, (file, content)) in enumerate(data.items()):
        where = folder / f"{k}-{file}"
        if same and k:
            paths[name] = next(iter(paths.values()))
        elif isinstance(content, dict):
            where.mkdir()
            for child, text in content.items():
                (where / child).write_bytes(text)
            paths[name] = str(where)
        else:
            paths[name] = _write(folder, where.name, content)
    return paths


def _agreement_row(row: Bad, entry: str, tmp_path: Any, capsys: Any, monkeypatch: Any) -> None:
    """Annotators' files through agreement() and the command: a refused row in one message (the command: exit 2
    and one line, counting sentences from 1); a valid row gives the figures of ``same_as``'s files. ``options``:
    ``same`` (the second annotator given the first one's path), ``names`` (the annotators' names), ``given`` (the
    call's first argument instead of the files), and agreement()'s own options."""
    from nested_span_f1.agreement import agreement

    options = dict(row.options)
    paths = _annotators(row.data, tmp_path / "row", options.pop("same", False))
    names = options.pop("names", None)
    if names:
        paths = dict(zip(names, paths.values()))
    annotations: Any = options.pop("given", paths)
    if isinstance(options.get("models"), dict):
        options["models"] = {model: paths[name] for model, name in options["models"].items()}
    if entry == "agreement":
        if row.error is not None:
            _expect(row, lambda: agreement(annotations, **options), None)
            return
        got = agreement(annotations, n_resamples=50, **options)
        plain = agreement(_annotators(row.same_as, tmp_path / "plain"), n_resamples=50, **options)
        assert _figures(got) == _figures(plain)
        return
    flags = {"reference": "--reference", "examples": "--show", "n_resamples": "--bootstrap"}
    args = ["agreement", *(f"{name}={path}" for name, path in paths.items()), "--bootstrap", "50",
            *(text for key, value in options.items() if key in flags for text in (flags[key], str(value))),
            *(text for model, path in options.get("models", {}).items() for text in ("--model", f"{model}={path}"))]
    code, out, err = _run_cli(args, None, capsys, monkeypatch, tmp_path)
    if row.error is None:
        plain = _annotators(row.same_as, tmp_path / "plain")
        expected = _run_cli(["agreement", *(f"{n}={p}" for n, p in plain.items()), "--bootstrap", "50", "--json"],
                            None, capsys, monkeypatch, tmp_path)
        assert code == 0 and expected[0] == 0 and not err, err
        got = _run_cli([*args, "--json"], None, capsys, monkeypatch, tmp_path)
        assert _figures(json.loads(got[1])) == _figures(json.loads(expected[1]))
        return
    _one_line_error(entry, code, out, err, row.cli or row.match)


def _figures(result: dict) -> dict:
    """An agreement result's figures: without its notes (how each set was read) and how documents were paired."""
    figures = {k: v for k, v in result.items() if k != "notes"}
    figures["documents"] = {k: v for k, v in result["documents"].items() if k != "paired"}
    return figures
# --------------------------------------------------------------------------- issue 39: scored predictions

def _scored_file_row(row: Bad, entry: str, tmp_path: Any, capsys: Any) -> None:
    """A scored prediction file: read alone (read_corpus), and on the thresholds command against the gold (and the
    development files, when the row has them): exit 2 and one line, or (a valid row) exit 0 with the row's
    fragments in its JSON."""
    names = {"gold": "gold.jsonl", "pred": "pred.jsonl", "dev_gold": "dev_gold.jsonl", "dev_pred": "dev_pred.jsonl"}
    if row.data["pred"].startswith(b"EU"):
        names.update(gold="gold.conll", pred="pred.conll")
    paths = {key: _write(tmp_path, names[key], row.data[key]) for key in names if key in row.data}
    if entry == "read_corpus":
        _expect(row, lambda: read_corpus(paths["pred"]), None)
        return
    args = ["thresholds", "--gold", paths["gold"], "--pred", paths["pred"], "--json", *row.data.get("args", [])]
    if "dev_gold" in paths:
        args += ["--dev-gold", paths["dev_gold"], "--dev-pred", paths["dev_pred"]]
    capsys.readouterr()
    code = main(args)
    out, err = capsys.readouterr()
    if row.error is None:
        assert (code, err) == (0, ""), err
        text = json.dumps(json.loads(out))
        for fragment in row.match:
            assert fragment in text, f"{fragment!r} not in {text[:300]!r}"
        return
    _one_line_error(entry, code, out, err, row.cli)


# --------------------------------------------------------------------------- the process edge (a real subprocess)

def _cli(args: list[str], **kwargs: Any) -> subprocess.CompletedProcess:
    kwargs.setdefault("capture_output", "stdout" not in kwargs)
    return subprocess.run([sys.executable, "-m", "nested_span_f1.cli", *args], timeout=120, check=False, **kwargs)


def test_closed_stdin_is_one_line_and_exit_2():
    done = subprocess.run([sys.executable, "-m", "nested_span_f1.cli", "conlleval"], stdin=subprocess.DEVNULL,
                          capture_output=True, timeout=120, check=False, preexec_fn=lambda: os.close(0))
    err = done.stderr.decode()
    assert done.returncode == 2, (done.returncode, err)
    assert len(err.splitlines()) == 1 and "stdin" in err and "Traceback" not in err, err


@pytest.mark.parametrize("command", ["conlleval", "score", "formats"])
def test_closed_stdout_pipe_exits_quietly(command, tmp_path):
    """``nested-span-f1 ... | head -0``: the reader has gone; no traceback, no message, as Unix tools do."""
    sentences = b"".join(b"w%d NN B-T%d B-T%d\nx NN I-T%d O\n\n" % (i, i % 400, i % 400, i % 400) for i in range(4000))
    if command == "score":
        gold = _write(tmp_path, "gold.conll", sentences)
        args = ["score", "--gold", gold, "--pred", gold]
    else:
        args = [command]
    read, write = os.pipe()
    process = subprocess.Popen([sys.executable, "-m", "nested_span_f1.cli", *args], stdin=subprocess.PIPE,
                               stdout=write, stderr=subprocess.PIPE)
    os.close(write)
    os.close(read)
    _, err = process.communicate(sentences if command == "conlleval" else b"", timeout=120)
    assert err.decode() == "", err.decode()
    assert process.returncode in (0, -signal.SIGPIPE, 128 + signal.SIGPIPE), process.returncode


@pytest.mark.parametrize("missing", ["gradio", "nested_span_f1"])
@pytest.mark.parametrize("name", ["exact", "lenient", "nested"])
def test_app_without_the_app_extra_says_what_to_install_in_one_line(name, missing, tmp_path):
    """``python app.py`` in a metric folder where a package the app needs cannot be imported (blocked by a
    sitecustomize, as if never installed): the one-line hint the command line gives, status 2, no traceback."""
    (tmp_path / "sitecustomize.py").write_text(f"import sys\nsys.modules[{missing!r}] = None\n", encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(tmp_path), os.environ.get("PYTHONPATH")]))}
    done = subprocess.run([sys.executable, "app.py"], cwd=nested_span_f1.metric_path(name), env=env, capture_output=True,
                          text=True, timeout=120, check=False)
    assert (done.returncode, done.stdout) == (2, ""), done.stderr
    # the package is on no index: the package and its extra alike come from the clone
    assert done.stderr == (f"app.py: error: this needs {missing}; install it in the clone with python -m pip install "
                           '".[app]" (in a Space folder: pip install -r requirements.txt)\n')
def _git_status() -> list[str]:
    """``git status`` of the checkout, ignored files included; bytecode and test-tool caches left out."""
    done = subprocess.run(["git", "-C", str(CHECKOUT), "status", "--porcelain", "--ignored", "--untracked-files=all"],
                          capture_output=True, text=True, check=True)
    caches = ("__pycache__", ".hypothesis/", ".pytest_cache/", ".mypy_cache/", ".ruff_cache/")
    return [line for line in done.stdout.splitlines() if not any(cache in line for cache in caches)]


def test_commands_leave_the_checkout_and_their_inputs_alone(tmp_path):
    """Every command, run from the checkout as a user would, the writing ones with every output (``space``
    building its wheel): git sees the same package tree afterwards (no build/, no *.egg-info) and the
    inputs hold the same bytes and times; the outputs are where they were asked for."""
    if not (CHECKOUT / ".git").exists() or subprocess.run(["git", "--version"], capture_output=True).returncode:
        pytest.skip(f"{CHECKOUT} is not a git checkout, or git is missing")
    inputs, out = tmp_path / "in", tmp_path / "out"
    out.mkdir()
    for name, content in {"gold.jsonl": GOOD_ONEIE, "pred.jsonl": GOOD_ONEIE, "gold.conll": GOOD_COLUMNS,
                          "pred.conll": GOOD_COLUMNS, "conlleval.txt": GOOD_CONLLEVAL,
                          "run/checkpoint-500.jsonl": GOOD_ONEIE, "run/checkpoint-1000/predictions.jsonl": GOOD_ONEIE,
                          "run/checkpoint-1000/config.json": b"{}\n"}.items():
        (inputs / name).parent.mkdir(parents=True, exist_ok=True)
        (inputs / name).write_bytes(content)
    i, o = f"{inputs}/", f"{out}/"
    commands = [
        ["demo"], ["formats"], ["conlleval"],
        ["score", "--gold", i + "gold.conll", "--pred", i + "pred.conll", "--plot", o + "score.png"],
        ["lenient", "--gold", i + "gold.conll", "--pred", i + "pred.conll"],
        ["nested", "--gold", i + "gold.jsonl", "--pred", i + "pred.jsonl"],
        ["benchmark", "--gold", i + "gold.jsonl", "--pred", f"a={i}pred.jsonl", "--pred", f"run={i}run",
         "--bootstrap", "100", "--json", "--markdown", o + "b.md", "--html", o + "b.html", "--plot",
         o + "b.png", "--model-card", o + "card.md"],
        ["table", o + "b.json", "--markdown", o + "t.md", "--latex", o + "t.tex"],
        ["space", "exact", o + "my_space"],
    ]
    status, before = _git_status(), _files(inputs)
    for command in commands:
        with open(inputs / "conlleval.txt", "rb") as stdin:
            done = _cli(command, cwd=CHECKOUT, stdin=stdin, capture_output=True)
        assert done.returncode == 0, (command, done.stderr.decode()[-2000:])
        assert _git_status() == status, f"{command[0]} wrote into the checkout"
        if command[0] == "benchmark":  # --json prints; the shell's > writes it where the user says
            (out / "b.json").write_bytes(done.stdout)
    assert _files(inputs) == before
    assert sorted(p.name for p in out.iterdir()) == ["b.html", "b.json", "b.md", "b.png", "card.md", "my_space",
                                                     "score.png", "t.md", "t.tex"]
    assert (out / "my_space" / "requirements.txt").is_file()


def test_no_traceback_through_a_real_process(tmp_path):
    """The same one line in a real process as in main(): a deep json file given to nested."""
    gold = _write(tmp_path, "gold.json", b"[" * 100_000 + b"]" * 100_000)
    pred = _write(tmp_path, "pred.jsonl", GOOD_ONEIE)
    done = _cli(["nested", "--gold", gold, "--pred", pred])
    err = done.stderr.decode()
    assert done.returncode == 2 and len(err.splitlines()) == 1 and "gold.json" in err, err



STREAMED = {
    "compute_metrics_for": ({"label_list": LABELS}, np.array([[1, 2, 0]]), np.array([[1, 2, 0]]), np.array([[1, 7]]),
                            np.array([[1, 2]]), np.array([[3, 0, 0]]), np.array([[1, 0, 0]])),
    "layered_metrics_for": ({"label_list": LABELS}, np.array([[[1], [2]]]), np.array([[[1], [2]]]),
                            np.array([[[9], [0]]]), np.array([[[1], [0]]]), np.array([[[3], [0]]]),
                            np.array([[[1], [0]]])),
    "span_metrics_for": ({"label_list": ["none", "PER"]}, np.array([[1, 0]]),
                         (np.array([[1, 0]]), np.array([[0, 1]]), np.array([[1, 2]])), np.array([[7, 0]]),
                         (np.array([[1, 0]]), np.array([[0, 1]]), np.array([[1, 2]])), np.array([[0, 0]]),
                         (np.array([[1, 0]]), np.array([[0, 1]]), np.array([[1, 2]]))),
}
"""Per factory: its options, a good batch, a batch it refuses, then the batch of the next evaluation."""


@pytest.mark.parametrize("factory_name", sorted(STREAMED))
def test_trainer_streaming_starts_afresh_after_a_failed_batch(factory_name):
    """With batch_eval_metrics, a batch that raises ends that evaluation: the next evaluation must not count
    the batches the failed one had already added."""
    from transformers import EvalPrediction

    from nested_span_f1.hf import nested_trainer, trainer

    kwargs, good_pred, good_ref, bad_pred, bad_ref, pred, ref = STREAMED[factory_name]
    factory = getattr(trainer if factory_name == "compute_metrics_for" else nested_trainer, factory_name)
    compute = factory(**kwargs)
    assert compute(EvalPrediction(predictions=good_pred, label_ids=good_ref), compute_result=False) == {}
    with pytest.raises(ValueError, match="label id"):
        compute(EvalPrediction(predictions=bad_pred, label_ids=bad_ref), compute_result=False)
    again = compute(EvalPrediction(predictions=pred, label_ids=ref), compute_result=True)
    assert again == factory(**kwargs)(EvalPrediction(predictions=pred, label_ids=ref))
    assert again["precision"] == 0.0
