"""What an agent is: the :class:`Agent` protocol, and the search :class:`Budget`
that searching agents take.

An agent plays one seat of a lobby from its :class:`~bgsim.Observation` alone.
Anything with ``reset(seat, seed)``, ``act(observation, legal_actions)`` and a
``name`` is an agent; it needs no base class. ``bgsim tournament --agent
NAME=module:Class`` plays any importable class that meets the protocol.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, runtime_checkable

from bgsim.actions import Action
from bgsim.limits import MAX_ITERATIONS, MAX_SECONDS
from bgsim.observation import Observation
from combat_c.guarded import shown


@runtime_checkable
class Agent(Protocol):
    """Anything that picks actions for one seat of a lobby.

    ``reset(seat, seed)`` starts a new game: every random choice the agent
    makes afterwards must come from ``seed``, so that games replay exactly.
    ``act`` returns one of ``legal_actions`` (never empty when it is called).
    ``name`` labels the agent in results. With heroes (the command line's
    default) turn 0 is the draft: the legal actions are ``ChooseHero``
    options, one per hero in ``observation.hero_offers``.

    >>> import random
    >>> from bgsim import Agent, Lobby
    >>> class Cautious:
    ...     name = "cautious"
    ...     def reset(self, seat, seed):
    ...         self.rng = random.Random(seed)
    ...     def act(self, observation, legal_actions):
    ...         return legal_actions[0]  # EndTurn, the first Discover option or hero
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


class AgentError(RuntimeError):
    """An agent's own code failed while it played, or chose an action that is
    not legal: the message names the agent, its player number, the turn and
    where its code failed, in one line (``bgsim`` prints it as an error).

    >>> try:
    ...     raise ValueError("no such card")
    ... except ValueError as exc:
    ...     print(AgentError.failed("thrifty", 1, 3, exc))
    agent 'thrifty' (player 1) failed on turn 3: ValueError: no such card (...)
    """

    @classmethod
    def failed(cls, name: str, player: int, turn: int, exc: BaseException) -> AgentError:
        """The error for ``exc``, raised by agent ``name`` playing ``player``
        (numbered from 1, as ``bgsim play`` prints players: seat + 1), where
        its code failed; or, for an exception raised by the call itself (a
        method that does not take bgsim's arguments), that it could not be
        called."""
        tb = exc.__traceback__
        if isinstance(exc, TypeError) and tb is not None and tb.tb_next is None:
            return cls(
                f"agent {shown(name)} (player {player}) could not be called on turn {turn}: "
                f"{described(exc, located=False)}; bgsim calls act(observation, "
                "legal_actions) and reset(seat, seed)"
            )
        return cls(f"agent {shown(name)} (player {player}) failed on turn {turn}: {described(exc)}")


def described(exc: BaseException, located: bool = True) -> str:
    """An exception in one line: its type, its message (cut short) and, when
    ``located``, the file and line where it was raised.

    >>> try:
    ...     {}["x"]
    ... except KeyError as exc:
    ...     described(exc).startswith("KeyError: 'x' (")
    True
    """
    try:
        text = " ".join(str(exc).split())
    except Exception:  # an exception whose message itself fails
        text = "(its message cannot be shown)"
    if len(text) > 200:
        text = text[:200] + "..."
    # A SyntaxError's message names its file and line; where it was raised is
    # the importer's.
    where = raised_at(exc) if located and not isinstance(exc, SyntaxError) else ""
    return f"{type(exc).__name__}: {text}{where}" if text else f"{type(exc).__name__}{where}"


def raised_at(exc: BaseException) -> str:
    """`` (file:line)`` of the innermost frame ``exc`` passed through, or ""
    for an exception never raised.

    >>> try:
    ...     int("x")
    ... except ValueError as exc:
    ...     raised_at(exc).startswith(" (")
    True
    >>> raised_at(ValueError("never raised"))
    ''
    """
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    if tb is None:
        return ""
    return f" ({Path(tb.tb_frame.f_code.co_filename).name}:{tb.tb_lineno})"


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
        # Numbers of other types (numpy's) are kept as Python's float and int.
        seconds = self.seconds
        if isinstance(seconds, numbers.Real) and not isinstance(seconds, bool | float):
            try:
                seconds = float(seconds)
            except OverflowError:
                seconds = math.inf  # refused below, as too many seconds
            object.__setattr__(self, "seconds", seconds)
        iterations = self.iterations
        if isinstance(iterations, numbers.Integral) and not isinstance(iterations, bool | int):
            object.__setattr__(self, "iterations", int(iterations))
        if seconds is not None and not (
            isinstance(seconds, int | float)
            and not isinstance(seconds, bool)
            and 0 < seconds <= MAX_SECONDS  # NaN and infinities fail it too
        ):
            raise BudgetError(
                f"seconds must be a number above 0 and at most {MAX_SECONDS:g}, "
                f"not {shown(self.seconds)}"
            )
        if self.iterations is not None and (
            isinstance(self.iterations, bool)
            or not isinstance(self.iterations, int)
            or not 1 <= self.iterations <= MAX_ITERATIONS
        ):
            raise BudgetError(
                f"iterations must be an integer 1..{MAX_ITERATIONS:,}, not {shown(self.iterations)}"
            )

    @classmethod
    def parse(cls, text: str | None) -> Budget | None:
        """A budget from its text, ``0.5s`` or ``2000it`` (None stays None)."""
        if text is None:
            return None
        if not isinstance(text, str):
            raise BudgetError(f"a budget is text like 0.5s or 2000it, not {shown(text)}")
        clean = text.strip().lower()
        try:
            if clean.endswith("it"):
                return cls(iterations=int(clean[:-2]))
            if clean.endswith("s"):
                return cls(seconds=float(clean[:-1]))
        except (ValueError, BudgetError):
            pass
        raise BudgetError(
            f"bad budget {shown(text)}; use seconds like 0.5s (at most {MAX_SECONDS:g}) or "
            f"iterations like 2000it (at most {MAX_ITERATIONS:,})"
        )

    def __str__(self) -> str:
        return f"{self.seconds:g}s" if self.seconds is not None else f"{self.iterations}it"
