"""What one player may know: their own tavern, the public standings, and the
other warbands as last seen in combat.

An :class:`Observation` only holds references to immutable values (the
player's :class:`PlayerState`, a standings tuple, last-seen boards), so making
one costs a few attribute reads.
"""

from __future__ import annotations

from dataclasses import dataclass

from bgsim.minions import HandCard, MinionCard
from bgsim.player_state import PlayerState
from combat_c import Board


@dataclass(frozen=True, slots=True)
class PlayerInfo:
    """Public facts about one player."""

    player: int
    health: int
    tier: int
    alive: bool
    placement: int | None


@dataclass(frozen=True, slots=True)
class SeenBoard:
    """A warband as the observer saw it in combat on ``turn``."""

    turn: int
    board: Board

    @property
    def spec(self) -> dict:
        """The board as a DESIGN.md board spec (displayed stats)."""
        return self.board.to_spec()


@dataclass(frozen=True, slots=True)
class Observation:
    player: int
    turn: int
    state: PlayerState
    players: tuple[PlayerInfo, ...]
    seen: tuple[SeenBoard | None, ...]  # per player: their warband when last fought
    tribes: tuple[str, ...]
    last_opponent: int | None

    @property
    def shop(self) -> tuple[MinionCard, ...]:
        return self.state.shop

    @property
    def shop_frozen(self) -> tuple[bool, ...]:
        return self.state.shop_frozen

    @property
    def frozen(self) -> bool:
        return self.state.frozen

    @property
    def hand(self) -> tuple[HandCard, ...]:
        return self.state.hand

    @property
    def board(self) -> tuple[MinionCard, ...]:
        """Own warband with base stats (see :meth:`displayed` for auras)."""
        return self.state.board

    @property
    def gold(self) -> int:
        return self.state.gold

    @property
    def tier(self) -> int:
        return self.state.tier

    @property
    def upgrade_cost(self) -> int:
        return self.state.upgrade_cost

    @property
    def health(self) -> int:
        return self.state.health

    @property
    def discover(self) -> tuple[MinionCard, ...]:
        """Options of the pending Discover (empty if none)."""
        return self.state.discover

    def displayed(self) -> list[tuple[int, int]]:
        """Own warband's (attack, health) as shown, aura bonuses included."""
        s = self.state
        return Board(s.tier, s.health, tuple(m.combat() for m in s.board)).displayed()
