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
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from combat_c.guarded import shown, shown_path

__all__ = ["OutputError", "atomic_write", "output_dir", "output_file", "write_together"]

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
        raise OutputError(f"{what} {shown(text, 60)}: not a usable path")
    if isinstance(path, str) and text == "-":  # the usual spelling of standard output
        raise OutputError(f"{what} '-': standard output is not a file here; give a path")
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
    try:
        return _output_dir(path, what, make)
    except OSError as exc:  # a path the system cannot even look at (too long, a loop)
        raise OutputError(
            f"{what} {shown_path(path)}: cannot be used ({exc.strerror or exc})"
        ) from None


def _output_dir(path: str | Path, what: str, make: bool) -> Path:
    folder = _path(path, what)
    if folder.exists() and not folder.is_dir():
        raise OutputError(f"{what} {shown_path(folder)}: exists and is not a directory")
    if not make:
        existing = folder
        while not existing.exists() and existing != existing.parent:
            existing = existing.parent
        if existing.exists() and not existing.is_dir():
            raise OutputError(
                f"{what} {shown_path(folder)}: {shown_path(existing)} is not a directory"
            )
        if not os.access(existing, os.W_OK | os.X_OK):
            raise OutputError(
                f"{what} {shown_path(folder)}: {shown_path(existing)} is not writable"
            )
        if existing == folder:
            _probe(folder, what)
        return folder
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(
            f"{what} {shown_path(folder)}: cannot be made ({exc.strerror or exc})"
        ) from None
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OutputError(f"{what} {shown_path(folder)}: not writable")
    _probe(folder, what)
    return folder


def _probe(folder: Path, what: str) -> None:
    """Create and remove a scratch file in ``folder``: the access check passes
    for root everywhere, also in folders no file can be made in (``/proc``),
    and a long run should not find that out at its end."""
    try:
        fd, name = tempfile.mkstemp(dir=folder, prefix=".bgsim-probe-")
    except OSError as exc:
        raise OutputError(
            f"{what} {shown_path(folder)}: no file can be made there ({exc.strerror or exc})"
        ) from None
    os.close(fd)
    os.unlink(name)


def output_file(path: str | Path, what: str = "output file", make: bool = True) -> Path:
    """``path`` as a file to write (its folder made if missing, unless
    ``make`` is false); an :class:`OutputError` if it is a folder or its
    folder cannot be written.

    >>> output_file(Path(__file__).parent)
    Traceback (most recent call last):
    ...
    bgsim.outputs.OutputError: output file ...bgsim: is a directory
    """
    try:
        return _output_file(path, what, make)
    except OSError as exc:  # a path the system cannot even look at (too long, a loop)
        raise OutputError(
            f"{what} {shown_path(path)}: cannot be used ({exc.strerror or exc})"
        ) from None


def _output_file(path: str | Path, what: str, make: bool) -> Path:
    target = _path(path, what)
    if str(path).endswith(("/", os.sep)):
        raise OutputError(f"{what} {shown_path(path)}: names a folder; give a file name")
    if target.is_dir():
        raise OutputError(f"{what} {shown_path(target)}: is a directory")
    _not_special(target, what)
    output_dir(target.parent, f"{what}'s folder", make)
    return target


def _not_special(target: Path, what: str) -> None:
    """Refuse a target that exists and is not a regular file (a device such
    as ``/dev/null``, a named pipe, a socket): renaming over it would destroy
    it; and a read-only file, which renaming would replace all the same."""
    try:
        mode = os.stat(target).st_mode
    except (FileNotFoundError, NotADirectoryError):  # a new file (its folder is checked next)
        return
    if stat.S_ISDIR(mode):
        raise OutputError(f"{what} {shown_path(target)}: is a directory")
    if not stat.S_ISREG(mode):
        raise OutputError(
            f"{what} {shown_path(target)}: exists and is not a regular file (a device, pipe or "
            "socket); name a file"
        )
    if not mode & 0o222:
        raise OutputError(
            f"{what} {shown_path(target)}: is read-only; make it writable or name another file"
        )


def _real(target: Path) -> Path:
    """Where a write to ``target`` goes: through a symbolic link to the file
    it names, as writing into it would (renaming over the link would
    replace the link instead)."""
    return Path(os.path.realpath(target)) if target.is_symlink() else target


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
    target = _real(Path(path))
    name: str | None = None
    _not_special(target, "output file")  # also for callers that did not check first
    try:
        with _scratch(target, mode) as handle:
            name = handle.name
            yield handle
        _publish([(name, target)])
    except BaseException as exc:
        _remove([name] if name is not None else [])
        refused = _refused(target, exc)
        if refused is not None:
            raise refused from None
        raise


def write_together(files: dict[Path, str | bytes]) -> None:
    """Write several files as one: each through its own temporary file, then
    all renamed over their targets at once, Ctrl-C held back for the renames.
    So an interrupted or failed write leaves every target as it was (the old
    files, or none), never a mix of old and new. Text is written as UTF-8.

    >>> import tempfile
    >>> from pathlib import Path
    >>> folder = Path(tempfile.mkdtemp())
    >>> write_together({folder / "a.txt": "one", folder / "b.bin": b"two"})
    >>> sorted(p.name for p in folder.iterdir())
    ['a.txt', 'b.bin']
    """
    staged: list[tuple[str, Path]] = []
    current = Path()
    try:
        for named, data in files.items():
            current = _real(named)
            _not_special(current, "output file")
            with _scratch(current, "wb") as handle:
                staged.append((handle.name, current))
                handle.write(data.encode("utf-8") if isinstance(data, str) else data)
        _publish(staged)
    except BaseException as exc:
        _remove([name for name, _ in staged])
        refused = _refused(current, exc)
        if refused is not None:
            raise refused from None
        raise


def _scratch(target: Path, mode: str) -> IO[Any]:
    """A new temporary file with a unique name beside ``target``, kept when
    closed; ``mode`` ``"w"`` (UTF-8 text) or ``"wb"``."""
    return tempfile.NamedTemporaryFile(
        mode,
        encoding=None if "b" in mode else "utf-8",
        dir=target.parent,
        prefix=f".{target.name}.",
        suffix=".tmp",
        delete=False,
    )


def _publish(staged: list[tuple[str, Path]]) -> None:
    """Rename the written temporary files over their targets, all at once."""
    for name, target in staged:
        # A temporary file is private (0600): the target keeps the mode it has,
        # or a new one gets the usual mode.
        try:
            mode = stat.S_IMODE(os.stat(target).st_mode)
        except FileNotFoundError:
            mode = 0o666 & ~_UMASK
        os.chmod(name, mode)
    with _sigint_held():
        for name, target in staged:
            os.replace(name, target)


def _remove(names: list[str]) -> None:
    """Remove temporary files a failed write leaves (those already renamed are gone)."""
    for name in names:
        with contextlib.suppress(OSError):
            os.unlink(name)


def _refused(target: Path, exc: BaseException) -> OutputError | None:
    """The one-line error for a write the system refused (a read-only or
    special folder, a full disk), naming the target, not the scratch file."""
    if isinstance(exc, OSError) and not isinstance(exc, BrokenPipeError):
        reason = exc.strerror or type(exc).__name__
        return OutputError(f"{shown_path(target)}: cannot be written ({reason})")
    return None


@contextlib.contextmanager
def _sigint_held() -> Iterator[None]:
    """Ctrl-C waits until the block ends (where the system allows it: the
    main thread of a POSIX system); then it interrupts as usual."""
    import signal
    import threading

    main = threading.current_thread() is threading.main_thread()
    if not (main and hasattr(signal, "pthread_sigmask")):
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)
