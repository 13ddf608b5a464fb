"""Checkpoint discovery: random run directories against the rule stated once, here, in plain Python.

A run directory holds ``checkpoint-STEP`` files and folders (steps zero-padded or
not) next to unrelated entries; each file holds predictions of the gold's kind,
predictions of the other kind, or something else (a log, metrics, a
configuration, a vocabulary, model weights, nothing). The rule: a file of the
gold's kind is a checkpoint's predictions whatever its name, unless its name names
the other split (a word starting with ``test``, or with ``dev``/``valid``/``eval``), and
with ``named`` only when its name names the split asked for; in a folder, one such
file (those named ``*pred*`` first, then among those the one naming the part
asked for) is the step's, several are refused; a step with two prediction files
is refused naming both; a folder with none is refused unless its step has
predictions elsewhere (naming the files of the other split when it holds only
those); no predictions at all is refused. Everything else is passed over.
"""
from __future__ import annotations

import re
import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from nested_span_f1.benchmark.inputs import PARTS, SPANS, TAGS, checkpoints, holds
from nested_span_f1.benchmark.systems import list_systems
from nested_span_f1.formats import FORMATS

ONEIE = (b'{"tokens": ["IL-2", "gene"], "entity_mentions": [{"start": 0, "end": 2, "entity_type": "DNA"}]}\n'
         b'{"tokens": ["T", "cells"], "entity_mentions": []}\n')
CONTENTS = {
    "oneie": (SPANS, ONEIE),
    "triaffine": (SPANS, FORMATS["triaffine"].example().encode()),
    "shibuya": (SPANS, FORMATS["shibuya"].example().encode()),
    "columns": (TAGS, b"IL-2 B-DNA\ngene I-DNA\n\nT O\ncells O\n"),
    "log": (None, b"step 500: loss 0.3125, eval_f1 0.5\nstep 1000: loss 0.25, eval_f1 0.6\n"),
    "metrics": (None, b'{"eval_f1": 0.5, "epoch": 1.0}\n'),
    "config": (None, b'{\n  "model_type": "bert",\n  "hidden_size": 8\n}\n'),
    "vocab": (None, b"[PAD]\n[UNK]\nIL-2\ngene\n"),
    "weights": (None, b"\x00\x08\x00\x00\x00\x00\x00\x00{}\x00\x01"),
    "empty": (None, b""),
}
"""Each content: what it holds (:func:`holds`) and its bytes."""


def test_holds_tells_each_content():
    with tempfile.TemporaryDirectory() as folder:
        for name, (kind, content) in CONTENTS.items():
            path = Path(folder) / name
            path.write_bytes(content)
            assert holds(path) == kind, name


def test_holds_reads_a_long_first_record_to_its_end():
    """A json list whose first record is longer than the excerpt read first is still told by its shape."""
    sentence = '{"tokens": [' + ", ".join(['"w"'] * 40_000) + '], "entities": [{"start": 0, "end": 1, "type": "X"}]}'
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "predictions.json"
        path.write_text(f"[{sentence}]")
        assert path.stat().st_size > 2 ** 17 and holds(path) == SPANS


names = st.sampled_from(["predictions.jsonl", "test_predictions.txt", "dev_predictions.jsonl", "out.json", "preds",
                         "eval.txt", "x.conll", "validation-preds.json", "latest.jsonl"])
folder_files = st.dictionaries(names, st.sampled_from(sorted(CONTENTS)), max_size=4)
entry = st.one_of(
    st.tuples(st.just("file"), st.sampled_from([".jsonl", ".json", ".log", ".conll", ".txt", ".pred.jsonl", "",
                                                 ".dev.jsonl", ".test.jsonl"]),
              st.sampled_from(sorted(CONTENTS))),
    st.tuples(st.just("folder"), st.just(""), folder_files),
)
steps = st.dictionaries(st.sampled_from([0, 5, 500, 1000]),
                        st.lists(st.tuples(st.booleans(), entry), min_size=1, max_size=3), max_size=3)
unrelated = st.lists(st.sampled_from(["notes.txt", "checkpoint-x.jsonl", "checkpoint-5a", "runs/predictions.jsonl",
                                      "checkpoint.jsonl", "trainer_state.json"]), unique=True, max_size=3)


def build(root: Path, tree: dict, others: list[str]) -> list[tuple[int, str, Path, dict[str, str] | str]]:
    """Write the run directory; ``(step, name, path, contents)`` of every checkpoint entry written."""
    written = []
    for step, items in tree.items():
        for padded, (what, suffix, contents) in items:
            name = f"checkpoint-{step:04d}" if padded else f"checkpoint-{step}"
            path = root / (name + suffix)
            if path.exists():
                continue
            if what == "folder":
                path.mkdir()
                for file, content in contents.items():
                    (path / file).write_bytes(CONTENTS[content][1])
            else:
                path.write_bytes(CONTENTS[contents][1])
            written.append((step, name, path, contents))
    for other in others:
        (root / other).parent.mkdir(parents=True, exist_ok=True)
        (root / other).write_bytes(ONEIE)
    return written


def naming(name: str, part: str) -> bool:
    return any(word.startswith(PARTS[part]) for word in re.split("[^a-z]+", name.lower()))


def allowed(name: str, part: str, named: bool) -> bool:
    other = "dev" if part == "test" else "test"
    return not naming(name, other) and (naming(name, part) or not named)


def expected(written: list, kind: str, part: str,
             named: bool = False) -> tuple[list[tuple[str, int, Path]], list[list[Path]]]:
    """The rule: the checkpoints found, and the problems (each the paths its refusal must name)."""
    sources: dict[int, list[tuple[str, Path]]] = {}
    bare: list[tuple[int, Path]] = []
    problems = []
    for step, name, path, contents in written:
        if isinstance(contents, dict):
            found = sorted(path / f for f, content in contents.items()
                           if CONTENTS[content][0] == kind and allowed(f, part, named))
            if len(found) > 1:
                found = [p for p in found if "pred" in p.name] or found
            if len(found) > 1:
                found = [p for p in found if naming(p.name, part)] or found
            if len(found) > 1:
                problems.append([path])
            elif found:
                sources.setdefault(step, []).append((name, found[0]))
            else:
                bare.append((step, path))
        elif CONTENTS[contents][0] == kind and allowed(path.name, part, named):
            sources.setdefault(step, []).append((name, path))
    problems += [[path for _, path in found] for found in sources.values() if len(found) > 1]
    problems += [[path] for step, path in bare if step not in sources]
    if not sources:
        problems.append([])
    return [(found[0][0], step, found[0][1]) for step, found in sorted(sources.items())], problems


@given(tree=steps, others=unrelated, kind=st.sampled_from([SPANS, TAGS]), part=st.sampled_from(sorted(PARTS)),
       named=st.booleans())
def test_discovery_follows_the_rule_on_random_runs(tree, others, kind, part, named):
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        written = build(root, tree, others)
        found, problems = expected(written, kind, part, named)
        if not problems:
            assert checkpoints(root, kind, part, named) == found
            # the API given the directory by a name, and the command's --pred run=DIR, go through one function
            systems = list_systems({"run": root}, kind, part, named=named)
            assert systems == [(f"run/{name}", "run", step, path) for name, step, path in found]
            return
        with pytest.raises(ValueError) as refused:
            checkpoints(root, kind, part, named)
        message = str(refused.value)
        assert any(all(str(path) in message for path in paths) for paths in problems), (message, problems)
