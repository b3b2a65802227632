"""Hero powers that act at the start of the game or across the lobby (one
registry entry per hero power, keyed by its card id; see
:mod:`bgsim._core.power_effects`).

Sources and the choices no source settles are in ``data/heroes.toml``.
"""

from __future__ import annotations

from typing import Final

from bgsim._core.hero_state import HeroState
from bgsim._core.minions import SpellCard, make_minion
from bgsim._core.power_effects import PowerEffects
from bgsim._core.recruit_turn import Turn

AMALGAM: Final = "TB_BaconShop_HP_033t"
BANANAS: Final = "TRL_509t"
BIG_BANANA: Final = "BGS_Treasures_000"


def _curator(t: Turn) -> None:
    t.board.append(make_minion(AMALGAM))


def _mukla(t: Turn, kind: str | None, index: int | None) -> None:
    for _ in range(2):
        # Each of the two is a Big Banana one time in three (data/heroes.toml).
        banana = BIG_BANANA if t.rng.random() < 1 / 3 else BANANAS
        t.add_to_hand(SpellCard(banana))


def _mukla_gifts(hero: HeroState) -> tuple[str, ...]:
    """Every other player's Banana at the end of a turn he used the power."""
    return (BANANAS,) if hero.uses else ()


POWERS: Final[dict[str, PowerEffects]] = {
    # The Curator: Menagerist
    "TB_BaconShop_HP_033": PowerEffects(on_choose=_curator),
    # King Mukla: Bananarama
    "TB_BaconShop_HP_038": PowerEffects(use=_mukla, gifts=_mukla_gifts),
    # Patchwerk: All Patched Up (55 Health: the hero card's own Health)
    "TB_BaconShop_HP_035": PowerEffects(),
}
