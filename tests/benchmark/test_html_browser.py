"""The HTML report of three systems on GENIA in headless Chromium: it renders without script errors, its numbers
are the JSON's, the error browser's filters change what is shown and its counts are the result's error counts;
the page stays under 5 MB. The time it takes to open is measured and printed (BENCHMARKS.md), not asserted."""
import os
import shutil

import pytest
from test_buckets import perturbed

from nested_span_f1.benchmark.compare import benchmark
from nested_span_f1.formats import read_corpus

webdriver = pytest.importorskip("selenium.webdriver")
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(
    not (CHROMIUM and CHROMEDRIVER), reason="needs Debian's chromium and chromium-driver (apt-get install them)"
)
MB = 1 << 20


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    # Chromium's profile folders go to a temporary folder of the test's, not to /tmp
    service = Service(CHROMEDRIVER, env={**os.environ, "TMPDIR": str(tmp_path_factory.mktemp("chromium"))})
    driver = webdriver.Chrome(service=service, options=options)
    driver.set_window_size(1280, 1600)
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def report(shared_data, tmp_path_factory):
    gold = read_corpus(shared_data / "genia/genia-docsplit.test.jsonl")
    systems = {name: perturbed(gold, seed) for seed, name in enumerate(("span-base", "span-large", "seq2seq"))}
    result = benchmark(gold, systems, progress=False, dataset="GENIA")
    path = tmp_path_factory.mktemp("html") / "genia.html"
    result.to_html(path)
    return result, path


def opened(browser, path):
    """Load the page; the milliseconds until its load event and until the error browser was drawn."""
    browser.get(path.as_uri())
    WebDriverWait(browser, 30).until(lambda d: d.execute_script("return document.body.dataset.ready"))
    return browser.execute_script("return [performance.getEntriesByType('navigation')[0].loadEventEnd, "
                                  "Number(document.body.dataset.ready)]")


def counts(browser):
    shown = browser.find_element(By.ID, "shown-counts")
    return int(shown.get_attribute("data-cases")), int(shown.get_attribute("data-sentences")), \
        int(shown.get_attribute("data-drawn"))


def cells(browser, table_id):
    return [[c.text for c in row.find_elements(By.CSS_SELECTOR, "td")]
            for row in browser.find_elements(By.CSS_SELECTOR, f"#{table_id} tbody tr")]


def pct(value):
    return f"{100 * value:.2f}"


def test_the_page_is_small_and_opens(browser, report):
    _, path = report
    size = path.stat().st_size
    assert size < 5 * MB, f"{size / MB:.2f} MB"
    times = [opened(browser, path) for _ in range(3)]
    load, ready = min(t[0] for t in times), min(t[1] for t in times)
    print(f"\nGENIA test, 3 systems: {size / MB:.2f} MB; load event {load:.0f} ms, error browser drawn {ready:.0f} ms "
          "(best of 3)")
    severe = [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
    assert not severe, severe


def test_the_numbers_on_the_page_are_the_json(browser, report):
    result, path = report
    opened(browser, path)
    data = result.to_dict()
    rows = cells(browser, "summary-table")
    assert [r[:5] for r in rows] == [[s["name"], pct(s["precision"]["value"]), pct(s["recall"]["value"]),
                                      pct(s["f1"]["value"]), f"[{pct(s['f1']['low'])}, {pct(s['f1']['high'])}]"]
                                     for s in data["systems"]]
    for row in cells(browser, "per-type-table"):
        for cell, system in zip(row[2:], data["systems"]):
            f1 = system["per_type"][row[0]]["f1"]
            assert cell == f"{pct(f1['value'])} [{pct(f1['low'])}, {pct(f1['high'])}]"
    for attribute in ("entity_length", "sentence_length", "nesting_depth", "entity_density"):
        for row in cells(browser, f"bucket-table-{attribute}"):
            for cell, system in zip(row[2:], data["systems"]):
                f1 = system["buckets"][attribute][row[0]]["f1"]
                assert cell == f"{pct(f1['value'])} [{pct(f1['low'])}, {pct(f1['high'])}]"
    charts = browser.find_elements(By.CSS_SELECTOR, "svg.chart")
    assert len(charts) == 5 and all(chart.size["height"] > 100 for chart in charts)


def test_filters_change_what_is_shown_and_count_it(browser, report):
    result, path = report
    opened(browser, path)
    systems = result.systems
    errors = {s["name"]: s["errors"] for s in systems}
    first = errors[systems[0]["name"]]
    cases, sentences, drawn = counts(browser)
    assert cases == sum(v for k, v in first.items() if k != "correct")  # default: any error of the first system
    assert drawn == len(browser.find_elements(By.CSS_SELECTOR, "#sentences .sentence")) == min(50, sentences)
    category, system, kind = (Select(browser.find_element(By.ID, i)) for i in
                              ("filter-category", "filter-system", "filter-type"))
    category.select_by_visible_text("Missed")
    assert counts(browser)[0] == first["missed"]
    shown = browser.find_elements(By.CSS_SELECTOR, "#sentences .span.hit")
    assert shown and {s.get_attribute("data-category") for s in shown} == {"missed"}
    for name in (systems[1]["name"], systems[2]["name"]):
        system.select_by_visible_text(name)
        assert counts(browser)[0] == errors[name]["missed"]
    category.select_by_visible_text("every span")
    total = counts(browser)[0]
    assert total == sum(errors[systems[2]["name"]].values())
    kind.select_by_visible_text("RNA")
    rna = counts(browser)
    assert 0 < rna[0] < total and rna[1] < 1732
    for box in browser.find_elements(By.CSS_SELECTOR, "#sentences .sentence"):
        # every case shown has an RNA span on one side (a type error pair outlines its other label too)
        assert "RNA" in {span.text for span in box.find_elements(By.CSS_SELECTOR, ".span.hit")}
    kind.select_by_visible_text("every type")
    category.select_by_visible_text("Correct")
    before = counts(browser)
    browser.find_element(By.ID, "show-more").click()
    after = counts(browser)
    assert after[:2] == before[:2] and after[2] == min(before[2] + 50, before[1]) > before[2]
    assert len(browser.find_elements(By.CSS_SELECTOR, "#sentences .sentence")) == after[2]


def test_a_card_scrolled_to_its_first_case_keeps_its_title_and_row_labels_in_view(browser, report):
    """QA item 14: a card whose first case is off to the right is scrolled to it; its "Sentence N" title (above the
    scrolling part) and its gold/predicted labels (sticky) stay visible, not scrolled away or covered."""
    _, path = report
    opened(browser, path)
    found = browser.execute_script("""
        const box = [...document.querySelectorAll('#sentences .sentence')].find(
            (b) => b.querySelector('.scroll').scrollLeft > 0);
        if (!box) return null;
        box.scrollIntoView();
        const scroll = box.querySelector('.scroll'), view = scroll.getBoundingClientRect();
        const visible = (el) => {
            const r = el.getBoundingClientRect();
            return r.left >= view.left - 1 && document.elementFromPoint(r.left + 3, r.top + r.height / 2) === el;
        };
        const first = box.querySelector('.span.hit').getBoundingClientRect();
        const where = box.querySelector('.where').getBoundingClientRect();
        return {title: box.querySelector('.where').textContent, titleShown: where.left >= 0 && where.width > 0,
                labels: [...box.querySelectorAll('.side')].filter((e) => e.textContent).map(
                    (e) => [e.textContent, visible(e)]),
                caseShown: first.left >= view.left && first.right <= view.right};
    """)
    assert found is not None, "no card was scrolled: GENIA's long sentences should have one"
    assert found["title"].startswith("Sentence ") and found["titleShown"]
    assert found["labels"] == [["gold", True], ["predicted", True]]
    assert found["caseShown"]
