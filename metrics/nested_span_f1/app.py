"""A Space for nested_span_f1: paste gold and predicted spans (or tags) as JSON, get the scores.

A Space runs this file from inside its folder, where ``nested_span_f1.py`` (the
metric script) would shadow the ``nested_span_f1`` package: the folder is taken
off ``sys.path`` before anything is imported. evaluate's own
``launch_gradio_widget`` does not run on gradio >= 4, hence this app. Importing
it builds nothing; ``python app.py`` launches it.
"""
import json
import sys
from functools import lru_cache
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]

import evaluate
import gradio as gr

EXAMPLE_REFERENCES = [
    [
        {"start": 5, "end": 6, "label": "protein"},
        {"start": 5, "end": 7, "label": "protein"},
        {"start": 10, "end": 12, "label": "protein"},
        {"start": 13, "end": 15, "label": "cell_type"},
    ]
]
EXAMPLE_PREDICTIONS = [
    [
        {"start": 5, "end": 7, "label": "protein"},
        {"start": 10, "end": 12, "label": "protein"},
        {"start": 13, "end": 15, "label": "cell_line"},
    ]
]


@lru_cache(maxsize=1)
def load_metric() -> evaluate.EvaluationModule:
    """The metric from this folder, loaded once (on the first click, not at import)."""
    return evaluate.load(str(HERE))


def score(predictions_json: str, references_json: str) -> dict:
    """Score pasted JSON with the metric loaded from this folder; errors come back as a message."""
    try:
        predictions = json.loads(predictions_json)
        references = json.loads(references_json)
        return load_metric().compute(predictions=predictions, references=references, zero_division=0)
    except (ValueError, TypeError) as error:
        return {"error": str(error)}


def build_demo() -> gr.Blocks:
    """The Blocks UI: two JSON boxes and the result as JSON."""
    with gr.Blocks(title="nested_span_f1") as demo:
        gr.Markdown(
            "# nested_span_f1\n"
            "Exact span F1 for nested entities, with nested/flat, depth and length breakdowns. "
            "Paste one list per sentence: spans `{\"start\", \"end\", \"label\"}` (end exclusive), "
            "tag layers (`[[\"B-protein\", ...], [...]]`) or flat tags."
        )
        with gr.Row():
            predictions = gr.Code(json.dumps(EXAMPLE_PREDICTIONS, indent=1), language="json", label="predictions")
            references = gr.Code(json.dumps(EXAMPLE_REFERENCES, indent=1), language="json", label="references")
        button = gr.Button("Score")
        output = gr.JSON(label="result")
        button.click(score, [predictions, references], output)
    return demo


if __name__ == "__main__":
    build_demo().launch()
