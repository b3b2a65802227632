"""The bounds on every size the user chooses: fights, games, seeds, workers,
budgets and measuring times. The command line states them in ``--help`` and
checks them through :func:`int_in` and :func:`float_in`; the public functions
behind the commands check the same numbers.

>>> MAX_SEED == 2**63 - 1
True
>>> int_in(1, 10, "--runs")("12")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: must be an integer 1..10, got 12
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable

from combat_c.guarded import shown

MAX_RUNS = 10_000_000
"""Fights of one ``simulate`` call or ``bgsim combat`` (``combat_c.MAX_RUNS``)."""
MAX_GAMES = 100_000
"""Lobbies of one tournament, belief or value run, or bench."""
MAX_SEED = 2**63 - 1
"""Seeds are 0..MAX_SEED: what SQLite stores as an integer."""
MAX_LOBBY_SEED = 2**64 - 1
"""A lobby's own seed (``bgsim.Lobby``, ``bgsim play``, a replay's header)."""
MAX_WORKERS = 256
"""Processes of a local pool, or CPUs asked of Ray."""
MAX_SECONDS = 3600.0
"""A search budget per turn, or one ``bgsim bench`` measurement, in seconds."""
MAX_ITERATIONS = 10_000_000
"""A search budget per turn, or one bench position, in iterations."""
MAX_REPEAT = 100
"""Repeats of a bench measurement."""
MAX_GUESSES = 1000
"""Guessed boards per sample of ``bgsim belief``."""
MAX_SPEED = 100.0
"""The fastest ``bgsim watch --speed``."""

__all__ = [
    "MAX_GAMES",
    "MAX_GUESSES",
    "MAX_ITERATIONS",
    "MAX_LOBBY_SEED",
    "MAX_REPEAT",
    "MAX_RUNS",
    "MAX_SECONDS",
    "MAX_SEED",
    "MAX_SPEED",
    "MAX_WORKERS",
    "check_int",
    "float_in",
    "int_in",
]


def check_int(value: object, low: int, high: int, name: str) -> int:
    """``value`` if it is an integer in ``low..high``, else a ``ValueError``
    that names it.

    >>> check_int(3, 1, 8, "games")
    3
    >>> check_int(True, 1, 8, "games")
    Traceback (most recent call last):
    ...
    ValueError: games must be an integer 1..8, got True
    """
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"{name} must be an integer {low:,}..{high:,}, got {shown(value)}")
    return value


def _echo(text: str) -> str:
    """An option's text as a message echoes it: as typed when it prints on
    one line, else escaped (a value with line breaks stays one line)."""
    text = text.strip()
    return text[:40] if text.isprintable() else shown(text)


def int_in(low: int, high: int, name: str) -> Callable[[str], int]:
    """An argparse ``type`` for an integer option in ``low..high``.

    >>> int_in(0, MAX_SEED, "--seed")("7")
    7
    """

    def parse(text: str) -> int:
        digits = text.strip().lstrip("+-")
        if len(digits) > 30 and digits.isdigit():  # int() refuses past 4,300 digits
            raise argparse.ArgumentTypeError(
                f"must be an integer {low:,}..{high:,}, got a {len(digits):,}-digit number"
            )
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected an integer, got {shown(text)}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(
                f"must be an integer {low:,}..{high:,}, got {_echo(text)}"
            )
        return value

    parse.__name__ = name
    return parse


def float_in(high: float, name: str) -> Callable[[str], float]:
    """An argparse ``type`` for a number above 0 and at most ``high`` (so
    never NaN or infinite).

    >>> float_in(10, "--speed")("2.5")
    2.5
    >>> float_in(10, "--speed")("inf")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: must be a number above 0 and at most 10, got inf
    """

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number, got {shown(text)}") from None
        if not (math.isfinite(value) and 0 < value <= high):
            raise argparse.ArgumentTypeError(
                f"must be a number above 0 and at most {high:g}, got {_echo(text)}"
            )
        return value

    parse.__name__ = name
    return parse
