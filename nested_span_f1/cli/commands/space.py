"""``nested-span-f1 space NAME OUT_DIR``: a self-contained Hub Space folder for one metric.

The folder holds the metric module, its card, ``app.py``, this package's wheel
and a ``requirements.txt`` that installs the wheel by relative path plus pinned
versions of what the app needs (the versions installed here, where the folder
was written and can be tried). Nothing in it refers to this repository, so
``pip install -r requirements.txt`` inside the folder, then ``python app.py``,
works in a fresh environment, and ``evaluate.load(OUT_DIR)`` loads the metric.
"""
from __future__ import annotations

import argparse
import re
import shutil
import tempfile
from importlib import metadata
from pathlib import Path

from ... import __version__
from ...core.wording import quote
from ...hf.paths import METRICS, MODULES, metric_path
from .inputs import add_command, check_outputs
from .wheel import this_wheel

EXAMPLES = """more examples:
  nested-span-f1 space nested genia_f1 --space my-org/genia_f1"""


def add_parser(sub: argparse._SubParsersAction) -> None:
    p, io = add_command(
        sub, "space", "nested-span-f1 space exact my_span_f1",
        "Write a folder that is a Hub Space for one metric: the evaluate module (named after the folder, as "
        "evaluate.load needs), its card with the Hub front matter and the command that installs the package from the "
        "folder, app.py, this package's wheel and a requirements.txt that installs it. Push the folder to a Space, "
        "or run `python app.py` inside it.",
        EXAMPLES, where="example:",
    )
    io.add_argument("name", choices=METRICS, help="the metric (its evaluate module: span_f1, lenient_span_f1, "
                                                    "nested_span_f1)")
    io.add_argument("out_dir", type=Path, help="the folder to write (must not exist, or be empty)")
    io.add_argument("--wheel", type=Path, help="this package's wheel to ship (default: built from the source checkout "
                                                "this package runs from, in a temporary copy the checkout never sees; "
                                                "after a plain pip install, the installed files packed back into their "
                                                "wheel)")
    io.add_argument("--space", metavar="ORG/NAME",
                    help="the Space the folder will be pushed to: requirements.txt then names the wheel by its URL "
                         "there, for builders that install requirements.txt before the folder's other files are in place")
    p.set_defaults(run=run)


def app_needs(folder: Path) -> list[str]:
    """Names of the distributions the app needs, from the metric folder's ``requirements.txt``."""
    lines = (folder / "requirements.txt").read_text(encoding="utf-8").splitlines()
    return [re.split(r"[\s<>=!~;\[]", line.strip(), maxsplit=1)[0] for line in lines
            if line.strip() and not line.lstrip().startswith("#")]


def pins(names: list[str]) -> list[str]:
    """``name==version`` of each distribution, as installed here."""
    out = []
    for name in names:
        try:
            out.append(f"{name}=={metadata.version(name)}")
        except metadata.PackageNotFoundError:
            raise ValueError(
                f"{name} is not installed, so its version cannot be pinned: python -m pip install \".[app]\" in the clone"
            ) from None
    return out


def card(text: str, gradio_version: str, installation: str) -> str:
    """The metric card with its front matter's ``sdk_version`` set to the pinned gradio and its Installation
    section's text replaced by ``installation`` (the repository's card installs from a clone; a Space's, from
    the wheel it ships)."""
    text, found = re.subn(r"^sdk_version: .*$", f"sdk_version: {gradio_version}", text, count=1, flags=re.MULTILINE)
    if not found:
        raise ValueError("the metric card has no sdk_version line in its front matter")
    text, found = re.subn(r"(?<=^## Installation\n\n).*?(?=^## )", lambda _: installation, text, count=1,
                          flags=re.MULTILINE | re.DOTALL)
    if not found:
        raise ValueError("the metric card has no Installation section")
    return text


def wheel_requirement(wheel: str, space: str | None, extra: str = "") -> str:
    """The requirement of the shipped wheel (with ``extra``, such as ``[evaluate]``): a relative path, or its URL on
    the Space ``space``."""
    if space is None:
        return f"./{wheel}{extra}"
    return f"nested-span-f1{extra} @ https://huggingface.co/spaces/{space}/resolve/main/{wheel}"


def installation(wheel: str, space: str | None) -> str:
    """A Space card's Installation section: the command that installs the package from the wheel the Space ships,
    then how to load the module (by the Space's name when ``space`` is known, else by the folder's path)."""
    where = (f"from the Space {space}" if space is not None
             else "from inside a copy of this folder (a clone of its Space)")
    load = (f'then `evaluate.load("{space}")` loads the module' if space is not None
            else 'then load the module by the folder\'s path, as "Publishing a Space" says')
    return ("The module's script imports the `nested_span_f1` package, and `evaluate.load` does not install what a\n"
            f"module imports, so install the package first. This Space ships it as `{wheel}`;\n"
            f"install it with the `evaluate` extra {where}:\n\n"
            f'```bash\npython -m pip install "{wheel_requirement(wheel, space, "[evaluate]")}"\n```\n\n'
            f"{load}.\n\n")


def write_space(name: str, out_dir: Path, wheel: Path | None = None, space: str | None = None) -> list[Path]:
    """Write the Space folder of metric ``name`` (``exact``, ``lenient``, ``nested``) to ``out_dir``; returns the files
    written.

    The metric script is named after the folder: ``evaluate.load`` finds
    ``<folder>/<folder name>.py``, and on the Hub ``org/<Space name>/<Space name>.py``.
    Everything is checked and the wheel built before the folder is written, and
    nothing is written anywhere else.
    """
    source = Path(metric_path(name))
    requirements = pins(app_needs(source))
    if space is not None and not re.fullmatch(r"[\w.-]+/[\w.-]+", space):
        raise ValueError(f"--space {quote(space)} is not ORG/NAME")
    if not out_dir.name.isidentifier():
        raise ValueError(
            f"the folder name {quote(out_dir.name)} is not a Python identifier; evaluate imports the metric script under "
            "the Space's name, so name the folder as the Space will be named (letters, digits, underscores)"
        )
    check_outputs([(f"--wheel {wheel}", wheel), *((f"the metric module's {path}", path)
                                                  for path in sorted(source.iterdir()) if path.is_file())],
                  [("OUT_DIR", out_dir)], folders=("OUT_DIR",))
    if out_dir.exists() and (not out_dir.is_dir() or any(out_dir.iterdir())):
        raise ValueError(f"{out_dir} exists and is not an empty folder; choose a new folder")
    if wheel is not None and not wheel.name.startswith(f"nested_span_f1-{__version__}-"):
        raise ValueError(f"{wheel} is not a wheel of nested-span-f1 {__version__}")
    gradio = next(r for r in requirements if r.startswith("gradio=="))
    with tempfile.TemporaryDirectory() as scratch:
        built = wheel if wheel is not None else this_wheel(Path(scratch))
        readme = card((source / "README.md").read_text(encoding="utf-8"), gradio[8:], installation(built.name, space))
        out_dir.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source / f"{MODULES[name]}.py", out_dir / f"{out_dir.name}.py")
        shutil.copy2(source / "app.py", out_dir)
        (out_dir / "README.md").write_text(readme, encoding="utf-8")
        shipped = Path(shutil.copy2(built, out_dir))
    (out_dir / "requirements.txt").write_text(
        f"# written by `nested-span-f1 space {name}` (nested-span-f1 {__version__}); install from inside this folder\n"
        + "\n".join([wheel_requirement(shipped.name, space), *requirements]) + "\n",
        encoding="utf-8",
    )
    return sorted(out_dir.iterdir())


def run(args: argparse.Namespace) -> int:
    files = write_space(args.name, args.out_dir, args.wheel, args.space)
    for path in files:
        print(path)
    try_it = f"cd {args.out_dir} && python -m pip install -r requirements.txt && python app.py"
    if args.space is None:
        print(f"try it: {try_it}")
        print(f"publish it to a Space named like the folder, under your Hub user or organisation (USER): "
              f"hf upload USER/{args.out_dir.name} {args.out_dir} . --repo-type space")
    else:
        print(f"publish it: hf upload {args.space} {args.out_dir} . --repo-type space")
        print(f"then try it (requirements.txt reads the wheel from the Space): {try_it}")
    return 0
