"""This package's wheel, for a Space folder to install (``nested-span-f1 space``): built, or packed from what is installed.

Run from a source checkout (a clone on ``sys.path``, or installed with ``pip install -e``),
the wheel is built from a copy of the checkout in a temporary folder, so that the build's
``build/`` and ``*.egg-info`` never land in the checkout. Installed by a plain ``pip install .``
(or from a wheel), the package has no checkout beside it: the installed distribution's
files, as its ``RECORD`` lists them, are packed back into the wheel they were installed
from, the same files under the same names with a ``RECORD`` written anew; what the
installer added (``INSTALLER``, ``REQUESTED``, ``direct_url.json``, bytecode, the
``nested-span-f1`` script in ``bin/``) is left out, as a wheel has none of it.
"""
from __future__ import annotations

import base64
import csv
import hashlib
import io
import shutil
import subprocess
import sys
import tempfile
import zipfile
from importlib import metadata
from pathlib import Path

from ... import __version__

PACKAGE = Path(__file__).resolve().parents[2]
"""The folder of the package running this code (``nested_span_f1/``)."""

CHECKOUT = PACKAGE.parent
"""Where a source checkout would have its ``setup.py``: beside the package."""

PACKAGE_FOLDERS = ("nested_span_f1", "metrics")
"""The folders of the source checkout a wheel is built from, beside its top-level files (setup.py, README.md...)."""

INSTALLER_FILES = ("INSTALLER", "REQUESTED", "direct_url.json", "RECORD")
"""The files of an installed ``.dist-info`` folder that no wheel holds (the installer writes them)."""

ZIP_TIME = (1980, 1, 1, 0, 0, 0)
"""The timestamp of every file packed: the same files give the same wheel."""


def this_wheel(out_dir: Path) -> Path:
    """This package's wheel, written into ``out_dir``: built from the source checkout when there is one, else
    packed from the installed distribution that holds this package.

    Raises:
        ValueError: neither (the package runs from files no distribution lists), or the build failed.
    """
    if (CHECKOUT / "setup.py").is_file():
        return build_wheel(out_dir)
    installed = installed_distribution()
    if installed is None:
        raise ValueError(f"{PACKAGE} is neither in a source checkout nor installed by pip (no nested-span-f1 "
                         "distribution lists its files), so there is no wheel to ship; pass --wheel PATH")
    return pack_installed(installed, out_dir)


def build_wheel(out_dir: Path) -> Path:
    """Build this package's wheel into ``out_dir`` from a copy of its source checkout (the checkout is left as it
    was: a build writes ``build/`` and ``*.egg-info`` beside the sources it builds)."""
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "source"
        copy.mkdir()
        for path in CHECKOUT.iterdir():
            if path.is_file():
                shutil.copy2(path, copy)
        for folder in PACKAGE_FOLDERS:
            shutil.copytree(CHECKOUT / folder, copy / folder,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", "build"))
        done = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", tmp, str(copy)],
                              capture_output=True, text=True)
        if done.returncode != 0:
            last = (done.stderr.strip().splitlines() or ["no output"])[-1]
            raise ValueError(f"building the wheel failed: {last}")
        wheel = next(Path(tmp).glob("nested_span_f1-*.whl"))
        return Path(shutil.copy2(wheel, out_dir))


def installed_distribution() -> metadata.Distribution | None:
    """The installed nested-span-f1 whose files hold the package running this code (not an editable install, whose
    files are a pointer to a checkout), or None."""
    for distribution in metadata.distributions(name="nested-span-f1"):
        if distribution.version != __version__:
            continue
        for file in distribution.files or ():
            if file.parts == ("nested_span_f1", "__init__.py") and Path(file.locate()).resolve() == PACKAGE / "__init__.py":
                return distribution
    return None


def _packed(file: metadata.PackagePath) -> bool:
    """Whether an installed file belongs in the wheel: the package's own files and its ``.dist-info`` metadata."""
    parts = file.parts
    if parts[0] == ".." or "__pycache__" in parts or file.suffix == ".pyc":
        return False
    return not (len(parts) == 2 and parts[0].endswith(".dist-info") and parts[1] in INSTALLER_FILES)


def _digest(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def pack_installed(distribution: metadata.Distribution, out_dir: Path) -> Path:
    """The wheel ``distribution`` was installed from, packed from its installed files into ``out_dir``.

    Raises:
        ValueError: a file the ``RECORD`` lists is missing or no longer what was installed (its hash differs).
    """
    files = sorted((f for f in distribution.files or () if _packed(f)), key=lambda f: (f.parts[0].endswith(".dist-info"),
                                                                                       str(f)))
    info = next(f.parts[0] for f in files if f.parts[0].endswith(".dist-info"))
    tags = [line.split(":", 1)[1].strip() for line in (distribution.read_text("WHEEL") or "").splitlines()
            if line.startswith("Tag:")]
    if not tags:
        raise ValueError(f"the installed {info}/WHEEL names no tag, so the wheel cannot be named; pass --wheel PATH")
    wheel = out_dir / f"{info.removesuffix('.dist-info')}-{tags[0]}.whl"
    record = io.StringIO()
    rows = csv.writer(record, lineterminator="\n")
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as archive:
        for file in files:
            path = Path(file.locate())
            if not path.is_file():
                raise ValueError(f"{path} is listed in {info}/RECORD but missing; reinstall nested-span-f1, "
                                 "or pass --wheel PATH")
            data = path.read_bytes()
            if file.hash is not None and _digest(data) != f"{file.hash.mode}={file.hash.value}":
                raise ValueError(f"{path} is not the file that was installed (its hash differs from {info}/RECORD); "
                                 "reinstall nested-span-f1, or pass --wheel PATH")
            _write(archive, str(file), data)
            rows.writerow([str(file), _digest(data), len(data)])
        rows.writerow([f"{info}/RECORD", "", ""])
        _write(archive, f"{info}/RECORD", record.getvalue().encode())
    return wheel


def _write(archive: zipfile.ZipFile, name: str, data: bytes) -> None:
    entry = zipfile.ZipInfo(name, ZIP_TIME)
    entry.external_attr = 0o644 << 16
    entry.compress_type = zipfile.ZIP_DEFLATED
    archive.writestr(entry, data)
