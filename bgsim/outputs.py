"""The one way bgsim writes files: checked before the work starts, written
through a temporary file with a unique name in the target folder, then
renamed over the target. So a command never writes a file the user did not
name, an interrupted write leaves the old file (or none) rather than half a
file, and two writers never share a scratch name.

>>> import tempfile
>>> from pathlib import Path
>>> folder = Path(tempfile.mkdtemp())
>>> with atomic_write(folder / "notes.txt") as f:
...     _ = f.write("hello")
>>> (folder / "notes.txt").read_text(), sorted(p.name for p in folder.iterdir())
('hello', ['notes.txt'])
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

__all__ = ["OutputError", "atomic_write", "output_dir", "output_file"]

_UMASK = os.umask(0)
os.umask(_UMASK)


class OutputError(ValueError):
    """An output path that cannot be written; the message names it.

    >>> str(OutputError("plots/: exists and is not a directory"))
    'plots/: exists and is not a directory'
    """


def _path(path: str | Path, what: str) -> Path:
    text = str(path)
    if not text or "\0" in text:
        raise OutputError(f"{what} {text!r:.60}: not a usable path")
    return Path(path)


def output_dir(path: str | Path, what: str = "output folder", make: bool = True) -> Path:
    """``path`` as a folder to write into, made if missing (unless ``make`` is
    false: then only checked); an :class:`OutputError` if it is a file or
    cannot be made or written.

    >>> output_dir(__file__)
    Traceback (most recent call last):
    ...
    bgsim.outputs.OutputError: output folder ...outputs.py: exists and is not a directory
    """
    folder = _path(path, what)
    if folder.exists() and not folder.is_dir():
        raise OutputError(f"{what} {folder}: exists and is not a directory")
    if not make:
        existing = folder
        while not existing.exists() and existing != existing.parent:
            existing = existing.parent
        if existing.exists() and not existing.is_dir():
            raise OutputError(f"{what} {folder}: {existing} is not a directory")
        if not os.access(existing, os.W_OK | os.X_OK):
            raise OutputError(f"{what} {folder}: {existing} is not writable")
        return folder
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"{what} {folder}: cannot be made ({exc.strerror or exc})") from None
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OutputError(f"{what} {folder}: not writable")
    return folder


def output_file(path: str | Path, what: str = "output file", make: bool = True) -> Path:
    """``path`` as a file to write (its folder made if missing, unless
    ``make`` is false); an :class:`OutputError` if it is a folder or its
    folder cannot be written.

    >>> output_file(Path(__file__).parent)
    Traceback (most recent call last):
    ...
    bgsim.outputs.OutputError: output file ...bgsim: is a directory
    """
    target = _path(path, what)
    if target.is_dir():
        raise OutputError(f"{what} {target}: is a directory")
    output_dir(target.parent, f"{what}'s folder", make)
    return target


@contextlib.contextmanager
def atomic_write(path: str | Path, mode: str = "w") -> Iterator[IO[Any]]:
    """A file object to write ``path`` through: a temporary file with a unique
    name in the same folder, renamed over ``path`` when the block ends without
    an exception and removed when it raises (Ctrl-C included). ``mode`` is
    ``"w"`` (UTF-8 text) or ``"wb"``.

    >>> import tempfile
    >>> from pathlib import Path
    >>> target = Path(tempfile.mkdtemp()) / "x.txt"
    >>> try:
    ...     with atomic_write(target) as f:
    ...         _ = f.write("half")
    ...         raise KeyboardInterrupt
    ... except KeyboardInterrupt:
    ...     pass
    >>> target.exists(), list(target.parent.iterdir())
    (False, [])
    """
    target = Path(path)
    encoding = None if "b" in mode else "utf-8"
    name: str | None = None
    try:
        with tempfile.NamedTemporaryFile(
            mode,
            encoding=encoding,
            dir=target.parent,
            prefix=f".{target.name}.",
            suffix=".tmp",
            delete=False,
        ) as handle:
            name = handle.name
            yield handle
        # A temporary file is private (0600); the target gets the usual mode.
        os.chmod(name, 0o666 & ~_UMASK)
        os.replace(name, target)
    except BaseException:
        if name is not None:
            with contextlib.suppress(OSError):
                os.unlink(name)
        raise
