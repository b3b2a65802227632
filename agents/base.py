"""The agent protocol: agents see only their observation and the legal actions."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class Agent(Protocol):
    """Anything that picks actions for one seat of a lobby.

    ``reset(seat, seed)`` starts a new game: every random choice the agent makes
    afterwards must come from ``seed``. ``act`` returns one of ``legal_actions``.
    """

    name: str

    def reset(self, seat: int, seed: int) -> None: ...

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any: ...
