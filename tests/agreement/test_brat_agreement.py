"""The brat corpora of ../shared/data against a second annotator simulated from them: removed, shifted and retyped
spans move every count by exactly their numbers, in brat folders and text spans alike, and the command agrees."""
import json
import re

import numpy as np
import pytest

from nested_span_f1 import Corpus, read_corpus, write_corpus
from nested_span_f1.agreement import agreement
from nested_span_f1.cli.main import main

CORPORA = {"ncbi-disease": (5, 4, 3, "Chemical"), "bionlp-st-2011-ge": (7, 6, 5, "Gene")}
"""Per corpus: spans removed, shifted one character to the right, given another type (the type)."""


def isolated(corpus):
    """``(document, span)`` of the spans at least two characters from every other span of their document, two
    characters long or more, that still cover no line end when shifted one character to the right."""
    found = []
    for d, (text, spans) in enumerate(zip(corpus.texts, corpus.entities)):
        for span in sorted(set(spans)):
            start, end, _ = span
            alone = all(other == span or other[1] + 2 <= start or end + 2 <= other[0] for other in spans)
            shifted = text[start + 1:end + 1]
            if alone and end - start >= 2 and end < len(text) and "\n" not in shifted and "\r" not in shifted:
                found.append((d, span))
    return found


def simulate(corpus, removed, shifted, retyped, new_type, seed=0):
    """The corpus with ``removed`` isolated spans dropped, ``shifted`` moved one character to the right and
    ``retyped`` given ``new_type``, chosen with a seeded draw."""
    candidates = isolated(corpus)
    picked = np.random.default_rng(seed).choice(len(candidates), removed + shifted + retyped, replace=False)
    change = {candidates[i]: what for i, what in zip(picked.tolist(),
                                                    ["removed"] * removed + ["shifted"] * shifted + ["retyped"] * retyped)}
    entities = []
    for d, spans in enumerate(corpus.entities):
        out = []
        for start, end, label in spans:
            what = change.get((d, (start, end, label)))
            if what == "shifted":
                out.append((start + 1, end + 1, label))
            elif what == "retyped":
                out.append((start, end, new_type))
            elif what is None:
                out.append((start, end, label))
        entities.append(out)
    return Corpus(corpus.texts, entities, corpus.sentence_ids, unit="characters")


@pytest.fixture(params=sorted(CORPORA))
def simulated(request, shared_data, tmp_path):
    folder = shared_data / "brat" / request.param
    original = read_corpus(folder)
    removed, shifted, retyped, new_type = CORPORA[request.param]
    second = simulate(original, removed, shifted, retyped, new_type)
    write_corpus(second, tmp_path / "second", "brat")
    write_corpus(second, tmp_path / "second.jsonl", "text")
    return folder, original, tmp_path, (removed, shifted, retyped)


def test_counts_move_by_the_spans_changed(simulated):
    folder, original, tmp_path, (removed, shifted, retyped) = simulated
    result = agreement({"first": str(folder), "second": str(tmp_path / "second")}, n_resamples=100)
    spans = sum(len(set(doc)) for doc in original.entities)
    bounds = sum(len({s[:2] for s in doc}) for doc in original.entities)
    changed = removed + shifted + retyped
    exact = result["pairwise"]["first|second"]
    assert (exact["tp"], exact["fp"], exact["fn"]) == (spans - changed, shifted + retyped, changed)
    lenient = result["lenient"]["pairwise"]["first|second"]
    assert (lenient["tp"], lenient["fp"], lenient["fn"]) == (spans - removed - retyped, retyped, removed + retyped)
    untyped = result["untyped"]["pairwise"]["first|second"]
    assert (untyped["tp"], untyped["fp"], untyped["fn"]) == (bounds - removed - shifted, shifted, removed + shifted)
    assert result["disagreements"]["first|second"] == {"boundary": shifted, "type": retyped, "boundary_and_type": 0,
                                                       "missing": removed}
    assert result["documents"]["scored"] == len(original) and not result["documents"]["left_out"]
    assert result["kappa_unit"] == "characters" and result["kappa_positions"] == sum(map(len, original.texts))
    assert 0.9 < result["cohen_kappa"]["first|second"] < 1
    # the same second annotator as text spans: brat against text spans of the same texts gives every figure
    mixed = agreement({"first": str(folder), "second": str(tmp_path / "second.jsonl")}, n_resamples=100)
    for key in ("pairwise", "lenient", "untyped", "per_type", "per_document", "cohen_kappa", "krippendorff_alpha",
                "disagreements", "mean_f1"):
        assert mixed[key] == result[key], key


def test_the_command_prints_the_function_result(simulated, capsys):
    folder, _, tmp_path, _ = simulated
    code = main(["agreement", f"first={folder}", f"second={tmp_path / 'second'}", "--json", "--bootstrap", "100"])
    out, err = capsys.readouterr()
    assert (code, err) == (0, "")
    expected = agreement({"first": str(folder), "second": str(tmp_path / "second")}, n_resamples=100)
    assert json.loads(out) == json.loads(json.dumps(expected))


def test_a_text_that_differs_is_refused_naming_the_document_and_character(simulated, capsys):
    folder, original, tmp_path, _ = simulated
    texts = list(original.texts)
    at = texts[3].index(" ", 20)
    texts[3] = texts[3][:at] + "_" + texts[3][at + 1:]
    edited = Corpus(texts, original.entities, original.sentence_ids, unit="characters")
    write_corpus(edited, tmp_path / "edited.jsonl", "text")
    ident = original.sentence_ids[3]
    message = f"document {ident!r}: texts differ at offset {at} between first"
    with pytest.raises(ValueError, match=message):
        agreement({"first": str(folder), "second": str(tmp_path / "edited.jsonl")})
    assert main(["agreement", f"first={folder}", f"second={tmp_path / 'edited.jsonl'}"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith(f"nested-span-f1 agreement: error: {message}") and err.count("\n") == 1


def test_event_triggers_are_compared_as_entities_unless_left_out(shared_data, tmp_path, capsys):
    """BioNLP GE's T lines that E lines use: compared as entities by default (as brat shows them, and as every other
    command reads them), left out with event_triggers=False / --no-event-triggers, each set's reading said."""
    folder = shared_data / "brat" / "bionlp-st-2011-ge"
    kept, without = read_corpus(folder), read_corpus(folder, event_triggers=False)
    write_corpus(without, tmp_path / "entities.jsonl", "text")
    sets = {"brat": str(folder), "entities": str(tmp_path / "entities.jsonl")}
    entities = sum(len(set(doc)) for doc in without.entities)
    triggers = sum(len(set(a) - set(b)) for a, b in zip(kept.entities, without.entities))
    assert (entities, triggers) == (335, 185)
    both = agreement(sets, n_resamples=10)["pairwise"]["brat|entities"]
    assert (both["tp"], both["fp"], both["fn"]) == (entities, 0, triggers)  # B scored as predictions of A
    left_out = agreement(sets, n_resamples=10, event_triggers=False)
    assert left_out["pairwise"]["brat|entities"]["f1"] == 1.0
    assert left_out["notes"]["read"]["brat"] == (
        "brat standoff, character offsets: 520 T lines: 335 entities, 185 event triggers (left out); "
        "read past: 14 *, 244 E, 41 M; 2 empty .ann files (a document no one annotated? it is scored as marking "
        "nothing): 'PMID-7986199', 'PMID-9874515'")
    assert main(["agreement", *(f"{k}={v}" for k, v in sets.items()), "--no-event-triggers", "--bootstrap", "10"]) == 0
    out, err = capsys.readouterr()
    assert err == "" and f"brat read as {left_out['notes']['read']['brat']}\n" in out
    with pytest.raises(ValueError, match=r"^event_triggers=False \(--no-event-triggers\) leaves out a brat corpus's "
                                         r"event triggers, but no set is brat \(a: text, b: text\); leave it out$"):
        write_corpus(without, tmp_path / "copy.jsonl", "text")
        agreement({"a": str(tmp_path / "entities.jsonl"), "b": str(tmp_path / "copy.jsonl")}, event_triggers=False)


def test_types_filter_every_set_or_none(shared_data, tmp_path, capsys):
    """QA of issue 40: --types keeps brat's T lines of those types, so with a set of another format some sets
    would be filtered and others not (every other type a disagreement): refused; a type no T line has says so;
    --spans-key without a DocBin is refused as --no-event-triggers without brat is."""
    folder = shared_data / "brat" / "ncbi-disease"
    write_corpus(read_corpus(folder), tmp_path / "copy.jsonl", "text")
    sets = {"brat": str(folder), "copy": str(tmp_path / "copy.jsonl")}
    with pytest.raises(ValueError, match=r"^types=\['Disease'\] \(--types\) keeps a brat set's T lines of these "
                                         r"types, but copy is not brat \(brat: brat, copy: text\); every set must be "
                                         r"read alike"):
        agreement(sets, types=["Disease"])
    with pytest.raises(ValueError, match=r"^spans_key \(--spans-key\) reads a spaCy DocBin's doc.spans\[spans_key\], "
                                         r"but no set is a DocBin \(brat: brat, copy: text\); leave it out$"):
        agreement(sets, spans_key="sc")
    code = main(["agreement", *(f"{k}={v}" for k, v in sets.items()), "--types", "Disease"])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and err.count("\n") == 1 and "copy is not brat" in err
    copy = tmp_path / "second"
    write_corpus(read_corpus(folder), copy, "brat")
    message = (f"annotator brat ({folder}): no annotation in any of its 20 documents; a set that marks nothing "
               "cannot be compared (--types Symptom kept none of its T lines: brat standoff, character offsets: ")
    with pytest.raises(ValueError, match=re.escape(message)):
        agreement({"brat": str(folder), "second": str(copy)}, types=["Symptom"])
