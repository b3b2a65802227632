"""The two entry points: ``simulate`` (batched odds) and ``resolve`` (one fight).

Each is one C call. Boards may be :class:`Board` objects (fastest: their C form
is built once and cached) or anything :func:`parse_board` accepts.
"""

from __future__ import annotations

import operator
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, SupportsIndex, cast

from combat_c._lib import CARDS, SECRET_CODES, TRIBES, ffi, lib
from combat_c.board import POWER_OF_CODE, Board, BoardSpecError, fight_boards, parse_board
from combat_c.guarded import shown

BoardLike = Board | Mapping | str | Path
_SEED_MASK = (1 << 64) - 1

EVENT_KINDS = {
    1: "start",
    2: "attack",
    3: "damage",
    4: "shield",
    5: "death",
    6: "summon",
    7: "stats",
    8: "keywords",
    9: "trigger",
    10: "hand",
    11: "end",
    12: "poison",
    13: "hero",
    14: "secret",
}
TRIGGER_KINDS = {
    1: "deathrattle",
    2: "start_of_combat",
    3: "overkill",
    4: "frenzy",
    5: "reborn",
    6: "effect",
}


def _board(board: BoardLike) -> Board:
    return board if isinstance(board, Board) else parse_board(board)


def tribe_mask(tribes: frozenset[str] | tuple[str, ...] | list[str] | None) -> int:
    """Bit mask of minion types for random summons; None means all seven."""
    if tribes is None:
        return 0
    if isinstance(tribes, str):
        raise TypeError(f"tribes must be a collection of tribe names, not the string {tribes!r}")
    mask = 0
    for tribe in tribes:
        if tribe not in TRIBES:
            raise ValueError(f"unknown tribe {shown(tribe, 60)}; choose from {', '.join(TRIBES)}")
        mask |= 1 << TRIBES.index(tribe)
    if not mask:  # the engine reads 0 as all seven
        raise ValueError(f"tribes is empty; name at least one of {', '.join(TRIBES)} (or None)")
    return mask


def _integer(value: object) -> int | None:
    """``value`` as an int if it is an integer of any type (numpy's too), not a bool."""
    if isinstance(value, bool):  # numpy's bool has no __index__
        return None
    try:
        return operator.index(cast(SupportsIndex, value))
    except TypeError:
        return None


def _seed(seed: int) -> int:
    value = _integer(seed)
    if value is None:
        raise TypeError(f"seed must be an integer, got {shown(seed, 60)}")
    return value & _SEED_MASK


def _tribes(tribes: int | None) -> int:
    if tribes is None:
        return 0
    value = tribes if type(tribes) is int else _integer(tribes)  # numpy's too, as runs and seed
    if value is None or not 0 <= value < 1 << len(TRIBES):
        raise ValueError(f"tribes must be a tribe_mask() value, got {shown(tribes)}")
    return value


class Odds:
    """Outcome frequencies of ``runs`` fights of board a against board b.

    ``damage_dealt[d]`` counts fights a won dealing d damage to b's hero;
    ``damage_taken[d]`` the same for b. Means are over all runs. ``lethal_dealt``
    is the chance a's win kills b's hero (its ``health``), ``lethal_taken`` the
    reverse.
    """

    __slots__ = ("_raw", "losses", "runs", "ties", "wins")

    def __init__(self, raw: Any) -> None:
        self._raw = raw
        self.runs: int = raw.runs
        self.wins: int = raw.wins
        self.ties: int = raw.ties
        self.losses: int = raw.losses

    @property
    def win(self) -> float:
        return self.wins / self.runs

    @property
    def tie(self) -> float:
        return self.ties / self.runs

    @property
    def loss(self) -> float:
        return self.losses / self.runs

    @property
    def mean_damage_dealt(self) -> float:
        return self._raw.sum_dealt / self.runs

    @property
    def mean_damage_taken(self) -> float:
        return self._raw.sum_taken / self.runs

    @property
    def lethal_dealt(self) -> float:
        return self._raw.lethal_dealt / self.runs

    @property
    def lethal_taken(self) -> float:
        return self._raw.lethal_taken / self.runs

    @property
    def damage_dealt(self) -> tuple[int, ...]:
        return _trim(self._raw.damage_dealt)

    @property
    def damage_taken(self) -> tuple[int, ...]:
        return _trim(self._raw.damage_taken)

    def damage_percentiles(self, qs: tuple[float, ...] = (0.1, 0.5, 0.9)) -> dict[float, int]:
        """Percentiles ``qs`` (each in 0..1) of the signed damage: positive
        dealt, negative taken, 0 tie.

        >>> from combat_c import Board, Minion
        >>> wolf = Board(tier=1, health=40, minions=(Minion.of("CFM_315"),))
        >>> simulate(wolf, Board(1, 40), runs=10).damage_percentiles((0.5,))
        {0.5: 2}
        """
        for q in qs if isinstance(qs, tuple | list) else [qs]:
            if isinstance(q, bool) or not isinstance(q, int | float) or not 0 <= q <= 1:
                raise ValueError(f"percentiles must be numbers 0..1, got {shown(q, 30)}")
        counts: dict[int, int] = {0: self.ties}
        for d, n in enumerate(self.damage_dealt):
            counts[d] = counts.get(d, 0) + n
        for d, n in enumerate(self.damage_taken):
            counts[-d] = counts.get(-d, 0) + n
        ordered = sorted(counts.items())
        out = {}
        for q in qs:
            need, seen = q * self.runs, 0
            for value, n in ordered:
                seen += n
                if seen >= need and n:
                    out[q] = value
                    break
        return out

    def as_dict(self) -> dict[str, Any]:
        return {
            "runs": self.runs,
            "win": self.win,
            "tie": self.tie,
            "loss": self.loss,
            "mean_damage_dealt": self.mean_damage_dealt,
            "mean_damage_taken": self.mean_damage_taken,
            "lethal_dealt": self.lethal_dealt,
            "lethal_taken": self.lethal_taken,
        }

    def __repr__(self) -> str:
        return (
            f"Odds(win={self.win:.3f}, tie={self.tie:.3f}, loss={self.loss:.3f}, runs={self.runs})"
        )


def _trim(counts: Any) -> tuple[int, ...]:
    values = list(counts)
    while values and not values[-1]:
        values.pop()
    return tuple(values)


MAX_RUNS = 10_000_000
"""The most fights one :func:`simulate` call runs (minutes on the slowest boards)."""
PART_RUNS = 10_000
"""Fights per C call of a long :func:`simulate`: between parts Python sees
Ctrl-C. Parts continue one random stream, so the odds do not depend on them."""


def simulate(
    a: BoardLike, b: BoardLike, runs: int = 1000, seed: int = 0, tribes: int | None = None
) -> Odds:
    """Fight a against b ``runs`` times (1..:data:`MAX_RUNS`) and return the odds.

    Up to :data:`PART_RUNS` fights are one C call; more run in parts of that
    size, so Ctrl-C stops a long call between parts. ``tribes`` is a
    :func:`tribe_mask` of the lobby's minion types (default all), which
    random summons such as Ghastcoiler's stay within. ``seed`` is any
    integer, taken modulo 2**64 (the engine's seed is 64 bits: -1 plays the
    fights of 2**64 - 1), so that a caller may add run numbers to a seed.

    >>> from combat_c import Board, Minion
    >>> wolf = Board(tier=1, health=40, minions=(Minion.of("CFM_315"),))
    >>> simulate(wolf, wolf, runs=10, seed=1).runs
    10
    """
    if not isinstance(a, Board):
        a = parse_board(a)
    if not isinstance(b, Board):
        b = parse_board(b)
    if a.shown_murk_eye or b.shown_murk_eye:
        a, b = fight_boards(a, b)
    pa = a._packed if a._packed is not None else a.packed
    pb = b._packed if b._packed is not None else b.packed
    count = runs if type(runs) is int else (_integer(runs) or 0)
    if not 1 <= count <= MAX_RUNS:
        raise ValueError(f"runs must be an integer 1..{MAX_RUNS:,}, got {shown(runs)}")
    runs = count
    seed = seed & _SEED_MASK if type(seed) is int else _seed(seed)
    tribes = _tribes(tribes)
    out = ffi.new("bg_odds *")
    if runs <= PART_RUNS:
        err = lib.bg_simulate(pa, pb, runs, seed, tribes, out)
    else:
        stream = ffi.new("bg_stream *")
        lib.bg_stream_seed(stream, seed)
        left = runs
        err = 0
        while left and not err:
            part = min(left, PART_RUNS)
            err = lib.bg_simulate_part(pa, pb, part, stream, tribes, out)
            left -= part
    if err:
        raise BoardSpecError("", f"the engine rejected the boards (code {err})")
    return Odds(out)


@dataclass(frozen=True, slots=True)
class Event:
    """One step of a fight. ``eid`` identifies a minion for the whole fight:
    the input boards' minions are 1..n (a first, then b), summons count on.

    A ``hero`` event is ``side``'s hero power acting (``card`` is the hero
    power, ``eid`` the minion it touches, 0 for none; Deathwing's aura has
    ``b`` = the Attack it gives); a ``secret`` event is a Secret of ``side``
    revealed (``card`` is the Secret, ``eid`` the minion attacked or dead, 0
    for the hero)."""

    kind: str
    side: int
    slot: int | None
    eid: int
    target: int
    card: str | None
    golden: bool
    keywords: int
    a: int
    b: int

    @property
    def trigger(self) -> str | None:
        return TRIGGER_KINDS.get(self.a) if self.kind == "trigger" else None

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "side": self.side,
            "slot": self.slot,
            "eid": self.eid,
            "target": self.target,
            "card": self.card,
            "golden": self.golden,
            "keywords": self.keywords,
            "a": self.a,
            "b": self.b,
        }


@dataclass(frozen=True, slots=True)
class PermanentBuff:
    """Stats a minion of the input board keeps after the fight."""

    index: int
    attack: int
    health: int


@dataclass(frozen=True, slots=True)
class Aftermath:
    """What one side keeps from the fight. ``kills`` counts the enemy minions
    that died (Ragnaros adds them up), ``first_kill`` is the first of them
    (the card id as shown; Arch-Villain Rafaam copies it), ``secrets_used``
    the side's Secrets revealed in the fight, gone from play."""

    won: bool
    permanent: tuple[PermanentBuff, ...]
    hand: tuple[str, ...]  # card ids added to hand (Nat Pagle, Gentle Djinni, Gold Coins)
    kills: int = 0
    first_kill: str | None = None
    secrets_used: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class CombatResult:
    """One fight's outcome. ``events`` is the fight step by step; it is
    decoded from the engine's log when first read, since a lobby needs only
    the outcome and most fights' logs are never looked at."""

    winner: int  # 0 = a, 1 = b, -1 = tie
    damage: int  # to the loser's hero (0 when an Ice Block prevented it)
    attacks: int
    aftermath: tuple[Aftermath, Aftermath]
    survivors: tuple[int, int]
    prevented: int = 0  # the combat damage an Ice Block prevented
    log: bytes = field(default=b"", repr=False)  # the engine's event records
    _events: tuple[Event, ...] | None = field(default=None, repr=False, compare=False)

    @property
    def events(self) -> tuple[Event, ...]:
        """The fight's events in order (see :class:`Event`)."""
        events = self._events
        if events is None:
            events = _decode_events(self.log)
            object.__setattr__(self, "_events", events)
        return events

    @property
    def outcome(self) -> str:
        """'win', 'tie' or 'loss' from board a's point of view."""
        return {0: "win", 1: "loss", -1: "tie"}[self.winner]


_EVENT_SIZE = ffi.sizeof("bg_event")
# The event buffer is written by the engine before it is read (only the first
# n_events records are), so zeroing its 80 kB for every fight would be waste.
_new_unzeroed = ffi.new_allocator(should_clear_after_alloc=False)


def _decode_events(log: bytes) -> tuple[Event, ...]:
    raw = ffi.from_buffer("bg_event[]", log)
    return tuple(
        Event(
            kind=EVENT_KINDS[e.kind],
            side=e.side,
            slot=None if e.slot == 255 else e.slot,
            eid=e.eid,
            target=e.target,
            card=_event_card(e),
            golden=bool(e.golden),
            keywords=e.kw,
            a=e.a,
            b=e.b,
        )
        for e in (raw[i] for i in range(len(log) // _EVENT_SIZE))
    )


def _card_id(index: int, golden: bool) -> str | None:
    if index >= len(CARDS):
        return None
    entry = CARDS[index]
    return entry.golden_id if golden and entry.golden_id else entry.id


def resolve(a: BoardLike, b: BoardLike, seed: int = 0, tribes: int | None = None) -> CombatResult:
    """Fight a against b once and return the full event log and aftermath
    (``seed`` and ``tribes`` as for :func:`simulate`).

    >>> from combat_c import Board, Minion
    >>> wolf = Board(tier=1, health=40, minions=(Minion.of("CFM_315"),))
    >>> resolve(wolf, wolf, seed=3).winner in (-1, 0, 1)
    True
    """
    fa, fb = fight_boards(_board(a), _board(b))
    pa, pb = fa.packed, fb.packed
    seed = _seed(seed)
    tribes = _tribes(tribes)
    out = ffi.new("bg_result *")
    capacity = 4096
    while True:
        events = _new_unzeroed("bg_event[]", capacity)
        err = lib.bg_resolve(pa, pb, seed, tribes, out, events, capacity)
        if err == lib.BG_ERR_LOG_FULL and capacity < (1 << 20):
            capacity *= 8
            continue
        if err:
            raise BoardSpecError("", f"the engine rejected the boards (code {err})")
        break
    log = ffi.buffer(events, out.n_events * _EVENT_SIZE)[:]
    winner = out.winner
    sides = []
    for s in range(2):
        perm = tuple(
            PermanentBuff(p.index, p.atk, p.hp)
            for p in out.perm[s]
            if p.index >= 0 and (p.atk or p.hp)
        )
        hand = tuple(
            _card_id(out.hand[s][k], bool(out.hand_golden[s][k])) or ""
            for k in range(out.n_hand[s])
        )
        used_bits = out.secrets_used[s]
        used = tuple(x for k, x in enumerate((fa, fb)[s].secrets) if used_bits >> k & 1)
        first = out.first_kill[s]
        sides.append(
            Aftermath(
                won=winner == s,
                permanent=perm,
                hand=hand,
                kills=out.kills[s],
                first_kill=_card_id(first, bool(out.first_kill_golden[s]))
                if first < 0xFFFF
                else None,
                secrets_used=used,
            )
        )
    return CombatResult(
        winner=winner,
        damage=out.damage,
        attacks=out.attacks,
        aftermath=(sides[0], sides[1]),
        survivors=(out.survivors[0], out.survivors[1]),
        prevented=out.prevented,
        log=log,
    )


def _event_card(e: Any) -> str | None:
    """The card an event names: a minion's (the golden id for a golden one),
    the hero power of a ``hero`` event, the Secret of a ``secret`` one."""
    if e.kind in (1, 11):
        return None
    if e.kind == 13:
        return POWER_OF_CODE.get(e.a)
    if e.kind == 14:
        return SECRET_CODES[e.a] if 0 < e.a < len(SECRET_CODES) else None
    return _card_id(e.card, bool(e.golden))
