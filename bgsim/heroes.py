"""The heroes of the pinned patch: their powers and what a lobby offers.

Facts come from ``data/cards.json`` (hero and hero power cards of
``CardDefs.xml``) and ``data/heroes.toml`` (what each power does at this
patch, with sources). The behaviour itself is the hero power registry of the
rules; this module is what tools and agents read about heroes.

>>> heroes()["TB_BaconShop_HERO_34"].health  # Patchwerk
55
>>> heroes()["TB_BaconShop_HERO_38"].power.name
'Bananarama'
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache

from bgsim.cards import cards
from bgsim.resources import data_path


@dataclass(frozen=True, slots=True)
class PowerInfo:
    """A hero power as the card data and ``data/heroes.toml`` describe it.

    >>> heroes()["TB_BaconShop_HERO_15"].power.target  # George the Fallen
    'friendly minion'
    """

    id: str
    name: str
    cost: int
    text: str
    passive: bool
    target: str
    uses: str


@dataclass(frozen=True, slots=True)
class HeroInfo:
    """A draftable hero: its card, starting Health and hero power.

    >>> hero = heroes()["TB_BaconShop_HERO_49"]
    >>> hero.name, hero.power.cost, hero.power.passive
    ('Millhouse Manastorm', 0, True)
    """

    id: str
    name: str
    health: int
    power: PowerInfo
    tribe: str | None  # offered only in lobbies with this minion type


@cache
def _sheet() -> dict:
    with data_path("heroes.toml").open("rb") as f:
        return tomllib.load(f)


@cache
def heroes() -> dict[str, HeroInfo]:
    """Every draftable hero by card id, in the card data's order.

    >>> len(heroes())
    54
    """
    db = cards()
    sheet = _sheet()
    subset = sheet["draft"]["tribe_subset"]
    out = {}
    for card in db.heroes:
        power = db.hero_power(card)
        row = sheet[card.id]
        out[card.id] = HeroInfo(
            id=card.id,
            name=card.name,
            health=card.health,
            power=PowerInfo(
                id=power.id,
                name=power.name,
                cost=power.cost or 0,
                text=power.text,
                passive=power.passive,
                target=row["targets"],
                uses=row["uses"],
            ),
            tribe=subset.get(card.id),
        )
    return out


def hero_pool(tribes: tuple[str, ...]) -> tuple[str, ...]:
    """The heroes a lobby with these minion types may offer (a hero tied to a
    minion type is offered only where that type is in the lobby).

    >>> "TB_BaconShop_HERO_18" in hero_pool(("beast", "demon", "dragon", "mech", "murloc"))
    False
    """
    return tuple(h.id for h in heroes().values() if h.tribe is None or h.tribe in tribes)
