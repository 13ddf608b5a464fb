"""Every metric card: Hub front matter, evaluate's sections, and examples that print what they say."""
import doctest
import re
import warnings
from pathlib import Path

import evaluate
import pytest

from nested_span_f1.paths import METRICS, metric_path

SECTIONS = ("Metric Description", "How to Use", "Inputs", "Output Values", "Examples", "Limitations and Bias", "Citation")
FRONT_MATTER = ("title:", "emoji:", "colorFrom:", "colorTo:", "sdk: gradio", "sdk_version:", "app_file: app.py",
                "pinned: false", "- evaluate", "- metric")


def _card(name: str) -> str:
    return (Path(metric_path(name)) / "README.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", METRICS)
def test_card_has_front_matter_and_sections(name):
    _, head, body = _card(name).split("---", 2)
    for key in FRONT_MATTER:
        assert key in head, key
    assert f"title: {name}" in head
    headings = set(re.findall(r"^#+ (.+)$", body, flags=re.MULTILINE))
    for section in SECTIONS:
        assert section in headings, section


@pytest.mark.parametrize("name", METRICS)
def test_card_examples_print_what_the_card_says(name):
    metric = evaluate.load(metric_path(name))
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    blocks = [b.split("```")[0] for b in _card(name).split("```python")[1:] if ">>>" in b.split("```")[0]]
    assert blocks, "the card shows no runnable example"
    for i, block in enumerate(blocks):
        test = parser.get_doctest(block, {"metric": metric, name: metric}, f"{name}-card-{i}", "README.md", 0)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            runner.run(test)
    assert runner.summarize(verbose=False).failed == 0
