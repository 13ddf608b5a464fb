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
    as_in = "" if split["as_in"] in name else f", as in {split['as_in']}"  # never "of Yan et al., as in Yan et al."
    assert (f"Gold: GENIA {part}, {name}{as_in} ({counts[0]:,} sentences, {counts[1]:,} tokens, "
            f"{counts[2]:,} entities; recognised by its sentence, token and entity counts).") in result.to_markdown()
    assert result.to_markdown().count("Yan et al. (2022)") <= 1


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


def test_naming_another_dataset_than_the_gold_warns_and_names_no_split(shared_data):
    with pytest.warns(UnknownSplitWarning) as caught:
        result = run(shared_data / "genia/genia-docsplit.test.jsonl", dataset="ACE05")
    assert len(caught) == 1
    message = str(caught[0].message)
    assert "is none of the known splits of ACE2005" in message
    assert message.endswith("; its counts are those of GENIA test, document split of Yan et al. (2022)")
    assert result.settings["split"] is None  # the report names no other dataset than the one named
    assert "Gold: no known standard split (1,732 sentences" in result.to_markdown()


def test_a_sentence_count_alone_names_no_split(shared_data):
    """QA: 812 GENIA sentences with --dataset-name GENIA were reported as "ACE2004 test, commonly used
    preprocessing" on their sentence count alone."""
    genia = read_corpus(shared_data / "genia/genia-docsplit.test.jsonl")
    head = Corpus(genia.tokens[:812], genia.entities[:812], genia.sentence_ids[:812], genia.doc_ids[:812],
                  source="g812.jsonl")
    with pytest.warns(UnknownSplitWarning, match="is none of the known splits of GENIA"):
        named_genia = run(head, dataset="GENIA")
    assert named_genia.settings["split"] is None
    assert "ACE2004" not in named_genia.to_markdown()
    unnamed = run(head)  # no dataset named: only a match on every count names a split
    assert unnamed.settings["split"] is None and "ACE2004" not in unnamed.to_markdown()
    with warnings.catch_warnings():
        warnings.simplefilter("error", UnknownSplitWarning)
        ace = run(head, dataset="ACE2004")  # the dataset named: its sentence count is said to match, no more
    split = ace.settings["split"]
    assert (split["dataset"], split["matched_on"], split["unchecked"]) == ("ACE2004", ["sentences"],
                                                                          ["tokens", "entities"])
    assert ("Gold: sentence count matches ACE2004 test (812) in the commonly used preprocessing; tokens and entities "
            "not checked, so the gold is not named as that split (812 sentences, ") in ace.to_markdown()


def test_a_tag_gold_is_counted_by_its_decoded_chunks_and_conll_2003_test_is_recognised(shared_data):
    # PROVENANCE.md: 3453 sentences, 46,435 tokens, 5648 gold entities, the counts of the shared task's paper
    result = run(shared_data / "conll2003/test.gold.conll", dataset="conll2003")
    assert result.settings["gold_counts"] == {"sentences": 3453, "tokens": 46435, "entities": 5648}
    split = result.settings["split"]
    assert (split["dataset"], split["part"], split["matched_on"]) == ("CoNLL-2003", "test", ["sentences", "tokens",
                                                                                             "entities"])
    assert ("Gold: CoNLL-2003 test, English shared-task split, as in Tjong Kim Sang and De Meulder (2003) (3,453 "
            "sentences, 46,435 tokens, 5,648 entities; recognised by its sentence, token and entity counts).") in \
        result.to_markdown()
    assert run(shared_data / "conll2003/test.gold.conll").settings["split"]["dataset"] == "CoNLL-2003"


def test_span_lists_without_tokens_are_matched_on_what_they_have_and_never_named():
    gold = [[(0, 1, "X")]] * 812
    split = run(gold, dataset="ace2004").settings["split"]
    assert (split["dataset"], split["matched_on"], split["unchecked"]) == ("ACE2004", ["sentences"],
                                                                          ["tokens", "entities"])
    assert "Gold: no known standard split (812 sentences, 812 entities)." in run(gold).to_markdown()
    assert recognise({"sentences": 812, "tokens": None, "entities": 3}) == []
    # a gold without tokens matched on its other counts of a split with all three: said, not named
    genia = [[(0, 1, "X")]] * 1732
    genia[0] = [(0, 1, "X")] * 1 + [(k, k + 1, "Y") for k in range(1, 5119 - 1731)]
    split = run(genia, dataset="genia").settings["split"]
    assert (split["name"], split["matched_on"], split["unchecked"]) == (
        "document split of Yan et al. (2022)", ["sentences", "entities"], ["tokens"])
    assert "Gold: sentence and entity counts match GENIA test (1,732, 5,119) in the document split" in \
        run(genia, dataset="genia").to_markdown()


def test_a_dataset_name_without_known_splits_names_none(shared_data):
    with warnings.catch_warnings():
        warnings.simplefilter("error", UnknownSplitWarning)
        result = run(shared_data / "genia/genia-docsplit.test.jsonl", dataset="BioNLP")
    assert result.settings["split"] is None


def test_names_of_datasets():
    assert [dataset_named(n) for n in ("GENIA", "ace-05", "ACE 2004", "KBP17", "conll2003", "CoNLL-2003 test",
                                       "GENIA-doc", "mygenia", None)] == [
        "GENIA", "ACE2005", "ACE2004", "KBP2017", "CoNLL-2003", "CoNLL-2003", "GENIA", None, None]


def test_every_split_has_a_source_and_known_counts():
    for split in SPLITS:
        assert split.source and split.as_in and split.counts
        assert set(split.counts) <= {"sentences", "tokens", "entities"}
        # counts with no source we could read are said to be unverified, never attributed to this project
        assert "issue" not in split.source
        assert split.source.startswith("unverified") or set(split.counts) == {"sentences", "tokens", "entities"}
    keys = [(s.dataset, s.name, s.part) for s in SPLITS]
    assert len(keys) == len(set(keys))
