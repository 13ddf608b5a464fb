"""nested_span_f1: exact span F1 for nested NER (ACE2004, ACE2005, GENIA, KBP2017) with breakdowns.

The scoring lives in the ``nested_span_f1`` package; this script only declares
the inputs and hands them over. It is named like that package, so before
importing it the script drops every ``sys.path`` entry whose folder holds a
``nested_span_f1.py`` file (this folder, when a Space runs ``app.py`` from it),
and forgets the script itself if it was imported under the package's name.
"""
import os
import sys
from typing import Any

for _entry in [p for p in sys.path if os.path.isfile(os.path.join(p or os.curdir, "nested_span_f1.py"))]:
    if not os.path.isfile(os.path.join(_entry or os.curdir, "nested_span_f1", "__init__.py")):
        sys.path.remove(_entry)
if os.path.basename(getattr(sys.modules.get("nested_span_f1"), "__file__", None) or "") == "nested_span_f1.py":
    del sys.modules["nested_span_f1"]

import evaluate

from nested_span_f1.hf.metric import SpanMetric
from nested_span_f1.nested.score import (
    count_layered,
    count_nested,
    count_nested_tags,
    summarize_nested,
)

_CITATION = """\
@article{kim2003genia,
  title={{GENIA} corpus---a semantically annotated corpus for bio-textmining},
  author={Kim, Jin-Dong and Ohta, Tomoko and Tateisi, Yuka and Tsujii, Jun'ichi},
  journal={Bioinformatics},
  volume={19},
  number={suppl_1},
  pages={i180--i182},
  year={2003}
}
@inproceedings{doddington2004ace,
  title={The Automatic Content Extraction ({ACE}) Program -- Tasks, Data, and Evaluation},
  author={Doddington, George and Mitchell, Alexis and Przybocki, Mark and Ramshaw, Lance and Strassel, Stephanie and Weischedel, Ralph},
  booktitle={Proceedings of LREC 2004},
  year={2004}
}
@misc{walker2006ace,
  title={{ACE} 2005 Multilingual Training Corpus},
  author={Walker, Christopher and Strassel, Stephanie and Medero, Julie and Maeda, Kazuaki},
  publisher={Linguistic Data Consortium},
  note={LDC2006T06},
  year={2006}
}
@inproceedings{finkel2009nested,
  title={Nested Named Entity Recognition},
  author={Finkel, Jenny Rose and Manning, Christopher D.},
  booktitle={Proceedings of EMNLP 2009},
  pages={141--150},
  year={2009}
}
"""

_DESCRIPTION = """\
Entity-level exact-match precision, recall and F1 for nested (overlapping) entity sets, as in ACE2004,
ACE2005, GENIA and KBP2017. A predicted span is correct iff the reference has the same start, end and
label in the same sentence. Both sides are deduplicated per sentence (duplicates are counted and
reported), the same boundaries with two labels are two items, crossing spans are scored like any
other span and counted. Besides micro, macro, weighted and per-type scores it breaks the scores down by
nested versus flat spans, nesting depth and span length: recall by the reference span's bucket,
precision by the predicted span's bucket among the predictions. Inputs are span lists, layered tag
sequences (one tag layer per nesting level) or flat tag sequences.
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions: one list per sentence of spans ``{"start": int, "end": int, "label": str}`` (token
        offsets, end exclusive); or per sentence a list of tag layers (each a list of tags such as
        ``"B-protein"``); or per sentence a flat list of tags.
        Both sides may instead hold texts: per document ``{"text": str, "entities": [span dicts]}``,
        offsets in characters, each prediction holding its reference's text.
    references: the gold side, in the same shape as ``predictions``.
    zero_division: "warn" (default), 0 or 1: the value of a score that divides by zero.
    scheme: tagging scheme of tag input (IO, IOB1, IOB2, IOE1, IOE2, IOBES, BILOU, BMES); default: detected.
    mode: None (seqeval's default decoding) or "strict" (drop chunks the scheme does not allow).
    suffix: tags are written ``protein-B`` rather than ``B-protein``.
    normalization, multiset, policy, fallback, inner_last: for a language model's output (predictions per
        document a list of ``{"text", "label"}`` dicts or the raw answer as a string, references texts):
        the string protocol's normalisation ("lowercase+punctuation+articles+whitespace", UniversalNER's,
        by default) and sets or multisets, and how strings are placed on the text ("kth" or "every"); the
        result is then ``{"strings", "located", "answers"}`` (see the card).
    threshold, decode: for scored predictions (per sentence ``{"start", "end", "label", "score"}`` dicts, any
        finite score): the figures are those of the spans whose score is at least ``threshold`` (None, the
        default: every span), decoded ``"nested"`` (every span) or ``"flat"`` (the highest-scoring spans that do
        not overlap, as GLiNER's flat mode).
Returns:
    overall_precision, overall_recall, overall_f1: micro scores over all spans.
    {LABEL}: {precision, recall, f1, number} per type (number = reference spans).
    macro_*, weighted_*, untyped_* (boundaries only) precision/recall/f1.
    tp, fp, fn; duplicate_predictions, duplicate_references; crossing_predictions,
    crossing_references (overlapping, non-nested pairs).
    by_nesting {"flat", "nested"}, by_depth {"1" = outermost, "2", ...}, by_length {"1", "2", "3", "4",
    "5-7", "8+"}: each bucket {precision, recall, f1, number, predicted}.
    discontinuous_predictions, discontinuous_references (0 here): for span input only.
    overall_accuracy: token accuracy, for flat tag input only.
    alignment: only for texts: per side the spans matched, spurious or missed, and duplicates.
    invalid_predicted_chunks, invalid_reference_chunks: for tag input with ``scheme`` given.
    average_precision, best_threshold, best_precision, best_recall, best_f1: for scored predictions: the area
        under the step precision-recall curve over every distinct score, and its point of best F1 (None when
        nothing is predicted, or nothing predicted is ever right).
Examples:
    >>> import evaluate, nested_span_f1
    >>> metric = evaluate.load(nested_span_f1.metric_path("nested"))
    >>> references = [[{"start": 0, "end": 2, "label": "protein"}, {"start": 0, "end": 1, "label": "protein"}]]
    >>> predictions = [[{"start": 0, "end": 2, "label": "protein"}]]
    >>> r = metric.compute(predictions=predictions, references=references)
    >>> r["overall_precision"], r["overall_recall"], r["by_depth"]["2"]["recall"]
    (1.0, 0.5, 0.0)
"""

@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class NestedSpanF1(SpanMetric):
    """Exact span F1 with nested, depth and length breakdowns."""

    metric = "nested"
    input_kinds = ("spans", "layers", "tags", "texts", "lists", "answers", "scored")
    empty_kind = "spans"

    def _info(self) -> evaluate.MetricInfo:
        return self.module_info(_DESCRIPTION, _CITATION, _KWARGS_DESCRIPTION, [
            "https://aclanthology.org/D09-1015",
            "https://doi.org/10.1093/bioinformatics/btg1023",
        ])

    def _compute(
        self,
        predictions: Any,
        references: Any,
        zero_division: str | int = "warn",
        scheme: str | None = None,
        mode: str | None = None,
        suffix: bool = False,
        normalization: str | None = None,
        multiset: bool = False,
        policy: str = "kth",
        fallback: bool = True,
        inner_last: bool = True,
        threshold: float | None = None,
        decode: str = "nested",
    ) -> dict[str, Any]:
        kind = self.stored_kind
        answering = {"normalization": normalization, "multiset": multiset, "policy": policy, "fallback": fallback,
                     "inner_last": inner_last}
        self.refuse_answer_options(**answering)
        self.refuse_scored_options(threshold, decode)
        if kind == "scored":
            return self.score_scored(predictions, references, {"scheme": scheme, "mode": mode, "suffix": suffix},
                                     threshold=threshold, decode=decode, zero_division=zero_division)
        if kind in ("lists", "answers"):
            return self.score_answers(predictions, references, {"scheme": scheme, "mode": mode,
                                        "suffix": suffix}, zero_division=zero_division, **answering)
        if kind == "texts":
            return self.score_texts(predictions, references, {"scheme": scheme, "mode": mode, "suffix": suffix},
                                    zero_division=zero_division)
        if kind == "spans":
            counts = count_nested(predictions, references)
        elif kind == "layers":
            counts = count_layered(predictions, references, scheme=scheme, mode=mode, suffix=suffix)
        else:
            counts = count_nested_tags(predictions, references, scheme=scheme, mode=mode, suffix=suffix)
        return summarize_nested(counts, zero_division)
