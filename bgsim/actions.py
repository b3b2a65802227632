"""Recruit-phase actions, their readable form and their stable integer codes.

Integer encoding (frozen: ``tests/test_actions.py`` pins exact codes; never
renumber, only append after ``NUM_ACTIONS``)::

    code      action
    0         EndTurn()
    1         Refresh()
    2         Freeze()
    3         Upgrade()
    4..10     Buy(slot)          slot = code - 4            (shop slot 0..6)
    11..17    Sell(slot)         slot = code - 11           (warband slot 0..6)
    18..20    Choose(option)     option = code - 18         (discover option 0..2)
    21..62    Move(src, dst)     code = 21 + 6*src + (dst if dst < src else dst - 1)
                                 (src, dst 0..6, src != dst)
    63..702   Play(hand, pos, target)
                                 code = 63 + 64*hand + 8*p + t, with hand 0..9,
                                 p = 0 for pos=None else pos + 1 (pos 0..6),
                                 t = 0 for target=None else target + 1 (target 0..6)
    703..706  ChooseHero(option) option = code - 703        (draft option 0..3)
    707       HeroPower()
    708..714  HeroPower(target=i)                           (warband slot 0..6)
    715..721  HeroPower(shop=j)                             (shop slot 0..6)
    722..729  HeroPower(player=p)                           (player 0..7)
    NUM_ACTIONS = 730

Meaning of the fields:

- ``Buy(slot)``: buy the minion in that shop slot (to hand).
- ``Sell(slot)``: sell the warband minion in that slot.
- ``Move(src, dst)``: take the warband minion at ``src`` out and put it back so
  it ends up at index ``dst``.
- ``Play(hand, pos, target)``: play hand card ``hand``.
  - A minion goes into the warband at index ``pos`` (0..len(warband)); the
    minions at ``pos`` and to its right move one slot right.
  - ``target`` is the Battlecry target, counted in the warband (or shop) as it
    is BEFORE the minion is placed. What it points at depends on the card
    (see ``recruit_effects.TARGETS``): a friendly minion of a minion type
    (Rockpool Hunter and Toxfin: Murloc; Nathrezim Overseer and Soul Devourer:
    Demon; Houndmaster and Virmen Sensei: Beast; Screwjank Clunker: Mech;
    Twilight Emissary: Dragon; Southsea Strongarm: Pirate; Amalgadon counts as
    every type) or, for Faceless Taverngoer, a shop slot. As in Hearthstone a
    targeted Battlecry must be given a target when one exists and takes
    ``None`` when none exists.
  - A Magnetic minion (Replicating Menace, Annoy-o-Module) either goes into the
    warband like any minion (``pos`` set, ``target=None``) or attaches to the
    friendly Mech at warband index ``target`` (``pos=None``).
  - A spell (Gold Coin, Triple Reward) takes ``pos=None, target=None``.
  - A spell (Gold Coin, Triple Reward, Recruitment Map) takes
    ``pos=None, target=None``; a spell aimed at a friendly minion (Bananas)
    takes ``pos=None`` and the minion's warband slot as ``target``.
- ``Choose(option)``: take that option of the pending Discover.
- ``ChooseHero(option)``: take that option of the heroes offered before turn 1
  (or, for Sir Finley, of the hero powers he discovers; for The Great
  Akazamzarak, of the Secrets his power discovers).
- ``HeroPower(...)``: use the hero power, aimed at nothing, a friendly minion
  (``target``), a shop minion (``shop``) or a player (``player``), as its text
  says.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass
from typing import Any, SupportsIndex, cast

from combat_c.guarded import shown

MAX_SHOP = 7
MAX_BOARD = 7
MAX_HAND = 10
MAX_DISCOVER = 3

_BUY = 4
_SELL = 11
_CHOOSE = 18
_MOVE = 21
_PLAY = 63
MAX_HERO_OFFERS = 4
MAX_PLAYERS = 8
_CHOOSE_HERO = _PLAY + MAX_HAND * 64
_POWER = _CHOOSE_HERO + MAX_HERO_OFFERS
_POWER_MINION = _POWER + 1
_POWER_SHOP = _POWER_MINION + MAX_BOARD
_POWER_PLAYER = _POWER_SHOP + MAX_SHOP
NUM_ACTIONS = _POWER_PLAYER + MAX_PLAYERS


class IllegalActionError(ValueError):
    """An action the acting player may not take now; the message says why.

    >>> from bgsim import Lobby, Sell
    >>> try:
    ...     Lobby(seed=1).apply(0, Sell(0))
    ... except IllegalActionError as error:
    ...     print(error)
    Sell(0): no minion in warband slot 0 (the warband has 0)
    """


@dataclass(frozen=True, slots=True)
class EndTurn:
    """End the recruit turn (the last player to end it starts the combat round).

    >>> EndTurn().code
    0
    """

    def __repr__(self) -> str:
        return "EndTurn()"

    @property
    def code(self) -> int:
        return 0


@dataclass(frozen=True, slots=True)
class Refresh:
    """Refresh the tavern: 1 gold (free while Refreshing Anomaly's refreshes
    last); frozen minions are replaced too.

    >>> Refresh().code
    1
    """

    def __repr__(self) -> str:
        return "Refresh()"

    @property
    def code(self) -> int:
        return 1


@dataclass(frozen=True, slots=True)
class Freeze:
    """Freeze every shop minion (kept at the next turn's refresh), or thaw
    them all when all are frozen. Free.

    >>> Freeze().code
    2
    """

    def __repr__(self) -> str:
        return "Freeze()"

    @property
    def code(self) -> int:
        return 2


@dataclass(frozen=True, slots=True)
class Upgrade:
    """Upgrade the tavern to the next tier at its current cost.

    >>> Upgrade().code
    3
    """

    def __repr__(self) -> str:
        return "Upgrade()"

    @property
    def code(self) -> int:
        return 3


@dataclass(frozen=True, slots=True)
class Buy:
    """Buy the minion in shop slot ``slot`` (0-based) into the hand.

    >>> Buy(2), Buy(2).code
    (Buy(2), 6)
    """

    slot: int

    def __repr__(self) -> str:
        return f"Buy({self.slot})"

    @property
    def code(self) -> int:
        return _BUY + self.slot


@dataclass(frozen=True, slots=True)
class Sell:
    """Sell the warband minion in slot ``slot`` (0-based).

    >>> Sell(0).code
    11
    """

    slot: int

    def __repr__(self) -> str:
        return f"Sell({self.slot})"

    @property
    def code(self) -> int:
        return _SELL + self.slot


@dataclass(frozen=True, slots=True)
class Choose:
    """Take option ``option`` (0-based) of the pending Discover.

    >>> Choose(1).code
    19
    """

    option: int

    def __repr__(self) -> str:
        return f"Choose({self.option})"

    @property
    def code(self) -> int:
        return _CHOOSE + self.option


@dataclass(frozen=True, slots=True)
class Move:
    """Take the warband minion at ``src`` out and put it back at ``dst``.

    >>> Move(0, 3), Move(0, 3).code
    (Move(0, 3), 23)
    """

    src: int
    dst: int

    def __repr__(self) -> str:
        return f"Move({self.src}, {self.dst})"

    @property
    def code(self) -> int:
        return _MOVE + 6 * self.src + (self.dst if self.dst < self.src else self.dst - 1)


@dataclass(frozen=True, slots=True)
class Play:
    """Play hand card ``hand``: a minion into warband position ``pos`` (its
    Battlecry aimed at ``target``), a Magnetic minion onto the Mech at
    ``target`` (``pos=None``), a spell with neither (see the module doc).

    >>> Play(0, pos=1), Play(hand=2, pos=0, target=3).code
    (Play(hand=0, pos=1), 203)
    """

    hand: int
    pos: int | None = None
    target: int | None = None

    def __repr__(self) -> str:
        parts = [f"hand={self.hand}"]
        if self.pos is not None:
            parts.append(f"pos={self.pos}")
        if self.target is not None:
            parts.append(f"target={self.target}")
        return f"Play({', '.join(parts)})"

    @property
    def code(self) -> int:
        p = 0 if self.pos is None else self.pos + 1
        t = 0 if self.target is None else self.target + 1
        return _PLAY + 64 * self.hand + 8 * p + t


@dataclass(frozen=True, slots=True)
class ChooseHero:
    """Take option ``option`` (0-based) of the heroes offered before turn 1,
    of the hero powers Sir Finley discovers or of the Secrets The Great
    Akazamzarak's power discovers.

    >>> ChooseHero(1), ChooseHero(1).code
    (ChooseHero(1), 704)
    """

    option: int

    def __repr__(self) -> str:
        return f"ChooseHero({self.option})"

    @property
    def code(self) -> int:
        return _CHOOSE_HERO + self.option


@dataclass(frozen=True, slots=True)
class HeroPower:
    """Use the hero power: aimed at nothing, at the friendly minion in warband
    slot ``target``, at the minion in shop slot ``shop``, or at ``player``
    (at most one of the three), as the power's text says.

    >>> HeroPower(), HeroPower(target=2).code, HeroPower(shop=0).code, HeroPower(player=3).code
    (HeroPower(), 710, 715, 725)
    """

    target: int | None = None
    shop: int | None = None
    player: int | None = None

    def __repr__(self) -> str:
        aims = (("target", self.target), ("shop", self.shop), ("player", self.player))
        return f"HeroPower({', '.join(f'{n}={v}' for n, v in aims if v is not None)})"

    @property
    def code(self) -> int:
        if self.target is not None:
            return _POWER_MINION + self.target
        if self.shop is not None:
            return _POWER_SHOP + self.shop
        if self.player is not None:
            return _POWER_PLAYER + self.player
        return _POWER


Action = (
    EndTurn
    | Refresh
    | Freeze
    | Upgrade
    | Buy
    | Sell
    | Choose
    | Move
    | Play
    | ChooseHero
    | HeroPower
)
"""Any recruit-phase action (a union of the eleven action types)."""


def _decode(code: int) -> Action:
    if code == 0:
        return EndTurn()
    if code == 1:
        return Refresh()
    if code == 2:
        return Freeze()
    if code == 3:
        return Upgrade()
    if code < _SELL:
        return Buy(code - _BUY)
    if code < _CHOOSE:
        return Sell(code - _SELL)
    if code < _MOVE:
        return Choose(code - _CHOOSE)
    if code < _PLAY:
        src, k = divmod(code - _MOVE, 6)
        return Move(src, k if k < src else k + 1)
    if code < _CHOOSE_HERO:
        hand, rest = divmod(code - _PLAY, 64)
        p, t = divmod(rest, 8)
        return Play(hand, None if p == 0 else p - 1, None if t == 0 else t - 1)
    if code < _POWER:
        return ChooseHero(code - _CHOOSE_HERO)
    if code == _POWER:
        return HeroPower()
    if code < _POWER_SHOP:
        return HeroPower(target=code - _POWER_MINION)
    if code < _POWER_PLAYER:
        return HeroPower(shop=code - _POWER_SHOP)
    return HeroPower(player=code - _POWER_PLAYER)


ACTIONS: tuple[Action, ...] = tuple(_decode(c) for c in range(NUM_ACTIONS))
"""Every action by its code (shared instances: compare with ``==``)."""

END_TURN, REFRESH, FREEZE, UPGRADE = ACTIONS[:4]
_ACTION_TYPES = (
    EndTurn,
    Refresh,
    Freeze,
    Upgrade,
    Buy,
    Sell,
    Choose,
    Move,
    Play,
    ChooseHero,
    HeroPower,
)


def decode(code: int) -> Action:
    """The action with this integer code (any integer type, ``numpy.int64``
    included).

    >>> decode(0), decode(4), decode(63 + 8)
    (EndTurn(), Buy(0), Play(hand=0, pos=0))
    """
    if type(code) is int:
        if 0 <= code < NUM_ACTIONS:
            return ACTIONS[code]
    elif not isinstance(code, bool):
        try:
            index = operator.index(cast(SupportsIndex, code))
        except TypeError:
            index = -1
        if 0 <= index < NUM_ACTIONS:
            return ACTIONS[index]
    raise IllegalActionError(
        f"action code must be an integer 0..{NUM_ACTIONS - 1}, not {shown(code, 60)}"
    )


def as_action(action: object) -> Action:
    """The action ``action`` stands for: an action itself (its fields may be
    any integer type, ``numpy.int64`` included), or the action with that
    integer code (any integer type). Anything else, and an action whose
    fields are not slot numbers of the action space (``Buy(7)``,
    ``Buy(True)``, ``Play(hand=1.5)``), raises :class:`IllegalActionError`.

    >>> import numpy as np
    >>> as_action(np.int64(4)), as_action(Buy(0))
    (Buy(0), Buy(0))
    """
    if type(action) is int:
        return decode(action)
    if isinstance(action, _ACTION_TYPES):
        return _canonical(action)
    if not isinstance(action, bool):
        try:
            code = operator.index(cast(SupportsIndex, action))
        except TypeError:
            pass
        else:
            return decode(code)
    raise IllegalActionError(
        f"an action or an integer code, not {type(action).__name__} {shown(action, 60)}"
    )


def encode(action: Action) -> int:
    """The integer code of an action (what ``Lobby.action_mask`` indexes); an
    action outside the action space raises :class:`IllegalActionError`.

    >>> encode(Buy(1)), decode(encode(Buy(1)))
    (5, Buy(1))
    >>> encode(Buy(7))
    Traceback (most recent call last):
    ...
    bgsim.actions.IllegalActionError: Buy(7) is outside the action space (shop slots are 0..6)
    """
    if not isinstance(action, _ACTION_TYPES):
        raise TypeError(
            f"encode takes an action such as Buy(0), not {type(action).__name__} "
            f"{shown(action, 60)} (as_action turns a code into one)"
        )
    return _canonical(action).code


_INTERNED = frozenset(map(id, ACTIONS))
# Per action type: its fields, whether each may be None, and what it counts.
_FIELDS: dict[type, tuple[tuple[str, bool, str], ...]] = {
    EndTurn: (),
    Refresh: (),
    Freeze: (),
    Upgrade: (),
    Buy: (("slot", False, f"shop slots are 0..{MAX_SHOP - 1}"),),
    Sell: (("slot", False, f"warband slots are 0..{MAX_BOARD - 1}"),),
    Choose: (("option", False, f"Discover options are 0..{MAX_DISCOVER - 1}"),),
    Move: (
        ("src", False, f"warband slots are 0..{MAX_BOARD - 1}, src and dst differ"),
        ("dst", False, f"warband slots are 0..{MAX_BOARD - 1}, src and dst differ"),
    ),
    Play: (
        ("hand", False, f"hand slots are 0..{MAX_HAND - 1}"),
        ("pos", True, f"positions are 0..{MAX_BOARD - 1}"),
        ("target", True, f"targets are 0..{MAX_BOARD - 1}"),
    ),
    ChooseHero: (("option", False, f"options are 0..{MAX_HERO_OFFERS - 1}"),),
    HeroPower: (
        ("target", True, f"warband slots are 0..{MAX_BOARD - 1}"),
        ("shop", True, f"shop slots are 0..{MAX_SHOP - 1}"),
        ("player", True, f"players are 0..{MAX_PLAYERS - 1}"),
    ),
}


def _canonical(action: Action) -> Action:
    """The shared instance of :data:`ACTIONS` equal to ``action``, its fields
    read as integers (numpy integers too; bools, floats and None where a
    slot is needed are refused), or IllegalActionError."""
    if id(action) in _INTERNED:
        return action
    kinds = [t for t in _ACTION_TYPES if isinstance(action, t)]
    if len(kinds) > 1:
        names = " and ".join(t.__name__ for t in kinds)
        raise IllegalActionError(f"an action of two kinds ({names}) is no action")
    kind = kinds[0]
    values: list[int | None] = []
    for name, optional, _ in _FIELDS[kind]:
        try:
            value = getattr(action, name)
        except Exception:  # an odd subclass: its field cannot even be read
            raise IllegalActionError(f"{kind.__name__}: its field {name} cannot be read") from None
        if value is None and optional:
            values.append(None)
            continue
        try:
            if isinstance(value, bool):
                raise TypeError
            values.append(operator.index(value))
        except Exception:
            raise IllegalActionError(
                f"{kind.__name__}: {name} must be an integer slot number, not "
                f"{type(value).__name__} {shown(value, 40)}"
            ) from None
    plain: Action = cast(Any, kind)(*values)
    if kind is HeroPower and sum(v is not None for v in values) > 1:
        raise IllegalActionError(f"{kind.__name__} aims at one thing at most, got {plain!r}")
    code = plain.code
    if 0 <= code < NUM_ACTIONS and ACTIONS[code] == plain:
        return ACTIONS[code]
    where = "; ".join(
        dict.fromkeys(
            rule for (_, _, rule), v in zip(_FIELDS[kind], values, strict=True) if v is not None
        )
    )
    raise IllegalActionError(f"{plain!r} is outside the action space ({where})")


def play_code(hand: int, pos: int | None, target: int | None) -> int:
    p = 0 if pos is None else pos + 1
    t = 0 if target is None else target + 1
    return _PLAY + 64 * hand + 8 * p + t


def move_code(src: int, dst: int) -> int:
    return _MOVE + 6 * src + (dst if dst < src else dst - 1)


BUY_BASE = _BUY
SELL_BASE = _SELL
CHOOSE_BASE = _CHOOSE
CHOOSE_HERO_BASE = _CHOOSE_HERO
POWER_BASE = _POWER
POWER_MINION_BASE = _POWER_MINION
POWER_SHOP_BASE = _POWER_SHOP
POWER_PLAYER_BASE = _POWER_PLAYER
