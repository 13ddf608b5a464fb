"""The sample brat project (``sample_path("brat-project")``, written for the package) as the tests of agreement's
brat figures use it: every figure the tests expect is counted by hand in their comments from this drawing.

    d1  "Human Rights Watch met Ana Lopez in New York ."
         Human 0-5, Rights 6-12, Watch 13-18, met 19-22, Ana 23-26, Lopez 27-32, in 33-35, New 36-39, York 40-44,
         . 45-46 (10 whitespace tokens)
    d2  "Paris and Rome ."   Paris 0-5, and 6-9, Rome 10-14, . 15-16 (4 tokens)
    d3  "Dr Smith ."         Dr 0-2, Smith 3-8, . 9-10 (3 tokens)

    A  d1: ORG 0-18 'Human Rights Watch', PER 23-32 'Ana Lopez', LOC 36-44 'New York'
       d2: LOC 0-5 'Paris', LOC 10-14 'Rome'
       d3: PER 3-8 'Smith'
    B  d1: ORG 0-12 'Human Rights', ORG 13-18 'Watch', PER 23-32, LOC 36-44
       d2: LOC 0-5, LOC 10-14, and a discontinuous LOC 0-5;10-14 'Paris Rome'
       d3: PER 3-8
    C  d1: ORG 0-15 'Human Rights Wa' (a token cut), PER 27-32 'Lopez', MISC 36-44 'New York'
       d2: an empty .ann (C never opened it)
       d3: PER 3-8

annotation.conf declares PER, ORG and LOC (MISC is not declared: C alone uses it). Each T line is on the line of
its number (T1 on line 1).
"""
import shutil
from pathlib import Path

from nested_span_f1 import sample_path

SAMPLE = Path(sample_path("brat-project"))
CONF = (SAMPLE / "annotation.conf").read_text(encoding="utf-8")


def write_project(root: Path, conf: str = CONF) -> Path:
    """A copy of the project at ``root`` (its ``annotation.conf`` replaced by ``conf``)."""
    shutil.copytree(SAMPLE, root)
    (root / "annotation.conf").write_text(conf, encoding="utf-8")
    return root
