"""Packaging for nested-span-f1.

The three evaluate modules live in the top-level ``metrics/`` folder of the
repository (each a Hub-Space-ready folder) and are installed as package data
under ``nested_span_f1/metrics/`` so that ``nested_span_f1.metric_path(name)``
finds them after a plain ``pip install``.
"""
import re
from pathlib import Path

from setuptools import find_packages, setup

HERE = Path(__file__).parent


def _constant(module: str, name: str) -> str:
    """A string constant of the package (the version, the project URL), read without importing the package."""
    text = (HERE / "nested_span_f1" / module).read_text(encoding="utf-8")
    return re.search(rf'^{name} = "([^"]+)"', text, flags=re.MULTILINE).group(1)


VERSION = _constant("__init__.py", "__version__")
URL = _constant("hf/metric.py", "PROJECT_URL")

setup(
    name="nested-span-f1",
    version=VERSION,
    description="Entity-level span F1 for flat, lenient (MUC/SemEval) and nested NER evaluation",
    long_description=(HERE / "README.md").read_text(encoding="utf-8"),
    long_description_content_type="text/markdown",
    url=URL,
    project_urls={"Source": URL, "Issues": f"{URL}/issues"},
    license_expression="Apache-2.0",
    python_requires=">=3.10",
    packages=[*find_packages(include=["nested_span_f1", "nested_span_f1.*"]), "nested_span_f1.metrics"],
    package_dir={"nested_span_f1.metrics": "metrics"},
    package_data={
        "nested_span_f1": ["sample_data/*", "sample_data/brat-project/*", "sample_data/brat-project/*/*", "py.typed"],
        "nested_span_f1.metrics": ["*/*.py", "*/*.md", "*/*.txt"],
    },
    install_requires=["numpy>=1.22", "tqdm>=4.60"],
    extras_require={
        "evaluate": ["evaluate>=0.4.1", "datasets>=2.14"],
        "train": ["torch", "transformers>=4.40", "accelerate>=0.26"],
        "plots": ["matplotlib>=3.5"],
        "arrow": ["pyarrow>=14"],
        "spark": ["pyspark>=3.5", "pyarrow>=14"],
        "spacy": ["spacy>=3.8"],
        "nltk": ["nltk>=3.8"],
        "app": ["gradio>=5", "evaluate>=0.4.1", "datasets>=2.14", "matplotlib>=3.5"],
        # the evaluation harnesses (nested_span_f1.harness), each in an extra of its own, at the versions tested
        "lm-eval": ["lm-eval>=0.4.13,<0.5"],
        "inspect": ["inspect-ai>=0.3.285"],
        "lighteval": ["lighteval>=0.13,<0.14"],
        "test": [
            "pytest>=7",
            "pytest-xdist>=3.5",
            "ruff==0.17.6",
            "mypy==2.4.1",
            "selenium>=4.20",
            "gradio>=5",
            "hypothesis>=6",
            "seqeval==1.2.2",
            "nervaluate==1.2.1",
            "scikit-learn>=1.3",
            "evaluate>=0.4.1",
            "datasets>=2.14",
            "matplotlib>=3.5",
            "spacy>=3.8",
            "build>=1",
            "twine>=5",
            "setuptools>=77",
            "pyarrow>=14",
            "pyspark>=3.5",
            "statsmodels>=0.14",
            "krippendorff>=0.6",
            "bratiaa==0.1.4",
            "nltk>=3.8",
            # the harnesses' own runners, end to end (tests/harness)
            "lm-eval>=0.4.13,<0.5",
            "inspect-ai>=0.3.285",
            "lighteval>=0.13,<0.14",
            # spaCy's Japanese tokenizer: real tokens of text holding U+3000 (tests/align/test_unspaced_scripts.py)
            "sudachipy>=0.6",
            "sudachidict_core>=20230110",
        ],
    },
    entry_points={"console_scripts": ["nested-span-f1=nested_span_f1.cli.main:main"]},
    classifiers=[
        "Development Status :: 4 - Beta",
        "Intended Audience :: Science/Research",
        "Operating System :: OS Independent",
        "Programming Language :: Python :: 3",
        "Programming Language :: Python :: 3 :: Only",
        "Programming Language :: Python :: 3.10",
        "Programming Language :: Python :: 3.11",
        "Programming Language :: Python :: 3.12",
        "Programming Language :: Python :: 3.13",
        "Topic :: Scientific/Engineering :: Artificial Intelligence",
        "Topic :: Text Processing :: Linguistic",
        "Typing :: Typed",
    ],
)
