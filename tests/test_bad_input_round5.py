"""Round 5 of the catalogue of bad and unusual input (issue 48), in the form and with the harness of
``tests/test_bad_input_round4.py``: every case one input at one door, with its verdict and its exact outcome.

The families: a brat ``.ann`` line that begins with a space (item 1), ``--label-list`` files (items 2 and 11,
with a ``datasets.ClassLabel`` as ``label_list``), character offsets counted in UTF-16 code units or UTF-8 bytes
(item 3), column files and ``conlleval`` input that are not UTF-8 text (item 12), two sides through pipes (item
13), the evaluate modules naming the side of a problem (item 16), and evaluate's own multi-process protocol: two
real processes with one ``experiment_id`` (:mod:`evaluate_ranks`).
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from test_bad_input_round4 import (
    VERDICTS,
    Case,
    _fill,
    api,
    check,
    cli,
    doc,
    jl,
    metric,
    metrics,  # noqa: F401 - the fixture of the metric door
    outcome,
    parquet,
    table,
)

import nested_span_f1
from nested_span_f1.benchmark import benchmark
from nested_span_f1.formats.columns import read_columns

CASES: list[Case] = []

# --------------------------------------------------------------------------- item 1: a brat line that begins with a space
# brat's own server reads an annotation's id from the very start of its line (annotation.py: the id is what comes
# before the first tab, and ' T1' is no id), so the line is no annotation in brat either: refused at every door
# that reads brat, naming the file and the line, never read past as "other" with its entity lost.
STAFF = "Maria Keller joined Siemens in Munich after ten years at Bosch in Stuttgart."


def ann(*entities: tuple[str, str], first: str = "") -> str:
    """The ``.ann`` lines of ``(surface, type)`` entities of :data:`STAFF`, ``first`` before the first line."""
    lines = [f"T{k}\t{label} {STAFF.index(name)} {STAFF.index(name) + len(name)}\t{name}\n"
             for k, (name, label) in enumerate(entities, 1)]
    return first + "".join(lines)


GOLD_ENTITIES = (("Maria Keller", "PER"), ("Siemens", "ORG"), ("Munich", "LOC"), ("Bosch", "ORG"), ("Stuttgart", "LOC"))
PRED_ENTITIES = (("Maria Keller", "PER"), ("Siemens", "ORG"), ("Munich", "LOC"), ("Bosch", "LOC"), ("Stuttgart", "LOC"))
BRAT = {"g/d1.txt": STAFF, "g/d1.ann": ann(*GOLD_ENTITIES),
        "p/d1.txt": STAFF, "p/d1.ann": ann(*PRED_ENTITIES, first=" ")}
SPACED = ("{tmp}/p/d1.ann, line 1: ' T1\\tPER 0 12\\tMaria Keller' begins with ' ', so brat reads no annotation from "
          "it (an id such as T1 begins a line); remove what comes before the id")
"""The one refusal of the issue's line at every door."""
ANSWERS = jl({"output": "Maria Keller (PER)"})
SCORED_STAFF = jl({"text": STAFF, "entities": [{"start": 0, "end": 12, "label": "PER", "score": 0.9}]})


def _read_corpus(name: str, **options: Any) -> Callable[[Path], Any]:
    def call(folder: Path) -> Any:
        corpus = nested_span_f1.read_corpus(folder / name, **options)
        return f"{corpus.format}: {[[tuple(e) for e in ents] for ents in corpus.entities]}"
    return call


CASES += [
    cli("brat-leading-space-score", "refused", "score --gold {tmp}/g --pred {tmp}/p", SPACED, BRAT),
    cli("brat-leading-space-nested", "refused", "nested --gold {tmp}/g --pred {tmp}/p", SPACED, BRAT),
    cli("brat-leading-space-lenient", "refused", "lenient --gold {tmp}/g --pred {tmp}/p", SPACED, BRAT),
    cli("brat-leading-space-benchmark", "refused", "benchmark --gold {tmp}/g --pred a={tmp}/p --bootstrap 20 "
        "--no-progress", SPACED, BRAT),
    cli("brat-leading-space-convert", "refused", "convert {tmp}/p --to text --output {tmp}/t.jsonl", SPACED, BRAT),
    cli("brat-leading-space-agreement", "refused", "agreement a={tmp}/g b={tmp}/p --bootstrap 20", SPACED, BRAT),
    cli("brat-leading-space-answers-gold", "refused", "answers --gold {tmp}/p --pred {tmp}/a.jsonl", SPACED,
        {**BRAT, "a.jsonl": ANSWERS}),
    cli("brat-leading-space-thresholds-gold", "refused", "thresholds --gold {tmp}/p --pred {tmp}/s.jsonl", SPACED,
        {**BRAT, "s.jsonl": SCORED_STAFF}),
    api("brat-leading-space-read_corpus", "refused", _read_corpus("p"), SPACED, files=BRAT),
    cli("brat-leading-tab", "refused", "score --gold {tmp}/g --pred {tmp}/p", (
        "{tmp}/p/d1.ann, line 3: '\\tT3\\tLOC 31 37\\tMunich' begins with '\\t', so brat reads no annotation from it "
        "(an id such as T1 begins a line); remove what comes before the id"),
        {**BRAT, "p/d1.ann": ann(*PRED_ENTITIES).replace("T3\t", "\tT3\t")}),
    # the line as brat writes it: F1 0.8 (the line lost, it was 0.6667)
    cli("brat-line-as-brat-writes-it", "read", "score --gold {tmp}/g --pred {tmp}/p --json", '  "overall_f1": 0.8000000000000002,',
        {**BRAT, "p/d1.ann": ann(*PRED_ENTITIES)}),
    cli("brat-blank-line-of-spaces-read", "read", "score --gold {tmp}/g --pred {tmp}/p --json",
        '  "overall_f1": 0.8000000000000002,', {**BRAT, "p/d1.ann": ann(*PRED_ENTITIES) + "   \n"}),
]

# ------------------------------------------------------------------------------------ items 2 and 11: --label-list files
IDS = {"predictions": [[1, 2, 0], [3]], "references": [[1, 2, 0], [3]]}
LABELS = ["O", "B-PER", "I-PER", "B-LOC"]
CONFIG = {"architectures": ["BertForTokenClassification"], "id2label": dict(enumerate(LABELS)),
          "label2id": {tag: i for i, tag in enumerate(LABELS)}, "model_type": "bert"}
"""A token-classification model's config.json (json writes the ids as strings)."""


def table_line(id: str, verdict: str, argv: str, expected: str, files: dict[str, Any],
               columns: dict[str, Any] = IDS) -> Case:
    """A command on a Parquet table written first (``files`` beside it, the round-4 harness runs it): its refusal
    without the command's prefix, or the last line of its output."""
    run = table(id, verdict, argv, expected, files, results=()).call
    assert run is not None

    def call(folder: Path) -> Any:
        parquet(columns)(folder)
        try:
            return run(folder).splitlines()[-1]
        except ValueError as error:
            raise ValueError(re.sub(r"^nested-span-f1 \w+: error: ", "", str(error))) from None
    return api(id, verdict, call, expected)


LL = "score --gold {tmp}/t.parquet --pred {tmp}/t.parquet --label-list {tmp}/"
READ = "tp=2  fp=0  fn=0"
CASES += [
    table_line("label-list-blank-line", "refused", LL + "labels.txt", (
        "{tmp}/labels.txt, line 3: a blank line; line n holds the tag of label id n - 1, so every id after it would "
        "shift by one: remove it"), {"labels.txt": "O\nB-PER\n\nI-PER\nB-LOC\n"}),
    table_line("label-list-blank-lines-at-the-end-read", "read", LL + "labels.txt", READ,
               {"labels.txt": "O\nB-PER\nI-PER\nB-LOC\n\n\n"}),
    table_line("label-list-crlf-read", "read", LL + "labels.txt", READ, {"labels.txt": "O\r\nB-PER\r\nI-PER\r\nB-LOC\r\n"}),
    table_line("label-list-byte-order-mark-read", "read", LL + "labels.txt", READ,
               {"labels.txt": "\ufeffO\nB-PER\nI-PER\nB-LOC\n"}),
    table_line("label-list-utf16-read", "read", LL + "labels.txt", READ,
               {"labels.txt": "O\nB-PER\nI-PER\nB-LOC\n".encode("utf-16")}),
    table_line("label-list-utf16-without-byte-order-mark", "refused", LL + "labels.txt", (
        "{tmp}/labels.txt, line 1: the file is UTF-16 text, not UTF-8 text; save it as UTF-8"),
        {"labels.txt": "O\nB-PER\nI-PER\nB-LOC\n".encode("utf-16-le")}),
    table_line("label-list-json-list-read", "read", LL + "labels.json", READ, {"labels.json": json.dumps(LABELS)}),
    table_line("label-list-config-json-read", "read", LL + "config.json", READ,
               {"config.json": json.dumps(CONFIG, indent=2)}),
    table_line("label-list-id2label-read", "read", LL + "id2label.json", READ,
               {"id2label.json": json.dumps(dict(enumerate(LABELS)))}),
    table_line("label-list-label2id-read", "read", LL + "label2id.json", READ,
               {"label2id.json": json.dumps({tag: i for i, tag in enumerate(LABELS)})}),
    table_line("label-list-id2label-id-missing", "refused", LL + "id2label.json", (
        "{tmp}/id2label.json: label_list has label ids [0, 1, 3]; they must be exactly 0..2, and id 2 is missing"),
        {"id2label.json": json.dumps({"0": "O", "1": "B-PER", "3": "B-LOC"})}),
    table_line("label-list-config-without-id2label", "refused", LL + "config.json", (
        "{tmp}/config.json: label_list must be the tag of each label id: a list, or a dict id -> tag (id2label) or "
        "tag -> id (label2id); the dict holds 'architectures': ['BertForTokenClassification'], and its items must "
        "all be int id: tag string, or all tag string: int id"),
        {"config.json": json.dumps({"architectures": ["BertForTokenClassification"], "model_type": "bert"})}),
    table_line("label-list-json-cut-short", "refused", LL + "labels.json", (
        "{tmp}/labels.json, line 1, column 16: not valid JSON (Expecting value)"), {"labels.json": '["O", "B-PER", '}),
    table_line("label-list-id-and-tag-on-a-line", "refused", LL + "labels.tsv", (
        "{tmp}/labels.tsv, line 1: '0\\tO' holds more than a tag (one tag a line, the tag of id 0 first; or a JSON "
        "list; or a model's id2label (its config.json))"), {"labels.tsv": "0\tO\n1\tB-PER\n2\tI-PER\n3\tB-LOC\n"}),
    table_line("label-list-malformed-tag", "refused", LL + "labels.txt", (
        "{tmp}/labels.txt, line 3: tag 'X-PER': malformed: no valid prefix: tags are O or B-TYPE with a prefix among "
        "O, B, I, E, S, U, L, M"), {"labels.txt": "O\nB-PER\nX-PER\nB-LOC\n"}),
    table_line("label-list-json-malformed-tag", "refused", LL + "labels.json", (
        "{tmp}/labels.json, label id 2: tag 'I_PER': malformed: no valid prefix: expected I-TYPE, O or a bare "
        "prefix"), {"labels.json": json.dumps(["O", "B-PER", "I_PER", "B-LOC"])}),
    table_line("label-list-nul-byte", "refused", LL + "labels.txt", (
        "{tmp}/labels.txt, line 2: a NUL byte ('\\x00'), which UTF-8 text never holds: the file is not UTF-8 text; "
        "save it as UTF-8"), {"labels.txt": b"O\nB-P\x00ER\nI-PER\nB-LOC\n"}),
    table_line("label-list-empty", "refused", LL + "labels.txt", (
        "--label-list {tmp}/labels.txt: no tags in the file (one tag a line, the tag of id 0 first; or a JSON list; "
        "or a model's id2label (its config.json))"), {"labels.txt": "\n\n"}),
    table_line("label-list-lenient-config-read", "read", "lenient --gold {tmp}/t.parquet --pred {tmp}/t.parquet "
               "--label-list {tmp}/config.json", (
        "errors: correct=2  type_error=0  boundary_error=0  boundary_type_error=0  missed=0  spurious=0"),
        {"config.json": json.dumps(CONFIG)}),
]


def _class_label() -> Any:
    return pytest.importorskip("datasets").ClassLabel(names=LABELS)


def _score_exact_class_label(folder: Path) -> Any:
    result = nested_span_f1.score_exact(IDS["predictions"], IDS["references"], label_list=_class_label())
    return f"overall_f1 {result['overall_f1']}"


def _trainer_class_label(folder: Path) -> Any:
    """``compute_metrics_for`` a dataset's ClassLabel, as Trainer calls it (label ids padded with -100)."""
    import numpy as np

    from nested_span_f1.hf.trainer import compute_metrics_for

    transformers = pytest.importorskip("transformers")
    ids = np.array([[1, 2, 0, -100], [3, -100, -100, -100]])
    compute = compute_metrics_for(_class_label())
    return f"f1 {compute(transformers.EvalPrediction(predictions=ids, label_ids=ids))['f1']}"


CASES += [
    api("api-score_exact-class-label-read", "read", _score_exact_class_label, "overall_f1 1.0"),
    api("api-trainer-class-label-read", "read", _trainer_class_label, "f1 1.0"),
    api("metric-exact-class-label-read", "read", lambda folder, modules: "overall_f1 {}".format(
        modules["exact"].compute(predictions=IDS["predictions"], references=IDS["references"],
                                   label_list=_class_label())["overall_f1"]), "overall_f1 1.0", door="metric"),
]

# ----------------------------------------------------------------------------------- item 3: offsets in other units
# Posts as a social-media NER set holds them: the gold in code points (a Python tool), the predictions exported from
# a web annotation tool that counts UTF-16 code units, as JavaScript does (past 🇵🇹, 😍😍, 🛍 or 🎂🎈 its offsets run
# ahead); accented names for offsets in UTF-8 bytes.
POSTS = [
    ("p1", "Just landed in [Lisbon|LOC] 🇵🇹 and off to meet [Ana Costa|PER] at [Web Summit|MISC] tomorrow!"),
    ("p2", "[Taylor Swift|PER] sold out [Wembley|LOC] again 😍😍 and [Ticketmaster|ORG] crashed twice."),
    ("p3", "Coffee with [Marco Rossi|PER] from [Ferrari|ORG] in [Maranello|LOC] this morning."),
    ("p4", "[Real Madrid|ORG] beat [Barcelona|ORG] and [Vinícius Júnior|PER] scored at the [Bernabéu|LOC] 🎉"),
    ("p5", "Reading [Haruki Murakami|PER] on the train to [Kyoto|LOC], best trip with [JR West|ORG]."),
    ("p6", "New [Apple|ORG] store opens in [Dubai|LOC] 🛍️ next week, says [Tim Cook|PER] ✨ on [Twitter|ORG]."),
    ("p7", "[NASA|ORG] and [ESA|ORG] confirm the [Ariane 6|MISC] launch from [Kourou|LOC] on Friday."),
    ("p8", "Happy birthday [Lena Meyer|PER] 🎂🎈 from all of us at [Siemens|ORG] [Munich|LOC]! See you tonight."),
]
MISSED = {("p2", "Ticketmaster"), ("p3", "Maranello"), ("p5", "JR West"), ("p7", "Kourou")}
SPURIOUS = {"p3": ("Coffee", "ORG"), "p5": ("train", "MISC"), "p7": ("Friday", "DATE")}


def _post(template: str) -> tuple[str, list[tuple[int, int, str]]]:
    text, spans = "", []
    for piece in re.split(r"(\[[^]]+\])", template):
        if piece.startswith("["):
            name, label = piece[1:-1].split("|")
            spans.append((len(text), len(text) + len(name), label))
            text += name
        else:
            text += piece
    return text, spans


def utf16(text: str, offset: int) -> int:
    return len(text[:offset].encode("utf-16-le")) // 2


def utf8(text: str, offset: int) -> int:
    return len(text[:offset].encode("utf-8"))


def _records(unit: Callable[[str, int], int] | None, predicted: bool, claimed: bool = False) -> str:
    """The posts as text-span JSON lines: the gold (``predicted=False``) or the predictions (23 right, 4 missed, 3
    spurious), offsets counted by ``unit`` (code points when None), each entity with its text when ``claimed``."""
    lines = []
    for ident, template in POSTS:
        text, spans = _post(template)
        if predicted:
            spans = [span for span in spans if (ident, text[span[0]:span[1]]) not in MISSED]
            if ident in SPURIOUS:
                word, label = SPURIOUS[ident]
                spans.append((text.index(word), text.index(word) + len(word), label))
        count = unit or (lambda _, offset: offset)
        entities = [{"start": count(text, s), "end": count(text, e), "label": label,
                     **({"text": text[s:e]} if claimed else {})} for s, e, label in spans]
        lines.append({"id": ident, "text": text, "entities": entities})
    return jl(*lines)


def _brat(unit: Callable[[str, int], int] | None) -> dict[str, str]:
    """The gold posts as a brat folder, offsets counted by ``unit`` (as a Java annotation tool exports brat: UTF-16)."""
    files = {}
    for ident, template in POSTS:
        text, spans = _post(template)
        count = unit or (lambda _, offset: offset)
        files[f"{ident}.txt"] = text
        files[f"{ident}.ann"] = "".join(f"T{k}\t{label} {count(text, s)} {count(text, e)}\t{text[s:e]}\n"
                                        for k, (s, e, label) in enumerate(spans, 1))
    return files


def _pipeline(unit: Callable[[str, int], int]) -> str:
    """The gold posts as aggregated pipeline output whose offsets ``unit`` counts (transformers.js: UTF-16)."""
    lines = []
    for ident, template in POSTS:
        text, spans = _post(template)
        lines.append({"id": ident, "text": text, "entities": [
            {"entity_group": label, "score": 0.98, "word": text[s:e].lower(), "start": unit(text, s),
             "end": unit(text, e)} for s, e, label in spans]})
    return jl(*lines)


POSTS_FILES = {"g.jsonl": _records(None, False), "p.jsonl": _records(utf16, True)}
OFFSETS_CLI = "--offsets takes a unit, codepoints, utf16, bytes, or gold=UNIT and pred=UNIT joined by a comma"
JS = "UTF-16 code units (as JavaScript and Java tools count: an emoji is 2)"
CONCERT = "Loved the concert 🎶🎶 by Adele"
CASES += [
    # the case: entities without their text, so nothing can tell; read as UTF-16 code units, the right F1
    cli("offsets-utf16-read-as-code-points", "read", "score --gold {tmp}/g.jsonl --pred {tmp}/p.jsonl --json",
        '  "overall_f1": 0.6415094339622641,', POSTS_FILES),
    cli("offsets-utf16-score", "read", "score --gold {tmp}/g.jsonl --pred {tmp}/p.jsonl --offsets pred=utf16 --json",
        '  "overall_f1": 0.8679245283018868,', POSTS_FILES),
    cli("offsets-utf16-lenient", "read", "lenient --gold {tmp}/g.jsonl --pred {tmp}/p.jsonl --offsets pred=utf16",
        "  strict     0.8846     0.8519     0.8679     23      0      0      4      3", POSTS_FILES),
    cli("offsets-utf16-nested", "read", "nested --gold {tmp}/g.jsonl --pred {tmp}/p.jsonl --offsets pred=utf16",
        "predictions: {tmp}/p.jsonl (text, characters; character offsets, end exclusive: UTF-16 code units read as "
        "code points)", POSTS_FILES),
    cli("offsets-utf16-benchmark", "read", "benchmark --gold {tmp}/g.jsonl --pred a={tmp}/p.jsonl --offsets "
        "pred=utf16 --bootstrap 20 --no-progress", "| a | 23 | 0 | 0 | 0 | 4 | 3 |", POSTS_FILES),
    cli("offsets-utf16-both-sides-named", "read", "score --gold {tmp}/g.jsonl --pred {tmp}/p.jsonl --offsets "
        "gold=codepoints,pred=utf16 --json", '  "overall_f1": 0.8679245283018868,', POSTS_FILES),
    # entities that carry their text (a Label Studio export): only UTF-16 code units cover it, so it is said
    cli("offsets-utf16-text-says-so", "refused", "score --gold {tmp}/g.jsonl --pred {tmp}/p.jsonl", (
        "{tmp}/p.jsonl: 6 entities whose text differs from the text at their offsets (first: {tmp}/p.jsonl, line 1: "
        f"text 'Ana Costa' where the document reads 'a Costa a'); every entity covers its own text as {JS}, not as "
        "code points: read the offsets with --offsets pred=utf16 (offsets={'pred': 'utf16'} in Python)"),
        {"g.jsonl": _records(None, False), "p.jsonl": _records(utf16, True, claimed=True)}),
    cli("offsets-utf16-text-read", "read", "score --gold {tmp}/g.jsonl --pred {tmp}/p.jsonl --offsets pred=utf16 "
        "--json", '  "overall_f1": 0.8679245283018868,',
        {"g.jsonl": _records(None, False), "p.jsonl": _records(utf16, True, claimed=True)}),
    # a span that fits only as UTF-16 code units (it ends past the text in code points)
    cli("offsets-utf16-fit-says-so", "refused", "nested --gold {tmp}/g.jsonl --pred {tmp}/p.jsonl", (
        "{tmp}/p.jsonl, line 1: span (26, 31, 'PER') is out of range; spans need 0 <= start < end and end <= 29 (the "
        f"text's length in characters) (position 1 in the document); every entity fits its text as {JS}, not as "
        "code points: read the offsets with --offsets pred=utf16 (offsets={'pred': 'utf16'} in Python)"),
        {"g.jsonl": jl(doc("t1", CONCERT, (24, 29, "PER"))), "p.jsonl": jl(doc("t1", CONCERT, (26, 31, "PER")))}),
    cli("offsets-utf16-fit-read", "read", "nested --gold {tmp}/g.jsonl --pred {tmp}/p.jsonl --offsets pred=utf16 "
        "--json", '  "overall_f1": 1.0,',
        {"g.jsonl": jl(doc("t1", CONCERT, (24, 29, "PER"))), "p.jsonl": jl(doc("t1", CONCERT, (26, 31, "PER")))}),
    # UTF-8 bytes: accented names run the offsets ahead by one a letter
    cli("offsets-bytes-says-so", "refused", "score --gold {tmp}/g.jsonl --pred {tmp}/p.jsonl", (
        "{tmp}/p.jsonl, line 4: span (63, 72, 'LOC') is out of range; spans need 0 <= start < end and end <= 71 (the "
        "text's length in characters) (position 4 in the document); every entity fits its text as UTF-8 bytes (é is "
        "2, 中 is 3), not as code points: read the offsets with --offsets pred=bytes (offsets={'pred': 'bytes'} in "
        "Python)"), {"g.jsonl": _records(None, False), "p.jsonl": _records(utf8, False)}),
    cli("offsets-bytes-read", "read", "score --gold {tmp}/g.jsonl --pred {tmp}/p.jsonl --offsets pred=bytes --json",
        '  "overall_f1": 1.0,', {"g.jsonl": _records(None, False), "p.jsonl": _records(utf8, False)}),
    cli("offsets-bytes-inside-a-letter", "refused", "score --gold {tmp}/g.jsonl --pred {tmp}/p.jsonl --offsets "
        "pred=bytes", (
        "{tmp}/p.jsonl, line 1: offset 4 falls inside 'é', a character of 2 UTF-8 bytes; offsets fall between "
        "characters"), {"g.jsonl": jl(doc("d1", "José", (0, 4, "PER"))), "p.jsonl": jl(doc("d1", "José", (0, 4, "PER")))}),
    cli("offsets-utf16-inside-an-emoji", "refused", "score --gold {tmp}/g.jsonl --pred {tmp}/p.jsonl --offsets "
        "pred=utf16", (
        "{tmp}/p.jsonl, line 1: offset 19 falls inside '🎶', a character of 2 UTF-16 code units; offsets fall "
        "between characters"),
        {"g.jsonl": jl(doc("t1", CONCERT)), "p.jsonl": jl(doc("t1", CONCERT, (19, 30, "PER")))}),
    cli("offsets-utf16-past-the-end", "refused", "score --gold {tmp}/g.jsonl --pred {tmp}/p.jsonl --offsets "
        "pred=utf16", (
        "{tmp}/p.jsonl, line 1: offset 40 is past the end of the text, 31 UTF-16 code units long"),
        {"g.jsonl": jl(doc("t1", CONCERT)), "p.jsonl": jl(doc("t1", CONCERT, (26, 40, "PER")))}),
    # a text that differs for another reason than the unit: counted and warned, as before
    cli("offsets-mismatch-of-no-unit-warned", "counted", "score --gold {tmp}/g.jsonl --pred {tmp}/p.jsonl", (
        "nested-span-f1 score: warning: 1 entity whose text differs from the text at its offsets (first: "
        "{tmp}/p.jsonl, line 1: text 'Adèle' where the document reads 'Adele'); the offsets are scored"),
        {"g.jsonl": jl(doc("t1", CONCERT, (24, 29, "PER"))),
         "p.jsonl": jl({"id": "t1", "text": CONCERT, "entities": [{"start": 24, "end": 29, "label": "PER",
                                                                  "text": "Adèle"}]})}),
    # brat exported by a Java tool (UTF-16), and transformers.js pipeline output (UTF-16)
    cli("offsets-brat-utf16-says-so", "refused", "score --gold {tmp}/g.jsonl --pred {tmp}/b", (
        "{tmp}/b: 7 entities whose text differs from the text at their offsets (first: {tmp}/b/p1.ann, line 2: text "
        f"'Ana Costa' where the document reads 'a Costa a'); every entity covers its own text as {JS}, not as code "
        "points: read the offsets with --offsets pred=utf16 (offsets={'pred': 'utf16'} in Python)"),
        {"g.jsonl": _records(None, False), **{f"b/{k}": v for k, v in _brat(utf16).items()}}),
    cli("offsets-brat-utf16-read", "read", "score --gold {tmp}/g.jsonl --pred {tmp}/b --offsets pred=utf16 --json",
        '  "overall_f1": 1.0,', {"g.jsonl": _records(None, False), **{f"b/{k}": v for k, v in _brat(utf16).items()}}),
    cli("offsets-brat-utf16-convert", "read", "convert {tmp}/b --to text --output {tmp}/t.jsonl --offsets utf16", (
        "{tmp}/b (brat) -> {tmp}/t.jsonl (text): 8 documents, 27 entities (0 discontinuous); brat standoff, offsets "
        "in UTF-16 code units read as code points: 27 T lines: 27 entities, 0 event triggers"),
        {f"b/{k}": v for k, v in _brat(utf16).items()}),
    cli("offsets-brat-utf16-agreement", "read", "agreement a={tmp}/a b={tmp}/b --offsets utf16 --bootstrap 20", (
        "b read as brat standoff, offsets in UTF-16 code units read as code points: 27 T lines: 27 entities, 0 event "
        "triggers"), {**{f"a/{k}": v for k, v in _brat(utf16).items()}, **{f"b/{k}": v for k, v in _brat(utf16).items()}}),
    cli("offsets-pipeline-utf16-says-so", "refused", "score --gold {tmp}/g.jsonl --pred {tmp}/p.jsonl", (
        "{tmp}/p.jsonl: 7 entities whose word differs from the text at their offsets (first: {tmp}/p.jsonl, line 1: "
        f"word 'ana costa' where the document reads 'a Costa a'); every entity covers its own text as {JS}, not as "
        "code points: read the offsets with --offsets pred=utf16 (offsets={'pred': 'utf16'} in Python)"),
        {"g.jsonl": _records(None, False), "p.jsonl": _pipeline(utf16)}),
    cli("offsets-pipeline-utf16-read", "read", "score --gold {tmp}/g.jsonl --pred {tmp}/p.jsonl --offsets pred=utf16 "
        "--json", '  "overall_f1": 1.0,', {"g.jsonl": _records(None, False), "p.jsonl": _pipeline(utf16)}),
    # the option where it does nothing, or misspelled
    cli("offsets-on-column-files", "refused", "score --gold {tmp}/g.conll --pred {tmp}/g.conll --offsets utf16", (
        "--offsets utf16 reads the character offsets of text spans, pipeline output and brat, but neither --gold nor "
        "--pred is one; leave it out"), {"g.conll": "Lisbon B-LOC\n"}),
    cli("offsets-on-the-side-of-tokens", "refused", "score --gold {tmp}/g.conll --pred {tmp}/p.jsonl --offsets "
        "gold=utf16", (
        "--offsets gold=utf16 reads the character offsets of text spans, pipeline output and brat, but --gold "
        "{tmp}/g.conll is not one; leave it out"),
        {"g.conll": "Lisbon B-LOC\n", "p.jsonl": jl(doc("d1", "Lisbon", (0, 6, "LOC")))}),
    cli("offsets-unknown-unit", "refused", "score --gold {tmp}/g.jsonl --pred {tmp}/p.jsonl --offsets utf8", (
        f"argument --offsets: {OFFSETS_CLI}; got 'utf8' (see nested-span-f1 score --help)"), POSTS_FILES),
    cli("offsets-side-unknown", "refused", "score --gold {tmp}/g.jsonl --pred {tmp}/p.jsonl --offsets system=utf16", (
        f"argument --offsets: {OFFSETS_CLI}; got 'system=utf16' (see nested-span-f1 score --help)"), POSTS_FILES),
    cli("offsets-agreement-side", "refused", "agreement a={tmp}/a b={tmp}/b --offsets pred=utf16", (
        "argument --offsets: --offsets takes a unit, codepoints, utf16, bytes; got 'pred=utf16' (see nested-span-f1 "
        "agreement --help)"), {**{f"a/{k}": v for k, v in _brat(utf16).items()}}),
    # the Python API
    api("api-read_corpus-offsets-utf16", "read", _read_corpus("p.jsonl", offsets="utf16"), (
        "text: [[(36, 45, 'PER'), (49, 59, 'MISC')]]"),
        files={"p.jsonl": jl(doc("p1", _post(POSTS[0][1])[0], (38, 47, "PER"), (51, 61, "MISC")))}),
    api("api-read_corpus-offsets-on-tokens", "refused", _read_corpus("o.jsonl", offsets="utf16"), (
        "offsets='utf16' (--offsets utf16) reads the character offsets of text spans, pipeline output and brat, but "
        "{tmp}/o.jsonl holds oneie; leave it out"),
        files={"o.jsonl": jl({"tokens": ["Lisbon"], "entity_mentions": []})}),
    api("api-read_corpus-offsets-unknown", "refused", _read_corpus("p.jsonl", offsets="utf8"), (
        "offsets must be one of codepoints, utf16, bytes, got 'utf8'"), files=POSTS_FILES),
    api("api-read_corpus-says-so", "refused", _read_corpus("p.jsonl"), (
        "{tmp}/p.jsonl: 6 entities whose text differs from the text at their offsets (first: {tmp}/p.jsonl, line 1: "
        f"text 'Ana Costa' where the document reads 'a Costa a'); every entity covers its own text as {JS}, not as "
        "code points: read the offsets with --offsets utf16 (offsets='utf16' in Python)"),
        files={"p.jsonl": _records(utf16, True, claimed=True)}),
    api("api-benchmark-offsets", "read", lambda folder: benchmark(
        folder / "g.jsonl", {"js": folder / "p.jsonl"}, offsets={"pred": "utf16"}, n_resamples=20,
        progress=False).systems[0]["f1"]["value"], "0.8679245283018868", files=POSTS_FILES),
]

# ------------------------------------------------------------------------------ item 12: files that are not UTF-8 text
CONLL = "Lisbon B-LOC\nis O\n\nAna B-PER\nCosta I-PER\n"
EVAL = "Lisbon NNP B-LOC B-LOC\nis VBZ O O\n\nAna NNP B-PER B-PER\nCosta NNP I-PER I-PER\n"
UTF16 = "{tmp}/g.conll, line 1: the file is UTF-16 text, not UTF-8 text; save it as UTF-8"
STDIN16 = "<stdin>, line 1: the file is UTF-16 text, not UTF-8 text; save it as UTF-8"
CASES += [
    cli("columns-utf16", "refused", "score --gold {tmp}/g.conll --pred {tmp}/p.conll", UTF16,
        {"g.conll": CONLL.encode("utf-16"), "p.conll": CONLL}),
    cli("columns-utf16-le-without-byte-order-mark", "refused", "score --gold {tmp}/g.conll --pred {tmp}/p.conll",
        UTF16, {"g.conll": CONLL.encode("utf-16-le"), "p.conll": CONLL}),
    cli("columns-utf16-be-without-byte-order-mark", "refused", "score --gold {tmp}/g.conll --pred {tmp}/p.conll",
        UTF16, {"g.conll": CONLL.encode("utf-16-be"), "p.conll": CONLL}),
    cli("columns-utf16-chinese", "refused", "score --gold {tmp}/g.conll --pred {tmp}/p.conll", UTF16,
        {"g.conll": "北 B-LOC\n京 I-LOC\n".encode("utf-16"), "p.conll": CONLL}),
    cli("columns-utf16-prediction", "refused", "score --gold {tmp}/p.conll --pred {tmp}/g.conll", UTF16,
        {"g.conll": CONLL.encode("utf-16"), "p.conll": CONLL}),
    cli("columns-nul-byte", "refused", "score --gold {tmp}/g.conll --pred {tmp}/p.conll", (
        "{tmp}/g.conll, line 4: a NUL byte ('\\x00'), which UTF-8 text never holds: the file is not UTF-8 text; save "
        "it as UTF-8"), {"g.conll": CONLL.replace("Ana", "A\x00na"), "p.conll": CONLL}),
    cli("columns-utf16-lenient", "refused", "lenient --gold {tmp}/g.conll --pred {tmp}/p.conll", UTF16,
        {"g.conll": CONLL.encode("utf-16-le"), "p.conll": CONLL}),
    cli("columns-utf16-convert", "refused", "convert {tmp}/g.conll --to text --output {tmp}/t.jsonl", UTF16,
        {"g.conll": CONLL.encode("utf-16")}),
    api("api-read_columns-utf16", "refused", lambda folder: read_columns(folder / "g.conll"),
        UTF16, files={"g.conll": CONLL.encode("utf-16-le")}),
    cli("conlleval-utf16", "refused", "conlleval", STDIN16, stdin=EVAL.encode("utf-16")),
    cli("conlleval-utf16-le-without-byte-order-mark", "refused", "conlleval", STDIN16, stdin=EVAL.encode("utf-16-le")),
    cli("conlleval-utf16-chinese", "refused", "conlleval", STDIN16, stdin="北 NR B-LOC B-LOC\n".encode("utf-16")),
    cli("conlleval-nul-byte", "refused", "conlleval", (
        "<stdin>, line 2: a NUL byte ('\\x00'), which UTF-8 text never holds: the file is not UTF-8 text; save it as "
        "UTF-8"), stdin=EVAL.replace("is VBZ", "is\x00 VBZ").encode()),
    cli("conlleval-lone-carriage-returns", "refused", "conlleval", (
        "<stdin>, line 1: the line ends in a lone \\r (classic Mac line ends), which conlleval.pl does not read as a "
        "line end (it reads the whole file as one line); convert the file first (mac2unix, or tr '\\r' '\\n')"),
        stdin=EVAL.replace("\n", "\r").encode()),
    cli("conlleval-latin1-still-read", "read", "conlleval", (
        "accuracy: 100.00%; precision: 100.00%; recall: 100.00%; FB1: 100.00"),
        stdin=EVAL.replace("Lisbon", "Lisboa\xe3o").encode("latin-1")),
]

# ------------------------------------------------------------------------------------ item 13: both sides through pipes


def piped(id: str, verdict: str, command: str, expected: str, files: dict[str, Any]) -> Case:
    """A command run by bash with its files through pipes, ``<(cat g.jsonl)``, as the issue ran it: its refusal
    without the command's prefix, or the figures of its ``--json``."""
    def call(folder: Path) -> Any:
        line = _fill(re.sub(r"\{(\w+\.\w+)\}", lambda m: f"<(cat {folder / m.group(1)})", command), folder)
        done = subprocess.run(["bash", "-c", f"{sys.executable} -m nested_span_f1.cli {line} --json"],
                              capture_output=True, text=True, timeout=120, check=False)
        if done.returncode:
            raise ValueError(re.sub(r"^nested-span-f1 \w+: error: ", "", done.stderr.strip()))
        result = json.loads(done.stdout)
        return f"tp {result.get('tp', result.get('strict_correct'))}, f1 {result.get('overall_f1', result.get('strict_f1'))}"
    return api(id, verdict, call, expected, files=files)


TWO_DOCS = jl(doc("d1", STAFF, (0, 12, "PER"), (20, 27, "ORG")), doc("d2", "Ana lives in Porto.", (13, 18, "LOC")))
PIPED = {"g.jsonl": TWO_DOCS, "p.jsonl": TWO_DOCS, "g.conll": CONLL, "p.conll": CONLL}
CASES += [
    piped("pipes-score-texts", "read", "score --gold {g.jsonl} --pred {p.jsonl}", "tp 3, f1 1.0", PIPED),
    piped("pipes-score-columns", "read", "score --gold {g.conll} --pred {p.conll}", "tp 2, f1 1.0", PIPED),
    piped("pipes-score-texts-against-a-file", "read", "score --gold {g.jsonl} --pred " + "{tmp}/p.jsonl",
          "tp 3, f1 1.0", PIPED),
    piped("pipes-lenient-texts", "read", "lenient --gold {g.jsonl} --pred {p.jsonl}", "tp 3, f1 1.0", PIPED),
    piped("pipes-score-utf16-named", "read", "score --gold {g.jsonl} --pred {p.jsonl} --offsets pred=utf16",
          "tp 23, f1 0.8679245283018868", {"g.jsonl": _records(None, False), "p.jsonl": _records(utf16, True)}),
]

# ------------------------------------------------------------------------ item 16: the evaluate modules name the side
DOC = {"text": STAFF, "entities": [{"start": 0, "end": 12, "label": "PER"}]}
BEYOND = {"text": STAFF, "entities": [{"start": 0, "end": 99, "label": "PER"}]}
CASES += [
    metric("metric-nested-answers-reference-beyond", "refused", "nested", ["Maria Keller (PER)"], [BEYOND], (
        "references, sentence 0: span {'start': 0, 'end': 99, 'label': 'PER'} is out of range; spans need 0 <= start "
        "< end and end <= 76 (the text's length in characters) (position 0 in the sentence)")),
    metric("metric-lenient-answers-reference-beyond", "refused", "lenient", ["Maria Keller (PER)"], [BEYOND], (
        "references, sentence 0: span {'start': 0, 'end': 99, 'label': 'PER'} is out of range; spans need 0 <= start "
        "< end and end <= 76 (the text's length in characters) (position 0 in the sentence)")),
    metric("metric-nested-answers-reference-text-a-number", "refused", "nested",
           [[{"text": "Maria Keller", "label": "PER"}]], [{"text": 3, "entities": []}], (
        "references, sentence 0: 'text' must be a string, got 3"), TypeError),
    metric("metric-nested-answers-reference-extra-key", "refused", "nested", ["Maria Keller (PER)"],
           [{**DOC, "id": "d1"}], (
        "references, sentence 0: a text has the keys 'text' and 'entities' and nothing else, got ['entities', 'id', "
        "'text']")),
    metric("metric-nested-scored-reference-tuples", "refused", "nested",
           [[{"start": 0, "end": 2, "label": "PER", "score": 0.9}]], [[(0, 2, "PER")]], (
        "references, sentence 0, span 0: (0, 2, 'PER') is not a span; spans are {'start', 'end', 'label'} dicts"),
           TypeError),
]

# ---------------------------------------------------------------------- evaluate's multi-process protocol, for real
TAG_P = [["B-PER", "I-PER", "O"], ["B-LOC"]]
TAG_R = [["B-PER", "O", "O"], ["B-LOC"]]
SPAN_P = [[{"start": 0, "end": 2, "label": "PER"}], [{"start": 0, "end": 1, "label": "LOC"}]]
SPAN_R = [[{"start": 0, "end": 1, "label": "PER"}], [{"start": 0, "end": 1, "label": "LOC"}]]


SCENARIOS: dict[str, Any] = {}
"""Each ranks case's scenario (:class:`evaluate_ranks.Scenario`), all run by the same two processes."""


def ranks(id: str, verdict: str, name: str, per_rank: list[Any], expected: str, error: type[Exception] = ValueError,
          timeout: float = 60) -> Case:
    """A case of two real processes (:func:`evaluate_ranks.run_scenarios`): rank 0's figures, or its error."""
    from evaluate_ranks import Scenario

    SCENARIOS[id] = Scenario(name, per_rank, {"zero_division": 0}, timeout)

    def call(folder: Path, outcomes: dict[str, Any]) -> Any:
        got = outcomes[id]
        outcome_, value = got[0]
        if outcome_ != "result":
            raise {"TypeError": TypeError, "ValueError": ValueError}.get(outcome_, RuntimeError)(value)
        assert all(got[rank] == ("result", None) for rank in got if rank), got
        key = "strict_f1" if name == "lenient" else "overall_f1"
        return f"{key} {value[key]}" + (f", overall_accuracy {value['overall_accuracy']}"
                                        if "overall_accuracy" in value else "")
    return api(id, verdict, call, expected, error, door="ranks")


MIXED = "give every batch in one form"
CASES += [
    # a rank of empty sentences: the score over both ranks, as one process gives it (0.5, 3 of 4 tokens)
    ranks("ranks-exact-empty-sentences", "read", "exact", [[(TAG_P, TAG_R)], [([[]], [[]])]],
          "overall_f1 0.5, overall_accuracy 0.75"),
    ranks("ranks-exact-empty-sentences-on-rank-0", "read", "exact", [[([[]], [[]])], [(TAG_P, TAG_R)]],
          "overall_f1 0.5, overall_accuracy 0.75"),
    ranks("ranks-nested-empty-sentences", "read", "nested", [[(SPAN_P, SPAN_R)], [([[]], [[]])]],
          "overall_f1 0.5"),
    ranks("ranks-lenient-empty-sentences", "read", "lenient", [[(SPAN_P, SPAN_R)], [([[]], [[]])]],
          "strict_f1 0.5"),
    # two kinds: refused as one process refuses them
    ranks("ranks-exact-tags-and-ids", "refused", "exact", [[(TAG_P, TAG_R)], [([[1, 2, 0]], [[1, 2, 0]])]], (
        f"process 1 added label ids (integers) but process 0 added tags (strings); {MIXED}"), TypeError),
    ranks("ranks-nested-spans-and-documents", "refused", "nested", [[(SPAN_P, SPAN_R)], [([DOC], [DOC])]], (
        "process 1 added texts ({'text', 'entities'} dicts, a document each) but process 0 added spans ({'start', "
        f"'end', 'label'}} dicts); {MIXED}"), TypeError),
    ranks("ranks-lenient-documents-and-empty-sentences", "refused", "lenient",
          [[([DOC], [DOC])], [([[]], [[]])]], (
        "process 1 added empty sentences ([], no document) but process 0 added texts ({'text', 'entities'} dicts, a "
        f"document each); {MIXED}"), TypeError),
    # a rank that adds nothing, or never comes
    ranks("ranks-exact-nothing-added", "refused", "exact", [[(TAG_P, TAG_R)], []], (
        "process 1 (process_id=1 of num_process=2) added nothing before compute: in evaluate's distributed mode every "
        "process adds its share of the sentences, then calls compute (a process with none to add adds an empty "
        "sentence, predictions=[[]], references=[[]])")),
    ranks("ranks-nested-rank-never-comes", "refused", "nested", [[(SPAN_P, SPAN_R)], None], (
        "process 1 (process_id=1 of num_process=2) did not add anything within 3 s; in evaluate's distributed mode "
        "every process adds its share of the sentences, then calls compute (raise timeout= when a process takes "
        "longer)"), timeout=3),
]


@pytest.fixture(scope="module")
def outcomes() -> dict[str, Any]:
    """What each rank got in every scenario, run once by two real processes."""
    pytest.importorskip("evaluate")
    from evaluate_ranks import run_scenarios

    return dict(zip(SCENARIOS, run_scenarios(list(SCENARIOS.values()))))


# ------------------------------------------------------------------------------------------------------ running a case

FIXTURES = {"metric": "metrics", "ranks": "outcomes"}
"""The doors whose calls take a fixture, and its name."""


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_case(case, tmp_path, capsys, monkeypatch, request):
    fixtures = {case.door: request.getfixturevalue(FIXTURES[case.door])} if case.door in FIXTURES else {}
    check(case, *outcome(case, tmp_path, capsys, monkeypatch, fixtures))


def test_the_catalogue_covers_every_family():
    assert len({case.id for case in CASES}) == len(CASES) and {case.verdict for case in CASES} <= set(VERDICTS)
    families = {case.id.split("-")[0] for case in CASES}
    assert families >= {"brat", "label", "offsets", "columns", "conlleval", "pipes", "metric", "ranks", "api"}
