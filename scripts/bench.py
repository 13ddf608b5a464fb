"""Speed and memory of span F1 against seqeval, nervaluate and evaluate's seqeval module.

Every measurement runs in a fresh Python process (this script, called with
``--worker``), so no tool profits from another's warm caches or imports. The
worker builds its input first (seeded synthetic CoNLL-like data or the CoNLL-2003
test outputs), then times one call and reports the seconds, the peak memory the
call added, and the scores it computed; at eval sizes it also times a second call
in the same process, the one a Trainer makes at every evaluation after the first. The parent takes the median over
``--repeat`` runs, checks that each tool's scores equal its baseline's (to 1e-12)
and only then prints a ratio.

At eval sizes (3.5k sentences, CoNLL-2003) our calls take a few milliseconds.
On a shared VM, some fresh processes (a quarter to a half of them, in
stretches) run the same work up to 1.7x slower than the others, with the same
page faults and more user time, and a slow stretch weighs far more on a 5 ms
call than on seqeval's 200 ms: a median of 11 such calls can land in either
mode. ``--small-repeat`` gives every tool more rounds on data under 10k
sentences, alternating as before.

    python scripts/bench.py                      # 3.5k, 35k, 350k sentences + CoNLL-2003
    python scripts/bench.py --quick              # a smoke run (small sizes, one repeat)
    python scripts/bench.py --sizes 3500,35000 --repeat 5 --json bench.json
    python scripts/bench.py --repeat 11 --repeat-large 3 --small-repeat 31

Peak memory is the rise of the process's peak resident set (VmHWM) over the
resident set before the call, with the peak reset just before it
(``/proc/self/clear_refs``); where that is unavailable, the rise of ``ru_maxrss``.
"""
from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT / ".." / "shared" / "data"
CONLL = SHARED / "conll2003"
GENIA = SHARED / "genia" / "genia-classic.test.w2ner.json"
BOOTSTRAP_GOLD = SHARED / "genia" / "genia-docsplit.test.jsonl"
TYPES = ("PER", "LOC", "ORG", "MISC")
TYPE_WEIGHTS = (0.28, 0.30, 0.27, 0.15)
LABELS = ["O"] + [f"{p}-{t}" for t in TYPES for p in "BI"]
OFFLINE = {"HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "HF_EVALUATE_OFFLINE": "1"}
HEAVY = ("transformers", "torch", "evaluate", "sklearn", "datasets", "gradio", "matplotlib", "pandas", "pyarrow")
WORST = "span_f1 strings default, none right"
"""span_f1 where no predicted sentence equals its reference, so none takes its reference's codes."""


# --------------------------------------------------------------------------- data

def synthetic(n_sentences: int, seed: int = 0) -> tuple[list[list[str]], list[list[str]]]:
    """Seeded CoNLL-like predictions and references.

    Sentences of 14 tokens on average; about 17% of tokens inside entities of 4
    types. Of the gold entities, 80% are predicted right; the others get a type
    error, a boundary error, go missing, or start with I- instead of B-; a few
    spurious entities are added on O tokens.
    """
    rng = random.Random(seed)
    rand, choice = rng.random, rng.choices
    begin = {t: "B-" + t for t in TYPES}
    inside = {t: "I-" + t for t in TYPES}
    preds, refs = [], []
    for _ in range(n_sentences):
        n = 1 + sum(rand() < 0.5 for _ in range(26))
        ref = ["O"] * n
        spans = []
        i = 0
        while i < n:
            if rand() < 0.1155:
                u = rand()
                end = min(n, i + (1 if u < 0.55 else 2 if u < 0.85 else 3 if u < 0.95 else 4))
                t = choice(TYPES, TYPE_WEIGHTS)[0]
                spans.append((i, end, t))
                ref[i] = begin[t]
                for k in range(i + 1, end):
                    ref[k] = inside[t]
                i = end
            else:
                i += 1
        pred = list(ref)
        for start, end, t in spans:
            u = rand()
            if u < 0.80:
                continue
            if u < 0.85:  # type error
                other = TYPES[(TYPES.index(t) + 1 + int(rand() * 3)) % 4]
                pred[start] = begin[other]
                for k in range(start + 1, end):
                    pred[k] = inside[other]
            elif u < 0.91:  # boundary error
                v = rand()
                if v < 0.4 and end < n and ref[end] == "O":
                    pred[end] = inside[t]
                elif v < 0.7 and end - start > 1:
                    pred[end - 1] = "O"
                elif start > 0 and ref[start - 1] == "O":
                    pred[start - 1], pred[start] = begin[t], inside[t]
                else:
                    pred[start] = "O"
            elif u < 0.96:  # missing
                for k in range(start, end):
                    pred[k] = "O"
            else:  # starts with I-
                pred[start] = inside[t]
        for k in range(n):
            if ref[k] == "O" and pred[k] == "O" and rand() < 0.012:  # spurious
                t = choice(TYPES, TYPE_WEIGHTS)[0]
                pred[k] = begin[t] if rand() < 0.9 else inside[t]
        preds.append(pred)
        refs.append(ref)
    return preds, refs


def read_conll(path: Path) -> list[list[str]]:
    """The tag column of a CoNLL file, read by the package's one column reader."""
    from nested_span_f1.formats.columns import read_columns

    return read_columns(path).column()


def load_data(dataset: str, seed: int) -> tuple[list[list[str]], list[list[str]]]:
    if dataset == "conll2003":
        return read_conll(CONLL / "test.flair.conll"), read_conll(CONLL / "test.gold.conll")
    return synthetic(int(dataset), seed)


def as_label_ids(preds: list[list[str]], refs: list[list[str]], seed: int) -> tuple[Any, Any, list[str]]:
    """Trainer-shaped label ids: [CLS] + words with extra sub-tokens + [SEP], padded with -100.

    References hold -100 on special tokens, non-first sub-tokens and padding; the
    predictions hold a label at every position, as an argmax would.
    """
    import numpy as np

    labels = sorted({t for s in refs for t in s} | {t for s in preds for t in s}, key=lambda t: (t != "O", t))
    index = {t: i for i, t in enumerate(labels)}
    rng = np.random.default_rng(seed)
    lengths = np.fromiter(map(len, refs), np.int64, len(refs))
    n_sent, n_words = len(refs), int(lengths.sum())
    extra = (rng.random(n_words) < 0.2).astype(np.int64)  # a second sub-token after 20% of the words
    sentence = np.repeat(np.arange(n_sent), lengths)
    offsets = np.concatenate(([0], np.cumsum(lengths)))
    extra_before = np.cumsum(extra) - extra
    extra_before -= np.concatenate(([0], np.cumsum(extra)))[offsets[:-1]][sentence]
    column = 1 + (np.arange(n_words) - offsets[sentence]) + extra_before
    width = int((column + extra).max(initial=0)) + 2
    pred_rows = rng.integers(0, len(labels), size=(n_sent, width))
    ref_rows = np.full((n_sent, width), -100, dtype=np.int64)
    from itertools import chain

    ref_rows[sentence, column] = np.fromiter(map(index.__getitem__, chain.from_iterable(refs)), np.int64, n_words)
    pred_rows[sentence, column] = np.fromiter(map(index.__getitem__, chain.from_iterable(preds)), np.int64, n_words)
    return pred_rows, ref_rows, labels


# --------------------------------------------------------------------------- scores in one shape

def canon_seqeval(report: dict[str, Any], accuracy: float | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"types": {}}
    for key, value in report.items():
        row = [float(value["precision"]), float(value["recall"]), float(value["f1-score"])]
        if key.endswith(" avg"):
            out[key.split()[0]] = row
        else:
            out["types"][key] = [*row, int(value["support"])]
    if accuracy is not None:
        out["accuracy"] = float(accuracy)
    return out


def canon_ours(result: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"types": {}}
    for key, value in result.items():
        if isinstance(value, dict):
            out["types"][key] = [float(value["precision"]), float(value["recall"]), float(value["f1"]),
                                 int(value["number"])]
    if "overall_precision" in result:
        out["micro"] = [float(result[f"overall_{m}"]) for m in ("precision", "recall", "f1")]
    for avg in ("macro", "weighted"):
        if f"{avg}_precision" in result:
            out[avg] = [float(result[f"{avg}_{m}"]) for m in ("precision", "recall", "f1")]
    if "overall_accuracy" in result:
        out["accuracy"] = float(result["overall_accuracy"])
    return out


LENIENT_KEYS = ("correct", "incorrect", "partial", "missed", "spurious", "precision", "recall", "f1")


def canon_nervaluate(results: dict[str, Any]) -> dict[str, Any]:
    names = {"strict": "strict", "exact": "exact", "partial": "partial", "type": "ent_type"}
    overall = results["overall"]
    return {ours: [float(getattr(overall[theirs], key)) for key in LENIENT_KEYS] for ours, theirs in names.items()}


def canon_lenient(result: dict[str, Any]) -> dict[str, Any]:
    return {scheme: [float(result[f"{scheme}_{key}"]) for key in LENIENT_KEYS]
            for scheme in ("strict", "exact", "partial", "type")}


def differences(a: Any, b: Any, path: str = "") -> list[str]:
    """Where two canonical score trees differ (only keys both have are compared)."""
    if isinstance(a, dict) and isinstance(b, dict):
        if "types" in a and "types" in b and set(a["types"]) != set(b["types"]):
            return [f"{path}types: {sorted(a['types'])} vs {sorted(b['types'])}"]
        return [d for k in a.keys() & b.keys() for d in differences(a[k], b[k], f"{path}{k}.")]
    if isinstance(a, list) and isinstance(b, list):
        return [d for i, (x, y) in enumerate(zip(a, b)) for d in differences(x, y, f"{path}{i}.")]
    if abs(float(a) - float(b)) > 1e-12:
        return [f"{path[:-1]}: {a} vs {b}"]
    return []


# --------------------------------------------------------------------------- the tools

SEQEVAL_MODULE = '''"""A local re-creation of evaluate's `seqeval` metric module (evaluate/metrics/seqeval/seqeval.py)."""
import importlib
from typing import List, Optional, Union

import datasets
from seqeval.metrics import accuracy_score, classification_report

import evaluate

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
        scheme: Optional[str] = None,
        mode: Optional[str] = None,
        sample_weight: Optional[List[int]] = None,
        zero_division: Union[str, int] = "warn",
    ):
        if scheme is not None:
            try:
                scheme_module = importlib.import_module("seqeval.scheme")
                scheme = getattr(scheme_module, scheme)
            except AttributeError:
                raise ValueError(f"Scheme should be one of [IOB1, IOB2, IOE1, IOE2, IOBES, BILOU], got {scheme}")
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
'''


def _evaluate_run(path: str, preds: list[list[str]], refs: list[list[str]]) -> Callable[[], Any]:
    import evaluate

    def run() -> dict[str, Any]:
        metric = evaluate.load(path)
        for i in range(0, len(refs), 32):
            metric.add_batch(predictions=preds[i:i + 32], references=refs[i:i + 32])
        return canon_ours(metric.compute())

    return run


def prepare(tool: str, dataset: str, seed: int, workdir: str) -> tuple[Callable[[], Any], int]:
    """The call to time for ``tool`` on ``dataset`` (input built here, outside the timing), and the token count."""
    import warnings

    warnings.simplefilter("ignore")
    if tool == "span_f1 nested (GENIA)":
        return _prepare_nested(seed)
    preds, refs = load_data(dataset, seed)
    tokens = sum(map(len, refs))
    if tool.startswith("seqeval"):
        from seqeval.metrics import classification_report
        from seqeval.scheme import IOB2

        strict = tool.endswith("strict")
        options = {"mode": "strict", "scheme": IOB2} if strict else {}
        return lambda: canon_seqeval(classification_report(refs, preds, output_dict=True, **options)), tokens
    if tool == WORST:
        # the same predictions, each sentence made to differ from its reference at its last
        # tag (list slices: the other tags stay the same string objects)
        preds = [[*p[:-1], "B-MISC" if r[-1] != "B-MISC" else "O"] if r else p for p, r in zip(preds, refs)]
    if tool.startswith("span_f1 strings"):
        import nested_span_f1

        options = {"mode": "strict", "scheme": "IOB2"} if tool.endswith("strict") else {}
        return lambda: canon_ours(nested_span_f1.score_tags(preds, refs, **options)), tokens
    if tool in ("run_ner.py: ids -> strings -> seqeval", "span_f1 from ids"):
        pred_ids, ref_ids, label_list = as_label_ids(preds, refs, seed)
        if tool == "span_f1 from ids":
            import nested_span_f1

            return lambda: canon_ours(nested_span_f1.score_tags(pred_ids, ref_ids, label_list=label_list)), tokens
        from seqeval.metrics import accuracy_score, classification_report

        def run_ner() -> dict[str, Any]:
            # run_ner.py's compute_metrics, minus the argmax: ids to strings, then seqeval
            true_predictions = [
                [label_list[p] for (p, lab) in zip(prediction, label) if lab != -100]
                for prediction, label in zip(pred_ids, ref_ids)
            ]
            true_labels = [
                [label_list[lab] for (p, lab) in zip(prediction, label) if lab != -100]
                for prediction, label in zip(pred_ids, ref_ids)
            ]
            report = classification_report(true_labels, true_predictions, output_dict=True)
            return canon_seqeval(report, accuracy_score(true_labels, true_predictions))

        return run_ner, tokens
    if tool == "evaluate: seqeval (local copy)":
        folder = Path(workdir) / "seqeval"
        folder.mkdir(exist_ok=True)
        (folder / "seqeval.py").write_text(SEQEVAL_MODULE)
        return _evaluate_run(str(folder), preds, refs), tokens
    if tool == "evaluate: span_f1":
        return _evaluate_run(str(ROOT / "metrics" / "span_f1"), preds, refs), tokens
    if tool == "nervaluate":
        from nervaluate import Evaluator

        return lambda: canon_nervaluate(Evaluator(refs, preds, tags=list(TYPES), loader="list").evaluate()), tokens
    if tool == "span_f1 lenient":
        from nested_span_f1.lenient.score import score_lenient

        return lambda: canon_lenient(score_lenient(preds, refs)), tokens
    if tool == "span_f1 streaming (batches of 32)":
        import nested_span_f1

        def stream() -> dict[str, Any]:
            total = sum(nested_span_f1.count_tags(preds[i:i + 32], refs[i:i + 32]) for i in range(0, len(refs), 32))
            return canon_ours(nested_span_f1.summarize(total))

        return stream, tokens
    raise ValueError(f"unknown tool {tool!r}")


def _prepare_nested(seed: int) -> tuple[Callable[[], Any], int]:
    """GENIA test gold against a seeded perturbation of it (drops, shifts, relabels, spurious spans)."""
    from nested_span_f1 import score_nested
    from nested_span_f1.formats import read_corpus

    corpus = read_corpus(GENIA)
    rng = random.Random(seed)
    types = sorted({s[2] for spans in corpus.entities for s in spans})
    preds = []
    for spans, n in zip(corpus.entities, corpus.lengths):
        out = []
        for start, end, label in spans:
            u = rng.random()
            if u < 0.08:
                continue
            if u < 0.14 and end < n:
                end += 1
            elif u < 0.18:
                label = types[(types.index(label) + 1) % len(types)]
            out.append((start, end, label))
        if n > 2 and rng.random() < 0.1:
            start = rng.randrange(n - 1)
            out.append((start, start + 1 + rng.randrange(min(3, n - start - 1) or 1), rng.choice(types)))
        preds.append(out)
    refs, lengths = corpus.entities, corpus.lengths
    return lambda: {"micro": [score_nested(preds, refs, lengths=lengths)["overall_f1"]]}, sum(lengths)


# --------------------------------------------------------------------------- the worker

def _status(field: str) -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field):
                return int(line.split()[1]) * 1024
    raise KeyError(field)


def _reset_peak() -> bool:
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


SECOND_CALL_TOKENS = 200_000
"""Below this many tokens (eval sizes) a worker also times a second call in the same process: the call a
Trainer makes at every evaluation after the first, when the process has paid its one-time costs."""


def worker(tool: str, dataset: str, seed: int) -> None:
    with tempfile.TemporaryDirectory() as workdir:
        call, tokens = prepare(tool, dataset, seed, workdir)
        gc.collect()
        hwm = _reset_peak()
        before = _status("VmRSS:") if hwm else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
        faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
        start = time.perf_counter()
        scores = call()
        seconds = time.perf_counter() - start
        faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt - faults
        peak = _status("VmHWM:") if hwm else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
        second = None
        if tokens < SECOND_CALL_TOKENS:
            start = time.perf_counter()
            call()
            second = time.perf_counter() - start
    memory = "VmHWM rise" if hwm else "ru_maxrss rise"
    print(json.dumps({"seconds": seconds, "second_seconds": second, "peak_bytes": peak - before, "memory": memory,
                      "tokens": tokens, "page_faults": faults, "scores": scores}))


def run_worker(tool: str, dataset: str, seed: int) -> dict[str, Any]:
    """One fresh worker process."""
    proc = subprocess.run([sys.executable, __file__, "--worker", tool, dataset, str(seed)],
                          capture_output=True, text=True, env={**os.environ, **OFFLINE},
                          cwd=ROOT, check=False)
    if proc.returncode:
        raise RuntimeError(f"{tool} on {dataset} failed:\n{proc.stderr[-3000:]}")
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    out["stderr"] = proc.stderr
    return out


# --------------------------------------------------------------------------- the parent

# (tool, baseline, goal): the baseline is measured on the same data in the same run
FLAT = [
    ("seqeval default", None, None),
    ("span_f1 strings default", "seqeval default", ">= 50x faster"),
    ("seqeval strict", None, None),
    ("span_f1 strings strict", "seqeval strict", ">= 30x faster"),
    (WORST, None, "every predicted sentence made wrong: no sentence takes its reference's codes"),
    ("run_ner.py: ids -> strings -> seqeval", None, None),
    ("span_f1 from ids", "run_ner.py: ids -> strings -> seqeval", ">= 100x faster"),
    ("evaluate: seqeval (local copy)", None, None),
    ("evaluate: span_f1", "evaluate: seqeval (local copy)", ">= 5x faster, less memory"),
    ("nervaluate", None, None),
    ("span_f1 lenient", "nervaluate", ">= 10x faster"),
]
def median_of(runs: list[dict[str, Any]], key: str) -> float:
    return statistics.median(r[key] for r in runs)


def summarize_runs(tool: str, dataset: str, runs: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "tool": tool, "data": dataset, "runs": len(runs), "seconds": median_of(runs, "seconds"),
        "all_seconds": [r["seconds"] for r in runs], "peak_mb": median_of(runs, "peak_bytes") / 2**20,
        "memory": runs[0]["memory"], "tokens": runs[0]["tokens"], "scores": runs[0]["scores"],
        "page_faults": median_of(runs, "page_faults"),
        "second_seconds": median_of(runs, "second_seconds") if runs[0]["second_seconds"] is not None else None,
    }


def measure(tools: list[str], dataset: str, repeat: int, seed: int, progress: Any) -> list[dict[str, Any]]:
    """Run every tool ``repeat`` times on ``dataset``, one round of all tools after another.

    Interleaving the rounds puts a tool and its baseline in the same stretch of
    time, so a slow spell of the machine (a VM shares its host) weighs on both.
    """
    runs: dict[str, list[dict[str, Any]]] = {tool: [] for tool in tools}
    failed: set[str] = set()
    for _ in range(repeat):
        for tool in tools:
            if tool in failed:
                progress.update(1)
                continue
            progress.set_postfix_str(f"{tool} / {dataset}")
            try:
                runs[tool].append(run_worker(tool, dataset, seed))
            except RuntimeError as error:
                print(f"  skipped {tool} on {dataset}: {str(error).splitlines()[-1]}", file=sys.stderr)
                failed.add(tool)
            progress.update(1)
    return [summarize_runs(tool, dataset, runs[tool]) for tool in tools if tool not in failed]


def _lenient_available() -> bool:
    try:
        import nested_span_f1.lenient.score  # noqa: F401
    except ImportError:
        return False
    return True


def compile_package() -> None:
    """Write the package's bytecode, as pip does when it installs a package.

    An editable install run with PYTHONDONTWRITEBYTECODE set (as on this machine)
    would otherwise compile every module again in every fresh worker, a cost that
    seqeval, nervaluate and evaluate, installed by pip, never pay.
    """
    import compileall

    compileall.compile_dir(str(ROOT / "nested_span_f1"), quiet=1)


def import_report() -> dict[str, Any]:
    """The package's import time after numpy's, against numpy's, in one fresh process (median of 7)."""
    code = ("import sys, time, json; t0 = time.perf_counter(); import numpy; t1 = time.perf_counter(); "
            "import nested_span_f1; t2 = time.perf_counter(); print(json.dumps([t1 - t0, t2 - t1, sorted(sys.modules)]))")
    numpy_times, times, modules = [], [], []
    for _ in range(7):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
        numpy_seconds, seconds, modules = json.loads(out.stdout)
        numpy_times.append(numpy_seconds)
        times.append(seconds)
    heavy = sorted({m.split(".")[0] for m in modules} & set(HEAVY))
    return {"seconds": statistics.median(times), "all_seconds": times, "numpy_seconds": statistics.median(numpy_times),
            "ratio_to_numpy": statistics.median(t / n for t, n in zip(times, numpy_times)), "heavy_modules": heavy}


def machine() -> dict[str, str]:
    from importlib.metadata import PackageNotFoundError, version

    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    versions = {}
    for name in ("numpy", "seqeval", "nervaluate", "evaluate", "datasets", "pyarrow"):
        try:
            versions[name] = version(name)
        except PackageNotFoundError:
            versions[name] = "absent"
    return {"cpu": cpu, "cores": str(os.cpu_count()), "python": platform.python_version(),
            "platform": platform.platform(), **versions}


def fmt_ratio(row: dict[str, Any], base: dict[str, Any] | None) -> str:
    if base is None:
        return "n/a (baseline missing)"
    diff = differences(row["scores"], base["scores"])
    if diff:
        return f"NUMBERS DIFFER ({len(diff)}: {diff[0]})"
    ratio = base["seconds"] / row["seconds"]
    return f"{ratio:.1f}x faster" if ratio >= 1 else f"{1 / ratio:.2f}x slower"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="3500,35000,350000", help="synthetic sizes in sentences, comma-separated")
    parser.add_argument("--repeat", type=int, default=3, help="fresh-process runs per tool and size (median)")
    parser.add_argument("--repeat-large", type=int, default=1, help="runs per tool for sizes >= 100k sentences")
    parser.add_argument("--small-repeat", type=int, default=0,
                        help="runs per tool on data under 10k sentences (3.5k, CoNLL-2003), if more than --repeat")
    parser.add_argument("--quick", action="store_true", help="smoke run: 2000 sentences, one run each")
    parser.add_argument("--no-conll", action="store_true", help="skip the CoNLL-2003 outputs")
    parser.add_argument("--tools", default="", help="only tools whose name contains one of these (comma-separated)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", help="also write the results to this file")
    parser.add_argument("--conlleval-pl", metavar="PATH",
                        help="conlleval.pl, to time the CLI against on generated 1M / 10M-token files "
                             "(scripts/bench_streaming.py; without it that comparison is skipped)")
    parser.add_argument("--cli-sizes", default="1000000,10000000", help="tokens per file for the CLI rows")
    parser.add_argument("--worker", nargs=3, metavar=("TOOL", "DATA", "SEED"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker[0], args.worker[1], int(args.worker[2]))
        return
    from tqdm import tqdm

    sizes = [2000] if args.quick else [int(s) for s in args.sizes.split(",") if s]
    repeat = 1 if args.quick else args.repeat
    datasets = [str(s) for s in sizes]
    notes = []
    if args.no_conll:
        notes.append("CoNLL-2003 skipped (--no-conll)")
    elif (CONLL / "test.gold.conll").exists():
        datasets.append("conll2003")
    else:
        notes.append(f"CoNLL-2003 skipped: {CONLL} not found")
    flat = [t for t in FLAT if not args.tools or any(w in t[0] for w in args.tools.split(","))]
    if not _lenient_available():
        flat = [t for t in flat if t[0] not in ("nervaluate", "span_f1 lenient")]
        notes.append("lenient rows skipped: nested_span_f1.lenient.score is absent")
    plan = [(tool, data) for data in datasets for tool, _, _ in flat]
    nested = (GENIA.exists() and not args.tools) or "nested" in args.tools
    streaming = [str(s) for s in ([2000, 20000] if args.quick else [35000, 350000])]
    large = {data: data.isdigit() and int(data) >= 100_000 for data in datasets + streaming}
    small = {data: data == "conll2003" or (data.isdigit() and int(data) < 10_000) for data in datasets + streaming}
    small_repeat = repeat if args.quick else max(repeat, args.small_repeat)
    runs_for = {data: args.repeat_large if large[data] else small_repeat if small[data] else repeat
                for data in datasets + streaming}
    total = sum(runs_for[d] for _, d in plan) + (repeat if nested else 0) + sum(runs_for[d] for d in streaming)
    compile_package()
    results: dict[str, Any] = {"machine": machine(), "notes": notes, "rows": [], "streaming": []}
    with tqdm(total=total, desc="bench", unit="run", file=sys.stderr) as progress:
        for data in datasets:
            results["rows"] += measure([tool for tool, _, _ in flat], data, runs_for[data], args.seed, progress)
        if nested:
            try:
                from nested_span_f1 import score_nested  # noqa: F401
                for row in measure(["span_f1 nested (GENIA)"], "genia", repeat, args.seed, progress):
                    results["nested"] = row
            except ImportError:
                notes.append("nested row skipped: nested_span_f1.nested.score is absent")
        else:
            notes.append(f"nested row skipped: {GENIA} not found" if not GENIA.exists() else "nested row not selected")
        if not args.tools or "stream" in args.tools:
            for data in streaming:
                results["streaming"] += measure(
                    ["span_f1 streaming (batches of 32)"], data, runs_for[data], args.seed, progress
                )
    results["import"] = import_report()
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    if (not args.tools or "bootstrap" in args.tools) and BOOTSTRAP_GOLD.exists():
        # the benchmark command's resampling against re-scoring each resample (scripts/bench_bootstrap.py)
        from bench_bootstrap import measure as measure_bootstrap

        results["bootstrap"] = measure_bootstrap(BOOTSTRAP_GOLD, repeat=repeat)
    elif not args.tools:
        notes.append(f"bootstrap row skipped: {BOOTSTRAP_GOLD} not found")
    if not args.tools or "cli" in args.tools:
        # the streaming commands against conlleval.pl, in fresh processes (scripts/bench_streaming.py)
        from bench_streaming import measure as measure_cli

        sizes = (200_000,) if args.quick else tuple(int(s) for s in args.cli_sizes.split(","))
        results["cli"] = measure_cli(sizes, args.conlleval_pl, args.seed)
    print_report(results, flat)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))


def print_report(results: dict[str, Any], flat: list[tuple[str, str | None, str | None]]) -> None:
    rows = {(r["tool"], r["data"]): r for r in results["rows"]}
    baselines = {tool: (base, goal) for tool, base, goal in flat}
    datasets = list(dict.fromkeys(r["data"] for r in results["rows"]))
    memory = results["rows"][0]["memory"] if results["rows"] else "VmHWM rise"
    m = results["machine"]
    print(f"\nMachine: {m['cpu']}, {m['cores']} cores, Python {m['python']}; numpy {m['numpy']}, seqeval {m['seqeval']}, "
          f"nervaluate {m['nervaluate']}, evaluate {m['evaluate']}, datasets {m['datasets']}, pyarrow {m['pyarrow']}")
    print(f"Peak memory: {memory} during the call, MB. Times: median of fresh-process runs (runs column).\n")
    header = f"| {'tool':38s} | {'data':>9s} | {'tokens':>9s} | runs | {'median s':>9s} | {'tokens/s':>10s} | {'peak MB':>8s} | vs baseline (goal) |"
    print(header)
    print("|" + "|".join("-" * (len(c)) for c in header.split("|")[1:-1]) + "|")
    for data in datasets:
        for tool, _, _ in flat:
            row = rows.get((tool, data))
            if row is None:
                continue
            base, goal = baselines[tool]
            if base is None:
                versus = "baseline" if goal is None else goal
            else:
                versus = f"{fmt_ratio(row, rows.get((base, data)))} than {base} ({goal})"
            print(f"| {tool:38s} | {data:>9s} | {row['tokens']:>9,d} | {row['runs']:>4d} | {row['seconds']:>9.4f} | "
                  f"{row['tokens'] / row['seconds']:>10.3g} | {row['peak_mb']:>8.1f} | {versus} |")
    print()
    seconds = [(tool, data, row, rows.get((baselines[tool][0], data))) for (tool, data), row in rows.items()
               if row.get("second_seconds") and baselines[tool][0] is not None]
    if seconds:
        print("Second call in the same process (as at every Trainer evaluation after the first), median s:")
        for tool, data, row, base in seconds:
            ratio = f"{base['second_seconds'] / row['second_seconds']:.1f}x" if base and base.get("second_seconds") else "n/a"
            print(f"  {tool} on {data}: {row['second_seconds']:.4f} s; {ratio} against {baselines[tool][0]}")
    if "nested" in results:
        n = results["nested"]
        print(f"\nspan_f1 nested on GENIA test (classic split, all breakdowns): {1000 * n['seconds']:.1f} ms median of "
              f"{n['runs']} (goal < 50 ms), peak +{n['peak_mb']:.1f} MB")
    for row in results["streaming"]:
        print(f"streaming count_tags in batches of 32, {row['data']} sentences: peak +{row['peak_mb']:.1f} MB, "
              f"{row['seconds']:.2f} s")
    if "bootstrap" in results:
        b = results["bootstrap"]
        print(f"benchmark bootstrap on GENIA test ({b['n_units']} {b['units']}, {b['n_resamples']} resamples, one system): "
              f"resampling {1000 * b['resampling_seconds']:.1f} ms, whole benchmark() call "
              f"{1000 * b['benchmark_call_seconds']:.0f} ms (peak {b['benchmark_call_peak_mb']:.1f} MB) against "
              f"re-scoring each resample with score_nested {b['rescore_seconds_extrapolated']:.1f} s "
              f"({b['rescore_measured']} re-scored, extrapolated): {b['speedup_resampling']:.0f}x / "
              f"{b['speedup_benchmark_call']:.0f}x (goal: >= 100x, under 1 s)")
    if "cli" in results:
        from bench_streaming import print_report as print_cli

        print("\nThe streaming commands on generated files (goals: conlleval >= 3x conlleval.pl under 80 MB, "
              "score >= 5x under 100 MB, peak RSS at the largest size within 20% of the smallest):")
        print_cli(results["cli"])
    imp = results["import"]
    print(f"import nested_span_f1 after numpy: {1000 * imp['seconds']:.0f} ms against numpy's {1000 * imp['numpy_seconds']:.0f} ms, "
          f"{imp['ratio_to_numpy']:.2f}x (median of {len(imp['all_seconds'])} fresh processes; goal <= 0.5x); "
          f"heavy modules loaded: {', '.join(imp['heavy_modules']) or 'none'}")
    for note in results["notes"]:
        print(f"note: {note}")


if __name__ == "__main__":
    main()
