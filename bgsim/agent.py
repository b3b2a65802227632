"""What an agent is: the :class:`Agent` protocol, and the search :class:`Budget`
that searching agents take.

An agent plays one seat of a lobby from its :class:`~bgsim.Observation` alone.
Anything with ``reset(seat, seed)``, ``act(observation, legal_actions)`` and a
``name`` is an agent; it needs no base class. ``bgsim tournament --agent
NAME=module:Class`` plays any importable class that meets the protocol.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from bgsim.actions import Action
from bgsim.limits import MAX_ITERATIONS, MAX_SECONDS
from bgsim.observation import Observation


@runtime_checkable
class Agent(Protocol):
    """Anything that picks actions for one seat of a lobby.

    ``reset(seat, seed)`` starts a new game: every random choice the agent
    makes afterwards must come from ``seed``, so that games replay exactly.
    ``act`` returns one of ``legal_actions`` (never empty when it is called).
    ``name`` labels the agent in results.

    >>> import random
    >>> from bgsim import Agent, Lobby
    >>> class Cautious:
    ...     name = "cautious"
    ...     def reset(self, seat, seed):
    ...         self.rng = random.Random(seed)
    ...     def act(self, observation, legal_actions):
    ...         return legal_actions[0]  # EndTurn, or the first Discover option
    >>> isinstance(Cautious(), Agent)
    True
    >>> lobby = Lobby(seed=1)
    >>> agent = Cautious()
    >>> agent.reset(seat=0, seed=1)
    >>> agent.act(lobby.observe(0), lobby.legal_actions(0))
    EndTurn()
    """

    name: str

    def reset(self, seat: int, seed: int) -> None: ...

    def act(self, observation: Observation, legal_actions: Sequence[Action]) -> Action: ...


class BudgetError(ValueError):
    """A search budget that cannot be used; the message says why.

    >>> try:
    ...     Budget.parse("nans")
    ... except BudgetError as error:
    ...     print(str(error)[:22])
    bad budget 'nans'; use
    """


@dataclass(frozen=True)
class Budget:
    """Search budget per turn: seconds of wall time or a number of iterations.

    A seconds budget is a ceiling on a searching agent's whole turn and depends
    on the machine's speed; an iteration budget gives the same decisions on
    every machine.

    >>> Budget.parse("0.5s"), Budget.parse("2000it")
    (Budget(seconds=0.5, iterations=None), Budget(seconds=None, iterations=2000))
    >>> str(Budget(iterations=200))
    '200it'
    """

    seconds: float | None = None
    iterations: int | None = None

    def __post_init__(self) -> None:
        if (self.seconds is None) == (self.iterations is None):
            raise BudgetError("a budget is either seconds or iterations")
        seconds = self.seconds
        if seconds is not None and not (
            isinstance(seconds, int | float)
            and not isinstance(seconds, bool)
            and math.isfinite(seconds)
            and 0 < seconds <= MAX_SECONDS
        ):
            raise BudgetError(
                f"seconds must be a number above 0 and at most {MAX_SECONDS:g}, "
                f"not {self.seconds!r:.40}"
            )
        if self.iterations is not None and (
            isinstance(self.iterations, bool)
            or not isinstance(self.iterations, int)
            or not 1 <= self.iterations <= MAX_ITERATIONS
        ):
            raise BudgetError(
                f"iterations must be an integer 1..{MAX_ITERATIONS:,}, not {self.iterations!r:.40}"
            )

    @classmethod
    def parse(cls, text: str | None) -> Budget | None:
        """A budget from its text, ``0.5s`` or ``2000it`` (None stays None)."""
        if text is None:
            return None
        if not isinstance(text, str):
            raise BudgetError(f"a budget is text like 0.5s or 2000it, not {text!r:.40}")
        clean = text.strip().lower()
        try:
            if clean.endswith("it"):
                return cls(iterations=int(clean[:-2]))
            if clean.endswith("s"):
                return cls(seconds=float(clean[:-1]))
        except (ValueError, BudgetError):
            pass
        raise BudgetError(
            f"bad budget {text!r:.40}; use seconds like 0.5s (at most {MAX_SECONDS:g}) or "
            f"iterations like 2000it (at most {MAX_ITERATIONS:,})"
        )

    def __str__(self) -> str:
        return f"{self.seconds:g}s" if self.seconds is not None else f"{self.iterations}it"
