"""evaluate's ``seqeval`` metric module, re-created locally: the baseline of the evaluate rows.

The module on the Hub (evaluate-metric/seqeval) cannot be loaded offline, so
this file does what its ``_compute`` does: seqeval's ``classification_report``
and ``accuracy_score`` on the string tags, the macro and weighted averages
computed and dropped, the rest reshaped into per-type dicts and ``overall_*``
keys. The benchmark loads it with ``evaluate.load`` on this file's path, as a
user loads a local metric.
"""
import importlib

import datasets
import evaluate
from seqeval.metrics import accuracy_score, classification_report

_CITATION = """seqeval"""
_DESCRIPTION = """seqeval is a Python framework for sequence labeling evaluation."""
_KWARGS_DESCRIPTION = """predictions, references, suffix, scheme, mode, sample_weight, zero_division"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class Seqeval(evaluate.Metric):
    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            homepage="https://github.com/chakki-works/seqeval",
            inputs_description=_KWARGS_DESCRIPTION,
            features=datasets.Features(
                {
                    "predictions": datasets.Sequence(datasets.Value("string", id="label"), id="sequence"),
                    "references": datasets.Sequence(datasets.Value("string", id="label"), id="sequence"),
                }
            ),
            codebase_urls=["https://github.com/chakki-works/seqeval"],
            reference_urls=["https://github.com/chakki-works/seqeval"],
        )

    def _compute(
        self,
        predictions,
        references,
        suffix: bool = False,
        scheme: str | None = None,
        mode: str | None = None,
        sample_weight: list[int] | None = None,
        zero_division: str | int = "warn",
    ):
        if scheme is not None:
            try:
                scheme = getattr(importlib.import_module("seqeval.scheme"), scheme)
            except AttributeError as error:
                raise ValueError(
                    f"Scheme should be one of [IOB1, IOB2, IOE1, IOE2, IOBES, BILOU], got {scheme}"
                ) from error
        report = classification_report(
            y_true=references,
            y_pred=predictions,
            suffix=suffix,
            output_dict=True,
            scheme=scheme,
            mode=mode,
            sample_weight=sample_weight,
            zero_division=zero_division,
        )
        report.pop("macro avg")
        report.pop("weighted avg")
        overall_score = report.pop("micro avg")

        scores = {
            type_name: {
                "precision": score["precision"],
                "recall": score["recall"],
                "f1": score["f1-score"],
                "number": score["support"],
            }
            for type_name, score in report.items()
        }
        scores["overall_precision"] = overall_score["precision"]
        scores["overall_recall"] = overall_score["recall"]
        scores["overall_f1"] = overall_score["f1-score"]
        scores["overall_accuracy"] = accuracy_score(y_true=references, y_pred=predictions)

        return scores
