"""Hero powers that change gold and prices (one registry entry per hero power,
keyed by its card id; see :mod:`bgsim._core.power_effects`).

Sources and the choices no source settles are in ``data/heroes.toml``. What
each power keeps in its :class:`HeroState`:

- Nozdormu: ``counter`` = refreshes this turn.
- Patches the Pirate: ``discount`` = Pirates bought since the power was last
  used (``counter`` shows the same number to everyone).
- Skycap'n Kragg: ``counter`` = the Gold the power gives (the turn number).
- Chenvaala: ``counter`` = Elementals played since the last discount (0..2).
- A. F. Kay: ``counter`` = turns skipped (0..2).
"""

from __future__ import annotations

from typing import Final

from bgsim._core.hero_state import HeroState
from bgsim._core.minions import (
    ELEMENTAL,
    GOLD_COIN,
    INFO,
    PIRATE,
    TRIPLE_REWARD,
    HandCard,
    MinionCard,
    SpellCard,
    pool_minion,
)
from bgsim._core.power_effects import PowerEffects, hero_of
from bgsim._core.recruit_effects import damage_hero, hero_immune
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
    if t.health <= 2 and not hero_immune(t):
        return "Graveyard Shift would take the hero to 0 Health"
    if not t.hand_room():
        return "the hand is full"
    return None


def _baz_hial(t: Turn, kind: str | None, index: int | None) -> None:
    damage_hero(t, 2)  # nothing while Mal'Ganis makes the hero Immune
    t.add_to_hand(SpellCard(GOLD_COIN))


def _patches_usable(t: Turn) -> str | None:
    return None if t.hand_room() else "the hand is full"


def _is_pirate(card_id: str) -> bool:
    return bool(INFO[card_id].tribes & PIRATE)


def _patches(t: Turn, kind: str | None, index: int | None) -> None:
    """A random Pirate of his tier or lower from the pool (uniform over the
    distinct cards left, as for other random picks); the discount is used."""
    t.hero = hero_of(t).changed(discount=0, counter=0)
    picked = t.pool.pick_distinct(t.rng, 1, 1, t.tier, _is_pirate)
    if picked:
        t.add_to_hand(pool_minion(picked[0]))


def _patches_buy(t: Turn, minion: MinionCard) -> None:
    if INFO[minion.card].tribes & PIRATE:
        hero = hero_of(t)
        t.hero = hero.changed(discount=hero.discount + 1, counter=hero.discount + 1)


def _kragg(t: Turn, kind: str | None, index: int | None) -> None:
    t.gold += hero_of(t).counter


def _count_up_each_turn(t: Turn) -> None:
    """A counter that starts at 1 on turn 1 and grows by 1 each later turn."""
    if t.turn > 1:
        hero = hero_of(t)
        t.hero = hero.changed(counter=hero.counter + 1)


CHENVAALA_EVERY: Final = 3  # Elementals per discount
CHENVAALA_DISCOUNT: Final = 3


def _chenvaala(t: Turn, card: HandCard, slot: int | None) -> None:
    if not isinstance(card, MinionCard) or not INFO[card.card].tribes & ELEMENTAL:
        return
    played = hero_of(t).counter + 1
    if played == CHENVAALA_EVERY:
        t.upgrade_cost = max(t.upgrade_cost - CHENVAALA_DISCOUNT, 0)
        played = 0
    t.hero = hero_of(t).changed(counter=played)


AF_KAY_SKIPPED: Final = 2  # turns skipped
AF_KAY_REWARDS: Final = 2  # Triple Rewards at the start of the first turn she plays
AF_KAY_REWARD_TIER: Final = 3


def _af_kay_turn(t: Turn) -> None:
    """Turns 1-2 end before they start; turn 3 brings two tier-3 Triple Rewards."""
    if t.turn <= AF_KAY_SKIPPED:
        t.hero = hero_of(t).changed(counter=t.turn)
        t.ended = True
    elif t.turn == AF_KAY_SKIPPED + 1:
        for _ in range(AF_KAY_REWARDS):
            t.add_to_hand(SpellCard(TRIPLE_REWARD, AF_KAY_REWARD_TIER))


def _af_kay_shop(t: Turn, usual: int) -> int:
    """No shop on a skipped turn (nothing leaves the pool for it)."""
    return 0 if t.turn <= AF_KAY_SKIPPED else usual


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
    # Patches the Pirate: Pirate Parrrrty!
    "TB_BaconShop_HP_072": PowerEffects(
        use=_patches, usable=_patches_usable, on_buy=_patches_buy, counter_name="cost_reduction"
    ),
    # Skycap'n Kragg: Piggy Bank
    "TB_BaconShop_HP_076": PowerEffects(
        use=_kragg,
        per_game=True,
        start_of_turn=_count_up_each_turn,
        counter_name="gold",
        counter_start=1,
    ),
    # Chenvaala: Avalanche
    "TB_BaconShop_HP_088": PowerEffects(after_play=_chenvaala, counter_name="elementals_played"),
    # A. F. Kay: Procrastinate
    "TB_BaconShop_HP_044": PowerEffects(
        start_of_turn=_af_kay_turn, shop_size=_af_kay_shop, counter_name="turns_skipped"
    ),
}
