"""Cards as a player holds them in the recruit phase: minions and spells.

A :class:`MinionCard` is one minion in a shop, a hand or a warband, with its
current BASE stats (no aura bonuses; auras are the combat engine's business)
and the pool copies it stands for (``pool_copies``): a minion bought or
discovered from the shared pool holds its one copy, a golden minion made by a
triple holds the copies of the three cards it was made of, a Mech holds the
copies of the Magnetic cards attached to it, and a card created out of nothing
(tokens, Murozond's and Nat Pagle's cards, Gentle Djinni's copies, Faceless
Taverngoer's transformation, golden copies) holds none. Selling a minion puts
exactly its ``pool_copies`` back into the pool, so the pool stays exact: a
created card never enters the pool.
"""

from __future__ import annotations

import types
from dataclasses import dataclass, field
from typing import Final

from bgsim.cards import TRIBES, UnknownCardError, cards
from combat_c import Minion

KEYWORD_BITS: Final[dict[str, int]] = {
    "taunt": 1,
    "divine_shield": 2,
    "poisonous": 4,
    "windfury": 8,
    "mega_windfury": 16,
    "reborn": 32,
}
TAUNT, DIVINE_SHIELD, POISONOUS, WINDFURY, MEGA_WINDFURY, REBORN = (1, 2, 4, 8, 16, 32)
TRIBE_BITS: Final[dict[str, int]] = {t: 1 << i for i, t in enumerate(TRIBES)}
ALL_TRIBES: Final = (1 << len(TRIBES)) - 1
BEAST, DEMON, DRAGON, ELEMENTAL, MECH, MURLOC, PIRATE = (TRIBE_BITS[t] for t in TRIBES)
MAX_STAT: Final = 1_000_000_000

GOLD_COIN: Final = "TB_BaconShop_HP_008a"
TRIPLE_REWARD: Final = "TB_BaconShop_Triples_01"
MENACE: Final = "BOT_312"
MENACE_GOLDEN: Final = "TB_BaconUps_032"


@dataclass(frozen=True, slots=True)
class CardInfo:
    """The recruit-phase facts of a minion card (normal id), goldens
    included; ``tribes`` and ``keywords`` are bit masks (``bgsim.rules``).

    >>> from bgsim.rules import card_info
    >>> info = card_info("TB_BaconUps_028")  # a golden id finds the normal card: Kaboom Bot
    >>> info.id, info.tier, info.golden_attack
    ('BOT_606', 2, 4)
    """

    id: str
    golden_id: str | None
    name: str
    tier: int
    tribes: int
    attack: int
    health: int
    keywords: int
    golden_attack: int
    golden_health: int
    golden_keywords: int
    deathrattle: bool
    battlecry: bool
    magnetic: bool
    in_pool: bool


def _bits(keywords: frozenset[str]) -> int:
    return sum(bit for k, bit in KEYWORD_BITS.items() if k in keywords)


def _tribe_bits(tribes: frozenset[str]) -> int:
    return sum(TRIBE_BITS[t] for t in tribes)


def _build_info() -> tuple[dict[str, CardInfo], dict[str, tuple[str, bool]]]:
    db = cards()
    info: dict[str, CardInfo] = {}
    ids: dict[str, tuple[str, bool]] = {}
    for card in db:
        if card.golden or card.type != "minion":
            continue
        gold = db.golden(card)
        info[card.id] = CardInfo(
            id=card.id,
            golden_id=gold.id if gold else None,
            name=card.name,
            tier=card.tier,
            tribes=_tribe_bits(card.tribes),
            attack=card.attack,
            health=card.health,
            keywords=_bits(card.keywords),
            golden_attack=gold.attack if gold else card.attack,
            golden_health=gold.health if gold else card.health,
            golden_keywords=_bits(gold.keywords) if gold else _bits(card.keywords),
            deathrattle="deathrattle" in card.keywords,
            battlecry="battlecry" in card.keywords,
            magnetic="magnetic" in card.keywords,
            in_pool=card.in_pool,
        )
        ids[card.id] = (card.id, False)
        if gold:
            ids[gold.id] = (card.id, True)
    return info, ids


INFO, _IDS = _build_info()


def card_info(card_id: str) -> CardInfo:
    """Facts of a minion card by its normal or golden id.

    >>> from bgsim.rules import card_info
    >>> card_info("BOT_606").name
    'Kaboom Bot'
    """
    return INFO[_ids(card_id)[0]]


def _ids(card_id: str) -> tuple[str, bool]:
    """A minion card id's normal id and whether it is the golden one."""
    ids = _IDS.get(card_id)
    if ids is None:
        raise UnknownCardError(card_id, "minion card id")
    return ids


@dataclass(frozen=True, slots=True)
class MinionCard:
    """One minion held by a player (shop, hand or warband): its card (normal
    id), golden flag, base stats (auras not included), keyword bits,
    attached Magnetic cards, Living Spores and the pool copies it stands for.

    >>> from bgsim import Lobby
    >>> minion = Lobby(seed=1).observe(0).shop[0]
    >>> minion.name, minion.tier, minion.golden, minion.pool_copies == (minion.card,)
    ('Micro Mummy', 1, False, True)
    """

    card: str
    golden: bool
    attack: int
    health: int
    keywords: int = 0
    magnetic: tuple[str, ...] = ()
    spores: int = 0
    pool_copies: tuple[str, ...] = ()
    triple: bool = False  # a golden made by a triple: playing it gives a Triple Reward
    enchants: tuple[str, ...] = ()  # recruit-phase enchantments with rules (Gruul Rules)
    _combat: Minion | None = field(default=None, init=False, compare=False, repr=False, hash=False)
    _hash: int = field(default=0, init=False, compare=False, repr=False, hash=False)

    # Written out (the dataclass keeps it) so that mypyc compiles it: see
    # PlayerState.__init__ in bgsim._core.player_state.
    def __init__(
        self,
        card: str,
        golden: bool,
        attack: int,
        health: int,
        keywords: int = 0,
        magnetic: tuple[str, ...] = (),
        spores: int = 0,
        pool_copies: tuple[str, ...] = (),
        triple: bool = False,
        enchants: tuple[str, ...] = (),
    ) -> None:
        if NATIVE:
            self.card = card  # type: ignore[misc]
            self.golden = golden  # type: ignore[misc]
            self.attack = attack  # type: ignore[misc]
            self.health = health  # type: ignore[misc]
            self.keywords = keywords  # type: ignore[misc]
            self.magnetic = magnetic  # type: ignore[misc]
            self.spores = spores  # type: ignore[misc]
            self.pool_copies = pool_copies  # type: ignore[misc]
            self.triple = triple  # type: ignore[misc]
            self.enchants = enchants  # type: ignore[misc]
            self._combat = None  # type: ignore[misc]
            self._hash = 0  # type: ignore[misc]
            return
        values = (
            card,
            golden,
            attack,
            health,
            keywords,
            magnetic,
            spores,
            pool_copies,
            triple,
            enchants,
        )
        set_frozen(self, _CARD_SLOTS, (*values, None, 0))

    def _values(self) -> tuple:
        return (
            self.card,
            self.golden,
            self.attack,
            self.health,
            self.keywords,
            self.magnetic,
            self.spores,
            self.pool_copies,
            self.triple,
            self.enchants,
        )

    def __hash__(self) -> int:
        # Cached: search keys hash the same cards over and over. Kept within
        # 62 bits, which mypyc holds unboxed, and never 0 (not yet computed).
        h = self._hash
        if h == 0:
            h = (hash(self._values()) >> 2) or 1
            if NATIVE:
                self._hash = h  # type: ignore[misc]
            else:
                object.__setattr__(self, "_hash", h)
        return h

    def __eq__(self, other: object) -> bool:
        # Written out so that mypyc compiles it (the generated one stays Python).
        if self is other:
            return True
        if not isinstance(other, MinionCard):
            return NotImplemented
        return (
            self.card == other.card
            and self.golden == other.golden
            and self.attack == other.attack
            and self.health == other.health
            and self.keywords == other.keywords
            and self.magnetic == other.magnetic
            and self.spores == other.spores
            and self.pool_copies == other.pool_copies
            and self.triple == other.triple
            and self.enchants == other.enchants
        )

    def __reduce__(self) -> tuple:
        # Pickle the values only: a cached string hash is per process.
        return (MinionCard, self._values())

    @property
    def info(self) -> CardInfo:
        return INFO[self.card]

    @property
    def tier(self) -> int:
        return INFO[self.card].tier

    @property
    def tribes(self) -> int:
        return INFO[self.card].tribes

    @property
    def name(self) -> str:
        return INFO[self.card].name

    @property
    def card_id(self) -> str:
        """The id the game shows: the golden id for a golden minion."""
        info = INFO[self.card]
        return info.golden_id if self.golden and info.golden_id else self.card

    def has(self, keyword: str) -> bool:
        return bool(self.keywords & KEYWORD_BITS[keyword])

    def is_tribe(self, tribe: str) -> bool:
        return bool(INFO[self.card].tribes & TRIBE_BITS[tribe])

    def buffed(self, attack: int, health: int) -> MinionCard:
        """This minion with +attack/+health (attack never below 0)."""
        atk = min(max(self.attack + attack, 0), MAX_STAT)
        hp = min(max(self.health + health, 1), MAX_STAT)
        return MinionCard(
            self.card,
            self.golden,
            atk,
            hp,
            self.keywords,
            self.magnetic,
            self.spores,
            self.pool_copies,
            self.triple,
            self.enchants,
        )

    def with_keywords(self, bits: int) -> MinionCard:
        kw = self.keywords | bits
        if kw & MEGA_WINDFURY:
            kw &= ~WINDFURY
        return MinionCard(
            self.card,
            self.golden,
            self.attack,
            self.health,
            kw,
            self.magnetic,
            self.spores,
            self.pool_copies,
            self.triple,
            self.enchants,
        )

    def combat(self) -> Minion:
        """This minion as the combat engine takes it (built once)."""
        m = self._combat
        if m is None:
            kw = self.keywords
            m = Minion.trusted(
                self.card,
                self.attack,
                self.health,
                self.golden,
                bool(kw & TAUNT),
                bool(kw & DIVINE_SHIELD),
                bool(kw & POISONOUS),
                bool(kw & WINDFURY),
                bool(kw & MEGA_WINDFURY),
                bool(kw & REBORN),
                self.magnetic,
                self.spores,
            )
            object.__setattr__(self, "_combat", m)
        return m

    def __str__(self) -> str:
        gold = "golden " if self.golden else ""
        return f"{gold}{self.name} {self.attack}/{self.health}"


_CARD_SLOTS: Final = tuple(MinionCard.__dataclass_fields__)  # the caches last


def set_frozen(obj: object, names: tuple[str, ...], values: tuple) -> None:
    """Set a frozen dataclass's fields past its guard: what the written-out
    ``__init__`` methods do as pure Python (see :data:`NATIVE`)."""
    for name, value in zip(names, values, strict=True):
        object.__setattr__(obj, name, value)


def _probe() -> None:
    """A function to look at: compiled by mypyc, it is no Python function."""


# Whether mypyc compiled this module, and so every module bgsim.compiled lists
# (all or none): frozen values are then built with plain C stores, which the
# frozen guard (a Python __setattr__) never sees; as pure Python they go
# through object.__setattr__.
NATIVE: Final = not isinstance(_probe, types.FunctionType)


def make_minion(card_id: str, golden: bool = False, from_pool: bool = False) -> MinionCard:
    """A fresh minion of a card (normal or golden id) with the card's own stats.

    >>> str(make_minion("BOT_606", golden=True))
    'golden Kaboom Bot 4/4'


    ``from_pool`` marks a normal card taken from the shared pool (it holds its
    copy); anything else is a created card holding no copies.
    """
    normal, is_golden = _ids(card_id)
    info = INFO[normal]
    golden = (golden or is_golden) and info.golden_id is not None
    if golden:
        return MinionCard(
            normal, True, info.golden_attack, info.golden_health, info.golden_keywords
        )
    copies = (normal,) if from_pool else ()
    return MinionCard(normal, False, info.attack, info.health, info.keywords, pool_copies=copies)


_POOL_MINIONS: Final[dict[str, MinionCard]] = {}


def pool_minion(card_id: str) -> MinionCard:
    """A fresh pool copy of a normal pool card (one shared immutable value per
    card, as shops hold them).

    >>> pool_minion("BOT_606") is pool_minion("BOT_606")
    True
    """
    m = _POOL_MINIONS.get(card_id)
    if m is None:
        m = _POOL_MINIONS[card_id] = make_minion(card_id, from_pool=True)
    return m


@dataclass(frozen=True, slots=True)
class SpellCard:
    """A spell in hand: a Gold Coin, or a Triple Reward that discovers from ``tier``.

    >>> str(SpellCard(TRIPLE_REWARD, 3))
    'Triple Reward (tier 3)'
    """

    card: str
    tier: int = 0

    def __reduce__(self) -> tuple:
        # A compiled frozen class unpickles through its __init__.
        return (SpellCard, (self.card, self.tier))

    @property
    def name(self) -> str:
        return cards()[self.card].name

    @property
    def card_id(self) -> str:
        return self.card

    @property
    def pool_copies(self) -> tuple[str, ...]:
        return ()

    def __str__(self) -> str:
        return f"{self.name} (tier {self.tier})" if self.card == TRIPLE_REWARD else self.name


HandCard = MinionCard | SpellCard
