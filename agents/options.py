"""Checks for the options of the bundled agents, and of what their ``act``
is given.

A lineup's options arrive as text, numbers or true (``greedy[runs=48]``,
``mcts[cheat]``), so every bundled agent's constructor passes each option
through one of these before using it. A bad value raises ``ValueError`` with
a message that names the option, which ``bgsim.registry`` reports as the
agent's own when the lineup is checked, before any game starts.

>>> integer("runs", 48, 1, 1000)
48
>>> integer("runs", 0, 1, 1000)
Traceback (most recent call last):
...
ValueError: option runs must be an integer 1..1,000, not 0
"""

from __future__ import annotations

import math
import sys
from collections.abc import Sequence

from bgsim.observation import Observation
from combat_c.guarded import shown

_LARGEST = sys.float_info.max

__all__ = ["choice", "file_path", "flag", "integer", "legal_choices", "number"]


def integer(name: str, value: object, low: int, high: int) -> int:
    """``value`` as an integer option in ``low..high``.

    >>> integer("horizon", 2, 0, 10)
    2
    """
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"option {name} must be an integer {low:,}..{high:,}, not {shown(value)}")
    return value


def number(name: str, value: object, low: float = -math.inf, high: float = math.inf) -> float:
    """``value`` as a finite number option in ``low..high``.

    >>> number("c", 0.7, 0)
    0.7
    >>> number("c", 10**400, 0)
    Traceback (most recent call last):
    ...
    ValueError: option c must be a finite number of at least 0, not an integer of 401 digits
    >>> number("c", "abc", 0)
    Traceback (most recent call last):
    ...
    ValueError: option c must be a finite number of at least 0, not 'abc'
    """
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or not low <= value <= high
        or not -_LARGEST <= value <= _LARGEST  # an int past any float, NaN or infinite
    ):
        if math.isinf(low) and math.isinf(high):
            span = ""
        elif math.isinf(high):
            span = f" of at least {low:g}"
        elif math.isinf(low):
            span = f" of at most {high:g}"
        else:
            span = f" in {low:g}..{high:g}"
        raise ValueError(f"option {name} must be a finite number{span}, not {shown(value)}")
    return float(value)


def flag(name: str, value: object) -> bool:
    """``value`` as a true/false option (a bare key in a lineup is true).

    >>> flag("cheat", True)
    True
    """
    if not isinstance(value, bool):
        raise ValueError(f"option {name} must be true or false, not {shown(value)}")
    return value


def choice(name: str, value: object, choices: Sequence[str]) -> str:
    """``value`` as one of ``choices``.

    >>> choice("policy", "mixed", ("heuristic", "static", "mixed"))
    'mixed'
    """
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"option {name} must be one of {', '.join(choices)}, not {shown(value)}")
    return value


def file_path(name: str, value: object) -> str:
    """``value`` as the path of a file an agent reads (``belief=PATH``,
    ``value_model=PATH``): text, not empty, no NUL. The file itself is read
    through the guarded reader by whoever loads it.

    >>> file_path("belief", "tables/belief.json")
    'tables/belief.json'
    >>> file_path("belief", True)
    Traceback (most recent call last):
    ...
    ValueError: option belief must be the path of a file, not True
    """
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)  # belief=3 names the file "3"
    if not isinstance(value, str) or not value or "\0" in value:
        raise ValueError(f"option {name} must be the path of a file, not {shown(value)}")
    return value


def legal_choices(legal_actions: Sequence[object]) -> None:
    """Refuse an ``act`` call with no legal action to choose from (a game
    always offers one: EndTurn, or a hero to draft).

    >>> legal_choices([])
    Traceback (most recent call last):
    ...
    ValueError: legal_actions is empty: act needs at least one legal action to choose from
    """
    if not legal_actions:
        raise ValueError(
            "legal_actions is empty: act needs at least one legal action to choose from"
        )


def act_arguments(observation: object, legal_actions: Sequence[object]) -> None:
    """:func:`legal_choices`, and refuse an observation that is not a bgsim
    Observation (for agents that read it).

    >>> act_arguments(None, [])
    Traceback (most recent call last):
    ...
    TypeError: observation must be a bgsim Observation (Lobby.observe), not NoneType
    """
    if not isinstance(observation, Observation):
        raise TypeError(
            "observation must be a bgsim Observation (Lobby.observe), "
            f"not {type(observation).__name__}"
        )
    legal_choices(legal_actions)
