"""The design document stays true (docs/DESIGN.md, 'Architecture'): every citation of it names a heading it
has, its headings are unique, its folders are the package's, every import follows
its table, every file and test it names exists, and every example in it prints what its comments say."""
import ast
import contextlib
import io
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "nested_span_f1"
NAME = "docs/DESIGN.md"
TEXT = (ROOT / NAME).read_text(encoding="utf-8")
FENCE = re.compile(r"^```(\S*)\s*$")
CITATION = re.compile(re.escape(NAME) + r", '([^']+)'")
WHERE_CODE_CITES = ("nested_span_f1", "metrics", "scripts", "tests")


def sections(text):
    """``(heading, body)`` of every heading outside code fences, in order; the body runs to the next heading."""
    found, fenced = [], False
    for line in text.splitlines():
        if FENCE.match(line):
            fenced = not fenced
        if not fenced and re.match(r"#+ ", line):
            found.append((line.split(" ", 1)[1].strip(), []))
        elif found:
            found[-1][1].append(line)
    return [(heading, "\n".join(body)) for heading, body in found]


HEADINGS = [heading for heading, _ in sections(TEXT)]


def section(heading, text=TEXT):
    """The body of the section called ``heading``."""
    bodies = [body for name, body in sections(text) if name == heading]
    assert len(bodies) == 1, f"no section {heading!r}"
    return bodies[0]


def dangling(text, headings):
    """``(line, problem)`` of every citation in ``text`` that names no heading, of every citation whose heading
    is not on its line (the path and a comma, then no quoted heading: a citation broken across lines would
    escape the check), and of the numbered sections the code cited before the document was written."""
    out = []
    for number, line in enumerate(text.splitlines(), 1):
        out += [(number, f"no heading {name!r}") for name in CITATION.findall(line) if name not in headings]
        if line.count(NAME + ",") > len(CITATION.findall(line)):
            out.append((number, "a citation without its heading on the same line, in single quotes"))
        if re.search(r"DESIGN section \d", line):
            out.append((number, "cites a numbered section; cite the document's heading instead"))
    return out


def code_files():
    return sorted(path for folder in WHERE_CODE_CITES for path in (ROOT / folder).rglob("*.py"))


def test_headings_are_unique():
    repeated = sorted({h for h in HEADINGS if HEADINGS.count(h) > 1})
    assert not repeated, f"headings are cited by name, so each must be unique: {repeated}"


def test_every_citation_names_a_heading():
    cited, problems = 0, []
    for path in code_files():
        text = path.read_text(encoding="utf-8")
        cited += len(CITATION.findall(text))
        problems += [f"{path.relative_to(ROOT)}:{n}: {what}" for n, what in dangling(text, HEADINGS)]
    assert cited, "no citation found: the pattern no longer matches how the code cites the design"
    assert not problems, "\n".join([*problems, f"headings: {HEADINGS}"])


def test_the_check_catches_a_dangling_citation():
    # built from pieces, so that this file holds no citation of a heading that does not exist
    text = f"ok ({NAME}, 'Spans')\nwrong ({NAME}, 'No such heading')\nbroken ({NAME},\nold DESIGN " + f"section 5\nthe path alone: {NAME}"
    assert [n for n, _ in dangling(text, HEADINGS)] == [2, 3, 4]


FOLDER_ROW = re.compile(r"^\| `([a-z_]+)/` \|(.*)$", re.MULTILINE)


def test_the_folders_are_the_packages():
    in_design = [name for name, _ in FOLDER_ROW.findall(section("The folders in the order data flows"))]
    package = sorted(p.parent.name for p in PACKAGE.glob("*/__init__.py"))
    assert sorted(in_design) == package, "every folder of the package, and only those, is in the design's table"
    contributing = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    assert f"({NAME}#architecture)" in contributing, "CONTRIBUTING.md's map of the folders links to the design"


def allowed_imports():
    """Folder -> the folders its table row says it may import."""
    folders = [name for name, _ in FOLDER_ROW.findall(section("The folders in the order data flows"))]
    allowed = {}
    for name, rest in FOLDER_ROW.findall(section("The folders in the order data flows")):
        rule = rest.rstrip(" |").rsplit("|", 1)[1].strip()
        listed = set(re.findall(r"`([a-z_]+)`", rule))
        allowed[name] = set(folders) - listed - {name} if rule.startswith("every folder but") else listed
    return allowed


def imported_folders(path):
    """The package folders a module imports (at any depth of its code), with the line of each import."""
    # the package a relative import starts from: the module's folder (an __init__ module's own folder)
    package = list(path.relative_to(ROOT).parts[:-1])
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level:
            target = package[:len(package) - node.level + 1] + (node.module.split(".") if node.module else [])
        elif isinstance(node, ast.ImportFrom) and node.module:
            target = node.module.split(".")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "nested_span_f1" and len(alias.name.split(".")) > 1:
                    found.append((alias.name.split(".")[1], node.lineno))
            continue
        else:
            continue
        if target[:1] == ["nested_span_f1"] and len(target) > 1:
            found.append((target[1], node.lineno))
    return found


def test_imports_follow_the_table():
    allowed = allowed_imports()
    folders = set(allowed)
    wrong = []
    for folder in sorted(folders):
        for path in sorted((PACKAGE / folder).rglob("*.py")):
            for target, line in imported_folders(path):
                if target in folders and target != folder and target not in allowed[folder]:
                    wrong.append(f"{path.relative_to(ROOT)}:{line} imports {target}/, which {folder}/ may not "
                                 f"(docs/DESIGN.md, 'The folders in the order data flows': {sorted(allowed[folder])})")
    assert not wrong, "\n".join(wrong)


def test_the_import_check_sees_relative_imports_at_any_depth():
    module = PACKAGE / "lenient" / "score.py"
    targets = {target for target, _ in imported_folders(module)}
    assert {"core", "flat"} <= targets
    assert "flat" in {target for target, _ in imported_folders(PACKAGE / "hf" / "trainer.py")}


NAMED = re.compile(r"`([\w./-]+\.py)(?:::(\w+))?`")


def test_every_file_and_test_named_exists():
    missing = []
    for path, name in NAMED.findall(TEXT):
        if "/" in path:
            files = [p for p in (ROOT / path, PACKAGE / path) if p.is_file()]
        else:
            files = [p for p in ROOT.rglob(path) if ".git" not in p.parts]
        if not files:
            missing.append(path)
        elif name and not any(re.search(rf"^\s*(?:def|class) {name}\b", f.read_text(encoding="utf-8"), re.MULTILINE)
                              for f in files):
            missing.append(f"{path}::{name}")
    assert not missing, f"docs/DESIGN.md, 'Architecture' and the sections after it name what is gone: {missing}"


def _examples():
    """``(code, heading)`` of every python block, with the heading it sits under."""
    out = []
    for heading, body in sections(TEXT):
        out += [(code, heading) for code in re.findall(r"^```python\n(.*?)^```$", body, re.MULTILINE | re.DOTALL)]
    return out


EXAMPLES = _examples()


def test_there_are_examples():
    assert len(EXAMPLES) >= 5


@pytest.mark.parametrize(("code", "heading"), EXAMPLES, ids=[f"{i}-{h}" for i, (_, h) in enumerate(EXAMPLES)])
def test_example_prints_what_it_says(code, heading):
    expected = [line.split("  # ", 1)[1] for line in code.splitlines() if line.startswith("print(") and "  # " in line]
    assert expected, "an example says what it prints in a comment after each print(...)"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, f"{NAME} ({heading})", "exec"), {"__name__": "design_example"})
    assert out.getvalue().splitlines() == expected


WALKS = ("Walks from an entry point to its number", "Benchmark statistics")
"""The sections whose numbered lines are walks: each names a file, then functions of that file."""
STEP = re.compile(r"^\s*\d+\. `[\w./-]+\.py`")
TICKED = re.compile(r"`([^`]+)`")
IDENTIFIER = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)?")


def walk_steps():
    """Every numbered line of :data:`WALKS` and their subsections (outside code fences), with its heading."""
    found, inside, heading, fenced = [], False, "", False
    for line in TEXT.splitlines():
        fenced = fenced != bool(FENCE.match(line))
        if not fenced and re.match(r"#+ ", line):
            heading = line.split(" ", 1)[1].strip()
            inside = heading in WALKS if line.startswith("## ") else inside
        elif inside and not fenced and re.match(r"^\s*\d+\. ", line):
            found.append((heading, line))
    return found


def defines(path, name):
    """Whether a file defines ``name``: a function or class at any depth, or ``Class.method``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    defs = [node for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
    owner, _, member = name.rpartition(".")
    if not owner:
        return any(node.name == name for node in defs)
    return any(node.name == owner and isinstance(node, ast.ClassDef) and
               any(isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) and child.name == member
                   for child in node.body) for node in defs)


def walk_problems(steps):
    """``heading: problem`` for every walk line that does not start with its file, names a file that is gone, or
    names anything in backticks that its file (the last one named before it on the line) does not define."""
    problems = []
    for heading, line in steps:
        if not STEP.match(line):
            problems.append(f"{heading}: a step starts with its file: {line.strip()[:60]}")
            continue
        current = None
        for ticked in TICKED.findall(line):
            if ticked.endswith(".py"):
                current = next((p for p in (ROOT / ticked, PACKAGE / ticked) if p.is_file()), None)
                if current is None:
                    problems.append(f"{heading}: no file {ticked}")
            elif current is not None and not (IDENTIFIER.fullmatch(ticked) and defines(current, ticked)):
                problems.append(f"{heading}: {current.relative_to(ROOT)} defines no {ticked}")
    return problems


def test_every_walk_names_what_exists():
    steps = walk_steps()
    assert {heading for heading, _ in steps} >= {"Walk: span_f1 through evaluate", "Walk: nested-span-f1 score on texts",
                                                 "Walk: nested-span-f1 answers", "Benchmark statistics"}
    assert not walk_problems(steps), "\n".join(walk_problems(steps))


def test_the_walk_check_catches_what_is_gone():
    steps = [("w", "1. `benchmark/compare.py`, `benchmark`: ok; `core/matching.py`, `match_exact` and `ExactMatch.counts`"),
             ("w", "2. `benchmark/compare.py`, `no_such_stage`: gone"),
             ("w", "3. `benchmark/gone.py`, `benchmark`: a file that is gone"),
             ("w", "4. `core/matching.py`, `ExactMatch.no_such_method` and `match_exact(x)`"),
             ("w", "5. the file missing")]
    assert walk_problems(steps[:1]) == []
    assert [problem.split(":")[0] for problem in walk_problems(steps)] == ["w"] * 5
    assert len(walk_problems(steps[1:2])) == len(walk_problems(steps[2:3])) == 1 and len(walk_problems(steps[3:4])) == 2
