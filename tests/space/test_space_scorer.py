"""The Space's request handler without a browser: what it leaves in the temporary folder (QA item 18) and how
it counts the places it names (QA item 11; the catalogue in tests/test_bad_input.py holds the rest)."""
from __future__ import annotations

import gc
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import nested_span_f1
from nested_span_f1.space.app import SPECS, Scorer, metric_script

REQUEST = ("a B-PER B-PER\nb I-PER I-PER\n\nc O B-LOC", None, '{"zero_division": 0}')


def scorer(name: str = "exact") -> Scorer:
    return Scorer(metric_script(nested_span_f1.metric_path(name)), SPECS[name])


def made(tmp: Path) -> list[str]:
    return sorted(p.name for p in tmp.iterdir() if p.name.startswith("nested-span-f1-space-"))


def test_a_scorer_makes_its_folder_at_the_first_request_and_removes_it_when_closed_or_collected(tmp_path, monkeypatch):
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    first = scorer()
    assert made(tmp_path) == []  # building the app writes nothing
    download = Path(first(*REQUEST)[-1])
    assert download.parent.parent == tmp_path and json.loads(download.read_text(encoding="utf-8"))["overall_f1"] == 2 / 3
    second_download = Path(first(*REQUEST)[-1])
    assert made(tmp_path) == [download.parent.name] and second_download.parent == download.parent
    first.close()
    assert made(tmp_path) == []
    first.close()  # closing twice is harmless

    second = scorer()
    second(*REQUEST)
    assert len(made(tmp_path)) == 1
    del second
    gc.collect()
    assert made(tmp_path) == []


def test_a_space_process_leaves_nothing_in_the_temporary_folder(tmp_path):
    """The 255 folders QA found: one per Scorer, never removed. A process that serves requests and ends leaves none."""
    code = ("import nested_span_f1, sys\n"
            "from nested_span_f1.space.app import SPECS, Scorer, metric_script\n"
            "scorer = Scorer(metric_script(nested_span_f1.metric_path('exact')), SPECS['exact'])\n"
            f"page = scorer(*{REQUEST!r})\n"
            "assert not page[0].startswith('Error'), page[0]\n"
            "print(page[-1])\n")
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert Path(out.stdout.strip()).parent.parent == tmp_path  # the download was written where TMPDIR says
    assert made(tmp_path) == []


def test_a_served_app_stopped_by_sigterm_leaves_nothing_in_the_temporary_folder(tmp_path, monkeypatch):
    """A Space is stopped with SIGTERM: app.py (serve) stops as on Ctrl-C, so the download folder is removed."""
    from gradio_client import Client

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = dict(os.environ, TMPDIR=str(tmp_path), GRADIO_SERVER_PORT=str(port), GRADIO_SERVER_NAME="127.0.0.1",
               GRADIO_ANALYTICS_ENABLED="False", HF_HUB_OFFLINE="1", HF_EVALUATE_OFFLINE="1")
    with open(tmp_path / "app.log", "w") as log:
        app = subprocess.Popen([sys.executable, "app.py"], cwd=nested_span_f1.metric_path("exact"), env=env,
                               stdout=log, stderr=subprocess.STDOUT)
        try:
            url, deadline = f"http://127.0.0.1:{port}/", time.time() + 180
            while True:
                assert app.poll() is None, (tmp_path / "app.log").read_text()[-2000:]
                try:
                    urllib.request.urlopen(url, timeout=2)
                    break
                except OSError:
                    assert time.time() < deadline, (tmp_path / "app.log").read_text()[-2000:]
                    time.sleep(0.5)
            # gradio_client leaves an empty folder in the temporary folder for each file it downloads: the test's
            monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
            page = Client(url, verbose=False, download_files=tmp_path / "client").predict(*REQUEST, api_name="/score")
            assert page[0] == "Scored 2 sentences."
            assert len(made(tmp_path)) == 1  # the download folder, while the app serves
        finally:
            app.terminate()
            code = app.wait(timeout=60)
    assert code == 0, (tmp_path / "app.log").read_text()[-2000:]
    assert made(tmp_path) == []


def test_a_span_position_is_counted_from_1_on_the_nested_space():
    spans = [[], [{"start": 0, "end": 1, "label": "A"}, {"start": 2, "end": 1, "label": "A"}]]
    page = scorer("nested")(json.dumps({"predictions": spans, "references": [[], []]}), None, "")
    assert page[0].startswith("Error: predictions, sentence 2: span ") and "(position 2 in the sentence)" in page[0]
