"""Card facts of the pinned patch, read from ``data/cards.json``."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from bgsim.resources import data_path
from combat_c.guarded import shown

TRIBES = ("beast", "demon", "dragon", "elemental", "mech", "murloc", "pirate")


class UnknownCardError(LookupError):
    """A card id that is not in the card data.

    >>> try:
    ...     cards()["NOPE_001"]
    ... except UnknownCardError as error:
    ...     print(error)
    unknown card id 'NOPE_001'
    """

    def __init__(self, card_id: object, what: str = "card id") -> None:
        super().__init__(f"unknown {what} {card_id!r}")
        self.card_id = card_id

    def __str__(self) -> str:
        return self.args[0]


@dataclass(frozen=True, slots=True)
class Card:
    """One card of the pinned patch's data: a pool minion, its golden
    version, a token, a spell, a hero or a hero power.

    >>> card = cards().by_name("Kaboom Bot")
    >>> card.id, card.tier, sorted(card.tribes), card.attack, card.health
    ('BOT_606', 2, ['mech'], 2, 2)
    """

    id: str
    dbf_id: int
    name: str
    type: str
    tier: int
    tribes: frozenset[str]
    attack: int
    health: int
    keywords: frozenset[str]
    text: str
    legendary: bool
    golden: bool
    golden_id: str | None
    normal_id: str | None
    in_pool: bool
    kind: str
    # Heroes, hero powers and the cards hero powers create (kind "hero",
    # "hero_power", "hero_token") carry some of these; pool cards and tokens
    # keep the defaults. cost: Gold to use a hero power or play a spell;
    # hero_power: a hero's starting power; hero: the hero a power belongs to;
    # draftable: a hero lobbies offer; passive: a power with nothing to activate;
    # prize_turn: a Darkmoon Prize's group (1-4); secret: a Battlegrounds Secret.
    cost: int | None = None
    hero_power: str | None = None
    hero: str | None = None
    draftable: bool = False
    passive: bool = False
    prize_turn: int = 0
    secret: bool = False

    def has(self, keyword: str) -> bool:
        return keyword in self.keywords

    def is_tribe(self, tribe: str) -> bool:
        return tribe in self.tribes

    @property
    def is_minion(self) -> bool:
        return self.type == "minion"

    def __str__(self) -> str:
        gold = "golden " if self.golden else ""
        return f"{gold}{self.name} ({self.attack}/{self.health})"


class CardDB:
    """All cards by id, with the pool, goldens and tokens linked together.

    >>> db = cards()
    >>> len(db.pool), db.golden("BOT_606").attack
    (127, 4)
    """

    def __init__(self, doc: dict) -> None:
        self.build: int = doc["build"]
        self.created_by: dict[str, tuple[tuple[str, str | None], ...]] = {
            k: tuple((a, b) for a, b in v) for k, v in doc["created_by"].items()
        }
        self._cards: dict[str, Card] = {}
        for raw in doc["cards"]:
            card = Card(
                id=raw["id"],
                dbf_id=raw["dbfId"],
                name=raw["name"],
                type=raw["type"],
                tier=raw["tier"],
                tribes=frozenset(raw["tribes"]),
                attack=raw["attack"],
                health=raw["health"],
                keywords=frozenset(raw["keywords"]),
                text=raw["text"],
                legendary=raw["legendary"],
                golden=raw["golden"],
                golden_id=raw["golden_id"],
                normal_id=raw["normal_id"],
                in_pool=raw["in_pool"],
                kind=raw["kind"],
                cost=raw.get("cost"),
                hero_power=raw.get("hero_power"),
                hero=raw.get("hero"),
                draftable=raw.get("draftable", False),
                passive=raw.get("passive", False),
                prize_turn=raw.get("prize_turn", 0),
                secret=raw.get("secret", False),
            )
            self._cards[card.id] = card
        self.pool: tuple[Card, ...] = tuple(c for c in self._cards.values() if c.in_pool)
        # The heroes a lobby can draft (54 at this build), sorted by name.
        self.heroes: tuple[Card, ...] = tuple(
            c for c in self._cards.values() if c.type == "hero" and c.draftable
        )

    def __getitem__(self, card_id: str) -> Card:
        try:
            return self._cards[card_id]
        except (KeyError, TypeError):
            raise UnknownCardError(card_id) from None

    def __contains__(self, card_id: object) -> bool:
        return card_id in self._cards

    def is_hero(self, card_id: object) -> bool:
        """Whether ``card_id`` is a hero card (any, not only the draftable).

        >>> cards().is_hero("TB_BaconShop_HERO_40"), cards().is_hero("BGS_004")
        (True, False)
        """
        card = self._cards.get(card_id) if isinstance(card_id, str) else None
        return card is not None and card.type == "hero"

    def __iter__(self) -> Iterator[Card]:
        return iter(self._cards.values())

    def __len__(self) -> int:
        return len(self._cards)

    def _card(self, card: object) -> Card:
        if isinstance(card, str):
            return self[card]
        if isinstance(card, Card):
            return card
        raise TypeError(f"a card or a card id, not {type(card).__name__} {shown(card, 60)}")

    def golden(self, card: Card | str) -> Card | None:
        """The golden version of a normal card (a card or its id), or None if
        the game has none.

        >>> cards().golden("BGS_004").id
        'TB_BaconUps_079'
        """
        card = self._card(card)
        if card.golden:
            return card
        return self._cards[card.golden_id] if card.golden_id is not None else None

    def normal(self, card: Card | str) -> Card:
        """The normal version of a card (a card or its id; a normal card is
        its own).

        >>> cards().normal("TB_BaconUps_079").id
        'BGS_004'
        """
        card = self._card(card)
        if card.golden and card.normal_id is not None:
            return self._cards[card.normal_id]
        return card

    def pool_tier(self, tier: int) -> tuple[Card, ...]:
        """The pool's minions of tavern tier ``tier`` (none for a tier it lacks).

        >>> len(cards().pool_tier(1)) > 0, cards().pool_tier(9)
        (True, ())
        """
        return tuple(c for c in self.pool if c.tier == tier)

    def by_name(self, name: str) -> Card:
        """The normal pool card or token with this exact name.

        >>> cards().by_name("Wrath Weaver").id
        'BGS_004'
        """
        for card in self._cards.values():
            if card.name == name and not card.golden and card.kind in ("pool", "token"):
                return card
        raise UnknownCardError(name, "pool card or token name")

    def hero_power(self, hero: Card | str) -> Card:
        """The hero power a hero (a card or its id) starts with.

        >>> cards().hero_power("TB_BaconShop_HERO_40").type
        'hero_power'
        """
        hero = self._card(hero)
        if hero.hero_power is None:
            raise ValueError(f"{hero.id} is not a hero")
        return self._cards[hero.hero_power]


def load_cards(path: str | Path | None = None) -> CardDB:
    path = Path(path) if path is not None else data_path("cards.json")
    return CardDB(json.loads(path.read_text(encoding="utf-8")))


@cache
def cards() -> CardDB:
    """The shipped card database, read from ``data/cards.json`` once.

    >>> cards()["BGS_004"].name
    'Wrath Weaver'
    """
    return load_cards()
