"""The fixed-size observation vector of the reinforcement-learning environments.

:class:`ObservationEncoder` turns an :class:`~bgsim.observation.Observation`
(what one player may know) into a float32 vector of :data:`OBS_SIZE` values,
every value in ``[0, 1]``. The layout is versioned (:data:`LAYOUT_VERSION`);
any change to it gets a new version. Layout 4 (layout 3 plus what three hero
powers keep beside their counter: Silas Darkmoon's tickets, Maiev
Shadowsong's Dormant minions and Lord Barov's wager; layout 3 added The Great Akazamzarak's
Secrets, offered and held, to layout 2, which was layout 1 plus the heroes
and every spell a hand may hold in :data:`CARD_IDS`), for eight players
(``n = 8``), by section in order (:data:`LAYOUT` gives each section's slice
and shape; :func:`describe_layout` prints them)::

    section    shape        what
    self       (37,)        own scalars, SELF_FEATURES
    shop       (7, 27)      shop slots 0..6, card rows (CARD_FEATURES)
    frozen     (7,)         1 where that shop slot is frozen
    hand       (10, 27)     hand slots 0..9, card rows
    board      (7, 27)      own warband slots 0..6, card rows (base stats, no auras)
    discover   (3, 27)      options of the pending Discover, card rows
    players    (8, 4)       every player's public standing, PLAYER_FEATURES; row k
                            is seat (me + k) % n, so row 0 is the observer
    opponents  (7, 5)       what the observer saw of rows 1..7, OPPONENT_FEATURES
    seen       (7, 7, 27)   the warbands of rows 1..7 as last seen in combat
                            (base stats), card rows
    hero       (8,)         own hero and hero power, HERO_FEATURES
    heroes     (8, 5)       every player's hero, power and visible counter,
                            HEROES_FEATURES; rows as in ``players``
    draft      (4, 4)       the heroes (or hero powers, or Secrets) offered,
                            DRAFT_FEATURES
    secrets    (10,)        1 for each Secret of SECRET_IDS the observer holds (The
                            Great Akazamzarak's; a Darkmoon Prize's Ice Block)
    tickets    (7,)         1 where that shop slot holds a Darkmoon Ticket (Silas
                            Darkmoon's)
    dormant    (3, 27)      Maiev Shadowsong's Dormant minions, oldest first, card
                            rows
    dormant_wait (3,)       min(turns until that minion awakens, 4) / 4
    bets       (8, 2)       Lord Barov's wager, rows as in ``players``: 1 in column
                            0 for a player he may bet on this turn, in column 1
                            for the one he bet on
    total      2,344

Without heroes (``Lobby(heroes=False)``) the eight hero sections are zeros.
A hero is ``(i + 1) / len(HERO_IDS)`` for its index ``i`` in :data:`HERO_IDS`,
a hero power ``(i + 1) / len(POWER_IDS)`` likewise.

A card row (:data:`CARD_FEATURES`) is all zeros for an empty slot. Stats are
scaled by :func:`scale_stat`, ``log(1 + min(x, 999)) / log(1000)`` (1 -> 0.10,
3 -> 0.20, 10 -> 0.35, 100 -> 0.67, 999 and more -> 1.0). ``card`` is
``(i + 1) / len(CARD_IDS)`` for the card's index ``i`` in :data:`CARD_IDS`
(normal ids; ``golden`` says whether it is golden), so
``CARD_IDS[round(v * len(CARD_IDS)) - 1]`` reads it back, e.g. for an
embedding.

The encoder builds each card's row once per card value (as bytes, ready to
copy), and keeps, per seat, the vector it last built and the immutable values
it came from: encoding the observation after one recruit action rewrites the
per-action scalars (a join of precomputed bytes) and, in each zone whose cards
changed, the rows from the first changed card on. Environments call it on every step, so
it is one of the modules the build compiles with mypyc (``bgsim/compiled.py``);
as pure Python it gives the same vectors (``tests/test_envs.py``).

>>> from bgsim.lobby import Lobby
>>> encoder = ObservationEncoder()
>>> vector = encoder.encode(Lobby(7).observe(0))
>>> gold = LAYOUT["self"].start + SELF_FEATURES.index("gold")
>>> vector.shape, vector.dtype.name, float(vector[gold])  # 3 gold / 20
((2344,), 'float32', 0.15000000596046448)
"""

from __future__ import annotations

import math
import struct
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final, TypeVar

import numpy as np

from bgsim._core.hero_powers import PASSIVE, bets, combat_hero, dormant, power_cost, shop_marks
from bgsim._core.hero_state import HeroState
from bgsim._core.heroes_warband import SECRETS
from bgsim._core.minions import GOLD_COIN, INFO, TRIPLE_REWARD, HandCard, MinionCard
from bgsim._core.player_state import PlayerState

# The bgsim internals this module reads, in one place.
from bgsim.actions import (
    MAX_BOARD,
    MAX_DISCOVER,
    MAX_HAND,
    MAX_HERO_OFFERS,
    MAX_SHOP,
    NUM_ACTIONS,
    as_action,
)
from bgsim.cards import TRIBES, cards
from bgsim.lobby import Lobby
from bgsim.observation import Observation
from bgsim.ruleset import Ruleset, load_ruleset
from combat_c.guarded import shown

LAYOUT_VERSION = 4

_SPELLS = sorted(
    c.id for c in cards() if c.type == "spell" and c.id not in (GOLD_COIN, TRIPLE_REWARD)
)
CARD_IDS: tuple[str, ...] = (*sorted(INFO), GOLD_COIN, TRIPLE_REWARD, *_SPELLS)
"""Every card a slot can hold: the normal ids of all minions (tokens included),
sorted, then Gold Coin, Triple Reward and the other spells (those hero powers
give), sorted. Index ``i`` is encoded as ``(i + 1) / len(CARD_IDS)``."""

_CARD_INDEX = {card: i for i, card in enumerate(CARD_IDS)}

HERO_IDS: tuple[str, ...] = tuple(sorted(c.id for c in cards() if c.type == "hero"))
"""Every hero card id, sorted (the draftable heroes and any other hero card)."""
POWER_IDS: tuple[str, ...] = tuple(sorted(c.id for c in cards() if c.type == "hero_power"))
"""Every hero power card id, sorted."""
SECRET_IDS: tuple[str, ...] = tuple(SECRETS)
"""The Secrets The Great Akazamzarak's power discovers, sorted: the
``secrets`` section has one flag per Secret, in this order."""
_HERO_INDEX = {card: (i + 1) / len(HERO_IDS) for i, card in enumerate(HERO_IDS)}
_POWER_INDEX = {card: (i + 1) / len(POWER_IDS) for i, card in enumerate(POWER_IDS)}

KEYWORDS = ("taunt", "divine_shield", "poisonous", "windfury", "mega_windfury", "reborn")

CARD_FEATURES: tuple[str, ...] = (
    "present",
    "minion",
    "spell",
    "card",  # (index in CARD_IDS + 1) / len(CARD_IDS)
    "tier",  # tier / 6; a Triple Reward's Discover tier / 6
    "attack",  # scale_stat
    "health",  # scale_stat
    "golden",
    "triple",  # a golden made by a triple (playing it gives a Triple Reward)
    *KEYWORDS,
    *(f"tribe_{t}" for t in TRIBES),  # Amalgadon has all seven
    "deathrattle",
    "battlecry",
    "magnetic",
    "magnets",  # Magnetic cards attached / 4
    "spores",  # Living Spores attached / 4
)
CARD_WIDTH = len(CARD_FEATURES)

_STEP_FEATURES = (  # may change with every recruit action
    "tier",  # tier / 6
    "upgrade_cost",  # min(cost / 10, 1); 0 at the top tier
    "can_upgrade",  # below the top tier
    "gold",  # min(gold / 20, 1)
    "frozen",  # the whole shop is frozen
    "free_refreshes",  # min(n / 4, 1)
    "actions",  # recruit actions taken this turn / the per-turn bound
    "ended",  # has ended this turn
    "discover",  # a Discover is waiting for a choice
    "discover_queue",  # min(Discovers still queued / 3, 1)
    "shop_size",  # / 7
    "hand_size",  # / 10
    "board_size",  # / 7
    "nomi_bonus",  # min(n / 20, 1)
    "elementals_played",  # this turn, min(n / 20, 1)
    "pirates_bought",  # this turn, min(n / 20, 1)
    "health",  # hero health / the ruleset's hero health (40), clipped to 0..1 (55 reads 1)
)
_TURN_FEATURES = (  # change only in the combat round
    "turn",  # min(turn / 30, 1)
    "won_last_combat",
    "alive",  # the observer is still in the game
    "last_opponent_known",  # the observer has fought someone
    "ghost_opponent",  # the last opponent is out of the game
)
SELF_FEATURES: tuple[str, ...] = (
    *_STEP_FEATURES,
    *_TURN_FEATURES,
    *(f"tribe_{t}" for t in TRIBES),  # the lobby's minion types
    *(f"seat_{i}" for i in range(8)),  # one-hot seat of the observer
)

PLAYER_FEATURES: tuple[str, ...] = (
    "alive",
    "health",  # / the ruleset's hero health (40), clipped to 0..1
    "tier",  # / 6
    "placement",  # placement / n once knocked out, else 0
)

HERO_FEATURES: tuple[str, ...] = (
    "present",  # the observer has a hero
    "hero",  # (index in HERO_IDS + 1) / len(HERO_IDS)
    "power",  # (index in POWER_IDS + 1) / len(POWER_IDS)
    "passive",  # the power is passive
    "cost",  # what using it costs now / 10, clipped to 1
    "uses",  # uses this turn / 4, clipped to 1
    "spent",  # a once-per-game power already used
    "counter",  # the power's counter (every counter, seen or not), scale_stat
)

HEROES_FEATURES: tuple[str, ...] = (
    "present",  # the player has a hero
    "hero",  # as in HERO_FEATURES
    "power",
    "counter_shown",  # the power has a counter every player sees
    "counter",  # its value, scale_stat
)

DRAFT_FEATURES: tuple[str, ...] = (
    "present",  # an offer in this slot
    "hero",  # the hero offered (0 for an offered hero power or Secret)
    "power",  # its hero power (or the hero power offered)
    "card",  # a Secret offered: (index in CARD_IDS + 1) / len(CARD_IDS); else 0
)

MAX_DORMANT = 3
"""Rows of the ``dormant`` section: Maiev Shadowsong imprisons one minion a
turn for two turns, so at most two sleep at once; a third row spares room."""

OPPONENT_FEATURES: tuple[str, ...] = (
    "last_opponent",  # the observer's last opponent
    "seen",  # the observer has seen this warband in combat
    "seen_age",  # min((turn - turn seen) / 30, 1)
    "seen_size",  # minions in the warband as seen / 7
    "seen_tier",  # tavern tier when seen / 6
)


@dataclass(frozen=True)
class Section:
    """Where one part of the observation lives: ``vector[section.slice]``,
    reshaped to ``section.shape``.

    >>> LAYOUT["shop"].shape
    (7, 27)
    """

    name: str
    start: int
    stop: int
    shape: tuple[int, ...]

    def __reduce__(self) -> tuple:
        # A compiled frozen class unpickles through its __init__.
        return (Section, (self.name, self.start, self.stop, self.shape))

    @property
    def slice(self) -> slice:
        return slice(self.start, self.stop)


def _layout(players: int) -> dict[str, Section]:
    shapes = {
        "self": (len(SELF_FEATURES),),
        "shop": (MAX_SHOP, CARD_WIDTH),
        "frozen": (MAX_SHOP,),
        "hand": (MAX_HAND, CARD_WIDTH),
        "board": (MAX_BOARD, CARD_WIDTH),
        "discover": (MAX_DISCOVER, CARD_WIDTH),
        "players": (players, len(PLAYER_FEATURES)),
        "opponents": (players - 1, len(OPPONENT_FEATURES)),
        "seen": (players - 1, MAX_BOARD, CARD_WIDTH),
        "hero": (len(HERO_FEATURES),),
        "heroes": (players, len(HEROES_FEATURES)),
        "draft": (MAX_HERO_OFFERS, len(DRAFT_FEATURES)),
        "secrets": (len(SECRET_IDS),),
        "tickets": (MAX_SHOP,),
        "dormant": (MAX_DORMANT, CARD_WIDTH),
        "dormant_wait": (MAX_DORMANT,),
        "bets": (players, 2),
    }
    out, at = {}, 0
    for name, shape in shapes.items():
        size = math.prod(shape)
        out[name] = Section(name, at, at + size, shape)
        at += size
    return out


def layout(players: int = 8) -> dict[str, Section]:
    """Layout 4 for a lobby of ``players`` (``players`` rows of ``players``
    and ``heroes``, ``players - 1`` of ``opponents`` and ``seen``; the rest as
    for eight).

    >>> layout(8)["seen"].shape
    (7, 7, 27)
    """
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 8:
        raise ValueError(f"players must be an integer 2..8, got {shown(players)}")
    return _layout(players)


LAYOUT: dict[str, Section] = _layout(8)
"""Layout 4 for eight players: section name -> :class:`Section`."""

OBS_SIZE: int = LAYOUT["bets"].stop
"""Length of the observation vector for eight players (2,344)."""


def describe_layout(players: int = 8) -> str:
    """The layout as a table, one section a line.

    >>> print(describe_layout().splitlines()[1])
    self            0..37    (37,)
    """
    lines = [f"observation layout {LAYOUT_VERSION}, {players} players"]
    sections = layout(players)
    for s in sections.values():
        lines.append(f"{s.name:12s} {s.start:4d}..{s.stop:<5d} {s.shape}")
    lines.append(f"total {max(s.stop for s in sections.values())}")
    return "\n".join(lines)


_LOG_1000 = math.log(1000)


def scale_stat(value: int) -> float:
    """An attack or health value as ``log(1 + min(x, 999)) / log(1000)``, in [0, 1].

    >>> round(scale_stat(10), 3)
    0.347
    """
    return math.log1p(min(max(value, 0), 999)) / _LOG_1000


# ---------------------------------------------------------------- card rows

# Environments encode on every step, so this module is compiled (mypyc). Its
# tables and caches are ``Final``: mypyc keeps them in C statics instead of
# looking each one up in the module's dict on every use.
_KEYWORD_BITS: Final = (1, 2, 4, 8, 16, 32)  # bgsim.minions.KEYWORD_BITS, KEYWORDS order
_TRIBE_BITS: Final = tuple(1 << i for i in range(len(TRIBES)))
_ROW: Final = struct.Struct(f"{CARD_WIDTH}f")
_ROW_BYTES: Final = _ROW.size
_CACHE_LIMIT: Final = 200_000  # entries of a cache by value
_ID_CACHE_LIMIT: Final = 4096  # entries of a cache by object id (see _remember)
_E = TypeVar("_E", bound=tuple)


def _remember(cache: dict[int, _E], obj: object, entry: _E) -> None:
    """Keep ``entry`` under ``id(obj)``, clearing ``cache`` when it is full.
    The entry holds ``obj`` first, which keeps it alive, so the id stays its
    own; a lookup checks that ``entry[0] is obj``."""
    if len(cache) >= _ID_CACHE_LIMIT:
        cache.clear()
    cache[id(obj)] = entry


def _card_value(card_id: str) -> float:
    return (_CARD_INDEX[card_id] + 1) / len(CARD_IDS)


_KEYWORD_FLAGS: Final = [tuple(float(bool(k & bit)) for bit in _KEYWORD_BITS) for k in range(64)]
_TRIBE_FLAGS: Final = [tuple(float(bool(t & bit)) for bit in _TRIBE_BITS) for t in range(128)]


def _minion_row(
    card: str,
    golden: bool,
    attack: int,
    health: int,
    keywords: int,
    magnets: int,
    spores: int,
    triple: bool,
) -> bytes:
    info = INFO[card]
    return _ROW.pack(
        1.0,
        1.0,
        0.0,
        _card_value(card),
        info.tier / 6,
        scale_stat(attack),
        scale_stat(health),
        1.0 if golden else 0.0,
        1.0 if triple else 0.0,
        *_KEYWORD_FLAGS[keywords & 63],
        *_TRIBE_FLAGS[info.tribes & 127],
        1.0 if info.deathrattle else 0.0,
        1.0 if info.battlecry else 0.0,
        1.0 if info.magnetic else 0.0,
        min(magnets / 4, 1.0),
        min(spores / 4, 1.0),
    )


_ROWS: Final[dict[HandCard, bytes]] = {}
_ROWS_BY_ID: Final[dict[int, tuple[HandCard, bytes]]] = {}


def _row(card: HandCard) -> bytes:
    """A hand, shop or warband card's row as bytes, built once per card value
    and found by the card object's id first: a zone keeps most of its card
    objects from one action to the next, and an id is cheaper to hash than a
    card."""
    hit = _ROWS_BY_ID.get(id(card))
    if hit is not None and hit[0] is card:
        return hit[1]
    row = _value_row(card)
    _remember(_ROWS_BY_ID, card, (card, row))
    return row


def _value_row(card: HandCard) -> bytes:
    row = _ROWS.get(card)
    if row is None:
        if isinstance(card, MinionCard):
            row = _minion_row(
                card.card,
                card.golden,
                card.attack,
                card.health,
                card.keywords,
                len(card.magnetic),
                card.spores,
                card.triple,
            )
        else:  # a SpellCard (Gold Coin, Triple Reward, a spell a hero power gave)
            values = [0.0] * CARD_WIDTH
            values[0] = values[2] = 1.0
            values[3] = _card_value(card.card)
            values[4] = card.tier / 6
            row = _ROW.pack(*values)
        if len(_ROWS) >= _CACHE_LIMIT:
            _ROWS.clear()
        _ROWS[card] = row
    return row


_COMBAT_ROWS: Final[dict[int, tuple[Any, bytes]]] = {}
# Zero rows: _EMPTY[k] is k empty card rows (up to a warband of 7 or a hand of 10).
_EMPTY: Final = [bytes(k * _ROW_BYTES) for k in range(MAX_HAND + 1)]


def card_row(card: Any) -> np.ndarray:
    """The feature row (:data:`CARD_FEATURES`) of a hand, shop or warband card
    (:class:`~bgsim.minions.MinionCard` or :class:`~bgsim.minions.SpellCard`),
    built once per card value (a read-only array).

    >>> from bgsim.rules import make_minion
    >>> row = card_row(make_minion("BOT_606"))  # Kaboom Bot, tier 2, Deathrattle
    >>> tier, deathrattle = CARD_FEATURES.index("tier"), CARD_FEATURES.index("deathrattle")
    >>> round(float(row[tier]), 3), float(row[deathrattle])
    (0.333, 1.0)
    """
    return np.frombuffer(_value_row(card), dtype=np.float32)


def _combat_row(m: Any) -> bytes:
    """The row of a combat_c.Minion (a warband seen in combat), cached per
    minion object: a recruit minion hands combat the same object every round,
    and hashing one costs more than its id."""
    hit = _COMBAT_ROWS.get(id(m))
    if hit is not None and hit[0] is m:
        return hit[1]
    keywords = (
        m.taunt
        | m.divine_shield << 1
        | m.poisonous << 2
        | m.windfury << 3
        | m.mega_windfury << 4
        | m.reborn << 5
    )
    row = _minion_row(
        m.card, m.golden, m.attack, m.health, keywords, len(m.magnetic), m.living_spores, False
    )
    _remember(_COMBAT_ROWS, m, (m, row))
    return row


def _rewrite_zone(
    view: memoryview,
    at: int,
    zone: tuple[HandCard, ...],
    before: tuple[HandCard, ...],
    rows: list[bytes],
    source: tuple[HandCard, ...] = (),
    source_rows: list[bytes] | None = None,
) -> list[bytes]:
    """The rows of ``zone``'s cards, written at byte ``at`` of ``view`` where
    they differ from the ``rows`` of the zone it was ``before`` the action
    (:func:`_write_rows`). An action moves, adds or removes a card or two and
    keeps the other card objects, so a card's row is mostly found at its own
    slot or next to it (compared by identity) rather than looked up; a card
    that came from another zone (bought, played), in that zone's ``source``
    tuple before the action."""
    out = []
    n = len(before)
    for i, card in enumerate(zone):
        if i < n and before[i] is card:
            out.append(rows[i])
        elif i + 1 < n and before[i + 1] is card:
            out.append(rows[i + 1])
        elif 0 < i <= n and before[i - 1] is card:
            out.append(rows[i - 1])
        else:
            out.append(_moved_row(card, source, source_rows))
    _write_rows(view, at, out, rows)
    return out


def _moved_row(card: HandCard, source: tuple[HandCard, ...], rows: list[bytes] | None) -> bytes:
    if rows is not None:
        for j, other in enumerate(source):
            if other is card:
                return rows[j]
    return _row(card)


def _write_rows(view: memoryview, at: int, rows: list[bytes], before: list[bytes]) -> None:
    """Write a zone's card ``rows`` at byte ``at`` of ``view``, which holds
    the rows ``before`` (and empty slots after them): from the first row that
    is not the same bytes object on, and empty rows where the zone shrank."""
    n = len(rows)
    old = len(before)
    first = 0
    shared = n if n < old else old
    while first < shared and rows[first] is before[first]:
        first += 1
    if first == n and n >= old:
        return
    start = at + first * _ROW_BYTES
    if first == n - 1 and n >= old:  # one row: a card added at the end, or the last one changed
        view[start : start + _ROW_BYTES] = rows[first]
        return
    data = b"".join([*rows[first:], _EMPTY[old - n if old > n else 0]])
    view[start : start + len(data)] = data


_FROZEN: Final[dict[tuple[bool, ...], bytes]] = {}


def _frozen_bytes(frozen: tuple[bool, ...]) -> bytes:
    data = _FROZEN.get(frozen)
    if data is None:
        values = [1.0 if f else 0.0 for f in frozen] + [0.0] * (MAX_SHOP - len(frozen))
        data = _FROZEN[frozen] = struct.pack(f"{MAX_SHOP}f", *values)
    return data


# ---------------------------------------------------------------- the encoder

_F32: Final = struct.Struct("f")
_HERO: Final = struct.Struct(f"{len(HERO_FEATURES)}f")
_HEROES_ROW: Final = struct.Struct(f"{len(HEROES_FEATURES)}f")
_DRAFT_ROW: Final = struct.Struct(f"{len(DRAFT_FEATURES)}f")
_PLAYER: Final = struct.Struct(f"{len(PLAYER_FEATURES)}f")
_NO_HERO_ROW: Final = bytes(_HEROES_ROW.size)
_NO_HERO: Final = bytes(_HERO.size)
_HERO_BYTES: Final[dict[int, tuple[HeroState, bytes]]] = {}
_DRAFT_BYTES: Final[dict[tuple[str, ...], bytes]] = {}
_SECRETS: Final = struct.Struct(f"{len(SECRET_IDS)}f")
_NO_SECRETS: Final = bytes(_SECRETS.size)
_SECRETS_BYTES: Final[dict[tuple[str, ...], bytes]] = {}


def _hero_bytes(hero: HeroState) -> bytes:
    """The own-hero section of a hero state, built once per state object (a
    hero state's equality and hash are Python code; its id is not)."""
    hit = _HERO_BYTES.get(id(hero))
    if hit is not None and hit[0] is hero:
        return hit[1]
    data = _HERO.pack(
        1.0,
        _HERO_INDEX.get(hero.hero, 0.0),
        _POWER_INDEX.get(hero.power, 0.0),
        1.0 if hero.power in PASSIVE else 0.0,
        min(power_cost(hero) / 10, 1.0),
        min(hero.uses / 4, 1.0),
        1.0 if hero.spent else 0.0,
        scale_stat(hero.counter),
    )
    _remember(_HERO_BYTES, hero, (hero, data))
    return data


def _secrets_bytes(hero: HeroState) -> bytes:
    """The secrets section: the Secrets the hero holds in play (The Great
    Akazamzarak's, and a Darkmoon Prize's Ice Block)."""
    held: tuple[str, ...] = combat_hero(hero)[3]
    if not held:
        return _NO_SECRETS
    data = _SECRETS_BYTES.get(held)
    if data is None:
        data = _SECRETS.pack(*(1.0 if s in held else 0.0 for s in SECRET_IDS))
        _SECRETS_BYTES[held] = data
    return data


_HELD: Final = struct.Struct(f"{MAX_SHOP}f")
_WAIT: Final = struct.Struct(f"{MAX_DORMANT}f")
_NOTHING_HELD: Final = bytes(_HELD.size + MAX_DORMANT * _ROW_BYTES + _WAIT.size)


def _held_bytes(hero: HeroState, turn: int) -> bytes:
    """The tickets, dormant and dormant_wait sections: the shop slots the
    power marks (Silas Darkmoon's Darkmoon Tickets) and the minions it holds
    Dormant (Maiev Shadowsong's), with ``min(turns until each awakens, 4) / 4``."""
    marks = shop_marks(hero)
    asleep = dormant(hero)
    if not marks and not asleep:
        return _NOTHING_HELD
    flags = [1.0 if marked else 0.0 for marked in marks[:MAX_SHOP]]
    flags += [0.0] * (MAX_SHOP - len(flags))
    asleep = asleep[:MAX_DORMANT]
    rows = [_row(minion) for minion, _ in asleep]
    rows.append(_EMPTY[MAX_DORMANT - len(asleep)])
    waits = [min(max(awakens - turn, 0), 4) / 4 for _, awakens in asleep]
    waits += [0.0] * (MAX_DORMANT - len(waits))
    return _HELD.pack(*flags) + b"".join(rows) + _WAIT.pack(*waits)


def _draft_bytes(offers: tuple[str, ...]) -> bytes:
    """The draft section for these offers (heroes, hero powers or Secrets)."""
    data = _DRAFT_BYTES.get(offers)
    if data is None:
        db = cards()
        rows = []
        for card_id in offers[:MAX_HERO_OFFERS]:
            hero = card_id in db and db[card_id].type == "hero"
            if hero:
                card = db[card_id]
                power = card.hero_power or ""
                rows.append(
                    _DRAFT_ROW.pack(
                        1.0, _HERO_INDEX.get(card_id, 0.0), _POWER_INDEX.get(power, 0.0), 0.0
                    )
                )
            elif card_id in _POWER_INDEX:
                rows.append(_DRAFT_ROW.pack(1.0, 0.0, _POWER_INDEX[card_id], 0.0))
            else:  # a Secret
                secret = _card_value(card_id) if card_id in _CARD_INDEX else 0.0
                rows.append(_DRAFT_ROW.pack(1.0, 0.0, 0.0, secret))
        rows += [bytes(_DRAFT_ROW.size)] * (MAX_HERO_OFFERS - len(rows))
        data = _DRAFT_BYTES[offers] = b"".join(rows)
    return data


_TABLE: Final = 64  # scalars 0..63 come from tables, anything else is computed


def _scaled_table(scale: float) -> list[bytes]:
    return [_F32.pack(min(x * scale, 1.0)) for x in range(_TABLE)]


def _divided_table(divisor: int) -> list[bytes]:
    return [_F32.pack(min(x / divisor, 1.0)) for x in range(_TABLE)]


def _scaled(x: int, scale: float) -> bytes:
    """``min(max(x * scale, 0), 1)`` as float32 bytes, for numbers beyond the
    tables (the per-action scalars are a join of table entries)."""
    v = x * scale
    return _F32.pack(0.0 if v < 0.0 else (1.0 if v > 1.0 else v))


_ZERO4: Final = _F32.pack(0.0)
_ONE4: Final = _F32.pack(1.0)
_FLAG: Final = (_ZERO4, _ONE4)
_GOLD: Final = _scaled_table(1 / 20)
_TWENTIETH: Final = _GOLD
_QUARTER: Final = _scaled_table(1 / 4)
_THIRD: Final = _scaled_table(1 / 3)
_SHOP_N: Final = _scaled_table(1 / MAX_SHOP)
_HAND_N: Final = _scaled_table(1 / MAX_HAND)
_BOARD_N: Final = _scaled_table(1 / MAX_BOARD)
# x / 30 (turns, ages of warbands seen), x / 7 (their sizes), x / 6 (tiers),
# clipped to 1: the same float32 values as the division.
_THIRTIETHS: Final = _divided_table(30)
_SEVENTHS: Final = _divided_table(MAX_BOARD)
_SIXTHS: Final = _divided_table(6)
_UNSEEN: Final = _ZERO4 * 4
_TURN_N: Final = len(_TURN_FEATURES)


def _seen_facts(board: Any) -> tuple[int, bytes]:
    """A warband seen (a SeenBoard): the turn it was seen, and its size and
    tier features."""
    minions = board.board.minions
    tier = board.board.tier
    size_tier = _SEVENTHS[len(minions)] + (
        _SIXTHS[tier] if 0 <= tier < _TABLE else _F32.pack(tier / 6)
    )
    return board.turn, size_tier


class _Seat:
    """What the encoder last wrote for one observer: the vector itself, the
    values it was built from (compared by identity: they are immutable) and
    the card rows it holds."""

    def __init__(self, size: int, me: int) -> None:
        self.me = me
        self.buf: Any = np.zeros(size, dtype=np.float32)
        self.copy: Any = self.buf.copy  # bound once: a method lookup on every call costs
        self.view: memoryview = self.buf.data.cast("B")
        self.state: PlayerState | None = None
        self.shop: tuple[HandCard, ...] = ()
        self.frozen: tuple[bool, ...] = ()
        self.hand: tuple[HandCard, ...] = ()
        self.board: tuple[HandCard, ...] = ()
        self.discover: tuple[HandCard, ...] = ()
        self.shop_rows: list[bytes] = []
        self.hand_rows: list[bytes] = []
        self.board_rows: list[bytes] = []
        self.discover_rows: list[bytes] = []
        self.frozen_flag = _ZERO4
        self.tier = -1
        self.upgrade_cost = -1
        self.tier_cost = b""
        self.hero: HeroState | None = None
        self.offers: tuple[str, ...] = ()
        self.players: Any = None
        self.seen: Any = None
        # Per seat: the turn each warband of ``seen`` was seen, and its size
        # and tier features (None where nothing was seen).
        self.seen_facts: list[tuple[int, bytes] | None] = []
        self.tribes: Any = None
        self.turn = -1
        self.last_opponent: int | None = -1
        self.lobby: Any = None


class ObservationEncoder:
    """Encodes observations as layout-4 vectors (see the module doc).

    One encoder serves every seat of a lobby and any number of lobbies. It
    keeps, per seat, the last vector it built and the immutable values it
    came from, and rewrites only what changed: after one recruit action, the
    per-action scalars, the rows of each zone from its first changed card on,
    and the standings if they moved. Every call returns a new array.

    >>> from bgsim.lobby import Lobby
    >>> lobby = Lobby(3)
    >>> encoder = ObservationEncoder()
    >>> a = encoder.encode(lobby.observe(5))
    >>> b = encoder.encode_lobby(lobby, 5)  # the same, faster inside an environment
    >>> a.shape == (OBS_SIZE,) and bool((a == b).all())
    True
    """

    def __init__(self, ruleset: Ruleset | None = None) -> None:
        if ruleset is not None and not isinstance(ruleset, Ruleset):
            raise TypeError(f"ruleset must be a bgsim Ruleset or None, got {shown(ruleset)}")
        rules = ruleset.check() if ruleset is not None else load_ruleset()
        self.rules = rules
        n = self.players = rules.lobby.players
        self.layout = layout(n)
        self.size = self.layout["bets"].stop
        self._seats: list[_Seat | None] = [None] * n
        self._hero = float(rules.lobby.hero_health)
        self._max_tier = rules.tavern.max_tier
        self._action_scale = 1 / max(rules.recruit.actions_per_turn, 1)
        self._action_count = _scaled_table(self._action_scale)
        self._health_scale = 1 / rules.lobby.hero_health
        self._health = _scaled_table(self._health_scale)
        self._tier_cost: dict[tuple[int, int], bytes] = {}
        self._public: tuple[Any, list[bytes], list[bytes]] | None = None
        # A standing's rows (players, heroes) per PlayerInfo object (the lobby
        # keeps the objects of players whose standing did not change); per
        # encoder, since the rows depend on its ruleset's numbers.
        self._info_cache: dict[int, tuple[Any, bytes, bytes]] = {}
        lay = self.layout
        # Byte offsets. The self section starts with the per-action scalars,
        # then the turn's, then the ones fixed for a game.
        at = 4 * lay["self"].start
        self._step = slice(at, at + 4 * len(_STEP_FEATURES))
        self._turn_at = slice(self._step.stop, self._step.stop + 4 * _TURN_N)
        self._static = slice(self._turn_at.stop, 4 * lay["self"].stop)
        self._shop_at = 4 * lay["shop"].start
        self._frozen = slice(4 * lay["frozen"].start, 4 * lay["frozen"].stop)
        self._hand_at = 4 * lay["hand"].start
        self._board_at = 4 * lay["board"].start
        self._discover_at = 4 * lay["discover"].start
        self._players = slice(4 * lay["players"].start, 4 * lay["players"].stop)
        self._opponents = slice(4 * lay["opponents"].start, 4 * lay["opponents"].stop)
        self._seen_at = 4 * lay["seen"].start
        self._hero_at = slice(4 * lay["hero"].start, 4 * lay["hero"].stop)
        self._heroes = slice(4 * lay["heroes"].start, 4 * lay["heroes"].stop)
        self._draft = slice(4 * lay["draft"].start, 4 * lay["draft"].stop)
        self._secrets = slice(4 * lay["secrets"].start, 4 * lay["secrets"].stop)
        self._held = slice(4 * lay["tickets"].start, 4 * lay["dormant_wait"].stop)
        self._bets = slice(4 * lay["bets"].start, 4 * lay["bets"].stop)
        self._no_bets = bytes(self._bets.stop - self._bets.start)

    def __reduce__(self) -> tuple:
        # Its ruleset only: the per-seat vectors and caches are rebuilt on use.
        return (ObservationEncoder, (self.rules,))

    def reset(self) -> None:
        """Forget the per-seat vectors (memory only: the encoder compares every
        value it reuses, so a new lobby needs no reset).

        >>> encoder = ObservationEncoder()
        >>> encoder.reset()
        """
        self._seats = [None] * self.players
        self._public = None

    def encode(self, observation: Observation) -> np.ndarray:
        """The observation as a new float32 vector of :attr:`size` values.

        >>> from bgsim.lobby import Lobby
        >>> v = ObservationEncoder().encode(Lobby(1).observe(2))
        >>> float(v[LAYOUT["self"].start + SELF_FEATURES.index("seat_2")])
        1.0
        """
        if not isinstance(observation, Observation):
            raise TypeError(
                f"encode takes an Observation (Lobby.observe), not {type(observation).__name__}"
            )
        o = observation
        if len(o.players) != self.players:
            raise ValueError(self._other_size(len(o.players)))
        c = self._seat(o.player)
        try:
            self._sync(c, o.player, o.turn, o.state, o.players, o.seen, o.tribes, o.last_opponent)
        except BaseException:
            self._forget(o.player)
            raise
        c.lobby = None
        return c.copy()

    def encode_lobby(self, lobby: Any, seat: object) -> np.ndarray:
        """``encode(lobby.observe(seat))``, cheaper: it reads the lobby's own
        values without building an :class:`~bgsim.observation.Observation`.
        Within a turn only the player's own state and the standings change
        what they may know (the warbands seen and the last opponent change in
        the combat round), so the rest is brought up to date once a turn (and
        once the game is over).

        >>> from bgsim.lobby import Lobby
        >>> ObservationEncoder().encode_lobby(Lobby(2), 0).shape
        (2344,)
        """
        if type(lobby) is not Lobby and not isinstance(lobby, Lobby):
            raise TypeError(
                f"encode_lobby takes a Lobby, not {type(lobby).__name__} "
                "(encode takes an Observation)"
            )
        if type(seat) is not int:
            seat = lobby._seat(seat)  # numpy integers; a bool or non-integer is refused
        if not 0 <= seat < self.players:
            raise ValueError(f"no seat {seat} (seats are 0..{self.players - 1})")
        states: list[PlayerState] = lobby._states
        if len(states) != self.players:
            raise ValueError(self._other_size(len(states)))
        c = self._seats[seat]
        turn: int = lobby.turn
        if c is None or c.lobby is not lobby or turn != c.turn or lobby.done:
            c = self._seat(seat)
            try:
                self._sync(
                    c,
                    seat,
                    turn,
                    states[seat],
                    lobby._public or lobby.public_players(),
                    lobby._seen[seat],
                    lobby.tribes,
                    lobby._last_opponent[seat],
                )
            except BaseException:
                self._forget(seat)
                raise
            c.lobby = lobby
            return c.copy()
        # The lobby keeps its standings tuple while nobody's public face
        # changes, and drops it (None) when a round may change them all.
        players = lobby._public
        if players is None:
            players = lobby.public_players()
        if players is not c.players:
            self._write_public(c, seat, players)
        s = states[seat]
        if s is not c.state:
            self._write_state(c, s)
        return c.copy()

    def _other_size(self, players: int) -> str:
        return (
            f"this encoder is for {self.players}-player lobbies (its ruleset's), "
            f"not {players}-player ones: make one with that lobby's ruleset"
        )

    def _forget(self, seat: int) -> None:
        """Drop what a failed write may have left half done."""
        self._seats[seat] = None
        self._public = None

    def _seat(self, seat: int) -> _Seat:
        c = self._seats[seat]
        if c is None:
            c = self._seats[seat] = _Seat(self.size, seat)
        return c

    def _sync(
        self,
        c: _Seat,
        me: int,
        turn: int,
        s: PlayerState,
        players: tuple,
        seen: tuple,
        tribes: tuple[str, ...],
        last: int | None,
    ) -> None:
        """Bring the seat's vector up to what observer ``me`` may know,
        writing what differs."""
        if tribes is not c.tribes:
            c.view[self._static] = self._static_bytes(me, tribes)
            c.tribes = tribes
        round_over = seen is not c.seen or turn != c.turn or last != c.last_opponent
        if round_over or players is not c.players:
            self._write_turn(c, me, turn, s, players, seen, last)
            c.turn = turn
            c.last_opponent = last
        if players is not c.players:
            self._write_public(c, me, players)
        if s is not c.state:
            self._write_state(c, s)

    def _write_state(self, c: _Seat, s: PlayerState) -> None:
        """Write what one recruit action may change: the per-action scalars,
        and the zones, own hero and draft that changed (a zone from its first
        changed card on)."""
        # An action builds new tuples for every zone, mostly equal to the old
        # ones: comparing them (item identity first) is far cheaper than
        # building their rows again.
        view = c.view
        old_shop, old_shop_rows = c.shop, c.shop_rows
        old_hand, old_hand_rows = c.hand, c.hand_rows
        shop = s.shop
        if shop is not c.shop:
            if shop != c.shop:
                c.shop_rows = _rewrite_zone(view, self._shop_at, shop, c.shop, c.shop_rows)
            c.shop = shop
        frozen = s.shop_frozen
        if frozen is not c.frozen:
            if frozen != c.frozen:
                view[self._frozen] = _frozen_bytes(frozen)
                c.frozen_flag = _ONE4 if frozen and all(frozen) else _ZERO4  # s.frozen
            c.frozen = frozen
        hand = s.hand
        if hand is not c.hand:
            if hand != c.hand:
                c.hand_rows = _rewrite_zone(
                    view, self._hand_at, hand, c.hand, c.hand_rows, old_shop, old_shop_rows
                )
            c.hand = hand
        board = s.board
        if board is not c.board:
            if board != c.board:
                c.board_rows = _rewrite_zone(
                    view, self._board_at, board, c.board, c.board_rows, old_hand, old_hand_rows
                )
            c.board = board
        discover = s.discover
        if discover is not c.discover:
            if discover != c.discover:
                c.discover_rows = _rewrite_zone(
                    view, self._discover_at, discover, c.discover, c.discover_rows
                )
            c.discover = discover
        hero = s.hero
        if hero is not c.hero:
            if hero is None:
                view[self._hero_at] = _NO_HERO
                view[self._secrets] = _NO_SECRETS
                view[self._held] = _NOTHING_HELD
                view[self._bets] = self._no_bets
            else:
                view[self._hero_at] = _hero_bytes(hero)
                view[self._secrets] = _secrets_bytes(hero)
                view[self._held] = _held_bytes(hero, c.turn)
                view[self._bets] = self._bets_bytes(hero, c.me)
            c.hero = hero
        offers = s.hero_offers
        if offers is not c.offers:
            if offers != c.offers:
                view[self._draft] = _draft_bytes(offers)
            c.offers = offers
        tier = s.tier
        cost = s.upgrade_cost
        if tier != c.tier or cost != c.upgrade_cost:
            c.tier_cost = self._tier_cost.get((tier, cost)) or self._tier_cost_bytes(tier, cost)
            c.tier = tier
            c.upgrade_cost = cost
        gold = s.gold
        free = s.free_refreshes
        actions = s.actions
        queue = len(s.discover_queue)
        nomi = s.nomi_bonus
        elementals = s.elementals_played
        pirates = s.pirates_bought
        health = s.health
        view[self._step] = b"".join(
            [
                c.tier_cost,
                _GOLD[gold] if 0 <= gold < _TABLE else _scaled(gold, 1 / 20),
                c.frozen_flag,
                _QUARTER[free] if 0 <= free < _TABLE else _scaled(free, 1 / 4),
                self._action_count[actions]
                if 0 <= actions < _TABLE
                else _scaled(actions, self._action_scale),
                _ONE4 if s.ended else _ZERO4,
                _ONE4 if discover else _ZERO4,
                _THIRD[queue] if queue < _TABLE else _ONE4,
                _SHOP_N[len(shop)],
                _HAND_N[len(hand)],
                _BOARD_N[len(board)],
                _TWENTIETH[nomi] if 0 <= nomi < _TABLE else _scaled(nomi, 1 / 20),
                _TWENTIETH[elementals] if elementals < _TABLE else _ONE4,
                _TWENTIETH[pirates] if pirates < _TABLE else _ONE4,
                self._health[health]
                if 0 <= health < _TABLE
                else _scaled(health, self._health_scale),
            ]
        )
        c.state = s

    def _bets_bytes(self, hero: HeroState, me: int) -> bytes:
        """The bets section: per player row (rotated as ``players``), whether
        the observer may bet on that player this turn, and whether it did
        (Lord Barov's wager)."""
        may, bet = bets(hero)
        n = self.players
        values = [0.0] * (2 * n)
        for p in may:
            values[2 * ((p - me) % n)] = 1.0
        if bet >= 0:
            values[2 * ((bet - me) % n) + 1] = 1.0
        return struct.pack(f"{2 * n}f", *values)

    def _tier_cost_bytes(self, tier: int, cost: int) -> bytes:
        """The tier, upgrade_cost and can_upgrade features, cached per pair."""
        top = tier >= self._max_tier
        data = struct.pack(
            "3f", tier / 6, 0.0 if top else min(max(cost / 10, 0.0), 1.0), 0.0 if top else 1.0
        )
        self._tier_cost[tier, cost] = data
        return data

    def _write_turn(
        self,
        c: _Seat,
        me: int,
        turn: int,
        s: PlayerState,
        players: tuple,
        seen: tuple,
        last: int | None,
    ) -> None:
        """Write what changes only in the combat round (or as players are
        knocked out): the turn scalars, the opponents and the warbands seen,
        and the turns until Dormant minions awaken."""
        if s.hero is not None and s.hero is c.hero and turn != c.turn:
            c.view[self._held] = _held_bytes(s.hero, turn)
        c.view[self._turn_at] = b"".join(
            [
                _THIRTIETHS[turn] if 0 <= turn < _TABLE else _ONE4,
                _FLAG[s.won_last_combat],
                _FLAG[players[me].alive],
                _ZERO4 if last is None else _ONE4,
                _ZERO4 if last is None or players[last].alive else _ONE4,
            ]
        )
        n = self.players
        fought = -1 if last is None else last
        before = c.seen
        facts = c.seen_facts
        if seen is not before:
            facts = [None] * n if before is None else list(facts)
            for p in range(n):
                board = seen[p]
                if before is None or board is not before[p]:
                    facts[p] = None if board is None else _seen_facts(board)
            c.seen_facts = facts
        rows: list[bytes] = []
        for k in range(1, n):
            p = (me + k) % n
            rows.append(_ONE4 if p == fought else _ZERO4)
            fact = facts[p]
            if fact is None:
                rows.append(_UNSEEN)
            else:
                age = turn - fact[0]
                rows.append(_ONE4)
                rows.append(_THIRTIETHS[age] if 0 <= age < _TABLE else _ONE4)
                rows.append(fact[1])
        c.view[self._opponents] = b"".join(rows)
        if seen is not c.seen:
            self._write_seen(c, me, seen)
            c.seen = seen

    def _write_seen(self, c: _Seat, me: int, seen: tuple) -> None:
        """Write the warbands seen that differ from the ones the vector holds:
        after a combat round, only the last opponent's."""
        n = self.players
        before = c.seen
        view = c.view
        block = MAX_BOARD * _ROW_BYTES
        for k in range(1, n):
            p = (me + k) % n
            now = seen[p]
            old = None if before is None else before[p]
            if now is old:
                continue
            at = self._seen_at + (k - 1) * block
            if now is None:
                view[at : at + block] = _EMPTY[MAX_BOARD]
            else:
                minions = now.board.minions
                rows = [_combat_row(m) for m in minions]
                rows.append(_EMPTY[MAX_BOARD - len(minions)])
                view[at : at + block] = b"".join(rows)

    def _static_bytes(self, me: int, tribes: tuple[str, ...]) -> bytes:
        """The self features fixed for a whole game: lobby types and seat."""
        values = [1.0 if tribe in tribes else 0.0 for tribe in TRIBES]
        values += [1.0 if i == me % 8 else 0.0 for i in range(8)]
        return struct.pack(f"{len(values)}f", *values)

    def _write_public(self, c: _Seat, me: int, players: tuple) -> None:
        """The players and heroes sections for observer ``me`` (rows rotated
        to start at them)."""
        rows, heroes = self._public_rows(players)
        c.view[self._players] = b"".join(rows[me:] + rows[:me])
        c.view[self._heroes] = b"".join(heroes[me:] + heroes[:me])
        c.players = players

    def _public_rows(self, players: tuple) -> tuple[list[bytes], list[bytes]]:
        """Every player's standing and hero row, in seat order, for one
        standings tuple (each row built once per PlayerInfo object)."""
        hit = self._public
        if hit is not None and hit[0] is players:
            return hit[1], hit[2]
        rows = []
        hero_rows = []
        cache = self._info_cache
        for info in players:
            got = cache.get(id(info))
            if got is None or got[0] is not info:
                row, hero_row = self._info_rows(info)
                got = (info, row, hero_row)
                _remember(cache, info, got)
            rows.append(got[1])
            hero_rows.append(got[2])
        self._public = (players, rows, hero_rows)
        return rows, hero_rows

    def _info_rows(self, info: Any) -> tuple[bytes, bytes]:
        """One player's standing row and hero row."""
        hero = info.hero
        if hero is None:
            hero_row = _NO_HERO_ROW
        else:
            counter = info.counter
            hero_row = _HEROES_ROW.pack(
                1.0,
                _HERO_INDEX.get(hero, 0.0),
                _POWER_INDEX.get(info.hero_power or "", 0.0),
                0.0 if counter is None else 1.0,
                0.0 if counter is None else scale_stat(counter[1]),
            )
        health = info.health / self._hero
        row = _PLAYER.pack(
            1.0 if info.alive else 0.0,
            0.0 if health <= 0.0 else (health if health < 1.0 else 1.0),
            info.tier / 6,
            0.0 if info.placement is None else info.placement / self.players,
        )
        return row, hero_row


def legal_mask(legal_actions: Iterable[Any], dtype: Any = np.int8) -> np.ndarray:
    """A mask over all :data:`~bgsim.actions.NUM_ACTIONS` codes, 1 where an
    action of ``legal_actions`` (actions or codes) sits: what an agent's
    ``act(observation, legal_actions)`` turns into an environment's
    ``action_mask``. Anything that is not an action or a code raises
    :class:`~bgsim.actions.IllegalActionError`.

    >>> from bgsim.actions import EndTurn, Buy
    >>> m = legal_mask([EndTurn(), Buy(2)])
    >>> m.dtype.name, int(m.sum()), int(m[0]), int(m[6])
    ('int8', 2, 1, 1)
    """
    codes: Sequence[int] = [as_action(a).code for a in legal_actions]
    mask = np.zeros(NUM_ACTIONS, dtype=dtype)
    mask[codes] = 1
    return mask
