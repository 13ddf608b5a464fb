"""Glue shared by the three evaluate modules: the metric class they subclass, feature sets, seqeval's switches.

The metric scripts stay thin (card text, the kinds they take, one call into the
core); anything two of them would otherwise repeat lives here, above all
:class:`SpanMetric`, the ``evaluate.Metric`` they subclass. evaluate 0.4.6, given a
list of feature sets, keeps the first set that encodes the first example
(``Metric._infer_feature_from_batch``): an empty first sentence encodes under every
set, so label ids then became the strings ``"1"`` and tag strings met the span
set. :class:`SpanMetric` instead reads the kind from every sentence of the data
(:func:`nested_span_f1.hf.kinds.data_kind`, which also refuses the values evaluate
would otherwise cast without a word: ``0.5``, ``True`` and ``"0"`` into int columns),
and leaves the instance usable after a failed call.
Importing this module imports evaluate (and datasets); the core never imports it.
"""
from __future__ import annotations

import abc
import inspect
import math
import os
from typing import Any

import evaluate

from ..core.wording import options_apply, quote
from .kinds import INPUT_KINDS, KIND_WORDS, data_kind, refuse_unencodable
from .processes import DOCUMENT_KINDS, gather, mixed, named_process, read_tables

PROJECT_URL = "https://github.com/nested-span-f1/nested-span-f1"
"""The project's home, the ``homepage`` and ``codebase_urls`` of the three modules (setup.py's ``url`` too)."""


def features(*kinds: str) -> list[Any]:
    """evaluate feature sets for the input kinds a metric accepts, in the order given.

    ``spans``: per sentence a list of ``{start, end, label}`` (a Python list around
    the dict; ``Sequence({...})`` would want a dict of lists), int64 offsets so that
    every offset the core accepts is stored unchanged; ``layers``: per sentence a
    list of tag layers; ``tags``: per sentence a list of tag strings; ``ids``: per
    sentence a list of integer label ids; ``texts``: per document its text and its
    entities in character offsets; ``lists`` and ``answers``: per document a
    language model's entity list (``{text, label}`` dicts) or its raw answer (a
    string) as predictions, texts as references; ``scored``: predicted spans with a
    ``score`` each (float64) against spans. :class:`SpanMetric` picks the set
    from the data, so the order does not matter.
    """
    import datasets

    string = datasets.Sequence(datasets.Value("string"))
    span = {"start": datasets.Value("int64"), "end": datasets.Value("int64"), "label": datasets.Value("string")}
    shapes = {
        "spans": [span],
        "texts": {"text": datasets.Value("string"), "entities": [span]},
        "layers": datasets.Sequence(string),
        "tags": string,
        "ids": datasets.Sequence(datasets.Value("int64")),
    }
    predicted = {**shapes, "lists": [{"text": datasets.Value("string"), "label": datasets.Value("string")}],
                 "answers": datasets.Value("string"), "scored": [{**span, "score": datasets.Value("float64")}]}
    shapes.update(lists=shapes["texts"], answers=shapes["texts"], scored=shapes["spans"])
    unknown = set(kinds) - set(shapes)
    if unknown:
        raise ValueError(f"unknown input kinds {sorted(unknown)}; choose from {', '.join(INPUT_KINDS)}")
    return [datasets.Features({"predictions": predicted[k], "references": shapes[k]}) for k in kinds]


ANSWER_DEFAULTS = {"normalization": None, "multiset": False, "policy": "kth", "fallback": True, "inner_last": True}
"""The options of language models' answers the nested and lenient modules take, with their defaults."""


def seqeval_scheme_name(scheme: Any) -> Any:
    """Accept evaluate-seqeval's scheme spellings: a name, a seqeval scheme class, or None."""
    return getattr(scheme, "__name__", scheme)


class SpanMetric(evaluate.Metric, metaclass=abc.ABCMeta):
    """The ``evaluate.Metric`` of the three modules: the feature set is read from the data.

    A subclass names the kinds it takes (``input_kinds``, the order of its feature
    sets) and the kind stored when no sentence holds anything (``empty_kind``).
    Every batch is checked before evaluate encodes it (:func:`data_kind`); a batch
    whose sentences are all empty is held back until a batch shows the kind or
    ``compute`` runs, so it never decides the kind of the batches after it. A
    batch that fails is not added; a ``compute`` that fails drops what was added
    (as evaluate's ``compute`` does once it has read it) and releases evaluate's
    cache file and lock, so the next call starts clean.

    Abstract (``_info`` and ``_compute``), so that evaluate's loader, which takes the
    first non-abstract module class it finds, never takes this one.
    """

    metric = ""
    """The metric the module is (``"exact"``, ``"lenient"`` or ``"nested"``): what its texts and answers are scored
    with, and which Space its folder's app serves (:func:`nested_span_f1.space.app.build_app`)."""
    input_kinds: tuple[str, ...] = ()
    empty_kind = ""
    # evaluate's state, set in EvaluationModule.__init__ and reset by compute
    writer: Any
    buf_writer: Any
    data: Any
    selected_feature_format: Any
    cache_file_name: Any
    filelock: Any
    filelocks: Any
    file_paths: Any
    _kind: str | None = None
    _held_back: int | None = None
    """Empty sentences not yet handed to evaluate (None: no batch held back)."""

    @abc.abstractmethod
    def _info(self) -> Any:
        """The module's ``evaluate.MetricInfo`` (features: ``features(*self.input_kinds)``)."""

    @abc.abstractmethod
    def _compute(self, *, predictions: Any = None, references: Any = None, **kwargs: Any) -> dict[str, Any]:
        """Scores of the stored input (its kind is :attr:`stored_kind`)."""

    def module_info(self, description: str, citation: str, inputs_description: str,
                    reference_urls: list[str]) -> evaluate.MetricInfo:
        """The module's ``evaluate.MetricInfo``: its card's texts and references, the feature sets of its
        ``input_kinds``, and the project's URLs as its home and code base."""
        return evaluate.MetricInfo(description=description, citation=citation, inputs_description=inputs_description,
                                   features=features(*self.input_kinds), homepage=PROJECT_URL,
                                   codebase_urls=[PROJECT_URL], reference_urls=reference_urls)

    @property
    def stored_kind(self) -> str:
        """The kind of input stored so far (``empty_kind`` while no sentence held anything)."""
        return self._kind or self.empty_kind

    def check_label_list(self, label_list: Any) -> None:
        """TypeError when ``label_list`` and the input disagree: label ids need it, tag strings refuse it."""
        if self._kind == "ids" and label_list is None:
            raise TypeError("predictions and references hold integer label ids: pass label_list, the tag of each id "
                            "(for a model, [model.config.id2label[i] for i in range(model.config.num_labels)])")
        if self._kind == "tags" and label_list is not None:
            raise TypeError("label_list is given but predictions and references hold tag strings; "
                            "drop label_list, or pass integer label ids")

    def score_texts(self, predictions: Any, references: Any, tag_options: dict[str, Any],
                    **options: Any) -> dict[str, Any]:
        """The result for stored ``texts`` (documents paired by position, scored in characters with their
        alignment report); a tag option given with them is refused, not ignored."""
        from ..align.score import score_documents

        given = [name for name, value in tag_options.items() if value not in (None, False)]
        if given:
            raise ValueError(f"{', '.join(given)} apply to tags, but the input holds texts; leave them out")
        rows = [side.to_pylist() if hasattr(side, "to_pylist") else list(side) for side in (predictions, references)]
        return score_documents(rows[0], rows[1], self.metric, **options)

    def score_answers(self, predictions: Any, references: Any, tag_options: dict[str, Any],
                        **options: Any) -> dict[str, Any]:
        """The result for stored ``lists`` or ``answers`` (documents paired by position): both protocols side
        by side (:func:`nested_span_f1.answers.score_answers`); a tag option given with them is refused."""
        from ..answers.score import score_answers
        from ..formats import Corpus

        given = [name for name, value in tag_options.items() if value not in (None, False)]
        if given:
            raise ValueError(f"{options_apply(given, ', ')} to tags, but the input holds language models' answers; "
                             "leave them out")
        rows = [side.to_pylist() if hasattr(side, "to_pylist") else list(side) for side in (predictions, references)]
        key = "output" if self.stored_kind == "answers" else "entities"
        gold = Corpus([d["text"] for d in rows[1]], [[(e["start"], e["end"], e["label"]) for e in d["entities"]]
                                                      for d in rows[1]], source="references", unit="characters")
        return score_answers([{key: answer} for answer in rows[0]], gold, metric=self.metric, **options)

    def score_scored(self, predictions: Any, references: Any, tag_options: dict[str, Any], *,
                     threshold: float | None, decode: str, zero_division: Any) -> dict[str, Any]:
        """The result for stored ``scored`` predictions: the nested metric's figures of the spans kept at
        ``threshold`` (every span when None; flat decoded with ``decode="flat"``), with ``average_precision`` and
        the best threshold of the curve (:func:`nested_span_f1.thresholds.threshold_curve`) among its keys."""
        from ..nested.score import count_nested, summarize_nested
        from ..thresholds.score import curve_of, kept_at, scored_pair

        given = [name for name, value in tag_options.items() if value not in (None, False)]
        if given:
            raise ValueError(f"{options_apply(given, ', ')} to tags, but the input holds scored spans; leave them out")
        pair = scored_pair(list(references), list(predictions))
        curve = curve_of(pair, decode=decode, zero_division=zero_division)
        kept = kept_at(pair, -math.inf if threshold is None else threshold, decode=decode)
        result = summarize_nested(count_nested(kept, pair.references), zero_division)
        best: dict[str, float | None] = dict(curve.best or dict.fromkeys(("threshold", "precision", "recall", "f1")))
        return {**result, "average_precision": curve.average_precision,
                **{f"best_{key}": value for key, value in best.items()}}

    def refuse_scored_options(self, threshold: Any, decode: Any) -> None:
        """ValueError when ``threshold`` or ``decode`` is given with input that has no scores; ``threshold`` must be
        a finite number or None."""
        given = [name for name, value, default in (("threshold", threshold, None), ("decode", decode, "nested"))
                 if value != default]
        if given and self.stored_kind != "scored":
            raise ValueError(f"{options_apply(given, ', ')} to scored predictions ({{'start', 'end', 'label', 'score'}} "
                             f"dicts), but the input holds {KIND_WORDS[self.stored_kind]}; leave them out")
        if isinstance(threshold, bool) or not (threshold is None or isinstance(threshold, (int, float))):
            raise TypeError(f"threshold must be a number or None (keep every span), got {threshold!r}")
        if threshold is not None and not math.isfinite(threshold):
            raise ValueError(f"threshold must be a finite number, got {threshold!r}")

    def refuse_answer_options(self, **options: Any) -> None:
        """ValueError when an option of language models' answers is given with input of another kind."""
        given = [name for name, value in options.items() if value != ANSWER_DEFAULTS[name]]
        if given and self.stored_kind not in ("lists", "answers"):
            raise ValueError(f"{options_apply(given, ', ')} to language models' answers, but the input holds "
                             f"{KIND_WORDS[self.stored_kind]}; leave them out")

    def _infer_feature_from_batch(self, batch: Any) -> Any:
        """The feature set of the kind the data holds (evaluate's own takes the first that encodes the first example)."""
        return self.features[self.input_kinds.index(self.stored_kind)]

    def _infer_feature_from_example(self, example: Any) -> Any:
        """As :meth:`_infer_feature_from_batch`: ``add`` goes through ``add_batch`` here."""
        return self._infer_feature_from_batch(example)

    def add(self, *, prediction: Any = None, reference: Any = None, **kwargs: Any) -> None:
        """Add one sentence's predictions and references (a batch of one sentence)."""
        self.add_batch(predictions=[prediction], references=[reference], **kwargs)

    def add_batch(self, *, predictions: Any = None, references: Any = None, **kwargs: Any) -> None:
        """Add a batch of sentences, after checking every one (the kind of input is read from all of them).

        Messages name the sentence by its position in this batch.
        """
        if kwargs:
            raise ValueError(f"unknown inputs {sorted(kwargs)}: a batch is predictions and references")
        kind = data_kind(predictions, references, self.input_kinds)
        if kind is not None and self._kind not in (None, kind):
            raise mixed(kind, self._kind)
        # an empty sentence is a list: of any kind of tokens or spans, never a document
        if kind in DOCUMENT_KINDS and self._held_back:
            raise mixed(kind, None)
        if kind is None and len(predictions) and self._kind in DOCUMENT_KINDS:
            raise mixed(None, self._kind)
        if kind is None and self.writer is None:
            self._held_back = (self._held_back or 0) + len(predictions)
            return
        self._write(kind, predictions, references)

    def _write(self, kind: str | None, predictions: Any, references: Any) -> None:
        """Hand a checked batch to evaluate, after the empty sentences held back; undone if evaluate fails."""
        fresh, held = self.writer is None, self._held_back
        self._kind = self._kind or kind
        try:
            self._held_back = None
            if held:
                super().add_batch(predictions=[[]] * held, references=[[]] * held)
            super().add_batch(predictions=predictions, references=references)
        except Exception as error:
            if fresh:
                self.writer, self.selected_feature_format, self._kind, self._held_back = None, None, None, held
            if isinstance(error, UnicodeEncodeError):
                refuse_unencodable(predictions, references)
            if isinstance(error, ValueError):  # evaluate's rendez-vous of the processes timed out
                raise named_process(error, self.num_process, self.timeout) from None
            raise

    def compute(self, *, predictions: Any = None, references: Any = None, **kwargs: Any) -> dict[str, Any] | None:
        """Scores of every batch added and of ``predictions``/``references`` (see the module card).

        Input that fails its check is not added (earlier batches stay); once the
        input is read, a failure drops it all and leaves the instance clean.
        """
        options = [name for name in inspect.signature(self._compute).parameters if name not in ("predictions", "references")]
        unknown = [key for key in kwargs if key not in options]
        if unknown:
            raise TypeError(f"{self.name} takes no option {quote(unknown[0])}; its options are {', '.join(options)}")
        if predictions is not None or references is not None:
            self.add_batch(predictions=predictions, references=references)
        # a process of several that added nothing writes a file of no row all the same, for process 0 to name it
        if self.writer is None and (self._held_back is not None or self.num_process > 1):
            self._write(None, [], [])
        try:
            return super().compute(**kwargs)
        except BaseException:
            self._release()
            raise
        finally:
            self._kind, self._held_back = None, None

    def _finalize(self) -> None:
        """evaluate's, but process 0 of several reads each process's file on its own (:func:`.processes.gather`): a
        process of empty sentences takes the others' kind, two kinds are refused as one process refuses them, a
        process that added nothing is named."""
        if self.num_process == 1 or self.process_id != 0:
            super()._finalize()
            return
        import datasets
        from datasets.table import InMemoryTable

        if self.writer is not None:
            self.writer.finalize()
        self.writer = None
        try:
            self.file_paths, self.filelocks = self._get_all_cache_files()
        except ValueError as error:
            raise named_process(error, self.num_process, self.timeout) from None
        kind, table = gather(read_tables(self.file_paths), self.features, self.input_kinds, self.empty_kind,
                             self.num_process)
        self._kind, self.selected_feature_format = kind, self.features[self.input_kinds.index(kind)]
        self.data = datasets.Dataset(InMemoryTable(table),
                                     info=datasets.DatasetInfo(features=self.selected_feature_format))

    def _release(self) -> None:
        """Drop what evaluate's ``compute`` keeps when it raises: its data, cache files and their locks."""
        for lock, path in zip(self.filelocks or [], self.file_paths or []):
            if os.path.exists(path):
                os.remove(path)
            if lock is not None:
                lock.release()
        self.writer = self.buf_writer = self.data = self.selected_feature_format = None
        self.cache_file_name = self.filelock = self.filelocks = self.file_paths = None

