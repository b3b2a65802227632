"""Where the shipped data (cards, ruleset, boards) lives, installed or not."""

from __future__ import annotations

from functools import cache
from pathlib import Path


@cache
def data_dir() -> Path:
    """The ``data/`` directory: ``bgsim/_data`` in a wheel, ``../data`` in a checkout."""
    here = Path(__file__).resolve().parent
    for candidate in (here / "_data", here.parent / "data"):
        if (candidate / "cards.json").is_file():
            return candidate
    raise FileNotFoundError(f"bgsim data not found next to {here}; reinstall with `pip install .`")


def data_path(*parts: str) -> Path:
    return data_dir().joinpath(*parts)


def user_data_dir() -> Path:
    """Where bgsim writes files a user refits (``bgsim value``, ``bgsim belief
    --fit``) unless told otherwise: ``$XDG_DATA_HOME/bgsim`` (by default
    ``~/.local/share/bgsim``), ``%LOCALAPPDATA%\\bgsim`` on Windows and
    ``~/Library/Application Support/bgsim`` on macOS. Nothing is created here.

    >>> user_data_dir().name
    'bgsim'
    """
    import os
    import sys

    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or str(Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = str(Path.home() / "Library" / "Application Support")
    else:
        base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "bgsim"
