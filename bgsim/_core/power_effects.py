"""What a hero power may do, phase by phase: the shape of a registry entry.

One :class:`PowerEffects` entry per hero power, keyed by the hero power's
card id (``bgsim._core.hero_powers.POWERS`` gathers them from the modules
``bgsim._core.heroes_*``). Every field is optional; the rules call a hook only
where an entry sets it. ``t`` is the acting player's :class:`Turn`; its
``hero`` field is the player's :class:`HeroState`, which hooks replace (never
change) to remember things.

Activation:

- ``target``: what an active power is aimed at: None (nothing), ``"minion"``
  (a friendly warband minion), ``"shop"`` (a minion in Bob's Tavern),
  ``"minion_or_shop"`` or ``"player"``. Passive powers (the card data's
  ``passive`` flag) have no ``use``.
- ``use(t, kind, index)``: the power's effect; ``kind`` is ``"minion"``,
  ``"shop"``, ``"player"`` or None, ``index`` the slot or player aimed at.
- ``usable(t)``: why the power cannot be used now beyond gold and uses (a
  reason), or None.
- ``valid(t, kind, index)``: whether a target is allowed (George the Fallen's
  shield goes on a minion without one).
- ``per_game`` (once per game), ``uses_per_turn`` (1 unless the text says).

Phases (all return None):

- ``on_choose(t)``: once, when the hero is picked (starting minions, Sir
  Finley's Discover of a power).
- ``start_of_turn(t)``: after the turn's gold and before the shop is drawn;
  ``on_roll(t)``: after every new shop (turn start, refresh, a power's own).
- ``end_of_turn(t)``, ``on_buy(t, minion)``, ``on_sell(t, minion)``,
  ``after_play(t, card, slot)``, ``on_refresh(t)`` (after a Refresh action),
  ``on_upgrade(t)``.
- ``after_combat(t, won, lost)``: what the power does with the fight's result.
- ``bought_from(t, slot)``: after ``on_buy``, with the shop slot the minion
  was bought from (Silas Darkmoon's tickets are on shop slots).

Rules it changes:

- ``price(hero, kind, usual)``: what ``"buy"``, ``"refresh"`` or
  ``"upgrade"`` costs this player, given the usual price (it reads only the
  hero's state, so that legality needs no working copy).
- ``shop_size(t, usual)``: how many minions a new shop holds.
- ``battlecries(t, usual)``: how many times the Battlecry of a minion being
  played triggers, given the usual count (Brann's included).

Lobby-level (the lobby calls these with other players' states):

- ``gifts(hero)``: card ids every other living player gets at the end of
  this player's turn (King Mukla's Bananas).
- ``on_death(t, warband)``: another player was knocked out with ``warband``.
- ``counter_name``: the name of ``HeroState.counter`` when every player can
  see it (the number on the power's card), else None.

Added with the heroes that need them:

- ``on_kills(t, kills, first)``: after every combat of the player, before
  ``after_combat``: how many enemy minions died in it and the first of them
  (its card id as shown: the golden id for a golden one; None when none
  died), as the fight's result gives them (Arch-Villain Rafaam, Ragnaros the
  Firelord).
- ``on_pick(t, card_id)``: the player took ``card_id`` (ChooseHero) among the
  offers the power itself put in ``hero_offers`` during the game (The Great
  Akazamzarak's Secrets); without it such a pick replaces the power (Sir
  Finley's Discover of a power).
- ``on_pairings(t, pairs, ghost)``: the coming combat round's pairings,
  drawn at the start of the turn in a lobby with heroes (Lord Barov);
  ``ghost`` is the ghost's player id or None.
- ``after_round(t, winners)``: the players who won their combat this round
  (Lord Barov's wager), after every fight of the round.

What others see, and powers with no recruit-phase part:

- ``attack_aura``: Attack every minion in play shows in the player's recruit
  phase (Deathwing's warband and Bob's Tavern); display only, the minions'
  own stats do not change.
- ``combat_only``: the power's whole text acts in combat (the combat
  engine's business): nothing to do in the recruit phase (Al'Akir).

What the combat engine is told (the board's hero fields), and back:

- ``armed(hero)``: whether the power fires in the coming combat (Y'Shaarj,
  Arch-Villain Rafaam: used this turn).
- ``secrets(hero)``: the Secrets the power keeps in play, in the order they
  came (The Great Akazamzarak); a Darkmoon Prize's Ice Block is added by
  the rules.
- ``on_secrets(t, revealed)``: after a combat, before ``on_kills``: the
  power's Secrets revealed in it, gone from play.

What the player sees of the power's own keeping (the observation vector's):

- ``shop_marks(hero)``: a flag per shop slot the power marks (Silas
  Darkmoon's Darkmoon Tickets); () when none.
- ``dormant(hero)``: the minions the power holds Dormant and the turn each
  awakens, oldest first (Maiev Shadowsong).
- ``bets(hero)``: the players the power may bet on this turn and the one it
  bet on, -1 for none (Lord Barov).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bgsim._core.hero_state import HeroState
from bgsim._core.minions import HandCard, MinionCard
from bgsim._core.recruit_turn import Turn

Use = Callable[[Turn, "str | None", "int | None"], None]
Valid = Callable[[Turn, str, int], bool]
Usable = Callable[[Turn], "str | None"]
Phase = Callable[[Turn], None]
OnMinion = Callable[[Turn, MinionCard], None]
AfterPlay = Callable[[Turn, HandCard, "int | None"], None]
AfterCombat = Callable[[Turn, bool, bool], None]
Price = Callable[[HeroState, str, int], int]
Size = Callable[[Turn, int], int]
Count = Callable[[Turn, int], int]
Gifts = Callable[[HeroState], tuple[str, ...]]
OnDeath = Callable[[Turn, tuple[MinionCard, ...]], None]
OnKills = Callable[[Turn, int, "str | None"], None]
Armed = Callable[[HeroState], bool]
Secrets = Callable[[HeroState], tuple[str, ...]]
OnSecrets = Callable[[Turn, tuple[str, ...]], None]
OnPick = Callable[[Turn, str], None]
BoughtFrom = Callable[[Turn, int], None]
OnPairings = Callable[[Turn, tuple[tuple[int, int], ...], "int | None"], None]
AfterRound = Callable[[Turn, tuple[int, ...]], None]
ShopMarks = Callable[[HeroState], tuple[bool, ...]]
Dormant = Callable[[HeroState], tuple[tuple[MinionCard, int], ...]]
Bets = Callable[[HeroState], tuple[tuple[int, ...], int]]


@dataclass(frozen=True, slots=True)
class PowerEffects:
    """One hero power's behaviour (see the module doc for every field).

    >>> PowerEffects(target="minion").per_game
    False
    """

    target: str | None = None
    use: Use | None = None
    usable: Usable | None = None
    valid: Valid | None = None
    per_game: bool = False
    uses_per_turn: int = 1
    on_choose: Phase | None = None
    start_of_turn: Phase | None = None
    on_roll: Phase | None = None
    end_of_turn: Phase | None = None
    on_buy: OnMinion | None = None
    on_sell: OnMinion | None = None
    after_play: AfterPlay | None = None
    on_refresh: Phase | None = None
    on_upgrade: Phase | None = None
    after_combat: AfterCombat | None = None
    price: Price | None = None
    shop_size: Size | None = None
    battlecries: Count | None = None
    gifts: Gifts | None = None
    on_death: OnDeath | None = None
    counter_name: str | None = None
    counter_start: int = 0
    on_kills: OnKills | None = None
    on_pick: OnPick | None = None
    bought_from: BoughtFrom | None = None
    on_pairings: OnPairings | None = None
    after_round: AfterRound | None = None
    attack_aura: int = 0
    combat_only: bool = False
    armed: Armed | None = None
    secrets: Secrets | None = None
    on_secrets: OnSecrets | None = None
    shop_marks: ShopMarks | None = None
    dormant: Dormant | None = None
    bets: Bets | None = None


def hero_of(t: Turn) -> HeroState:
    """The acting player's hero state (hooks run only for players with one)."""
    hero = t.hero
    assert hero is not None
    return hero
