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

import re
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
    counter_start: int | None = None  # the number its text shows ('@') at the start


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
                counter_start=_shown_counter(row),
            ),
            tribe=subset.get(card.id),
        )
    return out


def _shown_counter(row: dict) -> int | None:
    """The start of the number a power's card shows, its first visible
    integer counter in ``data/heroes.toml``."""
    for counter in row.get("counters", ()):
        start = counter.get("start")
        if counter.get("visible") and type(start) is int:
            return start
    return None


_PLURAL = re.compile(r"\|4\(([^,]*),\s*([^)]*)\)")


def power_text(text: str, counter: int | None) -> str:
    """A hero power's text as people read it: the counter for its '@' (with
    the singular or plural its '|4(a, b)' picks; 'X' for no counter), '$2'
    damage as '2', and the 'Passive Hero Power' / 'Hero Power' label dropped.

    >>> power_text("Dig for a Golden minion! (@ |4(Dig, Digs) left.)", 1)
    'Dig for a Golden minion! (1 Dig left.)'
    >>> zephrys = heroes()["TB_BaconShop_HERO_91"].power
    >>> power_text(zephrys.text, zephrys.counter_start)
    'If you have two copies of a minion, find the third. (3 Wishes left!)'
    """
    for label in ("Passive Hero Power ", "Hero Power "):
        if text.startswith(label):
            text = text[len(label) :]
    text = text.replace("$", "")
    one = counter == 1
    text = _PLURAL.sub(lambda m: m.group(1) if one else m.group(2), text)
    return text.replace("@", str(counter) if counter is not None else "X")


def hero_pool(tribes: tuple[str, ...]) -> tuple[str, ...]:
    """The heroes a lobby with these minion types may offer (a hero tied to a
    minion type is offered only where that type is in the lobby).

    >>> "TB_BaconShop_HERO_18" in hero_pool(("beast", "demon", "dragon", "mech", "murloc"))
    False
    """
    return tuple(h.id for h in heroes().values() if h.tribe is None or h.tribe in tribes)
