"""Paper tables: systems by datasets from benchmark JSON, Markdown and LaTeX cells equal to the JSON, the LaTeX
compiled by pdflatex where TeX is installed, the command."""
import json
import re
import shutil
import subprocess

import numpy as np
import pytest
from test_benchmark_views import parse_tables

from nested_span_f1.benchmark.compare import benchmark
from nested_span_f1.benchmark.table import LATEX_PACKAGES, grid, latex_escape, latex_table, markdown_table
from nested_span_f1.cli.main import main
from nested_span_f1.formats import Corpus, read_corpus

PDFLATEX = shutil.which("pdflatex")


def drop(corpus, share, seed, source):
    """The corpus with ``share`` of its entities removed (chosen with ``seed``)."""
    rng = np.random.default_rng(seed)
    entities = [[e for e in ents if rng.random() >= share] for ents in corpus.entities]
    return Corpus(corpus.tokens, entities, corpus.sentence_ids, corpus.doc_ids, corpus.format, "", source)


@pytest.fixture(scope="module")
def results(shared_data, tmp_path_factory):
    """Two datasets with the systems base, ours and (on GENIA only) a_b&c%, as JSON files."""
    folder = tmp_path_factory.mktemp("tables")
    genia = read_corpus(shared_data / "genia/genia-docsplit.test.jsonl")
    conll = shared_data / "conll2003"
    runs = {
        "genia.json": benchmark(genia, {"base": drop(genia, 0.12, 1, "base"), "ours": drop(genia, 0.02, 0, "ours"),
                                        "a_b&c%": drop(genia, 0.12, 1, "x")},
                                n_resamples=200, dataset="GENIA", progress=False),
        "conll.json": benchmark(conll / "test.gold.conll", {"base": conll / "test.elmo.conll",
                                                            "ours": conll / "test.flair.conll"},
                                n_resamples=200, dataset="CoNLL-2003", progress=False),
    }
    for name, result in runs.items():
        result.to_json(folder / name)
    return folder, {name: json.loads((folder / name).read_text()) for name in runs}


def cell(estimate):
    return f"{100 * estimate['value']:.2f} [{100 * estimate['low']:.2f}, {100 * estimate['high']:.2f}]"


def significant(data, system, baseline="base"):
    (pair,) = [p for p in data["comparisons"] if {p["a"], p["b"]} == {system, baseline}]
    return pair["significant"]


def test_markdown_cells_equal_the_json(results):
    _, data = results
    genia, conll = data["genia.json"], data["conll.json"]
    text = markdown_table([genia, conll], baseline="base")
    (table,) = parse_tables(text)
    assert table[0] == ["System", "GENIA P", "GENIA R", "GENIA F1", "CoNLL-2003 P", "CoNLL-2003 R", "CoNLL-2003 F1"]
    assert [row[0] for row in table[1:]] == ["base", "ours", "a_b&c%"]
    for row in table[1:]:
        for k, result in enumerate((genia, conll)):
            systems = {s["name"]: s for s in result["systems"]}
            got = row[1 + 3 * k:4 + 3 * k]
            if row[0] not in systems:
                assert got == ["–"] * 3
                continue
            system = systems[row[0]]
            f1 = cell(system["f1"]) + (" †" if row[0] != "base" and significant(result, row[0]) else "")
            if system["f1"]["value"] == max(s["f1"]["value"] for s in result["systems"]):
                f1 = f"**{f1}**"
            assert got == [cell(system["precision"]), cell(system["recall"]), f1]
    assert significant(genia, "ours") and "†" in table[2][3]  # 2% against 12% of the entities left out
    assert "- GENIA test, document split of Yan et al. (2022) (1,732 sentences" in text
    assert ("- CoNLL-2003 test, English shared-task split, as in Tjong Kim Sang and De Meulder (2003) (3,453 sentences, "
            "46,435 tokens, 5,648 entities; recognised by its sentence, token and entity counts).") in text
    assert "† F1 differs from base's: the paired bootstrap and approximate randomization both give p < 0.05" in text


def test_no_baseline_no_marks_and_untested_pairs_are_said(results):
    _, data = results
    assert "†" not in markdown_table(list(data.values()))
    genia = dict(data["genia.json"])
    genia["comparisons"] = [p for p in genia["comparisons"] if "ours" not in (p["a"], p["b"])]
    g = grid([genia], baseline="base")
    assert g.cells["ours", "GENIA"].differs is None and g.cells["a_b&c%", "GENIA"].differs is False
    assert "Not compared with base in their benchmarks (no mark either way): ours on GENIA." in g.notes


def latex_rows(text):
    """``{system: [(value, low, high, bold, dagger), ...]}`` read back from the LaTeX table's body: each system's
    scores on one line, their intervals on the next."""
    body = text.split(r"\midrule")[1].split(r"\bottomrule")[0]
    lines = [line.removesuffix(r" \\[2pt]").removesuffix(r" \\") for line in body.strip().splitlines()]
    rows = {}
    for scores, intervals in zip(lines[::2], lines[1::2]):
        name, *cells = scores.split(" & ")
        blank, *bounds = intervals.split(" & ")
        assert blank == ""
        parsed = []
        for c, b in zip(cells, bounds):
            found = re.fullmatch(r"(\\textbf\{)?([\d.]+)\}?(\$\^\\dagger\$)?", c)
            interval = re.fullmatch(r"\{\\scriptsize \[([\d.]+), ([\d.]+)\]\}", b)
            parsed.append(c if found is None or interval is None else
                          (found[2], interval[1], interval[2], bool(found[1]), bool(found[3])))
        rows[name] = parsed
    return rows


def expected_latex(system, result, top):
    out = []
    for key in ("precision", "recall", "f1"):
        e = system[key]
        mark = key == "f1" and system["name"] != "base" and significant(result, system["name"])
        out.append((f"{100 * e['value']:.2f}", f"{100 * e['low']:.2f}", f"{100 * e['high']:.2f}",
                    key == "f1" and e["value"] == top, mark))
    return out


def test_latex_cells_equal_the_json(results):
    _, data = results
    genia, conll = data["genia.json"], data["conll.json"]
    text = latex_table([genia, conll], baseline="base")
    assert r"\toprule" in text and r"\midrule" in text and r"\bottomrule" in text
    assert r"\multicolumn{3}{c}{GENIA\textsuperscript{a}} & \multicolumn{3}{c}{CoNLL-2003\textsuperscript{b}}" in text
    rows = latex_rows(text)
    assert list(rows) == ["base", "ours", latex_escape("a_b&c%")] == ["base", "ours", r"a\_b\&c\%"]
    for k, result in enumerate((genia, conll)):
        top = max(s["f1"]["value"] for s in result["systems"])
        for system in result["systems"]:
            assert rows[latex_escape(system["name"])][3 * k:3 * k + 3] == expected_latex(system, result, top)
    assert rows[r"a\_b\&c\%"][3:] == ["--"] * 3
    assert r"\textsuperscript{a}GENIA test, document split of Yan et al. (2022)" in text
    assert r"give p $<$ 0.05 after Holm's correction" in text


@pytest.mark.skipif(PDFLATEX is None, reason="pdflatex is not installed (a TeX installation with booktabs compiles "
                                             "the table: apt-get install texlive-latex-recommended)")
def test_latex_table_compiles_and_its_pdf_shows_the_json_numbers(results, tmp_path):
    _, data = results
    (tmp_path / "table.tex").write_text(latex_table(list(data.values()), baseline="base"))
    # the plain article class, its own margins: the table fits the text width (QA: 202.7pt too wide before the
    # intervals went under the scores)
    (tmp_path / "paper.tex").write_text(f"\\documentclass{{article}}\n{LATEX_PACKAGES}\n\\begin{{document}}\n"
                                        "\\input{table.tex}\n\\end{document}\n")
    out = subprocess.run([PDFLATEX, "-interaction=nonstopmode", "-halt-on-error", "paper.tex"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout[-3000:]
    log = (tmp_path / "paper.log").read_text(errors="replace")
    assert "Overfull \\hbox" not in log, log[log.find("Overfull"):][:500]
    pdftotext = shutil.which("pdftotext")
    if pdftotext is None:
        pytest.skip("pdftotext (poppler-utils) reads the numbers back from the PDF")
    shown = subprocess.run([pdftotext, "-layout", "paper.pdf", "-"], cwd=tmp_path, capture_output=True, text=True,
                           check=True).stdout
    numbers = re.findall(r"\d+\.\d\d", shown)
    expected = []
    for name in ("base", "ours", "a_b&c%"):  # a line of scores, then a line of their intervals
        for parts in (("value",), ("low", "high")):
            for result in data.values():
                systems = {s["name"]: s for s in result["systems"]}
                if name in systems:
                    expected += [f"{100 * systems[name][k][part]:.2f}" for k in ("precision", "recall", "f1")
                                 for part in parts]
    assert numbers[:len(expected)] == expected


def test_command_prints_and_writes_both_tables(results, tmp_path, capsys):
    folder, data = results
    args = [str(folder / "genia.json"), str(folder / "conll.json"), "--baseline", "base"]
    assert main(["table", *args, "--markdown", str(tmp_path / "t.md"), "--latex", str(tmp_path / "t.tex")]) == 0
    printed = capsys.readouterr().out
    names = [str(folder / "genia.json"), str(folder / "conll.json")]
    assert printed == (tmp_path / "t.md").read_text() == markdown_table(list(data.values()), "base", names)
    assert (tmp_path / "t.tex").read_text() == latex_table(list(data.values()), "base", names)


@pytest.mark.parametrize("argv, message", [
    (["@G", "@G"], "@G and @G are both benchmarks on 'GENIA'; one result per dataset (name them apart with --dataset-name when benchmarking)"),
    (["@G", "--baseline", "nobody"], "@G: the baseline 'nobody' is not one of its systems (base, ours, a_b&c%)"),
    (["@G", "--latex", "@G"], "--latex @G would overwrite @G, an input; write to another file"),
    (["@NOTJSON"], "@NOTJSON, line 1, column 1: not valid JSON (Expecting value); give the --json of a benchmark"),
    (["@OTHER"], "@OTHER: not a benchmark result (the --json of nested-span-f1 benchmark)"),
    (["@DEEP"], "@DEEP: its JSON nests lists and objects too deeply to be a benchmark result; give the --json of a "
                "benchmark"),
    (["@LATIN1"], "@LATIN1: not UTF-8 text (byte 14); give the --json of a benchmark"),
], ids=["one dataset twice", "unknown baseline", "output is an input", "not json", "other json", "too deep",
        "not utf-8"])
def test_command_refuses_in_one_line(results, tmp_path, capsys, argv, message):
    folder, _ = results
    (tmp_path / "not.json").write_text("<html>")
    (tmp_path / "other.json").write_text('{"settings": {}}')
    (tmp_path / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    (tmp_path / "latin1.json").write_bytes('{"settings": "\u00e9"}'.encode("latin-1"))
    paths = {"@G": str(folder / "genia.json"), "@NOTJSON": str(tmp_path / "not.json"),
             "@OTHER": str(tmp_path / "other.json"), "@DEEP": str(tmp_path / "deep.json"),
             "@LATIN1": str(tmp_path / "latin1.json")}
    argv = [paths.get(a, a) for a in argv]
    for key in ("@NOTJSON", "@OTHER", "@DEEP", "@LATIN1", "@G"):
        message = message.replace(key, paths[key])
    assert main(["table", *argv]) == 2
    err = capsys.readouterr().err
    assert err == f"nested-span-f1 table: error: {message}\n"
    assert (folder / "genia.json").read_text() == json.dumps(results[1]["genia.json"], indent=2) + "\n"


def test_command_reads_a_result_with_a_byte_order_mark(results, tmp_path, capsys):
    """As every reader of the package does (QA: "not JSON (Unexpected UTF-8 BOM ...)")."""
    folder, data = results
    marked = tmp_path / "genia.json"
    marked.write_bytes(b"\xef\xbb\xbf" + (folder / "genia.json").read_bytes())
    assert main(["table", str(marked), "--baseline", "base"]) == 0
    assert capsys.readouterr().out == markdown_table([data["genia.json"]], "base", [str(marked)])
