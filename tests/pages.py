"""The documentation pages as the tests read them: README.md, CONTRIBUTING.md, BENCHMARKS.md and docs/*.md, their
fenced blocks (with the heading each sits under) and their sections."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FENCE = re.compile(r"^```(\S*)\s*$")
PAGES = sorted([ROOT / "README.md", ROOT / "CONTRIBUTING.md", ROOT / "BENCHMARKS.md", *(ROOT / "docs").glob("*.md")])
"""Every page a reader of the repository follows links between."""


def name(path):
    """A page's path from the repository's root: ``README.md``, ``docs/cli.md``."""
    return path.relative_to(ROOT).as_posix()


def text(page):
    """A page's text, by its name from the repository's root."""
    return (ROOT / page).read_text(encoding="utf-8")


def blocks(page):
    """``(language, code, heading)`` of every fenced block of a page; AssertionError on a fence left open, opened
    without a language or inside another block."""
    found, heading, language, code = [], "", None, []
    for number, line in enumerate(text(page).splitlines(), 1):
        fence = FENCE.match(line)
        if language is None:
            if line.startswith("#"):
                heading = line
            elif fence:
                assert fence.group(1), f"{page}, line {number}: a fence opens without a language"
                language, code = fence.group(1), []
            else:
                assert "```" not in line or line.count("`") != 3, f"{page}, line {number}: stray fence {line!r}"
        elif fence:
            assert not fence.group(1), f"{page}, line {number}: a fence opens inside the {language} block"
            found.append((language, "\n".join(code) + "\n", heading))
            language = None
        else:
            code.append(line)
    assert language is None, f"{page} ends inside a {language} block"
    return found


def section(page, heading):
    """The text of a page under ``heading`` (a whole heading line, ``## Set-up``) to the next heading of its
    level or above (headings inside fenced blocks, such as a shell comment, are not headings)."""
    level, lines, inside, fenced = len(heading.split(" ", 1)[0]), [], False, False
    for line in text(page).splitlines():
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced and re.match(r"#+ ", line):
            if inside:
                if len(line.split(" ", 1)[0]) <= level:
                    break
            elif line == heading:
                inside = True
                continue
        if inside:
            lines.append(line)
    assert inside, f"{page} has no heading {heading!r}"
    return "\n".join(lines) + "\n"


def expected_output(code):
    """The comment of every ``print(...)  # value`` line (indented too, as under an ``except``), in order: what the
    block must print."""
    return [line.split("  # ", 1)[1] for line in code.splitlines()
            if line.lstrip().startswith("print(") and "  # " in line]
