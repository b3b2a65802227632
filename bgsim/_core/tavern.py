"""One player's recruit phase as pure functions over an immutable PlayerState.

``apply_action(state, action, pool, rng, rules)`` returns the new state and
changes only the pool and the rng, so a search can run a player's turn alone
with its own (cloned) pool and rng; :class:`bgsim.lobby.Lobby` runs these for
eight players and adds the combat round.

Rules decided here (sources in rules-research.md unless said otherwise):

- Turn start: gold = 3 on turn 1, +1 a turn, at most 10 (unspent gold and Gold
  Coin gold are lost); the upgrade cost drops by 1 (not on turn 1, never below
  0); start-of-turn effects run; then the shop refreshes: frozen minions stay
  (and thaw), the other slots are filled up to the tier's shop size from the
  pool (Stone Ground's ``Player.draw``).
- Buy 3 (to hand, needs hand room), sell 1 (Freedealing Gambler 3, golden 6),
  refresh 1 (0 while Refreshing Anomaly's free refreshes last; several
  Anomalies add up), upgrade at the current cost, which then restarts at the
  next tier's base cost. Freeze is free and toggles: it freezes every shop
  minion, or thaws them all when all are frozen. Refresh replaces frozen
  minions too.
- Bob's Tavern holds at most 7 minions (Stasis Elemental adds nothing beyond).
- Playing a minion: it is placed, "whenever you summon" triggers run, its
  Battlecry runs (twice/three times with Brann; a repeated targeted Battlecry
  hits the same target and does nothing if that target is gone, as in
  Hearthstone: Soul Devourer + Brann removes one Demon once), then "after you
  play" triggers; then triples are checked (patch 19.6: after all summons).
- A golden card made by a triple gives, when played, a Triple Reward that
  discovers a minion of exactly tier min(tier + 1, 6); so does golden
  Murozond's golden copy (the wiki's Murozond (Battlegrounds) page: "as a
  normal triple would"). Goldens from other sources (golden Faceless
  Taverngoer, Tess Greymane's copies, Captain Eudora's dig, Reno Jackson's
  power) give none: the reward belongs to the triple.
- A Discover offers up to 3 different cards with copies in the pool (the
  offered copies are held out of the pool until the choice; the others go
  back). While one is pending only Choose is legal. A Discover that comes up
  while the hand is full finds nothing.
- Self-damage (Wrath Weaver, Vulgar Homunculus) never takes the hero below 1
  Health: bgsim's decision, because a hero leaves the game only by combat
  damage; Mal'Ganis on the warband makes the hero Immune to it.
- Soul Devourer gains the Demon's stats as displayed (auras included); the
  Demon's pool copies go back to the pool. Faceless Taverngoer's own copies go
  back to the pool and the copy it turns into is a created card.
- Tavern Tempest and Stasis Elemental take their Elemental from the pool, of
  tier <= the player's tier, never themselves (Stone Ground's TavernTempest).
- Primalfin Lookout discovers Murlocs of tier <= the player's tier, never
  itself (Amalgadon counts as a Murloc).
- End-of-turn effects run when the player ends the turn (they touch only that
  player's warband, so this is the same as running them when everyone has).
- The recruit timer is stood in for by ``recruit.actions_per_turn``: once a
  player has taken that many actions this turn (Choose does not count), only
  EndTurn (or Choose for a pending Discover) is legal.
"""

from __future__ import annotations

import random
from typing import Final, cast

import numpy as np

from bgsim._core import hero_powers
from bgsim._core.minions import (
    ELEMENTAL,
    INFO,
    PIRATE,
    TRIPLE_REWARD,
    MinionCard,
    SpellCard,
)
from bgsim._core.player_state import PlayerState
from bgsim._core.pool import Pool
from bgsim._core.recruit_effects import (
    EFFECTS,
    SHOP,
    after_play,
    attach,
    battlecry_times,
    can_attach,
    each_turn,
    summoned,
)
from bgsim._core.recruit_turn import Turn
from bgsim._core.spells import SPELLS, cast_spell, created_card, spell_cost
from bgsim.actions import (
    ACTIONS,
    BUY_BASE,
    CHOOSE_BASE,
    CHOOSE_HERO_BASE,
    END_TURN,
    FREEZE,
    MAX_BOARD,
    MAX_HERO_OFFERS,
    MAX_PLAYERS,
    MAX_SHOP,
    NUM_ACTIONS,
    POWER_BASE,
    POWER_MINION_BASE,
    POWER_PLAYER_BASE,
    POWER_SHOP_BASE,
    REFRESH,
    SELL_BASE,
    UPGRADE,
    Action,
    Buy,
    Choose,
    ChooseHero,
    EndTurn,
    Freeze,
    HeroPower,
    IllegalActionError,
    Move,
    Play,
    Refresh,
    Sell,
    Upgrade,
    move_code,
    play_code,
)
from bgsim.cards import cards
from bgsim.ruleset import Ruleset
from combat_c.guarded import shown

_BUYS: Final = tuple(tuple(ACTIONS[BUY_BASE + i] for i in range(n)) for n in range(8))
_SELLS: Final = tuple(tuple(ACTIONS[SELL_BASE + i] for i in range(n)) for n in range(8))
_CHOOSES: Final = tuple(tuple(ACTIONS[CHOOSE_BASE + i] for i in range(n)) for n in range(4))
_MOVES: Final = tuple(
    tuple(ACTIONS[move_code(s, d)] for s in range(n) for d in range(n) if s != d) for n in range(8)
)
_PLAYS: Final[dict[tuple, tuple[Action, ...]]] = {}
# Legal actions are the shared instances of ACTIONS: their codes by identity.
_CODE_OF: Final[dict[int, int]] = {id(a): code for code, a in enumerate(ACTIONS)}
# A Turn for what draws nothing at random and takes nothing from the pool
# (legality checks, what outlives a fight) still wants a stream and a pool.
_NO_DRAWS: Final = random.Random(0)
_NO_POOL: Final = Pool()
_CHOOSE_HEROES: Final = tuple(
    tuple(ACTIONS[CHOOSE_HERO_BASE + i] for i in range(n)) for n in range(MAX_HERO_OFFERS + 1)
)
_POWER_ACTIONS: Final[dict[tuple[str | None, int | None], Action]] = {
    (None, None): ACTIONS[POWER_BASE],
    **{("minion", i): ACTIONS[POWER_MINION_BASE + i] for i in range(MAX_BOARD)},
    **{("shop", i): ACTIONS[POWER_SHOP_BASE + i] for i in range(MAX_SHOP)},
    **{("player", i): ACTIONS[POWER_PLAYER_BASE + i] for i in range(MAX_PLAYERS)},
}


# ------------------------------------------------------------ targets


def battlecry_targets(state: PlayerState, card: MinionCard) -> tuple[int | None, ...]:
    """The ``target`` values a minion may be placed with: its Battlecry's valid
    targets, or ``(None,)`` when it takes none or none is valid.

    >>> from bgsim import Lobby
    >>> from bgsim.rules import battlecry_targets, make_minion
    >>> state = Lobby(seed=1).state(0)
    >>> battlecry_targets(state, make_minion("UNG_073"))  # Rockpool Hunter, no Murloc yet
    (None,)
    """
    fx = EFFECTS.get(card.card)
    if fx is None or fx.target is None:
        return (None,)
    if fx.target == SHOP:
        slots = tuple(range(len(state.shop)))
    else:
        bits = int(fx.target)
        slots = tuple(i for i, m in enumerate(state.board) if INFO[m.card].tribes & bits)
    return slots or (None,)


def attach_targets(state: PlayerState, card: MinionCard) -> tuple[int, ...]:
    """Warband slots a Magnetic card may attach to (empty for other cards).

    >>> from bgsim import Lobby
    >>> from bgsim.rules import attach_targets, make_minion
    >>> attach_targets(Lobby(seed=1).state(0), make_minion("BOT_312"))  # no Mech yet
    ()
    """
    fx = EFFECTS.get(card.card)
    if fx is None or not fx.magnetic:
        return ()
    return tuple(i for i, m in enumerate(state.board) if can_attach(m, card))


# ------------------------------------------------------------ legality


def check_rules(rules: object) -> None:
    """Refuse anything but a Ruleset where the rules are asked for (the public
    functions would otherwise fail deep inside, on a missing attribute).

    >>> check_rules(None)
    Traceback (most recent call last):
    ...
    TypeError: rules must be a bgsim Ruleset (bgsim.load_ruleset()), not None
    """
    if type(rules) is not Ruleset and not isinstance(rules, Ruleset):
        raise TypeError(f"rules must be a bgsim Ruleset (bgsim.load_ruleset()), not {shown(rules)}")


def legal_actions(state: PlayerState, rules: Ruleset) -> list[Action]:
    """Every action the player may take now (EndTurn first; in the heroes'
    draft only one ChooseHero per offer).

    >>> from bgsim import Lobby
    >>> from bgsim.rules import legal_actions
    >>> lobby = Lobby(seed=1)
    >>> legal_actions(lobby.state(0), lobby.rules) == lobby.legal_actions(0)
    True
    """
    check_rules(rules)
    cached = state._legal
    if cached is None:
        cached = _legal(state, rules)
        object.__setattr__(state, "_legal", cached)
    return list(cached)


def action_mask(state: PlayerState, rules: Ruleset) -> np.ndarray:
    """Boolean array over all action codes, True where the action is legal.

    >>> from bgsim import Lobby
    >>> from bgsim.rules import action_mask
    >>> lobby = Lobby(seed=1)
    >>> bool(action_mask(lobby.state(0), lobby.rules)[0])  # EndTurn
    True
    """
    mask = np.zeros(NUM_ACTIONS, dtype=bool)
    mask[[_CODE_OF[id(a)] for a in legal_actions(state, rules)]] = True
    return mask


def prices(state: PlayerState, rules: Ruleset) -> tuple[int, int, int]:
    """What buying, refreshing and upgrading cost the player now (hero powers
    change them: Millhouse Manastorm's, Nozdormu's...).

    >>> from bgsim import Lobby
    >>> from bgsim.rules import prices
    >>> lobby = Lobby(seed=1)
    >>> prices(lobby.state(0), lobby.rules)
    (3, 1, 5)
    """
    check_rules(rules)
    econ = rules.economy
    hero = state.hero
    if hero is None:
        return econ.buy_cost, econ.refresh_cost, state.upgrade_cost
    return (
        hero_powers.price_of(hero, "buy", econ.buy_cost),
        hero_powers.price_of(hero, "refresh", econ.refresh_cost),
        hero_powers.price_of(hero, "upgrade", state.upgrade_cost),
    )


def _legal(s: PlayerState, rules: Ruleset) -> tuple[Action, ...]:
    if s.hero_offers:
        return _CHOOSE_HEROES[len(s.hero_offers)]
    if s.ended:
        return ()
    if s.discover:
        return _CHOOSES[len(s.discover)]
    if s.actions >= rules.recruit.actions_per_turn:
        return (END_TURN,)
    out: list[Action] = [END_TURN]
    board = s.board
    n = len(board)
    econ = rules.economy
    buy_cost, refresh_cost, upgrade_cost = prices(s, rules)
    hand_room = len(s.hand) < rules.limits.hand_size
    if s.gold >= buy_cost and hand_room:
        out.extend(_BUYS[len(s.shop)])
    out.extend(_SELLS[n])
    out.extend(_MOVES[n])
    if s.free_refreshes or s.gold >= refresh_cost:
        out.append(REFRESH)
    if s.shop and s.gold >= econ.freeze_cost:
        out.append(FREEZE)
    if s.tier < rules.tavern.max_tier and s.gold >= upgrade_cost:
        out.append(UPGRADE)
    positions = n + 1 if n < rules.limits.board_size else 0
    for h, card in enumerate(s.hand):
        if isinstance(card, SpellCard):
            if s.gold >= spell_cost(card):
                out.extend(ACTIONS[play_code(h, None, t)] for t in spell_targets(s, card))
            continue
        targets = battlecry_targets(s, card) if positions else ()
        attach_to = attach_targets(s, card)
        key = (h, positions, targets, attach_to)
        plays = _PLAYS.get(key)
        if plays is None:
            codes = [play_code(h, p, t) for p in range(positions) for t in targets]
            codes += [play_code(h, None, j) for j in attach_to]
            plays = _PLAYS[key] = tuple(ACTIONS[c] for c in codes)
        out.extend(plays)
    if s.hero is not None and hero_powers.is_active(s.hero):
        out.extend(_power_actions(s, rules))
    return tuple(out)


def _power_actions(s: PlayerState, rules: Ruleset) -> list[Action]:
    assert s.hero is not None  # the caller checked that the power is active
    if hero_powers.why_spent(s.hero, s.gold) is not None:  # most states: no Turn to build
        return []
    t = Turn(s, _NO_POOL, _NO_DRAWS, rules)
    if hero_powers.why_unusable(t) is not None:
        return []
    return [_POWER_ACTIONS[target] for target in hero_powers.targets(t)]


def spell_targets(state: PlayerState, card: SpellCard) -> tuple[int | None, ...]:
    """The ``target`` values a spell may be cast with: ``(None,)`` for a spell
    aimed at nothing, the warband slots it may aim at, or nothing at all
    when it needs a target and has none.

    >>> from bgsim import Lobby, SpellCard
    >>> from bgsim.rules import GOLD_COIN, spell_targets
    >>> spell_targets(Lobby(seed=1).state(0), SpellCard(GOLD_COIN))
    (None,)
    """
    fx = SPELLS.get(card.card)
    if fx is None:
        return ()
    if fx.castable is not None and fx.castable(state) is not None:
        return ()
    if fx.target is None:
        return (None,)
    return tuple(i for i in range(len(state.board)) if fx.valid is None or fx.valid(state, i))


def why_illegal(state: PlayerState, action: object, rules: Ruleset) -> str | None:
    """Why ``action`` is illegal now, or None if it is legal.

    >>> from bgsim import Lobby, Upgrade
    >>> from bgsim.rules import why_illegal
    >>> lobby = Lobby(seed=1)
    >>> why_illegal(lobby.state(0), Upgrade(), lobby.rules)
    'upgrading costs 5 gold, you have 3'
    """
    check_rules(rules)
    if id(action) not in _INTERNED:  # the shared instances are well-formed
        problem = _malformed(action)
        if problem is not None:
            return problem
    if state.hero_offers:
        if not isinstance(action, ChooseHero):
            if state.hero is not None and state.turn > 0:
                return "choose one of the hero power's offers first (ChooseHero)"
            return "choose a hero first (ChooseHero)"
        if not 0 <= action.option < len(state.hero_offers):
            return f"the draft offers options 0..{len(state.hero_offers) - 1}, not {action.option}"
        return None
    if isinstance(action, ChooseHero):
        return "no hero is on offer"
    if isinstance(action, EndTurn):
        if state.ended:
            return "the turn has already ended"
        return "a Discover is pending: Choose one of its options first" if state.discover else None
    s = state
    if s.ended:
        return "the turn has already ended"
    if s.discover:
        if not isinstance(action, Choose):
            return "a Discover is pending: Choose one of its options first"
        if not 0 <= action.option < len(s.discover):
            return f"the Discover offers options 0..{len(s.discover) - 1}, not {action.option}"
        return None
    if isinstance(action, Choose):
        return "no Discover is pending"
    if s.actions >= rules.recruit.actions_per_turn:
        return f"the recruit timer ran out ({s.actions} actions this turn): only EndTurn is left"
    econ = rules.economy
    board_size = rules.limits.board_size
    if isinstance(action, HeroPower):
        return _why_illegal_power(s, action, rules)
    if isinstance(action, Buy):
        if not 0 <= action.slot < len(s.shop):
            return f"no minion in shop slot {action.slot} (the shop has {len(s.shop)})"
        buy_cost = prices(s, rules)[0]
        if s.gold < buy_cost:
            return f"buying costs {buy_cost} gold, you have {s.gold}"
        if len(s.hand) >= rules.limits.hand_size:
            return f"the hand is full ({rules.limits.hand_size} cards)"
        return None
    if isinstance(action, Sell):
        if not 0 <= action.slot < len(s.board):
            return f"no minion in warband slot {action.slot} (the warband has {len(s.board)})"
        return None
    if isinstance(action, Move):
        n = len(s.board)
        if not (0 <= action.src < n and 0 <= action.dst < n):
            return f"Move needs two warband slots 0..{n - 1}"
        if action.src == action.dst:
            return "Move needs two different slots"
        return None
    if isinstance(action, Refresh):
        refresh_cost = prices(s, rules)[1]
        if not s.free_refreshes and s.gold < refresh_cost:
            return f"refreshing costs {refresh_cost} gold, you have {s.gold}"
        return None
    if isinstance(action, Freeze):
        if not s.shop:
            return "the shop is empty: nothing to freeze"
        if s.gold < econ.freeze_cost:
            return f"freezing costs {econ.freeze_cost} gold, you have {s.gold}"
        return None
    if isinstance(action, Upgrade):
        if s.tier >= rules.tavern.max_tier:
            return f"the tavern is already at tier {s.tier}"
        upgrade_cost = prices(s, rules)[2]
        if s.gold < upgrade_cost:
            return f"upgrading costs {upgrade_cost} gold, you have {s.gold}"
        return None
    return _why_illegal_play(s, cast(Play, action), board_size)


_INTERNED: Final = frozenset(map(id, ACTIONS))


def _malformed(action: object) -> str | None:
    """Why ``action`` is not an action of the action space, if it is not."""
    if isinstance(action, EndTurn):
        return None
    if not isinstance(
        action,
        Buy | Sell | Move | Play | Choose | Refresh | Freeze | Upgrade | ChooseHero | HeroPower,
    ):
        return f"{action!r} is not an action"
    if isinstance(action, HeroPower):
        aimed = [v for v in (action.target, action.shop, action.player) if v is not None]
        if len(aimed) > 1:
            return f"{action!r} aims at more than one thing"
    try:
        code = action.code
    except TypeError:
        return f"{action!r} has fields that are not slot numbers"
    if not 0 <= code < NUM_ACTIONS or (ACTIONS[code] is not action and ACTIONS[code] != action):
        return f"{action!r} is outside the action space (see bgsim.actions)"
    return None


def _why_illegal_power(s: PlayerState, action: HeroPower, rules: Ruleset) -> str | None:
    t = Turn(s, _NO_POOL, _NO_DRAWS, rules)
    reason = hero_powers.why_unusable(t)
    if reason is not None:
        return reason
    if action.target is not None:
        aimed: tuple[str | None, int | None] = ("minion", action.target)
    elif action.shop is not None:
        aimed = ("shop", action.shop)
    elif action.player is not None:
        aimed = ("player", action.player)
    else:
        aimed = (None, None)
    allowed = hero_powers.targets(t)
    if aimed in allowed:
        return None
    if not allowed:
        return "the hero power has no valid target now"
    if allowed[0][0] is None:
        return "the hero power takes no target: use HeroPower()"
    return f"the hero power cannot aim at {aimed[0] or 'nothing'} {aimed[1]}"


def _why_illegal_play(s: PlayerState, action: Play, board_size: int) -> str | None:
    if not 0 <= action.hand < len(s.hand):
        return f"no card in hand slot {action.hand} (the hand has {len(s.hand)})"
    card = s.hand[action.hand]
    if isinstance(card, SpellCard):
        allowed = spell_targets(s, card)
        if card.card not in SPELLS:
            return f"{card.name} cannot be cast"
        if s.gold < spell_cost(card):
            return f"{card.name} costs {spell_cost(card)} gold, you have {s.gold}"
        unable = SPELLS[card.card].castable
        if unable is not None and unable(s) is not None:
            return f"{card.name} cannot be cast now: {unable(s)}"
        if action.pos is not None:
            return f"{card.name} is a spell: play it with pos=None"
        if action.target in allowed:
            return None
        if allowed == (None,):
            return f"{card.name} takes no target: play it with target=None"
        if not allowed:
            return f"{card.name} has no minion to aim at"
        return f"{card.name} must target one of {list(allowed)}, not {action.target}"
    if action.pos is None:
        if action.target is None:
            return f"{card.name} is a minion: give a warband position"
        if action.target not in attach_targets(s, card):
            if not EFFECTS.get(card.card, None) or not EFFECTS[card.card].magnetic:
                return f"{card.name} is not Magnetic: give a warband position"
            return f"{card.name} cannot attach to warband slot {action.target}"
        return None
    if len(s.board) >= board_size:
        return f"the warband is full ({board_size} minions)"
    if not 0 <= action.pos <= len(s.board):
        return f"position must be 0..{len(s.board)}, not {action.pos}"
    targets = battlecry_targets(s, card)
    if action.target not in targets:
        if targets == (None,):
            return f"{card.name} takes no target here"
        return f"{card.name} must target one of {list(targets)}, not {action.target}"
    return None


# ------------------------------------------------------------ actions


def apply_action(
    state: PlayerState, action: Action, pool: Pool, rng: random.Random, rules: Ruleset
) -> PlayerState:
    """The state after ``action``; raises :class:`IllegalActionError` (changing
    nothing) if it is illegal. Changes ``pool`` and ``rng`` in place."""
    # An action listed among the state's legal ones needs no further check
    # (compared by identity: the listed actions are interned, ACTIONS).
    if not _listed(state._legal, action):
        reason = why_illegal(state, action, rules)
        if reason is not None:
            raise IllegalActionError(f"{action!r}: {reason}")
    return apply_legal_action(state, action, pool, rng, rules)


def _listed(legal: tuple | None, action: object) -> bool:
    if legal is not None:
        for a in legal:
            if a is action:
                return True
    return False


def apply_legal_action(
    state: PlayerState, action: Action, pool: Pool, rng: random.Random, rules: Ruleset
) -> PlayerState:
    """:func:`apply_action` without the legality check, for callers that took
    ``action`` from ``legal_actions(state)`` (searches playing thousands of
    imagined turns). Anything else must go through :func:`apply_action`."""
    t = Turn(state, pool, rng, rules)
    if type(action) is Choose:
        _choose(t, action.option)
        return t.freeze()
    if type(action) is EndTurn:
        each_turn(t, "end_of_turn")
        hero_powers.end_of_turn(t)
        t.ended = True
        return t.freeze()
    if type(action) is ChooseHero:
        _choose_hero(t, action.option)
        return t.freeze()
    t.actions += 1
    econ = rules.economy
    if type(action) is HeroPower:
        _use_power(t, action)
    elif type(action) is Move:
        t.board.insert(action.dst, t.board.pop(action.src))
    elif type(action) is Play:
        _play(t, action)
    elif type(action) is Buy:
        _buy(t, action.slot)
    elif type(action) is Sell:
        _sell(t, action.slot)
    elif type(action) is Refresh:
        if t.free_refreshes:
            t.free_refreshes -= 1
        else:
            t.gold -= hero_powers.price(t, "refresh", econ.refresh_cost)
        _roll(t, keep_frozen=False)
        hero_powers.on_refresh(t)
    elif type(action) is Freeze:
        t.gold -= econ.freeze_cost
        thaw = all(t.shop_frozen)
        t.shop_frozen = [not thaw] * len(t.shop)
    else:  # Upgrade
        t.gold -= hero_powers.price(t, "upgrade", t.upgrade_cost)
        t.tier += 1
        if t.tier < rules.tavern.max_tier:
            t.upgrade_cost = rules.upgrade_base_cost(t.tier + 1)
        else:
            t.upgrade_cost = 0
        hero_powers.on_upgrade(t)
    return t.freeze()


def _roll(t: Turn, keep_frozen: bool) -> None:
    """A new shop, as many minions as the tier (or the hero power) says."""
    if t.hero is None:
        t.roll_shop(keep_frozen)
        return
    t.roll_shop(keep_frozen, hero_powers.shop_size(t, t.rules.shop_size(t.tier)))
    hero_powers.on_roll(t)


def _choose_hero(t: Turn, option: int) -> None:
    """The draft: the chosen hero with its power (or, for a hero whose power
    offers powers, the chosen power), its starting Health and what it starts
    the game with. A power offered later (Training Session) replaces the
    power and the turn goes on."""
    picked = t.hero_offers[option]
    t.hero_offers = ()
    if t.hero is None:
        card = cards()[picked]
        power = card.hero_power
        assert power is not None
        t.hero = hero_powers.new_hero(picked, power)
        t.health = card.health
    elif hero_powers.on_pick(t, picked):
        return  # the power's own offer during a turn (a Secret): the turn goes on
    else:
        t.hero = hero_powers.new_power(t.hero, picked)
    if t.turn == 0:
        t.ended = True
    hero_powers.on_choose(t)


def _use_power(t: Turn, action: HeroPower) -> None:
    if action.target is not None:
        hero_powers.use_power(t, "minion", action.target)
    elif action.shop is not None:
        hero_powers.use_power(t, "shop", action.shop)
    elif action.player is not None:
        hero_powers.use_power(t, "player", action.player)
    else:
        hero_powers.use_power(t, None, None)
    t.check_triples()


def _buy(t: Turn, slot: int) -> None:
    minion = t.shop.pop(slot)
    t.shop_frozen.pop(slot)
    t.gold -= hero_powers.price(t, "buy", t.rules.economy.buy_cost)
    t.hand.append(minion)
    if INFO[minion.card].tribes & PIRATE:
        t.pirates_bought += 1
    board = t.board
    for i in range(len(board)):
        m = board[i]
        fx = EFFECTS.get(m.card)
        if fx is not None and fx.on_buy is not None:
            fx.on_buy(t, i, m.golden, minion)
    hero_powers.on_buy(t, minion)
    hero_powers.bought_from(t, slot)
    t.check_triples()


def _sell(t: Turn, slot: int) -> None:
    minion = t.remove(slot)
    t.gold += t.rules.economy.sell_value
    t.pool.put(minion.pool_copies)
    fx = EFFECTS.get(minion.card)
    if fx is not None and fx.on_sell is not None:
        fx.on_sell(t, minion.golden)
    hero_powers.on_sell(t, minion)


def _play(t: Turn, action: Play) -> None:
    card = t.hand.pop(action.hand)
    if isinstance(card, SpellCard):
        cast_spell(t, card, action.target)
        t.check_triples()
        return
    fx = EFFECTS.get(card.card)
    if action.pos is None:
        mech = cast(int, action.target)  # a Magnetic card's Mech: legal plays name one
        t.board[mech] = attach(t.board[mech], card)
        at = None
    else:
        at = t.played = t.insert(action.pos, card)
        summoned(t, at)
        if fx is not None and fx.battlecry is not None:
            aim = action.target
            friendly = aim is not None and fx.target != SHOP
            if aim is not None and friendly:
                t.aim = aim + (aim >= at)
            for _ in range(hero_powers.battlecries(t, battlecry_times(t))):
                if t.played is None:
                    break
                target = t.aim if friendly else action.target
                if friendly and target is None:
                    break
                fx.battlecry(t, t.played, card.golden, target)
            t.aim = None
        at = t.played
    after_play(t, card, at)
    hero_powers.after_play(t, card, at)
    t.played = None
    if INFO[card.card].tribes & ELEMENTAL:
        t.elementals_played += 1
    if card.golden and card.triple:
        rules = t.rules
        tier = min(t.tier + rules.triples.reward_tier_offset, rules.triples.reward_max_tier)
        t.add_to_hand(SpellCard(TRIPLE_REWARD, tier))
    t.check_triples()


def _choose(t: Turn, option: int) -> None:
    chosen = t.discover[option]
    t.pool.put(c for i, m in enumerate(t.discover) if i != option for c in m.pool_copies)
    t.discover = ()
    t.add_to_hand(chosen)
    t.check_triples()
    t.next_discover()


# ------------------------------------------------------------ turn and combat


def start_turn(
    state: PlayerState, turn: int, pool: Pool, rng: random.Random, rules: Ruleset
) -> PlayerState:
    """The player's state at the start of ``turn`` (gold, upgrade discount,
    start-of-turn effects, shop refresh unless frozen)."""
    t = Turn(state, pool, rng, rules)
    econ = rules.economy
    t.gold = min(econ.starting_gold + (turn - 1) * econ.gold_per_turn, econ.max_gold)
    if state.turn > 0 and t.tier < rules.tavern.max_tier:
        t.upgrade_cost = max(
            rules.tavern.min_upgrade_cost, t.upgrade_cost - rules.tavern.upgrade_discount_per_turn
        )
    t.turn = turn
    t.pirates_bought = 0
    t.elementals_played = 0
    t.actions = 0
    t.ended = False
    hero_powers.start_of_turn(t)
    each_turn(t, "start_of_turn")
    t.check_triples()  # a card the turn's start brings (Maiev's awakened minion) may be a third
    _roll(t, keep_frozen=True)
    return t.freeze()


def after_combat(
    state: PlayerState,
    damage: int,
    won: bool,
    lost: bool,
    permanent: tuple[tuple[int, int, int], ...],
    hand: tuple[str, ...],
    opponent_cards: tuple[str, ...],
    pool: Pool,
    rules: Ruleset,
    kills: int = 0,
    first_kill: str | None = None,
    secrets_used: tuple[str, ...] = (),
) -> PlayerState:
    """Apply what outlives a fight: ``damage`` to the hero (an Ice Block
    revealed in the fight has already prevented it), the won flag,
    permanent buffs ``(slot, attack, health)`` to the warband minions that
    fought, cards added to hand (if there is room: Gold Coins, Nat Pagle's
    minions, Gentle Djinni's copies, Y'Shaarj's copy; all created cards), and
    the last opponent's warband for Murozond; then the player's Secrets the
    fight revealed leave play, and the hero power learns how many enemy
    minions died (``kills``, the first of them ``first_kill``) and the result."""
    t = Turn(state, pool, _NO_DRAWS, rules)
    t.health -= damage
    t.won_last_combat = won
    t.last_opponent_cards = opponent_cards
    for slot, attack, health in permanent:
        if 0 <= slot < len(t.board):
            t.buff(slot, attack, health)
    for card_id in hand:
        t.add_to_hand(created_card(card_id))
    hero_powers.secrets_revealed(t, secrets_used)
    hero_powers.on_kills(t, kills, first_kill)
    hero_powers.after_combat(t, won, lost)
    t.check_triples()
    return t.freeze()


def release(state: PlayerState, pool: Pool) -> None:
    """An eliminated player's cards go back to the pool."""
    pool.put(state.pool_copies())


# ------------------------------------------------------------ heroes


def offer_heroes(state: PlayerState, offers: tuple[str, ...]) -> PlayerState:
    """The player before turn 1, choosing among ``offers`` (hero card ids)."""
    return PlayerState(
        state.player,
        state.turn,
        state.tier,
        state.gold,
        state.upgrade_cost,
        state.health,
        hero_offers=offers,
    )


def gifts(state: PlayerState) -> tuple[str, ...]:
    """Card ids the player's hero power gives every other living player at the
    end of this player's turn."""
    return hero_powers.gifts(state.hero)


def receive(
    state: PlayerState, card_ids: tuple[str, ...], pool: Pool, rules: Ruleset
) -> PlayerState:
    """The player with created cards added to the hand (each lost if the hand
    is full)."""
    t = Turn(state, pool, _NO_DRAWS, rules)
    for card_id in card_ids:
        t.add_to_hand(created_card(card_id))
    t.check_triples()
    return t.freeze()


def player_died(state: PlayerState, warband: tuple[MinionCard, ...], rules: Ruleset) -> PlayerState:
    """What the player's hero power does when another player is knocked out
    with ``warband`` (Mr. Bigglesworth)."""
    if state.hero is None or hero_powers.effects(state.hero).on_death is None:
        return state
    t = Turn(state, _NO_POOL, _NO_DRAWS, rules)
    hero_powers.on_death(t, warband)
    return t.freeze()


def see_pairings(
    state: PlayerState,
    pairs: tuple[tuple[int, int], ...],
    ghost: int | None,
    rng: random.Random,
    rules: Ruleset,
) -> PlayerState:
    """What the player's hero power does with the coming round's pairings
    (drawn at the start of the turn in a lobby with heroes: Lord Barov)."""
    if state.hero is None or hero_powers.effects(state.hero).on_pairings is None:
        return state
    t = Turn(state, _NO_POOL, rng, rules)
    hero_powers.on_pairings(t, pairs, ghost)
    return t.freeze()


def round_over(
    state: PlayerState, winners: tuple[int, ...], pool: Pool, rules: Ruleset
) -> PlayerState:
    """What the player's hero power does once every fight of the round is
    over: ``winners`` won their combat (Lord Barov's wager)."""
    if state.hero is None or hero_powers.effects(state.hero).after_round is None:
        return state
    t = Turn(state, pool, _NO_DRAWS, rules)
    hero_powers.after_round(t, winners)
    t.check_triples()
    return t.freeze()


def attack_aura(state: PlayerState) -> int:
    """Attack every minion in play shows in the player's recruit phase
    (Deathwing's aura; display only)."""
    return hero_powers.attack_aura(state.hero)


def visible_counter(state: PlayerState) -> tuple[str, int] | None:
    """The counter on the player's hero power card, which every player sees."""
    return hero_powers.visible_counter(state.hero)
