"""Every metric card and module: Hub front matter, evaluate's sections, examples that print what they say,
the project's URLs, typed ``_compute``, and Returns text that names every key returned."""
import doctest
import inspect
import re
import warnings
from pathlib import Path

import evaluate
import pytest

from nested_span_f1.hf.metric import PROJECT_URL
from nested_span_f1.hf.paths import METRICS, MODULES, metric_path
from nested_span_f1.render.tables import per_label
from nested_span_f1.space.inputs import parse, preset

SECTIONS = ("Metric Description", "Installation", "How to Use", "Inputs", "Output Values", "Examples",
            "Publishing a Space", "Limitations and Bias", "Citation")
FRONT_MATTER = ("title:", "emoji:", "colorFrom:", "colorTo:", "sdk: gradio", "sdk_version:", "app_file: app.py",
                "pinned: false", "license: apache-2.0", "- evaluate", "- metric")
# inputs that between them bring out every optional key: tags with a scheme, spans, errors asked for
CALLS = {
    "exact": [("flat", {"scheme": "IOB2"})],
    "lenient": [("flat", {"scheme": "IOB2"}), ("nested", {"return_errors": True})],
    "nested": [("flat", {"scheme": "IOB2"}), ("nested", {})],
}


def _card(name: str) -> str:
    return (Path(metric_path(name)) / "README.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", METRICS)
def test_card_has_front_matter_and_sections(name):
    _, head, body = _card(name).split("---", 2)
    for key in FRONT_MATTER:
        assert key in head, key
    assert f"title: {MODULES[name]}" in head
    headings = set(re.findall(r"^#+ (.+)$", body, flags=re.MULTILINE))
    for section in SECTIONS:
        assert section in headings, section


@pytest.mark.parametrize("name", METRICS)
def test_install_and_publish_sections_say_exactly_what_to_run(name):
    """No placeholder a reader must guess (the Space's org, the wheel's file name): the card installs from a clone
    of the repository, and a Space's copy of it names its own wheel (tests/space/test_space_folder.py)."""
    card = _card(name)
    for heading in ("Installation", "Publishing a Space"):
        section = card.split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]
        assert not re.findall(r"\b(?:ORG|WHEEL)\b", section), heading
    install = card.split("\n## Installation\n", 1)[1].split("\n## ", 1)[0]
    assert f"git clone {PROJECT_URL} && cd {PROJECT_URL.rsplit('/', 1)[1]}\npython -m pip install \".[evaluate]\"" in install


@pytest.mark.parametrize("name", METRICS)
def test_limitations_list_what_is_refused_and_what_is_repaired(name):
    limits = _card(name).split("## Limitations and Bias", 1)[1].split("\n## ", 1)[0]
    for heading in ("Refused", "Repaired", "Input kind", "After a failure"):
        assert f"\n- **{heading}**" in limits, heading
    # seqeval's behaviour kept on purpose, and what seqeval would turn into new types, are said
    for said in ("type `_`", "whitespace inside a tag", "invalid_predicted_chunks", "never truncated"):
        assert said in " ".join(limits.split()), said


@pytest.mark.parametrize("name", METRICS)
def test_card_examples_print_what_the_card_says(name):
    metric = evaluate.load(metric_path(name))
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    blocks = [b.split("```")[0] for b in _card(name).split("```python")[1:] if ">>>" in b.split("```")[0]]
    assert blocks, "the card shows no runnable example"
    for i, block in enumerate(blocks):
        test = parser.get_doctest(block, {"metric": metric, MODULES[name]: metric}, f"{name}-card-{i}", "README.md", 0)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            runner.run(test)
    assert runner.summarize(verbose=False).failed == 0


@pytest.mark.parametrize("name", METRICS)
def test_module_docstring_examples_run_through_evaluate(name):
    metric = evaluate.load(metric_path(name))
    examples = metric.inputs_description.split("Examples:", 1)[1]
    assert 'evaluate.load("' not in examples, "a bare name resolves to the Hub"
    test = doctest.DocTestParser().get_doctest(examples, {}, f"{name}-module", f"{name}.py", 0)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        runner.run(test)
    assert test.examples and runner.summarize(verbose=False).failed == 0


@pytest.mark.parametrize("name", METRICS)
def test_module_points_at_the_project_and_types_compute(name):
    metric = evaluate.load(metric_path(name))
    assert metric.homepage == PROJECT_URL
    assert metric.codebase_urls == [PROJECT_URL]
    signature = inspect.signature(type(metric)._compute)
    untyped = [p for p in list(signature.parameters)[1:] if signature.parameters[p].annotation is inspect.Parameter.empty]
    assert untyped == [] and signature.return_annotation is not inspect.Signature.empty


@pytest.mark.parametrize("name", METRICS)
def test_returns_text_names_every_key_returned(name):
    metric = evaluate.load(metric_path(name))
    returns = metric.inputs_description.split("Returns:", 1)[1].split("Examples:", 1)[0]
    for example, options in CALLS[name]:
        predictions, references, _ = parse(preset(example))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = metric.compute(predictions=predictions, references=references, zero_division=0, **options)
        for key in result.keys() - per_label(result).keys():
            spellings = (key, re.sub(r"^(strict|exact|partial|type)_", "{s}_", key),
                         re.sub(r"_(precision|recall|f1)$", "_*", key))
            assert any(s in returns for s in spellings), f"{key} is returned but not described"
