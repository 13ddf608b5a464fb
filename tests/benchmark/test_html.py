"""The HTML report as a file: self-contained (nothing fetched), its tables and embedded data equal the result, the
error browser's cases are the lenient matching's."""
import json
from html.parser import HTMLParser

import pytest
from test_benchmark_views import GOLD, PREDICTIONS, TOKENS

from nested_span_f1.benchmark.compare import benchmark
from nested_span_f1.benchmark.html import browser_data
from nested_span_f1.formats import Corpus, write_corpus


class Page(HTMLParser):
    """Tags with their attributes, every table's rows of cell texts (and each row's class), and the JSON scripts of
    a page."""

    def __init__(self, text):
        super().__init__()
        self.tags, self.tables, self.row_classes, self.scripts = [], {}, {}, {}
        self._table = self._classes = self._row = self._cell = self._script = None
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.append((tag, attrs))
        if tag == "table":
            self._table = self.tables.setdefault(attrs.get("id"), [])
            self._classes = self.row_classes.setdefault(attrs.get("id"), [])
        elif tag == "tr" and self._table is not None:
            self._row = []
            self._table.append(self._row)
            self._classes.append(attrs.get("class"))
        elif tag in ("td", "th") and self._row is not None:
            self._cell = ""
        elif tag == "script" and attrs.get("type") == "application/json":
            self._script = attrs["id"]
            self.scripts[self._script] = ""

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self._row.append(self._cell)
            self._cell = None
        elif tag == "table":
            self._table = None
        elif tag == "script":
            self._script = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell += data
        if self._script is not None:
            self.scripts[self._script] += data


@pytest.fixture(scope="module")
def result(tmp_path_factory):
    root = tmp_path_factory.mktemp("html")
    gold = Corpus(TOKENS, GOLD, ["s1", "s2", "s3", "s4"], ["d1", "d1", "d2", "d3"], source="gold")
    write_corpus(gold, root / "gold.jsonl")
    (root / "run").mkdir()
    for step, spans in PREDICTIONS.items():
        write_corpus(Corpus(TOKENS, spans, ["s1", "s2", "s3", "s4"]), root / "run" / f"checkpoint-{step}.jsonl")
    return benchmark(root / "gold.jsonl", {"run": root / "run", "perfect": gold}, n_resamples=200, progress=False,
                     dataset="tiny")


def pct(value):
    return f"{100 * value:.2f}"


def ci(estimate):
    return f"[{pct(estimate['low'])}, {pct(estimate['high'])}]"


def test_the_page_fetches_nothing(result, tmp_path):
    text = result.to_html(tmp_path / "report.html")
    assert (tmp_path / "report.html").read_text(encoding="utf-8") == text
    page = Page(text)
    assert {tag for tag, _ in page.tags} >= {"html", "style", "script", "svg", "table", "select"}
    assert not [tag for tag, _ in page.tags if tag in ("link", "img", "iframe", "object", "embed", "base")]
    for tag, attrs in page.tags:
        assert "src" not in attrs, tag
        assert attrs.get("href", "#").startswith("#"), (tag, attrs)
    assert "url(" not in text and "@import" not in text


def test_tables_and_embedded_data_equal_the_result(result):
    page = Page(result.to_html())
    data = result.to_dict()
    assert json.loads(page.scripts["benchmark-data"]) == data
    summary = page.tables["summary-table"]
    assert summary[0] == ["System", "Step", "Precision", "Recall", "F1", "F1 95% CI", "Gold", "Predicted", "Correct",
                          "Selected"]
    chosen = data["settings"]["selection"]["system"]
    assert chosen == "perfect"
    for row, system in zip(summary[1:], data["systems"], strict=True):
        assert row == [system["name"], "–" if system["step"] is None else str(system["step"]),
                       pct(system["precision"]["value"]), pct(system["recall"]["value"]), pct(system["f1"]["value"]),
                       ci(system["f1"]), str(system["gold"]), str(system["predicted"]), str(system["tp"]),
                       "selected (test F1)" if system["name"] == chosen else ""]
    # QA item 14: the selected system's row is marked, and only it
    assert [row[0] for row, kind in zip(summary, page.row_classes["summary-table"]) if kind == "selected"] == [chosen]
    per_type = page.tables["per-type-table"]
    assert per_type[0] == ["Type", "Gold", *(s["name"] for s in data["systems"])]
    for row in per_type[1:]:
        for cell, system in zip(row[2:], data["systems"]):
            estimate = system["per_type"][row[0]]["f1"]
            assert cell == f"{pct(estimate['value'])} {ci(estimate)}"
    for attribute in ("entity_length", "sentence_length", "entity_density", "nesting_depth"):
        table = page.tables[f"bucket-table-{attribute}"]
        for row in table[1:]:
            for cell, system in zip(row[2:], data["systems"]):
                bucket = system["buckets"][attribute].get(row[0])
                assert cell == ("–" if bucket is None else f"{pct(bucket['f1']['value'])} {ci(bucket['f1'])}")
    pairs = page.tables["differences-table"]
    assert len(pairs) == 1 + len(data["comparisons"])
    assert pairs[1][:3] == [data["comparisons"][0]["a"], data["comparisons"][0]["b"],
                            f"{100 * data['comparisons'][0]['f1_difference']['value']:+.2f}"]


def test_browser_cases_are_the_lenient_categories(result):
    data = browser_data(result.to_dict(), result.sentences)
    assert data["tokens"] == TOKENS and data["labels"] == ["DNA", "cell_type", "protein"]
    assert [[[b, e, data["labels"][k]] for b, e, k in spans] for spans in data["gold"]] == [
        sorted([list(span) for span in spans], key=lambda sp: (sp[0], sp[1], sp[2])) for spans in GOLD]
    for system, shown in zip(result.systems, data["systems"]):
        cases = [c for sentence in shown["cases"] for c in sentence]
        assert {k: sum(c[2] == data["categories"].index(k) for c in cases) for k in data["categories"]} == \
            system["errors"]
        for s, sentence in enumerate(shown["cases"]):
            for g, p, _ in sentence:
                assert g == -1 or 0 <= g < len(data["gold"][s])
                assert p == -1 or 0 <= p < len(shown["pred"][s])
    # checkpoint-500 in sentence 0: gold (0, 1, protein) found, gold (0, 2, DNA) missed (gold by start, end, label)
    first = data["systems"][0]
    assert first["pred"][0] == [[0, 1, 2]]
    assert sorted(first["cases"][0]) == [[0, 0, data["categories"].index("correct")],
                                         [1, -1, data["categories"].index("missed")]]


def test_span_lists_without_tokens_show_token_numbers():
    result = benchmark([[(0, 2, "A")], []], {"x": [[(1, 3, "A")], [(0, 1, "B")]]}, n_resamples=20, progress=False)
    data = browser_data(result.to_dict(), result.sentences)
    assert data["tokens"] == [["0", "1", "2"], ["0"]]
    page = Page(result.to_html())
    assert "bucket-table-sentence_length" not in page.tables and "bucket-table-entity_length" in page.tables
