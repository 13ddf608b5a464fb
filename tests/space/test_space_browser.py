"""Each metric's Space app, started as a Space starts it (python app.py in its folder), driven in headless Chromium.

What a visitor does: paste CoNLL columns, upload a file, send malformed and
oversized input, then valid input again; the numbers on the page must equal
``compute`` on the same input, the messages must be on the page, the charts
must be drawn. Screenshots go to each test's tmp_path. Last, 20 concurrent
requests through gradio's own client must all get their own right answer.
"""
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
import warnings
from pathlib import Path

import pytest

pytest.importorskip("gradio")
webdriver = pytest.importorskip("selenium.webdriver")

import evaluate
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from nested_span_f1.core.matching import DuplicateSpanWarning
from nested_span_f1.hf.paths import METRICS, metric_path
from nested_span_f1.render.tables import per_label
from nested_span_f1.space.app import SPECS
from nested_span_f1.space.inputs import MAX_BYTES, parse, preset

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(
    not (CHROMIUM and CHROMEDRIVER), reason="needs Debian's chromium and chromium-driver (apt-get install them)"
)
OPTIONS = {"zero_division": 0}
CHARTS = {"exact": ("per_type_chart",), "lenient": ("per_type_chart", "error_chart"),
          "nested": ("per_type_chart", "error_chart", "depth_chart", "length_chart")}
# the input that poisoned a cached metric instance: an integer no Arrow column holds
POISON = {
    "exact": {"predictions": [[2**70]], "references": [[0]]},
    "lenient": {"predictions": [[{"start": 0, "end": 2**70, "label": "PER"}]], "references": [[]]},
    "nested": {"predictions": [[{"start": 0, "end": 2**70, "label": "PER"}]], "references": [[]]},
}


OVERSIZED = "token B-PER B-PER\n" * (MAX_BYTES // 18 + 1)
LIMIT = (f"this Space scores at most {MAX_BYTES:,} bytes (about 200k tokens); score larger sets locally "
         "(nested-span-f1 score)")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage"):
        options.add_argument(flag)
    # Chromium's profile folders go to a temporary folder of the test's, not to /tmp
    service = Service(CHROMEDRIVER, env={**os.environ, "TMPDIR": str(tmp_path_factory.mktemp("chromium"))})
    driver = webdriver.Chrome(service=service, options=options)
    driver.set_window_size(1280, 2400)
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def apps(tmp_path_factory):
    """Start ``python app.py`` inside each metric folder, all at once; yield name -> (process, URL, log)."""
    logs = tmp_path_factory.mktemp("apps")
    started = {}
    try:
        for name in METRICS:
            port = _free_port()
            env = dict(os.environ, GRADIO_SERVER_PORT=str(port), GRADIO_SERVER_NAME="127.0.0.1",
                       GRADIO_ANALYTICS_ENABLED="False", HF_HUB_OFFLINE="1", HF_DATASETS_OFFLINE="1",
                       HF_EVALUATE_OFFLINE="1", PYTHONDONTWRITEBYTECODE="1", TMPDIR=str(logs))
            log = open(logs / f"{name}.log", "w")
            proc = subprocess.Popen([sys.executable, "app.py"], cwd=metric_path(name), env=env, stdout=log,
                                    stderr=subprocess.STDOUT)
            started[name] = (proc, f"http://127.0.0.1:{port}/", log)
        yield started
    finally:
        for proc, _, log in started.values():
            proc.terminate()
            proc.wait(timeout=30)
            log.close()


@pytest.fixture(scope="module", params=METRICS)
def space(request, apps):
    """One metric's app, once it serves: its name and URL."""
    proc, url, log = apps[request.param]
    deadline = time.time() + 180
    while True:
        assert proc.poll() is None, Path(log.name).read_text()[-2000:]
        try:
            urllib.request.urlopen(url, timeout=2)
            return request.param, url
        except OSError:
            assert time.time() < deadline, f"app.py did not serve {url}: {Path(log.name).read_text()[-2000:]}"
            time.sleep(0.5)


def _expected(name: str, text: str) -> dict:
    predictions, references, _ = parse(text)
    with warnings.catch_warnings():
        # the nested sample lists one span twice on purpose; the result reports it as duplicate_predictions
        warnings.simplefilter("ignore", DuplicateSpanWarning)
        result = evaluate.load(metric_path(name)).compute(predictions=predictions, references=references, **OPTIONS)
    return json.loads(json.dumps(result))


def _open(browser, url: str) -> WebDriverWait:
    browser.get(url)
    wait = WebDriverWait(browser, 90)
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#input textarea"))
    options = browser.find_element(By.CSS_SELECTOR, "#options textarea")
    options.clear()
    options.send_keys(json.dumps(OPTIONS))
    return wait


def _paste(browser, text: str) -> None:
    """Put text in the input box as a paste would: all at once (the last key typed, so the page sees input)."""
    box = browser.find_element(By.CSS_SELECTOR, "#input textarea")
    box.clear()
    browser.execute_script("arguments[0].value = arguments[1]", box, text[:-1])
    box.send_keys(text[-1])
    assert box.get_attribute("value") == text


def _uploaded(wait: WebDriverWait, stem: str) -> None:
    """Wait until the file box lists the uploaded file (its name is shown split before the suffix)."""
    wait.until(lambda d: stem in d.find_element(By.CSS_SELECTOR, "#upload").text
               and "Drop File Here" not in d.find_element(By.CSS_SELECTOR, "#upload").text)


def _text(browser, element_id: str) -> str:
    """The text of a Markdown output, without the progress line gradio shows over it."""
    return browser.find_element(By.CSS_SELECTOR, f"#{element_id} [data-testid=markdown]").text


def _score(browser, wait: WebDriverWait) -> str:
    """Click Score; return the one-line message once the request has finished."""
    old = _text(browser, "message")
    browser.find_element(By.CSS_SELECTOR, "#score").click()
    tracker = browser.find_element(By.CSS_SELECTOR, "#message [data-testid=status-tracker]")
    wait.until(lambda d: _text(d, "message") not in ("", old) and "hide" in tracker.get_attribute("class"))
    return _text(browser, "message")


def _headline(browser) -> dict:
    return {key: float(value) for key, value in re.findall(r"(\w+) = ([-+.\deE]+)", _text(browser, "headline"))}


def _check_page(browser, name: str, expected: dict) -> None:
    """The headline equals compute, the charts are drawn, the downloaded JSON is the whole result."""
    shown = _headline(browser)
    assert shown == {key: expected[key] for key in SPECS[name].headline}
    types = expected.get("per_type") or per_label(expected)
    assert types and all(label in browser.find_element(By.CSS_SELECTOR, "#per_type").text for label in types)
    for chart in CHARTS[name]:
        img = browser.find_element(By.CSS_SELECTOR, f"#{chart} img")
        WebDriverWait(browser, 30).until(lambda d, img=img: d.execute_script("return arguments[0].naturalWidth", img) > 0)
        assert img.size["width"] > 0 and img.size["height"] > 0, chart
    link = browser.find_element(By.CSS_SELECTOR, "#download a").get_attribute("href")
    with urllib.request.urlopen(link, timeout=30) as response:
        assert json.load(response) == expected


def test_pasted_conll_scores_like_compute(space, browser, tmp_path):
    name, url = space
    wait = _open(browser, url)
    text = preset("flat")
    _paste(browser, text)
    assert _score(browser, wait) == "Scored 15 sentences."
    _check_page(browser, name, _expected(name, text))
    browser.save_screenshot(str(tmp_path / f"{name}-pasted.png"))


def test_uploaded_file_scores_like_compute(space, browser, tmp_path):
    name, url = space
    wait = _open(browser, url)
    text = preset("flat" if name == "exact" else "nested")
    upload = tmp_path / "upload.txt"
    upload.write_text(text, encoding="utf-8")
    browser.find_element(By.CSS_SELECTOR, "#upload input[type=file]").send_keys(str(upload))
    _uploaded(wait, "upload")
    assert _score(browser, wait) == f"Scored {len(parse(text)[1])} sentences."
    _check_page(browser, name, _expected(name, text))
    browser.save_screenshot(str(tmp_path / f"{name}-uploaded.png"))


def test_malformed_input_shows_a_message_and_the_preset_example_then_scores_right(space, browser, tmp_path):
    name, url = space
    wait = _open(browser, url)
    _paste(browser, "Maria B-PER\nKeller I-PER\n")
    assert _score(browser, wait) == (
        "Error: line 1: 2 columns; CoNLL input needs three (token, gold tag, predicted tag), separated by spaces or tabs")
    _paste(browser, json.dumps(POISON[name]))
    message = _score(browser, wait)
    assert re.fullmatch(r"Error( \(\w+\))?: \S.*", message), message
    assert _headline(browser) == {}
    browser.save_screenshot(str(tmp_path / f"{name}-malformed.png"))
    browser.find_element(By.CSS_SELECTOR, "#preset-flat").click()
    wait.until(lambda d: d.find_element(By.CSS_SELECTOR, "#input textarea").get_attribute("value") == preset("flat"))
    assert _score(browser, wait) == "Scored 15 sentences."
    _check_page(browser, name, _expected(name, preset("flat")))


def test_oversized_input_is_refused_with_a_message(space, browser, tmp_path):
    name, url = space
    wait = _open(browser, url)
    big = tmp_path / "big.conll"
    big.write_text(OVERSIZED, encoding="utf-8")
    browser.find_element(By.CSS_SELECTOR, "#upload input[type=file]").send_keys(str(big))
    _uploaded(wait, "big")
    assert _score(browser, wait) == (
        f"Error: the uploaded file big.conll is {big.stat().st_size:,} bytes; {LIMIT}")
    browser.save_screenshot(str(tmp_path / f"{name}-oversized.png"))


def test_deep_json_is_one_plain_sentence_and_json_with_a_byte_order_mark_scores(space, browser, tmp_path):
    """Deep JSON (under the text box's limit) is refused in one sentence, not as a RecursionError; an uploaded
    JSON file that starts with a byte-order mark (as Windows editors save it) is read as JSON, not as CoNLL."""
    name, url = space
    wait = _open(browser, url)
    _paste(browser, "[" * 5000)
    assert _score(browser, wait) == ("Error: JSON input nests lists and objects more than 8 deep; no input of the "
                                     "metrics does (an object, its sides, their sentences, spans or tag layers)")
    text = json.dumps(dict(zip(("predictions", "references"), parse(preset("flat")))))
    upload = tmp_path / "bom.json"
    upload.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    browser.find_element(By.CSS_SELECTOR, "#upload input[type=file]").send_keys(str(upload))
    _uploaded(wait, "bom")
    assert _score(browser, wait) == "Scored 15 sentences."
    _check_page(browser, name, _expected(name, text))
    browser.save_screenshot(str(tmp_path / f"{name}-bom.png"))


@pytest.mark.parametrize("space", ["exact"], indirect=True)
def test_twenty_concurrent_requests_all_get_their_own_result(space, tmp_path, monkeypatch):
    """Through gradio's client (the app's HTTP API): a paste over the limit, then 20 requests at once."""
    name, url = space
    from gradio_client import Client

    # gradio_client downloads into /tmp/gradio and leaves an empty folder of its own in the temporary folder for
    # each file: both into the test's folder instead
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    client = Client(url, verbose=False, download_files=tmp_path)
    refused = client.predict(OVERSIZED, None, "", api_name="/score")
    assert refused[0] == f"Error: the input is {len(OVERSIZED):,} bytes; {LIMIT}"
    sentences = preset("flat").strip().split("\n\n")
    texts = ["\n\n".join(sentences[: 1 + i % len(sentences)]) + "\n" for i in range(20)]
    jobs = [client.submit(text, None, json.dumps(OPTIONS), api_name="/score") for text in texts]
    metric = evaluate.load(metric_path(name))
    for text, job in zip(texts, jobs):
        predictions, references, _ = parse(text)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DuplicateSpanWarning)  # as in _expected
            expected = json.loads(json.dumps(metric.compute(predictions=predictions, references=references, **OPTIONS)))
        outputs = job.result(timeout=300)
        assert outputs[0] == ("Scored 1 sentence." if len(references) == 1 else f"Scored {len(references)} sentences.")
        with open(outputs[-1], encoding="utf-8") as f:
            assert json.load(f) == expected
