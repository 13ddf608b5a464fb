"""brat standoff: the two real corpora, every line type, discontinuous entities, and GENIA written as brat."""
from __future__ import annotations

import shutil

import pytest

from nested_span_f1 import Corpus, read_corpus, score_nested, write_corpus
from nested_span_f1.align import join_tokens, score_text
from nested_span_f1.formats.brat import read_brat
from nested_span_f1.formats.text import TextMismatchWarning

CORPORA = {"ncbi-disease": 226, "bionlp-st-2011-ge": 520}
"""Each real corpus and its number of T lines."""
TRIGGERS = {"ncbi-disease": 0, "bionlp-st-2011-ge": 185}
"""Each real corpus's T lines that its E lines use as event triggers (counted by hand: the first argument of every E
line, distinct per file)."""
EMPTY = {"ncbi-disease": [], "bionlp-st-2011-ge": ["PMID-7986199", "PMID-9874515"]}
"""Each real corpus's empty .ann files (``find -empty``)."""


def _t_lines(folder):
    """(file stem, offsets, text) of every T line, read by plain string splitting."""
    for ann in sorted(folder.glob("*.ann")):
        for line in ann.read_text(encoding="utf-8").splitlines():
            if line.startswith("T"):
                ident, middle, text = line.split("\t")
                pieces = [tuple(map(int, p.split())) for p in middle.split(" ", 1)[1].split(";")]
                yield ann.stem, ident, middle.split(" ", 1)[0], pieces, text


@pytest.mark.parametrize("name", sorted(CORPORA))
def test_real_corpora_read_and_every_t_line_matches_the_text(shared_data, name):
    folder = shared_data / "brat" / name
    corpus = read_corpus(folder)
    assert corpus.format == "brat" and corpus.unit == "characters"
    assert corpus.notes == ({"brat_event_triggers": TRIGGERS[name]} if TRIGGERS[name] else {}) | (
        {"brat_empty_ann_files": len(EMPTY[name])} if EMPTY[name] else {})
    if EMPTY[name]:
        assert corpus.conversion.endswith(f"; 2 empty .ann files (a document no one annotated? it is scored as marking "
                                          f"nothing): {', '.join(map(repr, EMPTY[name]))}")
    for ident in EMPTY[name]:
        assert corpus.entities[list(corpus.sentence_ids).index(ident)] == []
    assert sum(map(len, corpus.entities)) == CORPORA[name] == len(list(_t_lines(folder)))
    texts = dict(zip(corpus.sentence_ids, corpus.texts))
    for stem, _, _, pieces, text in _t_lines(folder):
        assert " ".join(texts[stem][a:b] for a, b in pieces) == text
    result = score_text(folder, folder, zero_division=0)
    assert result["overall_f1"] == 1.0 and result["tp"] == CORPORA[name]


@pytest.mark.parametrize("name", sorted(CORPORA))
def test_real_corpus_against_a_copy_with_known_changes(shared_data, tmp_path, name):
    """Every 7th T line dropped, every 11th given an end one character later, every 13th relabelled."""
    source = shared_data / "brat" / name
    copy = tmp_path / name
    shutil.copytree(source, copy)
    dropped = shifted = relabelled = 0
    for ann in sorted(copy.glob("*.ann")):
        text = ann.with_suffix(".txt").read_text(encoding="utf-8")
        lines, number = [], 0
        for line in ann.read_text(encoding="utf-8").splitlines():
            if line.startswith("T"):
                number += 1
                ident, middle, said = line.split("\t")
                label, offsets = middle.split(" ", 1)
                start, end = map(int, offsets.split())
                if number % 7 == 0:
                    dropped += 1
                    continue
                if number % 11 == 0 and end < len(text):
                    shifted += 1
                    end += 1
                    said = text[start:end]
                elif number % 13 == 0:
                    relabelled += 1
                    label = "Relabelled"
                line = f"{ident}\t{label} {start} {end}\t{said}"
            lines.append(line)
        ann.write_text("\n".join(lines) + "\n", encoding="utf-8")
    n = CORPORA[name]
    assert dropped and shifted and relabelled
    result = score_text(copy, source, zero_division=0)
    assert (result["tp"], result["fp"], result["fn"]) == (n - dropped - shifted - relabelled, shifted + relabelled,
                                                          dropped + shifted + relabelled)
    assert result["Relabelled"]["precision"] == 0.0
    lenient = score_text(copy, source, metric="lenient", zero_division=0)
    assert (lenient["boundary_error"], lenient["type_error"], lenient["missed"]) == (shifted, relabelled, dropped)


def test_every_line_type_crlf_discontinuous_and_types(tmp_path):
    text = "IL-2 gene\r\nexpression in T cells\r\n"
    (tmp_path / "d1.txt").write_bytes(text.encode())
    start = text.index("T cells")
    ann = (f"T1\tDNA 0 9\tIL-2 gene\nT2\tProtein 0 4\tIL-2\nT3\tGene_expression 11 21\texpression\n"
           f"T4\tCell 0 4;{start} {start + 7}\tIL-2 T cells\n"
           "E1\tGene_expression:T3 Theme:T2\nA1\tNegation E1\nM1\tSpeculation E1\nR1\tPart Arg1:T2 Arg2:T1\n"
           "*\tEquiv T1 T2\nN1\tReference T2 UniProt:P60568\tIL2\n#1\tAnnotatorNotes T1\tchecked\n\n")
    (tmp_path / "d1.ann").write_text(ann, encoding="utf-8")
    corpus = read_brat(tmp_path)
    assert corpus.texts == [text] and corpus.sentence_ids == ["d1"]
    assert corpus.entities == [[(0, 9, "DNA"), (0, 4, "Protein"), (11, 21, "Gene_expression"),
                                 (((0, 4), (start, start + 7)), "Cell")]]
    assert corpus.conversion == ("brat standoff, character offsets: 4 T lines: 3 entities, 1 event trigger (T lines "
                                 "that E lines use, scored as entities); read past: 1 #, 1 *, 1 A, 1 E, 1 M, 1 N, 1 R")
    assert corpus.notes == {"brat_event_triggers": 1}
    proteins = read_corpus(tmp_path / "d1.ann", types={"Protein", "DNA"})
    assert proteins.entities == [[(0, 9, "DNA"), (0, 4, "Protein")]]
    assert "left out: 1 Cell, 1 Gene_expression" in proteins.conversion
    assert "types kept" not in proteins.conversion
    # a kept type no T line has is said (a split without it, or its case mistyped)
    genes = read_corpus(tmp_path / "d1.ann", types={"Protein", "Gene"})
    assert genes.entities == [[(0, 4, "Protein")]]
    assert genes.conversion.endswith("; T lines of other types left out: 1 Cell, 1 DNA, 1 Gene_expression; types "
                                     "kept that no T line has: Gene")
    assert read_corpus(tmp_path / "d1.ann", types={"protein"}).conversion.endswith(
        "left out: 1 Cell, 1 DNA, 1 Gene_expression, 1 Protein; types kept that no T line has: protein")
    # written back as brat, read again: the same documents (discontinuous entity included)
    write_corpus(corpus, tmp_path / "out", "brat")
    back = read_corpus(tmp_path / "out")
    assert (back.texts, back.entities) == (corpus.texts, corpus.entities)
    with pytest.raises(ValueError, match="exists and is not an empty folder; this output goes to a new or empty"):
        write_corpus(corpus, tmp_path / "out", "brat")


@pytest.mark.parametrize(("line", "fragment"), [
    ("T1\tDNA 0 99\tIL-2", "T1 offsets 0 99 are out of range"),
    ("T1\tDNA 0 x\tIL-2", "offsets '0 x' of T1"),
    ("T1\tDNA\tIL-2", "is not a text-bound line"),
    ("T1\tDNA 4 2\tIL-2", "T1 offsets 4 2 are out of range"),
])
def test_malformed_t_lines_are_refused_naming_file_and_line(tmp_path, line, fragment):
    (tmp_path / "d.txt").write_text("IL-2 gene", encoding="utf-8")
    (tmp_path / "d.ann").write_text(f"E1\tX:T1\n{line}\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"d\.ann, line 2") as raised:
        read_brat(tmp_path)
    assert fragment in str(raised.value)


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\x85", "\x0b", "\x1c"])
def test_ann_lines_end_at_line_ends_only(tmp_path, separator):
    # QA item 8: a T line's text may hold a character str.splitlines() breaks at; brat's lines end at \n
    text = f"CD4{separator}T cells here"
    (tmp_path / "d.txt").write_text(text, encoding="utf-8", newline="")
    (tmp_path / "d.ann").write_text(f"T1\tCell 0 11\tCD4{separator}T cells\r\nT2\tCell 4 11\tT cells\n",
                                    encoding="utf-8", newline="")
    corpus = read_brat(tmp_path)
    assert corpus.entities == [[(0, 11, "Cell"), (4, 11, "Cell")]] and not corpus.notes
    write_corpus(corpus, tmp_path / "out", "brat")
    back = read_brat(tmp_path / "out")
    assert (back.texts, back.entities) == (corpus.texts, corpus.entities)


def test_a_t_line_whose_text_differs_is_counted_and_missing_files_are_named(tmp_path):
    (tmp_path / "d.txt").write_text("IL-2 gene", encoding="utf-8")
    (tmp_path / "d.ann").write_text("T1\tDNA 0 4\tIL-3\n", encoding="utf-8")
    with pytest.warns(TextMismatchWarning, match="1 entity whose text differs"):
        assert read_brat(tmp_path).notes == {"brat_text_mismatches": 1}
    (tmp_path / "e.ann").write_text("", encoding="utf-8")
    with pytest.raises(ValueError, match=r"e\.txt: not found"):
        read_brat(tmp_path)
    (tmp_path / "empty").mkdir()
    with pytest.raises(ValueError, match=r"no \.ann files"):
        read_brat(tmp_path / "empty")


def _discontinuous(corpus: Corpus, every: int) -> Corpus:
    """The corpus with every ``every``-th entity of 3+ tokens made discontinuous (its second token left out)."""
    out, n = [], 0
    for spans in corpus.entities:
        kept = []
        for start, end, label in spans:
            n += 1
            kept.append((((start, start + 1), (start + 2, end)), label) if end - start >= 3 and n % every == 0
                        else (start, end, label))
        out.append(kept)
    return Corpus(corpus.tokens, out, source="genia")


def test_genia_with_discontinuous_entities_as_brat_equals_the_w2ner_result(shared_data, tmp_path):
    genia = read_corpus(shared_data / "genia" / "genia-classic.test.w2ner.json")
    gold, pred = _discontinuous(genia, 2), _discontinuous(genia, 3)
    assert gold.discontinuous() > 300 and pred.discontinuous() > 200
    for name, corpus in (("gold", gold), ("pred", pred)):
        write_corpus(corpus, tmp_path / f"{name}.json", "w2ner")
        write_corpus(join_tokens(corpus), tmp_path / name, "brat")
    tokens = score_nested(read_corpus(tmp_path / "pred.json").entities, read_corpus(tmp_path / "gold.json").entities,
                          zero_division=0)
    text = score_text(tmp_path / "pred", tmp_path / "gold", zero_division=0)
    assert tokens["discontinuous_references"] == gold.discontinuous() and 0.5 < tokens["overall_f1"] < 1
    assert {k: v for k, v in text.items() if k not in ("by_length", "alignment")} == {
        k: v for k, v in tokens.items() if k != "by_length"}


@pytest.mark.parametrize(("ann", "fragment"), [
    ("T1\tDNA 0 \u0665\tIL-2\n", "offsets '0 \u0665' of T1 must be 'START END' pairs of integers"),
    ("T1\tDNA 0 4;2 9\tIL-2 gene\n", "d.ann, line 1: T1: fragments (0, 4) and (2, 9) overlap"),
    ("T1\tDNA 0 4\tIL-2\nT2\tDNA 5 9\tgene\nT1\tDNA 0 9\tIL-2 gene\n", "d.ann, line 3: T1 is given twice (first on line 1)"),
])
def test_brat_edge_cases_are_refused_naming_the_line(tmp_path, ann, fragment):
    # QA item 20: \d took an Arabic-Indic digit for 5; overlapping fragments and repeated ids went unnamed
    (tmp_path / "d.txt").write_text("IL-2 gene", encoding="utf-8")
    (tmp_path / "d.ann").write_text(ann, encoding="utf-8")
    with pytest.raises(ValueError) as raised:
        read_brat(tmp_path)
    assert fragment in str(raised.value)


def test_a_bom_counts_as_brat_counts_it(tmp_path):
    # brat's server reads the .txt with Python's utf8 codec, which keeps a byte-order mark as a character
    (tmp_path / "d.txt").write_bytes(b"\xef\xbb\xbfIL-2 gene")
    (tmp_path / "d.ann").write_text("T1\tDNA 1 5\tIL-2\n", encoding="utf-8")
    corpus = read_brat(tmp_path)
    assert corpus.texts == ["\ufeffIL-2 gene"] and corpus.entities == [[(1, 5, "DNA")]] and not corpus.notes


@pytest.mark.parametrize("label", ["Person Name", "Person\tName", "Per\nson"])
def test_the_writer_refuses_labels_a_t_line_cannot_hold(tmp_path, label):
    # QA item 12: "Person Name" was written as "T1\tPerson Name 0 5", which reads back as offsets "Name 0 5"
    corpus = Corpus(["Peter Pan"], [[(0, 5, label)]], ["a"], unit="characters")
    with pytest.raises(ValueError, match=r"document 0 \(id 'a'\): label .* is empty or holds whitespace"):
        write_corpus(corpus, tmp_path / "out", "brat")
    assert not (tmp_path / "out").exists()


def test_ids_are_file_names_and_documents_come_in_natural_order(tmp_path):
    # QA item 11: file names are the documents' ids (no document id besides), and 2 comes before 10
    for name in ("10", "2", "a"):
        (tmp_path / f"{name}.txt").write_text("x", encoding="utf-8")
        (tmp_path / f"{name}.ann").write_text("", encoding="utf-8")
    corpus = read_brat(tmp_path)
    assert corpus.sentence_ids == ["2", "10", "a"] and corpus.doc_ids is None


def _write(folder, documents):
    """``{relative stem: (text, [T line bodies])}`` as .txt and .ann pairs under ``folder``."""
    for stem, (text, lines) in documents.items():
        path = folder / f"{stem}.ann"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.with_suffix(".txt").write_text(text, encoding="utf-8")
        path.write_text("".join(f"T{k}\t{line}\n" for k, line in enumerate(lines, 1)), encoding="utf-8")


def test_a_collection_in_subfolders_is_read_each_document_named_by_its_path(tmp_path):
    """Issue 48 item 14: brat nests collections in folders; every .ann under the folder is read (hidden folders
    aside), its id its path without .ann, in natural order."""
    _write(tmp_path, {"b": ("Ana", ["PER 0 3\tAna"]), "sub/10": ("Rome", ["LOC 0 4\tRome"]),
                      "sub/2": ("Paris", ["LOC 0 5\tParis"]), ".backup/b": ("Ana", ["ORG 0 3\tAna"])})
    corpus = read_brat(tmp_path)
    assert corpus.sentence_ids == ["b", "sub/2", "sub/10"]
    assert corpus.entities == [[(0, 3, "PER")], [(0, 5, "LOC")], [(0, 4, "LOC")]]
    assert corpus.places == [str(tmp_path / "b.ann"), str(tmp_path / "sub" / "2.ann"), str(tmp_path / "sub" / "10.ann")]
    only_below = tmp_path / "sub"
    assert read_brat(only_below).sentence_ids == ["2", "10"]
    with pytest.raises(ValueError, match=r"empty: no \.ann files, in it or in its subfolders; a brat folder holds"):
        (tmp_path / "empty").mkdir()
        read_brat(tmp_path / "empty")


def test_an_empty_ann_is_counted_and_named(tmp_path):
    """Issue 48 item 4: brat writes an empty .ann for a document no one annotated; it reads as marking nothing, said
    in the conversion line every command prints, counted in the notes."""
    _write(tmp_path, {f"d{k}": ("Ana", [] if k != 3 else ["PER 0 3\tAna"]) for k in range(1, 9)})
    (tmp_path / "d2.ann").write_text("\n \n", encoding="utf-8")  # whitespace only: empty too
    corpus = read_brat(tmp_path)
    assert corpus.notes == {"brat_empty_ann_files": 7}
    assert corpus.conversion == (
        "brat standoff, character offsets: 1 T line: 1 entity, 0 event triggers; 7 empty .ann files (a document no "
        "one annotated? it is scored as marking nothing): 'd1', 'd2', 'd4', 'd5', 'd6' and 2 more")
    (tmp_path / "d1.ann").write_text("#1\tAnnotatorNotes T1\tchecked\n", encoding="utf-8")  # a note: not empty
    assert read_brat(tmp_path).notes == {"brat_empty_ann_files": 6}


CONF = """\
# a comment
<ORG-TYPE>=Organization
[entities]
Person | Per
!Group
\tOrganization
\t\tCompany
----
[relations]
Works_for\tArg1:Person, Arg2:<ORG-TYPE>
[events]
Hiring\tEmployee:Person, Employer:Organization
[attributes]
Negated\tArg:<EVENT>
"""


def test_annotation_conf_types_and_the_t_lines_it_does_not_declare(tmp_path):
    """Issue 48 item 5: the nearest annotation.conf (the folder's, else a folder above) declares the entity types
    (aliases after '|', a '!' type only groups) and event types; T lines of other types are read, counted by type
    and said."""
    from nested_span_f1.formats.brat_config import nearest_conf, parse_conf

    conf = parse_conf(CONF, tmp_path / "annotation.conf")
    assert conf.entities == {"Person", "Organization", "Company"} and conf.events == {"Hiring"}
    (tmp_path / "annotation.conf").write_text(CONF, encoding="utf-8")
    _write(tmp_path / "ann1", {"d1": ("Ana hired Bo at ACME", ["Person 0 3\tAna", "Hiring 4 9\thired", "PER 10 12\tBo",
                                                               "Firm 16 20\tACME", "Firm 16 20\tACME"])})
    assert nearest_conf(tmp_path / "ann1").path == tmp_path / "annotation.conf"
    corpus = read_brat(tmp_path / "ann1")
    assert corpus.notes == {"brat_undeclared_type_lines": 3}
    assert corpus.conversion == (f"brat standoff, character offsets: 5 T lines: 5 entities, 0 event triggers; T lines "
                                 f"of types {tmp_path / 'annotation.conf'} does not declare: Firm 2, PER 1")
    (tmp_path / "ann1" / "annotation.conf").write_text("[entities]\nPER\nFirm\nPerson\n[events]\nHiring\n")
    assert read_brat(tmp_path / "ann1").notes == {}  # the folder's own configuration comes first
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "annotation.conf").write_bytes(b"[entities]\n\xff\n")
    with pytest.raises(ValueError, match=r"bad/annotation.conf: byte 11 is not UTF-8"):
        nearest_conf(tmp_path / "bad")


def test_t_lines_name_every_entity_s_id_and_line(tmp_path):
    from nested_span_f1.formats.brat import t_lines

    (tmp_path / "d.txt").write_text("IL-2 gene", encoding="utf-8")
    (tmp_path / "d.ann").write_text("T3\tDNA 0 9\tIL-2 gene\n#1\tAnnotatorNotes T3\tx\nT7\tprotein 0 4;5 9\tIL-2 gene\n",
                                    encoding="utf-8")
    assert t_lines(tmp_path) == {"d": [((0, 9, "DNA"), "T3", 1), ((((0, 4), (5, 9)), "protein"), "T7", 3)]}
    assert t_lines(tmp_path, types=["protein"]) == {"d": [((((0, 4), (5, 9)), "protein"), "T7", 3)]}


@pytest.mark.parametrize("command", ["score", "nested", "benchmark"])
def test_every_command_reading_brat_says_its_empty_ann_and_undeclared_types(command, capsys):
    """Issue 48 items 4 and 5: the header of every command that reads brat (the reading line of each side; the
    benchmark's gold) names the empty .ann files and counts the types annotation.conf does not declare."""
    from nested_span_f1 import sample_path
    from nested_span_f1.cli.main import main

    project = sample_path("brat-project")
    pred = ["--pred", f"a={project}/A"] if command == "benchmark" else ["--pred", f"{project}/A"]
    assert main([command, "--gold", f"{project}/C", *pred]) == 0
    out = capsys.readouterr().out
    said = (f"T lines of types {project}/annotation.conf does not declare: MISC 1; 1 empty .ann file (a document "
            "no one annotated? it is scored as marking nothing): 'd2'")
    header = out.split("\n\n", 4)[3] if command == "benchmark" else out.split("\n\n", 1)[0]
    assert said in header and header.startswith("Gold read as " if command == "benchmark" else "gold:")
