"""The adjudication view (issue 50 item 2): one row per disputed place with every annotator's spans, T ids and
lines, as JSON, text and a brat folder an adjudicator opens; the label confusion between annotators. The project is
tests/brat_project.py's, every expected row written out by hand from its drawing."""
from __future__ import annotations

import json
import os

import pytest
from brat_project import write_project

from nested_span_f1 import Corpus, read_corpus
from nested_span_f1.agreement import agreement
from nested_span_f1.agreement.disagreements import NOTHING
from nested_span_f1.cli.main import main


@pytest.fixture
def project(tmp_path):
    return write_project(tmp_path / "project")


def span(label, start, end, text, ident, line, fragments=None):
    out = {"label": label, "start": start, "end": end}
    if fragments:
        out["fragments"] = fragments
    return {**out, "text": text, "id": ident, "line": line}


def held(project, name, document, *spans):
    return {"where": str(project / name / f"{document}.ann"), "spans": list(spans)}


def test_one_row_per_disputed_place_with_every_annotator(project):
    result = agreement(str(project), n_resamples=10, adjudication=True)
    found = result["adjudication"]
    # d1's three places and d2's two are disputed; d3's Smith is agreed by all
    assert (found["disputed"], found["agreed"]) == (5, 1)
    assert found["places"][0] == {
        "document": "d1", "start": 0, "end": 18, "text": "Human Rights Watch",
        "annotators": {"A": held(project, "A", "d1", span("ORG", 0, 18, "Human Rights Watch", "T1", 1)),
                       "B": held(project, "B", "d1", span("ORG", 0, 12, "Human Rights", "T1", 1),
                                 span("ORG", 13, 18, "Watch", "T2", 2)),
                       "C": held(project, "C", "d1", span("ORG", 0, 15, "Human Rights Wa", "T1", 1))}}
    assert found["places"][1]["annotators"]["C"]["spans"] == [span("PER", 27, 32, "Lopez", "T2", 2)]
    assert [(p["document"], p["start"], p["end"], p["text"]) for p in found["places"]] == [
        ("d1", 0, 18, "Human Rights Watch"), ("d1", 23, 32, "Ana Lopez"), ("d1", 36, 44, "New York"),
        ("d2", 0, 5, "Paris"), ("d2", 10, 14, "Rome")]
    assert found["places"][2]["annotators"]["C"]["spans"] == [span("MISC", 36, 44, "New York", "T3", 3)]
    assert found["places"][3]["annotators"]["C"] == held(project, "C", "d2")
    assert "adjudication" not in agreement(str(project), n_resamples=10)


def test_a_discontinuous_entity_joins_the_places_its_fragments_span(project):
    """With --discontinuous fragments, B's 'Paris Rome' (0-5;10-14) makes d2's two places one, shown by fragments."""
    found = agreement(str(project), n_resamples=10, adjudication=True, discontinuous="fragments")["adjudication"]
    assert (found["disputed"], found["agreed"]) == (4, 1)
    d2 = found["places"][3]
    assert (d2["document"], d2["start"], d2["end"], d2["text"]) == ("d2", 0, 14, "Paris and Rome")
    assert d2["annotators"]["B"]["spans"] == [
        span("LOC", 0, 5, "Paris", "T1", 1), span("LOC", 0, 14, "Paris Rome", "T3", 3, [[0, 5], [10, 14]]),
        span("LOC", 10, 14, "Rome", "T2", 2)]


def test_the_report_lists_the_places(project, capsys):
    assert main(["agreement", str(project), "--bootstrap", "10", "--adjudication"]) == 0
    lines = capsys.readouterr().out.splitlines()
    at = lines.index("disputed places: 5 (and 1 place every annotator agrees on), by document and offset, each "
                     "annotator's spans there")
    assert lines[at + 1:at + 9] == [
        "document 'd1' 0-18 'Human Rights Watch'",
        "  A  ORG 0-18 'Human Rights Watch' (T1, line 1)",
        "  B  ORG 0-12 'Human Rights' (T1, line 1); ORG 13-18 'Watch' (T2, line 2)",
        "  C  ORG 0-15 'Human Rights Wa' (T1, line 1)",
        "document 'd1' 23-32 'Ana Lopez'",
        "  A  PER 23-32 'Ana Lopez' (T2, line 2)",
        "  B  PER 23-32 'Ana Lopez' (T3, line 3)",
        "  C  PER 27-32 'Lopez' (T2, line 2)"]
    assert lines[at + 13:at + 17] == ["document 'd2' 0-5 'Paris'", "  A  LOC 0-5 'Paris' (T1, line 1)",
                                      "  B  LOC 0-5 'Paris' (T1, line 1)", "  C  nothing"]


D1_ANN = """\
T1\tORG_by_B 0 12\tHuman Rights
#1\tAnnotatorNotes T1\t{org}
T2\tORG_by_C 0 15\tHuman Rights Wa
#2\tAnnotatorNotes T2\t{org}
T3\tORG_by_A 0 18\tHuman Rights Watch
#3\tAnnotatorNotes T3\t{org}
T4\tORG_by_B 13 18\tWatch
#4\tAnnotatorNotes T4\t{org}
T5\tPER_by_A_B 23 32\tAna Lopez
#5\tAnnotatorNotes T5\t{per}
T6\tPER_by_C 27 32\tLopez
#6\tAnnotatorNotes T6\t{per}
T7\tLOC_by_A_B 36 44\tNew York
#7\tAnnotatorNotes T7\t{loc}
T8\tMISC_by_C 36 44\tNew York
#8\tAnnotatorNotes T8\t{loc}
""".format(org="disputed: A: ORG 'Human Rights Watch'; B: ORG 'Human Rights', ORG 'Watch'; C: ORG 'Human Rights Wa'",
           per="disputed: A: PER 'Ana Lopez'; B: PER 'Ana Lopez'; C: PER 'Lopez'",
           loc="disputed: A: LOC 'New York'; B: LOC 'New York'; C: MISC 'New York'")


def test_the_brat_folder_an_adjudicator_opens(project, tmp_path, capsys):
    out = tmp_path / "to-adjudicate"
    assert main(["agreement", str(project), "--bootstrap", "10", "--adjudication-folder", str(out)]) == 0
    assert f"written as a brat folder to {out}" in capsys.readouterr().out
    assert sorted(os.listdir(out)) == ["annotation.conf", "d1.ann", "d1.txt", "d2.ann", "d2.txt", "d3.ann", "d3.txt"]
    assert (out / "d1.ann").read_text() == D1_ANN
    assert (out / "d3.ann").read_text() == "T1\tPER 3 8\tSmith\n"  # agreed by all: its own type, no note
    assert (out / "d1.txt").read_text() == (project / "A" / "d1.txt").read_text()
    conf = (out / "annotation.conf").read_text()
    assert conf.split("[entities]\n")[1].split("\n\n")[0].split() == [
        "LOC_by_A_B", "MISC_by_C", "ORG_by_A", "ORG_by_B", "ORG_by_C", "PER", "PER_by_A_B", "PER_by_C"]
    # the folder reads back as brat, every type declared, every T line's text its offsets' text
    corpus = read_corpus(out)
    assert corpus.notes == {} and sum(map(len, corpus.entities)) == 8 + 2 + 1
    # never over an input, never into a folder that holds files, never inside an input folder
    code = main(["agreement", str(project), "--bootstrap", "10", "--adjudication-folder", str(out)])
    assert code == 2 and "exists and is not an empty folder" in capsys.readouterr().err
    inside = project / "A" / "adjudicate"
    code = main(["agreement", str(project), "--bootstrap", "10", "--adjudication-folder", str(inside)])
    assert code == 2 and "is inside" in capsys.readouterr().err and not inside.exists()
    code = main(["agreement", str(project), "--adjudication-folder", str(tmp_path / "no" / "such")])
    assert code == 2 and "does not exist" in capsys.readouterr().err


def test_a_corpus_of_tokens_is_written_as_text(tmp_path):
    tokens = [["IL-2", "gene", "binds"], ["NF-kB", "here"]]
    a = Corpus(tokens, [[(0, 2, "DNA")], [(0, 1, "protein")]], ["s1", "s2"])
    b = Corpus(tokens, [[(0, 1, "protein")], [(0, 1, "protein")]], ["s1", "s2"])
    result = agreement({"a": a, "b": b}, n_resamples=10, adjudication_folder=tmp_path / "out")
    assert result["adjudication"]["places"][0]["annotators"]["a"] == {
        "where": None, "spans": [span("DNA", 0, 2, "IL-2 gene", None, None)]}
    assert (tmp_path / "out" / "s1.txt").read_text() == "IL-2 gene binds"
    assert (tmp_path / "out" / "s1.ann").read_text() == (
        "T1\tprotein_by_b 0 4\tIL-2\n#1\tAnnotatorNotes T1\tdisputed: a: DNA 'IL-2 gene'; b: protein 'IL-2'\n"
        "T2\tDNA_by_a 0 9\tIL-2 gene\n#2\tAnnotatorNotes T2\tdisputed: a: DNA 'IL-2 gene'; b: protein 'IL-2'\n")
    assert (tmp_path / "out" / "s2.ann").read_text() == "T1\tprotein 0 5\tNF-kB\n"
    with pytest.raises(ValueError, match=r"^annotator a b: a brat type names who marked a span"):
        agreement({"a b": a, "b": b}, n_resamples=10, adjudication_folder=tmp_path / "other")
    assert not (tmp_path / "other").exists()


def test_the_label_confusion_sums_the_pairs(project):
    """Each pair's canonical matching (overlapping spans, one to one), summed over the pairs, either way round:
    A|B pairs ORG/ORG (one of B's two ORGs is left alone), PER/PER, LOC/LOC and d2's two LOC/LOC, d3's PER/PER;
    A|C and B|C each ORG/ORG, PER/PER, LOC/MISC, d2's two LOC with nothing, PER/PER (B|C: B's other ORG alone)."""
    confusion = agreement(str(project), n_resamples=10)["label_confusion"]
    assert confusion == {
        "LOC": {"LOC": 3, "MISC": 2, "ORG": 0, "PER": 0, NOTHING: 4},
        "MISC": {"LOC": 2, "MISC": 0, "ORG": 0, "PER": 0, NOTHING: 0},
        "ORG": {"LOC": 0, "MISC": 0, "ORG": 3, "PER": 0, NOTHING: 2},
        "PER": {"LOC": 0, "MISC": 0, "ORG": 0, "PER": 6, NOTHING: 0},
        NOTHING: {"LOC": 4, "MISC": 0, "ORG": 2, "PER": 0, NOTHING: 0}}


def test_the_confusion_holds_the_type_disagreements(shared_data):
    """On real data: the confusion's pairs of two types are the pairs' type and boundary-and-type disagreements,
    and its spans with nothing their missing ones."""
    folder = shared_data / "brat" / "ncbi-disease"
    corpus = read_corpus(folder)
    other = Corpus(corpus.texts, [[(a, b, "Other" if k % 5 == 0 else label) for k, (a, b, label) in enumerate(doc)
                                   if k % 7] for doc in corpus.entities], corpus.sentence_ids, unit="characters")
    third = Corpus(corpus.texts, [doc[1:] for doc in corpus.entities], corpus.sentence_ids, unit="characters")
    result = agreement({"a": str(folder), "b": other, "c": third}, n_resamples=10)
    confusion = result["label_confusion"]
    labels = [label for label in confusion if label != NOTHING]
    confused = sum(confusion[x][y] for i, x in enumerate(labels) for y in labels[i + 1:])
    groups = result["disagreements"].values()
    assert confused == sum(g["type"] + g["boundary_and_type"] for g in groups) > 0
    assert sum(confusion[NOTHING].values()) == sum(g["missing"] for g in groups) > 0


def test_the_json_of_the_command_holds_the_rows(project, capsys):
    assert main(["agreement", str(project), "--bootstrap", "10", "--adjudication", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["adjudication"]["disputed"] == 5 and len(result["adjudication"]["places"]) == 5
