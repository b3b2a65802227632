"""Spells in hand: one registry entry per spell card, keyed by card id.

A spell is played with ``Play(hand)`` (or ``Play(hand, target=slot)`` when it
is aimed at a friendly minion). An entry gives what it is aimed at, its gold
cost in Battlegrounds and its effect; hero powers and Darkmoon Prizes add
their own spells in ``bgsim._core.spells_*`` modules, gathered here.
"""

from __future__ import annotations

from typing import Final

from bgsim._core import spells_prizes
from bgsim._core.minions import GOLD_COIN, TRIPLE_REWARD, HandCard, SpellCard, make_minion
from bgsim._core.player_state import DiscoverSpec
from bgsim._core.recruit_turn import Turn
from bgsim._core.spell_effects import Cast, SpellEffects
from bgsim.cards import cards


def _gold_coin(t: Turn, target: int | None, card: SpellCard) -> None:
    t.gold += 1


def _triple_reward(t: Turn, target: int | None, card: SpellCard) -> None:
    t.queue_discover(DiscoverSpec(card.tier, card.tier))


def _buff(attack: int, health: int) -> Cast:
    def cast(t: Turn, target: int | None, card: SpellCard) -> None:
        if target is not None:
            t.buff(target, attack, health)

    return cast


def _recruitment_map(t: Turn, target: int | None, card: SpellCard) -> None:
    t.queue_discover(DiscoverSpec(card.tier, card.tier))


def _prize(t: Turn, target: int | None, card: SpellCard) -> None:
    t.queue_discover(DiscoverSpec(card.tier, card.tier))


BANANAS: Final = "TRL_509t"
BIG_BANANA: Final = "BGS_Treasures_000"
RECRUITMENT_MAP: Final = "TB_BaconShop_HP_047t"
DARKMOON_PRIZE: Final = "TB_BaconShop_HP_101t2"

SPELLS: Final[dict[str, SpellEffects]] = {
    GOLD_COIN: SpellEffects(_gold_coin),
    TRIPLE_REWARD: SpellEffects(_triple_reward),
    # King Mukla's: free in Battlegrounds, the buff permanent (data/heroes.toml).
    BANANAS: SpellEffects(_buff(1, 1), target="minion"),
    BIG_BANANA: SpellEffects(_buff(2, 2), target="minion"),
    # Elise Starseeker's: Discover a minion of the tier the map was made at; 3 gold.
    RECRUITMENT_MAP: SpellEffects(_recruitment_map, cost=3),
    # Silas Darkmoon's: Discover a minion of the tier he had when he got it; free.
    DARKMOON_PRIZE: SpellEffects(_prize),
}
for _card_id, _effects in spells_prizes.SPELLS.items():
    if _card_id in SPELLS:
        raise ValueError(f"spell {_card_id} has two registry entries")
    SPELLS[_card_id] = _effects
"""Every spell a hand can hold, by card id."""


def spell_cost(card: SpellCard) -> int:
    """What casting ``card`` costs (unknown spells cannot be cast)."""
    fx = SPELLS.get(card.card)
    return 0 if fx is None else fx.cost


def cast_spell(t: Turn, card: SpellCard, target: int | None) -> None:
    """Pay for and cast a spell the player holds (already out of the hand)."""
    fx = SPELLS[card.card]
    t.gold -= fx.cost
    fx.cast(t, target, card)


def created_card(card_id: str, tier: int = 0) -> HandCard:
    """A card created into a hand: a spell as a :class:`SpellCard`, a minion
    as a created minion (it holds no pool copies).

    >>> created_card("TB_BaconShop_HP_008a")
    SpellCard(card='TB_BaconShop_HP_008a', tier=0)
    """
    if cards()[card_id].type == "spell":
        return SpellCard(card_id, tier)
    return make_minion(card_id)
