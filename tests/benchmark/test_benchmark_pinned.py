"""Every output of the benchmark, pinned byte for byte: the JSON, the Markdown report, the model card, the HTML
page, the bootstrap samples and the warnings, on the sample data and on GENIA.

The digests below were written by this file's ``record`` (``python tests/benchmark/test_benchmark_pinned.py``) with
the package of main at e07f66a, before ``benchmark()`` was cut into its stages (issue 41), and not since but for
the language-model answers' report of one case (issue 37, said where it is pinned): the stages must give every
byte the one long function gave. A case covers a path through the stages: files read by
the command line (nested spans, duplicates removed and warned about once), tag columns beside a language model's
answers and a baseline, in-memory tag and span lists in strict mode, texts against tokens (trimmed, snapped, one
span cut inside a token), scored predictions (their curves), checkpoint directories with development predictions
beside them (selection on development data, consecutive comparisons), and GENIA with a development set.

Paths are written as ``<samples>``, ``<tmp>`` and ``<data>`` and the package's version as ``<version>`` before
hashing, so that a clone anywhere, and a later version, give the same digests. To see what moved when a digest
differs, write each case's outputs with ``python tests/benchmark/test_benchmark_pinned.py OUT_DIR`` at e07f66a and
at the change, and diff the two folders.
"""
from __future__ import annotations

import hashlib
import io
import json
import shutil
import sys
import tempfile
import warnings
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

import nested_span_f1
from nested_span_f1 import Corpus, tags_to_spans
from nested_span_f1.align import join_tokens
from nested_span_f1.benchmark.compare import benchmark
from nested_span_f1.cli.main import main
from nested_span_f1.formats import read_corpus, write_corpus
from nested_span_f1.formats.columns import read_columns

SAMPLES = Path(nested_span_f1.__file__).parent / "sample_data"
DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"


def _leave_out(corpus, share, seed, source):
    """``corpus`` with about ``share`` of its entities left out (drawn with ``seed``)."""
    rng = np.random.default_rng(seed)
    entities = [[e for e in ents if rng.random() >= share] for ents in corpus.entities]
    return Corpus(corpus.tokens, entities, corpus.sentence_ids, corpus.doc_ids, source=source)


def _tokens(path):
    columns = read_columns(path)
    return Corpus(columns.tokens, tags_to_spans(columns.column()), source=path.name)


def _views(result, *card):
    """The result's outputs as text (the bootstrap samples as the digest of their bytes)."""
    result.settings["version"] = "<version>"
    samples = hashlib.sha256()
    for name, values in result.samples.items():
        samples.update(name.encode() + b"\0" + np.ascontiguousarray(values, dtype=np.float64).tobytes())
    return {"json": result.to_json(), "markdown": result.to_markdown(), "card": result.model_index(*card),
            "html": result.to_html(), "samples": samples.hexdigest()}


def _called(*args, **options):
    """``benchmark(*args, **options)``'s outputs, with the warnings it raised."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = benchmark(*args, progress=False, **options)
    return {**_views(result), "warnings": "\n".join(f"{w.category.__name__}: {w.message}" for w in caught)}


def _command(argv, tmp, capsys):
    """The command's printed report, what it wrote to stderr (its warnings) and the files it wrote; then, run again
    with ``--json``, the JSON it prints instead of the report (its line end aside)."""
    outputs = {"markdown": "out.md", "card": "card.md", "html": "out.html"}
    argv = [*argv, "--no-progress"]
    capsys.readouterr()
    assert main(["benchmark", *argv, *(f"--{'model-card' if key == 'card' else key}={tmp / name}"
                                       for key, name in outputs.items())]) == 0
    printed = capsys.readouterr()
    found = {key: (tmp / name).read_text(encoding="utf-8") for key, name in outputs.items()}
    assert main(["benchmark", *argv, "--json"]) == 0
    found["json"] = capsys.readouterr().out.removesuffix("\n")
    return {"stdout": printed.out, "stderr": printed.err, **found}


def sample_nested_command(tmp, capsys):
    return _command(["--gold", str(SAMPLES / "nested.gold.jsonl"), "--pred", f"pred={SAMPLES / 'nested.pred.jsonl'}",
                     "--pred", f"annotator2={SAMPLES / 'nested.annotator2.jsonl'}", "--dataset-name", "sample"],
                    tmp, capsys)


def sample_tags_and_answers(tmp, capsys):
    return _called(SAMPLES / "sample.gold.conll", {"tagger": SAMPLES / "sample.pred.conll",
                                                   "llm": SAMPLES / "sample.lists.jsonl",
                                                   "gold": SAMPLES / "sample.gold.conll"},
                   baseline="tagger", n_resamples=2000, seed=3, confidence=0.9)


def sample_lists_strict(tmp, capsys):
    gold = read_columns(SAMPLES / "sample.gold.conll").column()
    pred = read_columns(SAMPLES / "sample.pred.conll").column()
    tags = _called(gold, {"pred": pred, "gold": gold}, mode="strict", scheme="IOB2", comparisons="best", seed=5)
    spans = _called(tags_to_spans(gold), {"pred": tags_to_spans(pred)}, n_resamples=500, units_by="sentences")
    return {key: tags[key] + "\n" + spans[key] for key in tags}


def sample_texts(tmp, capsys):
    gold = _tokens(SAMPLES / "sample.gold.conll")
    tagger = _tokens(SAMPLES / "sample.pred.conll")
    texts = join_tokens(tagger)
    cut = [[(start, max(start + 1, end - 1), label) if s % 3 == 0 else (start, end, label)
            for start, end, label in ents] for s, ents in enumerate(texts.entities)]
    padded = [[(max(0, start - 1), end, label) if s % 4 == 1 else (start, end, label)
               for start, end, label in ents] for s, ents in enumerate(texts.entities)]
    systems = {"tokens": tagger, "texts": texts,
               "cut": Corpus(texts.tokens, cut, texts.sentence_ids, texts.doc_ids, source="cut", unit="characters"),
               "padded": Corpus(texts.tokens, padded, texts.sentence_ids, texts.doc_ids, source="padded",
                                unit="characters")}
    onto_tokens = _called(gold, systems, trim=True, snap="expand", n_resamples=300)
    onto_texts = _called(join_tokens(gold), {"tokens": tagger, "cut": systems["cut"]}, n_resamples=300)
    return {key: onto_tokens[key] + "\n" + onto_texts[key] for key in onto_tokens}


def sample_scored(tmp, capsys):
    gold = read_corpus(SAMPLES / "nested.gold.jsonl")
    pred = read_corpus(SAMPLES / "nested.pred.jsonl")
    scores = [[round(0.95 - 0.1 * k - 0.03 * s, 2) for k in range(len(ents))] for s, ents in enumerate(pred.entities)]
    scored = Corpus(pred.tokens, pred.entities, pred.sentence_ids, source="scored", scores=scores)
    return _called(gold, {"scored": scored, "plain": pred}, n_resamples=400, n_permutations=700)


def sample_checkpoints(tmp, capsys):
    gold = read_corpus(SAMPLES / "nested.gold.jsonl")
    dev = _leave_out(gold, 0.2, 7, "dev")
    run = tmp / "run"
    for k, step in enumerate((100, 200, 300)):
        (run / f"checkpoint-{step}").mkdir(parents=True)
        write_corpus(_leave_out(gold, 0.4 - 0.1 * k, k, "test"), run / f"checkpoint-{step}" / "test_predictions.jsonl")
        write_corpus(_leave_out(dev, 0.1 + 0.1 * k, 10 + k, "dev"), run / f"checkpoint-{step}" / "dev_predictions.jsonl")
    write_corpus(dev, tmp / "dev.jsonl")
    return _command(["--gold", str(SAMPLES / "nested.gold.jsonl"), "--pred", f"run={run}", "--dev-gold",
                     str(tmp / "dev.jsonl"), "--bootstrap", "1500", "--model-name", "tagger"], tmp, capsys)


def genia(tmp, capsys):
    if not DATA.is_dir():
        pytest.skip(f"real data not found at {DATA}")
    test = read_corpus(DATA / "genia/genia-docsplit.test.jsonl")
    dev = read_corpus(DATA / "genia/genia-docsplit.dev.jsonl")
    shares = {"a": (0.02, 0.10), "b": (0.10, 0.02), "c": (0.06, 0.06)}
    systems = {name: _leave_out(test, t, k, name) for k, (name, (t, _)) in enumerate(shares.items())}
    dev_systems = {name: _leave_out(dev, d, 10 + k, name) for k, (name, (_, d)) in enumerate(shares.items())}
    return _called(test, systems, dev_references=dev, dev_predictions=dev_systems, dataset="GENIA")


CASES = {case.__name__: case for case in (sample_nested_command, sample_tags_and_answers, sample_lists_strict,
                                          sample_texts, sample_scored, sample_checkpoints, genia)}


def normalised(outputs, tmp):
    """Paths and the version written as placeholders."""
    places = ((str(tmp), "<tmp>"), (str(SAMPLES), "<samples>"), (str(DATA), "<data>"),
              (nested_span_f1.__version__, "<version>"))
    out = {}
    for key, text in outputs.items():
        for path, placeholder in places:
            text = text.replace(path, placeholder)
        out[key] = text
    return out


def digests(outputs):
    return {key: hashlib.sha256(text.encode()).hexdigest()[:20] for key, text in sorted(outputs.items())}


PINNED = {
    "sample_nested_command": {
        "card": "96cd9e707b998b8579e7",
        "html": "5c53b35dd0973d158152",
        "json": "a75380022c418e0e10c4",
        "markdown": "beab01cc94213936af9e",
        "stderr": "3456084172ea6257e6dc",
        "stdout": "beab01cc94213936af9e",
    },
    # issue 37 (answers read as real models write them) changed this case's `answers` report and nothing else:
    # the settings' trust and label_map, paired, unparseable_share, the reading counts, index, indices,
    # labels_not_in_gold, mapped and gold_strings added; the "[]" answer counted as empty (was list); the
    # unparseable answer named by its line alone; every score, the Markdown, the card and the samples unchanged
    # (json and html re-pinned at the merge of main into issue 37, the outputs of both diffed as the docstring says)
    # issue 47 (one vocabulary) renamed, and changed nothing else (the outputs of main and the change diffed): the
    # JSON key "answers" -> "answers", the report's heading "Answer systems" -> "Answer systems" (html, json
    # and markdown re-pinned), then the sample's file name sample.lists.jsonl -> sample.lists.jsonl (html, json)
    "sample_tags_and_answers": {
        "card": "f0cf13cf21b393a9a6c5",
        "html": "3aad8000d1e8bdb8f186",
        "json": "7ef346d6c047cdf2e6af",
        "markdown": "e3510ae72f6f3092d054",
        "samples": "09e2127915e7a6298a70",
        "warnings": "e3b0c44298fc1c149afb",
    },
    "sample_lists_strict": {
        "card": "e8507b63a92d22456eb7",
        "html": "4ae84cd815d54e6ff787",
        "json": "4c81118623f9082551e8",
        "markdown": "6b57b9a1d97c32b2f954",
        "samples": "2197b50cc70754d72359",
        "warnings": "01ba4719c80b6fe911b0",
    },
    "sample_texts": {
        "card": "e8d86eff7d162f1bc864",
        "html": "21346eb9c1709152dcc2",
        "json": "4824973911accdcdf2f1",
        "markdown": "2111ee04f8cdf519dd54",
        "samples": "074695cdbf831be1a9fb",
        "warnings": "01ba4719c80b6fe911b0",
    },
    # issue 50 (thresholds, honest) changed this case's curve summaries and chart and nothing else: each curve's
    # summary gained predicted_at_best, lowest_score and best_near_cut; the chart is drawn in a square frame (both
    # axes 0 to 1.02, render/panels.py); every score, the Markdown, the card and the samples unchanged (json and
    # html re-pinned, the outputs of both diffed as the docstring says)
    "sample_scored": {
        "card": "14011abf098a2e1c572f",
        "html": "26f5ff3d86aa40dd47d7",
        "json": "c6422973790f68dc3b21",
        "markdown": "51a0ede23ba6d55d7733",
        "samples": "88e7dd85f34000f5160b",
        "warnings": "760ad2c88ebaf1795e5f",
    },
    "sample_checkpoints": {
        "card": "75ae47a8fc57b1b8a38f",
        "html": "1843d17b116c88119b67",
        "json": "9f04e0a38960252a287f",
        "markdown": "d2999c5041a0897459b1",
        "stderr": "e3b0c44298fc1c149afb",
        "stdout": "d2999c5041a0897459b1",
    },
    "genia": {
        "card": "4374d425cbe3cb32f0b8",
        "html": "452a7ccfa8f550e0cf07",
        "json": "2fec2758e3d228df700d",
        "markdown": "7a474960e9cd354c0ed9",
        "samples": "83b540bacd8422beb56e",
        "warnings": "e3b0c44298fc1c149afb",
    },
}


@pytest.mark.parametrize("case", CASES)
def test_every_output_is_as_before_the_stages(case, tmp_path, capsys, request):
    if case == "genia":
        assert request.getfixturevalue("shared_data") == DATA  # skips, saying what is missing, without the data
    found = digests(normalised(CASES[case](tmp_path, capsys), tmp_path))
    moved = [key for key in PINNED[case] if found.get(key) != PINNED[case][key]]
    assert not moved, f"{case}: {', '.join(moved)} differ from e07f66a's (see the module docstring to diff them)"
    assert set(found) == set(PINNED[case])


def test_the_pins_are_of_outputs_made():
    """No pinned report is the digest of nothing, and no two cases pin the same JSON: each case ran its own path."""
    empty = hashlib.sha256(b"").hexdigest()[:20]
    assert all(digest != empty for pins in PINNED.values() for key, digest in pins.items()
               if key not in ("warnings", "stderr"))
    assert len({pins["json"] for pins in PINNED.values()}) == len(PINNED)


def record(out_dir=None):
    """Print every case's digests as :data:`PINNED` holds them; with ``out_dir``, also write each case's outputs
    there (``CASE.KEY``), to diff two checkouts."""

    class Capture:
        """pytest's ``capsys`` as the cases use it: what was printed since the last call."""

        def readouterr(self):
            printed = SimpleNamespace(out=sys.stdout.getvalue(), err=sys.stderr.getvalue())
            sys.stdout.seek(0), sys.stdout.truncate(), sys.stderr.seek(0), sys.stderr.truncate()
            return printed

    pinned = {}
    for name, case in CASES.items():
        tmp = Path(tempfile.mkdtemp())
        saved, (sys.stdout, sys.stderr) = (sys.stdout, sys.stderr), (io.StringIO(), io.StringIO())
        try:
            outputs = normalised(case(tmp, Capture()), tmp)
        except pytest.skip.Exception:
            continue
        finally:
            sys.stdout, sys.stderr = saved
            shutil.rmtree(tmp)
        pinned[name] = digests(outputs)
        if out_dir is not None:
            for key, text in outputs.items():
                (Path(out_dir) / f"{name}.{key}").write_text(text, encoding="utf-8")
    print(json.dumps(pinned, indent=4))


if __name__ == "__main__":
    record(*sys.argv[1:])
