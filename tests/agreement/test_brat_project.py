"""Agreement on a brat project as annotation leads read it (issue 50 items 1, 2; issue 48 items 4, 5, 14): every
row's mean and standard deviation over the pairs, the token unit, discontinuous entities by their fragments, kappa
and alpha on whitespace tokens, the project's root, empty .ann files and types annotation.conf does not declare.

Every expected figure is counted by hand on the project of tests/brat_project.py (its docstring draws it), and
cross-checked against bratiaa itself (the tool whose definitions these are) on the same project and on drawn ones."""
from __future__ import annotations

import json
import math
import statistics
from fractions import Fraction
from pathlib import Path

import pytest
from brat_project import CONF, write_project
from hypothesis import given
from hypothesis import strategies as st

from nested_span_f1.agreement import agreement
from nested_span_f1.cli.main import main


@pytest.fixture
def project(tmp_path):
    return write_project(tmp_path / "project")


def f1(tp, a, b):
    """bratiaa's F1 of a pair: 2 |A and B| / (|A| + |B|)."""
    return Fraction(2 * tp, a + b)


def spread(values):
    """Mean and population standard deviation, from exact fractions."""
    values = [Fraction(v) for v in values]
    mean = sum(values) / len(values)
    return mean, math.sqrt(sum((v - mean) ** 2 for v in values) / len(values))


def close(value, expected):
    return value == pytest.approx(float(expected), rel=1e-15, abs=1e-15)


# Instances, discontinuous entities left out (B's 'Paris Rome' is the one):
#   A|B  d1: PER, LOC agree; A 3, B 4 -> 4/7   d2: 2 of 2, 2 -> 1   d3: 1 -> 1   total tp 5, A 6, B 7 -> 10/13
#   A|C  d1: nothing agrees (ORG 0-15 is cut, PER 27-32 is shorter, MISC is another type), A 3, C 3  d2: A 2, C 0
#        d3: 1   total tp 1, A 6, C 4 -> 2/10
#   B|C  total tp 1, B 7, C 4 -> 2/11
INSTANCE = {"A|B": f1(5, 6, 7), "A|C": f1(1, 6, 4), "B|C": f1(1, 7, 4)}
PER_DOCUMENT = {"d1": [f1(2, 3, 4), f1(0, 3, 3), f1(0, 4, 3)], "d2": [1, f1(0, 2, 0), f1(0, 2, 0)], "d3": [1, 1, 1]}
# per type: ORG never agrees; PER A|B 2 of 2, A|C and B|C 1 of 2 and 2; LOC A|B 3 of 3, C marks none; MISC only C
PER_TYPE = {"LOC": [1, f1(0, 3, 0), f1(0, 3, 0)], "MISC": [f1(0, 0, 1), f1(0, 0, 1)], "ORG": [0, 0, 0],
            "PER": [1, f1(1, 2, 2), f1(1, 2, 2)]}


def test_every_row_has_its_mean_and_sd_over_the_pairs(project):
    result = agreement(str(project), n_resamples=50)
    assert result["annotators"] == ["A", "B", "C"] and result["notes"]["project_root"] == str(project)
    for key, expected in INSTANCE.items():
        assert close(result["pairwise"][key]["f1"], expected), key
    mean, sd = spread(INSTANCE.values())
    assert close(result["mean_f1"]["value"], mean) and close(result["sd_f1"], sd)
    for name, rows in (("per_document", PER_DOCUMENT), ("per_type", PER_TYPE)):
        for row, values in rows.items():
            mean, sd = spread(values)
            assert close(result[name][row]["mean_f1"], mean) and close(result[name][row]["sd_f1"], sd), (name, row)
    assert result["per_type"]["MISC"]["pairwise"]["A|B"]["f1"] is None  # neither marks MISC: left out of the mean
    # per annotator: the pairs it is in (A: A|B and A|C)
    for name, keys in {"A": ("A|B", "A|C"), "B": ("A|B", "B|C"), "C": ("A|C", "B|C")}.items():
        mean, sd = spread([INSTANCE[k] for k in keys])
        row = result["per_annotator"][name]
        assert close(row["mean_f1"], mean) and close(row["sd_f1"], sd), name
    assert set(result["lenient"]["per_type"]["PER"]) == {"mean_f1", "sd_f1", "pairwise"}
    assert "sd_f1" in result["untyped"] and "per_annotator" in result["lenient"]


# Tokens, discontinuous left out: A's and B's d1 are the same tokens (ORG Human Rights Watch, PER Ana Lopez, LOC New
# York: 7), C's are ORG Human Rights Watch (Wa is in Watch), PER Lopez, MISC New York (6): 4 agree
#   A|B  7 + 2 + 1 = 10 of 10 and 10 -> 1      A|C  tp 4 + 0 + 1, A 10, C 6 + 0 + 1 -> 10/17      B|C  the same
# and with B's 'Paris Rome' (fragments): B has 12 tokens: A|B 20/22, B|C tp 5 of 12 and 7 -> 10/19
TOKEN = {"A|B": f1(10, 10, 10), "A|C": f1(5, 10, 7), "B|C": f1(5, 10, 7)}
TOKEN_FRAGMENTS = {"A|B": f1(10, 10, 12), "A|C": f1(5, 10, 7), "B|C": f1(5, 12, 7)}
# Instances with fragments: B's discontinuous LOC matches nothing: A|B 10/14, B|C 2/12
INSTANCE_FRAGMENTS = {"A|B": f1(5, 6, 8), "A|C": f1(1, 6, 4), "B|C": f1(1, 8, 4)}


@pytest.mark.parametrize("unit, discontinuous, expected", [
    ("token", "leave-out", TOKEN), ("token", "fragments", TOKEN_FRAGMENTS),
    ("instance", "fragments", INSTANCE_FRAGMENTS)])
def test_tokens_and_fragments_by_hand(project, unit, discontinuous, expected):
    result = agreement(str(project), n_resamples=20, unit=unit, discontinuous=discontinuous)
    for key, value in expected.items():
        assert close(result["pairwise"][key]["f1"], value), key
    assert result["settings"]["unit"] == unit and result["settings"]["discontinuous"] == discontinuous
    compared = result["notes"]["discontinuous_compared"]
    assert compared == ({} if discontinuous == "leave-out" else {"A": 0, "B": 1, "C": 0})
    assert result["notes"]["discontinuous_left_out"]["B"] == (1 if discontinuous == "leave-out" else 0)
    if unit == "token":
        assert "lenient" not in result and "lenient" in result["notes"]["not_computed"]
        # untyped tokens: C's MISC New York now agrees with A's LOC New York, and Human Rights Watch, Lopez: 6, and
        # Smith
        assert result["untyped"]["pairwise"]["A|C"]["tp"] == 7
        assert (result["pairwise"]["A|C"]["tp"], result["pairwise"]["A|C"]["fp"], result["pairwise"]["A|C"]["fn"]) \
            == (5, 2, 5)


def test_kappa_and_alpha_on_whitespace_tokens_are_the_packages(project):
    """--unit token labels the 17 whitespace tokens (drawn in tests/brat_project.py) with their IOB2 tags; the
    default unit labels the characters, whitespace and line ends included."""
    sklearn_metrics = pytest.importorskip("sklearn.metrics")
    inter_rater = pytest.importorskip("statsmodels.stats.inter_rater")
    krippendorff = pytest.importorskip("krippendorff")
    tags = {
        "A": "B-ORG I-ORG I-ORG O B-PER I-PER O B-LOC I-LOC O  B-LOC O B-LOC O  O B-PER O",
        "B": "B-ORG I-ORG B-ORG O B-PER I-PER O B-LOC I-LOC O  B-LOC O B-LOC O  O B-PER O",
        "C": "B-ORG I-ORG I-ORG O O B-PER O B-MISC I-MISC O  O O O O  O B-PER O"}
    labels = {name: line.split() for name, line in tags.items()}
    result = agreement(str(project), n_resamples=20, unit="token")
    assert (result["kappa_unit"], result["kappa_positions"], result["alpha_positions"]) == ("whitespace tokens", 17, 17)
    for a, b in (("A", "B"), ("A", "C"), ("B", "C")):
        assert result["cohen_kappa"][f"{a}|{b}"] == pytest.approx(
            sklearn_metrics.cohen_kappa_score(labels[a], labels[b]), abs=1e-15)
    names = sorted({tag for row in labels.values() for tag in row})
    table = [[sum(labels[n][t] == tag for n in "ABC") for tag in names] for t in range(17)]
    assert result["fleiss_kappa"] == pytest.approx(inter_rater.fleiss_kappa(table), abs=1e-15)
    codes = [[names.index(tag) for tag in labels[n]] for n in "ABC"]
    assert result["krippendorff_alpha"] == pytest.approx(
        krippendorff.alpha(reliability_data=codes, level_of_measurement="nominal"), abs=1e-15)
    # B's 'Paris Rome' compared by its fragments: each fragment is a span on its tokens, the same as B's own Paris and
    # Rome there, so every token keeps its label (a span twice is one label, not two)
    characters = agreement(str(project), n_resamples=20)
    for unit, alone in (("token", result), ("instance", characters)):
        fragments = agreement(str(project), n_resamples=20, unit=unit, discontinuous="fragments")
        for key in ("cohen_kappa", "fleiss_kappa", "krippendorff_alpha"):
            assert fragments[key] == alone[key], (unit, key)
    length = sum(len(text) for text in ("Human Rights Watch met Ana Lopez in New York .\n", "Paris and Rome .\n",
                                        "Dr Smith .\n"))
    assert (characters["kappa_unit"], characters["kappa_positions"]) == ("characters", length)


def test_the_report_shows_every_spread_and_unit(project, capsys):
    assert main(["agreement", str(project), "--bootstrap", "20"]) == 0
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert err == ""
    assert lines[:3] == [
        "agreement of 3 annotators (A, B, C) on 3 documents held by every set; the intervals resample 3 documents",
        f"the annotators are the folders of the brat project {project}",
        "F1 on annotations: each annotation counts once (instance-based); discontinuous entities left out (B 1; "
        "--discontinuous fragments compares them); every mean is over the pairs of annotators, ± its standard "
        "deviation (population)"]
    assert lines[3] == ("documents an annotator marked nothing in (an empty brat .ann: one no one opened?), scored as "
                        "marking nothing: C 1 ('d2')")
    assert lines[4] == f"types {project / 'annotation.conf'} does not declare: MISC (C 1)"
    assert lines[5] == "types only one annotator uses: MISC (C 1)"
    mean, sd = spread(INSTANCE.values())
    assert any(line.startswith(f"mean pairwise F1 ± sd [interval of the mean]: exact {float(mean):.4f} ± "
                               f"{sd:.4f} [") for line in lines)
    table = lines[lines.index("per document (mean F1 ± sd over the pairs where either marks something)") + 1:][:4]
    mean, sd = spread(PER_DOCUMENT["d1"])  # 4/21, and the lenient figures beside
    assert table[0].split() == ["document", "exact", "lenient"]
    assert table[1].split()[:4] == ["d1", f"{float(mean):.4f}", "±", f"{sd:.4f}"]
    assert ("chance-corrected agreement on 75 characters: the unit is characters, whitespace and line ends included, "
            "each labelled with its IOB2 tag (a position inside several spans: all their tags, outermost first)") in lines
    assert main(["agreement", str(project), "--bootstrap", "20", "--unit", "token"]) == 0
    out = capsys.readouterr().out
    assert ("F1 on tokens: each annotation counts as the whitespace-delimited tokens it overlaps (a partly covered "
            "token whole), a multiset per annotator (bratiaa's token-based agreement)") in out
    assert "chance-corrected agreement on 17 whitespace tokens: the unit is whitespace-delimited tokens of the text " \
           "(whitespace not counted)" in out
    assert "lenient not computed: in the token unit a token is marked or not" in out


def test_a_project_root_among_other_sets_is_refused(project, capsys):
    with pytest.raises(ValueError, match=r"^annotator A \(.*project\) is a brat project's root, one folder per "
                                         r"annotator inside \(A, B, C\); pass the annotators' folders, or the root "
                                         r"alone to compare all of them$"):
        agreement({"A": str(project), "B": str(project / "B")})
    assert main(["agreement", str(project), str(project / "A")]) == 2
    assert "is a brat project's root" in capsys.readouterr().err
    # the annotators' folders given one by one: the same figures
    alone = agreement({name: str(project / name) for name in "ABC"}, n_resamples=20)
    whole = agreement(str(project), n_resamples=20)
    for key in ("pairwise", "per_type", "per_document", "lenient", "cohen_kappa", "disagreements"):
        assert alone[key] == whole[key], key
    assert "project_root" not in alone["notes"]


def test_the_json_holds_what_the_report_shows(project, capsys):
    assert main(["agreement", str(project), "--bootstrap", "20", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["documents"]["marked_nothing"] == {"A": [], "B": [], "C": ["d2"]}
    assert result["notes"]["undeclared_types"] == {"MISC": {"C": 1}}
    assert result["notes"]["annotation_conf"] == dict.fromkeys("ABC", str(project / "annotation.conf"))
    assert result["notes"]["one_annotator_types"] == {"MISC": {"C": 1}}
    assert "1 empty .ann file (a document no one annotated? it is scored as marking nothing): 'd2'" in \
        result["notes"]["read"]["C"]


# ---- bratiaa itself, on this project and on drawn ones ----

def _bratiaa(root, tokens):
    bratiaa = pytest.importorskip("bratiaa")
    from bratiaa.utils import tokenize

    return bratiaa.compute_f1_agreement(str(root), token_func=tokenize if tokens else None)


def _same_as_bratiaa(root, tokens):
    """Every figure of bratiaa's report (per document, per label, overall; mean and sd) equals ours where bratiaa's
    is a number (it gives nan for a row where some pair has nothing to agree on; we average the pairs that have)."""
    theirs = _bratiaa(root, tokens)
    ours = agreement(str(root), unit="token" if tokens else "instance", discontinuous="fragments", n_resamples=10)
    mean, sd = theirs.mean_sd_total()
    assert ours["mean_f1"]["value"] == pytest.approx(mean, rel=1e-14) and ours["sd_f1"] == pytest.approx(sd, abs=1e-14)
    rows = 1
    for name, found, (means, sds) in (("per_document", [d.removesuffix(".ann") for d in theirs.documents],
                                       theirs.mean_sd_per_document()),
                                      ("per_type", theirs.labels, theirs.mean_sd_per_label())):
        for row, m, s in zip(found, means.tolist(), sds.tolist()):
            if math.isnan(m):
                continue
            rows += 1
            assert ours[name][row]["mean_f1"] == pytest.approx(m, rel=1e-14), (name, row)
            assert ours[name][row]["sd_f1"] == pytest.approx(s, abs=1e-14), (name, row)
    return rows


@pytest.mark.parametrize("tokens", [False, True])
def test_bratiaa_agrees_on_the_project(tmp_path, tokens):
    root = write_project(tmp_path / "project", CONF.replace("LOC\n", "LOC\nMISC\n"))  # bratiaa stops at undeclared
    assert _same_as_bratiaa(root, tokens) == 1 + 3 + 3  # overall, 3 documents, LOC ORG PER (MISC: nan there)


WORDS = ["Ana", "met", "Bo", "in", "New", "York", "at", "ACME", "Inc", "today", "x"]


@st.composite
def projects(draw):
    """2 to 4 annotators of 1 to 3 documents of words and spaces, each marking up to 5 spans (some cutting a word,
    some discontinuous) of 3 types."""
    texts = []
    for _ in range(draw(st.integers(1, 3))):
        words = draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=8))
        texts.append(" ".join(words) + " \n")
    n = draw(st.integers(2, 4))
    marks = []
    for _ in range(n):
        per_document = []
        for text in texts:
            spans = set()
            for _ in range(draw(st.integers(0, 5))):
                a = draw(st.integers(0, len(text) - 3))
                b = draw(st.integers(a + 1, len(text) - 2))
                label = draw(st.sampled_from(["PER", "LOC", "ORG"]))
                if text[a:b].strip() and "\n" not in text[a:b]:
                    gap = draw(st.integers(0, 3))
                    if gap and b + gap + 1 < len(text) - 1 and text[b + gap:b + gap + 1].strip():
                        spans.add(f"{label} {a} {b};{b + gap} {b + gap + 1}\t{text[a:b]} {text[b + gap]}")
                    else:
                        spans.add(f"{label} {a} {b}\t{text[a:b]}")
            per_document.append(sorted(spans))
        marks.append(per_document)
    return texts, marks


@given(projects(), st.booleans())
def test_bratiaa_agrees_on_drawn_projects(tmp_path_factory, drawn, tokens):
    pytest.importorskip("bratiaa")
    texts, marks = drawn
    root = tmp_path_factory.mktemp("drawn")
    (root / "annotation.conf").write_text("[entities]\nPER\nLOC\nORG\n[relations]\n[events]\n[attributes]\n")
    for k, per_document in enumerate(marks):
        folder = root / f"annotator{k}"
        folder.mkdir()
        for d, (text, spans) in enumerate(zip(texts, per_document)):
            (folder / f"doc{d}.txt").write_text(text)
            (folder / f"doc{d}.ann").write_text("".join(f"T{i}\t{s}\n" for i, s in enumerate(spans, 1)))
    if not any(marks[k][d] for k in range(len(marks)) for d in range(len(texts))):
        return  # nobody marks anything: agreement refuses an empty set, bratiaa divides by zero
    if any(not any(per_document) for per_document in marks):
        with pytest.raises(ValueError, match="no annotation in any of its"):
            agreement(str(root), n_resamples=10)
        return
    _same_as_bratiaa(root, tokens)


def test_spread_is_numpy_s_population_sd():
    """The standard deviation is numpy.std's default (ddof=0), the one bratiaa reports; statistics.pstdev agrees."""
    from nested_span_f1.agreement.spans import sd_f1

    values = [0.9454545454545454, 0.874015748031496, 0.9590000000000001, 0.8163265306122449]
    assert sd_f1([{"f1": v} for v in values]) == pytest.approx(statistics.pstdev(values), rel=1e-15)
    assert sd_f1([{"f1": None}]) is None and sd_f1([{"f1": 0.5}, {"f1": None}]) == 0.0


def test_a_folder_of_subfolders_and_an_empty_ann(tmp_path):
    """A brat collection in subfolders (brat nests them) reads every document, its id its path; an annotator's
    folder of subfolders pairs with another's by those ids."""
    for name in ("one", "two"):
        for ident, lines in (("a", ["PER 0 3\tAna"]), ("sub/b", ["LOC 0 5\tParis"] if name == "one" else [])):
            path = tmp_path / name / f"{ident}.ann"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.with_suffix(".txt").write_text("Ana met Paris\n" if ident == "a" else "Paris\n")
            path.write_text("".join(f"T{k}\t{line}\n" for k, line in enumerate(lines, 1)))
    result = agreement({"one": str(tmp_path / "one"), "two": str(tmp_path / "two")}, n_resamples=10)
    assert list(result["per_document"]) == ["a", "sub/b"]
    assert result["documents"]["marked_nothing"] == {"one": [], "two": ["sub/b"]}
    assert result["pairwise"]["one|two"] == {"f1": 2 / 3, "precision": 1.0, "recall": 0.5, "tp": 1, "fp": 0, "fn": 1}
    # the two folders inside one root, not the same documents: no project root, one collection
    assert Path(tmp_path / "one" / "sub").is_dir()


def test_a_reference_and_a_model_in_the_token_unit(project, capsys):
    """--unit token scores every set against the reference on tokens too; the report's table has no lenient column
    there. Against A: C's tokens are those of A|C (tp 5, C 7, A 10), B's those of A|B (all 10)."""
    assert main(["agreement", f"B={project / 'B'}", f"C={project / 'C'}", "--reference", f"A={project / 'A'}",
                 "--unit", "token", "--bootstrap", "20"]) == 0
    lines = capsys.readouterr().out.splitlines()
    table = lines[lines.index("against the reference A (each set scored as predictions of it)") + 1:][:4]
    assert table[0].split() == ["set", "exact", "F1", "interval", "precision", "recall", "untyped", "F1"]
    assert table[1].split()[:2] == ["B", "(annotator)"] and table[1].split()[2] == "1.0000"
    assert table[2].split()[:3] == ["C", "(annotator)", f"{float(f1(5, 10, 7)):.4f}"]
