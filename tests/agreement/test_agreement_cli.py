"""``nested-span-f1 agreement``: the report on the samples, the reference and models, names, and docs/agreement.md's
commands (docs/DESIGN.md, 'Agreement between annotators')."""
import re
import subprocess
import sys
from pathlib import Path

from nested_span_f1 import sample_path
from nested_span_f1.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
GOLD, SECOND, PRED = (sample_path(name) for name in ("nested.gold.jsonl", "nested.annotator2.jsonl",
                                                      "nested.pred.jsonl"))


def run(capsys, *args):
    code = main(["agreement", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_report_on_the_samples(capsys):
    code, out, err = run(capsys, f"first={GOLD}", f"second={SECOND}", "--show", "1")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == ("agreement of 2 annotators (first, second) on 6 sentences held by every set; the intervals "
                        "resample 6 sentences")
    table = lines[lines.index("pair          exact F1  precision  recall  tp  fp  fn  lenient F1  untyped F1  "
                              "Cohen's kappa"):][:2]
    assert table[1] == "first|second    0.7143     0.7143  0.7143  10   4   4      0.8571      0.7857         0.7910"
    assert ("mean pairwise F1 ± sd [interval of the mean]: exact 0.7143 ± 0.0000 [0.4444, 0.9167], lenient 0.8571 "
            "± 0.0000 [0.6923, 0.9730], untyped 0.7857 ± 0.0000 [0.4761, 0.9697]") in lines
    assert "cell_type  0.5000 ± 0.0000  1.0000 ± 0.0000" in lines
    assert lines[1:3] == [
        "F1 on annotations: each annotation counts once (instance-based); no discontinuous entity; every mean is over "
        "the pairs of annotators, ± its standard deviation (population)",
        "sentences an annotator marked nothing in, scored as marking nothing: first 1 ('s5'); second 1 ('s5')"]
    assert ("chance-corrected agreement on 58 tokens: the unit is tokens (the documents' own), each labelled with its "
            "IOB2 tag (a position inside several spans: all their tags, outermost first)") in lines
    assert "Fleiss' kappa 0.7906; Krippendorff's alpha (nominal) 0.7924 on 58 tokens" in lines
    assert "first|second         2     1                  0        2" in lines
    shown = lines[lines.index("first|second type (1, showing 1):"):][:3]
    assert shown == ["first|second type (1, showing 1):",
                     "  document 's4': first protein 'GATA-1' | second DNA 'GATA-1'",
                     "      in: Expression of GATA-1 mRNA was low in erythroid progenitor"]
    assert "against the reference" not in out


def test_reference_and_model_beside_the_annotators(capsys):
    code, out, err = run(capsys, f"first={GOLD}", f"second={SECOND}", "--reference", "first", "--model",
                         f"tagger={PRED}")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    table = lines[lines.index("against the reference first (each set scored as predictions of it)") + 1:]
    assert re.fullmatch(r"second \(annotator\)\s+0\.7143\s+\[0\.4444, 0\.9167\]\s+0\.7143\s+0\.7143\s+0\.8571\s+"
                        r"0\.7857", table[1])
    assert re.fullmatch(r"tagger \(model\)\s+0\.6667\s+\[\S+, \S+\]\s+0\.6250\s+0\.7143\s+0\.8000\s+0\.7586", table[2])
    assert "duplicate spans removed: tagger 1" in lines
    # a reference of its own: a file named by --reference NAME=PATH, no annotator
    code, out, err = run(capsys, GOLD, SECOND, "--reference", f"gold={GOLD}")
    assert code == 2 and out == "" and "annotator nested.gold and reference gold are the same file or folder" in err
    code, out, err = run(capsys, f"a={PRED}", f"b={SECOND}", "--reference", f"gold={GOLD}")
    assert (code, err) == (0, "") and "against the reference gold" in out
    assert re.search(r"^b \(annotator\)\s+0\.7143", out, re.M) and re.search(r"^a \(annotator\)\s+0\.6667", out, re.M)


def test_names_come_from_the_files_unless_given(capsys):
    code, out, err = run(capsys, GOLD, SECOND, "--json")
    assert code == 0 and '"annotators": [\n    "nested.gold",\n    "nested.annotator2"\n  ]' in out
    code, out, err = run(capsys, GOLD, GOLD)
    assert code == 2 and err == ("nested-span-f1 agreement: error: two annotators are named nested.gold; name each "
                                 "with NAME=PATH\n")
    code, out, err = run(capsys, f"a={GOLD}", f"b={GOLD}")
    assert code == 2 and err.startswith("nested-span-f1 agreement: error: annotator a and annotator b are the same "
                                        "file or folder")
    code, out, err = run(capsys, f"a={GOLD}")
    assert code == 2 and err == "nested-span-f1 agreement: error: agreement needs two annotators or more, got 1 (a)\n"


def test_the_docs_commands_run():
    page = (ROOT / "docs" / "agreement.md").read_text(encoding="utf-8")
    section = page.split("## Documents and annotators\n", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```bash\n(.*?)```", section, re.S).group(1)
    bin_dir = Path(sys.executable).parent
    done = subprocess.run(["bash", "-e", "-c", block], cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env={"PATH": f"{bin_dir}:/usr/bin:/bin", "OMP_NUM_THREADS": "1"}, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert done.stdout.count("agreement of 2 annotators (first, second) on 6 sentences") == 2
    assert "first|second boundary (2, showing 2):" in done.stdout
    assert re.search(r"^tagger \(model\)\s+0\.6667", done.stdout, re.M)


CONLL_A = "IL-2 B-protein\ngene I-protein\nbinds O\nDNA B-DNA\n\nNo O\nentity O\n"
CONLL_B = "IL-2 B-protein\ngene O\nbinds O\nDNA B-DNA\n\nNo O\nentity B-DNA\n"


def test_the_options_are_named_as_given_and_a_bad_tag_by_its_file_and_line(capsys, tmp_path):
    """QA of issue 40: the command's option names (not the function's), a CoNLL set's bad tag with its file and
    line, documents paired by position named from 1, a --reference file named by its file name."""
    (tmp_path / "a.conll").write_text(CONLL_A)
    (tmp_path / "b.conll").write_text(CONLL_B)
    (tmp_path / "bad.conll").write_text(CONLL_B.replace("B-DNA\n\nNo", "B-\n\nNo"))
    a, b, bad = (str(tmp_path / name) for name in ("a.conll", "b.conll", "bad.conll"))
    for option, value, message in (
            ("--bootstrap", "0", "--bootstrap must be from 1 to 1,000,000"),
            ("--seed", "-1", "--seed must be 0 or more, got -1"),
            ("--confidence", "2", "--confidence must be between 0 and 1 (exclusive), got 2.0")):
        code, out, err = run(capsys, a, b, option, value)
        assert (code, out) == (2, "") and err.startswith(f"nested-span-f1 agreement: error: {message}")
    code, out, err = run(capsys, a, b, bad)
    assert (code, out) == (2, "") and err == (f"nested-span-f1 agreement: error: annotator bad: {bad}, line 4: tag "
                                              "'B-': malformed: an empty type after the prefix\n")
    code, out, err = run(capsys, a, b, "--show", "2")
    assert (code, err) == (0, "")
    assert "  sentence 1: a protein 'IL-2 gene' | b protein 'IL-2'" in out.splitlines()
    assert "  sentence 2: a nothing | b DNA 'entity'" in out.splitlines()
    adjudicated = tmp_path / "adjudicated.jsonl"
    adjudicated.write_bytes(Path(GOLD).read_bytes())
    code, out, err = run(capsys, f"first={PRED}", f"second={SECOND}", "--reference", str(adjudicated))
    assert (code, err) == (0, "") and "against the reference adjudicated (each set" in out
