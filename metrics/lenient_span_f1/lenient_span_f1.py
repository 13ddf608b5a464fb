"""Lenient span F1: MUC / SemEval-2013 Task 9.1 strict, exact, partial and type schemes.

The scoring lives in the installed ``nested_span_f1`` package; this module only
declares the inputs evaluate encodes and hands them to ``score_lenient``.
"""
from typing import Any

import evaluate

from nested_span_f1.hf.metric import SpanMetric
from nested_span_f1.lenient.score import score_lenient

_CITATION = """\
@inproceedings{chinchor-sundheim-1993-muc,
    title = "{MUC}-5 Evaluation Metrics",
    author = "Chinchor, Nancy and Sundheim, Beth",
    booktitle = "Fifth Message Understanding Conference ({MUC}-5)",
    year = "1993",
    url = "https://aclanthology.org/M93-1007",
}
@inproceedings{segura-bedmar-etal-2013-semeval,
    title = "{S}em{E}val-2013 Task 9 : Extraction of Drug-Drug Interactions from Biomedical Texts ({DDIE}xtraction 2013)",
    author = "Segura-Bedmar, Isabel and Mart{\\'\\i}nez, Paloma and Herrero-Zazo, Mar{\\'\\i}a",
    booktitle = "Second Joint Conference on Lexical and Computational Semantics (*SEM), Volume 2: Proceedings of the Seventh International Workshop on Semantic Evaluation ({S}em{E}val 2013)",
    year = "2013",
    pages = "341--350",
    url = "https://aclanthology.org/S13-2056",
}
"""

_DESCRIPTION = """\
Entity-level scores that also credit predictions which found an entity with the wrong boundaries or
the wrong type, under the four schemes of SemEval-2013 Task 9.1 (after MUC): strict (boundaries and
type), exact (boundaries only), partial (overlap counts half) and type (overlap and type). Gold spans
and predictions are matched one to one by an optimal matching, so the numbers do not depend on the
order the spans are listed in. Also returns an error breakdown (type, boundary, boundary+type errors,
missed, spurious), per-type scores whose counts add up to the overall ones, and a label confusion
count. Input is span lists (overlapping and nested spans allowed) or tag sequences.
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions: per sentence, either a list of spans ``{"start": int, "end": int, "label": str}``
        (token offsets, end exclusive; overlap and nesting allowed) or a list of tags (``"B-PER"``...).
        Both sides may instead hold texts: per document ``{"text": str, "entities": [span dicts]}``,
        offsets in characters, each prediction holding its reference's text.
    references: the gold side, in the same form as ``predictions``.
    partial_weight: credit of a partial match in the partial scheme, from 0 to 1 (default 0.5).
    min_iou: None (any shared token lets two spans be matched) or the least intersection over union
        (symmetric) a pair needs.
    zero_division: "warn" (0 with a warning), 0 or 1: the value of a score with nothing to divide by.
    return_errors: also return ``errors``, every non-correct outcome as
        ``[sentence, gold span, predicted span, category]`` (spans ``[start, end, label]`` or None).
    scheme: tagging scheme of tag input (IOB1, IOB2, IOE1, IOE2, IOBES, BILOU, BMES, IO); needed by mode="strict".
    mode: None (seqeval default decoding, conlleval-compatible) or "strict" (seqeval strict decoding).
    suffix: tags are ``PER-B`` rather than ``B-PER``.
    normalization, multiset, policy, fallback, inner_last: for a language model's output (predictions per
        document a list of ``{"text", "label"}`` dicts or the raw answer as a string, references texts):
        the string protocol's normalisation ("lowercase+punctuation+articles+whitespace", UniversalNER's,
        by default) and sets or multisets, and how strings are placed on the text ("kth" or "every"); the
        result is then ``{"strings", "located", "answers"}`` (see the card).
Returns:
    For s in strict, exact, partial, type: ``{s}_precision``, ``{s}_recall``, ``{s}_f1``,
    ``{s}_correct``, ``{s}_incorrect``, ``{s}_partial``, ``{s}_missed``, ``{s}_spurious``,
    ``{s}_possible`` (gold spans), ``{s}_actual`` (predictions).
    ``correct``, ``type_error``, ``boundary_error``, ``boundary_type_error``, ``missed``, ``spurious``:
    the error breakdown.
    ``per_type``: label -> scheme -> precision, recall, f1 and counts (gold-side ``correct``,
    ``incorrect``, ``partial``, ``missed``, ``possible``; prediction-side ``predicted_correct``,
    ``predicted_incorrect``, ``predicted_partial``, ``spurious``, ``actual``).
    ``confusion``: gold label -> predicted label -> matched pairs.
    ``duplicate_predictions``, ``duplicate_references``: spans removed as duplicates.
    ``errors``: only with ``return_errors=True``.
    ``alignment``: only for texts: per side the spans matched, spurious or missed, and duplicates.
    ``invalid_predicted_chunks``, ``invalid_reference_chunks``: only for tag input with ``scheme``
    given: the chunks the scheme rejects.
Examples:
    >>> import evaluate, nested_span_f1
    >>> metric = evaluate.load(nested_span_f1.metric_path("lenient"))
    >>> references = [[{"start": 0, "end": 2, "label": "PER"}, {"start": 3, "end": 4, "label": "ORG"}]]
    >>> predictions = [[{"start": 0, "end": 2, "label": "PER"}, {"start": 3, "end": 5, "label": "ORG"}]]
    >>> r = metric.compute(predictions=predictions, references=references)
    >>> r["strict_f1"], r["partial_f1"], r["type_f1"], r["boundary_error"]
    (0.5, 0.75, 1.0, 1)
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class LenientSpanF1(SpanMetric):
    """Lenient entity scores over an optimal one-to-one matching of spans."""

    metric = "lenient"
    input_kinds = ("spans", "tags", "texts", "lists", "answers")
    empty_kind = "spans"

    def _info(self) -> evaluate.MetricInfo:
        return self.module_info(_DESCRIPTION, _CITATION, _KWARGS_DESCRIPTION, [
            "https://aclanthology.org/S13-2056",
            "https://aclanthology.org/M93-1007",
        ])

    def _compute(
        self,
        predictions: Any,
        references: Any,
        partial_weight: float = 0.5,
        min_iou: float | None = None,
        zero_division: str | int = "warn",
        return_errors: bool = False,
        scheme: str | None = None,
        mode: str | None = None,
        suffix: bool = False,
        normalization: str | None = None,
        multiset: bool = False,
        policy: str = "kth",
        fallback: bool = True,
        inner_last: bool = True,
    ) -> dict[str, Any]:
        answering = {"normalization": normalization, "multiset": multiset, "policy": policy, "fallback": fallback,
                     "inner_last": inner_last}
        self.refuse_answer_options(**answering)
        if self.stored_kind in ("lists", "answers"):
            return self.score_answers(predictions, references, {"scheme": scheme, "mode": mode,
                                        "suffix": suffix}, partial_weight=partial_weight, min_iou=min_iou,
                                        zero_division=zero_division, return_errors=return_errors, **answering)
        if self.stored_kind == "texts":
            return self.score_texts(predictions, references, {"scheme": scheme, "mode": mode, "suffix": suffix},
                                    partial_weight=partial_weight, min_iou=min_iou, zero_division=zero_division,
                                    return_errors=return_errors)
        return score_lenient(
            predictions,
            references,
            partial_weight=partial_weight,
            min_iou=min_iou,
            zero_division=zero_division,
            return_errors=return_errors,
            scheme=scheme,
            mode=mode,
            suffix=suffix,
        )
