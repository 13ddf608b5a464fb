"""Each metric's Space app, started as a Space starts it (python app.py in its folder), driven in headless Chromium."""
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("gradio")
webdriver = pytest.importorskip("selenium.webdriver")

from nested_span_f1.paths import METRICS, metric_path

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(
    not (CHROMIUM and CHROMEDRIVER), reason="needs Debian's chromium and chromium-driver (apt-get install them)"
)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def browser():
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_window_size(1280, 1000)
    yield driver
    driver.quit()


@pytest.fixture
def space(request, tmp_path):
    """Start ``python app.py`` inside the metric folder and yield its URL."""
    folder = Path(metric_path(request.param))
    port = _free_port()
    env = dict(os.environ, GRADIO_SERVER_PORT=str(port), GRADIO_SERVER_NAME="127.0.0.1",
               GRADIO_ANALYTICS_ENABLED="False", HF_HUB_OFFLINE="1", HF_DATASETS_OFFLINE="1",
               HF_EVALUATE_OFFLINE="1", PYTHONDONTWRITEBYTECODE="1")
    log = open(tmp_path / "app.log", "w")
    proc = subprocess.Popen([sys.executable, "app.py"], cwd=folder, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.time() + 120
        while True:
            if proc.poll() is not None:
                pytest.fail(f"app.py exited: {(tmp_path / 'app.log').read_text()[-2000:]}")
            try:
                urllib.request.urlopen(url, timeout=2)
                break
            except OSError:
                if time.time() > deadline:
                    pytest.fail(f"app.py did not serve {url}: {(tmp_path / 'app.log').read_text()[-2000:]}")
                time.sleep(0.5)
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        log.close()


@pytest.mark.parametrize("space", [m for m in METRICS if Path(metric_path(m), "app.py").exists()], indirect=True)
def test_space_scores_its_example_in_a_browser(space, browser, tmp_path, request):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    browser.get(space)
    wait = WebDriverWait(browser, 60)
    wait.until(ec.element_to_be_clickable((By.CSS_SELECTOR, "#score"))).click()
    wait.until(lambda d: "f1" in d.find_element(By.CSS_SELECTOR, "#result").text)
    browser.save_screenshot(str(tmp_path / "space.png"))
    shown = browser.find_element(By.CSS_SELECTOR, "#result").text
    boxes = {name: browser.find_element(By.CSS_SELECTOR, f"#{name} textarea").get_attribute("value")
             for name in ("predictions", "references", "options")}
    import evaluate

    metric = evaluate.load(metric_path(request.node.callspec.params["space"]))
    expected = metric.compute(predictions=json.loads(boxes["predictions"]),
                              references=json.loads(boxes["references"]), **json.loads(boxes["options"] or "{}"))
    # gr.JSON renders one JSON token a line under its label; joined, they are the JSON again,
    # except that deep nodes are collapsed to {Object(n)} / [Array(n)]
    label, _, body = shown.partition("\n")
    assert label == "result"
    text = re.sub(r"\{Object\((\d+)\)\}|\[Array\((\d+)\)\]", _collapsed, "".join(body.splitlines()))
    assert _matches(json.loads(text), json.loads(json.dumps(expected)))


def _collapsed(match):
    size, kind = (match.group(1), "object") if match.group(1) else (match.group(2), "array")
    return json.dumps({"__collapsed__": kind, "size": int(size)})


def _matches(shown, expected):
    """Equal, where a collapsed node only has to have the right kind and size."""
    if isinstance(shown, dict) and "__collapsed__" in shown:
        kind = dict if shown["__collapsed__"] == "object" else list
        return isinstance(expected, kind) and len(expected) == shown["size"]
    if isinstance(shown, dict):
        return isinstance(expected, dict) and shown.keys() == expected.keys() and all(
            _matches(shown[k], expected[k]) for k in shown)
    if isinstance(shown, list):
        return isinstance(expected, list) and len(shown) == len(expected) and all(
            _matches(a, b) for a, b in zip(shown, expected))
    return shown == expected
