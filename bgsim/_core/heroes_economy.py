"""Hero powers that change gold and prices (one registry entry per hero power,
keyed by its card id; see :mod:`bgsim._core.power_effects`).

Sources and the choices no source settles are in ``data/heroes.toml``.
"""

from __future__ import annotations

from typing import Final

from bgsim._core.hero_state import HeroState
from bgsim._core.minions import GOLD_COIN, SpellCard
from bgsim._core.power_effects import PowerEffects, hero_of
from bgsim._core.recruit_turn import Turn


def _millhouse(hero: HeroState, kind: str, usual: int) -> int:
    """Minions cost 2, a refresh 2, an upgrade 1 more."""
    if kind == "buy":
        return 2
    if kind == "refresh":
        return 2
    return usual + 1


def _omu(t: Turn) -> None:
    t.gold += 2


def _nozdormu_price(hero: HeroState, kind: str, usual: int) -> int:
    """The first Refresh each turn is free (counter: refreshes this turn)."""
    return 0 if kind == "refresh" and hero.counter == 0 else usual


def _count_refresh(t: Turn) -> None:
    hero = hero_of(t)
    t.hero = hero.changed(counter=hero.counter + 1)


def _reset_counter(t: Turn) -> None:
    hero = hero_of(t)
    if hero.counter:
        t.hero = hero.changed(counter=0)


def _baz_hial_usable(t: Turn) -> str | None:
    if t.health <= 2:
        return "Graveyard Shift would take the hero to 0 Health"
    if not t.hand_room():
        return "the hand is full"
    return None


def _baz_hial(t: Turn, kind: str | None, index: int | None) -> None:
    t.health -= 2
    t.add_to_hand(SpellCard(GOLD_COIN))


POWERS: Final[dict[str, PowerEffects]] = {
    # Millhouse Manastorm: Manastorm
    "TB_BaconShop_HP_054": PowerEffects(price=_millhouse),
    # Forest Warden Omu: Everbloom
    "TB_BaconShop_HP_082": PowerEffects(on_upgrade=_omu),
    # Nozdormu: Clairvoyance
    "TB_BaconShop_HP_063": PowerEffects(
        price=_nozdormu_price, on_refresh=_count_refresh, start_of_turn=_reset_counter
    ),
    # Lich Baz'hial: Graveyard Shift
    "TB_BaconShop_HP_049": PowerEffects(use=_baz_hial, usable=_baz_hial_usable),
}
