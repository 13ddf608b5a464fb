"""BMES tags (``B-``, ``M-``, ``E-``, ``S-``: MSRA, Resume and Weibo as they ship) are a scheme of their own.

Held: a BMES corpus gives, in default mode (seqeval's and conlleval's rules) and in strict mode (the scheme
passed or detected), the counts and notes of the same corpus with every ``M`` rewritten ``I`` under IOBES, through
``count_exact``, ``tags_to_spans`` and the lenient metric; on well-formed BMES, default mode's chunks are seqeval's
(which warns about ``M-`` and reads it by type changes, the same chunks there); around a stray ``M-`` they differ,
as docs/DESIGN.md, 'Default mode', says. The doors (``score``, ``lenient``, ``conlleval``, ``convert``, the evaluate
modules) read a file shaped as Resume's (a character a line) with exact numbers; a bad tag is named where it first
occurs in the files.
"""
from __future__ import annotations

import json
import subprocess
import sys
import warnings

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from seqeval.metrics.sequence_labeling import get_entities

from nested_span_f1 import count_exact, score_exact, tags_to_spans
from nested_span_f1.cli.main import main
from nested_span_f1.flat.schemes import CONLLEVAL_DEFAULT, SEQEVAL_DEFAULT, detect_scheme, get_scheme
from nested_span_f1.flat.tags import label_list_scheme, reference_prefixes
from nested_span_f1.lenient.score import score_lenient

TYPES = ("NAME", "ORG", "CONT-X")
RULES = {"seqeval": SEQEVAL_DEFAULT, "conlleval": CONLLEVAL_DEFAULT}


def _tag(letters: str, suffix: bool) -> st.SearchStrategy[str]:
    typed = st.builds(lambda p, t: f"{t}-{p}" if suffix else f"{p}-{t}", st.sampled_from(letters), st.sampled_from(TYPES))
    return st.one_of(st.just("O"), typed, st.sampled_from(letters))


@st.composite
def corpora(draw, letters: str = "BMES", suffix: bool = False):
    """Aligned (predictions, references) of BMES tags, malformed sequences and bare prefixes included."""
    tag = _tag(letters, suffix)
    references = draw(st.lists(st.lists(tag, max_size=9), min_size=1, max_size=6))
    predictions = [list(s) if draw(st.booleans()) else [draw(tag) for _ in s] for s in references]
    return predictions, references


def as_iobes(sentences, suffix: bool = False):
    """Every ``M`` prefix rewritten ``I``."""
    def tag(t: str) -> str:
        if t == "M" or (not suffix and t.startswith("M-")):
            return "I" + t[1:]
        return t[:-1] + "I" if suffix and t.endswith("-M") else t

    return [[tag(t) for t in sentence] for sentence in sentences]


def _counts(counts):
    return (counts.to_dict(), dict(counts.notes))


@given(corpora(), st.sampled_from([None, "strict"]), st.sampled_from(list(RULES)), st.booleans())
def test_bmes_counts_are_iobes_counts_with_m_for_i(corpus, mode, rules, suffix):
    predictions, references = corpus
    if suffix:  # the same tags with the prefix last
        predictions, references = ([[t if len(t) == 1 else f"{t[2:]}-{t[0]}" for t in s] for s in side]
                                   for side in corpus)
    options = {"mode": mode, "default_rules": RULES[rules], "suffix": suffix}
    got = count_exact(predictions, references, scheme="BMES", **options)
    expected = count_exact(as_iobes(predictions, suffix), as_iobes(references, suffix), scheme="IOBES", **options)
    assert _counts(got) == _counts(expected)
    if mode is None:  # and without a scheme: the repairing decoder alone
        assert _counts(count_exact(predictions, references, **options)) == _counts(
            count_exact(as_iobes(predictions, suffix), as_iobes(references, suffix), **options))


@given(corpora(letters="BMES"))
def test_strict_mode_detects_bmes_where_it_detects_iobes_from_i(corpus):
    """Without a scheme, strict mode detects BMES from references holding M where it detects IOBES from the same
    references with I, and counts the same; any other set holding M is refused (``B M``, which IOB2's ``B I``
    would be, is no BMES gold)."""
    predictions, references = corpus
    if not any(t[0] == "M" for s in references for t in s):
        return
    iobes = detect_scheme(reference_prefixes([t for s in as_iobes(references) for t in s]))
    if iobes is not None and iobes.name == "IOBES":
        try:
            expected = _counts(count_exact(as_iobes(predictions), as_iobes(references), mode="strict"))
        except ValueError as error:  # a prediction's prefix IOBES lacks: BMES lacks it too
            with pytest.raises(ValueError, match="is not part of scheme BMES"):
                count_exact(predictions, references, mode="strict")
            assert "is not part of scheme IOBES" in str(error)
        else:
            assert _counts(count_exact(predictions, references, mode="strict")) == expected
    else:
        with pytest.raises(ValueError, match=r"^strict mode needs a scheme: the reference prefixes \("):
            count_exact(predictions, references, mode="strict")


def test_detection_sets():
    codes = {letter: "OBIESULM".index(letter) for letter in "OBIESULM"}

    def detect(letters: str):
        found = detect_scheme([codes[c] for c in letters])
        return found.name if found else None

    assert [detect(s) for s in ("OBMES", "BMES", "OBME", "BME", "OBES", "S", "OBIMES", "OMES", "OM")] == [
        "BMES", "BMES", "BMES", "BMES", "IOBES", "IOBES", None, None, None]
    assert get_scheme("bmeso").name == get_scheme("BMEOS").name == "BMES"
    # a model's label list decides the scheme of every batch: BMES from its M
    assert label_list_scheme(["O", "B-PER", "M-PER", "E-PER", "S-PER"], strict=True).name == "BMES"


@st.composite
def well_formed(draw):
    """A well-formed BMES sentence: O, S-X, or B-X M-X ... E-X."""
    tags: list[str] = []
    for kind, label, inner in draw(st.lists(st.tuples(st.sampled_from("OSC"), st.sampled_from(TYPES),
                                                      st.integers(0, 3)), max_size=8)):
        tags += ["O"] if kind == "O" else [f"S-{label}"] if kind == "S" else [
            f"B-{label}", *[f"M-{label}"] * inner, f"E-{label}"]
    return tags


@given(st.lists(well_formed(), min_size=1, max_size=5))
def test_well_formed_bmes_decodes_as_seqeval_decodes_it(sentences):
    """seqeval warns that M- 'seems not to be NE tag' and reads it by type changes alone: on well-formed BMES that
    gives the chunks M read as I gives (and strict BMES keeps them all)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = [sorted((start, end + 1, label) for label, start, end in get_entities(s)) for s in sentences]
    assert [sorted(spans) for spans in tags_to_spans(sentences)] == expected
    assert [sorted(spans) for spans in tags_to_spans(sentences, mode="strict", scheme="BMES")] == expected


@pytest.mark.parametrize(("tags", "ours", "seqevals"), [
    # no rule of seqeval ends a chunk at M-, so the B- after it restarts the open chunk
    pytest.param(["B-X", "M-X", "B-X"], [(0, 2, "X"), (2, 3, "X")], [(2, 3, "X")], id="B-M-B"),
    # seqeval starts nothing at M- after S- of its type: the chunk reuses S-'s offset
    pytest.param(["S-X", "M-X", "O"], [(0, 1, "X"), (1, 2, "X")], [(0, 1, "X"), (0, 2, "X")], id="S-M"),
    pytest.param(["O", "M-X", "E-X"], [(1, 3, "X")], [(1, 3, "X")], id="M-after-O-starts"),
])
def test_a_stray_m_is_read_as_i_where_seqeval_reads_it_otherwise(tags, ours, seqevals):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert sorted((s, e + 1, t) for t, s, e in get_entities(tags)) == seqevals
    assert sorted(tags_to_spans([tags])[0]) == ours == sorted(tags_to_spans(as_iobes([tags]))[0])


@given(corpora(), st.sampled_from([None, "strict"]))
def test_the_lenient_metric_reads_bmes_as_iobes_with_m_for_i(corpus, mode):
    predictions, references = corpus
    assume(any(references))  # sentences without a tag are no tag input: scheme= is refused with span lists
    got = score_lenient(predictions, references, scheme="BMES", mode=mode, zero_division=0)
    assert got == score_lenient(as_iobes(predictions), as_iobes(references), scheme="IOBES", mode=mode,
                                zero_division=0)


# --------------------------------------------------------------------------- the doors, on a file shaped as Resume's

GOLD = ("高 B-NAME\n勇 E-NAME\n： O\n男 O\n， O\n中 B-CONT\n国 M-CONT\n国 M-CONT\n籍 E-CONT\n， O\n汉 B-RACE\n族 E-RACE\n"
        "， O\n本 B-EDU\n科 M-EDU\n学 M-EDU\n历 E-EDU\n\n李 S-NAME\n某 O\n任 O\n工 B-TITLE\n程 M-TITLE\n师 E-TITLE\n")
"""A character a line and BMES tags, as Resume's files are (the first sentence is the corpus's first)."""
PRED = (GOLD.replace("国 M-CONT\n国 M-CONT\n籍 E-CONT", "国 E-CONT\n国 O\n籍 O").replace("族 E-RACE", "族 M-RACE")
        .replace("李 S-NAME\n某 O", "李 B-NAME\n某 E-NAME"))
"""The gold with a chunk cut short, one left open by a stray M- (strict mode drops it), and one made longer."""
TABLE = """p.bmes against g.bmes: 2 sentences

          precision     recall         f1   number
    CONT     0.0000     0.0000     0.0000        1
     EDU     1.0000     1.0000     1.0000        1
    NAME     0.5000     0.5000     0.5000        2
    RACE     {race:.4f}     {race:.4f}     {race:.4f}        1
   TITLE     1.0000     1.0000     1.0000        1

"""


def _files(tmp_path):
    (tmp_path / "g.bmes").write_text(GOLD, encoding="utf-8")
    (tmp_path / "p.bmes").write_text(PRED, encoding="utf-8")
    return tmp_path / "g.bmes", tmp_path / "p.bmes"


def _run(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def test_score_reads_bmes_in_default_and_strict_mode(tmp_path, capsys, monkeypatch):
    gold, pred = _files(tmp_path)
    monkeypatch.chdir(tmp_path)
    code, out, _ = _run(capsys, "score", "--gold", "g.bmes", "--pred", "p.bmes")
    assert code == 0 and out == TABLE.format(race=1) + (
        " overall     0.6667     0.6667     0.6667        6\n"
        "   macro     0.7000     0.7000     0.7000        6\n"
        "weighted     0.6667     0.6667     0.6667        6\n"
        " untyped     0.6667     0.6667     0.6667        6\n\n"
        "token accuracy 0.7391\ntp=4  fp=2  fn=2\n")
    strict = (" overall     0.6000     0.5000     0.5455        6\n"
              "   macro     0.5000     0.5000     0.5000        6\n"
              "weighted     0.5000     0.5000     0.5000        6\n"
              " untyped     0.6000     0.5000     0.5455        6\n\n"
              "token accuracy 0.7391\ntp=3  fp=2  fn=3  invalid_predicted_chunks=1  invalid_reference_chunks=0\n")
    for scheme in ([], ["--scheme", "BMES"]):  # detected from the gold's M, or named
        code, out, _ = _run(capsys, "score", "--gold", "g.bmes", "--pred", "p.bmes", "--mode", "strict", *scheme)
        assert code == 0 and out == TABLE.format(race=0) + strict
    code, out, err = _run(capsys, "score", "--gold", gold, "--pred", pred, "--mode", "strict", "--scheme", "IOBES")
    assert (code, out) == (2, "")
    assert err == (f"nested-span-f1 score: error: references, sentence 1, token 7 ({gold} line 7): tag 'M-CONT': prefix "
                   "M is not part of scheme IOBES (allowed: I, O, B, E, S; M is in BMES); pick the scheme the tags use, "
                   "or score in default mode\n")


def test_lenient_reads_bmes(tmp_path, capsys):
    gold, pred = _files(tmp_path)
    code, out, _ = _run(capsys, "lenient", "--gold", gold, "--pred", pred, "--scheme", "BMES", "--mode", "strict")
    assert code == 0 and out.split("\n", 1)[1] == (
        "\n          precision     recall         f1    COR    INC    PAR    MIS    SPU\n"
        "  strict     0.6000     0.5000     0.5455      3      2      0      1      0\n"
        "   exact     0.6000     0.5000     0.5455      3      2      0      1      0\n"
        " partial     0.8000     0.6667     0.7273      3      0      2      1      0\n"
        "    type     1.0000     0.8333     0.9091      5      0      0      1      0\n\n"
        "errors: correct=3  type_error=0  boundary_error=2  boundary_type_error=0  missed=1  spurious=0\n"
        "found: invalid_predicted_chunks=1\n")


def _conlleval(text: str) -> str:
    done = subprocess.run([sys.executable, "-m", "nested_span_f1.cli", "conlleval"], input=text.encode("utf-8"),
                          capture_output=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout.decode("utf-8")


def test_conlleval_reads_bmes_as_it_reads_the_tags_with_i_for_m():
    lines = [f"{g} {p.split(' ')[-1]}" if g else "" for g, p in zip(GOLD.split("\n"), PRED.split("\n"))]
    text = "\n".join(lines)
    assert _conlleval(text) == (
        "processed 23 tokens with 6 phrases; found: 6 phrases; correct: 4.\n"
        "accuracy:  73.91%; precision:  66.67%; recall:  66.67%; FB1:  66.67\n"
        "             CONT: precision:   0.00%; recall:   0.00%; FB1:   0.00  1\n"
        "              EDU: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
        "             NAME: precision:  50.00%; recall:  50.00%; FB1:  50.00  2\n"
        "             RACE: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
        "            TITLE: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n")
    rewritten = "\n".join(" ".join("I" + f[1:] if f.startswith("M-") else f for f in line.split(" ")) for line in lines)
    assert _conlleval(text) == _conlleval(rewritten)


def test_convert_reads_bmes_with_the_scheme(tmp_path, capsys):
    gold, _ = _files(tmp_path)
    code, out, _ = _run(capsys, "convert", gold, "--to", "text", "--output", tmp_path / "g.jsonl", "--scheme", "BMES")
    assert code == 0 and "tags decoded to spans (BMES, strict; written back as IOB2)" in out
    records = [json.loads(line) for line in (tmp_path / "g.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [[(e["text"], e["label"]) for e in r["entities"]] for r in records] == [
        [("高 勇", "NAME"), ("中 国 国 籍", "CONT"), ("汉 族", "RACE"), ("本 科 学 历", "EDU")],
        [("李", "NAME"), ("工 程 师", "TITLE")]]


def test_a_bad_tag_is_named_where_it_first_occurs_in_the_files(tmp_path, capsys):
    """The gold's bad tag on line 2 is named before the predictions' on line 4 (the predictions' went first
    before); at the same token, the prediction's is named."""
    (tmp_path / "g").write_text("高 B-NAME\n勇 X-NAME\n\n李 S-NAME\n", encoding="utf-8")
    (tmp_path / "p").write_text("高 B-NAME\n勇 E-NAME\n\n李 Q-NAME\n", encoding="utf-8")
    code, _, err = _run(capsys, "score", "--gold", tmp_path / "g", "--pred", tmp_path / "p")
    assert (code, err) == (2, f"nested-span-f1 score: error: references, sentence 1, token 2 ({tmp_path / 'g'} line 2): "
                              "tag 'X-NAME': malformed: no valid prefix: tags are O or B-TYPE with a prefix among O, B, "
                              "I, E, S, U, L, M\n")
    with pytest.raises(ValueError, match=r"^references, sentence 0, token 1: tag 'X-NAME'"):
        score_exact([["B-NAME", "E-NAME"], ["Q-NAME"]], [["B-NAME", "X-NAME"], ["S-NAME"]])
    with pytest.raises(ValueError, match=r"^predictions, sentence 0, token 1: tag 'Q-NAME'"):
        score_exact([["B-NAME", "Q-NAME"]], [["B-NAME", "X-NAME"]])


evaluate = pytest.importorskip("evaluate")


@pytest.mark.parametrize("module", ["exact", "lenient", "nested"])
def test_the_evaluate_modules_read_bmes(module):
    import nested_span_f1

    def sentences(text):
        return [[line.split(" ")[1] for line in block.split("\n") if line] for block in text.strip().split("\n\n")]

    metric = evaluate.load(nested_span_f1.metric_path(module))
    result = metric.compute(predictions=sentences(PRED), references=sentences(GOLD), scheme="BMES", mode="strict",
                            zero_division=0)
    key = {"lenient": "strict_f1"}.get(module, "overall_f1")
    assert result[key] == pytest.approx(6 / 11, abs=1e-15) and result["invalid_predicted_chunks"] == 1
