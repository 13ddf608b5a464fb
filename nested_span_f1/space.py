"""The Hub Space shared by the three metric folders: paste JSON, get the metric's result.

evaluate's own ``launch_gradio_widget`` is broken on gradio >= 4, so each
metric folder's ``app.py`` builds this app instead. Each app.py first drops its
own folder from ``sys.path``: the nested metric's folder holds a
``nested_span_f1.py`` that would otherwise shadow this package. gradio and
evaluate are imported here, lazily, never by the core.
"""
from __future__ import annotations

import json
from collections.abc import Mapping
from functools import lru_cache
from typing import Any, Callable


def make_scorer(folder: str) -> Callable[[str, str, str], dict[str, Any]]:
    """``score(predictions_json, references_json, options_json)`` with the metric in ``folder``.

    The metric is loaded on the first call, not when the app is built. Bad input
    comes back as ``{"error": message}`` (the message names sentence and token).
    """

    @lru_cache(maxsize=1)
    def metric() -> Any:
        import evaluate

        return evaluate.load(folder)

    def score(predictions: str, references: str, options: str = "") -> dict[str, Any]:
        try:
            kwargs = json.loads(options) if options.strip() else {}
            return metric().compute(predictions=json.loads(predictions), references=json.loads(references), **kwargs)
        except (ValueError, TypeError) as error:
            return {"error": str(error)}

    return score


def build_app(
    score: Callable[[str, str, str], dict[str, Any]],
    title: str,
    description: str,
    predictions: Any,
    references: Any,
    options: Mapping[str, Any],
) -> Any:
    """A gradio Blocks app: JSON boxes for both sides and the options, a button, the result."""
    import gradio as gr

    with gr.Blocks(title=title) as demo:
        gr.Markdown(f"# {title}\n{description}")
        with gr.Row():
            pred_box = gr.Textbox(json.dumps(predictions), label="predictions", lines=8, elem_id="predictions")
            ref_box = gr.Textbox(json.dumps(references), label="references", lines=8, elem_id="references")
        opt_box = gr.Textbox(json.dumps(options), label="options (keyword arguments of compute, JSON)", elem_id="options")
        button = gr.Button("Score", variant="primary", elem_id="score")
        output = gr.JSON(label="result", elem_id="result")
        button.click(score, inputs=[pred_box, ref_box, opt_box], outputs=output)
    return demo
