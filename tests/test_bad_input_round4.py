"""A fresh catalogue of bad and unusual input (issue 38, item 7), each case with its verdict and its exact outcome.

Where ``tests/test_bad_input.py`` runs a row through every door of its kind and checks fragments of the
messages, every case here is one input at one door, with the whole message (or the whole line of output) it
must give, to the character:

* ``refused``: the door refuses; the command line exits 2 with exactly one stderr line (counting from 1 and
  naming the file, the line and the value), a Python door raises the case's exception with exactly its message,
  the Space shows exactly one sentence;
* ``read``: valid (or awkward but valid) input the door must read; one line of its output is given exactly;
* ``counted``: valid input that the door reads and counts something about (a repair, a suspicious entity, a
  word split across entities): the line or the count is given exactly.

``{tmp}`` in a case stands for the folder its files are written to. The doors are grouped: detection (a line
cut short, json that does not parse, json of no known format), the format options, pipeline output, the text
path's counts, then each command (score, nested, lenient, conlleval, convert, table, the benchmark's outputs),
Parquet and Spark local, the evaluate modules, the Python API, and the Space's inputs. The doors still to come
have their place at the end (:data:`LATER`).
"""
from __future__ import annotations

import io
import json
import signal
import sys
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

import nested_span_f1
from nested_span_f1.answers.score import UnreadableAnswersWarning
from nested_span_f1.cli.main import main

VERDICTS = ("refused", "read", "counted")


@dataclass(frozen=True)
class Case:
    """One case: its door, its verdict, what it is given and what it must give.

    ``door``: a command (``score``, ``nested``, ...; ``argv`` its arguments, ``files`` written first, ``stdin``
    its input) or ``python``, ``metric``, ``space``, ``spark`` (``call`` is run with the folder, and the fixtures
    it needs). ``expected``: the exact message of a refusal (without the command's ``nested-span-f1 CMD: error:``
    prefix, or the exception's text), or the exact line of output (or the text a ``call`` returns) of a valid
    input.
    """

    id: str
    door: str
    verdict: str
    expected: str
    argv: tuple[str, ...] = ()
    files: dict[str, bytes] = field(default_factory=dict)
    stdin: bytes | None = None
    call: Callable[..., Any] | None = None
    error: type[Exception] = ValueError


def cli(id: str, verdict: str, argv: list[str] | str, expected: str, files: dict[str, Any] | None = None,
        stdin: bytes | None = None) -> Case:
    """A command-line case; ``argv`` a list or a string split at spaces; file contents as bytes or str."""
    args = tuple(argv.split()) if isinstance(argv, str) else tuple(argv)
    written = {name: content.encode() if isinstance(content, str) else content
               for name, content in (files or {}).items()}
    return Case(id, args[0], verdict, expected, args, written, stdin)


def api(id: str, verdict: str, call: Callable[..., Any], expected: str, error: type[Exception] = ValueError,
        door: str = "python", files: dict[str, Any] | None = None) -> Case:
    """A Python case: ``call(folder)`` (or ``call(folder, fixture)`` for the metric, space and spark doors), the
    ``files`` written into the folder first."""
    written = {name: content.encode() if isinstance(content, str) else content
               for name, content in (files or {}).items()}
    return Case(id, door, verdict, expected, files=written, call=call, error=error)


def jl(*records: Any) -> str:
    """JSON lines of the records."""
    return "".join(json.dumps(record, ensure_ascii=False) + "\n" for record in records)


def doc(ident: str | None, text: str, *spans: tuple[int, int, str]) -> dict[str, Any]:
    """A text-span record."""
    out: dict[str, Any] = {} if ident is None else {"id": ident}
    return {**out, "text": text, "entities": [{"start": s, "end": e, "label": label} for s, e, label in spans]}


def oneie(tokens: list[str], *spans: tuple[int, int, str], sent_id: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {} if sent_id is None else {"sent_id": sent_id}
    return {**out, "tokens": tokens,
            "entity_mentions": [{"start": s, "end": e, "entity_type": label} for s, e, label in spans]}


TEXT = "Barack Obama visited Paris."
GOLD = jl(doc("d1", TEXT, (0, 12, "PER"), (21, 26, "LOC")))
ARTICLE = ("Barack Obama visited Paris and met the mayor. " * 9000).strip()
"""An article of about 414,000 characters: a text-span document on one line longer than any head of a file."""
LONG = jl(doc("a1", ARTICLE, (0, 12, "PER"), (21, 26, "LOC"), (len(ARTICLE) - 5, len(ARTICLE) - 1, "PER")))
CUT = '{"id": "d1", "text": "Barack\n'
COLUMNS = "EU B-ORG\nrejects O\nGerman B-MISC\ncall O\n\nPeter B-PER\nBlackburn I-PER\n"
ONEIE = jl(oneie(["IL-2", "gene", "expression"], (0, 2, "DNA"), (0, 1, "protein"), sent_id="s1"),
           oneie(["NF-kappa", "B"], (0, 2, "protein"), sent_id="s2"))
PIPELINE_ITEM = {"entity_group": "PER", "score": 0.98, "word": "barack obama", "start": 0, "end": 12}
CONLLEVAL = "EU NNP B-ORG B-ORG\nrejects VBZ O O\nGerman JJ B-MISC B-MISC\n\nPeter NNP B-PER B-PER\n"
KNOWN = ("oneie: CNN_Nested_NER, OneIE (jsonl), ends exclusive; triaffine: Locate-and-Label, Triaffine, spERT, "
         "DiffusionNER (json list), ends exclusive; biaffine: biaffine-ner, Yu et al. 2020 (jsonl), ends inclusive; "
         "w2ner: W2NER (json list, discontinuous allowed), ends index lists; shibuya: Shibuya & Hovy 2020 (3-line "
         "text blocks), ends exclusive; lu_roth: Lu & Roth 2015, Muis & Lu 2017 (4-line text), ends exclusive; "
         "pyramid: Pyramid (json list), ends exclusive; text: text spans: spaCy, GLiNER, Spark NLP, brat exports "
         "(jsonl of text and character offsets), ends exclusive, in characters; pipeline: transformers' "
         "token-classification pipeline, aggregated or not (jsonl of text and its output), ends exclusive, in "
         "characters")
"""The formats every "cannot tell the format" message lists."""


TAGS_TABLE = b"<a Parquet table: predictions and references, two rows of tags>"
"""A file's content that stands for a Parquet table of tags, written with pyarrow when the case runs."""
TABLE_ROWS = {"predictions": [["B-PER", "I-PER", "O"], ["B-LOC"]], "references": [["B-PER", "O", "O"], ["B-LOC"]]}


def _files(folder: Path, files: dict[str, bytes]) -> None:
    for name, content in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if content == TAGS_TABLE:
            pa = pytest.importorskip("pyarrow")
            pytest.importorskip("pyarrow.parquet").write_table(pa.table(TABLE_ROWS), path)
        else:
            path.write_bytes(content)


def _fill(text: str, folder: Path) -> str:
    return text.replace("{tmp}", str(folder))


def run_cli(case: Case, folder: Path, capsys: Any, monkeypatch: Any) -> tuple[int, str, str]:
    """The command's status, stdout and stderr, run in this process on the case's files."""
    _files(folder, case.files)
    if case.stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(case.stdin), encoding="utf-8"))
    capsys.readouterr()
    try:
        code = main([_fill(arg, folder) for arg in case.argv])
    except SystemExit as stopped:  # argparse refuses the command line
        code = int(stopped.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def outcome(case: Case, folder: Path, capsys: Any, monkeypatch: Any, fixtures: dict[str, Any]) -> tuple[str, str]:
    """``(verdict, what it gave)``: ``refused`` and the message, or ``read`` and its lines of output (or the text a
    call returned); a refusal of the command line that is not one line, or a traceback, fails at once."""
    if case.call is None:
        code, out, err = run_cli(case, folder, capsys, monkeypatch)
        assert "Traceback" not in err, err
        if code == 2:
            lines = err.splitlines()
            prefix = f"nested-span-f1 {case.door}: error: "
            assert out == "" and len(lines) == 1 and lines[0].startswith(prefix), (code, out, err)
            return "refused", lines[0][len(prefix):].replace(str(folder), "{tmp}")
        assert code == 0, (code, out, err)
        return "read", (out + err).replace(str(folder), "{tmp}")
    extra = [fixtures[case.door]] if case.door in fixtures else []
    _files(folder, case.files)
    try:
        given = case.call(folder, *extra)
    except Exception as error:
        assert isinstance(error, case.error), f"{type(error).__name__}: {error}"
        return "refused", str(error).replace(str(folder), "{tmp}")
    return "read", str(given).replace(str(folder), "{tmp}")


CASES: list[Case] = []

# ---------------------------------------------------------------------------------------------- detection (items 1, 3)
# a text-span document on one line longer than any head a command read: detected from the whole line, at every
# detecting door; a line cut short is json that does not parse, named by file, line and column from 1


def _read_corpus(name: str, **options: Any) -> Callable[[Path], Any]:
    def call(folder: Path) -> Any:
        corpus = nested_span_f1.read_corpus(folder / name, **options)
        return f"{corpus.format}: documents {len(corpus)}, entities {sum(map(len, corpus.entities))}"
    return call


def _read_batches(name: str) -> Callable[[Path], Any]:
    def call(folder: Path) -> Any:
        batches = list(nested_span_f1.formats.read_batches(folder / name))
        return f"{batches[0].format}: batches {len(batches)}, documents {sum(map(len, batches))}"
    return call


def _score_text(pred: str, gold: str, **options: Any) -> Callable[[Path], Any]:
    def call(folder: Path) -> Any:
        from nested_span_f1.align import score_text

        result = score_text(folder / pred, folder / gold, metric="exact", zero_division=0, **options)
        return f"tp {result['tp']}, fp {result['fp']}, fn {result['fn']}"
    return call


LONG_FILES = {"long.jsonl": LONG}
CASES += [
    cli("long-line-score", "read", "score --gold {tmp}/long.jsonl --pred {tmp}/long.jsonl", (
        'predictions: 3 spans: matched 3, spurious 0'), LONG_FILES),
    cli("long-line-nested", "read", "nested --gold {tmp}/long.jsonl --pred {tmp}/long.jsonl", (
        'test set: 1 document, 413,999 characters, 3 entities (0 spans with several labels, 0 discontinuo'
        'us), 0.0% nested, max depth 1'), LONG_FILES),
    cli("long-line-lenient", "read", "lenient --gold {tmp}/long.jsonl --pred {tmp}/long.jsonl", (
        'references: 3 spans: matched 3, missed 0'), LONG_FILES),
    cli("long-line-benchmark", "read", "benchmark --gold {tmp}/long.jsonl --pred a={tmp}/long.jsonl --bootstrap 20 "
        "--no-progress", (
        '| a | 100.00 | 100.00 | 100.00 | [100.00, 100.00] | – | 100.00 |'), LONG_FILES),
    cli("long-line-convert", "read", "convert {tmp}/long.jsonl --to brat --output {tmp}/out", (
        '{tmp}/long.jsonl (text) -> {tmp}/out (brat): 1 document, 3 entities (0 discontinuous); character'
        ' offsets, end exclusive: kept as they are'), LONG_FILES),
    cli("long-line-against-columns", "read", "score --gold {tmp}/g.conll --pred {tmp}/long.jsonl --json", '  "fp": 3,',
        {**LONG_FILES, "g.conll": "\n".join(ARTICLE.split(" ")) .replace("\n", " O\n") + " O\n"}),
    api("long-line-read_corpus", "read", _read_corpus("long.jsonl"), (
        'text: documents 1, entities 3'), files=LONG_FILES),
    api("long-line-read_batches", "read",
        _read_batches("long.jsonl"), 'text: batches 1, documents 1', files=LONG_FILES),
    cli("cut-line-score", "refused", "score --gold {tmp}/cut.jsonl --pred {tmp}/cut.jsonl", (
        '{tmp}/cut.jsonl, line 1, column 22: not valid JSON (Unterminated string starting at)'), {"cut.jsonl": CUT}),
    cli("cut-line-nested", "refused", "nested --gold {tmp}/cut.jsonl --pred {tmp}/cut.jsonl", (
        '{tmp}/cut.jsonl, line 1, column 22: not valid JSON (Unterminated string starting at)'), {"cut.jsonl": CUT}),
    cli("cut-line-lenient", "refused", "lenient --gold {tmp}/g.jsonl --pred {tmp}/cut.jsonl", (
        '{tmp}/cut.jsonl, line 1, column 22: not valid JSON (Unterminated string starting at)'),
        {"cut.jsonl": CUT, "g.jsonl": GOLD}),
    cli("cut-line-benchmark", "refused", "benchmark --gold {tmp}/g.jsonl --pred a={tmp}/cut.jsonl --no-progress", (
        '{tmp}/cut.jsonl, line 1, column 22: not valid JSON (Unterminated string starting at)'),
        {"cut.jsonl": CUT, "g.jsonl": GOLD}),
    cli("cut-line-convert", "refused", "convert {tmp}/cut.jsonl --to oneie --output {tmp}/o.jsonl", (
        '{tmp}/cut.jsonl, line 1, column 22: not valid JSON (Unterminated string starting at)'),
        {"cut.jsonl": CUT}),
    cli("cut-line-answers-gold", "refused", "answers --gold {tmp}/cut.jsonl --pred {tmp}/a.jsonl", (
        '{tmp}/cut.jsonl, line 1, column 22: not valid JSON (Unterminated string starting at)'),
        {"cut.jsonl": CUT, "a.jsonl": jl({"id": "d1", "output": "[]"})}),
    api("cut-line-read_corpus", "refused", _read_corpus("cut.jsonl"), (
        '{tmp}/cut.jsonl, line 1, column 22: not valid JSON (Unterminated string starting at)'),
        files={"cut.jsonl": CUT}),
    api("cut-line-read_batches", "refused", _read_batches("cut.jsonl"), (
        '{tmp}/cut.jsonl, line 1, column 22: not valid JSON (Unterminated string starting at)'),
        files={"cut.jsonl": CUT}),
    api("cut-line-score_text", "refused", _score_text("g.jsonl", "cut.jsonl"), (
        '{tmp}/cut.jsonl, line 1, column 22: not valid JSON (Unterminated string starting at)'),
        files={"cut.jsonl": CUT, "g.jsonl": GOLD}),
    cli("cut-third-line", "refused", "nested --gold {tmp}/g.jsonl --pred {tmp}/g.jsonl", (
        '{tmp}/g.jsonl, line 3, column 52: not valid JSON (Expecting property name enclosed in double quo'
        'tes)'),
        {"g.jsonl": GOLD + jl(doc("d2", "Ann")) + '{"id": "d3", "text": "x", "entities": [{"start": 0,\n'}),
    cli("cut-after-blank-lines", "refused", "score --gold {tmp}/g.jsonl --pred {tmp}/g.jsonl", (
        '{tmp}/g.jsonl, line 3, column 22: not valid JSON (Unterminated string starting at)'),
        {"g.jsonl": "\n\n" + CUT}),
    cli("cut-after-a-byte-order-mark", "refused", "score --gold {tmp}/g.jsonl --pred {tmp}/g.jsonl", (
        '{tmp}/g.jsonl, line 1, column 22: not valid JSON (Unterminated string starting at)'),
        {"g.jsonl": b"\xef\xbb\xbf" + CUT.encode()}),
    cli("cut-json-list", "refused", "nested --gold {tmp}/g.json --pred {tmp}/g.json", (
        "{tmp}/g.json, line 3, column 1: not valid JSON (Expecting ',' delimiter)"),
        {"g.json": '[{"tokens": ["a", "b"], "entities": [\n  {"type": "X", "start": 0, "end": 1}\n'}),
    cli("json-list-extra-data", "refused", "nested --gold {tmp}/g.json --pred {tmp}/g.json", (
        '{tmp}/g.json, line 2, column 1: not valid JSON (Extra data)'),
        {"g.json": '[{"tokens": ["a"], "entities": []}]\n]\n'}),
    cli("json-of-no-format-score", "refused", "score --gold {tmp}/g.jsonl --pred {tmp}/g.jsonl", (
        '{tmp}/g.jsonl: cannot tell the format (line 1 holds an object with the keys ["foo", "bar"]); pas'
        's it explicitly, one of: '
        + KNOWN),
        {"g.jsonl": jl({"foo": 1, "bar": [1, 2]})}),
    cli("json-of-no-format-nested", "refused", "nested --gold {tmp}/g.jsonl --pred {tmp}/g.jsonl", (
        '{tmp}/g.jsonl: cannot tell the format (line 1 holds an object with the keys ["sentence", "labels'
        '"]); pass it explicitly, one of: '
        + KNOWN),
        {"g.jsonl": jl({"sentence": "a b", "labels": ["O", "O"]})}),
    cli("json-list-of-numbers", "refused", "lenient --gold {tmp}/g.json --pred {tmp}/g.json", (
        '{tmp}/g.json: cannot tell the format (a json list whose first item is 1); pass it explicitly, on'
        'e of: '
        + KNOWN),
        {"g.json": "[1, 2, 3]\n"}),
    cli("json-string-line", "refused", "nested --gold {tmp}/g.jsonl --pred {tmp}/g.jsonl", (
        '{tmp}/g.jsonl: cannot tell the format (a json list whose first item is "Barack Obama"); pass it '
        'explicitly, one of: '
        + KNOWN),
        {"g.jsonl": '["Barack Obama"]\n'}),
    cli("json-nested-too-deep-first-line", "refused", "score --gold {tmp}/g.jsonl --pred {tmp}/g.jsonl", (
        "{tmp}/g.jsonl, line 1: json nested too deeply for Python's json reader"),
        {"g.jsonl": '{"a": ' + "[" * 100_000 + "]" * 100_000 + "}\n"}),
    cli("columns-first-token-a-bracket", "read", "score --gold {tmp}/g.conll --pred {tmp}/g.conll", 'tp=1  fp=0  fn=0',
        {"g.conll": "[ O\nPeter B-PER\n] O\n"}),
    cli("columns-first-token-a-brace-and-quote", "refused", "score --gold {tmp}/g.conll --pred {tmp}/g.conll", (
        '{tmp}/g.conll, line 1, column 2: not valid JSON (Unterminated string starting at)'),
        {"g.conll": '{" O\nPeter B-PER\n'}),
    cli("columns-first-token-a-brace-and-quote-named", "read", "score --gold {tmp}/g.conll --pred {tmp}/g.conll "
        "--gold-format conll --pred-format conll", 'tp=1  fp=0  fn=0', {"g.conll": '{" O\nPeter B-PER\n'}),
    cli("json-after-blank-lines-read", "read", "score --gold {tmp}/g.jsonl --pred {tmp}/g.jsonl", (
        'predictions: 2 spans: matched 2, spurious 0'),
        {"g.jsonl": "\n\n" + GOLD}),
    cli("json-list-pretty-printed", "read", "nested --gold {tmp}/g.json --pred {tmp}/g.json", (
        'test set: 1 sentence, 2 tokens, 1 entity (0 spans with several labels, 0 discontinuous), 0.0%'
        ' nested, max depth 1'),
        {"g.json": json.dumps([{"tokens": ["IL-2", "gene"], "entities": [{"type": "DNA", "start": 0, "end": 2}]}],
                              indent=2)}),
]

# --------------------------------------------------------------------------------------------- format options (item 2)
# --gold-format and --pred-format: the same names and values on every command that reads a gold and a prediction
ONEIE_FILES = {"g.jsonl": ONEIE, "p.jsonl": ONEIE}
CASES += [
    cli("score-format-oneie", "read", "score --gold {tmp}/g.txt --pred {tmp}/p.txt --gold-format oneie --pred-format "
        "jsonl", (
        'aligned by id: both sides tokens, compared token by token'), {"g.txt": ONEIE, "p.txt": ONEIE}),
    cli("score-detects-oneie", "read", "score --gold {tmp}/g.jsonl --pred {tmp}/p.jsonl --json",
        '  "tp": 3,', ONEIE_FILES),
    cli("score-format-conll-on-texts", "refused", "score --gold {tmp}/g.jsonl --pred {tmp}/g.jsonl --gold-format conll",
        (
        '{tmp}/g.jsonl, line 1: tag \'"LOC"}]}\': malformed: no valid prefix: tags are O or B-TYPE with a p'
        'refix among O, B, I, E, S, U, L, M'), {"g.jsonl": GOLD}),
    cli("score-format-unknown", "refused", "score --gold {tmp}/g.jsonl --pred {tmp}/g.jsonl --pred-format xml", (
        "argument --pred-format: unknown format 'xml'; choose one of oneie, triaffine, biaffine, w2ner, s"
        'hibuya, lu_roth, pyramid, text, pipeline, text_spans, spacy_jsonl, gliner, token_classification,'
        ' jsonl, cnn_nested_ner, locate_and_label, spert, diffusionner, yu2020, muis_lu (`nested-span-f1 '
        'formats` describes each) (see nested-span-f1 score --help)'),
        {"g.jsonl": GOLD}),
    # issue 37: --gold-format answers names a gold of strings ({"text", "label"} entities, no offsets)
    cli("score-gold-format-answers", "refused", "score --gold {tmp}/g.jsonl --pred {tmp}/a.jsonl --gold-format "
        "answers", (
        "{tmp}/g.jsonl, line 1, entity 1: {'start': 0, 'end': 12, 'label': 'PER'} gives offsets, not the entity's "
        "text: a gold of strings names each entity by its text and label; give a gold with offsets as a file of its "
        "own format, or as a Corpus"),
        {"g.jsonl": GOLD, "a.jsonl": jl({"id": "d1", "output": "[]"})}),
    cli("score-answers-answers", "read", "score --gold {tmp}/g.jsonl --pred {tmp}/a.jsonl --json", (
        '    "overall_f1": 0.6666666666666666,'),
        {"g.jsonl": GOLD, "a.jsonl": jl({"id": "d1", "output": '[{"text": "Barack Obama", "label": "PER"}]'})}),
    cli("score-answers-with-plot", "refused", "score --gold {tmp}/g.jsonl --pred {tmp}/a.jsonl --plot {tmp}/x.png",
        (
        "--plot draws the per-type scores of two span files; an answer system's located spans are in --"
        'json (or `nested-span-f1 answers --metric exact`)'),
        {"g.jsonl": GOLD, "a.jsonl": jl({"id": "d1", "output": "[]"})}),
    cli("score-tag-option-with-span-files", "refused", "score --gold {tmp}/g.jsonl --pred {tmp}/p.jsonl --scheme IOB2 "
        "--mode strict", (
        '--scheme and --mode apply to tag columns, but neither file holds them'), ONEIE_FILES),
    cli("score-tokens-differ-in-span-files", "refused", "score --gold {tmp}/g.jsonl --pred {tmp}/p.jsonl", (
        "sentence 2 (id 's2'): tokens differ at position 1 (2 gold tokens, 2 predicted; gold ['NF-kappa',"
        " 'B'], predicted ['NF-kB', 'B']); both files must hold the same sentences"),
        {"g.jsonl": ONEIE, "p.jsonl": ONEIE.replace("NF-kappa", "NF-kB")}),
    cli("lenient-format-text-on-oneie", "refused", "lenient --gold {tmp}/g.jsonl --pred {tmp}/p.jsonl --pred-format "
        "text", (
        "{tmp}/p.jsonl, line 1: {'sent_id': 's1', 'tokens': ['IL-2', 'gene', 'expression'], ... 1 more} h"
        "as no 'text' key"), ONEIE_FILES),
    cli("nested-format-alias", "read", "nested --gold {tmp}/g.txt --pred {tmp}/p.txt --gold-format cnn-nested-ner "
        "--pred-format JSONL", (
        'test set: 2 sentences, 5 tokens, 3 entities (0 spans with several labels, 0 discontinuous), 66.7'
        '% nested, max depth 2'), {"g.txt": ONEIE, "p.txt": ONEIE}),
    cli("nested-format-brat-on-a-file", "refused", "nested --gold {tmp}/g.jsonl --pred {tmp}/g.jsonl --gold-format "
        "brat", (
        '{tmp}/g.ann: not found; brat annotations come as .txt and .ann pairs'), {"g.jsonl": GOLD}),
    cli("benchmark-pred-format-conll", "read", "benchmark --gold {tmp}/g.conll --pred a={tmp}/p.txt --pred-format "
        "conll --bootstrap 20 --no-progress", (
        '| a | 100.00 | 100.00 | 100.00 | [100.00, 100.00] | – | 100.00 |'), {"g.conll": COLUMNS, "p.txt": COLUMNS}),
    cli("benchmark-gold-format-answers", "refused", "benchmark --gold {tmp}/g.jsonl --pred a={tmp}/g.jsonl "
        "--gold-format answers --no-progress", (
        "the gold's format 'answers': a gold needs offsets, and a language model's answers are predicti"
        'ons (pred_format, --pred-format)'), {"g.jsonl": GOLD}),
    cli("benchmark-pred-format-answers", "read", "benchmark --gold {tmp}/g.jsonl --pred llm={tmp}/a.jsonl "
        "--pred-format answers --bootstrap 20 --no-progress", (
        '| llm | 66.67 | [66.67, 66.67] | 66.67 | [66.67, 66.67] | 0 | 0 | 0 |'),
        {"g.jsonl": GOLD, "a.jsonl": jl({"id": "d1", "output": '[{"text": "Paris", "label": "LOC"}]'})}),
    cli("benchmark-format-alias", "read", "benchmark --gold {tmp}/g.txt --pred a={tmp}/p.txt --gold-format spert "
        "--pred-format spert --bootstrap 20 --no-progress", (
        '| a | 0 | 0 | 0 | 0 | 1 | 0 |'),
        {"g.txt": json.dumps([{"tokens": ["a", "b"], "entities": [{"type": "X", "start": 0, "end": 1}]}]),
         "p.txt": json.dumps([{"tokens": ["a", "b"], "entities": []}])}),
]

# ----------------------------------------------------------------------------- pipeline output, quoted values (item 4)
BATCH_OF_ONE = jl({"id": "d1", "text": TEXT, "entities": [[PIPELINE_ITEM]]})
BATCH_OF_TWO = jl({"id": "d1", "text": TEXT, "entities": [[PIPELINE_ITEM], []]})
LONG_ITEM = {**PIPELINE_ITEM, "word": "barack obama " * 30_000}
CASES += [
    cli("pipeline-batch-of-one-score", "counted", "score --gold {tmp}/g.jsonl --pred {tmp}/p.jsonl", (
        'read: predictions: pipeline batches unwrapped 1'),
        {"g.jsonl": GOLD, "p.jsonl": BATCH_OF_ONE}),
    api("pipeline-batch-of-one-read", "counted", lambda folder: (folder / "p.jsonl").write_text(BATCH_OF_ONE) and
        dict(nested_span_f1.read_corpus(folder / "p.jsonl").notes), (
        "{'pipeline_batches_unwrapped': 1}")),
    cli("pipeline-batch-of-two-nested", "refused", "nested --gold {tmp}/g.jsonl --pred {tmp}/p.jsonl", (
        "{tmp}/p.jsonl, line 1: 'entities' holds 2 lists, the pipeline's output for a batch of 2 texts (p"
        'ipe(texts)); save each text\'s output beside its text, one line a text: {"text": texts[i], "entit'
        'ies": output[i]}'),
        {"g.jsonl": GOLD, "p.jsonl": BATCH_OF_TWO}),
    api("pipeline-batch-of-two-read", "refused", lambda folder: (folder / "p.jsonl").write_text(BATCH_OF_TWO) and
        nested_span_f1.read_corpus(folder / "p.jsonl"), (
        "{tmp}/p.jsonl, line 1: 'entities' holds 2 lists, the pipeline's output for a batch of 2 texts (p"
        'ipe(texts)); save each text\'s output beside its text, one line a text: {"text": texts[i], "entit'
        'ies": output[i]}')),
    cli("pipeline-entities-an-object", "refused", "score --gold {tmp}/g.jsonl --pred {tmp}/p.jsonl", (
        "{tmp}/p.jsonl, line 1: 'entities' must be a list, got {'0': {'entity_group': 'PER', 'score': 0.9"
        '8, ... 3 more}}'),
        {"g.jsonl": GOLD, "p.jsonl": jl({"id": "d1", "text": TEXT, "entities": {"0": PIPELINE_ITEM}})}),
    cli("pipeline-item-offsets-out-of-range-long-word", "refused", "score --gold {tmp}/g.jsonl --pred {tmp}/p.jsonl",
        (
        "{tmp}/p.jsonl, line 1: item {'entity_group': 'PER', 'score': 0.98, ... 3 more} is out of range ("
        "start 0, end 99); offsets need 0 <= start <= end <= 27 (the text's length in characters)"),
        {"g.jsonl": GOLD, "p.jsonl": jl({"id": "d1", "text": TEXT, "entities": [{**LONG_ITEM, "end": 99}]})}),
    cli("pipeline-item-float-offset", "refused", "nested --gold {tmp}/g.jsonl --pred {tmp}/p.jsonl", (
        "{tmp}/p.jsonl, line 1: item {'entity_group': 'PER', 'score': 0.98, 'word': 'barack obama', ... 2"
        ' more} has non-integer offsets (end 12.0); offsets must be ints, never truncated'),
        {"g.jsonl": GOLD, "p.jsonl": jl({"id": "d1", "text": TEXT, "entities": [{**PIPELINE_ITEM, "end": 12.0}]})}),
    cli("pipeline-subtoken-without-index", "refused", "lenient --gold {tmp}/g.jsonl --pred {tmp}/p.jsonl", (
        "{tmp}/p.jsonl, line 1: {'entity': 'B-PER', 'word': 'barack', 'start': 0, 'end': 6} has no 'index"
        "' key"),
        {"g.jsonl": GOLD, "p.jsonl": jl({"id": "d1", "text": TEXT, "entities": [
            {"entity": "B-PER", "word": "barack", "start": 0, "end": 6}]})}),
    cli("text-entity-a-long-string", "refused", "score --gold {tmp}/g.jsonl --pred {tmp}/p.jsonl", (
        "{tmp}/p.jsonl, line 1: entity 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...' (500,0"
        '00 characters) must be a json object with start, end and label'),
        {"g.jsonl": GOLD, "p.jsonl": jl({"id": "d1", "text": TEXT, "entities": ["x" * 500_000]})}),
    cli("text-entity-without-label-long-text", "refused", "nested --gold {tmp}/g.jsonl --pred {tmp}/p.jsonl", (
        "{tmp}/p.jsonl, line 1: {'start': 0, 'end': 12, 'text': 'Barack Obama Barack O...' (130,000 chara"
        "cters)} has no 'label' key"),
        {"g.jsonl": GOLD, "p.jsonl": jl({"id": "d1", "text": TEXT, "entities": [
            {"start": 0, "end": 12, "text": "Barack Obama " * 10_000}]})}),
    cli("columns-long-line-width", "refused", "score --gold {tmp}/g.conll --pred {tmp}/g.conll", (
        "{tmp}/g.conll, line 2: 200,000 columns where earlier lines have 2: 'w w w w w w w w w w w w w w "
        "w w w w w w w w w w w w w ...' (399,999 characters)"),
        {"g.conll": "a O\n" + " ".join(["w"] * 200_000) + "\n"}),
    cli("columns-long-tag", "refused", "score --gold {tmp}/g.conll --pred {tmp}/g.conll", (
        "predictions, sentence 1, token 1 ({tmp}/g.conll line 1): tag 'B-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
        "xxxxxxxxxxxxxxxxxxxx...' (100,003 characters): malformed: a type that begins or ends with '-'"),
        {"g.conll": "a B-" + "x" * 100_000 + "-\n"}),
    cli("oneie-tokens-a-long-string", "refused", "nested --gold {tmp}/g.jsonl --pred {tmp}/g.jsonl", (
        '{tmp}/g.jsonl, line 1: \'tokens\' must be a list of token strings, got "IL-2 gene IL-2 gene IL-2 g'
        'ene IL-2 gene IL-2 gene IL-2..." (500,000 characters)'),
        {"g.jsonl": jl({"tokens": "IL-2 gene " * 50_000, "entity_mentions": []})}),
]

# --------------------------------------------------------------------------------- the text path's counts (items 5, 6)
BRAT_TEXT = "IL-2 binds the receptor"
BRAT = {"b/d1.txt": BRAT_TEXT,
        "b/d1.ann": "T1\tProtein 0 4\tIL-2\nT2\tBinding 5 10\tbinds\nE1\tBinding:T2 Theme:T1\n"}
SPLIT = jl({"id": "x7", "text": "Paris opened", "entities": [
    {"entity": "B-LOC", "index": 1, "word": "par", "start": 0, "end": 3},
    {"entity": "B-PER", "index": 2, "word": "##is", "start": 3, "end": 5}]})
CASES += [
    cli("brat-event-trigger-counted", "counted", "nested --gold {tmp}/b --pred {tmp}/b", (
        'gold:        {tmp}/b (brat, characters; brat standoff, character offsets: 2 T lines: 1 entity, 1'
        ' event trigger (T lines that E lines use, scored as entities); read past: 1 E)'), BRAT),
    cli("brat-event-trigger-left-out", "counted", "nested --gold {tmp}/b --pred {tmp}/b --no-event-triggers --json",
        '    "entities": 1,', BRAT),
    cli("brat-event-trigger-convert", "counted", "convert {tmp}/b --to text --output {tmp}/t.jsonl "
        "--no-event-triggers", (
        '{tmp}/b (brat) -> {tmp}/t.jsonl (text): 1 document, 1 entity (0 discontinuous); brat standoff, c'
        'haracter offsets: 2 T lines: 1 entity, 1 event trigger (left out); read past: 1 E'), BRAT),
    cli("brat-event-trigger-option-on-columns", "refused", "convert {tmp}/g.conll --to text --output {tmp}/t.jsonl "
        "--no-event-triggers", (
        "--no-event-triggers leaves out the T lines brat's E lines use as triggers, but the input is not "
        'one; leave it out'), {"g.conll": COLUMNS}),
    cli("brat-event-trigger-option-benchmark", "refused", "benchmark --gold {tmp}/g.jsonl --pred a={tmp}/g.jsonl "
        "--no-event-triggers --bootstrap 20 --no-progress", (
        "event_triggers=False (--no-event-triggers) leaves out a brat corpus's event triggers, but neithe"
        'r the gold nor a system is one; leave it out'), {"g.jsonl": GOLD}),
    cli("brat-event-trigger-option-parquet", "refused", "score --gold {tmp}/t.parquet --pred {tmp}/t.parquet "
        "--no-event-triggers", (
        '--no-event-triggers does not apply to Parquet input ({tmp}/t.parquet is a Parquet table, whose c'
        'olumns --gold-column and --pred-column name)'), {"t.parquet": TAGS_TABLE}),
    cli("pipeline-accents-stripped", "counted", "score --gold {tmp}/g.jsonl --pred {tmp}/p.jsonl", (
        'predictions: {tmp}/p.jsonl (pipeline, characters; aggregated entities (entity_group) taken as sp'
        'ans; 2 words equal to the text once accents are stripped, as an uncased tokenizer does)'),
        {"g.jsonl": jl(doc("d1", "José met Chloé", (0, 4, "PER"), (9, 14, "PER"))),
         "p.jsonl": jl({"id": "d1", "text": "José met Chloé", "entities": [
             {"entity_group": "PER", "word": "jose", "start": 0, "end": 4},
             {"entity_group": "PER", "word": "chloe", "start": 9, "end": 14}]})}),
    cli("pipeline-word-differs-still-warned", "counted", "score --gold {tmp}/g.jsonl --pred {tmp}/p.jsonl", (
        'nested-span-f1 score: warning: 1 entity whose word differs from the text at its offsets (first: '
        "{tmp}/p.jsonl, line 1: word 'jean' where the document reads 'José'); the offsets are scored"),
        {"g.jsonl": jl(doc("d1", "José met Chloé", (0, 4, "PER"))),
         "p.jsonl": jl({"id": "d1", "text": "José met Chloé", "entities": [
             {"entity_group": "PER", "word": "jean", "start": 0, "end": 4}]})}),
    cli("pipeline-word-split-across-entities", "counted", "score --gold {tmp}/g.conll --pred {tmp}/p.jsonl", (
        'predictions: {tmp}/p.jsonl (pipeline, characters; sub-tokens (entity, index) merged into spans a'
        "s the pipeline's simple strategy merges them; 1 word split across entities, each part scored as "
        "a span (first: {tmp}/p.jsonl, line 1: 'Paris' as 'Par' LOC and 'is' PER))"),
        {"g.conll": "Paris B-LOC\nopened O\n", "p.jsonl": SPLIT}),
    cli("examples-paired-by-order-name-both", "counted", "score --gold {tmp}/g.conll --pred {tmp}/p.jsonl", (
        "  predictions, document 1 (prediction id 'x7', paired by order): boundary inside token: [0, 3, '"
        "LOC'] 'Par' in 'Paris opened'"),
        {"g.conll": "Paris B-LOC\nopened O\n", "p.jsonl": SPLIT}),
    cli("label-O-in-texts", "counted", "nested --gold {tmp}/g.jsonl --pred {tmp}/g.jsonl", (
        'suspicious, scored as given (a conversion bug?): gold: 1 entity labelled O (a label named like t'
        'he outside tag); predictions: 1 entity labelled O (a label named like the outside tag)'),
        {"g.jsonl": jl(doc("d1", TEXT, (0, 12, "O")))}),
    cli("blank-span-in-texts", "counted", "lenient --gold {tmp}/g.jsonl --pred {tmp}/p.jsonl", (
        'suspicious, scored as given (a conversion bug?): predictions: 1 span of blanks (it covers whites'
        'pace only)'),
        {"g.jsonl": GOLD, "p.jsonl": jl(doc("d1", TEXT, (12, 13, "PER")))}),
    cli("label-O-in-columns", "counted", "score --gold {tmp}/g.conll --pred {tmp}/p.conll", (
        'suspicious, scored as given (a conversion bug?): predictions: 1 entity labelled O (a label named'
        ' like the outside tag)'),
        {"g.conll": COLUMNS, "p.conll": COLUMNS.replace("call O", "call B-O")}),
    cli("label-o-in-token-spans", "counted", "nested --gold {tmp}/g.jsonl --pred {tmp}/p.jsonl", (
        'suspicious, scored as given (a conversion bug?): predictions: 2 entities labelled O (a label nam'
        'ed like the outside tag)'),
        {"g.jsonl": ONEIE, "p.jsonl": ONEIE.replace('"protein"}]}', '"o"}]}')}),
]

# ------------------------------------------------------------------------------------------------- score: column files
PRED = COLUMNS.replace("call O", "call B-MISC")
CASES += [
    cli("score-columns-token-differs", "refused", "score --gold {tmp}/g.conll --pred {tmp}/p.conll", (
        "files do not align at sentence 1, token 3: {tmp}/g.conll line 3 has 'German' but {tmp}/p.conll l"
        "ine 3 has 'French'"),
        {"g.conll": COLUMNS, "p.conll": COLUMNS.replace("German", "French")}),
    cli("score-columns-one-sentence-short", "refused", "score --gold {tmp}/g.conll --pred {tmp}/p.conll", (
        '{tmp}/g.conll has more sentences than {tmp}/p.conll, which ends after 1 sentence; they must alig'
        'n sentence by sentence'),
        {"g.conll": COLUMNS, "p.conll": COLUMNS.split("\n\n")[0] + "\n"}),
    cli("score-columns-malformed-tag", "refused", "score --gold {tmp}/g.conll --pred {tmp}/p.conll", (
        "predictions, sentence 2, token 2 ({tmp}/p.conll line 7): tag 'PER': malformed: no valid prefix: "
        'tags are O or B-TYPE with a prefix among O, B, I, E, S, U, L, M'),
        {"g.conll": COLUMNS, "p.conll": COLUMNS.replace("Blackburn I-PER", "Blackburn PER")}),
    cli("score-columns-column-one", "refused", "score --gold {tmp}/g.conll --pred {tmp}/g.conll --column 1", (
        'argument --column: column 1 holds the tokens; tags are in column 2 or later (default: the last) '
        '(see nested-span-f1 score --help)'),
        {"g.conll": COLUMNS}),
    cli("score-columns-column-zero", "refused", "score --gold {tmp}/g.conll --pred {tmp}/g.conll --column 0", (
        'argument --column: columns count from 1 (the token) or from the end (-1, the last); 0 is none (s'
        'ee nested-span-f1 score --help)'),
        {"g.conll": COLUMNS}),
    cli("score-columns-column-beyond", "refused", "score --gold {tmp}/g.conll --pred {tmp}/g.conll --column 4", (
        "{tmp}/g.conll: --column 4 is beyond the file's 2 columns (line 1); columns count from 1, or from"
        ' the end with -1'),
        {"g.conll": COLUMNS}),
    cli("score-columns-empty-gold", "refused", "score --gold {tmp}/g.conll --pred {tmp}/p.conll", (
        '{tmp}/p.conll has more sentences than {tmp}/g.conll, which ends after 0 sentences; they must ali'
        'gn sentence by sentence'),
        {"g.conll": "", "p.conll": COLUMNS}),
    cli("score-columns-docstart-only", "refused", "score --gold {tmp}/g.conll --pred {tmp}/p.conll", (
        '{tmp}/p.conll has more sentences than {tmp}/g.conll, which ends after 0 sentences; they must ali'
        'gn sentence by sentence'),
        {"g.conll": "-DOCSTART- -X- O\n\n", "p.conll": COLUMNS}),
    cli("score-columns-crlf", "read", "score --gold {tmp}/g.conll --pred {tmp}/p.conll --json", (
        '  "overall_f1": 0.8571428571428571,'),
        {"g.conll": COLUMNS.replace("\n", "\r\n"), "p.conll": PRED}),
    cli("score-columns-byte-order-mark", "read", "score --gold {tmp}/g.conll --pred {tmp}/p.conll", 'tp=3  fp=1  fn=0',
        {"g.conll": b"\xef\xbb\xbf" + COLUMNS.encode(), "p.conll": PRED}),
    cli("score-columns-not-utf8", "refused", "score --gold {tmp}/g.conll --pred {tmp}/p.conll", (
        "{tmp}/g.conll, line 3: bytes b'\\xe4n B' are not UTF-8; save the file as UTF-8"),
        {"g.conll": COLUMNS.encode().replace(b"German", b"Germ\xe4n"), "p.conll": PRED}),
    cli("score-columns-width-changes", "refused", "score --gold {tmp}/g.conll --pred {tmp}/p.conll", (
        "{tmp}/g.conll, line 4: 3 columns where earlier lines have 2: 'call VB O'"),
        {"g.conll": COLUMNS.replace("call O", "call VB O"), "p.conll": PRED}),
    cli("score-columns-strict-wrong-scheme", "refused", "score --gold {tmp}/g.conll --pred {tmp}/g.conll --mode strict "
        "--scheme IOE2", (
        "predictions, sentence 1, token 1 ({tmp}/g.conll line 1): tag 'B-ORG': prefix B is not part of sc"
        'heme IOE2 (allowed: I, O, E; B is in IOB1, IOB2, IOBES, BILOU, BMES); pick the scheme the tags use, or '
        'score in default mode'), {"g.conll": COLUMNS}),
    cli("score-columns-strict-gold-breaks-the-scheme", "counted", "score --gold {tmp}/g.conll --pred {tmp}/g.conll "
        "--mode strict --scheme IOB2", (
        'nested-span-f1 score: warning: 1 gold chunk breaks scheme IOB2 and strict mode drops them; check'
        ' that it is the scheme the gold tags use'), {"g.conll": "a I-PER\nb O\n\nc B-LOC\n"}),
    cli("score-columns-strict-no-scheme-found", "refused", "score --gold {tmp}/g.conll --pred {tmp}/g.conll --mode "
        "strict", (
        'strict mode needs a scheme: the reference prefixes (O, I) are none of the sets seqeval detects I'
        'OB2, IOE2, IOBES or BILOU from, or BMES from its M; pass the scheme the tags use (scheme= in Python, --scheme on the'
        ' command line): IOB2, IOB1, IOE1, IOE2, IOBES, BILOU, BMES or IO'), {"g.conll": "a I-PER\nb O\n"}),
    cli("score-plot-suffix", "refused", "score --gold {tmp}/g.conll --pred {tmp}/g.conll --plot {tmp}/types.gif", (
        '--plot {tmp}/types.gif: a plot is written as .png, .svg or .pdf'),
        {"g.conll": COLUMNS}),
    cli("score-delimiter-class", "refused", ["score", "--gold", "{tmp}/g.conll", "--pred", "{tmp}/g.conll",
                                             "--delimiter", "\\w"], (
        "argument --delimiter: '\\\\w': \\w stands for no one character; a delimiter is fixed text in which "
        '\\t is a tab and \\x09 a character by its code (to split on runs of ASCII whitespace, give no deli'
        'miter) (see nested-span-f1 score --help)'), {"g.conll": COLUMNS}),
    cli("score-gold-a-folder", "refused", "score --gold {tmp}/folder --pred {tmp}/g.conll", (
        '{tmp}/folder: no .ann files, in it or in its subfolders; a brat folder holds .txt and .ann pairs'),
        {"g.conll": COLUMNS, "folder/x.txt": "not brat"}),
    cli("score-gold-missing", "refused", "score --gold {tmp}/nowhere.conll --pred {tmp}/g.conll", (
        '{tmp}/nowhere.conll: No such file or directory'),
        {"g.conll": COLUMNS}),
    cli("score-columns-no-break-space-in-token",
        "read", "score --gold {tmp}/g.conll --pred {tmp}/g.conll", 'tp=1  fp=0  fn=0',
        {"g.conll": "New\u00a0York B-LOC\nis O\n"}),
    cli("score-columns-tab-delimiter-tag-with-space", "refused", ["score", "--gold", "{tmp}/g.tsv", "--pred",
                                                                  "{tmp}/g.tsv", "--delimiter", "\\t"], (
        "predictions, sentence 1, token 2 ({tmp}/g.tsv line 2): tag 'O ': malformed: whitespace inside th"
        'e tag'),
        {"g.tsv": "New York\tB-LOC\nis\tO \n"}),
    cli("score-columns-suffix-tags", "read",
        "score --gold {tmp}/g.conll --pred {tmp}/g.conll --suffix --json", '  "tp": 1,',
        {"g.conll": "Peter PER-B\nBlackburn PER-I\n"}),
    cli("score-columns-suffix-option-on-prefix-tags", "refused", "score --gold {tmp}/g.conll --pred {tmp}/g.conll "
        "--suffix", (
        "predictions, sentence 1, token 1 ({tmp}/g.conll line 1): tag 'B-ORG': malformed: no valid prefix"
        ': tags are O or TYPE-B with a prefix among O, B, I, E, S, U, L, M'), {"g.conll": COLUMNS}),
]

# -------------------------------------------------------------------------------------------------- nested: span files
CASES += [
    cli("nested-oneie-end-beyond", "refused", "nested --gold {tmp}/g.jsonl --pred {tmp}/g.jsonl", (
        "{tmp}/g.jsonl, line 1: span (0, 3, 'X') is out of range; spans need 0 <= start < end and end <= "
        '2 (the sentence length) (position 1 in the sentence)'),
        {"g.jsonl": jl(oneie(["a", "b"], (0, 3, "X")))}),
    cli("nested-oneie-second-line-start-true", "refused", "nested --gold {tmp}/g.jsonl --pred {tmp}/g.jsonl", (
        "{tmp}/g.jsonl, line 2: span (True, 2, 'protein') has non-integer offsets (start True); offsets m"
        'ust be ints, never truncated (position 1 in the sentence)'),
        {"g.jsonl": ONEIE.replace('"start": 0, "end": 2, "entity_type": "protein"',
                                  '"start": true, "end": 2, "entity_type": "protein"')}),
    cli("nested-biaffine-sentence-count", "refused", "nested --gold {tmp}/g.jsonl --pred {tmp}/g.jsonl", (
        '{tmp}/g.jsonl, line 1: 2 sentences but 1 list of ners'),
        {"g.jsonl": jl({"doc_key": "d", "sentences": [["a"], ["b"]], "ners": [[]]})}),
    cli("nested-biaffine-second-sentence-bad", "refused", "nested --gold {tmp}/g.jsonl --pred {tmp}/g.jsonl", (
        '{tmp}/g.jsonl, line 1, sentence #2: entity [0, 0] must be [start, end, label] (or [start, end, label, score])'),
        {"g.jsonl": jl({"doc_key": "d", "sentences": [["a"], ["b"]], "ners": [[], [[0, 0]]]})}),
    cli("nested-triaffine-item-not-an-object", "refused", "nested --gold {tmp}/g.json --pred {tmp}/g.json", (
        '{tmp}/g.json, item 2: expected a json object, got ["a"]'),
        {"g.json": json.dumps([{"tokens": ["a"], "entities": []}, ["a"]])}),
    cli("nested-triaffine-second-item-end-beyond", "refused", "nested --gold {tmp}/g.json --pred {tmp}/g.json", (
        "{tmp}/g.json, item 2: span (1, 5, 'X') is out of range; spans need 0 <= start < end and end <= 2"
        ' (the sentence length) (position 1 in the sentence)'),
        {"g.json": json.dumps([{"tokens": ["a"], "entities": []},
                               {"tokens": ["a", "b"], "entities": [{"type": "X", "start": 1, "end": 5}]}])}),
    cli("nested-w2ner-empty-index", "refused", "nested --gold {tmp}/g.json --pred {tmp}/g.json", (
        "{tmp}/g.json, item 1: entity {'index': [], 'type': 'X'} needs a non-empty index list"),
        {"g.json": json.dumps([{"sentence": ["a", "b"], "ner": [{"index": [], "type": "X"}]}])}),
    cli("nested-shibuya-bad-entity", "refused", "nested --gold {tmp}/g.txt --pred {tmp}/g.txt --gold-format shibuya "
        "--pred-format shibuya", (
        "{tmp}/g.txt, line 2: entity '0-1 G#X' must read 'start,end G#TYPE' with integer offsets"),
        {"g.txt": "a b c\n0-1 G#X\n\n"}),
    cli("nested-ids-in-another-order", "read", "nested --gold {tmp}/g.jsonl --pred {tmp}/p.jsonl --json", '  "tp": 3,',
        {"g.jsonl": ONEIE, "p.jsonl": "".join(reversed(ONEIE.splitlines(keepends=True)))}),
    cli("nested-id-missing", "refused", "nested --gold {tmp}/g.jsonl --pred {tmp}/p.jsonl", (
        "{tmp}/p.jsonl: no prediction for sentence id 's2' (1 gold sentence missing)"),
        {"g.jsonl": ONEIE, "p.jsonl": ONEIE.splitlines(keepends=True)[0]}),
    cli("nested-tokens-differ", "refused", "nested --gold {tmp}/g.jsonl --pred {tmp}/p.jsonl", (
        "sentence 2 (id 's2'): tokens differ at position 2 (2 gold tokens, 2 predicted; gold ['B'], predi"
        "cted ['b']); both files must hold the same sentences"),
        {"g.jsonl": ONEIE, "p.jsonl": ONEIE.replace('"B"', '"b"')}),
    cli("nested-columns-against-columns", "refused", "nested --gold {tmp}/g.conll --pred {tmp}/g.conll", (
        '{tmp}/g.conll: cannot tell the format; pass it explicitly, one of: '
        + KNOWN
        + '. A file of tag columns (token ... tag) is scored by `nested-span-f1 score` or `nested-span-f1 l'
        'enient`'),
        {"g.conll": COLUMNS}),
    cli("nested-conll-format-against-tokens", "refused", "nested --gold {tmp}/g.conll --pred {tmp}/p.jsonl "
        "--gold-format conll", (
        'tag columns (conll) against tag columns are scored by `nested-span-f1 score` or `nested-span-f1 '
        'lenient`; here they are taken against texts only'), {"g.conll": COLUMNS, "p.jsonl": ONEIE}),
    cli("nested-empty-gold", "refused", "nested --gold {tmp}/g.jsonl --pred {tmp}/p.jsonl", (
        '{tmp}/g.jsonl: the file is empty (no sentences to read)'),
        {"g.jsonl": "\n\n", "p.jsonl": ONEIE}),
    cli("nested-duplicates-counted", "counted", "nested --gold {tmp}/g.jsonl --pred {tmp}/p.jsonl", (
        'found: duplicates 0 gold / 1 predicted; crossing pairs 0 gold / 0 predicted; discontinuous 0 gol'
        'd / 0 predicted'),
        {"g.jsonl": ONEIE, "p.jsonl": ONEIE.replace('{"start": 0, "end": 1, "entity_type": "protein"}',
                                                    '{"start": 0, "end": 1, "entity_type": "protein"}, '
                                                    '{"start": 0, "end": 1, "entity_type": "protein"}')}),
    cli("nested-discontinuous-counted", "counted", "nested --gold {tmp}/g.json --pred {tmp}/g.json", (
        'found: duplicates 0 gold / 0 predicted; crossing pairs 0 gold / 0 predicted; discontinuous 1 gol'
        'd / 1 predicted'),
        {"g.json": json.dumps([{"sentence": ["a", "b", "c"], "ner": [{"index": [0, 2], "type": "X"}]}])}),
]

# ------------------------------------------------------------------------------------------------------------- lenient
CASES += [
    cli("lenient-partial-weight-two", "refused", "lenient --gold {tmp}/g.conll --pred {tmp}/g.conll --partial-weight 2",
        (
        'partial_weight must be a number from 0 to 1 (credit of a partial match), got 2.0'), {"g.conll": COLUMNS}),
    cli("lenient-min-iou-negative", "refused", "lenient --gold {tmp}/g.conll --pred {tmp}/g.conll --min-iou -0.5", (
        'min_iou must be None (any overlap) or a number from 0 to 1, got -0.5'),
        {"g.conll": COLUMNS}),
    cli("lenient-partial-weight-text", "refused", "lenient --gold {tmp}/g.conll --pred {tmp}/g.conll --partial-weight "
        "half", (
        "argument --partial-weight: invalid float value: 'half' (see nested-span-f1 lenient --help)"),
        {"g.conll": COLUMNS}),
    cli("lenient-columns-against-spans",
        "read", "lenient --gold {tmp}/g.conll --pred {tmp}/p.jsonl --json", '  "strict_f1": 0.8,',
        {"g.conll": "IL-2 B-DNA\ngene I-DNA\nexpression O\n\nNF-kappa B-protein\nB I-protein\n",
         "p.jsonl": ONEIE}),
    cli("lenient-trim-with-token-files", "refused", "lenient --gold {tmp}/g.jsonl --pred {tmp}/g.jsonl --trim", (
        '--trim trims whitespace at the edges of character spans, but both --gold and --pred hold tokens;'
        ' it applies when a side holds texts'),
        {"g.jsonl": ONEIE}),
    cli("lenient-discontinuous-left-out", "counted", "lenient --gold {tmp}/g.json --pred {tmp}/g.json", (
        'found: unscored_discontinuous_references=1  unscored_discontinuous_predictions=1'),
        {"g.json": json.dumps([{"sentence": ["a", "b", "c"], "ner": [{"index": [0, 2], "type": "X"},
                                                                     {"index": [1], "type": "Y"}]}])}),
    cli("lenient-sentence-length-differs", "refused", "lenient --gold {tmp}/g.conll --pred {tmp}/p.conll", (
        'files do not align at sentence 1 ({tmp}/g.conll line 1, {tmp}/p.conll line 1): 4 gold tokens but'
        ' 3 predicted tokens'),
        {"g.conll": COLUMNS, "p.conll": COLUMNS.replace("call O\n", "")}),
]

# ------------------------------------------------------------------------------------------ conlleval (standard input)
CASES += [
    cli("conlleval-one-field", "refused", "conlleval", (
        "<stdin>, line 2: 1 column where earlier lines have 4: 'rejects'"),
        stdin=CONLLEVAL.replace("rejects VBZ O O", "rejects").encode()),
    cli("conlleval-malformed-tag", "refused", "conlleval", (
        "predictions, sentence 1, token 3 (<stdin> line 3): tag 'MISC': malformed: no valid prefix: tags "
        'are O or B-TYPE with a prefix among O, B, I, E, S, U, L, M'),
        stdin=CONLLEVAL.replace("German JJ B-MISC B-MISC", "German JJ B-MISC MISC").encode()),
    cli("conlleval-windows-line-ends", "refused", "conlleval", (
        '<stdin>, line 1: the line ends in \\r\\n (Windows line ends), which conlleval.pl reads as part of '
        "the last tag; convert the file first (dos2unix, or tr -d '\\r')"),
        stdin=CONLLEVAL.replace("\n", "\r\n").encode()),
    cli("conlleval-delimiter-not-a-regex", "refused", ["conlleval", "-d", "("], (
        "-d '(' is not a regular expression (missing ), unterminated subpattern at position 0)"),
        stdin=CONLLEVAL.encode()),
    cli("conlleval-delimiter-empty-match", "refused", ["conlleval", "-d", "x*"], (
        "-d 'x*' matches the empty string, so it cannot split fields; pass a separator such as ' ' (the d"
        "efault) or '\\t'"), stdin=CONLLEVAL.encode()),
    cli("conlleval-file-argument", "refused", "conlleval {tmp}/x.txt", (
        'conlleval reads standard input, as conlleval.pl does: nested-span-f1 conlleval < {tmp}/x.txt'),
        stdin=CONLLEVAL.encode()),
    cli("conlleval-fields-differ", "refused", "conlleval", (
        "<stdin>, line 2: 3 columns where earlier lines have 4: 'rejects O O'"),
        stdin=CONLLEVAL.replace("rejects VBZ O O", "rejects O O").encode()),
    cli("conlleval-raw-mode", "read", "conlleval -r", (
        'accuracy:  50.00%; precision:  50.00%; recall: 100.00%; FB1:  66.67'), stdin=b"a NN X X\nb NN O Y\n"),
    cli("conlleval-empty-input", "read", "conlleval", (
        'processed 0 tokens with 0 phrases; found: 0 phrases; correct: 0.'), stdin=b""),
    cli("conlleval-latin-1-token", "read", "conlleval", (
        'processed 4 tokens with 3 phrases; found: 3 phrases; correct: 3.'),
        stdin=CONLLEVAL.encode().replace(b"German", b"Germ\xe4n")),
    cli("conlleval-tag-with-trailing-tab", "refused", "conlleval", (
        "predictions, sentence 1, token 2 (<stdin> line 2): tag 'O\\t': malformed: whitespace inside the t"
        'ag'),
        stdin=CONLLEVAL.replace("rejects VBZ O O", "rejects VBZ O O\t").encode()),
]

# ------------------------------------------------------------------------------------------------------------- convert
CASES += [
    cli("convert-token-with-space-to-text", "refused", "convert {tmp}/g.jsonl --to text --output {tmp}/t.jsonl", (
        "{tmp}/g.jsonl, sentence 1, token 1 ({tmp}/g.jsonl, line 1): 'New York' is empty or holds whitesp"
        'ace, so a text of tokens joined by spaces cannot give the tokens back; --to text would change th'
        'em (write a token format)'),
        {"g.jsonl": jl(oneie(["New York", "is"], (0, 1, "LOC")))}),
    cli("convert-three-columns", "refused", "convert {tmp}/g.conll --to text --output {tmp}/t.jsonl", (
        '{tmp}/g.conll, line 1: 4 columns; spans keep the token and its tag (the last column), so the oth'
        'ers (POS, chunk, ...) would be lost: cut the file to those two'),
        {"g.conll": CONLLEVAL}),
    cli("convert-docstart", "refused", "convert {tmp}/g.conll --to oneie --output {tmp}/o.jsonl", (
        '{tmp}/g.conll, line 1: a -DOCSTART- line; no target keeps document markers, so they would be los'
        't: remove them first'),
        {"g.conll": "-DOCSTART- O\n\n" + COLUMNS}),
    cli("convert-iob1-tags", "refused", "convert {tmp}/g.conll --to oneie --output {tmp}/o.jsonl", (
        "{tmp}/g.conll, line 1: tag 'I-PER' would come back as 'B-PER' (tags are written as IOB2); pass -"
        '-scheme to read another scheme (IOB1, IOBES, ...), whose tags come back as IOB2'),
        {"g.conll": "Peter I-PER\nBlackburn I-PER\n"}),
    cli("convert-iob1-tags-with-scheme", "read", "convert {tmp}/g.conll --to oneie --output {tmp}/o.jsonl --scheme "
        "IOB1", (
        '{tmp}/g.conll (conll) -> {tmp}/o.jsonl (oneie): 1 sentence, 1 entity (0 discontinuous); tags dec'
        'oded to spans (IOB1, strict; written back as IOB2)'), {"g.conll": "Peter I-PER\nBlackburn I-PER\n"}),
    cli("convert-output-over-input", "refused", "convert {tmp}/g.jsonl --to text --output {tmp}/g.jsonl", (
        '--output {tmp}/g.jsonl would overwrite {tmp}/g.jsonl, an input; write to another file'),
        {"g.jsonl": GOLD}),
    cli("convert-output-in-a-missing-folder", "refused", "convert {tmp}/g.jsonl --to text --output "
        "{tmp}/nowhere/t.jsonl", (
        '--output {tmp}/nowhere/t.jsonl: the folder {tmp}/nowhere does not exist'), {"g.jsonl": GOLD}),
    cli("convert-brat-into-a-full-folder", "refused", "convert {tmp}/g.jsonl --to brat --output {tmp}/full", (
        '{tmp}/full exists and is not an empty folder; this output goes to a new or empty folder'),
        {"g.jsonl": GOLD, "full/notes.txt": "mine"}),
    cli("convert-discontinuous-to-pipeline", "refused", "convert {tmp}/g.jsonl --to pipeline --output {tmp}/p.jsonl",
        (
        "{tmp}/g.jsonl, document 1 (id 'd1'): discontinuous entity (((0, 6), (13, 20)), 'X') cannot be wr"
        'itten as pipeline output; write text spans or brat, which keep fragments'),
        {"g.jsonl": jl({"id": "d1", "text": TEXT, "entities": [
            {"fragments": [[0, 6], [13, 20]], "label": "X"}]})}),
    cli("convert-types-without-brat", "refused", "convert {tmp}/g.jsonl --to oneie --output {tmp}/o.jsonl --types PER",
        (
        '--types keeps the T lines of these types in brat files, but the input is not one; leave it out'),
        {"g.jsonl": ONEIE}),
    cli("convert-unknown-target", "refused", "convert {tmp}/g.jsonl --to xml --output {tmp}/o.xml", (
        "argument --to: unknown format 'xml'; choose one of oneie, triaffine, biaffine, w2ner, shibuya, l"
        'u_roth, pyramid, text, pipeline, text_spans, spacy_jsonl, gliner, token_classification, jsonl, c'
        'nn_nested_ner, locate_and_label, spert, diffusionner, yu2020, muis_lu (see nested-span-f1 conver'
        't --help)'),
        {"g.jsonl": ONEIE}),
    cli("convert-ids-lost", "refused", "convert {tmp}/g.jsonl --to triaffine --output {tmp}/t.json", (
        "--to triaffine would lose the sentence ids of {tmp}/g.jsonl (first: 's1'); write oneie, text, pi"
        'peline, brat, which keep them'),
        {"g.jsonl": ONEIE}),
    cli("convert-label-with-space-to-brat", "refused", "convert {tmp}/g.jsonl --to brat --output {tmp}/b", (
        "{tmp}/g.jsonl, document 1 (id 'd1'): label 'Person Name' of entity (0, 12, 'Person Name') is emp"
        'ty or holds whitespace, which a brat T line cannot hold (its type ends at the first space)'),
        {"g.jsonl": jl(doc("d1", TEXT, (0, 12, "Person Name")))}),
    cli("convert-empty-input", "refused", "convert {tmp}/g.jsonl --to text --output {tmp}/t.jsonl", (
        '{tmp}/g.jsonl: the file is empty (no sentences to read)'),
        {"g.jsonl": ""}),
    cli("convert-columns-to-text", "read", "convert {tmp}/g.conll --to text --output {tmp}/t.jsonl", (
        '{tmp}/g.conll (conll) -> {tmp}/t.jsonl (text): 2 documents, 3 entities (0 discontinuous); tags d'
        'ecoded to spans (IOB2); conll tokens joined by single spaces; token offsets turned into characte'
        'rs'),
        {"g.conll": COLUMNS}),
    cli("convert-entity-over-a-line-end-to-brat", "refused", "convert {tmp}/g.jsonl --to brat --output {tmp}/b", (
        "document 'd1': entity (0, 8, 'LOC') covers a line end, which a brat T line cannot hold; split it"
        ' into fragments at the line end'),
        {"g.jsonl": jl(doc("d1", "New\nYork", (0, 8, "LOC")))}),
]

# ------------------------------------------------------------------------------------------- table (benchmark results)
RESULT = "{tmp}/r.json"


def _result(folder: Path, name: str = "r.json", dataset: str | None = None) -> None:
    """A benchmark result of two systems on the sample nested gold, as ``benchmark --json`` prints it."""
    from nested_span_f1 import Corpus, read_corpus, sample_path
    from nested_span_f1.benchmark import benchmark

    gold = read_corpus(sample_path("nested.gold.jsonl"))
    fewer = Corpus(gold.tokens, [spans[1:] for spans in gold.entities], sentence_ids=gold.sentence_ids)
    result = benchmark(gold, {"gold": gold, "fewer": fewer}, n_resamples=20, progress=False, dataset=dataset)
    (folder / name).write_text(result.to_json(), encoding="utf-8")


def table(id: str, verdict: str, argv: str, expected: str, files: dict[str, Any] | None = None,
          results: tuple[tuple[str, str | None], ...] = (("r.json", None),)) -> Case:
    """A case of the ``table`` command on benchmark results written first (``results``: file name and dataset)."""
    def call(folder: Path) -> tuple[int, str]:
        for name, dataset in results:
            _result(folder, name, dataset)
        _files(folder, {k: v.encode() if isinstance(v, str) else v for k, v in (files or {}).items()})
        out, err = io.StringIO(), io.StringIO()
        stdout, stderr = sys.stdout, sys.stderr
        sys.stdout, sys.stderr = out, err
        try:
            code = main([_fill(arg, folder) for arg in argv.split()])
        except SystemExit as stopped:
            code = int(stopped.code or 0)
        finally:
            sys.stdout, sys.stderr = stdout, stderr
        if code:
            raise ValueError(err.getvalue().rstrip("\n"))
        return out.getvalue()
    return api(id, verdict, call, expected)


CASES += [
    table("table-not-json", "refused", "table {tmp}/x.json", (
        'nested-span-f1 table: error: {tmp}/x.json, line 1, column 1: not valid JSON (Expecting value); g'
        'ive the --json of a benchmark'), {"x.json": "step 500 loss 0.3\n"}),
    table("table-json-not-a-result", "refused", "table {tmp}/x.json", (
        'nested-span-f1 table: error: {tmp}/x.json: not a benchmark result (the --json of nested-span-f1 '
        'benchmark)'), {"x.json": jl({"f1": 0.9})}),
    table("table-cut-result", "refused", "table {tmp}/x.json", (
        'nested-span-f1 table: error: {tmp}/x.json, line 2, column 1: not valid JSON (Expecting value); g'
        'ive the --json of a benchmark'), {"x.json": '{"systems": [\n'}),
    table("table-two-results-one-dataset", "refused", "table {tmp}/a.json {tmp}/b.json", (
        "nested-span-f1 table: error: {tmp}/a.json and {tmp}/b.json are both benchmarks on 'MyData'; one r"
        'esult per dataset (name them apart with --dataset-name when benchmarking)'),
          results=(("a.json", "MyData"), ("b.json", "MyData"))),
    table("table-baseline-unknown", "refused", "table {tmp}/r.json --baseline nobody", (
        "nested-span-f1 table: error: {tmp}/r.json: the baseline 'nobody' is not one of its systems (gold"
        ', fewer)')),
    table("table-two-outputs-one-file", "refused", "table {tmp}/r.json --markdown {tmp}/t --latex {tmp}/t", (
        'nested-span-f1 table: error: --markdown and --latex name one file, {tmp}/t; give each its own')),
    table("table-missing-result", "refused", "table {tmp}/nowhere.json", (
        'nested-span-f1 table: error: {tmp}/nowhere.json: No such file or directory')),
    table("table-empty-result", "refused", "table {tmp}/x.json", (
        'nested-span-f1 table: error: {tmp}/x.json, line 1, column 1: not valid JSON (Expecting value); g'
        'ive the --json of a benchmark'), {"x.json": ""}),
    table("table-one-result", "read", "table {tmp}/r.json", (
        '| System | nested P | nested R | nested F1 |\n|---|---:|---:|---:|\n| gold | 100.00 [100.00, 100.0'
        '0] | 100.00 [100.00, 100.00] | **100.00 [100.00, 100.00]** |\n| fewer | 100.00 [100.00, 100.00] |'
        ' 64.29 [56.77, 70.16] | 78.26 [72.38, 82.45] |\n\n- nested: no known standard split (6 sentences, '
        '58 tokens, 14 entities). Intervals: 95% percentile bootstrap over 6 sentences (20 resamples).\n')),
]

# -------------------------------------------------------------------------------------- benchmark: outputs and options
BENCH = {"g.jsonl": ONEIE, "p.jsonl": ONEIE}
B = "benchmark --gold {tmp}/g.jsonl --pred a={tmp}/p.jsonl --bootstrap 20 --no-progress"
CASES += [
    cli("benchmark-markdown-into-a-missing-folder", "refused", f"{B} --markdown {{tmp}}/nowhere/r.md", (
        '--markdown {tmp}/nowhere/r.md: the folder {tmp}/nowhere does not exist'), BENCH),
    cli("benchmark-markdown-a-folder", "refused", f"{B} --markdown {{tmp}}/out", (
        '--markdown {tmp}/out is a folder; give the name of a file to write'), {**BENCH, "out/x": ""}),
    cli("benchmark-plot-suffix", "refused", f"{B} --plot {{tmp}}/r.gif", (
        '--plot {tmp}/r.gif: a plot is written as .png, .svg or .pdf'), BENCH),
    cli("benchmark-html-over-the-gold", "refused", f"{B} --html {{tmp}}/g.jsonl", (
        '--html {tmp}/g.jsonl would overwrite --gold {tmp}/g.jsonl, an input; write to another file'), BENCH),
    cli("benchmark-two-views-one-file", "refused", f"{B} --markdown {{tmp}}/r --model-card {{tmp}}/r", (
        '--markdown and --model-card name one file, {tmp}/r; give each its own'), BENCH),
    cli("benchmark-bootstrap-zero", "refused", "benchmark --gold {tmp}/g.jsonl --pred a={tmp}/p.jsonl --bootstrap 0",
        (
        '--bootstrap must be from 1 to 1,000,000 (the resamples are kept in memory, and more would change'
        ' no reported digit), got 0'), BENCH),
    cli("benchmark-a-folder-without-checkpoints", "refused", "benchmark --gold {tmp}/g.jsonl --pred run={tmp}/run "
        "--no-progress", (
        '{tmp}/run: no checkpoint-STEP file or folder holds entity spans as the gold does'),
        {**BENCH, "run/notes.txt": "nothing\n"}),
    cli("benchmark-dev-pred-without-dev-gold", "refused", f"{B} --dev-pred a={{tmp}}/p.jsonl", (
        '--dev-pred is scored against --dev-gold: give the development gold too'), BENCH),
    cli("benchmark-unknown-split-warns", "counted", f"{B} --dataset-name GENIA", (
        'nested-span-f1 benchmark: warning: the gold (2 sentences, 5 tokens, 3 entities) is none of the k'
        'nown splits of GENIA (test of the classic sentence split (1,854 sentences, 48,179 tokens, 5,506 '
        'entities); dev of the classic sentence split (1,669 sentences, 43,419 tokens, 5,365 entities); t'
        'est of the document split of Yan et al. (2022) (1,732 sentences, 46,873 tokens, 5,119 entities);'
        ' dev of the document split of Yan et al. (2022) (1,765 sentences, 45,495 tokens, 4,714 entities)'
        '; train of the document split of Yan et al. (2022) (15,038 sentences, 398,328 tokens, 46,203 ent'
        'ities)): scores on it cannot be compared with papers that report on GENIA'), BENCH),
    cli("benchmark-pred-named-twice", "refused", f"{B} --pred a={{tmp}}/g.jsonl", (
        '--pred a is given twice; name each prediction set once'), BENCH),
    cli("benchmark-views-written", "read", f"{B} --html {{tmp}}/r.html --markdown {{tmp}}/r.md", (
        '| a | 100.00 | 100.00 | 100.00 | [100.00, 100.00] | 100.00 | 100.00 |'), BENCH),
    cli("benchmark-json-printed", "read", f"{B} --json", (
        '      "name": "a",'), BENCH),
    cli("benchmark-confidence-one", "refused", f"{B} --confidence 1", (
        '--confidence must be between 0 and 1 (exclusive), got 1.0'), BENCH),
]

# ---------------------------------------------------------------------------------- Parquet (commands and score_arrow)


def parquet(columns: dict[str, Any], name: str = "t.parquet") -> Callable[[Path], Path]:
    """Write a Parquet table of ``columns`` (python lists, or pyarrow arrays) into the case's folder."""
    def write(folder: Path) -> Path:
        pa = pytest.importorskip("pyarrow")
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        pytest.importorskip("pyarrow.parquet").write_table(pa.table(columns), path)
        return path
    return write


SPAN_ROWS = {"predictions": [[{"start": 0, "end": 2, "label": "PER"}]],
             "references": [[{"start": 0, "end": 2, "label": "PER"}]], "tokens": [["Peter", "Blackburn"]]}


def table_cli(id: str, verdict: str, argv: str, expected: str, columns: dict[str, Any] = TABLE_ROWS,
              extra: dict[str, Any] | None = None) -> Case:
    """A command on a Parquet table written first (``extra``: more files beside it)."""
    def call(folder: Path) -> Any:
        parquet(columns)(folder)
        return table(id, verdict, argv, expected, extra, results=()).call(folder)  # type: ignore[misc]
    return api(id, verdict, call, expected)


def _score_arrow(columns: dict[str, Any], metric: str = "exact", **options: Any) -> Callable[[Path], Any]:
    def call(folder: Path) -> Any:
        from nested_span_f1.arrow import score_arrow

        result = score_arrow(parquet(columns)(folder), metric, zero_division=0, **options)
        return f"f1 {result['overall_f1']}"
    return call


CASES += [
    table_cli("parquet-column-missing", "refused", "score --gold {tmp}/t.parquet --pred {tmp}/t.parquet --pred-column "
              "pred", (
        "nested-span-f1 score: error: {tmp}/t.parquet: no column 'pred' (the columns: predictions, refere"
        'nces); name the prediction and reference columns')),
    table_cli("parquet-ids-without-label-list", "refused", "score --gold {tmp}/t.parquet --pred {tmp}/t.parquet", (
        'nested-span-f1 score: error: {tmp}/t.parquet: predictions, sentence 1, token 1: tag 1 is not a s'
        'tring (integer label ids need label_list)'),
              {"predictions": [[1, 2, 0]], "references": [[1, 0, 0]]}),
    table_cli("parquet-id-beyond-label-list", "refused", "score --gold {tmp}/t.parquet --pred {tmp}/t.parquet "
              "--label-list {tmp}/labels.txt", (
        'nested-span-f1 score: error: {tmp}/t.parquet: predictions, sentence 1, token 2: label id 7 is ou'
        'tside label_list (ids 0..2; -100 is only ignored in references)'),
        {"predictions": [[1, 7, 0]], "references": [[1, 0, 0]]},
              {"labels.txt": "O\nB-PER\nI-PER\n"}),
    table_cli("parquet-null-tag", "refused", "score --gold {tmp}/t.parquet --pred {tmp}/t.parquet", (
        'nested-span-f1 score: error: {tmp}/t.parquet: predictions, sentence 1, token 2: tag None is not '
        'a string'),
              {"predictions": [["B-PER", None]], "references": [["B-PER", "O"]]}),
    table_cli("parquet-span-end-beyond-tokens", "refused", "nested --gold {tmp}/t.parquet --pred {tmp}/t.parquet "
              "--lengths-column tokens", (
        "nested-span-f1 nested: error: {tmp}/t.parquet: predictions, sentence 1: span {'start': 0, 'end':"
        " 5, 'label': 'PER'} is out of range; spans need 0 <= start < end and end <= 2 (the sentence leng"
        'th) (position 1 in the sentence)'), {**SPAN_ROWS, "predictions": [[{"start": 0, "end": 5, "label": "PER"}]]}),
    table_cli("parquet-lengths-column-missing", "refused", "nested --gold {tmp}/t.parquet --pred {tmp}/t.parquet "
              "--lengths-column words", (
        "nested-span-f1 nested: error: {tmp}/t.parquet: no column 'words' (the columns: predictions, refe"
        'rences, tokens); name the prediction and reference columns'), SPAN_ROWS),
    table_cli("parquet-pred-another-file", "refused", "score --gold {tmp}/t.parquet --pred {tmp}/g.conll", (
        'nested-span-f1 score: error: {tmp}/t.parquet is a Parquet table, which holds both sides: pass it'
        ' to --pred too (the columns are named by --gold-column and --pred-column)'),
              extra={"g.conll": COLUMNS}),
    table_cli("parquet-workers-zero", "refused", "score --gold {tmp}/t.parquet --pred {tmp}/t.parquet --workers 0",
              (
        'nested-span-f1 score: error: argument --workers: --workers takes a number of processes, 1 or mor'
        "e; got '0' (see nested-span-f1 score --help)")),
    table_cli("parquet-label-O-counted", "counted", "score --gold {tmp}/t.parquet --pred {tmp}/t.parquet", (
        '{tmp}/t.parquet: column predictions against column references: 1 row\nsuspicious, scored as given'
        ' (a conversion bug?): gold: 1 entity labelled O (a label named like the outside tag); prediction'
        's: 1 entity labelled O (a label named like the outside tag)\n\n          precision     recall     '
        '    f1   number\n       O     1.0000     1.0000     1.0000        1\n\n overall     1.0000     1.00'
        '00     1.0000        1\n   macro     1.0000     1.0000     1.0000        1\nweighted     1.0000   '
        '  1.0000     1.0000        1\n untyped     1.0000     1.0000     1.0000        1\n\ntoken accuracy '
        '1.0000\ntp=1  fp=0  fn=0\n'),
              {"predictions": [["B-O", "O"]], "references": [["B-O", "O"]]}),
    table_cli("parquet-spans-read", "read", "lenient --gold {tmp}/t.parquet --pred {tmp}/t.parquet --json", (
        '{\n  "strict_precision": 1.0,\n  "strict_recall": 1.0,\n  "strict_f1": 1.0,\n  "strict_correct": 1,\n'
        '  "strict_incorrect": 0,\n  "strict_partial": 0,\n  "strict_missed": 0,\n  "strict_spurious": 0,\n  '
        '"strict_possible": 1,\n  "strict_actual": 1,\n  "exact_precision": 1.0,\n  "exact_recall": 1.0,\n  "'
        'exact_f1": 1.0,\n  "exact_correct": 1,\n  "exact_incorrect": 0,\n  "exact_partial": 0,\n  "exact_mis'
        'sed": 0,\n  "exact_spurious": 0,\n  "exact_possible": 1,\n  "exact_actual": 1,\n  "partial_precision'
        '": 1.0,\n  "partial_recall": 1.0,\n  "partial_f1": 1.0,\n  "partial_correct": 1,\n  "partial_incorre'
        'ct": 0,\n  "partial_partial": 0,\n  "partial_missed": 0,\n  "partial_spurious": 0,\n  "partial_possi'
        'ble": 1,\n  "partial_actual": 1,\n  "type_precision": 1.0,\n  "type_recall": 1.0,\n  "type_f1": 1.0,'
        '\n  "type_correct": 1,\n  "type_incorrect": 0,\n  "type_partial": 0,\n  "type_missed": 0,\n  "type_sp'
        'urious": 0,\n  "type_possible": 1,\n  "type_actual": 1,\n  "boundary_error": 0,\n  "boundary_type_er'
        'ror": 0,\n  "correct": 1,\n  "missed": 0,\n  "spurious": 0,\n  "type_error": 0,\n  "per_type": {\n    '
        '"PER": {\n      "strict": {\n        "precision": 1.0,\n        "recall": 1.0,\n        "f1": 1.0,\n '
        '       "correct": 1,\n        "incorrect": 0,\n        "partial": 0,\n        "missed": 0,\n        '
        '"spurious": 0,\n        "possible": 1,\n        "actual": 1,\n        "predicted_correct": 1,\n     '
        '   "predicted_incorrect": 0,\n        "predicted_partial": 0\n      },\n      "exact": {\n        "p'
        'recision": 1.0,\n        "recall": 1.0,\n        "f1": 1.0,\n        "correct": 1,\n        "incorre'
        'ct": 0,\n        "partial": 0,\n        "missed": 0,\n        "spurious": 0,\n        "possible": 1,'
        '\n        "actual": 1,\n        "predicted_correct": 1,\n        "predicted_incorrect": 0,\n        '
        '"predicted_partial": 0\n      },\n      "partial": {\n        "precision": 1.0,\n        "recall": 1'
        '.0,\n        "f1": 1.0,\n        "correct": 1,\n        "incorrect": 0,\n        "partial": 0,\n     '
        '   "missed": 0,\n        "spurious": 0,\n        "possible": 1,\n        "actual": 1,\n        "pred'
        'icted_correct": 1,\n        "predicted_incorrect": 0,\n        "predicted_partial": 0\n      },\n   '
        '   "type": {\n        "precision": 1.0,\n        "recall": 1.0,\n        "f1": 1.0,\n        "correc'
        't": 1,\n        "incorrect": 0,\n        "partial": 0,\n        "missed": 0,\n        "spurious": 0,'
        '\n        "possible": 1,\n        "actual": 1,\n        "predicted_correct": 1,\n        "predicted_'
        'incorrect": 0,\n        "predicted_partial": 0\n      }\n    }\n  },\n  "confusion": {\n    "PER": {\n '
        '     "PER": 1\n    }\n  },\n  "duplicate_predictions": 0,\n  "duplicate_references": 0\n}\n'),
              SPAN_ROWS),
    api("score_arrow-unknown-metric", "refused", _score_arrow(TABLE_ROWS, "seqeval"), (
        "metric must be one of exact, lenient, nested, got 'seqeval'")),
    api("score_arrow-tag-with-space", "refused", _score_arrow({"predictions": [["B-PER", "O "]],
                                                               "references": [["B-PER", "O"]]}), (
        "{tmp}/t.parquet: predictions, sentence 0, token 1: tag 'O ': malformed: whitespace inside the ta"
        'g')),
    api("score_arrow-read", "read", _score_arrow(TABLE_ROWS), 'f1 0.5'),
]

# ------------------------------------------------------------------------------------------- Spark local (one session)


def _spark(columns: dict[str, Any], metric: str = "exact", **options: Any) -> Callable[[Path, Any], Any]:
    def call(folder: Path, spark: Any) -> Any:
        from nested_span_f1.spark import score_spark

        pa = pytest.importorskip("pyarrow")
        frame = spark.createDataFrame(pa.table(columns)).coalesce(1)  # one partition: its rows counted from 0
        result = score_spark(frame, metric, zero_division=0, **options)
        return f"f1 {result['overall_f1']}"
    return call


CASES += [
    api("spark-bad-tag", "refused", _spark({"predictions": [["B-PER", "O"], ["PER"]],
                                            "references": [["B-PER", "O"], ["B-PER"]]}), (
        "partition 0: predictions, sentence 1, token 0: tag 'PER': malformed: no valid prefix: tags are O"
        ' or B-TYPE with a prefix among O, B, I, E, S, U, L, M'), door="spark"),
    api("spark-column-missing", "refused", _spark(TABLE_ROWS, predictions="pred"), (
        "no column 'pred' (the columns: predictions, references); name the prediction and reference colum"
        'ns'), door="spark"),
    api("spark-read", "read", _spark(TABLE_ROWS), 'f1 0.5', door="spark"),
    api("spark-span-end-beyond", "refused", _spark({**SPAN_ROWS, "references": [[{"start": 1, "end": 9,
                                                                                   "label": "PER"}]]},
                                                   "nested", lengths="tokens"), (
        "partition 0: references, sentence 0: span {'start': 1, 'end': 9, 'label': 'PER'} is out of range"
        '; spans need 0 <= start < end and end <= 2 (the sentence length) (position 0 in the sentence)'), door="spark"),
]

# ------------------------------------------------------------------------------------------------ the evaluate modules


def metric(id: str, verdict: str, name: str, predictions: Any, references: Any, expected: str,
           error: type[Exception] = ValueError, **options: Any) -> Case:
    """``compute`` of one evaluate module (a real ``evaluate.load``), its result's ``overall_f1`` (or
    ``strict_f1``) on valid input."""
    def call(folder: Path, metrics: dict[str, Any]) -> Any:
        result = metrics[name].compute(predictions=predictions, references=references, **options)
        key = "strict_f1" if name == "lenient" else "overall_f1"
        return f"{key} {result[key]}"
    return api(id, verdict, call, expected, error, door="metric")


TAGS = [["B-PER", "I-PER", "O"], ["B-LOC"]]
SPANS = [[{"start": 0, "end": 2, "label": "PER"}], [{"start": 0, "end": 1, "label": "LOC"}]]
CASES += [
    metric("metric-span_f1-tag-1mb", "refused", "exact", [["B-PER", "b-" + "x" * 1_000_000], ["B-LOC"]],
           [["B-PER", "O"], ["B-LOC"]], (
        "predictions, sentence 0, token 1: tag 'b-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...' "
        '(1,000,002 characters): malformed: no valid prefix: tags are O or B-TYPE with a prefix among O, '
        'B, I, E, S, U, L, M')),
    metric("metric-span_f1-ids-without-label-list", "refused", "exact", [[1, 2, 0]], [[1, 2, 0]], (
        'predictions and references hold integer label ids: pass label_list, the tag of each id (for a mo'
        'del, [model.config.id2label[i] for i in range(model.config.num_labels)])'), TypeError),
    metric("metric-span_f1-sentence-lengths", "refused", "exact", [["B-PER", "O"]], [["B-PER"]], (
        'sentence 0: 2 predicted tags but 1 reference tags; they must align token by token')),
    metric("metric-span_f1-unknown-option", "refused", "exact", TAGS, TAGS, (
        "span_f1 takes no option 'partial_weight'; its options are scheme, mode, suffix, zero_division, l"
        'abel_list, sample_weight'), TypeError, partial_weight=0.5),
    metric("metric-lenient-unknown-option", "refused", "lenient", SPANS, SPANS, (
        "lenient_span_f1 takes no option 'mode_'; its options are partial_weight, min_iou, zero_division,"
        ' return_errors, scheme, mode, suffix, normalization, multiset, policy, fallback, inner_last'),
        TypeError, mode_="x"),
    metric("metric-lenient-partial-weight-nan", "refused", "lenient", SPANS, SPANS, (
        'partial_weight must be a number from 0 to 1 (credit of a partial match), got nan'),
           partial_weight=float("nan")),
    metric("metric-nested-span-label-empty", "refused", "nested", [[{"start": 0, "end": 2, "label": ""}]],
           [[{"start": 0, "end": 2, "label": "PER"}]], (
        "predictions, sentence 0: span {'start': 0, 'end': 2, 'label': ''} needs a non-empty string label"
        ' (position 0 in the sentence)'), TypeError),
    metric("metric-nested-text-offset-beyond", "refused", "nested",
           [{"text": TEXT, "entities": [{"start": 0, "end": 99, "label": "PER"}]}],
           [{"text": TEXT, "entities": []}], (
        "predictions, sentence 0: span {'start': 0, 'end': 99, 'label': 'PER'} is out of range; spans nee"
        "d 0 <= start < end and end <= 27 (the text's length in characters) (position 0 in the sentence)")),
    metric("metric-nested-texts-differ", "refused", "nested", [{"text": TEXT + " ", "entities": []}],
           [{"text": TEXT, "entities": []}], (
        "sentence 0: the predicted text differs from the reference text at offset 27 (predicted ' ', refe"
        "rence ''); a prediction is scored only against the text it was made on")),
    metric("metric-nested-a-set-of-spans", "refused", "nested", [{("a",)}], [[]], (
        "predictions, sentence 0: expected a list of tags (strings) or spans ({'start', 'end', 'label'} d"
        "icts) or tag layers (lists of tags), got set {('a',)} (a set has no order, so its items cannot b"
        'e paired by position; pass a list in order)'), TypeError),
    metric("metric-nested-label-O-read", "read", "nested", [[{"start": 0, "end": 1, "label": "O"}]],
           [[{"start": 0, "end": 1, "label": "O"}]], 'overall_f1 1.0', zero_division=0),
    metric("metric-lenient-texts-read", "read", "lenient",
           [{"text": TEXT, "entities": [{"start": 0, "end": 6, "label": "PER"}]}],
           [{"text": TEXT, "entities": [{"start": 0, "end": 12, "label": "PER"}]}], 'strict_f1 0.0', zero_division=0),
]

# ------------------------------------------------------------------------------------------------------ the Python API


def _raises(function: Callable[[], Any]) -> Callable[[Path], Any]:
    return lambda folder: function()


CASES += [
    api("api-score_exact-1mb-tag", "refused", _raises(lambda: nested_span_f1.score_exact(
        [["b-" + "x" * 1_000_000]], [["O"]])), (
        "predictions, sentence 0, token 0: tag 'b-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...' "
        '(1,000,002 characters): malformed: no valid prefix: tags are O or B-TYPE with a prefix among O, '
        'B, I, E, S, U, L, M')),
    api("api-score_nested-1mb-label-dict", "refused", _raises(lambda: nested_span_f1.score_nested(
        [[{"start": 0, "end": 1, "label": "PER", "note": "y" * 1_000_000}]], [[]])), (
        "predictions, sentence 0: span {'start': 0, 'end': 1, 'label': 'PER', 'note': 'yyyy...' (1,000,00"
        "0 characters)} must have start, end and label and nothing else: it has 'note' (position 0 in the"
        " sentence); write spans as {'start', 'end', 'label'} dicts or (start, end, label) tuples")),
    api("api-read_corpus-missing", "refused", lambda folder: nested_span_f1.read_corpus(folder / "nowhere.jsonl"),
        (
        "[Errno 2] No such file or directory: '{tmp}/nowhere.jsonl'"), FileNotFoundError),
    api("api-read_corpus-unknown-format-name", "refused", lambda folder: nested_span_f1.read_corpus(
        folder / "x.jsonl", "xml"), (
        "unknown format 'xml'; choose one of oneie, triaffine, biaffine, w2ner, shibuya, lu_roth, pyramid"
        ', text, pipeline, text_spans, spacy_jsonl, gliner, token_classification, jsonl, cnn_nested_ner, '
        'locate_and_label, spert, diffusionner, yu2020, muis_lu'), files={"x.jsonl": GOLD}),
    api("api-score_text-texts-differ", "refused", lambda folder: (
        (folder / "g.jsonl").write_text(GOLD), (folder / "p.jsonl").write_text(jl(doc("d1", TEXT.lower()))),
        _score_text("p.jsonl", "g.jsonl")(folder))[-1], (
        "document 0 (id 'd1'): texts differ at offset 0 (27 gold characters, 27 predicted; gold 'Barack O"
        "ba', predicted 'barack oba'); a prediction is scored only against the text it was made on")),
    api("api-score_text-pair-by-order-examples", "counted", lambda folder: __import__(
        "nested_span_f1.align", fromlist=["score_text"]).score_text(
            folder / "p.jsonl", nested_span_f1.Corpus([["Paris", "opened"]], [[(0, 1, "LOC")]]), metric="exact",
            zero_division=0)["alignment"]["examples"][0], (
        "{'side': 'predictions', 'id': None, 'document': 0, 'prediction_id': 'x7', 'prediction': 0, 'pair"
        "ed_by': 'order', 'category': 'boundary_inside_token', 'span': [0, 3, 'LOC'], 'text': 'Par', 'con"
        "text': 'Paris opened'}"), files={"p.jsonl": SPLIT}),
    api("api-benchmark-gold-format-answers", "refused", lambda folder: (
        (folder / "g.jsonl").write_text(GOLD), __import__("nested_span_f1.benchmark", fromlist=["benchmark"]).benchmark(
            folder / "g.jsonl", {"a": folder / "g.jsonl"}, gold_format="answers", progress=False))[-1], (
        "the gold's format 'answers': a gold needs offsets, and a language model's answers are predicti"
        'ons (pred_format, --pred-format)')),
    api("api-benchmark-pred-format-not-a-string", "refused", lambda folder: (
        (folder / "g.jsonl").write_text(GOLD), __import__("nested_span_f1.benchmark", fromlist=["benchmark"]).benchmark(
            folder / "g.jsonl", {"a": folder / "g.jsonl"}, pred_format=3, progress=False))[-1], (
        'pred_format must be a string or None, got 3'), TypeError),
    api("api-corpus-unit-unknown", "refused", _raises(lambda: nested_span_f1.Corpus([["a"]], [[]], unit="bytes")),
        (
        "corpus: unit must be one of tokens, characters, got 'bytes'")),
    api("api-count_exact-a-dict", "refused", _raises(lambda: nested_span_f1.count_exact({"s1": TAGS[0]}, TAGS)), (
        "predictions: expected a list of sentences (one list per sentence), got dict {'s1': ['B-PER', 'I-"
        "PER', 'O']} (a dict is not a list: its keys would be read; pass a list in order)"),
        TypeError),
    api("api-tags_to_spans-malformed", "refused", _raises(lambda: nested_span_f1.tags_to_spans([["O", "PER"]])), (
        "sentences, sentence 0, token 1: tag 'PER': malformed: no valid prefix: tags are O or B-TYPE with"
        ' a prefix among O, B, I, E, S, U, L, M')),
    api("api-score_lenient-partial-weight-nan", "refused", _raises(lambda: nested_span_f1.score_lenient(
        SPANS, SPANS, partial_weight=float("nan"))), (
        'partial_weight must be a number from 0 to 1 (credit of a partial match), got nan')),
    api("api-read_brat-without-triggers", "counted", lambda folder: (
        _files(folder, {k: v.encode() for k, v in BRAT.items()}),
        nested_span_f1.read_corpus(folder / "b", event_triggers=False).conversion)[-1], (
        'brat standoff, character offsets: 2 T lines: 1 entity, 1 event trigger (left out); read past: 1 '
        'E')),
    api("api-read_corpus-batch-of-one", "counted", lambda folder: (
        (folder / "p.jsonl").write_text(BATCH_OF_ONE), nested_span_f1.read_corpus(folder / "p.jsonl").entities)[-1],
        "[[(0, 12, 'PER')]]"),
    api("api-detect_format-cut", "refused", _raises(lambda: nested_span_f1.formats.detect_format(CUT, "answers")),
        (
        'answers, line 1, column 22: not valid JSON (Unterminated string starting at)')),
    api("api-detect_format-list-of-strings", "refused", _raises(lambda: nested_span_f1.formats.detect_format(
        '["a", "b"]', "answers")), (
        'answers: cannot tell the format (a json list whose first item is "a"); pass it explicitly, one o'
        'f: '
        + KNOWN)),
]

# -------------------------------------------------------------------------------------------------- the Space's inputs


def space(id: str, verdict: str, text: str, expected: str, options: str = "", name: str = "exact",
          upload: Callable[[Path], str] | None = None) -> Case:
    """A request to one Space: its page's message (the first output: an error, or the result's headline)."""
    def call(folder: Path, scorers: Callable[[str], Any]) -> Any:
        page = scorers(name)(text, upload(folder) if upload else None, options)
        if page[0].startswith("Error: "):
            raise ValueError(page[0][len("Error: "):])
        return page[0]
    return api(id, verdict, call, expected, door="space")


def _upload(content: bytes | None, name: str = "upload.txt") -> Callable[[Path], str]:
    def write(folder: Path) -> str:
        path = folder / name
        if content is None:
            path.mkdir()
        else:
            path.write_bytes(content)
        return str(path)
    return write


SPACE_CONLL = "Peter B-PER B-PER\nBlackburn I-PER O\n\nParis B-LOC B-LOC\n"
CASES += [
    space("space-cut-json", "refused", '{"predictions": [["B-PER"]], "references": [["B-', (
        'JSON input, line 1 column 46: Unterminated string starting at')),
    space("space-columns-first-token-a-bracket", "read", "[ O O\n" + SPACE_CONLL, 'Scored 2 sentences.'),
    space("space-options-not-json", "refused", SPACE_CONLL, (
        "options, line 1 column 1: Expecting value; write a JSON object of compute's keyword arguments"),
        options="mode=strict"),
    space("space-options-unknown-key", "refused", SPACE_CONLL, (
        "span_f1 takes no option 'modes'; its options are scheme, mode, suffix, zero_division, label_list"
        ', sample_weight'), options='{"modes": "strict"}'),
    space("space-json-without-references", "refused", json.dumps({"predictions": TAGS}), (
        'JSON input must be an object {"predictions": [...], "references": [...]}')),
    space("space-two-columns", "refused", "Peter B-PER\nBlackburn I-PER\n", (
        'line 1: 2 columns; CoNLL input needs three (token, gold tag, predicted tag), separated by spaces'
        ' or tabs')),
    space("space-upload-a-folder", "refused", "", (
        'the upload folder is a folder, not a file; upload a text file'), upload=_upload(None, "folder")),
    space("space-empty", "refused", "   \n", (
        'no input: paste CoNLL columns (token gold prediction) or JSON, upload a file, or load an example')),
    space("space-too-large", "refused", "a O O\n" * 400_000, (
        'the input is 2,400,000 bytes; this Space scores at most 2,000,000 bytes (about 200k tokens); sco'
        're larger sets locally (nested-span-f1 score)')),
    space("space-json-too-deep", "refused", json.dumps({"predictions": [[[[[[[[["x"]]]]]]]]], "references": []}),
          (
        'JSON input nests lists and objects more than 8 deep; no input of the metrics does (an object, it'
        's sides, their sentences, spans or tag layers)')),
    space("space-bad-tag-line-from-1", "refused", SPACE_CONLL.replace("Paris B-LOC B-LOC", "Paris B-LOC LOC"), (
        "predictions, sentence 2, token 1 (the input line 4): tag 'LOC': malformed: no valid prefix: tags"
        ' are O or B-TYPE with a prefix among O, B, I, E, S, U, L, M')),
    space("space-upload-cut-json", "refused", "", (
        'JSON input, line 1 column 46: Unterminated string starting at'),
          upload=_upload(b'{"predictions": [["B-PER"]], "references": [["B-', "u.json")),
    space("space-lenient-spans-read", "read",
        json.dumps({"predictions": SPANS, "references": SPANS}), 'Scored 2 sentences.',
          name="lenient"),
    space("space-nested-label-O-read", "read", json.dumps({"predictions": [[{"start": 0, "end": 1, "label": "O"}]],
                                                           "references": [[{"start": 0, "end": 1, "label": "O"}]]}),
          'Scored 1 sentence.', name="nested"),
]

# ------------------------------------------------------------------------------------------------- doors still to come
# The catalogue's place for the doors other issues were building: language-model answers as real models write them
# (issue 37: nested_span_f1/answers/, the `answers` command, and answers through score, nested and lenient), the
# `thresholds` command (issue 39) and the `agreement` command (issue 40; their refusals of bad annotations and scores
# are rows of tests/test_bad_input.py, so here are the detection cases of item 1 at their doors).
# test_the_catalogue_is_large_and_covers_every_door counts them.


def answers(*outputs: str, ids: bool = True) -> str:
    """JSON lines of raw answers, one a document (``d1``, ``d2``, ...; no ids with ``ids=False``)."""
    return jl(*({"id": f"d{k}", "output": o} if ids else {"output": o} for k, o in enumerate(outputs, 1)))


TWO = jl(doc("d1", TEXT, (0, 12, "PER"), (21, 26, "LOC")), doc("d2", "Rome is old.", (0, 4, "LOC")))
"""A gold of two text-span documents: d1 (Barack Obama, Paris), d2 (Rome)."""
EMPTY_LABEL = {"g.jsonl": GOLD, "a.jsonl": answers('[["Barack Obama", "PER"], ["Paris", ""]]')}
"""Issue 37: an empty label aborted the whole run (exit 2, naming a placed span); it is an unreadable item now."""
PROSE = "Sorry, I cannot help with that."
NOTHING = ("none of a JSON or Python list or object, inline tags, GPT-NER's @@marks##, code calls Type(span=...), "
           "word(tag) output, lines of string (TYPE), TYPE: a, b, string: TYPE, string - TYPE, (string, TYPE) or a "
           "Markdown table found")
UNREADABLE = "{tmp}/a.jsonl: no answer can be read (1 tried); the first (id 'd1', line 1), " + repr(PROSE) + ": "
GOLD_CONLL = "Barack B-PER\nObama I-PER\nvisited O\nParis B-LOC\n. O\n"
"""The same sentence as CoNLL columns: token indices are placed on its tokens."""
STRING_GOLD = jl({"id": "d1", "text": TEXT, "entities": [{"text": "Barack Obama", "label": "PER"},
                                                         {"text": "Pariss", "label": "LOC"}]})
"""A gold of strings without offsets; "Pariss" is nowhere in its text."""
LONG_ANSWERS = jl({"id": "a1", "text": ARTICLE, "output": "Barack Obama (PER)\nParis (LOC)"})
"""Answers whose first line (the document's text beside the answer) is longer than any head a command read."""
SCORED_LONG = jl({"id": "a1", "text": ARTICLE, "entities": [{"start": 0, "end": 12, "label": "PER", "score": 0.9},
                                                            {"start": 21, "end": 26, "label": "LOC", "score": 0.4}]})


def _api_answers(call: Callable[..., Any], *args: Any, **options: Any) -> Callable[[Path], Any]:
    """``call(*args, **options)`` of the answers' Python API, ``"{tmp}/..."`` arguments as paths in the folder; a
    result's counts in one line."""
    def run(folder: Path) -> Any:
        given = [Path(_fill(a, folder)) if isinstance(a, str) and a.startswith("{tmp}") else a for a in args]
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", UnreadableAnswersWarning)
            result = call(*given, **options)
        if isinstance(result, dict):
            report = result["answers"]
            warned = "".join(f"; warns: {w.message}" for w in caught if issubclass(w.category, UnreadableAnswersWarning))
            return (f"shapes {report['shapes']}, unreadable items {report['unreadable_items']}, unparseable "
                    f"{report['unparseable']}, strings tp {result['strings']['tp']}, located f1 "
                    f"{result['located']['overall_f1']}{warned}")
        return result
    return run


def _score_answers(*args: Any, **options: Any) -> Callable[[Path], Any]:
    from nested_span_f1.answers import score_answers

    return _api_answers(score_answers, *args, zero_division=0, metric="exact", **options)


def _read_answers(text: str) -> Callable[[Path], Any]:
    from nested_span_f1.answers import read_answers

    return _api_answers(lambda: len(read_answers(text, "answers")))


LATER: list[Case] = [
    # one bad item never stops a run: counted with its file line, the rest of the answer and of the file scored
    cli("answers-empty-label-counted", "counted", "answers --gold {tmp}/g.jsonl --pred {tmp}/a.jsonl", (
        "  unreadable items: d1 (line 1): \"item 2: label of ['Paris', ''] is empty\""), EMPTY_LABEL),
    cli("answers-empty-label-rest-scored", "counted", "answers --gold {tmp}/g.jsonl --pred {tmp}/a.jsonl "
        "--metric exact", (
        "overall      2     1.0000     0.5000     0.6667     1.0000     0.5000     0.6667       0       0"
        "            0"), EMPTY_LABEL),
    cli("score-answers-empty-label", "counted", "score --gold {tmp}/g.jsonl --pred {tmp}/a.jsonl --json",
        '    "unreadable_items": 1,', EMPTY_LABEL),
    cli("nested-answers-empty-label", "counted", "nested --gold {tmp}/g.jsonl --pred {tmp}/a.jsonl",
        "reading: lines skipped 0, declined 0; answers corrected 0; items unreadable 1", EMPTY_LABEL),
    cli("lenient-answers-number-label", "counted", "lenient --gold {tmp}/g.jsonl --pred {tmp}/a.jsonl", (
        "  unreadable items: d1 (line 1): \"item 2: label 3 of ['Paris', 3] is not a string\""),
        {"g.jsonl": GOLD, "a.jsonl": answers('[["Barack Obama", "PER"], ["Paris", 3]]')}),
    cli("answers-empty-string-counted", "counted", "answers --gold {tmp}/g.jsonl --pred {tmp}/a.jsonl", (
        "  unreadable items: d1 (line 1): \"item 1: text of ['', 'LOC'] is empty\""),
        {"g.jsonl": GOLD, "a.jsonl": answers('[["", "LOC"], ["Paris", "LOC"]]')}),
    cli("answers-entity-list-empty-label", "counted", "answers --gold {tmp}/g.jsonl --pred {tmp}/a.jsonl", (
        "  unreadable items: d1 (line 1): \"item 1: label of {'text': 'Paris', 'label': ''} is empty\""),
        {"g.jsonl": GOLD, "a.jsonl": jl({"id": "d1", "entities": [{"text": "Paris", "label": ""}]})}),
    # no answer can be read: exit 2 saying what was tried on the first one, at every door that reads answers
    cli("answers-no-answer-can-be-read", "refused", "answers --gold {tmp}/g.jsonl --pred {tmp}/a.jsonl",
        UNREADABLE + NOTHING, {"g.jsonl": GOLD, "a.jsonl": answers(PROSE)}),
    cli("score-no-answer-can-be-read", "refused", "score --gold {tmp}/g.jsonl --pred {tmp}/a.jsonl",
        UNREADABLE + NOTHING, {"g.jsonl": GOLD, "a.jsonl": answers(PROSE)}),
    cli("nested-no-answer-can-be-read", "refused", "nested --gold {tmp}/g.jsonl --pred {tmp}/a.jsonl",
        UNREADABLE + NOTHING, {"g.jsonl": GOLD, "a.jsonl": answers(PROSE)}),
    cli("lenient-no-answer-can-be-read", "refused", "lenient --gold {tmp}/g.jsonl --pred {tmp}/a.jsonl",
        UNREADABLE + NOTHING, {"g.jsonl": GOLD, "a.jsonl": answers(PROSE)}),
    cli("answers-marks-without-a-label", "refused", "answers --gold {tmp}/g.jsonl --pred {tmp}/a.jsonl", (
        "{tmp}/a.jsonl: no answer can be read (1 tried); the first (id 'd1', line 1), '@@Barack Obama## visited "
        "Paris.': GPT-NER's @@string## marks name no type: the line needs the 'label' its question asked about"),
        {"g.jsonl": GOLD, "a.jsonl": answers("@@Barack Obama## visited Paris.")}),
    cli("answers-no-answer-named-by-line", "refused", "answers --gold {tmp}/g.jsonl --pred {tmp}/a.jsonl", (
        "{tmp}/a.jsonl: no answer can be read (1 tried); the first (line 1), '[1, 2]': item 1 is not an object, a "
        "[text, label] pair or a string"),
        {"g.jsonl": jl(doc(None, TEXT)), "a.jsonl": answers("[1, 2]", ids=False)}),
    # more than 5% cannot be read: the report's first line and stderr say so, naming the documents by id
    cli("answers-unreadable-share-first", "counted", "answers --gold {tmp}/g.jsonl --pred {tmp}/a.jsonl",
        "warning: 1 of 2 answers (50.0%) could not be read: ['d2']",
        {"g.jsonl": TWO, "a.jsonl": answers("Barack Obama (PER)", PROSE)}),
    cli("score-unreadable-share-on-stderr", "counted", "score --gold {tmp}/g.jsonl --pred {tmp}/a.jsonl --json",
        "warning: 1 of 2 answers (50.0%) could not be read: ['d2']",
        {"g.jsonl": TWO, "a.jsonl": answers("Barack Obama (PER)", PROSE)}),
    cli("answers-unparseable-gold-lost", "counted", "answers --gold {tmp}/g.jsonl --pred {tmp}/a.jsonl",
        "    LOC      2     0.0000     0.0000     0.0000     0.0000     0.0000     0.0000       0       0"
        "            1", {"g.jsonl": TWO, "a.jsonl": answers("Barack Obama (PER)", PROSE)}),
    # what the file (not the model) gets wrong is refused with the file, the line from 1 and the value
    cli("answers-answers-not-json", "refused", "answers --gold {tmp}/g.jsonl --pred {tmp}/a.jsonl",
        "{tmp}/a.jsonl, line 1, column 1: not valid JSON (Expecting value)",
        {"g.jsonl": GOLD, "a.jsonl": "Barack Obama (PER)\n"}),
    cli("answers-answers-cut-short", "refused", "answers --gold {tmp}/g.jsonl --pred {tmp}/a.jsonl",
        "{tmp}/a.jsonl, line 2, column 24: not valid JSON (Unterminated string starting at)",
        {"g.jsonl": TWO, "a.jsonl": answers("[]") + '{"id": "d2", "output": "Rome (LO\n'}),
    cli("answers-output-a-list", "refused", "answers --gold {tmp}/g.jsonl --pred {tmp}/a.jsonl",
        "{tmp}/a.jsonl, line 1: 'output' must be the model's answer as a string, got ['Paris', 'LOC']",
        {"g.jsonl": GOLD, "a.jsonl": jl({"id": "d1", "output": ["Paris", "LOC"]})}),
    cli("answers-long-output-a-dict", "refused", "answers --gold {tmp}/g.jsonl --pred {tmp}/a.jsonl", (
        "{tmp}/a.jsonl, line 1: 'output' must be the model's answer as a string, got {'PER': ['Barack Obama', "
        "'Barack Obama', ... 3 more], 'LOC': ['Paris']}"),
        {"g.jsonl": GOLD, "a.jsonl": jl({"id": "d1", "output": {"PER": ["Barack Obama"] * 5, "LOC": ["Paris"]}})}),
    cli("answers-entities-an-object", "refused", "answers --gold {tmp}/g.jsonl --pred {tmp}/a.jsonl",
        "{tmp}/a.jsonl, line 1: 'entities' must be a list of {'text', 'label'} objects, got {'text': 'Paris', "
        "'label': 'LOC'}", {"g.jsonl": GOLD, "a.jsonl": jl({"id": "d1", "entities": {"text": "Paris", "label": "LOC"}})}),
    cli("answers-output-and-entities", "refused", "answers --gold {tmp}/g.jsonl --pred {tmp}/a.jsonl",
        "{tmp}/a.jsonl, line 1: a line holds either 'entities' (a list of {'text', 'label'} objects) or 'output' "
        "(the model's answer), got both",
        {"g.jsonl": GOLD, "a.jsonl": jl({"id": "d1", "output": "[]", "entities": []})}),
    cli("answers-label-a-number", "refused", "answers --gold {tmp}/g.jsonl --pred {tmp}/a.jsonl",
        "{tmp}/a.jsonl, line 1: 'label' (the type the question asked about) must be a string, got 3",
        {"g.jsonl": GOLD, "a.jsonl": jl({"id": "d1", "label": 3, "output": "[]"})}),
    cli("answers-id-twice", "refused", "answers --gold {tmp}/g.jsonl --pred {tmp}/a.jsonl", (
        "{tmp}/a.jsonl, line 2: id 'd1' is given twice (without a 'label' both times; first at {tmp}/a.jsonl, line "
        "1); a document's questions are told apart by their 'label', one line each"),
        {"g.jsonl": GOLD, "a.jsonl": jl({"id": "d1", "output": "[]"}, {"id": "d1", "output": "[]"})}),
    cli("answers-ids-on-some-lines", "refused", "answers --gold {tmp}/g.jsonl --pred {tmp}/a.jsonl",
        "{tmp}/a.jsonl, line 2: no 'id', where the first line has one; give every line an id, or none",
        {"g.jsonl": TWO, "a.jsonl": jl({"id": "d1", "output": "[]"}, {"output": "[]"})}),
    cli("answers-text-a-number", "refused", "answers --gold {tmp}/g.jsonl --pred {tmp}/a.jsonl",
        "{tmp}/a.jsonl, line 1: 'text' must be the document's text as a string, got 3",
        {"g.jsonl": GOLD, "a.jsonl": jl({"id": "d1", "text": 3, "output": "[]"})}),
    # pairing the answers with the gold
    cli("answers-text-differs", "refused", "answers --gold {tmp}/g.jsonl --pred {tmp}/a.jsonl", (
        "{tmp}/a.jsonl, line 1: its text differs from the gold's at offset 26 (27 characters given, 27 in the gold; "
        "given '!', gold '.'); answers are scored only against the text they were made from"),
        {"g.jsonl": GOLD, "a.jsonl": jl({"id": "d1", "text": TEXT[:-1] + "!", "output": "[]"})}),
    cli("answers-gold-document-without-answer", "refused", "answers --gold {tmp}/g.jsonl --pred {tmp}/a.jsonl", (
        "{tmp}/g.jsonl, line 2: document id 'd2' has no answer in {tmp}/a.jsonl (1 gold document without one); a "
        "document the model was not asked about cannot be scored"), {"g.jsonl": TWO, "a.jsonl": answers("[]")}),
    cli("nested-answer-without-gold", "refused", "nested --gold {tmp}/g.jsonl --pred {tmp}/a.jsonl", (
        "{tmp}/a.jsonl, line 2: document id 'd9' is not in {tmp}/g.jsonl (1 answered document without gold)"),
        {"g.jsonl": GOLD, "a.jsonl": jl({"id": "d1", "output": "[]"}, {"id": "d9", "output": "[]"})}),
    cli("answers-gold-id-twice", "refused", "answers --gold {tmp}/g.jsonl --pred {tmp}/a.jsonl", (
        "{tmp}/g.jsonl, line 2: document id 'd1' is given to two documents (first at {tmp}/g.jsonl, line 1); "
        "documents are paired by id, so each needs its own"),
        {"g.jsonl": jl(doc("d1", TEXT), doc("d1", "Rome.")), "a.jsonl": answers("[]")}),
    cli("answers-sizes-differ-without-ids", "refused", "answers --gold {tmp}/g.jsonl --pred {tmp}/a.jsonl", (
        "{tmp}/g.jsonl has 2 documents but {tmp}/a.jsonl has 1; without ids on both sides they are paired in "
        "order"), {"g.jsonl": jl(doc(None, TEXT), doc(None, "Rome.")), "a.jsonl": answers("[]", ids=False)}),
    cli("answers-empty-answers-file", "refused", "answers --gold {tmp}/g.jsonl --pred {tmp}/a.jsonl", (
        "{tmp}/g.jsonl has 1 document but {tmp}/a.jsonl has 0; without ids on both sides they are paired in order"),
        {"g.jsonl": GOLD, "a.jsonl": ""}),
    # the options: a label map, trust, the reader options; none ignored where it would do nothing
    cli("answers-labels-not-in-the-gold", "counted", "answers --gold {tmp}/g.jsonl --pred {tmp}/a.jsonl",
        "labels not in the gold: person 2, location 1",
        {"g.jsonl": GOLD, "a.jsonl": answers("Barack Obama (person)\nObama (person)\nParis (location)")}),
    cli("answers-label-map-counted", "counted", "answers --gold {tmp}/g.jsonl --pred {tmp}/a.jsonl "
        "--label-map person=PER,location=LOC", "labels mapped: location -> LOC 1, person -> PER 1",
        {"g.jsonl": GOLD, "a.jsonl": answers("Barack Obama (person)\nParis (location)")}),
    cli("answers-label-map-not-name-type", "refused", "answers --gold {tmp}/g.jsonl --pred {tmp}/a.jsonl "
        "--label-map person", (
        "argument --label-map: label map: 'person' is not NAME=TYPE (entries are joined by commas) (see "
        "nested-span-f1 answers --help)"), {"g.jsonl": GOLD, "a.jsonl": answers("[]")}),
    cli("answers-label-map-file-not-strings", "refused", "answers --gold {tmp}/g.jsonl --pred {tmp}/a.jsonl "
        "--label-map {tmp}/map.json", (
        "argument --label-map: label_map: 'person': 3 is not a type name mapped to a type name (strings) (see "
        "nested-span-f1 answers --help)"),
        {"g.jsonl": GOLD, "a.jsonl": answers("[]"), "map.json": '{"person": 3}'}),
    cli("answers-trust-unknown", "refused", "answers --gold {tmp}/g.jsonl --pred {tmp}/a.jsonl --trust tokens", (
        "argument --trust: invalid choice: 'tokens' (choose from 'index', 'string') (see nested-span-f1 answers "
        "--help)"), {"g.jsonl": GOLD, "a.jsonl": answers("[]")}),
    cli("answers-types-without-brat", "refused", "answers --gold {tmp}/g.jsonl --pred {tmp}/a.jsonl --types PER",
        "--types keeps the T lines of these types in brat files, but the gold ({tmp}/g.jsonl) is not one; leave it out",
        {"g.jsonl": GOLD, "a.jsonl": answers("[]")}),
    cli("answers-no-event-triggers-without-brat", "refused", "answers --gold {tmp}/g.jsonl --pred {tmp}/a.jsonl "
        "--no-event-triggers", (
        "--no-event-triggers leaves out the T lines brat's E lines use as triggers, but the gold ({tmp}/g.jsonl) is "
        "not one; leave it out"), {"g.jsonl": GOLD, "a.jsonl": answers("[]")}),
    cli("answers-brat-gold-triggers-scored", "counted", "answers --gold {tmp}/b --pred {tmp}/a.jsonl", (
        "overall      2     1.0000     0.5000     0.6667     1.0000     0.5000     0.6667       0       0"
        "            0"), {**BRAT, "a.jsonl": answers("IL-2 (Protein)", ids=False)}),
    cli("answers-brat-gold-triggers-left-out", "counted", "answers --gold {tmp}/b --pred {tmp}/a.jsonl "
        "--no-event-triggers", (
        "overall      1     1.0000     1.0000     1.0000     1.0000     1.0000     1.0000       0       0"
        "            0"), {**BRAT, "a.jsonl": answers("IL-2 (Protein)", ids=False)}),
    cli("nested-answers-trim", "refused", "nested --gold {tmp}/g.jsonl --pred {tmp}/a.jsonl --trim", (
        "--trim applies to spans of two texts, but --pred {tmp}/a.jsonl holds a language model's answers, whose "
        "strings are placed on the gold's text; leave it out"), {"g.jsonl": GOLD, "a.jsonl": answers("[]")}),
    cli("answers-pred-format-named", "read", "score --gold {tmp}/g.jsonl --pred {tmp}/a.txt --pred-format answers "
        "--json", '  "answers": {', {"g.jsonl": GOLD, "a.txt": answers("Paris (LOC)")}),
    # token indices on a gold of tokens: placed, counted where they disagree or are out of range, never fatal
    cli("answers-indices-placed", "counted", "answers --gold {tmp}/g.conll --pred {tmp}/a.jsonl", (
        "token indices: placed by index 2, index and string disagree 0 (trusted: index), out of range 0, without "
        "gold tokens 0"), {"g.conll": GOLD_CONLL,
                           "a.jsonl": answers("[['Barack Obama', 'PER', 0, 1], ['Paris', 'LOC', 3, 3]]", ids=False)}),
    cli("answers-indices-out-of-range", "counted", "answers --gold {tmp}/g.conll --pred {tmp}/a.jsonl",
        "  out of range: line 1 (LOC): 'Paris' at tokens 7-9",
        {"g.conll": GOLD_CONLL, "a.jsonl": answers("[['Paris', 'LOC', 7, 9]]", ids=False)}),
    cli("answers-indices-disagree", "counted", "answers --gold {tmp}/g.conll --pred {tmp}/a.jsonl",
        "  disagree: line 1 (LOC): 'Paris' at tokens 2-2 ('visited')",
        {"g.conll": GOLD_CONLL, "a.jsonl": answers("[['Paris', 'LOC', 2, 2]]", ids=False)}),
    # what the model wrote around its entities, counted; prose never a mention
    cli("answers-self-correction", "counted", "answers --gold {tmp}/g.jsonl --pred {tmp}/a.jsonl",
        "reading: lines skipped 2, declined 1; answers corrected 1; items unreadable 0",
        {"g.jsonl": GOLD, "a.jsonl": answers(
            "Answer:\nBarack Obama (PER)\nParis (ORG)\nHowever, Paris is a city, so the corrected answer would be:\n"
            "Barack Obama (PER)\nParis (LOC)\nvisited (no entity, a verb)")}),
    cli("answers-gner-is-not-string-type-lines", "counted", "answers --gold {tmp}/g.jsonl --pred {tmp}/a.jsonl",
        "answers: 1 for 1 document paired by id (parentheses 1)", {"g.jsonl": GOLD, "a.jsonl": answers("Paris (LOC)\nnice (O)")}),
    cli("answers-says-none", "counted", "answers --gold {tmp}/g.jsonl --pred {tmp}/a.jsonl",
        "answers: 2 for 2 documents paired by id (empty 2)", {"g.jsonl": TWO, "a.jsonl": answers(
            "There are no named entities in this sentence.", "N/A")}),
    cli("answers-marks-with-a-label", "counted", "answers --gold {tmp}/g.jsonl --pred {tmp}/a.jsonl",
        "mentions: 1: markup 1, index 0, exact 0, normalized 0, not in the text 0, excess 0; 1 span placed",
        {"g.jsonl": GOLD, "a.jsonl": jl({"id": "d1", "label": "PER", "output": "@@Barack Obama## visited Paris."})}),
    # a gold of strings (no offsets): placed as the answers are, a string that cannot be placed counted
    cli("answers-gold-of-strings", "counted", "answers --gold {tmp}/g.jsonl --pred {tmp}/a.jsonl",
        "gold strings: 2: exact 1, normalized 0, not in the text 1, excess 0",
        {"g.jsonl": STRING_GOLD, "a.jsonl": answers("Barack Obama (PER)\nParis (LOC)")}),
    cli("answers-gold-of-strings-empty-label", "refused", "answers --gold {tmp}/g.jsonl --pred {tmp}/a.jsonl",
        "{tmp}/g.jsonl, line 1, entity 1: label of {'text': 'Paris', 'label': ''} is empty",
        {"g.jsonl": jl({"id": "d1", "text": TEXT, "entities": [{"text": "Paris", "label": ""}]}),
         "a.jsonl": answers("[]")}),
    cli("answers-gold-of-strings-without-text", "refused", "answers --gold {tmp}/g.jsonl --pred {tmp}/a.jsonl "
        "--gold-format answers", (
        "{tmp}/g.jsonl, line 1: a gold of strings needs each document's 'text' (a string), got None"),
        {"g.jsonl": jl({"id": "d1", "entities": [{"text": "Paris", "label": "LOC"}]}), "a.jsonl": answers("[]")}),
    # detection reads the answers' first line whole (issue 38, item 1), at every door that detects them
    cli("score-answers-long-first-line", "read", "score --gold {tmp}/long.jsonl --pred {tmp}/a.jsonl --json",
        '  "answers": {', {**LONG_FILES, "a.jsonl": LONG_ANSWERS}),
    cli("lenient-answers-long-first-line", "read", "lenient --gold {tmp}/long.jsonl --pred {tmp}/a.jsonl",
        "answers: 1 for 1 document paired by id (parentheses 1)", {**LONG_FILES, "a.jsonl": LONG_ANSWERS}),
    # the Python API: the same counts and messages, places named as the API names them (records from 0)
    api("api-score_answers-empty-label", "counted", _score_answers(
        [{"id": "d1", "output": '[["Barack Obama", "PER"], ["Paris", ""]]'}], "{tmp}/g.jsonl"), (
        "shapes {'list': 1}, unreadable items 1, unparseable 0, strings tp 1, located f1 0.6666666666666666"),
        files={"g.jsonl": GOLD}),
    api("api-score_answers-nothing-read-is-counted", "counted", _score_answers(
        [{"id": "d1", "output": PROSE}], "{tmp}/g.jsonl"), (
        "shapes {'unparseable': 1}, unreadable items 0, unparseable 1, strings tp 0, located f1 0.0; warns: 1 of 1 "
        "answers (100.0%) could not be read: ['d1']; each counts its gold entities as missed"),
        files={"g.jsonl": GOLD}),
    api("api-score_answers-record-without-answer", "refused", _score_answers([{"id": "d1"}], "{tmp}/g.jsonl"),
        "record 0: a line holds either 'entities' (a list of {'text', 'label'} objects) or 'output' (the model's "
        "answer), got neither", files={"g.jsonl": GOLD}),
    api("api-score_answers-policy-unknown", "refused", _score_answers(
        [{"id": "d1", "output": "[]"}], "{tmp}/g.jsonl", policy="first"),
        "policy must be one of kth, every, got 'first'", files={"g.jsonl": GOLD}),
    api("api-score_answers-trust-unknown", "refused", _score_answers(
        [{"id": "d1", "output": "[]"}], "{tmp}/g.jsonl", trust="tokens"),
        "trust must be one of index, string, got 'tokens'", files={"g.jsonl": GOLD}),
    api("api-score_answers-label-map-not-strings", "refused", _score_answers(
        [{"id": "d1", "output": "[]"}], "{tmp}/g.jsonl", label_map={"person": 3}),
        "label_map: 'person': 3 is not a type name mapped to a type name (strings)", TypeError,
        files={"g.jsonl": GOLD}),
    api("api-score_answers-normalization-unknown", "refused", _score_answers(
        [{"id": "d1", "output": "[]"}], "{tmp}/g.jsonl", normalization="case"), (
        "normalization step 'case' is not one of lowercase, punctuation, articles, whitespace (join steps with '+', "
        "or give 'all' or 'none')"), files={"g.jsonl": GOLD}),
    api("api-score_answers-references-a-number", "refused", _score_answers([{"output": "[]"}], 3), (
        "references: expected a gold file, a Corpus, a StringGold or records, got int"), TypeError),
    api("api-read_answers-output-none", "refused", _read_answers(jl({"id": "d1", "output": None})),
        "answers, line 1: 'output' must be the model's answer as a string, got None", TypeError),
    api("api-read_answers-cut-short", "refused", _read_answers('{"id": "d1", "output": "Paris (LO\n'),
        "answers, line 1, column 24: not valid JSON (Unterminated string starting at)"),
    api("api-read_answers-questions-gathered", "read", _read_answers(jl(
        {"id": "d1", "label": "PER", "output": '["Barack Obama"]'}, {"id": "d1", "label": "LOC", "output": "[]"})),
        "1"),
    # the thresholds and agreement commands detect from the whole first line too (issue 38, item 1)
    cli("thresholds-long-first-line", "read", "thresholds --gold {tmp}/long.jsonl --pred {tmp}/p.jsonl --json",
        '  "average_precision": 0.6666666666666666,', {**LONG_FILES, "p.jsonl": SCORED_LONG}),
    cli("thresholds-cut-line", "refused", "thresholds --gold {tmp}/g.jsonl --pred {tmp}/cut.jsonl", (
        '{tmp}/cut.jsonl, line 1, column 22: not valid JSON (Unterminated string starting at)'),
        {"cut.jsonl": CUT, "g.jsonl": GOLD}),
    cli("agreement-long-first-line", "read", "agreement a={tmp}/long.jsonl b={tmp}/b.jsonl --bootstrap 20", (
        "a|b     1.0000     1.0000  1.0000   3   0   0      1.0000      1.0000         1.0000"),
        {**LONG_FILES, "b.jsonl": LONG}),
    cli("agreement-cut-line", "refused", "agreement a={tmp}/g.jsonl b={tmp}/cut.jsonl", (
        '{tmp}/cut.jsonl, line 1, column 22: not valid JSON (Unterminated string starting at)'),
        {"cut.jsonl": CUT, "g.jsonl": GOLD}),
]
CASES += LATER


# ------------------------------------------------------------------------------------------------------ running a case

@pytest.fixture(scope="module")
def metrics() -> dict[str, Any]:
    """One instance of each evaluate module (a refused call must leave it usable for the next case)."""
    evaluate = pytest.importorskip("evaluate")
    return {name: evaluate.load(nested_span_f1.metric_path(name))
            for name in ("exact", "lenient", "nested")}


@pytest.fixture(scope="module")
def scorers() -> Any:
    """The request handler of each metric's Space, made once."""
    from nested_span_f1.space.app import SPECS, Scorer, metric_script

    made: dict[str, Any] = {}

    def scorer(name: str) -> Any:
        if name not in made:
            made[name] = Scorer(metric_script(nested_span_f1.metric_path(name)), SPECS[name])
        return made[name]

    yield scorer
    for handler in made.values():
        handler.close()


FIXTURES = {"metric": "metrics", "spark": "spark", "space": "scorers"}
"""The doors whose calls take a fixture, and its name."""


@pytest.mark.filterwarnings("ignore:PySpark does not yet fully support pandas:FutureWarning")
@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_case(case, tmp_path, capsys, monkeypatch, request):
    fixtures = {case.door: request.getfixturevalue(FIXTURES[case.door])} if case.door in FIXTURES else {}

    def alarm(*_: Any) -> None:
        raise TimeoutError(f"{case.id} did not finish within 120 s")

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(120)
    try:
        verdict, given = outcome(case, tmp_path, capsys, monkeypatch, fixtures)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    check(case, verdict, given)


def check(case: Case, verdict: str, given: str) -> None:
    """The case's verdict, and its exact message, line of output or returned text."""
    assert verdict == ("refused" if case.verdict == "refused" else "read"), given[-2000:]
    if case.verdict != "refused" and case.call is None:
        assert case.expected in given.splitlines(), given[-3000:]
    else:
        assert given == case.expected


def test_the_catalogue_is_large_and_covers_every_door():
    assert len(CASES) >= 150 and len({case.id for case in CASES}) == len(CASES)
    assert {case.verdict for case in CASES} == set(VERDICTS)
    assert all(case.expected != "?" for case in CASES)
    commands = {case.door for case in CASES if case.call is None}
    assert commands >= {"score", "nested", "lenient", "conlleval", "convert", "benchmark", "answers"}
    called = {case.id.split("-")[0] for case in CASES if case.call is not None}
    assert called >= {"table", "parquet", "score_arrow", "spark", "metric", "api", "space"}
