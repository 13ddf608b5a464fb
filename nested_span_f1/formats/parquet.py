"""Which files of a folder are a Parquet table: Spark's rule, so that every route reads the same files.

Spark's file listing leaves out names that start with ``.`` or ``_`` (``_SUCCESS``,
``_metadata``, ``_temporary/``; a ``_key=value`` partition folder is kept) and files
that end in ``._COPYING_``, and reads every other file of the folder and of its
``key=value`` partition folders as Parquet, whatever its name (Spark writes
``part-00000-<id>.c000.snappy.parquet``, Hive ``000000_0``); an empty file holds no
rows, and a file that is not Parquet fails the read. The Arrow path and the
commands' ``--spark`` route read the files this module lists, so one folder is one
table: a file is told to be Parquet by its bytes (``PAR1`` at its start and its
end), never by its name. A folder with a file that is not Parquet is refused naming
it, as Spark fails on it; so is one whose files Spark would not read as one table:
a subfolder that is no partition, or files at two depths (pyspark 4.3 leaves out
``sub/`` beside ``part-0.parquet``, reads ``k=1/sub/``, and beside ``k=1/`` reads
the files of only one level). Pure Python: the commands tell Parquet input from
other input without pyarrow.
"""
from __future__ import annotations

import os
from pathlib import Path

MAGIC = b"PAR1"
"""The four bytes a Parquet file starts and ends with."""


def skipped(name: str) -> bool:
    """A file or folder name Spark's listing leaves out: hidden (``.``), underscored (``_``, unless it holds
    ``=``: a partition ``_key=value``), or a copy in progress (``._COPYING_``)."""
    return name.startswith(".") or (name.startswith("_") and "=" not in name) or name.endswith("._COPYING_")


def data_files(folder: str | os.PathLike[str]) -> list[Path]:
    """The files under ``folder`` that Spark would read as data (any depth), sorted; skipped names left out,
    with everything under a skipped folder, and empty files (no rows) too."""
    found = []
    for place, folders, files in os.walk(folder):
        folders[:] = [name for name in folders if not skipped(name)]
        found += [Path(place, name) for name in files if not skipped(name)]
    return sorted(file for file in found if file.stat().st_size)


def layout_problem(root: Path, files: list[Path]) -> str | None:
    """Why Spark would read the data ``files`` of folder ``root`` otherwise than as one table, or None: a subfolder
    that is no ``key=value`` partition, or files at two depths or under two partition keys (Spark then reads some
    of the files and leaves out the others, or fails, depending on the folders beside them)."""
    paths = [file.parent.relative_to(root).parts for file in files]
    for parts in paths:
        plain = next((k for k, part in enumerate(parts) if "=" not in part), None)
        if plain is not None:
            return f"{root.joinpath(*parts[:plain + 1])}: a folder inside a Parquet table that is no partition (key=value)"
    keys = {tuple(part.split("=", 1)[0] for part in parts) for parts in paths}
    if len(keys) > 1:
        first, second = sorted(keys)[:2]
        shown = [" and ".join(f"{key}=..." for key in k) or "the folder itself" for k in (first, second)]
        return f"{root}: data files both in {shown[0]} and in {shown[1]}"
    return None


def starts_parquet(path: str | os.PathLike[str]) -> bool:
    """The file's first bytes are ``PAR1`` (a pipe or a file that cannot be opened is no Parquet file, and a pipe
    is not read: its bytes are the command's)."""
    if not Path(path).is_file():
        return False
    try:
        with open(path, "rb") as handle:
            return handle.read(4) == MAGIC
    except OSError:
        return False


def is_parquet_file(path: str | os.PathLike[str]) -> bool:
    """A whole Parquet file: ``PAR1`` at its start and at its end (a file cut short, or being written, has no
    footer)."""
    if not starts_parquet(path):
        return False
    with open(path, "rb") as handle:
        if handle.seek(0, os.SEEK_END) < 12:
            return False
        handle.seek(-4, os.SEEK_END)
        return handle.read(4) == MAGIC


def is_parquet(path: str | os.PathLike[str]) -> bool:
    """A Parquet file, or a folder one of whose data files (:func:`data_files`) is one."""
    if Path(path).is_dir():
        return any(starts_parquet(file) for file in data_files(path))
    return starts_parquet(path)


def parquet_files(path: str | os.PathLike[str]) -> list[Path]:
    """The Parquet files of a table: ``path`` itself, or the data files of a folder (:func:`data_files`).

    Raises:
        ValueError: no such file or folder, a folder without data files or with a subfolder that is no partition,
            or a file that is not Parquet (named, with how many more there are).
    """
    root = Path(path)
    if root.is_dir():
        files = data_files(root)
        if not files:
            raise ValueError(f"{root}: a folder without data files (empty files and names that start with . or _ "
                             "are skipped, as Spark skips them)")
        problem = layout_problem(root, files)
        if problem is not None:
            raise ValueError(f"{problem}; Spark reads such a folder partly or not at all depending on the folders "
                             "beside it: score the parts on their own, or move the files")
    elif root.exists():
        files = [root]
    else:
        raise ValueError(f"{root}: no such file or folder")
    others = [file for file in files if not is_parquet_file(file)]
    if others:
        more = f" and {len(others) - 1} more files" if len(others) > 1 else ""
        where = ("; a Parquet folder holds Parquet files only (Spark fails on the same folder; empty files and names "
                 "that start with . or _ are skipped)") if root.is_dir() else ""
        raise ValueError(f"{others[0]}{more}: not a Parquet file (no {MAGIC.decode()} at its start and end){where}")
    return files


__all__ = ["MAGIC", "data_files", "is_parquet", "is_parquet_file", "layout_problem", "parquet_files", "skipped",
           "starts_parquet"]
