"""Standard splits: both GENIA test splits recognised and named, a trimmed gold recognised as none, the warning."""
import warnings

import pytest

from nested_span_f1.benchmark.compare import benchmark
from nested_span_f1.benchmark.splits import SPLITS, UnknownSplitWarning, dataset_named, recognise
from nested_span_f1.formats import Corpus, read_corpus


def run(gold, **options):
    return benchmark(gold, {"gold": gold}, n_resamples=5, progress=False, **options)


@pytest.mark.parametrize("path, part, name, counts", [
    ("genia/genia-classic.test.w2ner.json", "test", "classic sentence split", (1854, 48179, 5506)),
    ("genia/genia-docsplit.test.jsonl", "test", "document split of Yan et al. (2022)", (1732, 46873, 5119)),
    ("genia/genia-classic.dev.w2ner.json", "dev", "classic sentence split", (1669, 43419, 5365)),
    ("genia/genia-docsplit.dev.jsonl", "dev", "document split of Yan et al. (2022)", (1765, 45495, 4714)),
], ids=["classic test", "document test", "classic dev", "document dev"])
def test_both_genia_splits_are_recognised_and_named(shared_data, path, part, name, counts):
    with warnings.catch_warnings():
        warnings.simplefilter("error", UnknownSplitWarning)
        result = run(shared_data / path, dataset="GENIA")
    split = result.settings["split"]
    assert (split["dataset"], split["part"], split["name"]) == ("GENIA", part, name)
    assert split["matched_on"] == ["sentences", "tokens", "entities"]
    assert result.settings["gold_counts"] == dict(zip(("sentences", "tokens", "entities"), counts))
    assert (f"Gold: GENIA {part}, {name}, as in {split['as_in']} ({counts[0]:,} sentences, {counts[1]:,} tokens, "
            f"{counts[2]:,} entities; recognised by its sentence, token and entity counts).") in result.to_markdown()


def test_a_gold_with_sentences_removed_is_no_known_split_and_naming_genia_warns_once(shared_data):
    full = read_corpus(shared_data / "genia/genia-docsplit.test.jsonl")
    trimmed = Corpus(full.tokens[:-1], full.entities[:-1], full.sentence_ids[:-1], full.doc_ids[:-1], source="trimmed")
    result = run(trimmed)  # no dataset named: nothing to warn about
    assert result.settings["split"] is None
    lost = len(full.entities[-1])
    counts = {"sentences": 1731, "tokens": 46873 - len(full.tokens[-1]), "entities": 5119 - lost}
    assert result.settings["gold_counts"] == counts
    assert (f"Gold: no known standard split (1,731 sentences, {counts['tokens']:,} tokens, {counts['entities']:,} "
            "entities).") in result.to_markdown()
    with pytest.warns(UnknownSplitWarning) as caught:
        run(trimmed, dataset="genia")
    assert len(caught) == 1
    message = str(caught[0].message)
    assert message.startswith(f"the gold (1,731 sentences, {counts['tokens']:,} tokens, {counts['entities']:,} "
                              "entities) is none of the known splits of GENIA (test of the classic sentence split "
                              "(1,854 sentences, 48,179 tokens, 5,506 entities); ")
    assert message.endswith("cannot be compared with papers that report on GENIA")
    assert caught[0].filename == __file__  # attributed to the caller's line


def test_naming_another_dataset_than_the_gold_warns(shared_data):
    with pytest.warns(UnknownSplitWarning, match="is none of the known splits of ACE2005"):
        result = run(shared_data / "genia/genia-docsplit.test.jsonl", dataset="ACE05")
    assert result.settings["split"]["dataset"] == "GENIA"  # what the gold is, still named


def test_a_tag_gold_is_counted_by_its_decoded_chunks(shared_data):
    # PROVENANCE.md: 3453 sentences, 46,435 tokens, 5648 gold entities; CoNLL-2003 is no split of the table
    result = run(shared_data / "conll2003/test.gold.conll", dataset="conll2003")
    assert result.settings["gold_counts"] == {"sentences": 3453, "tokens": 46435, "entities": 5648}
    assert result.settings["split"] is None


def test_span_lists_without_tokens_are_matched_on_what_they_have():
    gold = [[(0, 1, "X")]] * 812
    split = run(gold, dataset="ace2004").settings["split"]
    assert (split["dataset"], split["matched_on"]) == ("ACE2004", ["sentences"])
    assert "recognised by its sentences)." in run(gold).to_markdown()
    assert recognise({"sentences": 812, "tokens": None, "entities": 3}) == [SPLITS[-3]]


def test_names_of_datasets():
    assert [dataset_named(n) for n in ("GENIA", "ace-05", "ACE 2004", "KBP17", "conll2003", None)] == [
        "GENIA", "ACE2005", "ACE2004", "KBP2017", None, None]


def test_every_split_has_a_source_and_known_counts():
    for split in SPLITS:
        assert split.source and split.as_in and split.counts
        assert set(split.counts) <= {"sentences", "tokens", "entities"}
    keys = [(s.dataset, s.name, s.part) for s in SPLITS]
    assert len(keys) == len(set(keys))
