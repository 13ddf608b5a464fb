"""Shared test set-up: offline Hugging Face settings, Hypothesis's profiles and the optional real data."""
import os
import shutil
import sys
from contextlib import contextmanager, nullcontext
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from nested_span_f1.core.matching import DuplicateSpanWarning

for _var in ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE", "HF_EVALUATE_OFFLINE"):
    os.environ.setdefault(_var, "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

# Every property test runs under these settings (no test sets its own). "default" draws new examples at every run and
# keeps the failing ones in .hypothesis/, tried first the next time; "ci" (HYPOTHESIS_PROFILE=ci, as .ci/run sets it)
# draws the same examples at every run, so that a failure in CI is the same failure on any machine. No deadline: a
# shared 2-core machine makes single examples slow now and then.
settings.register_profile("default", max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", settings.get_profile("default"), derandomize=True, database=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

ROOT = Path(__file__).resolve().parents[1]

# The README's test command runs the files on two workers (pytest-xdist, `--dist loadfile`), a file whole on one
# worker, handed out in collection order (`--no-loadscope-reorder`). These files hold most of the suite's time (a
# real Chromium, a JVM, a virtual environment installed from the wheel, fine-tuning runs), so they go first, the
# longest first, and the many short files fill in behind them: a long file handed out last would run alone.
LONGEST_FILES = ("spark/test_spark.py", "space/test_space_browser.py", "scripts/test_train_scripts.py",
                 "space/test_space_folder.py", "test_bad_input.py", "space/test_space_scorer.py", "test_docs.py",
                 "test_bad_input_round4.py",
                 "hf/test_distributed.py", "flat/test_reference.py", "flat/test_flat_seqeval.py", "test_types.py",
                 "harness/test_lm_eval.py", "harness/test_lighteval.py", "benchmark/test_comparisons.py")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Put the tests of LONGEST_FILES first, in that order; the rest keep pytest's order."""
    tests = ROOT / "tests"

    def rank(item: pytest.Item) -> int:
        path = item.path.relative_to(tests).as_posix() if item.path.is_relative_to(tests) else ""
        return LONGEST_FILES.index(path) if path in LONGEST_FILES else len(LONGEST_FILES)

    items.sort(key=rank)
SHARED_DATA = ROOT.parent / "shared" / "data"


@pytest.fixture(scope="module")
def spark():
    """A local Spark session (local[2]) for the tests of one module; skips without pyspark or a Java runtime."""
    pytest.importorskip("pyspark")
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        pytest.skip("no Java runtime, which pyspark needs: apt-get install openjdk-17-jre-headless (.ci/run does)")
    from nested_span_f1.spark import session

    with pytest.MonkeyPatch.context() as patch:
        # the executors' Python workers start PYSPARK_PYTHON (else the python3 on PATH): this interpreter
        patch.setenv("PYSPARK_PYTHON", sys.executable)
        spark = session("local[2]", "nested-span-f1 tests", **{"spark.ui.enabled": "false",
                                                                "spark.sql.shuffle.partitions": "4"})
        spark.sparkContext.setLogLevel("ERROR")
        yield spark
        spark.stop()


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The real data in ../shared/data; tests that need it skip when it is absent."""
    if not SHARED_DATA.is_dir():
        pytest.skip(f"real data not found at {SHARED_DATA}: a fresh clone has no ../shared/data; put the CoNLL-2000, "
                    "CoNLL-2003 and GENIA files its PROVENANCE.md lists there to run these tests")
    return SHARED_DATA


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return ROOT


@contextmanager
def _warns_if_duplicated(*sides):
    """``pytest.warns(DuplicateSpanWarning)`` when a sentence of a side lists a span twice, else nothing."""
    twice = any(len(set(sentence)) < len(sentence) for side in sides for sentence in side)
    with pytest.warns(DuplicateSpanWarning, match="duplicate") if twice else nullcontext():
        yield


@pytest.fixture(scope="session")
def warns_if_duplicated():
    """For generated spans: the duplicate warning is asserted exactly when some sentence has a duplicate
    (the pytest configuration makes our warning classes errors)."""
    return _warns_if_duplicated
