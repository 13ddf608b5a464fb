"""Writing files whole or not at all: a failed write (a character UTF-8 cannot encode, a full disk) leaves nothing.

Every text is encoded before the first byte is written, then written to a
temporary file (or folder) beside its destination and moved into place, so a
reader never sees half of an output.
"""
from __future__ import annotations

import os
import secrets
import shutil
from collections.abc import Mapping
from pathlib import Path

from ..core.wording import quote


def _beside(path: Path) -> Path:
    """A new hidden name in ``path``'s folder for a temporary copy of it."""
    return path.parent / f".{path.name}.{secrets.token_hex(6)}.part"


def encoded(content: str, where: str) -> bytes:
    """``content`` as UTF-8; ValueError naming ``where`` and the character when it holds one UTF-8 cannot encode
    (a lone surrogate)."""
    try:
        return content.encode("utf-8")
    except UnicodeEncodeError as error:
        raise ValueError(f"{where}: character {quote(error.object[error.start])} at offset {error.start} cannot be "
                         f"written as UTF-8 ({error.reason}); nothing was written") from None


def write_file(path: str | os.PathLike[str], content: str) -> None:
    """Write ``content`` to the file ``path`` as UTF-8, whole or not at all (line ends as given); a symbolic link is
    written through, a device or a pipe (``/dev/stdout``) written to directly.

    Raises:
        ValueError: ``path`` is a folder or in a folder that does not exist, or the content holds a character
            UTF-8 cannot encode.
    """
    shown, path = os.fspath(path), Path(os.path.realpath(path))
    data = encoded(content, shown)
    if path.is_dir():
        raise ValueError(f"{shown} is a folder; give the name of a file to write")
    if not path.parent.is_dir():
        raise ValueError(f"{shown}: the folder {path.parent} does not exist")
    if path.exists() and not path.is_file():
        with open(path, "wb") as device:
            device.write(data)
        return
    temporary = _beside(path)
    # created as open() creates files (the umask decides its mode), and never over an existing one
    handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def write_folder(folder: str | os.PathLike[str], files: Mapping[str, str]) -> None:
    """Write ``files`` (name -> content) as a new folder, or into an empty one, whole or not at all.

    Raises:
        ValueError: the folder exists and holds files (a corpus written into it would mix with them), or a
            content UTF-8 cannot encode.
    """
    folder = Path(folder)
    data = {name: encoded(content, str(folder / name)) for name, content in files.items()}
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise ValueError(f"{folder} exists and is not an empty folder; this output goes to a new or empty folder")
    folder.parent.mkdir(parents=True, exist_ok=True)
    temporary = _beside(folder)
    temporary.mkdir()
    try:
        for name, content in data.items():
            (temporary / name).parent.mkdir(parents=True, exist_ok=True)  # a name may hold folders: 'sub/b.ann'
            (temporary / name).write_bytes(content)
        if folder.exists():
            folder.rmdir()
        temporary.rename(folder)
    except BaseException:
        shutil.rmtree(temporary, ignore_errors=True)
        raise
