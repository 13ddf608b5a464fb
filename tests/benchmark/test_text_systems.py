"""The benchmark with text systems: lengths count the gold's unit (tokens of a token gold, the systems' character
spans measured in its tokens; characters of a text gold), and the report and its error browser draw them."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from nested_span_f1 import Corpus, tags_to_spans
from nested_span_f1.align import join_tokens
from nested_span_f1.benchmark.compare import benchmark
from nested_span_f1.benchmark.html import browser_data
from nested_span_f1.cli.main import main
from nested_span_f1.formats.columns import read_columns

FIGURES = ("f1", "per_type", "errors", "buckets", "by_nesting", "tp", "predicted", "gold")


def _tokens(path):
    columns = read_columns(path)
    return Corpus(columns.tokens, tags_to_spans(columns.column()), source=str(path))


def test_a_text_system_against_token_gold_is_benchmarked_as_its_tokens(shared_data):
    """CoNLL-2003: ELMo's output as text spans beside Flair's tags gives every figure ELMo's tokens give (entity
    lengths in gold tokens, lenient error categories, per type), and the same error browser."""
    folder = shared_data / "conll2003"
    gold, elmo, flair = (_tokens(folder / f"test.{name}.conll") for name in ("gold", "elmo", "flair"))
    options = {"n_resamples": 50, "progress": False}
    tokens = benchmark(gold, {"elmo": elmo, "flair": flair}, **options)
    texts = benchmark(gold, {"elmo": join_tokens(elmo), "flair": flair}, **options)
    for by_tokens, by_texts in zip(tokens.systems, texts.systems):
        assert {k: by_texts[k] for k in FIGURES} == {k: by_tokens[k] for k in FIGURES}, by_texts["name"]
    assert texts.systems[0]["buckets"]["entity_length"]["1"]["number"] == 3574  # gold entities of one token
    assert texts.settings["gold_counts"] == tokens.settings["gold_counts"] == {
        "sentences": 3453, "tokens": 46435, "entities": 5648}
    assert browser_data(texts.to_dict(), texts.sentences) == browser_data(tokens.to_dict(), tokens.sentences)
    assert "Entity length (tokens)" in texts.to_html()


TEXT = "Peter Blackburn visited Paris ."
GOLD = Corpus([TEXT.split()], [[(0, 2, "PER"), (3, 4, "LOC")]], ["d1"], source="gold")


def test_a_span_cut_inside_a_token_counts_the_tokens_it_touches():
    """'Blackbur' ends inside a gold token: it cannot match, its length is the 2 tokens it touches, and the browser
    draws it under them (the gold tokens, with the gold spans where they are)."""
    pred = Corpus([TEXT], [[(0, 14, "PER"), (24, 29, "LOC")]], ["d1"], source="pred", unit="characters")
    result = benchmark(GOLD, {"pred": pred, "gold": GOLD}, n_resamples=50, progress=False)
    lengths = result.systems[0]["buckets"]["entity_length"]
    assert {name: (row["number"], row["predicted"]) for name, row in lengths.items()} == {"1": (1, 1), "2": (1, 1)}
    assert result.systems[0]["tp"] == 1 and result.systems[0]["errors"]["boundary_error"] == 1
    data = browser_data(result.to_dict(), result.sentences)
    assert data["tokens"] == [TEXT.split()]
    assert data["systems"][0]["pred"] == data["systems"][1]["pred"] == data["gold"] == [[[0, 2, 1], [3, 4, 0]]]
    assert result.to_html()


def test_a_text_gold_counts_characters():
    """A gold of texts has no tokens: entity lengths in characters, no sentence buckets, characters counted."""
    gold = Corpus([TEXT], [[(0, 15, "PER"), (24, 29, "LOC")]], ["d1"], source="gold", unit="characters")
    pred = Corpus([TEXT], [[(0, 15, "PER"), (24, 27, "LOC")]], ["d1"], source="pred", unit="characters")
    result = benchmark(gold, {"pred": pred, "tokens": GOLD}, n_resamples=50, progress=False)
    assert result.settings["length_unit"] == "characters"
    assert result.settings["gold_counts"] == {"sentences": 1, "tokens": None, "characters": len(TEXT), "entities": 2}
    buckets = result.systems[0]["buckets"]
    assert list(buckets) == ["entity_length", "nesting_depth"]
    assert {name: row["number"] for name, row in buckets["entity_length"].items()} == {"1-4": 0, "5-9": 1, "10-19": 1}
    html = result.to_html()
    assert "Entity length (characters)" in html and "Entity length (tokens)" not in html
    assert f"{len(TEXT)} characters" in result.to_markdown()


@pytest.mark.parametrize("unit", ["tokens", "characters"])
def test_lenient_ties_count_tokens_in_the_benchmark(unit):
    """Gold LOC 'Florence' and ORG 'Masnada', predicted PER 'Florence Masnada': the lenient error categories of a
    text system settle the tie by shared tokens (as the token path does), not by shared characters (8 for
    'Florence', 7 for 'Masnada'), whatever the gold's unit."""
    tokens = Corpus([["Florence", "Masnada"]], [[(0, 1, "LOC"), (1, 2, "ORG")]], ["d1"], source="gold")
    by_tokens = Corpus(tokens.tokens, [[(0, 2, "PER")]], ["d1"], source="pred")
    expected = benchmark(tokens, {"a": by_tokens, "b": by_tokens}, n_resamples=50, progress=False)
    gold = tokens if unit == "tokens" else join_tokens(tokens)
    pred = Corpus(["Florence Masnada"], [[(0, 16, "PER")]], ["d1"], source="pred", unit="characters")
    result = benchmark(gold, {"a": pred, "b": by_tokens}, n_resamples=50, progress=False)
    shown, wanted = (browser_data(r.to_dict(), r.sentences)["systems"] for r in (result, expected))
    assert [system["cases"] for system in shown] == [system["cases"] for system in wanted]
    assert [system["errors"] for system in result.systems] == [system["errors"] for system in expected.systems]


def test_a_answers_system_beside_tags_is_measured_in_the_gold_tokens():
    """An answer system's located spans are characters over the gold's texts: against a token gold, beside a
    system of tags, their lengths count the gold's tokens and the report draws both (it raised KeyError)."""
    samples = Path(__file__).resolve().parents[2] / "nested_span_f1" / "sample_data"
    result = benchmark(samples / "sample.gold.conll", {"answers": samples / "sample.lists.jsonl",
                                                        "tags": samples / "sample.pred.conll"}, n_resamples=50,
                       progress=False)
    lengths = [{name: row["number"] for name, row in system["buckets"]["entity_length"].items() if row["number"]}
               for system in result.systems]
    assert lengths[0] == lengths[1] == {"1": 8, "2": 17, "3": 3}  # the gold's entities, by their tokens
    data = browser_data(result.to_dict(), result.sentences)
    assert data["systems"][0]["cases"] and "Entity length (tokens)" in result.to_html()


def _brat(folder, documents):
    """A brat folder: per document id its text and its (start, end, label) spans as T lines."""
    folder.mkdir()
    for ident, (text, spans) in documents.items():
        (folder / f"{ident}.txt").write_text(text, encoding="utf-8")
        (folder / f"{ident}.ann").write_text("".join(f"T{k}\t{label} {start} {end}\t{text[start:end]}\n"
                                                     for k, (start, end, label) in enumerate(spans, 1)),
                                             encoding="utf-8")
    return folder


DOCUMENTS = {"d1": ("Peter Blackburn visited Paris .", [(0, 15, "PER"), (24, 29, "LOC")]),
             "d2": ("IL-2 binds the receptor in Basel", [(0, 4, "protein"), (27, 32, "LOC")])}


def _cli(capsys, *args):
    code = main([str(arg) for arg in args])
    out, err = capsys.readouterr()
    return code, out, err


def test_brat_folders_docbins_and_ann_files_are_systems_and_gold(capsys, tmp_path):
    """A folder of .ann files is a brat corpus, not a checkpoint directory: as the gold and as a system, beside a
    DocBin and one .ann file; --types keeps the T lines of the types named."""
    spacy = pytest.importorskip("spacy")
    gold = _brat(tmp_path / "gold", DOCUMENTS)
    nlp, docs = spacy.blank("en"), spacy.tokens.DocBin()
    for ident, (text, spans) in DOCUMENTS.items():
        doc = nlp(text)
        doc.ents = [doc.char_span(start, end, label) for start, end, label in spans]
        doc.user_data["id"] = ident
        docs.add(doc)
    docs.to_disk(tmp_path / "pred.spacy")
    one = _brat(tmp_path / "one", {"d1": DOCUMENTS["d1"]})
    code, out, err = _cli(capsys, "benchmark", "--gold", gold, "--pred", f"brat={gold}", "--pred",
                          f"spacy={tmp_path / 'pred.spacy'}", "--bootstrap", 50, "--no-progress", "--json")
    assert code == 0, err
    result = json.loads(out)
    assert [(s["name"], s["f1"]["value"], s["tp"]) for s in result["systems"]] == [("brat", 1.0, 4), ("spacy", 1.0, 4)]
    assert result["settings"]["length_unit"] == "characters"
    code, out, err = _cli(capsys, "benchmark", "--gold", one / "d1.ann", "--pred", f"ann={one / 'd1.ann'}",
                          "--bootstrap", 50, "--no-progress", "--types", "PER")
    assert code == 0 and "| ann | 100.00 | 100.00 | 100.00 |" in out and "1 gold entities" in out, err
    code, out, err = _cli(capsys, "benchmark", "--gold", gold, "--pred", f"a={gold}", "--bootstrap", 50,
                          "--no-progress", "--gold-format", "brat", "--pred-format", "brat", "--types", "LOC")
    assert code == 0 and "2 gold entities" in out, err


def test_trim_and_snap_are_counted_per_system(tmp_path):
    """--trim and --snap on texts: each system's alignment says what they changed and what could not align."""
    text = DOCUMENTS["d1"][0]
    gold = Corpus([text.split()], [[(0, 2, "PER"), (3, 4, "LOC")]], ["d1"], source="gold")
    pred = Corpus([text], [[(0, 16, "PER"), (24, 27, "LOC")]], ["d1"], source="pred", unit="characters")
    kept = benchmark(gold, {"pred": pred}, n_resamples=50, progress=False, trim=True)
    assert kept.systems[0]["tp"] == 1 and kept.systems[0]["alignment"] == {
        "projected": "predictions", "trim": True, "snap": None, "trimmed_predictions": 1, "trimmed_references": 0,
        "snapped_predictions": 0, "snapped_references": 0, "predictions_boundary_inside_token": 1}
    snapped = benchmark(gold, {"pred": pred}, n_resamples=50, progress=False, trim=True, snap="expand")
    assert snapped.systems[0]["tp"] == 2 and snapped.systems[0]["alignment"]["snapped_predictions"] == 1
    assert benchmark(gold, {"tokens": gold}, n_resamples=50, progress=False).systems[0]["alignment"] is None
    for options, message in (({"trim": True}, "trim (--trim) takes whitespace off"),
                             ({"snap": "expand"}, "no system holds texts against a gold of tokens"),
                             ({"types": ["PER"]}, "types=['PER'] (--types) keeps a brat corpus's T lines"),
                             ({"snap": "sideways"}, "snap")):
        with pytest.raises(ValueError, match=re.escape(message)):
            benchmark(gold, {"tokens": gold}, n_resamples=50, progress=False, **options)
