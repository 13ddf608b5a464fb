"""span_f1: exact-match entity F1 of tag sequences, a drop-in for evaluate's seqeval metric."""

import warnings
from typing import Any

import evaluate

import nested_span_f1
from nested_span_f1.hf.metric import SpanMetric, seqeval_scheme_name

_CITATION = """\
@inproceedings{tjong-kim-sang-buchholz-2000-introduction,
    title = "Introduction to the {C}o{NLL}-2000 Shared Task Chunking",
    author = "Tjong Kim Sang, Erik F. and Buchholz, Sabine",
    booktitle = "Fourth Conference on Computational Natural Language Learning and the Second Learning Language in Logic Workshop",
    year = "2000",
    url = "https://aclanthology.org/W00-0726",
    pages = "127--132",
}
@inproceedings{tjong-kim-sang-de-meulder-2003-introduction,
    title = "Introduction to the {C}o{NLL}-2003 Shared Task: Language-Independent Named Entity Recognition",
    author = "Tjong Kim Sang, Erik F. and De Meulder, Fien",
    booktitle = "Proceedings of the Seventh Conference on Natural Language Learning at HLT-NAACL 2003",
    year = "2003",
    url = "https://aclanthology.org/W03-0419",
    pages = "142--147",
}
@misc{seqeval,
    title = {{seqeval}: A Python framework for sequence labeling evaluation},
    url = {https://github.com/chakki-works/seqeval},
    note = {Software available from https://github.com/chakki-works/seqeval},
    author = {Hiroki Nakayama},
    year = {2018},
}
"""

_DESCRIPTION = """\
Entity-level (exact span) precision, recall and F1 of tag sequences, with token accuracy beside them.
Tags in IO, IOB1, IOB2, IOE1, IOE2, IOBES or BILOU are decoded into chunks exactly as seqeval does
(default mode = conlleval's repair rules; strict mode = only chunks the scheme allows); BMES tags
(B/M/E/S, as MSRA, Resume and Weibo ship) as IOBES with M for I. A predicted
chunk counts only if a gold chunk has the same start, end and type. The result has every key of
evaluate's `seqeval` metric, plus macro and weighted averages, untyped (boundary-only) scores,
tp/fp/fn counts and how many chunks the scheme rejects. Integer label ids are accepted with
`label_list` (positions whose reference is -100 are ignored), so Trainer code needs no strings.
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions: list of predicted tag sequences (lists of str), or of integer label ids.
    references: list of reference tag sequences, aligned token by token with predictions.
        Both sides may instead hold texts: per document ``{"text": str, "entities": [span dicts]}``,
        offsets in characters, each prediction holding its reference's text.
    scheme: "IO", "IOB1", "IOB2", "IOE1", "IOE2", "IOBES", "BILOU" or "BMES" (a seqeval scheme class is
        accepted too). Used by mode="strict"; detected from the references when omitted there.
    mode: None (seqeval default / conlleval) or "strict".
    suffix: True when tags put the prefix last ("PER-B").
    zero_division: "warn", 0 or 1: the value of a score whose denominator is 0.
    label_list: tag string of each label id, when predictions/references are ids: a list, or a
        model's id2label ({0: "O", 1: "B-PER"}) or label2id ({"O": 0, "B-PER": 1}), read in id order.
    sample_weight: accepted for compatibility; seqeval ignores it too, so anything but None warns.
Returns:
    {TYPE: {"precision", "recall", "f1", "number"}} per type (number = gold chunks),
    "overall_precision", "overall_recall", "overall_f1" (micro), "overall_accuracy" (tokens),
    "macro_precision", "macro_recall", "macro_f1", "weighted_precision", "weighted_recall",
    "weighted_f1", "untyped_precision", "untyped_recall", "untyped_f1", "tp", "fp", "fn", and, when the
    scheme is known (passed, or detected in strict mode), "invalid_predicted_chunks" and
    "invalid_reference_chunks": the chunks it rejects. For texts: no "overall_accuracy" (there are no
    tokens), "alignment" (per side the spans matched, spurious or missed, and duplicates) and
    "duplicate_*", "crossing_*" and "discontinuous_*" (predictions, references): what the spans held.
Examples:
    >>> import evaluate, nested_span_f1
    >>> span_f1 = evaluate.load(nested_span_f1.metric_path("exact"))
    >>> results = span_f1.compute(predictions=[["O", "B-PER", "I-PER", "O"]], references=[["O", "B-PER", "I-PER", "B-LOC"]])
    >>> results["overall_f1"], results["LOC"]["number"]
    (0.6666666666666666, 1)
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class SpanF1(SpanMetric):
    """Exact-match span F1 of tag sequences; see the module card."""

    metric = "exact"
    input_kinds = ("tags", "ids", "texts")
    # sentences with no tokens score alike as either kind; stored as ids, label_list may then be given or not
    empty_kind = "ids"

    def _info(self) -> evaluate.MetricInfo:
        info = self.module_info(_DESCRIPTION, _CITATION, _KWARGS_DESCRIPTION, [
            "https://www.clips.uantwerpen.be/conll2000/chunking/output.html",
            "https://github.com/chakki-works/seqeval",
        ])
        # _compute reads the stored Arrow columns directly rather than as Python lists
        # of strings: several times faster, and a fraction of the memory. Set after
        # construction because MetricInfo only validates a format for flat features.
        info.format = "arrow"
        return info

    def _compute(
        self,
        predictions: Any,
        references: Any,
        scheme: Any = None,
        mode: str | None = None,
        suffix: bool = False,
        zero_division: str | int = "warn",
        label_list: Any = None,
        sample_weight: Any = None,
    ) -> dict[str, Any]:
        if sample_weight is not None:
            warnings.warn("sample_weight is ignored: seqeval's entity scores ignore it too", UserWarning, stacklevel=2)
        if self.stored_kind == "texts":
            tag_options = {"scheme": scheme, "mode": mode, "suffix": suffix, "label_list": label_list}
            return self.score_texts(predictions, references, tag_options, zero_division=zero_division)
        self.check_label_list(label_list)
        return nested_span_f1.score_exact(
            predictions,
            references,
            scheme=seqeval_scheme_name(scheme),
            mode=mode,
            suffix=suffix,
            zero_division=zero_division,
            label_list=label_list,
        )
