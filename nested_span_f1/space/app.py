"""The Hub Space shared by the three metric folders: paste, upload or pick an example, get tables and charts.

evaluate's own ``launch_gradio_widget`` is broken on gradio >= 4, so each
metric folder's ``app.py`` (one file, the same in every folder) calls :func:`build_app`. A Space must stay up
whatever a visitor sends, so every request scores with a fresh metric instance
(an instance that failed keeps the feature set it last tried and would reject
later valid requests), every exception becomes one plain sentence on the page, inputs
over :data:`~nested_span_f1.space.inputs.MAX_BYTES` are refused before they
are parsed, and requests wait in gradio's queue, one scored at a time (pyplot
is not thread-safe). gradio, evaluate, matplotlib and pandas are imported
here, lazily, never by the core.
"""
from __future__ import annotations

import json
import logging
import tempfile
import time
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache, partial
from pathlib import Path
from typing import Any

from ..core.wording import plural
from ..hf.kinds import input_kind
from ..lenient.counts import BREAKDOWN, LENIENT_SCHEMES
from ..lenient.score import score_lenient
from ..render.plots import plot_counts, plot_per_type
from ..render.tables import AVERAGES, per_label
from .inputs import MAX_BYTES, for_visitors, parse, parse_options, preset, read_upload

LOG = logging.getLogger(__name__)

OUTPUTS = ("message", "headline", "summary", "per_type", "per_type_chart", "error_chart", "depth_chart",
           "length_chart", "download")

KEEP_FILES_SECONDS = 3600


@dataclass(frozen=True)
class SpaceSpec:
    """What differs between the three Spaces: text, the headline keys, examples, options, views."""

    title: str
    description: str
    headline: tuple[str, ...]
    presets: tuple[str, ...]
    options: Mapping[str, Any]
    outputs: tuple[str, ...] = field(default=("message", "headline", "summary", "per_type", "per_type_chart", "download"))


SPECS = {
    "exact": SpaceSpec(
        "span_f1",
        "Exact-match entity F1 of tag sequences, identical to seqeval and conlleval.",
        ("overall_precision", "overall_recall", "overall_f1"),
        ("flat",),
        {"mode": None, "scheme": None, "zero_division": 0},
    ),
    "lenient": SpaceSpec(
        "lenient_span_f1",
        "Strict, exact, partial and type scores (SemEval-2013 Task 9.1, after MUC) over an optimal "
        "one-to-one matching of spans or tags. The per-type chart shows the partial scheme.",
        tuple(f"{s}_f1" for s in LENIENT_SCHEMES),
        ("flat", "nested"),
        {"partial_weight": 0.5, "min_iou": None, "zero_division": 0},
        ("message", "headline", "summary", "per_type", "per_type_chart", "error_chart", "download"),
    ),
    "nested": SpaceSpec(
        "nested_span_f1",
        "Exact span F1 for nested entities, with nested/flat, depth and length breakdowns. The error "
        "categories come from the lenient matching of the same spans.",
        ("overall_precision", "overall_recall", "overall_f1"),
        ("nested", "flat"),
        {"zero_division": 0},
        OUTPUTS,
    ),
}

INPUT_HELP = (
    "Paste CoNLL columns (one token a line: `token gold prediction`, a blank line between sentences) or "
    'JSON `{"predictions": [...], "references": [...]}` (one list per sentence: tags, or spans '
    '`{"start", "end", "label"}` with exclusive ends), or upload such a file: an uploaded file is scored '
    f"instead of the text box. Inputs over {MAX_BYTES // 1_000_000} MB (about 200k tokens) are refused."
)


def metric_script(folder: str | Path) -> str:
    """The metric script of a Space folder: its one Python file besides ``app.py``.

    A Space folder is named after its Space (the script too, so that
    ``evaluate.load("org/name")`` finds ``name.py``), and on the Hub the app runs in
    a folder called ``app``: the app finds the script by elimination, not by name.
    """
    scripts = [p for p in Path(folder).glob("*.py") if p.name != "app.py"]
    if len(scripts) != 1:
        raise FileNotFoundError(f"{folder} must hold app.py and one metric script; found {[p.name for p in scripts]}")
    return str(scripts[0])


@cache
def metric_class(script: str) -> type[Any]:
    """The metric module's class, loaded once; each request builds its own instance from it."""
    import evaluate

    return type(evaluate.load(script))


MAX_MESSAGE = 400


def one_line(error: BaseException) -> str:
    """An exception as one plain sentence for the page: a refused input's message (shortened: evaluate's quote
    the input); for any other failure, that it happened (the log has the exception, never the page)."""
    if not isinstance(error, (ValueError, TypeError)):
        return "Error: the Space failed while scoring this input; the failure is logged for its maintainers."
    text = " ".join(str(error).split()) or "no details"
    if len(text) > MAX_MESSAGE:
        text = text[: MAX_MESSAGE - 1] + "…"
    return f"Error: {text}"


def _image(figure: Any) -> Any:
    """A figure as an RGBA array (what gr.Image shows), the figure closed so requests do not pile up."""
    import matplotlib.pyplot as plt
    import numpy as np

    figure.canvas.draw()
    pixels = np.asarray(figure.canvas.buffer_rgba()).copy()
    plt.close(figure)
    return pixels


def _chart(draw: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Draw a chart, or None when the result has nothing to draw (for example no entity at all)."""
    try:
        return _image(draw(*args, **kwargs))
    except ValueError:
        return None


def _lenient_rows(per_type: Mapping[str, Any], scheme: str) -> dict[str, dict[str, Any]]:
    return {label: {**schemes[scheme], "number": schemes[scheme]["possible"]} for label, schemes in per_type.items()}


class Scorer:
    """The request handler of one Space: text, file and options in, a view of every output out."""

    def __init__(self, script: str, spec: SpaceSpec) -> None:
        self.script = script
        self.spec = spec
        self._folder: tempfile.TemporaryDirectory[str] | None = None

    @property
    def files(self) -> Path:
        """The folder of the results offered for download, made at the first request and removed with the
        scorer (when it is closed or collected, or when the app's process ends), so the Space leaves nothing in
        the temporary folder behind it."""
        if self._folder is None:
            self._folder = tempfile.TemporaryDirectory(prefix="nested-span-f1-space-")
        return Path(self._folder.name)

    def close(self) -> None:
        """Remove the folder of results now (it is removed anyway when the scorer is collected or the process
        ends)."""
        if self._folder is not None:
            self._folder.cleanup()
            self._folder = None

    def __call__(self, text: str, upload: str | None, options: str) -> tuple[Any, ...]:
        try:
            view = self.request(text, upload, options)
        except Exception as error:  # a Space shows every failure on the page and keeps serving
            LOG.log(logging.INFO if isinstance(error, (ValueError, TypeError)) else logging.WARNING,
                    "request failed: %s", error, exc_info=not isinstance(error, (ValueError, TypeError)))
            view = {"message": one_line(error)}
        return tuple(view.get(name) for name in self.spec.outputs)

    def request(self, text: str, upload: str | None, options: str) -> dict[str, Any]:
        """Every view of one request (an uploaded file is scored instead of the text box); raises what
        :meth:`__call__` turns into the page's one line."""
        if upload:
            return self.views(read_upload(upload), options or "", Path(upload).name)
        return self.views(text or "", options or "")

    def views(self, text: str, options_text: str, name: str = "the input") -> dict[str, Any]:
        """Score one request and build every view of the result; ``name`` names the text in messages (an
        uploaded file's name)."""
        import pandas as pd

        predictions, references, place = parse(text, name)
        options = parse_options(options_text)
        metric = metric_class(self.script)(keep_in_memory=True, experiment_id=uuid.uuid4().hex)
        try:
            result = metric.compute(predictions=predictions, references=references, **options)
        except (ValueError, TypeError) as error:
            raise for_visitors(error, place) from None
        wants_errors = "error_chart" in self.spec.outputs
        view: dict[str, Any] = {
            "message": f"Scored {plural(len(references), 'sentence')}.",
            "headline": " · ".join(f"{key} = {result[key]!r}" for key in self.spec.headline),
            "download": self._save(result),
        }
        if "per_type" in result:
            rows = _lenient_rows(result["per_type"], "partial")
            view["summary"] = pd.DataFrame(
                [[s, result[f"{s}_precision"], result[f"{s}_recall"], result[f"{s}_f1"]] for s in LENIENT_SCHEMES],
                columns=["scheme", "precision", "recall", "f1"],
            )
            view["per_type"] = pd.DataFrame(
                [[label, s, r["precision"], r["recall"], r["f1"], r["possible"], r["actual"]]
                 for label, schemes in result["per_type"].items() for s, r in schemes.items()],
                columns=["type", "scheme", "precision", "recall", "f1", "gold", "predicted"],
            )
            view["per_type_chart"] = _chart(plot_per_type, rows, title="Per-type scores (partial scheme)")
            errors = result
        else:
            view["summary"] = pd.DataFrame(
                [[a, result[f"{a}_precision"], result[f"{a}_recall"], result[f"{a}_f1"]]
                 for a in AVERAGES if f"{a}_f1" in result],
                columns=["average", "precision", "recall", "f1"],
            )
            view["per_type"] = pd.DataFrame(
                [[label, r["precision"], r["recall"], r["f1"], r["number"]] for label, r in per_label(result).items()],
                columns=["type", "precision", "recall", "f1", "gold"],
            )
            view["per_type_chart"] = _chart(plot_per_type, result)
            errors = self._lenient_errors(predictions, references, options) if wants_errors else None
        if errors is not None:
            view["error_chart"] = _chart(plot_counts, {c: errors[c] for c in BREAKDOWN})
        for key, title in (("by_depth", "By nesting depth (1 = outermost)"), ("by_length", "By span length")):
            if key in result:
                view[f"{key[3:]}_chart"] = _chart(plot_per_type, result[key], title=title)
        return view

    @staticmethod
    def _lenient_errors(predictions: Any, references: Any, options: Mapping[str, Any]) -> Mapping[str, Any] | None:
        """Error categories of the same input under lenient matching (tag layers have none)."""
        if input_kind(predictions, references) == "layers":
            return None
        decoding = {k: v for k, v in options.items() if k in ("scheme", "mode", "suffix")}
        return score_lenient(predictions, references, zero_division=0, **decoding)

    def _save(self, result: Mapping[str, Any]) -> str:
        """Write the full result as a JSON file to download (gradio copies it into its own cache); files older than
        an hour are removed."""
        for old in self.files.glob("*.json"):
            if old.stat().st_mtime < time.time() - KEEP_FILES_SECONDS:
                old.unlink(missing_ok=True)
        path = self.files / f"{self.spec.title}-{uuid.uuid4().hex[:12]}.json"
        path.write_text(json.dumps(result, indent=1), encoding="utf-8")
        return str(path)


def build_app(folder: str | Path) -> Any:
    """The gradio Blocks app of the metric script in ``folder`` (see :func:`metric_script`): the Space of the metric
    its module class names (``SpanMetric.metric``). Every folder's ``app.py`` calls it, the same file in each."""
    import gradio as gr

    script = metric_script(folder)
    # the class is loaded while the app starts, so that the first visitor does not wait
    spec = SPECS[metric_class(script).metric]
    scorer = Scorer(script, spec)
    with gr.Blocks(title=spec.title, delete_cache=(KEEP_FILES_SECONDS, KEEP_FILES_SECONDS)) as demo:
        gr.Markdown(f"# {spec.title}\n{spec.description}\n\n{INPUT_HELP}")
        with gr.Row():
            text = gr.Textbox(label="CoNLL columns or JSON", lines=12, max_lines=24, elem_id="input")
            with gr.Column():
                upload = gr.File(label="or upload a file", type="filepath", elem_id="upload")
                options = gr.Textbox(json.dumps(dict(spec.options)), label="options (keyword arguments of compute, JSON)",
                                     elem_id="options")
                for example in spec.presets:
                    button = gr.Button(f"Load the {example} example", elem_id=f"preset-{example}")
                    button.click(partial(preset, example), outputs=text, queue=False)
        score = gr.Button("Score", variant="primary", elem_id="score")
        components = {
            "message": gr.Markdown(elem_id="message"),
            "headline": gr.Markdown(elem_id="headline"),
            "summary": gr.Dataframe(label="averages", elem_id="summary", interactive=False),
            "per_type": gr.Dataframe(label="per type", elem_id="per_type", interactive=False),
        }
        with gr.Row():
            for key, label in (("per_type_chart", "per-type scores"), ("error_chart", "error categories")):
                if key in spec.outputs:
                    components[key] = gr.Image(label=label, type="numpy", elem_id=key, interactive=False)
        with gr.Row():
            for key, label in (("depth_chart", "by nesting depth"), ("length_chart", "by span length")):
                if key in spec.outputs:
                    components[key] = gr.Image(label=label, type="numpy", elem_id=key, interactive=False)
        components["download"] = gr.File(label="full result (JSON)", elem_id="download", interactive=False)
        score.click(scorer, inputs=[text, upload, options], outputs=[components[k] for k in spec.outputs],
                    api_name="score", concurrency_limit=1)
    demo.queue(max_size=100)
    return demo


def serve(demo: Any) -> None:
    """Serve ``demo`` until the process is stopped, from a Space's ``app.py`` (the program itself).

    A Space, a container or a process manager stops an app with SIGTERM, which Python's default handler ends
    without running any cleanup, so the scorer's folder of downloads would stay behind. Here SIGTERM stops the
    app as Ctrl-C does: gradio closes its server, the process exits normally and the folder is removed. This
    sets the process's SIGTERM handler, which only the program may do; :func:`build_app` sets none.
    """
    import signal

    signal.signal(signal.SIGTERM, signal.default_int_handler)
    demo.launch()
