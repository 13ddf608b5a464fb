"""`import nested_span_f1` stays light: numpy only, none of the heavy Hugging Face / plotting stacks or the
evaluation harnesses."""
import ast
import json
import subprocess
import sys

HEAVY = ("transformers", "torch", "evaluate", "sklearn", "datasets", "gradio", "matplotlib", "lm_eval", "inspect_ai",
         "lighteval")


def test_import_loads_no_heavy_package():
    code = "import sys, json, nested_span_f1; print(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = {name.split(".")[0] for name in json.loads(out.stdout)}
    assert sorted(loaded.intersection(HEAVY)) == []


def test_import_loads_only_the_flat_pipeline():
    """Readers, lenient, nested and paths load on first use of one of their names (PEP 562)."""
    code = ("import sys, json, nested_span_f1; before = sorted(sys.modules); nested_span_f1.score_nested; "
            "print(json.dumps([before, sorted(sys.modules)]))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    before, after = (sorted(m for m in names if m.startswith("nested_span_f1.")) for names in json.loads(out.stdout))
    assert before == [f"nested_span_f1.{m}" for m in (
        "core", "core.caller", "core.counts", "core.matching", "core.scores", "core.sequences", "core.spans", "core.wording",
        "flat", "flat.decoding", "flat.encoding", "flat.kinds", "flat.pipeline", "flat.schemes", "flat.tags")]
    assert "nested_span_f1.nested.score" in after


def _imports(path, package):
    """What a file imports, anywhere in it (a lazy import inside a function counts too), with absolute names:
    per name, the modules it may be, most specific first (``from a import b``: the module ``a.b``, else ``a``)."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from ((alias.name,) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            yield from ((f"{base}.{alias.name}", base) for alias in node.names)


def test_no_import_cycle_in_the_package_or_the_scripts(repo_root):
    """A module that imports, even lazily, one that imports it back is loaded twice when it runs as a script
    (``python scripts/bench/run.py``) and half-initialised otherwise. The scripts in a folder import each other
    by their bare names, as ``python scripts/...`` lets them."""
    files = {}
    for path in (repo_root / "nested_span_f1").rglob("*.py"):
        parts = path.relative_to(repo_root).with_suffix("").parts
        files[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    for folder in (repo_root / "scripts", *sorted(p for p in (repo_root / "scripts").iterdir() if p.is_dir())):
        files.update((path.stem, path) for path in folder.glob("*.py"))
    graph = {}
    for name, path in files.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        imported = (next((m for m in candidates if m in files), None) for candidates in _imports(path, package))
        graph[name] = sorted({m for m in imported if m} - {name})
    cycles, done = [], set()

    def visit(name, path):
        for target in graph[name]:
            if target in path:
                cycles.append(" -> ".join([*path[path.index(target):], target]))
            elif target not in done:
                visit(target, [*path, target])
        done.add(name)

    for name in sorted(graph):
        if name not in done:
            visit(name, [name])
    assert len(files) > 60 and sum(map(len, graph.values())) > 150  # the walk found the modules and their imports
    assert cycles == []
