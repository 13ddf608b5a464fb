"""The examples in the docstrings of the threshold modules print what they say."""
import doctest
import importlib

import pytest


@pytest.mark.parametrize("module", ["nested_span_f1.thresholds", "nested_span_f1.thresholds.score"])
def test_docstring_examples(module):
    found = doctest.testmod(importlib.import_module(module))
    assert found.attempted and found.failed == 0
