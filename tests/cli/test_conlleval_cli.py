"""The ``conlleval`` sub-command is a drop-in for conlleval.pl (version 2004-01-26).

Every expected output below was produced by running the reference conlleval.pl on
the input beside it, and pasted here verbatim. Our CLI must print the same
characters. Note that conlleval.pl pads type names by bytes, not characters
(``%17s`` on UTF-8 bytes), which the non-ASCII case pins down.
"""
from __future__ import annotations

import subprocess
import sys

import pytest


def run_conlleval(text: str, options: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "nested_span_f1.cli", "conlleval", *options],
        input=text.encode("utf-8"),
        capture_output=True,
        timeout=120,
        check=False,
    )


IOB2_INPUT = (
    "EU NNP B-ORG B-ORG\n"
    "rejects VBZ O O\n"
    "German JJ B-MISC B-MISC\n"
    "call NN O O\n"
    "to TO O O\n"
    "boycott VB O O\n"
    "British JJ B-MISC B-LOC\n"
    "lamb NN O O\n"
    ". . O O\n"
    "\n"
    "Peter NNP B-PER B-PER\n"
    "Blackburn NNP I-PER I-PER\n"
    "\n"
    "BRUSSELS NNP B-LOC B-LOC\n"
    "1996-08-22 CD O O\n"
    "\n"
    "The DT O O\n"
    "European NNP B-ORG B-ORG\n"
    "Commission NNP I-ORG I-ORG\n"
    "said VBD O O\n"
    "Thursday NNP O B-MISC\n"
    "it PRP O O\n"
    "disagreed VBD O O\n"
    "with IN O O\n"
    "German JJ B-MISC B-MISC\n"
    "advice NN O O\n"
    "to TO O O\n"
    "consumers NNS O O\n"
    "to TO O O\n"
    "shun VB O O\n"
    "Werner NNP B-PER B-PER\n"
    "Zwingmann NNP I-PER O\n"
    ". . O O\n"
)

IOB2_EXPECTED = (
    "processed 30 tokens with 8 phrases; found: 9 phrases; correct: 6.\n"
    "accuracy:  90.00%; precision:  66.67%; recall:  75.00%; FB1:  70.59\n"
    "              LOC: precision:  50.00%; recall: 100.00%; FB1:  66.67  2\n"
    "             MISC: precision:  66.67%; recall:  66.67%; FB1:  66.67  3\n"
    "              ORG: precision: 100.00%; recall: 100.00%; FB1: 100.00  2\n"
    "              PER: precision:  50.00%; recall:  50.00%; FB1:  50.00  2\n"
)

MALFORMED_INPUT = (
    "a I-PER I-PER\n"
    "b I-PER I-LOC\n"
    "c O I-LOC\n"
    "d B-LOC I-LOC\n"
    "e I-LOC B-LOC\n"
    "f O O\n"
    "g B-PER I-PER\n"
    "h I-PER B-PER\n"
    "i I-PER I-PER\n"
    "\n"
    "j I-PER I-PER\n"
    "k O O\n"
)

IOB2_MALFORMED_EXPECTED = (
    "processed 11 tokens with 4 phrases; found: 6 phrases; correct: 1.\n"
    "accuracy:  45.45%; precision:  16.67%; recall:  25.00%; FB1:  20.00\n"
    "              LOC: precision:   0.00%; recall:   0.00%; FB1:   0.00  2\n"
    "              PER: precision:  25.00%; recall:  33.33%; FB1:  28.57  4\n"
)

IOB2_BLANK_LINES_INPUT = (
    "\n"
    "\n"
    "A B-PER B-PER\n"
    "\n"
    "\n"
    "B I-PER I-PER\n"
    "C O O\n"
    "\n"
)

IOB2_BLANK_LINES_EXPECTED = (
    "processed 3 tokens with 2 phrases; found: 2 phrases; correct: 2.\n"
    "accuracy: 100.00%; precision: 100.00%; recall: 100.00%; FB1: 100.00\n"
    "              PER: precision: 100.00%; recall: 100.00%; FB1: 100.00  2\n"
)

IOB1_INPUT = (
    "Rockwell NNP I-NP I-NP\n"
    "International NNP I-NP I-NP\n"
    "Corp. NNP I-NP I-NP\n"
    "'s POS B-NP B-NP\n"
    "Tulsa NNP I-NP I-NP\n"
    "unit NN I-NP I-NP\n"
    "said VBD I-VP I-VP\n"
    "it PRP I-NP I-NP\n"
    "signed VBD I-VP I-VP\n"
    "a DT I-NP I-NP\n"
    "tentative JJ I-NP I-NP\n"
    "agreement NN I-NP I-NP\n"
    "extending VBG I-VP I-VP\n"
    "its PRP$ I-NP B-NP\n"
    "contract NN I-NP I-NP\n"
    "with IN I-PP I-PP\n"
    "Boeing NNP I-NP I-NP\n"
    "Co. NNP I-NP I-NP\n"
    "to TO I-VP I-VP\n"
    "provide VB I-VP I-VP\n"
    "structural JJ I-NP I-NP\n"
    "parts NNS I-NP I-NP\n"
    "for IN I-PP I-PP\n"
    "Boeing NNP I-NP I-NP\n"
    "'s POS B-NP I-NP\n"
    "747 CD I-NP I-NP\n"
    "jetliners NNS I-NP I-NP\n"
    ". . O O\n"
)

IOB1_EXPECTED = (
    "processed 28 tokens with 15 phrases; found: 14 phrases; correct: 13.\n"
    "accuracy:  92.86%; precision:  92.86%; recall:  86.67%; FB1:  89.66\n"
    "               NP: precision:  87.50%; recall:  77.78%; FB1:  82.35  8\n"
    "               PP: precision: 100.00%; recall: 100.00%; FB1: 100.00  2\n"
    "               VP: precision: 100.00%; recall: 100.00%; FB1: 100.00  4\n"
)

IOE_INPUT = (
    "the I-NP I-NP\n"
    "cat E-NP E-NP\n"
    "sat I-VP E-VP\n"
    "on I-PP E-PP\n"
    "the I-NP I-NP\n"
    "mat E-NP I-NP\n"
    "and O O\n"
    "the I-NP E-NP\n"
    "dog E-NP E-NP\n"
    "ran E-VP E-VP\n"
    "home E-NP O\n"
)

IOE_EXPECTED = (
    "processed 11 tokens with 7 phrases; found: 7 phrases; correct: 5.\n"
    "accuracy:  54.55%; precision:  71.43%; recall:  71.43%; FB1:  71.43\n"
    "               NP: precision:  50.00%; recall:  50.00%; FB1:  50.00  4\n"
    "               PP: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
    "               VP: precision: 100.00%; recall: 100.00%; FB1: 100.00  2\n"
)

TYPES_WITH_DASH_INPUT = (
    "Acme B-ORG-SUB B-ORG-SUB\n"
    "Labs I-ORG-SUB I-ORG-SUB\n"
    "in O O\n"
    "New B-LOC-CITY B-LOC-CITY\n"
    "York I-LOC-CITY I-LOC\n"
    "hired O O\n"
    "Ann B-PER B-ORG-SUB\n"
)

TYPES_WITH_DASH_EXPECTED = (
    "processed 7 tokens with 3 phrases; found: 4 phrases; correct: 1.\n"
    "accuracy:  71.43%; precision:  25.00%; recall:  33.33%; FB1:  28.57\n"
    "              LOC: precision:   0.00%; recall:   0.00%; FB1:   0.00  1\n"
    "         LOC-CITY: precision:   0.00%; recall:   0.00%; FB1:   0.00  1\n"
    "          ORG-SUB: precision:  50.00%; recall: 100.00%; FB1:  66.67  2\n"
    "              PER: precision:   0.00%; recall:   0.00%; FB1:   0.00  0\n"
)

NO_ENTITIES_INPUT = (
    "a DT O O\n"
    "b NN O O\n"
    "\n"
    "c VB O O\n"
)

NO_ENTITIES_EXPECTED = (
    "processed 3 tokens with 0 phrases; found: 0 phrases; correct: 0.\n"
    "accuracy: 100.00%; precision:   0.00%; recall:   0.00%; FB1:   0.00\n"
)

NOTHING_FOUND_INPUT = (
    "John NNP B-PER O\n"
    "Smith NNP I-PER O\n"
    "visited VBD O O\n"
    "Paris NNP B-LOC O\n"
    ". . O O\n"
)

NOTHING_FOUND_EXPECTED = (
    "processed 5 tokens with 2 phrases; found: 0 phrases; correct: 0.\n"
    "accuracy:  40.00%; precision:   0.00%; recall:   0.00%; FB1:   0.00\n"
    "              LOC: precision:   0.00%; recall:   0.00%; FB1:   0.00  0\n"
    "              PER: precision:   0.00%; recall:   0.00%; FB1:   0.00  0\n"
)

BOUNDARY_LINES_INPUT = (
    "-DOCSTART- -X- O O\n"
    "-X- -X- O O\n"
    "John NNP B-PER B-PER\n"
    "-X- -X- O O\n"
    "Smith NNP I-PER I-PER\n"
    "lives VBZ O O\n"
    "-X- x x x\n"
    "in IN O O\n"
    "Rome NNP B-LOC B-LOC\n"
    "-X- -X- O O\n"
    "Oslo NNP B-LOC I-LOC\n"
)

BOUNDARY_LINES_EXPECTED = (
    "processed 7 tokens with 4 phrases; found: 4 phrases; correct: 4.\n"
    "accuracy:  85.71%; precision: 100.00%; recall: 100.00%; FB1: 100.00\n"
    "              LOC: precision: 100.00%; recall: 100.00%; FB1: 100.00  2\n"
    "              PER: precision: 100.00%; recall: 100.00%; FB1: 100.00  2\n"
)

TAB_DELIMITER_INPUT = (
    "New York\tNNP\tB-LOC\tB-LOC\n"
    "City\tNNP\tI-LOC\tO\n"
    "is\tVBZ\tO\tO\n"
    "big and old\tJJ\tO\tB-MISC\n"
    "\n"
    "Ann\tNNP\tB-PER\tB-PER\n"
)

TAB_DELIMITER_EXPECTED = (
    "processed 5 tokens with 2 phrases; found: 3 phrases; correct: 1.\n"
    "accuracy:  60.00%; precision:  33.33%; recall:  50.00%; FB1:  40.00\n"
    "              LOC: precision:   0.00%; recall:   0.00%; FB1:   0.00  1\n"
    "             MISC: precision:   0.00%; recall:   0.00%; FB1:   0.00  1\n"
    "              PER: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
)

RAW_INPUT = (
    "John PER PER\n"
    "Smith PER PER\n"
    "went O O\n"
    "to O O\n"
    "Paris LOC ORG\n"
    "and O LOC\n"
    "Rome LOC LOC\n"
)

RAW_EXPECTED = (
    "processed 7 tokens with 4 phrases; found: 5 phrases; correct: 3.\n"
    "accuracy:  71.43%; precision:  60.00%; recall:  75.00%; FB1:  66.67\n"
    "              LOC: precision:  50.00%; recall:  50.00%; FB1:  50.00  2\n"
    "              ORG: precision:   0.00%; recall:   0.00%; FB1:   0.00  1\n"
    "              PER: precision: 100.00%; recall: 100.00%; FB1: 100.00  2\n"
)

RAW_OTHER_O_INPUT = (
    "John PER PER\n"
    "Smith PER NONE\n"
    "went NONE NONE\n"
    "to NONE LOC\n"
    "Paris LOC LOC\n"
)

RAW_OTHER_O_EXPECTED = (
    "processed 5 tokens with 3 phrases; found: 3 phrases; correct: 2.\n"
    "accuracy:  60.00%; precision:  66.67%; recall:  66.67%; FB1:  66.67\n"
    "              LOC: precision:  50.00%; recall: 100.00%; FB1:  66.67  2\n"
    "              PER: precision: 100.00%; recall:  50.00%; FB1:  66.67  1\n"
)

OUTSIDE_TAG_WITHOUT_RAW_EXPECTED = (
    "processed 11 tokens with 4 phrases; found: 6 phrases; correct: 1.\n"
    "accuracy:  45.45%; precision:  16.67%; recall:  25.00%; FB1:  20.00\n"
    "              LOC: precision:   0.00%; recall:   0.00%; FB1:   0.00  2\n"
    "              PER: precision:  25.00%; recall:  33.33%; FB1:  28.57  4\n"
)

LATEX_EXPECTED = (
    "        & Precision &  Recall  & F$_{\\beta=1} \\\\\\hline\n"
    "LOC     &   50.00\\% & 100.00\\% &  66.67 \\\\\n"
    "MISC    &   66.67\\% &  66.67\\% &  66.67 \\\\\n"
    "ORG     &  100.00\\% & 100.00\\% & 100.00 \\\\\n"
    "PER     &   50.00\\% &  50.00\\% &  50.00 \\\\\\hline\n"
    "Overall &   66.67\\% &  75.00\\% &  70.59 \\\\\\hline\n"
)

LATEX_NO_ENTITIES_EXPECTED = (
    "        & Precision &  Recall  & F$_{\\beta=1} \\\\\\hline\\hline\n"
    "Overall &    0.00\\% &   0.00\\% &   0.00 \\\\\\hline\n"
)

NON_ASCII_INPUT = (
    "Zürich B-ÖRT B-ÖRT\n"
    "liegt O O\n"
    "in O O\n"
    "der O O\n"
    "Schweiz B-LAND B-ÖRT\n"
    "東京 B-地名 B-地名\n"
    "都 I-地名 O\n"
)

NON_ASCII_EXPECTED = (
    "processed 7 tokens with 3 phrases; found: 3 phrases; correct: 1.\n"
    "accuracy:  71.43%; precision:  33.33%; recall:  33.33%; FB1:  33.33\n"
    "             LAND: precision:   0.00%; recall:   0.00%; FB1:   0.00  0\n"
    "             ÖRT: precision:  50.00%; recall: 100.00%; FB1:  66.67  2\n"
    "           地名: precision:   0.00%; recall:   0.00%; FB1:   0.00  1\n"
)

EMPTY_INPUT = ""

EMPTY_EXPECTED = (
    "processed 0 tokens with 0 phrases; found: 0 phrases; correct: 0.\n"
)

TWO_COLUMNS_INPUT = (
    "B-PER B-PER\n"
    "I-PER I-PER\n"
    "O B-LOC\n"
)

TWO_COLUMNS_EXPECTED = (
    "processed 3 tokens with 1 phrases; found: 2 phrases; correct: 1.\n"
    "accuracy:  66.67%; precision:  50.00%; recall: 100.00%; FB1:  66.67\n"
    "              LOC: precision:   0.00%; recall:   0.00%; FB1:   0.00  1\n"
    "              PER: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
)

# -d as a regex, with conlleval.pl's output: a no-break space (bytes c2 a0) is no \s to Perl, which reads bytes
WHITESPACE_INPUT = (
    "EU\u00a0x NNP B-ORG B-ORG\n"
    "rejects\t\tVBZ O O\n"
    "German  JJ B-MISC B-MISC\n"
    "\n"
    "Peter NNP B-PER I-PER\n"
    "Black|burn NNP I-PER O\n"
)

WHITESPACE_EXPECTED = (
    "processed 5 tokens with 3 phrases; found: 3 phrases; correct: 2.\n"
    "accuracy:  60.00%; precision:  66.67%; recall:  66.67%; FB1:  66.67\n"
    "             MISC: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
    "              ORG: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
    "              PER: precision:   0.00%; recall:   0.00%; FB1:   0.00  1\n"
)

ONE_CHUNK_EXPECTED = (
    "processed 2 tokens with 1 phrases; found: 1 phrases; correct: 1.\n"
    "accuracy: 100.00%; precision: 100.00%; recall: 100.00%; FB1: 100.00\n"
    "              ORG: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
)

CASES = [
    pytest.param(IOB2_INPUT, [], IOB2_EXPECTED, id='iob2'),
    pytest.param(MALFORMED_INPUT, [], IOB2_MALFORMED_EXPECTED, id='iob2-malformed'),
    pytest.param(IOB2_BLANK_LINES_INPUT, [], IOB2_BLANK_LINES_EXPECTED, id='iob2-blank-lines'),
    pytest.param(IOB1_INPUT, [], IOB1_EXPECTED, id='iob1'),
    pytest.param(IOE_INPUT, [], IOE_EXPECTED, id='ioe'),
    pytest.param(TYPES_WITH_DASH_INPUT, [], TYPES_WITH_DASH_EXPECTED, id='types-with-dash'),
    pytest.param(NO_ENTITIES_INPUT, [], NO_ENTITIES_EXPECTED, id='no-entities'),
    pytest.param(NOTHING_FOUND_INPUT, [], NOTHING_FOUND_EXPECTED, id='nothing-found'),
    pytest.param(BOUNDARY_LINES_INPUT, [], BOUNDARY_LINES_EXPECTED, id='boundary-lines'),
    pytest.param(TAB_DELIMITER_INPUT, ['-d', '\t'], TAB_DELIMITER_EXPECTED, id='tab-delimiter'),
    pytest.param(RAW_INPUT, ['-r'], RAW_EXPECTED, id='raw'),
    pytest.param(RAW_OTHER_O_INPUT, ['-r', '-o', 'NONE'], RAW_OTHER_O_EXPECTED, id='raw-other-o'),
    pytest.param(MALFORMED_INPUT, ['-o', 'I-PER'], OUTSIDE_TAG_WITHOUT_RAW_EXPECTED, id='outside-tag-without-raw'),
    pytest.param(IOB2_INPUT, ['-l'], LATEX_EXPECTED, id='latex'),
    pytest.param(NO_ENTITIES_INPUT, ['-l'], LATEX_NO_ENTITIES_EXPECTED, id='latex-no-entities'),
    pytest.param(NON_ASCII_INPUT, [], NON_ASCII_EXPECTED, id='non-ascii'),
    pytest.param(EMPTY_INPUT, [], EMPTY_EXPECTED, id='empty'),
    pytest.param(TWO_COLUMNS_INPUT, [], TWO_COLUMNS_EXPECTED, id='two-columns'),
    pytest.param(WHITESPACE_INPUT, ['-d', '\\s+'], WHITESPACE_EXPECTED, id='regex-whitespace-run'),
    pytest.param(WHITESPACE_INPUT, ['-d', '[ \\t]+'], WHITESPACE_EXPECTED, id='regex-set-run'),
    pytest.param("EU|B-ORG|B-ORG\nx|O|O\n", ['-d', '\\|'], ONE_CHUNK_EXPECTED, id='regex-escaped-bar'),
    pytest.param("EU B-ORG B-ORG \nx O O  \n", ['-d', ' +'], ONE_CHUNK_EXPECTED, id='regex-trailing-run'),
    pytest.param("EU\tB-ORG\tB-ORG\nx\tO\tO\n", ['-d', '\\t'], ONE_CHUNK_EXPECTED, id='escaped-tab'),
]


@pytest.mark.parametrize(("text", "options", "expected"), CASES)
def test_conlleval_output_matches_reference(text, options, expected):
    done = run_conlleval(text, options)
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")
    assert done.stdout.decode("utf-8") == expected


def test_outside_tag_only_matters_in_raw_mode():
    assert run_conlleval(MALFORMED_INPUT, ["-o", "I-PER"]).stdout == run_conlleval(MALFORMED_INPUT, []).stdout


@pytest.mark.parametrize("delimiter", ["(a+)+$", "(a|aa)+$", "a*a*a*a*a*a*a*a*a*a*b", "\\s*\\s*\\s*x", "(?=a)b",
                                       "[[:space:]]+"])
def test_a_delimiter_that_could_backtrack_for_ever_is_refused_at_once(delimiter):
    """conlleval.pl returns at once on ``-d '(a+)+$'``, where Python's regex engine takes exponential time on a
    line of 41 characters: such a delimiter is refused in one line before any input is read."""
    done = subprocess.run([sys.executable, "-m", "nested_span_f1.cli", "conlleval", "-d", delimiter],
                          input=b"a" * 40 + b" B-X B-X\n", capture_output=True, timeout=60, check=False)
    assert (done.returncode, done.stdout) == (2, b"")
    assert done.stderr.decode() == (
        f"nested-span-f1 conlleval: error: -d {delimiter!r}: a delimiter is made of characters, escapes (\\t, "
        "\\x09, \\|), classes (\\s, [ \\t]) and '.', the last of which may repeat (+, *, ?, {1,n}), such as ' ', "
        "'\\t', '\\s+' or '[ \\t]+'; anything else (groups, alternatives, anchors, inner repeats, POSIX classes) is "
        "refused, as Python's regex engine can take exponential time on it where Perl's does not, or reads it "
        "otherwise\n")


def test_delimiter_must_split_lines():
    # with the default single-space delimiter a tab-separated file has one field a line
    done = run_conlleval("a\tB-PER\tB-PER\n", [])
    assert done.returncode == 2
    assert done.stdout == b""
    assert done.stderr.decode().strip().endswith("pass -d '\\t' for tab-separated input")


ELMO_EXPECTED = (
    "processed 46435 tokens with 5648 phrases; found: 5658 phrases; correct: 5213.\n"
    "accuracy:  98.25%; precision:  92.14%; recall:  92.30%; FB1:  92.22\n"
    "              LOC: precision:  93.78%; recall:  93.05%; FB1:  93.41  1655\n"
    "             MISC: precision:  81.34%; recall:  81.34%; FB1:  81.34  702\n"
    "              ORG: precision:  90.11%; recall:  91.57%; FB1:  90.83  1688\n"
    "              PER: precision:  97.27%; recall:  97.03%; FB1:  97.15  1613\n"
)
FLAIR_EXPECTED = (
    "processed 46435 tokens with 5648 phrases; found: 5682 phrases; correct: 5270.\n"
    "accuracy:  98.42%; precision:  92.75%; recall:  93.31%; FB1:  93.03\n"
    "              LOC: precision:  93.66%; recall:  93.82%; FB1:  93.74  1671\n"
    "             MISC: precision:  83.99%; recall:  84.47%; FB1:  84.23  706\n"
    "              ORG: precision:  91.15%; recall:  92.41%; FB1:  91.78  1684\n"
    "              PER: precision:  97.29%; recall:  97.53%; FB1:  97.41  1621\n"
)


@pytest.mark.parametrize(("system", "expected"), [("elmo", ELMO_EXPECTED), ("flair", FLAIR_EXPECTED)])
def test_conll2003_system_outputs(shared_data, system, expected):
    folder = shared_data / "conll2003"
    gold = (folder / "test.gold.conll").read_text(encoding="utf-8").splitlines()
    pred = (folder / f"test.{system}.conll").read_text(encoding="utf-8").splitlines()
    lines = []
    assert len(gold) == len(pred)
    for g, p in zip(gold, pred):
        if g.strip():
            token, gold_tag = g.split("\t")
            lines.append(f"{token} {gold_tag} {p.split(chr(9))[1]}")
        else:
            lines.append("")
    done = run_conlleval("\n".join(lines) + "\n", [])
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")
    assert done.stdout.decode("utf-8") == expected
