"""A small brat project of three annotators written by hand, for the tests of agreement's brat figures: every
figure the tests expect is counted by hand in their comments.

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

annotation.conf declares PER, ORG and LOC (MISC is not declared: C alone uses it).
"""
from pathlib import Path

TEXTS = {"d1": "Human Rights Watch met Ana Lopez in New York .\n", "d2": "Paris and Rome .\n", "d3": "Dr Smith .\n"}

ANNOTATIONS = {
    "A": {"d1": ["ORG 0 18\tHuman Rights Watch", "PER 23 32\tAna Lopez", "LOC 36 44\tNew York"],
          "d2": ["LOC 0 5\tParis", "LOC 10 14\tRome"],
          "d3": ["PER 3 8\tSmith"]},
    "B": {"d1": ["ORG 0 12\tHuman Rights", "ORG 13 18\tWatch", "PER 23 32\tAna Lopez", "LOC 36 44\tNew York"],
          "d2": ["LOC 0 5\tParis", "LOC 10 14\tRome", "LOC 0 5;10 14\tParis Rome"],
          "d3": ["PER 3 8\tSmith"]},
    "C": {"d1": ["ORG 0 15\tHuman Rights Wa", "PER 27 32\tLopez", "MISC 36 44\tNew York"],
          "d2": [],
          "d3": ["PER 3 8\tSmith"]},
}

CONF = "[entities]\nPER\nORG\nLOC\n\n[relations]\n\n[events]\n\n[attributes]\n"


def write_project(root: Path, conf: str = CONF) -> Path:
    """The project under ``root``: ``annotation.conf`` and one folder per annotator (bratiaa's layout)."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "annotation.conf").write_text(conf, encoding="utf-8")
    for name, documents in ANNOTATIONS.items():
        folder = root / name
        folder.mkdir()
        for ident, lines in documents.items():
            (folder / f"{ident}.txt").write_text(TEXTS[ident], encoding="utf-8")
            (folder / f"{ident}.ann").write_text("".join(f"T{k}\t{line}\n" for k, line in enumerate(lines, 1)),
                                                 encoding="utf-8")
    return root
