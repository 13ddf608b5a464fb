"""The Hub Space shared by the three metric folders: paste JSON, get the metric's result.

evaluate's own ``launch_gradio_widget`` is broken on gradio >= 4, so each
metric folder's ``app.py`` calls :func:`build_app` instead. (Each app.py first
drops its own folder from ``sys.path``: the nested metric's folder holds a
``nested_span_f1.py`` that would otherwise shadow this package.) gradio and evaluate
are imported here, lazily, never by the core.
"""
from __future__ import annotations

import json
from typing import Any, Callable


def scorer(folder: str) -> Callable[[str, str, str], dict[str, Any]]:
    """A function of three JSON strings (predictions, references, options) -> the metric's result."""
    import evaluate

    metric = evaluate.load(folder)

    def score(predictions: str, references: str, options: str) -> dict[str, Any]:
        kwargs = json.loads(options) if options.strip() else {}
        return metric.compute(predictions=json.loads(predictions), references=json.loads(references), **kwargs)

    return score


def build_app(folder: str, title: str, example: tuple[Any, Any, dict[str, Any]]) -> Any:
    """A gradio Blocks app scoring pasted JSON with the metric in ``folder``."""
    import gradio as gr

    score = scorer(folder)
    predictions, references, options = (json.dumps(x) for x in example)
    with gr.Blocks(title=title) as demo:
        gr.Markdown(f"# {title}\nPaste predictions and references as JSON (one list per sentence).")
        with gr.Row():
            pred_box = gr.Textbox(label="predictions", value=predictions, lines=6, elem_id="predictions")
            ref_box = gr.Textbox(label="references", value=references, lines=6, elem_id="references")
        opt_box = gr.Textbox(label="options (JSON keyword arguments of compute)", value=options, elem_id="options")
        button = gr.Button("Score", elem_id="score")
        output = gr.JSON(label="result", elem_id="result")
        button.click(score, inputs=[pred_box, ref_box, opt_box], outputs=output)
    return demo
