"""Hero powers that change Bob's Tavern (one registry entry per hero power,
keyed by its card id; see :mod:`bgsim._core.power_effects`).

Sources and the choices no source settles are in ``data/heroes.toml``.
"""

from __future__ import annotations

from typing import Final

from bgsim._core.minions import INFO, MECH, card_info, make_minion
from bgsim._core.power_effects import PowerEffects
from bgsim._core.recruit_turn import Turn


def _millificent(t: Turn) -> None:
    """Mechs in Bob's Tavern have +1/+1 (each new shop's Mechs get it)."""
    for i, m in enumerate(t.shop):
        if INFO[m.card].tribes & MECH and not t.shop_frozen[i]:
            t.shop[i] = m.buffed(1, 1)


def _tess(t: Turn, kind: str | None, index: int | None) -> None:
    """Refresh with plain copies of the last opponent's warband (created
    cards: they hold no pool copies)."""
    for m in t.shop:
        t.pool.put(m.pool_copies)
    shown = [make_minion(card_info(card_id).id) for card_id in t.last_opponent_cards]
    t.shop = shown[: t.rules.tavern.max_shop_size]
    t.shop_frozen = [False] * len(t.shop)


def _tess_usable(t: Turn) -> str | None:
    return None if t.last_opponent_cards else "no last opponent yet"


POWERS: Final[dict[str, PowerEffects]] = {
    # Millificent Manastorm: Tinker
    "TB_BaconShop_HP_015": PowerEffects(on_roll=_millificent),
    # Tess Greymane: Bob's Burgles
    "TB_BaconShop_HP_077": PowerEffects(use=_tess, usable=_tess_usable),
}
