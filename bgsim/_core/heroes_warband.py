"""Hero powers that buff or change the warband's minions (one registry entry
per hero power, keyed by its card id; see :mod:`bgsim._core.power_effects`).

Sources and the choices no source settles are in ``data/heroes.toml``.
"""

from __future__ import annotations

from typing import Final

from bgsim._core.minions import DEMON, DIVINE_SHIELD
from bgsim._core.power_effects import PowerEffects
from bgsim._core.recruit_turn import Turn


def _no_shield(t: Turn, kind: str, index: int) -> bool:
    return not t.board[index].keywords & DIVINE_SHIELD


def _george(t: Turn, kind: str | None, index: int | None) -> None:
    if index is not None:
        t.give(index, DIVINE_SHIELD)


def _pyramad(t: Turn, kind: str | None, index: int | None) -> None:
    slot = t.pick(list(range(len(t.board))))
    if slot is not None:
        t.buff(slot, 0, 4)


def _jaraxxus(t: Turn, kind: str | None, index: int | None) -> None:
    for slot in t.of_tribe(DEMON):
        t.buff(slot, 1, 1)


def _rakanishu(t: Turn, kind: str | None, index: int | None) -> None:
    if index is not None:
        t.buff(index, t.tier, t.tier)


POWERS: Final[dict[str, PowerEffects]] = {
    # George the Fallen: Boon of Light
    "TB_BaconShop_HP_010": PowerEffects(target="minion", use=_george, valid=_no_shield),
    # Pyramad: Brick by Brick
    "TB_BaconShop_HP_040": PowerEffects(use=_pyramad),
    # Lord Jaraxxus: Bloodfury
    "TB_BaconShop_HP_036": PowerEffects(use=_jaraxxus),
    # Rakanishu: Tavern Lighting
    "TB_BaconShop_HP_085": PowerEffects(target="minion", use=_rakanishu),
}
