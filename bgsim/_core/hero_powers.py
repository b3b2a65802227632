"""The hero power registry, keyed by hero power card id, and the rules' calls
into it.

The entries live in the modules ``bgsim._core.heroes_*``, one group of heroes
each (see :mod:`bgsim._core.power_effects` for what an entry may hold); this
module gathers them into :data:`POWERS` and gives the tavern one function per
place a hero power can act. A player without a hero (a lobby played without
heroes) never reaches a hook: every function here returns at once for them.
"""

from __future__ import annotations

from typing import Final

from bgsim._core import heroes_economy, heroes_game, heroes_tavern, heroes_warband, spells_prizes
from bgsim._core.hero_state import HeroState
from bgsim._core.minions import HandCard, MinionCard
from bgsim._core.power_effects import PowerEffects
from bgsim._core.recruit_turn import Turn
from bgsim.cards import cards


def _gather() -> dict[str, PowerEffects]:
    out: dict[str, PowerEffects] = {}
    for group in (heroes_economy, heroes_game, heroes_tavern, heroes_warband):
        for power, effects in group.POWERS.items():
            if power in out:
                raise ValueError(f"hero power {power} has two registry entries")
            out[power] = effects
    return out


POWERS: Final[dict[str, PowerEffects]] = _gather()
MAX_SECRETS: Final = 5  # Secrets in play at once (hearthstone.wiki.gg/wiki/Secret)
"""Every hero power's behaviour, by hero power card id."""

_NONE: Final = PowerEffects()


def _power_facts() -> tuple[dict[str, int], frozenset[str]]:
    db = cards()
    costs: dict[str, int] = {}
    passive: set[str] = set()
    for card in db:
        if card.type == "hero_power":
            costs[card.id] = card.cost or 0
            if card.passive:
                passive.add(card.id)
    return costs, frozenset(passive)


COSTS, PASSIVE = _power_facts()


def effects(hero: HeroState) -> PowerEffects:
    """The registry entry of a hero's current power (empty if it has none)."""
    return POWERS.get(hero.power, _NONE)


def new_hero(hero_id: str, power_id: str) -> HeroState:
    """A freshly chosen hero with its power's counter at its start."""
    return HeroState(hero_id, power_id, counter=POWERS.get(power_id, _NONE).counter_start)


def new_power(hero: HeroState, power_id: str) -> HeroState:
    """The hero with another power (Sir Finley's Discover, Training
    Session): the power's state starts fresh, the Prizes' effects stay."""
    return HeroState(
        hero.hero,
        power_id,
        counter=POWERS.get(power_id, _NONE).counter_start,
        prizes=hero.prizes,
    )


# ------------------------------------------------------------ activation


def power_cost(hero: HeroState) -> int:
    """What using the power costs now (its card's cost less any discount).

    >>> from bgsim import HeroState
    >>> power_cost(HeroState("TB_BaconShop_HERO_18", "TB_BaconShop_HP_072", discount=1))  # Patches
    2
    """
    return max(COSTS.get(hero.power, 0) - hero.discount, 0)


def is_active(hero: HeroState) -> bool:
    """Whether the power is one to use (not passive, with an effect)."""
    return hero.power not in PASSIVE and effects(hero).use is not None


def why_spent(hero: HeroState, gold: int) -> str | None:
    """Why an active power is out of uses or gold now (the part of
    :func:`why_unusable` that the state alone decides), or None."""
    fx = effects(hero)
    if fx.per_game and hero.spent:
        return "the hero power was already used this game"
    if hero.uses >= fx.uses_per_turn:
        return "the hero power was already used this turn"
    cost = power_cost(hero)
    if gold < cost:
        return f"the hero power costs {cost} gold, you have {gold}"
    return None


def why_unusable(t: Turn) -> str | None:
    """Why the player's power cannot be used now at all (before targets)."""
    hero = t.hero
    if hero is None:
        return "this player has no hero"
    fx = effects(hero)
    if hero.power in PASSIVE or fx.use is None:
        return "the hero power is passive"
    spent = why_spent(hero, t.gold)
    if spent is not None:
        return spent
    if fx.usable is not None:
        return fx.usable(t)
    return None


def targets(t: Turn) -> list[tuple[str | None, int | None]]:
    """The (kind, index) targets the power may take now (``(None, None)``
    for an untargeted power); empty when none is valid."""
    hero = t.hero
    if hero is None:
        return []
    fx = effects(hero)
    if fx.target is None:
        return [(None, None)]
    kinds = ("minion", "shop") if fx.target == "minion_or_shop" else (fx.target,)
    out: list[tuple[str | None, int | None]] = []
    for kind in kinds:
        if kind == "minion":
            count = len(t.board)
        elif kind == "shop":
            count = len(t.shop)
        else:
            count = t.rules.lobby.players
        for i in range(count):
            if kind == "player" and i == t.player:
                continue
            if fx.valid is None or fx.valid(t, kind, i):
                out.append((kind, i))
    return out


def use_power(t: Turn, kind: str | None, index: int | None) -> None:
    """Pay for the power, count the use and run its effect (the caller
    checked that it is legal)."""
    hero = t.hero
    assert hero is not None
    fx = effects(hero)
    t.gold -= power_cost(hero)
    t.hero = hero.changed(uses=hero.uses + 1, spent=hero.spent or fx.per_game)
    assert fx.use is not None
    fx.use(t, kind, index)


# ------------------------------------------------------------ phases


def on_choose(t: Turn) -> None:
    hero = t.hero
    if hero is not None:
        hook = effects(hero).on_choose
        if hook is not None:
            hook(t)


def start_of_turn(t: Turn) -> None:
    """A new turn: this turn's uses start again, then the power's own hook."""
    hero = t.hero
    if hero is None:
        return
    if hero.uses:
        t.hero = hero = hero.changed(uses=0)
    if hero.prizes is not None:
        spells_prizes.start_of_turn(t)
        hero = t.hero
        assert hero is not None
    hook = effects(hero).start_of_turn
    if hook is not None:
        hook(t)


def end_of_turn(t: Turn) -> None:
    hero = t.hero
    if hero is not None:
        hook = effects(hero).end_of_turn
        if hook is not None:
            hook(t)
        spells_prizes.end_of_turn(t)


def on_roll(t: Turn) -> None:
    hero = t.hero
    if hero is not None:
        hook = effects(hero).on_roll
        if hook is not None:
            hook(t)


def on_refresh(t: Turn) -> None:
    hero = t.hero
    if hero is not None:
        hook = effects(hero).on_refresh
        if hook is not None:
            hook(t)
        if hero.prizes is not None:
            spells_prizes.on_refresh(t)


def on_upgrade(t: Turn) -> None:
    hero = t.hero
    if hero is not None:
        hook = effects(hero).on_upgrade
        if hook is not None:
            hook(t)


def on_buy(t: Turn, minion: MinionCard) -> None:
    hero = t.hero
    if hero is not None:
        hook = effects(hero).on_buy
        if hook is not None:
            hook(t, minion)


def bought_from(t: Turn, slot: int) -> None:
    """After a buy: the shop slot the minion came from."""
    hero = t.hero
    if hero is not None:
        hook = effects(hero).bought_from
        if hook is not None:
            hook(t, slot)


def on_sell(t: Turn, minion: MinionCard) -> None:
    hero = t.hero
    if hero is not None:
        hook = effects(hero).on_sell
        if hook is not None:
            hook(t, minion)


def after_play(t: Turn, card: HandCard, slot: int | None) -> None:
    hero = t.hero
    if hero is not None:
        hook = effects(hero).after_play
        if hook is not None:
            hook(t, card, slot)


def after_combat(t: Turn, won: bool, lost: bool) -> None:
    hero = t.hero
    if hero is not None:
        hook = effects(hero).after_combat
        if hook is not None:
            hook(t, won, lost)


def on_kills(t: Turn, kills: int, first: str | None) -> None:
    """After a combat: how many enemy minions died in it, and the first."""
    hero = t.hero
    if hero is not None:
        hook = effects(hero).on_kills
        if hook is not None:
            hook(t, kills, first)


def secrets_revealed(t: Turn, revealed: tuple[str, ...]) -> None:
    """After a combat: the player's Secrets revealed in it leave play (the
    power's own, and a Darkmoon Prize's Ice Block)."""
    hero = t.hero
    if hero is None or not revealed:
        return
    hook = effects(hero).on_secrets
    if hook is not None:
        hook(t, revealed)
        hero = t.hero
        assert hero is not None
    if hero.prizes is not None and spells_prizes.ICE_BLOCK in revealed:
        spells_prizes.ice_block_spent(t)


def combat_hero(hero: HeroState) -> tuple[str, str, bool, tuple[str, ...]]:
    """What the combat engine is told of a player's hero: the hero, its
    power, whether the power fires in the coming combat, and the Secrets in
    play (the power's, then a Darkmoon Prize's Ice Block; at most five).

    >>> from bgsim import HeroState
    >>> combat_hero(HeroState("TB_BaconShop_HERO_92", "TB_BaconShop_HP_103", counter=1))
    ('TB_BaconShop_HERO_92', 'TB_BaconShop_HP_103', True, ())
    """
    fx = effects(hero)
    armed = fx.armed is not None and fx.armed(hero)
    secrets = () if fx.secrets is None else fx.secrets(hero)
    if (
        hero.prizes is not None
        and hero.prizes.ice_blocks
        and spells_prizes.ICE_BLOCK not in secrets
    ):
        secrets = (*secrets, spells_prizes.ICE_BLOCK)
    return hero.hero, hero.power, armed, secrets[:MAX_SECRETS]


def on_pick(t: Turn, card_id: str) -> bool:
    """Give a pick among the power's own offers to the power; False when the
    power takes no such pick (the pick is then a hero power)."""
    hero = t.hero
    if hero is None:
        return False
    hook = effects(hero).on_pick
    if hook is None:
        return False
    hook(t, card_id)
    return True


def on_death(t: Turn, warband: tuple[MinionCard, ...]) -> None:
    hero = t.hero
    if hero is not None:
        hook = effects(hero).on_death
        if hook is not None:
            hook(t, warband)


def on_pairings(t: Turn, pairs: tuple[tuple[int, int], ...], ghost: int | None) -> None:
    """The coming round's pairings, drawn at the start of the turn."""
    hero = t.hero
    if hero is not None:
        hook = effects(hero).on_pairings
        if hook is not None:
            hook(t, pairs, ghost)


def after_round(t: Turn, winners: tuple[int, ...]) -> None:
    """The players who won their combat this round."""
    hero = t.hero
    if hero is not None:
        hook = effects(hero).after_round
        if hook is not None:
            hook(t, winners)


# ------------------------------------------------------------ changed rules


def price(t: Turn, kind: str, usual: int) -> int:
    """What ``"buy"``, ``"refresh"`` or ``"upgrade"`` costs this player."""
    hero = t.hero
    return usual if hero is None else price_of(hero, kind, usual)


def price_of(hero: HeroState, kind: str, usual: int) -> int:
    hook = effects(hero).price
    cost = usual if hook is None else max(hook(hero, kind, usual), 0)
    if hero.prizes is not None:
        cost = max(spells_prizes.price(hero.prizes, kind, cost), 0)
    return cost


def shop_size(t: Turn, usual: int) -> int:
    hero = t.hero
    if hero is None:
        return usual
    hook = effects(hero).shop_size
    size = usual if hook is None else hook(t, usual)
    return size if hero.prizes is None else spells_prizes.shop_size(t, size)


def battlecries(t: Turn, usual: int) -> int:
    """How many times the Battlecry of the minion being played triggers."""
    hero = t.hero
    if hero is None:
        return usual
    hook = effects(hero).battlecries
    count = usual if hook is None else hook(t, usual)
    return count if hero.prizes is None else spells_prizes.battlecries(hero, count)


def gifts(hero: HeroState | None) -> tuple[str, ...]:
    """Card ids every other living player gets at the end of this turn."""
    if hero is None:
        return ()
    hook = effects(hero).gifts
    return () if hook is None else hook(hero)


def attack_aura(hero: HeroState | None) -> int:
    """Attack every minion in play shows in this player's recruit phase
    (Deathwing's +2): display only."""
    return 0 if hero is None else effects(hero).attack_aura


def visible_counter(hero: HeroState | None) -> tuple[str, int] | None:
    """The (name, value) of the power's counter when every player sees it."""
    if hero is None:
        return None
    name = effects(hero).counter_name
    return None if name is None else (name, hero.counter)


def shop_marks(hero: HeroState | None) -> tuple[bool, ...]:
    """A flag per shop slot the power marks (Silas Darkmoon's Darkmoon
    Tickets); () when it marks none.

    >>> silas = HeroState("TB_BaconShop_HERO_90", "TB_BaconShop_HP_101")
    >>> shop_marks(silas.changed(extra=((True, False), False)))
    (True, False)
    """
    if hero is None:
        return ()
    hook = effects(hero).shop_marks
    return () if hook is None else hook(hero)


def dormant(hero: HeroState | None) -> tuple[tuple[MinionCard, int], ...]:
    """The minions the power holds Dormant, each with the turn it awakens
    (Maiev Shadowsong's), oldest first.

    >>> dormant(HeroState("TB_BaconShop_HERO_62", "TB_BaconShop_HP_068"))
    ()
    """
    if hero is None:
        return ()
    hook = effects(hero).dormant
    return () if hook is None else hook(hero)


def bets(hero: HeroState | None) -> tuple[tuple[int, ...], int]:
    """The players the power may bet on this turn and the one it bet on, -1
    for none (Lord Barov's wager).

    >>> bets(HeroState("TB_BaconShop_HERO_72", "TB_BaconShop_HP_081", extra=((2, 5), 5)))
    ((2, 5), 5)
    """
    if hero is None:
        return (), -1
    hook = effects(hero).bets
    return ((), -1) if hook is None else hook(hero)
