"""Rebuild both boards at any point of a fight from its event log.

The engine numbers minions with entity ids (``eid``): the input boards' minions
are 1..n (board a first), summons count on from there. Summon events carry the
slot in the board as it stands at that moment, dead minions awaiting removal
included, and death events remove minions; applying the events in order
therefore reproduces the engine's boards exactly.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace

from combat_c._lib import KEYWORD_BITS
from combat_c.board import MAX_MINIONS, Board
from combat_c.combat import Event


@dataclass(frozen=True, slots=True)
class Unit:
    """A minion on a combat board: displayed stats and keyword bits."""

    eid: int
    card: str  # the id the game shows (golden id for golden minions)
    golden: bool
    attack: int
    health: int
    keywords: int

    def has(self, keyword: str) -> bool:
        return bool(self.keywords & KEYWORD_BITS[keyword])


Boards = tuple[tuple[Unit, ...], tuple[Unit, ...]]


def initial_boards(a: Board, b: Board) -> Boards:
    """The two boards as the fight starts (before Old Murk-Eye's battlefield
    bonus, which the first stats events apply)."""
    out: list[tuple[Unit, ...]] = []
    eid = 0
    for board in (a, b):
        units = []
        for m, (atk, hp) in zip(board.minions, board.displayed(), strict=True):
            eid += 1
            bits = sum(bit for k, bit in KEYWORD_BITS.items() if getattr(m, k))
            units.append(Unit(eid, m.card_id, m.golden, atk, hp, bits))
        out.append(tuple(units))
    return out[0], out[1]


def _apply(boards: list[list[Unit]], ev: Event) -> None:
    if ev.kind == "summon":
        if ev.card is None or ev.slot is None or ev.side not in (0, 1):
            raise ValueError(f"a summon event needs a card, a slot and a side: {ev}")
        if len(boards[ev.side]) >= MAX_MINIONS:
            raise ValueError(f"a summon onto a full board: {ev}")
        unit = Unit(ev.eid, ev.card, ev.golden, ev.a, ev.b, ev.keywords)
        boards[ev.side].insert(ev.slot, unit)
        return
    for side in (0, 1):
        for i, u in enumerate(boards[side]):
            if u.eid != ev.eid:
                continue
            if ev.kind == "death":
                del boards[side][i]
            elif ev.kind == "stats":
                boards[side][i] = replace(u, attack=ev.a, health=ev.b)
            elif ev.kind == "damage":
                boards[side][i] = replace(u, health=ev.b)
            elif ev.kind == "poison":
                boards[side][i] = replace(u, health=min(u.health, 0))
            elif ev.kind in ("shield", "keywords"):
                boards[side][i] = replace(u, keywords=ev.keywords)
            return


def replay(a: Board, b: Board, events: Sequence[Event]) -> Iterator[tuple[Event, Boards]]:
    """Yield each event with both boards as they stand right after it."""
    boards = [list(side) for side in initial_boards(a, b)]
    for ev in events:
        _apply(boards, ev)
        yield ev, (tuple(boards[0]), tuple(boards[1]))


def final_boards(a: Board, b: Board, events: Sequence[Event]) -> Boards:
    """Both boards once the fight is over (dead minions removed)."""
    last: Boards = initial_boards(a, b)
    for _, boards in replay(a, b, events):
        last = boards
    return last
