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
