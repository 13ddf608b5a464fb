"""A Space for lenient_span_f1: paste gold and predicted spans (or tags) as JSON, get the scores.

evaluate's own ``launch_gradio_widget`` does not run on gradio >= 4, so the Space
has this small app of its own. Importing it builds nothing; ``python app.py``
launches it.
"""
import json
from functools import lru_cache
from pathlib import Path

import evaluate
import gradio as gr

HERE = Path(__file__).resolve().parent

EXAMPLE_REFERENCES = [
    [
        {"start": 0, "end": 2, "label": "PER"},
        {"start": 3, "end": 4, "label": "ORG"},
        {"start": 6, "end": 7, "label": "LOC"},
        {"start": 9, "end": 11, "label": "DATE"},
    ]
]
EXAMPLE_PREDICTIONS = [
    [
        {"start": 0, "end": 2, "label": "PER"},
        {"start": 3, "end": 4, "label": "ORG"},
        {"start": 6, "end": 7, "label": "LOC"},
        {"start": 9, "end": 10, "label": "DATE"},
    ]
]


@lru_cache(maxsize=1)
def load_metric() -> evaluate.EvaluationModule:
    """The metric from this folder, loaded once (on the first click, not at import)."""
    return evaluate.load(str(HERE))


def score(predictions_json: str, references_json: str, partial_weight: float, min_iou: float) -> dict:
    """Score pasted JSON with the metric loaded from this folder; errors come back as a message."""
    try:
        predictions = json.loads(predictions_json)
        references = json.loads(references_json)
        return load_metric().compute(
            predictions=predictions,
            references=references,
            partial_weight=partial_weight,
            min_iou=min_iou or None,
            zero_division=0,
            return_errors=True,
        )
    except (ValueError, TypeError) as error:
        return {"error": str(error)}


def build_demo() -> gr.Blocks:
    """The Blocks UI: two JSON boxes, the two options, the result as JSON."""
    with gr.Blocks(title="lenient_span_f1") as demo:
        gr.Markdown(
            "# lenient_span_f1\n"
            "Strict, exact, partial and type scores (SemEval-2013 Task 9.1, after MUC) over an optimal "
            "one-to-one matching. Paste one list per sentence: spans `{\"start\", \"end\", \"label\"}` "
            "(end exclusive) or tags (`\"B-PER\"`)."
        )
        with gr.Row():
            predictions = gr.Code(json.dumps(EXAMPLE_PREDICTIONS, indent=1), language="json", label="predictions")
            references = gr.Code(json.dumps(EXAMPLE_REFERENCES, indent=1), language="json", label="references")
        with gr.Row():
            partial_weight = gr.Slider(0, 1, value=0.5, step=0.05, label="partial_weight")
            min_iou = gr.Slider(0, 1, value=0, step=0.05, label="min_iou (0 = any overlap)")
        button = gr.Button("Score")
        output = gr.JSON(label="result")
        button.click(score, [predictions, references, partial_weight, min_iou], output)
    return demo


if __name__ == "__main__":
    build_demo().launch()
