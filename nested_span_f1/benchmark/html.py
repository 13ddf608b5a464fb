"""The benchmark as one self-contained HTML page: tables, charts and an error browser, with no network access.

Everything is in the page: styles, the charts (SVG drawn by :mod:`nested_span_f1.render`), the result's JSON
and the error browser's sentences (``<script type="application/json">``), and the
script that filters and draws them. The tables and charts are static; the browser
draws a page of sentences at a time, each with its gold spans and the chosen
system's predictions as lines under the tokens (nested spans stacked), coloured by
lenient error category. Formatting only: every number is read from the result.
"""
from __future__ import annotations

import html
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..lenient.counts import BREAKDOWN
from ..lenient.matching import Units, unit_range
from ..lenient.score import LenientMatch
from ..render.bars import bars_svg
from ..render.colours import CATEGORIES, DARK, system_colour
from ..render.curves import curve_svg
from ..render.steps import step_chart
from ..render.tables import DASH, estimate_text, interval_text, pct
from .buckets import attributes
from .report import ERROR_TITLES, comparisons_text, split_text

PAGE_SIZE = 50
"""Sentences the error browser draws at a time ("show more" draws the next)."""


@dataclass(frozen=True)
class Sentences:
    """What the error browser draws: the gold's tokens (None for span lists) and each system's lenient matching;
    ``units``: for a text system against token gold, the gold's tokens as offsets (its spans are in characters)."""

    tokens: Sequence[Sequence[str]] | None
    n_sentences: int
    matches: Mapping[str, LenientMatch]
    units: Mapping[str, Units | None] = field(default_factory=dict)


def _e(text: Any) -> str:
    return html.escape(str(text), quote=True)


def _json_script(element_id: str, data: Any) -> str:
    text = json.dumps(data, separators=(",", ":"), allow_nan=False).replace("</", "<\\/")
    return f'<script type="application/json" id="{element_id}">{text}</script>'


def _table(table_id: str, head: Sequence[str], rows: Sequence[Sequence[Any]], left: int = 1,
           marked: int | None = None) -> str:
    """A table of text cells, the first ``left`` columns aligned left; row ``marked`` (if any) has the class
    ``selected``."""
    cells = "".join(f"<th>{_e(h)}</th>" for h in head)
    body = "".join(
        ('<tr class="selected">' if r == marked else "<tr>")
        + "".join(f'<td class="{"l" if k < left else "n"}">{_e(c)}</td>' for k, c in enumerate(row)) + "</tr>"
        for r, row in enumerate(rows))
    return f'<table id="{table_id}"><thead><tr>{cells}</tr></thead><tbody>{body}</tbody></table>'


def _header(result: Mapping[str, Any]) -> str:
    settings = result["settings"]
    level = f"{100 * settings['confidence']:g}%"
    lines = [split_text(settings),
             f"{level} percentile bootstrap intervals over {settings['n_units']:,} {settings['units']} "
             f"({settings['n_resamples']:,} resamples, seed {settings['seed']}); paired tests with "
             f"{settings['n_permutations']:,} approximate-randomization rounds; scores in %. nested-span-f1 "
             f"{settings['version']}."]
    if settings.get("selection"):
        lines.append(settings["selection"]["text"])
    return "".join(f"<p>{_e(line)}</p>" for line in lines)


def _summary(result: Mapping[str, Any]) -> str:
    systems = result["systems"]
    level = f"{100 * result['settings']['confidence']:g}%"
    steps = any(s["step"] is not None for s in systems)
    dev = any(s.get("dev") for s in systems)
    selection = result["settings"].get("selection")
    chosen = selection["system"] if selection else None
    mark = f"selected ({'development' if selection and selection['on'] == 'development' else 'test'} F1)"
    head = ["System", *(["Step"] if steps else []), *([f"Dev F1 ({level} CI)"] if dev else []), "Precision", "Recall",
            "F1", f"F1 {level} CI", "Gold", "Predicted", "Correct", "Selected"]
    rows = [[s["name"], *([DASH if s["step"] is None else s["step"]] if steps else []),
             *([estimate_text(s["dev"]["f1"]) if s.get("dev") else DASH] if dev else []), pct(s["precision"]["value"]),
             pct(s["recall"]["value"]), pct(s["f1"]["value"]), interval_text(s["f1"]), s["gold"], s["predicted"],
             s["tp"], mark if s["name"] == chosen else ""] for s in systems]
    names = [s["name"] for s in systems]
    return _table("summary-table", head, rows, marked=names.index(chosen) if chosen in names else None)


def _differences(result: Mapping[str, Any]) -> str:
    pairs, alpha = result["comparisons"], result["settings"]["alpha"]
    if not pairs:
        return "<p>One system: nothing to compare.</p>"
    head = ["A", "B", "ΔF1 (A − B)", "CI", "p bootstrap", "p randomization", "p bootstrap (Holm)",
            "p randomization (Holm)", f"Holds at {alpha:g}"]
    rows = [[p["a"], p["b"], f"{100 * p['f1_difference']['value']:+.2f}", interval_text(p["f1_difference"]),
             *(f"{p[k]:.4f}" for k in ("p_bootstrap", "p_randomization", "p_bootstrap_holm", "p_randomization_holm")),
             "yes" if p["significant"] else "no"] for p in pairs]
    return _table("differences-table", head, rows, left=2) + f"<p>{_e(comparisons_text(result['settings'], len(pairs)))}</p>"


def _side_by_side(*parts: str) -> str:
    return '<div class="pair">' + "".join(f"<div>{part}</div>" for part in parts) + "</div>"


def _per_type(result: Mapping[str, Any], level: str) -> str:
    systems = result["systems"]
    labels = sorted({label for s in systems for label in s["per_type"]})
    series = [(s["name"], system_colour(k), [s["per_type"][lab]["f1"] if lab in s["per_type"] else None
                                             for lab in labels]) for k, s in enumerate(systems)]
    numbers = {lab: max(s["per_type"][lab]["number"] for s in systems if lab in s["per_type"]) for lab in labels}
    rows = [[lab, numbers[lab], *(estimate_text(s["per_type"][lab]["f1"]) if lab in s["per_type"] else DASH
                                  for s in systems)] for lab in labels]
    return _side_by_side(bars_svg("per-type-chart", labels, series, level),
                         _table("per-type-table", ["Type", "Gold", *(s["name"] for s in systems)], rows))


def _buckets(result: Mapping[str, Any], level: str) -> str:
    systems = result["systems"]
    parts = []
    for attribute, (title, names) in attributes(result["settings"].get("length_unit", "tokens")).items():
        if attribute not in systems[0]["buckets"]:
            continue
        present = [n for n in names if any(n in s["buckets"][attribute] for s in systems)]
        series = [(s["name"], system_colour(k), [s["buckets"][attribute][n]["f1"] if n in s["buckets"][attribute]
                                                 else None for n in present]) for k, s in enumerate(systems)]
        rows = [[n, max(s["buckets"][attribute][n]["number"] for s in systems if n in s["buckets"][attribute]),
                 *(estimate_text(s["buckets"][attribute][n]["f1"]) if n in s["buckets"][attribute] else DASH
                   for s in systems)] for n in present]
        parts.append(f'<h3>{_e(title)}</h3>' + _side_by_side(
            bars_svg(f"bucket-chart-{attribute}", present, series, level),
            _table(f"bucket-table-{attribute}", ["Bucket", "Gold", *(s["name"] for s in systems)], rows)))
    parts.append("<h3>Type</h3><p>By type: the per-type F1 above.</p>")
    return "".join(parts)


def _curves(systems: Sequence[Mapping[str, Any]]) -> str:
    """The precision-recall curve of each system whose predictions carry scores, with its best-F1 point."""
    charts = []
    for k, system in enumerate(systems):
        found = system.get("thresholds")
        if not found:
            continue
        best = found["best"]
        marks = [] if best is None else [{"kind": "best", "label": f"best F1 on this gold ({best['threshold']:.4g})",
                                          "recall": best["recall"], "precision": best["precision"]}]
        shown = {"title": f"{system['name']} (AP {found['average_precision']:.4f})",
                 "points": [tuple(point) for point in found["drawn"]], "marks": marks}
        charts.append(curve_svg(shown, f"pr-curve-{k}"))
    return ("<p>Systems whose predictions carry scores: precision against recall as the threshold falls (a span kept "
            "when its score is at least the threshold), by the nested metric, with iso-F1 lines. The best threshold is "
            "chosen on this gold: on a test set it is an oracle figure; choose thresholds on development data "
            "(<code>nested-span-f1 thresholds --dev-gold --dev-pred</code>).</p>"
            f'<div class="pair">{"".join(charts)}</div>')


def browser_data(result: Mapping[str, Any], sentences: Sentences) -> dict[str, Any]:
    """The error browser's data: tokens, gold spans and per system its predictions and the canonical matching's
    cases (gold index, prediction index, category), all per sentence, labels and categories as indices."""
    names = [s["name"] for s in result["systems"]]
    labels = sorted({lab for m in sentences.matches.values() for side in (m.references, m.predictions)
                     for lab in side.labels})
    index = {lab: k for k, lab in enumerate(labels)}
    n = sentences.n_sentences
    gold, gold_at = _per_sentence(sentences.matches[names[0]].references, sentences.units.get(names[0]), index, n)
    systems = []
    for name in names:
        match, units = sentences.matches[name], sentences.units.get(name)
        pred, _ = _per_sentence(match.predictions, units, index, n)
        systems.append({"name": name, "pred": pred, "cases": _cases(match, units, gold_at, index, n)})
    return {"labels": labels, "categories": list(BREAKDOWN), "colours": [CATEGORIES[c] for c in BREAKDOWN],
            "titles": [ERROR_TITLES[c] for c in BREAKDOWN], "dark": [BREAKDOWN.index(c) for c in DARK],
            "tokens": _browser_tokens(sentences, gold, systems), "gold": gold, "systems": systems,
            "pageSize": PAGE_SIZE}


Spot = tuple[int, int, int, int]
"""A span in the browser's terms: sentence, start and end in the gold's tokens, label index."""


def _per_sentence(side: Any, units: Units | None, index: Mapping[str, int],
                  n: int) -> tuple[list[list[list[int]]], dict[Spot, int]]:
    """A side's spans per sentence as ``[start, end, label index]`` in the gold's tokens, and where each is in
    its sentence's list."""
    rows: list[list[list[int]]] = [[] for _ in range(n)]
    where = {}
    start, end = _in_tokens(side, units)
    for s, b, e, lab in zip(side.sentence.tolist(), start.tolist(), end.tolist(), side.label.tolist()):
        key = (s, b, e, index[side.labels[lab]])
        where[key] = len(rows[s])
        rows[s].append([b, e, key[3]])
    return rows, where


def _cases(match: LenientMatch, units: Units | None, gold_at: Mapping[Spot, int], index: Mapping[str, int],
           n: int) -> list[list[list[int]]]:
    """A system's lenient cases per sentence: ``[gold position, prediction position, category]``, a position
    -1 where the case has no span of that side."""
    cases: list[list[list[int]]] = [[] for _ in range(n)]
    ref, hyp = match.references, match.predictions
    ref_start, ref_end = _in_tokens(ref, units)
    for g, p, category in zip(*(part.tolist() for part in match.cases())):
        if g >= 0:
            s = int(ref.sentence[g])
            g = gold_at[s, int(ref_start[g]), int(ref_end[g]), index[ref.labels[ref.label[g]]]]
        else:
            s = int(hyp.sentence[p])
        if p >= 0:
            p = _position(hyp, p)
        cases[s].append([g, p, category])
    return cases


def _browser_tokens(sentences: Sentences, gold: Sequence[Sequence[Sequence[int]]],
                    systems: Sequence[Mapping[str, Any]]) -> list[list[str]]:
    """The tokens the browser draws: the gold's, or for span lists the token positions their spans cover,
    numbered."""
    if sentences.tokens is not None:
        return [list(t) for t in sentences.tokens]
    ends = [max((e for spans in [gold[s], *(x["pred"][s] for x in systems)] for _, e, _ in spans), default=0)
            for s in range(sentences.n_sentences)]
    return [[str(k) for k in range(end)] for end in ends]


def _in_tokens(side: Any, units: Units | None) -> tuple[np.ndarray, np.ndarray]:
    """The start and end of each span in the gold's tokens: as they are, or for character spans (``units``: the
    gold's tokens as offsets) the tokens each touches, at least one, as drawn under the tokens."""
    if units is None:
        return side.start, side.end
    first, stop = unit_range(side.sentence, side.start, side.end, units)
    count = np.array([len(unit) for unit in units], dtype=np.int64)[side.sentence]
    first = np.minimum(first, np.maximum(count - 1, 0))
    return first, np.maximum(stop, first + 1)


def _position(side: Any, row: int) -> int:
    """The index of span ``row`` among its sentence's spans (rows are sorted by sentence)."""
    return int(row - np.searchsorted(side.sentence, side.sentence[row], side="left"))


STYLE = """
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0 auto;max-width:1180px;padding:0 18px 60px;color:#222}
h1{font-size:24px;margin:22px 0 6px}h2{font-size:19px;margin:30px 0 8px;border-bottom:1px solid #ddd;padding-bottom:4px}
h3{font-size:15px;margin:18px 0 6px}nav a{margin-right:14px}
table{border-collapse:collapse;margin:8px 0 14px;font-size:13px}th,td{padding:3px 9px;border-bottom:1px solid #e6e6e6}
th{background:#f5f5f5;text-align:left}td.n{text-align:right;font-variant-numeric:tabular-nums}
.chart{display:block;max-width:100%;height:auto;margin:6px 0}.chart text{font-size:11px;fill:#333}
.chart .group{font-size:12px}.chart .grid{stroke:#e4e4e4}.chart .whisker{stroke:#222;stroke-width:1.2}
#controls label{margin-right:16px}#controls select{margin-left:4px}
#shown-counts{margin:8px 0;font-weight:600}.legend-box{display:inline-block;width:12px;height:10px;margin:0 4px 0 10px}
tr.selected td{font-weight:600;background:#fff7d6}
.sentence{border:1px solid #e2e2e2;border-radius:4px;margin:8px 0;padding:6px 8px}
.sentence .where{font-size:12px;color:#666;margin-bottom:4px}.sentence .scroll{position:relative;overflow-x:auto}
.sentence .grid{display:grid;width:max-content;column-gap:4px;row-gap:2px;align-items:center}
.tok{white-space:nowrap;font-size:13px;padding:0 1px}
.side{font-size:11px;color:#666;padding-right:6px;position:sticky;left:0;z-index:1;background:#fff;align-self:stretch}
.span{height:15px;border-radius:3px;font-size:10px;line-height:15px;padding:0 3px;overflow:hidden;white-space:nowrap;color:#111;opacity:.35}
.span.hit{opacity:1;box-shadow:0 0 0 1px #333 inset}
button{margin:8px 0;padding:4px 12px}.pair{display:flex;flex-wrap:wrap;gap:18px;align-items:flex-start}.pair>div,section{max-width:100%;overflow-x:auto}
"""

SCRIPT = r"""
(function () {
  const D = JSON.parse(document.getElementById('browser-data').textContent);
  const $ = (id) => document.getElementById(id);
  const systemSel = $('filter-system'), categorySel = $('filter-category'), typeSel = $('filter-type');
  const list = $('sentences'), counts = $('shown-counts'), more = $('show-more');
  D.systems.forEach((s, k) => systemSel.add(new Option(s.name, k)));
  categorySel.add(new Option('any error', 'errors'));
  categorySel.add(new Option('every span', 'all'));
  D.categories.forEach((c, k) => categorySel.add(new Option(D.titles[k], k)));
  typeSel.add(new Option('every type', 'all'));
  D.labels.forEach((l, k) => typeSel.add(new Option(l, k)));
  const CORRECT = D.categories.indexOf('correct');
  let matching = [], drawn = 0;

  function keep(system, s, c) {
    const category = categorySel.value, type = typeSel.value;
    if (category === 'errors' ? c[2] === CORRECT : category !== 'all' && c[2] !== Number(category)) return false;
    if (type === 'all') return true;
    const g = c[0] >= 0 ? D.gold[s][c[0]][2] : -1, p = c[1] >= 0 ? system.pred[s][c[1]][2] : -1;
    return g === Number(type) || p === Number(type);
  }

  function lanes(spans) {
    const order = spans.map((_, k) => k).sort((a, b) => spans[a][0] - spans[b][0] || spans[b][1] - spans[a][1]);
    const ends = [], lane = new Array(spans.length);
    for (const k of order) {
      let l = ends.findIndex((e) => e <= spans[k][0]);
      if (l < 0) { l = ends.length; ends.push(0); }
      ends[l] = spans[k][1]; lane[k] = l;
    }
    return [lane, ends.length];
  }

  function draw(s, system, cases) {
    const box = document.createElement('div'); box.className = 'sentence';
    const where = document.createElement('div'); where.className = 'where';
    where.textContent = 'Sentence ' + (s + 1) + ': ' + cases.length + ' shown';
    box.appendChild(where);
    const tokens = D.tokens[s], gold = D.gold[s], pred = system.pred[s], all = system.cases[s];
    const grid = document.createElement('div'); grid.className = 'grid';
    grid.style.gridTemplateColumns = 'max-content repeat(' + Math.max(tokens.length, 1) + ', max-content)';
    const category = (side, k) => { for (const c of all) if (c[side] === k) return c[2]; return -1; };
    const hit = (side, k) => cases.some((c) => c[side] === k);
    let row = 1;
    const cell = (cls, text, column, r, span) => {
      const el = document.createElement('div'); el.className = cls; el.textContent = text;
      el.style.gridColumn = span ? column + ' / ' + span : String(column); el.style.gridRow = String(r);
      grid.appendChild(el); return el;
    };
    cell('side', '', 1, row);
    tokens.forEach((t, k) => cell('tok', t, k + 2, row));
    for (const [name, spans, side] of [['gold', gold, 0], [system.name, pred, 1]]) {
      const [lane, n] = lanes(spans);
      if (n) cell('side', side ? 'predicted' : 'gold', 1, (row + 1) + ' / span ' + n);
      spans.forEach((sp, k) => {
        const c = category(side, k);
        const el = cell('span' + (hit(side, k) ? ' hit' : ''), D.labels[sp[2]], sp[0] + 2, row + 1 + lane[k], sp[1] + 2);
        el.style.background = c >= 0 ? D.colours[c] : '#ddd';
        if (D.dark.includes(c)) el.style.color = '#fff';
        el.title = name + ': ' + tokens.slice(sp[0], sp[1]).join(' ') + ' [' + D.labels[sp[2]] + '] ' + (c >= 0 ? D.titles[c] : '');
        el.dataset.category = c >= 0 ? D.categories[c] : '';
      });
      row += n;
    }
    const scroll = document.createElement('div'); scroll.className = 'scroll';
    scroll.appendChild(grid); box.appendChild(scroll);
    return box;
  }

  function drawMore() {
    const system = D.systems[Number(systemSel.value)];
    const stop = Math.min(drawn + D.pageSize, matching.length);
    for (; drawn < stop; drawn++) {
      const [s, cases] = matching[drawn];
      const box = list.appendChild(draw(s, system, cases));
      // a first case off to the right is scrolled into view beside the sticky gold/predicted labels; the
      // sentence's title is above the scrolling part
      const scroll = box.querySelector('.scroll'), first = box.querySelector('.span.hit');
      const labels = box.querySelector('.side').offsetWidth;
      if (first && first.offsetLeft + first.offsetWidth > scroll.clientWidth) {
        scroll.scrollLeft = first.offsetLeft - labels - 40;
      }
    }
    more.hidden = drawn >= matching.length;
    counts.dataset.drawn = drawn;
  }

  function update() {
    const system = D.systems[Number(systemSel.value)];
    matching = []; let cases = 0;
    system.cases.forEach((all, s) => {
      const kept = all.filter((c) => keep(system, s, c));
      if (kept.length) { matching.push([s, kept]); cases += kept.length; }
    });
    list.replaceChildren(); drawn = 0;
    counts.dataset.sentences = matching.length; counts.dataset.cases = cases;
    counts.textContent = cases + ' spans or pairs in ' + matching.length + ' of ' + D.tokens.length + ' sentences';
    drawMore();
  }

  [systemSel, categorySel, typeSel].forEach((el) => el.addEventListener('change', update));
  more.addEventListener('click', drawMore);
  update();
  document.body.dataset.ready = String(performance.now());
})();
"""


def page(result: Mapping[str, Any], sentences: Sentences | None) -> str:
    """The whole page: header, summary, differences, per-type F1, F1 against step, buckets, error browser."""
    settings, systems = result["settings"], result["systems"]
    level = f"{100 * settings['confidence']:g}%"
    title = f"Benchmark on {settings['dataset']}"
    sections = [("summary", "Systems", _summary(result)), ("differences", "Differences in F1", _differences(result)),
                ("per-type", f"F1 by type ({level} intervals)", _per_type(result, level))]
    if any(s["step"] is not None for s in systems):
        sections.append(("steps", "F1 against step", step_chart(systems, level)))
    sections.append(("buckets", f"F1 by bucket ({level} intervals)", _buckets(result, level)))
    if any(s.get("thresholds") for s in systems):
        sections.append(("curves", "Precision-recall curves", _curves(systems)))
    legend = "".join(f'<span class="legend-box" style="background:{CATEGORIES[c]}"></span>{_e(ERROR_TITLES[c])}'
                     for c in BREAKDOWN)
    if sentences is not None:
        sections.append(("errors", "Error browser", (
            '<div id="controls"><label>System<select id="filter-system"></select></label>'
            '<label>Category<select id="filter-category"></select></label>'
            '<label>Type<select id="filter-type"></select></label></div>'
            f'<p>Lenient error categories: {legend}. Spans of the cases shown are outlined; the sentence\'s other '
            'spans are faded.</p><div id="shown-counts"></div><div id="sentences"></div>'
            '<button id="show-more" type="button">Show more</button>')))
    nav = "".join(f'<a href="#{key}">{_e(name)}</a>' for key, name, _ in sections)
    body = "".join(f'<section id="{key}"><h2>{_e(name)}</h2>{content}</section>' for key, name, content in sections)
    scripts = _json_script("benchmark-data", result)
    if sentences is not None:
        scripts += _json_script("browser-data", browser_data(result, sentences)) + f"<script>{SCRIPT}</script>"
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{_e(title)}</title>'
            f'<meta name="viewport" content="width=device-width,initial-scale=1"><style>{STYLE}</style></head>'
            f'<body><h1>{_e(title)}</h1>{_header(result)}<nav>{nav}</nav>{body}{scripts}</body></html>\n')
