"""Hero powers that act at the start of the game or across the lobby (one
registry entry per hero power, keyed by its card id; see
:mod:`bgsim._core.power_effects`).

Sources and the choices no source settles are in ``data/heroes.toml``.
What each power keeps in ``HeroState.extra``:

- Mr. Bigglesworth: the warbands of players knocked out since his last
  turn (one tuple of created minions each), Discovered from at his next turn.
- Lord Barov: ``(candidates, wager)``: the players of the pairing he is
  shown this turn that he may bet on, and the one he bet on (-1: none).
- Tickatus: ``(prizes,)``: how many Darkmoon Prizes he has Discovered.
"""

from __future__ import annotations

from typing import Final, cast

from bgsim._core.hero_state import HeroState
from bgsim._core.minions import GOLD_COIN, MinionCard, SpellCard, make_minion
from bgsim._core.player_state import DiscoverSpec
from bgsim._core.power_effects import PowerEffects, hero_of
from bgsim._core.recruit_turn import Turn
from bgsim.cards import cards

AMALGAM: Final = "TB_BaconShop_HP_033t"
BANANAS: Final = "TRL_509t"
BIG_BANANA: Final = "BGS_Treasures_000"
FINLEY: Final = "TB_BaconShop_HP_057"
FISH: Final = "TB_BaconShop_HP_105t"
SULFURAS: Final = "TB_BaconShop_HP_087t"
PRIZE_WALL: Final = "TB_BaconShop_HP_106"
PRIZE_EVERY: Final = 4  # turns between Tickatus's Prizes
LAST_PRIZE_GROUP: Final = 4
BAROV_COINS: Final = 3
SULFURAS_BUFF: Final = 3


def _offerable_powers() -> tuple[str, ...]:
    """The hero powers Sir Finley (and Training Session) may offer: the
    card data's list of what his power creates (every drafted hero's base
    power but his own and the four that act only at set-up)."""
    return tuple(power for power, _ in cards().created_by[FINLEY])


def _prize_groups() -> dict[int, tuple[str, ...]]:
    out: dict[int, list[str]] = {}
    for card in cards():
        if card.prize_turn:
            out.setdefault(card.prize_turn, []).append(card.id)
    return {turn: tuple(ids) for turn, ids in out.items()}


POWER_OFFERS: Final = _offerable_powers()
PRIZES: Final[dict[int, tuple[str, ...]]] = _prize_groups()
"""Darkmoon Prize card ids by their Prize turn (1-4: the k-th Prize turn)."""


def offer_powers(t: Turn, exclude: str) -> None:
    """Offer up to three distinct hero powers other than ``exclude`` (chosen
    with ``ChooseHero``: the player's power becomes the picked one)."""
    options = [p for p in POWER_OFFERS if p != exclude]
    k = min(t.rules.limits.discover_choices, len(options))
    t.hero_offers = tuple(t.rng.sample(options, k))


def discover_prize(t: Turn, group: int) -> None:
    """Discover a Darkmoon Prize of Prize turn ``group``."""
    options = tuple(SpellCard(card_id) for card_id in PRIZES[group])
    t.queue_discover(DiscoverSpec(1, 1, options=options))


# ------------------------------------------------------------ set-up


def _curator(t: Turn) -> None:
    t.board.append(make_minion(AMALGAM))


def _finley(t: Turn) -> None:
    """The draft goes on for him: a Discover of hero powers."""
    offer_powers(t, hero_of(t).power)
    t.ended = False


def _nzoth(t: Turn) -> None:
    t.board.append(make_minion(FISH))


# ------------------------------------------------------------ lobby


def _mukla(t: Turn, kind: str | None, index: int | None) -> None:
    for _ in range(2):
        # Each of the two is a Big Banana one time in three (data/heroes.toml).
        banana = BIG_BANANA if t.rng.random() < 1 / 3 else BANANAS
        t.add_to_hand(SpellCard(banana))


def _mukla_gifts(hero: HeroState) -> tuple[str, ...]:
    """Every other player's Banana at the end of a turn he used the power."""
    return (BANANAS,) if hero.uses else ()


def _created(m: MinionCard) -> MinionCard:
    """A created copy of a minion with everything it has gained (it holds
    no pool copies, and gives no Triple Reward)."""
    return MinionCard(
        m.card,
        m.golden,
        m.attack,
        m.health,
        m.keywords,
        m.magnetic,
        m.spores,
        (),
        False,
        m.enchants,
    )


def _kitty_death(t: Turn, warband: tuple[MinionCard, ...]) -> None:
    if warband:
        hero = hero_of(t)
        t.hero = hero.changed(extra=(*hero.extra, tuple(_created(m) for m in warband)))


def _kitty_turn(t: Turn) -> None:
    hero = hero_of(t)
    if hero.extra:
        t.hero = hero.changed(extra=())
        for warband in hero.extra:
            t.queue_discover(DiscoverSpec(1, 1, options=warband))


def _barov_pairings(t: Turn, pairs: tuple[tuple[int, int], ...], ghost: int | None) -> None:
    """He is shown one pairing of two other players (a ghost's excluded), or
    his own when there is none; he may bet on its players but himself."""
    shown = [p for p in pairs if t.player not in p and ghost not in p]
    if not shown:
        shown = [p for p in pairs if t.player in p]
    pair = shown[int(t.rng.random() * len(shown))] if shown else ()
    candidates = tuple(p for p in pair if p != ghost and p != t.player)
    t.hero = hero_of(t).changed(extra=(candidates, -1))


def _barov_valid(t: Turn, kind: str, index: int) -> bool:
    extra = hero_of(t).extra
    return bool(extra) and index in extra[0]


def _barov_usable(t: Turn) -> str | None:
    extra = hero_of(t).extra
    return None if extra and extra[0] else "no pairing to bet on this turn"


def _barov(t: Turn, kind: str | None, index: int | None) -> None:
    hero = hero_of(t)
    t.hero = hero.changed(extra=(hero.extra[0], -1 if index is None else index))


def _barov_bets(hero: HeroState) -> tuple[tuple[int, ...], int]:
    if not hero.extra:
        return (), -1
    return cast(tuple[int, ...], hero.extra[0]), cast(int, hero.extra[1])


def _barov_round(t: Turn, winners: tuple[int, ...]) -> None:
    hero = hero_of(t)
    if not hero.extra:
        return
    if hero.extra[1] >= 0 and hero.extra[1] in winners:
        for _ in range(BAROV_COINS):
            t.add_to_hand(SpellCard(GOLD_COIN))
    t.hero = hero.changed(extra=(hero.extra[0], -1))


def _ragnaros_kills(t: Turn, kills: int, first: str | None) -> None:
    """Count the enemy minions that died in his combat (the ghost's too)."""
    hero = hero_of(t)
    left = hero.counter - kills
    if left <= 0:
        t.hero = hero.changed(power=SULFURAS, counter=0)
    else:
        t.hero = hero.changed(counter=left)


def _sulfuras(t: Turn) -> None:
    """The left-most and right-most minions get +3/+3 (one minion: once)."""
    n = len(t.board)
    for slot in sorted({0, n - 1}) if n else ():
        t.buff(slot, SULFURAS_BUFF, SULFURAS_BUFF)


def _tickatus(t: Turn) -> None:
    hero = hero_of(t)
    left = hero.counter - 1
    if left > 0:
        t.hero = hero.changed(counter=left)
        return
    found = (hero.extra[0] if hero.extra else 0) + 1
    t.hero = hero.changed(counter=PRIZE_EVERY, extra=(found,))
    discover_prize(t, min(found, LAST_PRIZE_GROUP))


POWERS: Final[dict[str, PowerEffects]] = {
    # The Curator: Menagerist
    "TB_BaconShop_HP_033": PowerEffects(on_choose=_curator),
    # King Mukla: Bananarama
    "TB_BaconShop_HP_038": PowerEffects(use=_mukla, gifts=_mukla_gifts),
    # Patchwerk: All Patched Up (55 Health: the hero card's own Health)
    "TB_BaconShop_HP_035": PowerEffects(),
    # Sir Finley Mrrgglton: Adventure!
    FINLEY: PowerEffects(on_choose=_finley),
    # Mr. Bigglesworth: Kel'Thuzad's Kitty
    "TB_BaconShop_HP_080": PowerEffects(on_death=_kitty_death, start_of_turn=_kitty_turn),
    # Lord Barov: Friendly Wager
    "TB_BaconShop_HP_081": PowerEffects(
        target="player",
        use=_barov,
        usable=_barov_usable,
        valid=_barov_valid,
        on_pairings=_barov_pairings,
        after_round=_barov_round,
        bets=_barov_bets,
    ),
    # Tickatus: Prize Wall (the counter shows 3 on turn 1)
    PRIZE_WALL: PowerEffects(
        start_of_turn=_tickatus, counter_name="turns_left", counter_start=PRIZE_EVERY
    ),
    # N'Zoth: Avatar of N'Zoth (the Fish gains Deathrattles in combat: the engine's)
    "TB_BaconShop_HP_105": PowerEffects(on_choose=_nzoth),
    # Ragnaros the Firelord: DIE, INSECTS!, then Sulfuras
    "TB_BaconShop_HP_087": PowerEffects(
        on_kills=_ragnaros_kills, counter_name="kills_left", counter_start=25
    ),
    SULFURAS: PowerEffects(end_of_turn=_sulfuras),
    # Deathwing: ALL Will Burn! (+2 Attack shown in his recruit phase; combat: the engine's)
    "TB_BaconShop_HP_061": PowerEffects(attack_aura=2),
    # Al'Akir: Swatting Insects (Start of Combat)
    "TB_BaconShop_HP_086": PowerEffects(combat_only=True),
    # Illidan Stormrage: Wingmen (Start of Combat)
    "TB_BaconShop_HP_069": PowerEffects(combat_only=True),
    # Greybough: Sprout It Out! (minions summoned in combat)
    "TB_BaconShop_HP_107": PowerEffects(combat_only=True),
}
