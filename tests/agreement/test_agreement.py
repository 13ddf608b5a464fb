"""agreement(): pairwise F1 is the metrics' own, every figure a sum of the same counts, documents paired as stated.

docs/DESIGN.md, 'Agreement between annotators'. Kappa and alpha against the reference packages: test_chance.py;
the brat corpora with a simulated second annotator: test_brat_agreement.py.
"""
import json
import warnings
from fractions import Fraction
from itertools import combinations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from nested_span_f1 import Corpus, read_corpus, sample_path, score_lenient, score_nested, write_corpus
from nested_span_f1.agreement import agreement
from nested_span_f1.agreement.report import to_text
from nested_span_f1.align import join_tokens
from nested_span_f1.benchmark.stats import interval, resample_indices
from nested_span_f1.cli.main import main
from nested_span_f1.core.matching import DuplicateSpanWarning

KEYS = ("f1", "precision", "recall", "tp", "fp", "fn")


def scorers(second, first):
    """The exact, lenient and untyped figures of ``second`` scored against ``first`` by the metrics themselves,
    in agreement's shape (None where neither marks anything)."""
    nested = score_nested(second, first, zero_division=0)
    lenient = score_lenient(second, first, zero_division=0)
    marked = nested["tp"] + nested["fp"] + nested["fn"] > 0

    def shaped(prefix, tp, fp, fn):
        values = [nested_or(prefix, m) if marked else None for m in ("f1", "precision", "recall")]
        return dict(zip(KEYS, [*values, tp, fp, fn]))

    def nested_or(prefix, metric):
        source = lenient if prefix == "type" else nested
        return source[f"{prefix}_{metric}"]

    untyped_first = len({(k, s[:2]) for k, sentence in enumerate(first) for s in sentence})
    untyped_second = len({(k, s[:2]) for k, sentence in enumerate(second) for s in sentence})
    untyped_tp = len({(k, s[:2]) for k, sentence in enumerate(first) for s in sentence}
                     & {(k, s[:2]) for k, sentence in enumerate(second) for s in sentence})
    return {
        "exact": shaped("overall", nested["tp"], nested["fp"], nested["fn"]),
        "lenient": shaped("type", lenient["type_correct"], lenient["type_actual"] - lenient["type_correct"],
                          lenient["type_possible"] - lenient["type_correct"]),
        "untyped": shaped("untyped", untyped_tp, untyped_second - untyped_tp, untyped_first - untyped_tp),
    }


def block(result, mode):
    return result if mode == "exact" else result[mode]


spans = st.sets(st.tuples(st.integers(0, 5), st.integers(1, 3), st.sampled_from("AB"))
                .map(lambda t: (t[0], t[0] + t[1], t[2])), max_size=4).map(sorted)
annotated = st.integers(2, 4).flatmap(lambda n: st.lists(st.lists(spans, min_size=n, max_size=n), min_size=2,
                                                         max_size=6))


@given(annotated)
def test_pairwise_f1_is_the_scorers_on_each_pair(documents):
    """Every pair's exact, lenient and untyped figures, overall, per type and per document, are score_nested's
    and score_lenient's on that pair (the second set as predictions of the first), whichever way round."""
    n_sets = len(documents[0])
    sets = [[doc[k] for doc in documents] for k in range(n_sets)]
    if not all(any(side) for side in sets):
        with pytest.raises(ValueError, match="no annotation in any of its"):
            agreement([Corpus([["t"] * 8] * len(documents), side) for side in sets])
        return
    corpora = {f"S{k}": Corpus([["t"] * 8] * len(documents), side, [f"d{d}" for d in range(len(documents))])
               for k, side in enumerate(sets)}
    result = agreement(corpora, n_resamples=20)
    for (a, first), (b, second) in combinations(list(zip(corpora, sets)), 2):
        key = f"{a}|{b}"
        expected = scorers(second, first)
        for mode in ("exact", "lenient", "untyped"):
            assert block(result, mode)["pairwise"][key] == expected[mode], (key, mode)
            # F1 is symmetric: the other way round gives the same F1, precision and recall swapped
            other = scorers(first, second)[mode]
            assert other["f1"] == expected[mode]["f1"]
            assert (other["precision"], other["recall"]) == (expected[mode]["recall"], expected[mode]["precision"])
        for d in range(len(documents)):
            alone = scorers([second[d]], [first[d]])
            for mode in ("exact", "lenient", "untyped"):
                assert block(result, mode)["per_document"][f"d{d}"]["pairwise"][key] == alone[mode]
        for label in "AB":
            typed = scorers([[s for s in doc if s[2] == label] for doc in second],
                            [[s for s in doc if s[2] == label] for doc in first])
            for mode in ("exact", "lenient"):
                figures = block(result, mode)["per_type"]
                got = figures[label]["pairwise"][key] if label in figures else None
                assert got == (typed[mode] if label in figures else None)
    pairs = list(result["pairwise"].values())
    defined = [p["f1"] for p in pairs if p["f1"] is not None]
    assert result["mean_f1"]["value"] == sum(defined) / len(defined)


def hand_made():
    """Three annotators of three sentences: nested spans, a boundary, a type and a missing disagreement."""
    tokens = [["IL-2", "gene", "expression", "in", "T", "cells"], ["NF-kappa", "B", "binds", "DNA"],
              ["No", "entity", "here"]]
    ids = ["s1", "s2", "s3"]
    a = [[(0, 2, "DNA"), (0, 1, "protein"), (4, 6, "cell_type")], [(0, 2, "protein"), (3, 4, "DNA")], []]
    b = [[(0, 2, "DNA"), (0, 1, "protein"), (5, 6, "cell_type")], [(0, 2, "DNA")], []]
    c = [[(0, 2, "DNA"), (4, 6, "cell_type")], [(0, 2, "protein"), (3, 4, "DNA")], [(1, 2, "protein")]]
    return {name: Corpus(tokens, side, ids) for name, side in zip("ABC", (a, b, c))}


def test_three_annotators_by_hand():
    result = agreement(hand_made(), n_resamples=200, seed=1)
    assert result["annotators"] == ["A", "B", "C"]
    assert result["documents"] == {"scored": 3, "resampled": "sentences", "units": 3, "left_out": {},
                                   "paired": "id", "word": "sentence",
                                   "marked_nothing": {"A": ["s3"], "B": ["s3"], "C": []}}
    assert result["pairwise"] == {
        "A|B": {"f1": 0.4444444444444445, "precision": 0.5, "recall": 0.4, "tp": 2, "fp": 2, "fn": 3},
        "A|C": {"f1": 0.8000000000000002, "precision": 0.8, "recall": 0.8, "tp": 4, "fp": 1, "fn": 1},
        "B|C": {"f1": 0.22222222222222224, "precision": 0.2, "recall": 0.25, "tp": 1, "fp": 4, "fn": 3},
    }
    assert result["mean_f1"]["value"] == (0.4444444444444445 + 0.8000000000000002 + 0.22222222222222224) / 3
    # B's cell_type [5, 6) overlaps A's and C's [4, 6): lenient credits it
    assert [result["lenient"]["pairwise"][k]["tp"] for k in ("A|B", "A|C", "B|C")] == [3, 4, 2]
    # B's DNA on [0, 2) of s2 has A's and C's boundaries: untyped credits it
    assert [result["untyped"]["pairwise"][k]["tp"] for k in ("A|B", "A|C", "B|C")] == [3, 4, 2]
    assert result["per_type"]["cell_type"]["pairwise"]["A|B"] == {
        "f1": 0.0, "precision": 0.0, "recall": 0.0, "tp": 0, "fp": 1, "fn": 1}
    assert result["per_type"]["cell_type"]["mean_f1"] == (0.0 + 1.0 + 0.0) / 3
    # s3: only C marks something; A|B has nothing to agree on there
    assert result["per_document"]["s3"]["pairwise"]["A|B"]["f1"] is None
    assert result["per_document"]["s3"]["mean_f1"] == 0.0
    assert result["disagreements"] == {
        "A|B": {"boundary": 1, "type": 1, "boundary_and_type": 0, "missing": 1},
        "A|C": {"boundary": 0, "type": 0, "boundary_and_type": 0, "missing": 2},
        "B|C": {"boundary": 1, "type": 1, "boundary_and_type": 0, "missing": 3},
    }
    assert result["kappa_unit"] == "tokens" and result["kappa_positions"] == 13
    assert result["alpha_positions"] == 13
    assert set(result["cohen_kappa"]) == {"A|B", "A|C", "B|C"}


def test_a_document_some_set_lacks_is_listed_and_left_out(tmp_path):
    """A document one set lacks is named with the sets that hold it; every figure is the one of the documents all
    hold, never the one of the missing document scored as empty."""
    sets = hand_made()
    shorter = Corpus(sets["B"].tokens[:2], sets["B"].entities[:2], ["s1", "s2"])
    result = agreement({"A": sets["A"], "B": shorter, "C": sets["C"]}, n_resamples=50)
    assert result["documents"]["left_out"] == {"s3": ["A", "C"]}
    assert result["documents"]["scored"] == 2
    kept = {name: Corpus(c.tokens[:2], c.entities[:2], ["s1", "s2"]) for name, c in sets.items()}
    same = agreement(kept, n_resamples=50)
    for key in ("pairwise", "mean_f1", "per_type", "per_document", "lenient", "untyped", "cohen_kappa",
                "fleiss_kappa", "krippendorff_alpha", "disagreements"):
        assert result[key] == same[key], key
    # scored as empty it would differ: C's span in s3 would be a disagreement with B
    assert result["pairwise"]["B|C"]["fp"] == same["pairwise"]["B|C"]["fp"] == 3


def test_alpha_partial_counts_the_documents_two_annotators_hold():
    krippendorff = pytest.importorskip("krippendorff")
    sets = hand_made()
    shorter = Corpus(sets["B"].tokens[:2], sets["B"].entities[:2], ["s1", "s2"])
    result = agreement({"A": sets["A"], "B": shorter, "C": sets["C"]}, n_resamples=20, alpha_partial=True)
    plain = agreement({"A": sets["A"], "B": shorter, "C": sets["C"]}, n_resamples=20)
    assert result["alpha_positions"] == 13 and plain["alpha_positions"] == 10
    assert result["fleiss_kappa"] == plain["fleiss_kappa"] and result["pairwise"] == plain["pairwise"]
    names = {"O": 0, "B-DNA|B-protein": 1, "I-DNA": 2, "B-cell_type": 3, "I-cell_type": 4, "B-protein": 5,
             "I-protein": 6, "B-DNA": 7}
    a = "B-DNA|B-protein I-DNA O O B-cell_type I-cell_type B-protein I-protein O B-DNA O O O".split()
    b = "B-DNA|B-protein I-DNA O O O B-cell_type B-DNA I-DNA O O".split() + [None] * 3
    c = "B-DNA I-DNA O O B-cell_type I-cell_type B-protein I-protein O B-DNA O B-protein O".split()
    data = [[np.nan if x is None else names[x] for x in row] for row in (a, b, c)]
    expected = krippendorff.alpha(reliability_data=data, level_of_measurement="nominal")
    assert result["krippendorff_alpha"] == pytest.approx(expected, rel=1e-13)


def test_bootstrap_interval_is_the_mean_f1_of_rescored_resamples():
    """The interval of the mean pairwise F1 is the percentile interval of the mean of the pairs' F1 re-scored by
    score_nested on each resample of the units (the benchmark's draws, the same seed)."""
    sets = hand_made()
    result = agreement(sets, n_resamples=60, seed=4)
    draws = resample_indices(3, 60, seed=4)
    means = []
    for row in draws:
        f1s = [score_nested([sets[b].entities[u] for u in row], [sets[a].entities[u] for u in row],
                            zero_division=0)["overall_f1"] for a, b in (("A", "B"), ("A", "C"), ("B", "C"))]
        means.append(sum(f1s) / 3)
    low, high = interval(np.array(means))
    assert result["mean_f1"]["low"] == pytest.approx(low, abs=1e-15)
    assert result["mean_f1"]["high"] == pytest.approx(high, abs=1e-15)


def test_reference_and_models():
    sets = hand_made()
    model = Corpus(sets["A"].tokens, [[(0, 2, "DNA")], [(0, 2, "protein")], []], ["s1", "s2", "s3"])
    result = agreement(sets, reference="A", models={"crf": model}, n_resamples=100)
    reference = result["reference"]
    assert reference["name"] == "A" and reference["is_annotator"]
    assert list(reference["annotators"]) == ["B", "C"] and list(reference["models"]) == ["crf"]
    for name, corpus in (("B", sets["B"]), ("C", sets["C"]), ("crf", model)):
        row = reference["annotators" if name != "crf" else "models"][name]
        expected = scorers(corpus.entities, sets["A"].entities)
        for mode in ("exact", "lenient", "untyped"):
            assert {k: row[mode][k] for k in KEYS} == expected[mode]
            low, high = row[mode]["interval"]
            assert low <= row[mode]["f1"] <= high
    assert reference["models"]["crf"]["exact"]["f1"] == 2 * (2 / 2) * (2 / 5) / (2 / 2 + 2 / 5)
    assert reference["annotator_mean_f1"]["exact"]["value"] == (0.4444444444444445 + 0.8000000000000002) / 2
    # the agreement figures stay those of the three annotators
    assert result["pairwise"] == agreement(sets, n_resamples=100)["pairwise"]
    # a reference of its own is no annotator
    own = agreement({"B": sets["B"], "C": sets["C"]}, reference={"gold": sets["A"]}, n_resamples=20)
    assert own["annotators"] == ["B", "C"] and not own["reference"]["is_annotator"]
    assert own["reference"]["annotators"]["B"]["exact"]["f1"] == 0.4444444444444445


def test_examples_show_each_group_with_context():
    result = agreement(hand_made(), n_resamples=20, examples=1)
    shown = result["examples"]["A|B"]
    assert shown["boundary"] == [{"document": "s1", "spans": {"A": [4, 6, "cell_type", "T cells"],
                                                              "B": [5, 6, "cell_type", "cells"]},
                                  "context": "IL-2 gene expression in T cells"}]
    assert shown["type"] == [{"document": "s2", "spans": {"A": [0, 2, "protein", "NF-kappa B"],
                                                          "B": [0, 2, "DNA", "NF-kappa B"]},
                              "context": "NF-kappa B binds DNA"}]
    assert shown["missing"] == [{"document": "s2", "spans": {"A": [3, 4, "DNA", "DNA"], "B": None},
                                 "context": "NF-kappa B binds DNA"}]
    assert shown["boundary_and_type"] == []
    more = agreement(hand_made(), n_resamples=20, examples=5)["examples"]
    assert [len(more["A|B"]["missing"]), len(more["A|C"]["missing"]), len(more["B|C"]["missing"])] == [1, 2, 3]
    assert [e["spans"] for e in more["A|C"]["missing"]] == [{"A": [0, 1, "protein", "IL-2"], "C": None},
                                                             {"A": None, "C": [1, 2, "protein", "entity"]}]


def conll_text(corpus):
    """A token corpus of flat spans as CoNLL columns (token, IOB2 tag)."""
    blocks = []
    for tokens, spans in zip(corpus.tokens, corpus.entities):
        tags = ["O"] * len(tokens)
        for start, end, label in spans:
            tags[start:end] = [f"B-{label}"] + [f"I-{label}"] * (end - start - 1)
        blocks.append("".join(f"{token}\t{tag}\n" for token, tag in zip(tokens, tags)))
    return "\n".join(blocks)


def test_mixed_formats_agree_when_the_texts_do(tmp_path):
    """A brat folder against text spans of the same texts, and CoNLL tokens against texts: the figures of the
    same spans given in one format (every figure then in characters)."""
    sets = hand_made()
    texts = {name: join_tokens(corpus) for name, corpus in sets.items()}
    write_corpus(texts["A"], tmp_path / "a", "brat")
    write_corpus(texts["B"], tmp_path / "b.jsonl", "text")
    mixed = agreement({"A": str(tmp_path / "a"), "B": str(tmp_path / "b.jsonl")}, n_resamples=30)
    plain = agreement({"A": texts["A"], "B": texts["B"]}, n_resamples=30)
    assert mixed["kappa_unit"] == plain["kappa_unit"] == "characters"
    assert mixed["notes"]["formats"] == {"A": "brat", "B": "text"}
    for key in ("pairwise", "lenient", "untyped", "cohen_kappa", "per_document", "documents"):
        assert mixed[key] == plain[key], key
    # tokens against texts: the column file carries no ids, so documents pair by position; its tokens are located
    # in the texts and its spans turned into characters
    flat_c = Corpus(sets["C"].tokens, [[(0, 2, "DNA"), (4, 6, "cell_type")], [(0, 2, "protein"), (3, 4, "DNA")], []])
    (tmp_path / "c.conll").write_text(conll_text(flat_c))
    located = agreement({"B": str(tmp_path / "b.jsonl"), "C": str(tmp_path / "c.conll")}, n_resamples=30)
    joined = agreement({"B": Corpus(texts["B"].texts, texts["B"].entities, unit="characters"),
                        "C": join_tokens(flat_c)}, n_resamples=30)
    assert located["kappa_unit"] == "characters"
    for key in ("pairwise", "lenient", "untyped", "cohen_kappa", "per_document"):
        assert located[key] == joined[key], key


def test_texts_that_differ_are_refused_naming_the_document_and_character(tmp_path):
    sets = hand_made()
    a = join_tokens(sets["A"])
    b = Corpus([a.texts[0], a.texts[1].replace("binds", "bound"), a.texts[2]],
               [[(0, 9, "DNA")], [(0, 10, "DNA")], []], ["s1", "s2", "s3"], unit="characters")
    with pytest.raises(ValueError, match=r"document 's2': texts differ at offset 12 between A \(20 characters, "
                                         r"'inds DNA'\) and B \(20 characters, 'ound DNA'\)"):
        agreement({"A": a, "B": b})
    tokens = Corpus([sets["B"].tokens[0], ["NF-kappa", "B", "bound", "DNA"], sets["B"].tokens[2]],
                    sets["B"].entities, ["s1", "s2", "s3"])
    with pytest.raises(ValueError, match=r"document 's2': tokens differ at position 2 between A \(4 tokens, "
                                         r"\['binds', 'DNA'\]\) and B \(4 tokens, \['bound', 'DNA'\]\)"):
        agreement({"A": sets["A"], "B": tokens})
    with pytest.raises(ValueError, match=r"annotator B, document 's2': token 2 \('bound'\) is not found at character "
                                         "11 of the text"):
        agreement({"A": a, "B": tokens})


def test_duplicates_are_removed_counted_and_warned_about_once():
    sets = hand_made()
    twice = Corpus(sets["B"].tokens, [[*sets["B"].entities[0], (0, 2, "DNA")], *sets["B"].entities[1:]],
                   ["s1", "s2", "s3"])
    with pytest.warns(DuplicateSpanWarning, match=r"removed duplicate spans \(same document, start, end and type; "
                                                  r"B 1\)") as caught:
        result = agreement({"A": sets["A"], "B": twice}, n_resamples=20)
    assert len(caught) == 1
    assert result["notes"]["duplicates"] == {"A": 0, "B": 1}
    assert result["pairwise"] == agreement({"A": sets["A"], "B": sets["B"]}, n_resamples=20)["pairwise"]


def test_sample_second_annotator_through_the_command(capsys):
    """docs/agreement.md's command on the samples: the text report and --json, which is agreement()'s result."""
    gold, second = sample_path("nested.gold.jsonl"), sample_path("nested.annotator2.jsonl")
    code = main(["agreement", f"first={gold}", f"second={second}", "--json", "--bootstrap", "200"])
    out, err = capsys.readouterr()
    assert (code, err) == (0, "")
    result = json.loads(out)
    assert result == json.loads(json.dumps(agreement({"first": gold, "second": second}, n_resamples=200)))
    assert main(["agreement", f"first={gold}", f"second={second}", "--bootstrap", "200"]) == 0
    out = capsys.readouterr().out
    assert out == to_text(result)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        read_corpus(second)


def test_a_type_marked_only_in_documents_left_out_is_no_type_of_the_figures():
    tokens = [["a", "b"], ["c", "d"]]
    first = Corpus(tokens, [[(0, 1, "X")], [(0, 2, "ONLY")]], ["1", "2"])
    second = Corpus(tokens[:1], [[(0, 1, "X")]], ["1"])
    third = Corpus(tokens, [[(0, 1, "X")], [(1, 2, "ONLY")]], ["1", "2"])
    result = agreement([first, second, third], n_resamples=10, alpha_partial=True)
    assert list(result["per_type"]) == list(result["lenient"]["per_type"]) == ["X"]
    assert result["documents"]["left_out"] == {"2": ["A", "C"]}
    assert result["fleiss_kappa"] == 1.0
    # alpha counts document 2 among A and C (B-ONLY I-ONLY against O B-ONLY) beside document 1 (B-X and O three
    # times): 10 values, 6 coincidences of a value with itself, 30 = 3² + 4² + 2² + 1² by category
    assert (result["alpha_positions"], result["krippendorff_alpha"]) == (4, float(1 - Fraction(9 * (10 - 6), 100 - 30)))
