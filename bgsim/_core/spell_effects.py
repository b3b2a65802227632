"""What a spell in hand does: the shape of a spell registry entry.

The registry itself is :data:`bgsim._core.spells.SPELLS`, gathered from
``bgsim._core.spells`` and the ``bgsim._core.spells_*`` modules (which
import this one, not the registry).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bgsim._core.minions import SpellCard
from bgsim._core.player_state import PlayerState
from bgsim._core.recruit_turn import Turn

Cast = Callable[[Turn, "int | None", SpellCard], None]
Valid = Callable[[PlayerState, int], bool]
Castable = Callable[[PlayerState], "str | None"]


@dataclass(frozen=True, slots=True)
class SpellEffects:
    """One spell: ``target`` is None (aimed at nothing) or ``"minion"`` (a
    friendly warband minion, allowed by ``valid`` when given), ``cost`` its
    gold, ``cast(t, target, card)`` its effect; ``castable(state)`` says why
    it cannot be cast now (a Secret already waiting), or None.

    >>> SpellEffects(lambda t, target, card: None).target is None
    True
    """

    cast: Cast
    target: str | None = None
    valid: Valid | None = None
    cost: int = 0
    castable: Castable | None = None
