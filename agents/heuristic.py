"""HeuristicAgent: a sensible human-like curve player, the bar other agents are measured against.

It reads only its observation and decides one action at a time from static card
knowledge and simple scores (no combat simulation), in this order each time:

1. a pending Discover: take the best-valued option;
2. Gold Coins at once; level if the curve (by turn, health and upgrade cost) says so;
   then a Triple Reward (after leveling, since its tier is fixed when it is played);
3. play the hand: enablers first (Brann, Wrath Weaver, Mama Bear, Nomi...), minions that
   buff others last; battlecries aim at the best target, Magnetic cards attach to the best
   Mech; with a full warband, sell the weakest minion for a clearly better one;
4. buy the best-valued shop minion (triples and pairs first), sell the weakest to make
   room or gold for a clearly better one, refresh while nothing is worth buying, freeze
   a shop worth buying when the gold has run out;
5. arrange the warband (cleave and summoning deathrattles left, taunts toward the middle,
   auras right) with the fewest moves, then end the turn.

With heroes, it drafts by the rule and uses the hero power by the policy of
:mod:`agents.hero_policy` (``data/hero_policy.toml``: when each kind of power
is used, which target it takes), pays the prices the hero's power sets, and
casts the spells hero powers give: free ones at once (on the best target
after the hand is played), others before buying.

A card's value is its stats, its keywords, a hand-tuned bonus for its text that grows
with the friendly minions it works with (Battlecry parts only while unplayed), a bonus
for sharing minion types with the warband, and a large bonus for the third copy of a card
(pairs are kept). Every decision is stateless (derived from the observation), makes
progress (spends gold or actions) and stops at the recruit action limit.
"""

from __future__ import annotations

import random
import tomllib
from collections.abc import Sequence
from typing import Any, ClassVar, Final, cast

from agents.hero_policy import (
    AFTER_BUYS,
    BEFORE_BATTLECRY,
    BEFORE_BUY,
    FIRST,
    PASSIVE,
    STRONGEST,
    WEAKEST,
    PowerPolicy,
    power_ready,
)
from agents.hero_policy import (
    KNOWLEDGE as HEROES,
)
from agents.hero_policy import (
    REFRESH as REFRESH_KIND,
)
from agents.options import act_arguments, choice, number
from bgsim import HeroPower, MinionCard, Observation, PlayerInfo, PlayerState, Ruleset, SpellCard
from bgsim.actions import (
    ACTIONS,
    BUY_BASE,
    CHOOSE_BASE,
    CHOOSE_HERO_BASE,
    END_TURN,
    FREEZE,
    REFRESH,
    SELL_BASE,
    UPGRADE,
    move_code,
    play_code,
)
from bgsim.cards import TRIBES, cards
from bgsim.resources import data_path
from bgsim.rules import (
    DIVINE_SHIELD,
    GOLD_COIN,
    MEGA_WINDFURY,
    POISONOUS,
    REBORN,
    TAUNT,
    TRIBE_BITS,
    TRIPLE_REWARD,
    WINDFURY,
    attach_targets,
    battlecry_target,
    battlecry_targets,
    card_info,
    pool_minion,
    power_actions,
    power_cost,
    prices,
    spell_cost,
    spell_targets,
    why_illegal,
)
from combat_c.guarded import shown

# ------------------------------------------------------------ card knowledge

# Counters a text bonus may scale with, counted over the warband and hand.
BEAST_N, DEMON_N, DRAGON_N, ELEM_N, MECH_N, MURLOC_N, PIRATE_N = range(7)
DR_N: Final = 7  # minions with a Deathrattle (attached Menaces included)
BC_N: Final = 8  # Battlecry minions in hand (for Brann and Kalecgos)
TAUNT_N: Final = 9
SHIELD_N: Final = 10
GOLDEN_N: Final = 11
SUMMON_N: Final = 12  # minions whose Deathrattle or Battlecry summons
TYPES_N: Final = 13  # distinct minion types on the warband
HURT_N: Final = 14  # hero damage taken (Annihilan Battlemaster)
EARLY_N: Final = 15  # 1 in the first turns (economy cards), else 0
ONE: Final = 16  # the constant 1 (a flat bonus)
N_COUNTERS: Final = 17
COUNTERS: Final = {
    **{tribe: i for i, tribe in enumerate(TRIBES)},
    "deathrattle": DR_N,
    "battlecry": BC_N,
    "taunt": TAUNT_N,
    "shield": SHIELD_N,
    "golden": GOLDEN_N,
    "summoner": SUMMON_N,
    "types": TYPES_N,
    "hurt": HURT_N,
    "early": EARLY_N,
    "one": ONE,
}

_TRIBE_INDEX: Final = [(TRIBE_BITS[t], i) for i, t in enumerate(TRIBES)]
_ALL_TRIBES: Final = sum(TRIBE_BITS.values())

# Warband order, left (0) to right (4).
_LEFT, _EARLY, _MID, _TAUNT, _RIGHT = range(5)
ROLES: Final = {"left": _LEFT, "early": _EARLY, "right": _RIGHT}
# How a Battlecry or a Magnetic card weighs its target beyond the target's value.
STATS_ONLY, NOT_POISONOUS, NO_TAUNT, NO_SHIELD = range(1, 5)
TARGETING: Final = {
    "stats_only": STATS_ONLY,
    "not_poisonous": NOT_POISONOUS,
    "no_taunt": NO_TAUNT,
    "no_shield": NO_SHIELD,
}


_FIELDS: Final = ("text", "summoner", "enabler", "buffer", "role", "target", "attach", "sell_gold")


class Knowledge:
    """The agent's knowledge of cards, read from ``data/heuristic.toml`` (its
    header says what each field means): text bonuses, summoners, play order
    (enablers, buffers), warband roles and target preferences."""

    def __init__(self, table: dict) -> None:
        self.text: dict[str, tuple[tuple[int, float, bool], ...]] = {}
        self.summoners: set[str] = set()
        self.enablers: dict[str, int] = {}
        self.buffers: set[str] = set()
        self.roles: dict[str, int] = {}
        self.targeting: dict[str, int] = {}
        self.sell_gold: dict[str, tuple[int, int]] = {}
        db = cards()
        for card_id, entry in table.items():
            if card_id not in db or not db[card_id].in_pool:
                raise ValueError(f"heuristic knowledge: {card_id!r} is not a pool card")
            self._read(card_id, entry)

    def _read(self, card_id: str, entry: dict) -> None:
        where = f"heuristic knowledge [{card_id}]"
        for key in entry:
            if key not in _FIELDS:
                raise ValueError(f"{where}: unknown field {key!r}")
        try:
            if "text" in entry:
                self.text[card_id] = tuple(
                    (COUNTERS[counter], float(points), {"always": False, "battlecry": True}[when])
                    for counter, points, when in entry["text"]
                )
            if entry.get("summoner"):
                self.summoners.add(card_id)
            if "enabler" in entry:
                self.enablers[card_id] = COUNTERS[entry["enabler"]]
            if entry.get("buffer"):
                self.buffers.add(card_id)
            if "role" in entry:
                self.roles[card_id] = ROLES[entry["role"]]
            for key in ("target", "attach"):
                if key in entry:
                    self.targeting[card_id] = TARGETING[entry[key]]
            if "sell_gold" in entry:
                normal, golden = entry["sell_gold"]
                self.sell_gold[card_id] = (int(normal), int(golden))
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"{where}: bad value ({exc})") from None


def _knowledge() -> Knowledge:
    with data_path("heuristic.toml").open("rb") as f:
        return Knowledge(tomllib.load(f))


KNOWLEDGE: Final = _knowledge()
TEXT: Final = KNOWLEDGE.text
_SUMMONERS: Final = frozenset(KNOWLEDGE.summoners)
_ENABLERS: Final = KNOWLEDGE.enablers
_BUFFERS: Final = frozenset(KNOWLEDGE.buffers)
_ROLE: Final = KNOWLEDGE.roles
_TARGETING: Final = KNOWLEDGE.targeting
_SELL_GOLD: Final = KNOWLEDGE.sell_gold
_POWERS: Final = HEROES.powers
# How the agent drafts: by the ratings of agents.hero_policy (a draw that favours
# the best rated, see HeroKnowledge.draft), the best rated offer, or the first
# offer (offers are a random draw, so that is a uniformly random hero: for
# measuring).
DRAFTS: Final = ("rating", "best", "first")

# Leveling curves: the turns on which to reach tiers 2, 3, 4, 5 and 6. A curve option is
# one of these names or such turns joined by dashes ("2-4-7-9-12").
CURVES: Final[dict[str, str]] = {
    "standard": "2-5-7-10-13",
    "fast": "2-4-6-8-10",
    "slow": "3-5-8-11-14",
}


_POOL_TIERS: Final = 6  # the card pool's tavern tiers
_CURVE_TURNS: Final = 100  # the latest turn a curve may name (games end long before)
_SPELL_VALUE: Final = 0.0  # a spell a Discover offers (Darkmoon Prizes): no preference


def _curve(spec: str) -> tuple[int, ...]:
    """The target tier for each turn (index = turn, the last entry repeats)."""
    text = CURVES.get(spec, spec)
    try:
        turns = [int(t) for t in text.split("-")]
    except ValueError:
        turns = []
    if (
        len(turns) != _POOL_TIERS - 1
        or turns != sorted(turns)
        or turns[0] < 1
        or turns[-1] > _CURVE_TURNS
    ):
        raise ValueError(
            f"bad curve {shown(spec)}: use {', '.join(CURVES)} or {_POOL_TIERS - 1} rising turns "
            f"1..{_CURVE_TURNS} joined by dashes (the turns to reach tiers 2..6)"
        )
    return tuple(1 + sum(turn >= t for t in turns) for turn in range(turns[-1] + 1))


class _Facts:
    """What a minion brings, whatever the warband: worked out once per minion
    (the searches ask about the same minions over and over)."""

    __slots__ = (
        "all_tribes",
        "base",
        "copy",
        "golden_id",
        "own",
        "played",
        "poisonous",
        "terms",
        "tier",
        "tribe_index",
        "tribes",
        "unplayed",
    )

    def __init__(self, m: MinionCard) -> None:
        info = card_info(m.card)
        kw = m.keywords
        a = m.attack
        v = float(a + m.health)
        if kw & DIVINE_SHIELD:
            v += a + 4
        if kw & TAUNT:
            v += 1
        if kw & POISONOUS:
            v += 4  # and the turn number (see _worth)
        if kw & WINDFURY:
            v += 0.6 * a
        if kw & MEGA_WINDFURY:
            v += 1.5 * a
        if kw & REBORN:
            v += 0.6 * (info.golden_attack if m.golden else info.attack) + 1
        if m.magnetic:
            v += 4 * len(m.magnetic)
        self.base = v
        self.poisonous = bool(kw & POISONOUS)
        self.tier = info.tier
        self.tribes = info.tribes
        self.all_tribes = info.tribes == _ALL_TRIBES
        self.tribe_index = tuple(i for bit, i in _TRIBE_INDEX if info.tribes & bit)
        self.terms = TEXT.get(m.card)
        self.golden_id = bool(info.golden_id)
        # Counters this minion adds to, so that as a member it does not count itself.
        own = list(self.tribe_index)
        if info.deathrattle or m.magnetic:
            own.append(DR_N)
        if kw & TAUNT:
            own.append(TAUNT_N)
        if kw & DIVINE_SHIELD:
            own.append(SHIELD_N)
        if m.card in _SUMMONERS:
            own.append(SUMMON_N)
        self.own = frozenset(own)
        # Counters it adds to on the warband and in the hand.
        played = [*own, GOLDEN_N] if m.golden else own
        self.played = tuple(played)
        self.unplayed = (*played, BC_N) if info.battlecry else self.played
        self.copy = not m.golden and self.golden_id


_FACTS: Final[dict[MinionCard, _Facts]] = {}


def _facts(m: MinionCard) -> _Facts:
    f = _FACTS.get(m)
    if f is None:
        if len(_FACTS) >= 20_000:
            _FACTS.clear()
        f = _FACTS[m] = _Facts(m)
    return f


class _Ctx:
    """Counts over the warband and hand that card values depend on."""

    __slots__ = ("copies", "counts", "move", "scale", "scored", "shop_values", "turn", "weakest")

    def __init__(self, state: PlayerState, turn: int, hero_health: int) -> None:
        counts = [0.0] * N_COUNTERS
        copies: dict[str, int] = {}
        board = state.board
        types = 0
        for m in board:
            f = _facts(m)
            for i in f.played:
                counts[i] += 1
            if f.copy:
                copies[m.card] = copies.get(m.card, 0) + 1
            types |= f.tribes
        for c in state.hand:
            if type(c) is not MinionCard:
                continue
            f = _facts(c)
            for i in f.unplayed:
                counts[i] += 1
            if f.copy:
                copies[c.card] = copies.get(c.card, 0) + 1
        counts[TYPES_N] = min(bin(types).count("1"), 7)
        counts[HURT_N] = max(hero_health - state.health, 0)
        counts[EARLY_N] = 1.0 if turn <= 5 else 0.0
        counts[ONE] = 1.0
        self.counts = counts
        self.copies = copies
        self.turn = turn
        # Text bonuses are in early-game stat points; later warbands are bigger.
        self.scale = 1.0 + 0.08 * max(turn - 4, 0)
        # Worked out once per context (see HeuristicAgent._context): the
        # warband's weakest minion, the next arranging Move, the hand's minions
        # in playing order and the values of the shop minions seen.
        self.weakest: tuple[int | None, float] | None = None
        self.move: tuple[Any, int] | None = None
        self.scored: list[tuple[float, float, int, MinionCard]] | None = None
        self.shop_values: dict[MinionCard, float] = {}


def _role(m: MinionCard) -> int:
    role = _ROLE.get(m.card)
    if role is not None:
        return role
    kw = m.keywords
    if kw & TAUNT:
        return _TAUNT
    if kw & (DIVINE_SHIELD | WINDFURY | MEGA_WINDFURY):
        return _EARLY
    return _MID


# Tunable numbers (each also an option, e.g. ``heuristic[margin=4]``, for A/B runs).
PARAMS: Final[dict[str, float]] = {
    "synergy": 1.0,  # value per friendly minion sharing a type
    "triple": 20.0,  # value of the copy that completes a triple
    "pair": 3.0,  # value of a copy that makes a pair
    "margin": 3.0,  # how much better a minion must be to replace one
    "floor": 1.3,  # buy (when a refresh is affordable) above this x a tier-below minion
    "freeze": 1.3,  # freeze when out of gold a shop minion above this x a tier minion
    "rich": 6.0,  # level off the curve when this much gold is left after the upgrade
    "low": 12.0,  # at or below this health, level one tier later (from tier 4)
    "tierw": 0.8,  # value per tavern tier of a card
    "text": 1.0,  # scale of the card text bonuses
    "noise": 0.0,  # uniform noise added to card values (drawn from the seed)
}


class HeuristicAgent:
    """A sensible human-like player (see the module doc). Deterministic for a seed.

    Options exist for A/B tuning runs (the defaults are the tuned player): ``curve``
    (a name in :data:`CURVES` or turns like ``2-5-7-10-13``), ``draft`` (one of
    :data:`DRAFTS`) and the numbers in :data:`PARAMS`, e.g.
    ``heuristic[curve=fast,margin=4]``.
    """

    name = "heuristic"
    OPTIONS: ClassVar[tuple[str, ...]] = ("curve", "draft", *PARAMS)

    def __init__(
        self,
        curve: object = "standard",
        rules: Ruleset | None = None,
        draft: object = "rating",
        **params: object,
    ) -> None:
        # Options arrive from lineups as text or numbers: checked here, so a
        # bad one is a ValueError naming it (agents.options).
        unknown = sorted(set(params) - set(PARAMS))
        if unknown:
            raise ValueError(f"unknown option {unknown[0]!r}; choose from {', '.join(PARAMS)}")
        self.curve = _curve(str(curve))
        self.draft = choice("draft", draft, DRAFTS)
        # The public standings, for powers aimed at a player (set by act; a
        # search that calls decide sets them from its observation).
        self.standings: tuple[PlayerInfo, ...] = ()
        values = {key: number(key, value) for key, value in {**PARAMS, **params}.items()}
        self.synergy = float(values["synergy"])
        self.triple = float(values["triple"])
        self.pair = float(values["pair"])
        self.margin = float(values["margin"])
        self.floor = float(values["floor"])
        self.freeze = float(values["freeze"])
        self.rich = float(values["rich"])
        self.low = float(values["low"])
        self.tierw = float(values["tierw"])
        self.noise = float(values["noise"])
        self.text = float(values["text"])
        self._rng = random.Random(0)
        self._contexts: dict[tuple, _Ctx] = {}
        self.rules: Ruleset | None = None
        self._buy_cost = self._refresh_cost = self._sell_value = 0
        self._board_size = self._hand_size = self._actions_per_turn = 0
        self._max_tier = self._hero_health = 0
        if rules is not None:
            self.use_rules(rules)

    def use_rules(self, rules: Ruleset) -> None:
        """Play by ``rules`` (:meth:`act` takes them from its observation;
        callers of :meth:`decide` set them first)."""
        if rules is self.rules:
            return
        self.rules = rules
        self._buy_cost = rules.economy.buy_cost
        self._refresh_cost = rules.economy.refresh_cost
        self._sell_value = rules.economy.sell_value
        self._board_size = rules.limits.board_size
        self._hand_size = rules.limits.hand_size
        self._actions_per_turn = rules.recruit.actions_per_turn
        self._max_tier = rules.tavern.max_tier
        self._hero_health = rules.lobby.hero_health
        self._contexts.clear()

    def reset(self, seat: int, seed: int) -> None:
        self._rng = random.Random(seed)

    def __reduce__(self) -> tuple:
        # The context cache holds compiled values that do not pickle (and
        # refills on use): the agent pickles without it.
        state = dict(cast(dict, self.__getstate__()))
        state["_contexts"] = {}
        return (type(self), (), state)

    # ------------------------------------------------------------ protocol

    def act(self, observation: Observation, legal_actions: Sequence[Any]) -> Any:
        act_arguments(observation, legal_actions)
        self.use_rules(observation.rules)
        self.standings = observation.players
        return self.decide(observation.state, observation.turn, legal_actions)

    def decide(self, s: PlayerState, turn: int, legal_actions: Sequence[Any] | None = None) -> Any:
        """The action for own state ``s`` on ``turn``: all the agent reads of
        its observation (searches call this for states they imagine). Without
        ``legal_actions`` each candidate is checked on its own, which is
        cheaper than listing every legal action of a state seen once."""
        if legal_actions is not None and len(legal_actions) == 1:
            return legal_actions[0]
        if self.rules is None:
            raise ValueError("HeuristicAgent.decide needs rules: call use_rules first")
        if s.hero_offers:
            if self.draft == "first":
                option = 0
            else:
                option = HEROES.draft(s.hero_offers, self._rng if self.draft == "rating" else None)
            return ACTIONS[CHOOSE_HERO_BASE + option]
        ctx = self._context(s, turn)
        if s.discover:
            values = [
                self._value(m, ctx, member=False, played=False)
                if type(m) is MinionCard
                else _SPELL_VALUE  # a Darkmoon Prize
                for m in s.discover
            ]
            return ACTIONS[CHOOSE_BASE + values.index(max(values))]
        rules = self.rules
        for action in self._plan(turn, s, ctx):
            if legal_actions is None:
                if why_illegal(s, action, rules) is None:
                    return action
            elif _legal(action, legal_actions):
                return action
        # EndTurn is always legal here (no Discover is pending) and comes first
        return END_TURN if legal_actions is None else legal_actions[0]

    # ------------------------------------------------------------ values

    def _context(self, s: PlayerState, turn: int) -> _Ctx:
        """The counts for this warband, hand, health and turn. A search asks the
        agent about many states that share them (a refresh changes only the
        shop), so contexts are kept with the weakest minion and next Move
        worked out in them; with ``noise`` every decision draws afresh."""
        if self.noise:
            return _Ctx(s, turn, self._hero_health)
        key = (s.board, s.hand, s.health, turn)
        ctx = self._contexts.get(key)
        if ctx is None:
            if len(self._contexts) >= 4096:
                self._contexts.clear()
            ctx = self._contexts[key] = _Ctx(s, turn, self._hero_health)
        return ctx

    def warband_value(self, state: Any, turn: int) -> float:
        """What the agent's card knowledge says the warband and hand are worth."""
        ctx = _Ctx(state, turn, self._hero_health)
        total = 0.0
        for m in state.board:
            total += self._value(m, ctx, member=True, played=True)
        for m in state.hand:
            if type(m) is MinionCard:
                total += self._value(m, ctx, member=True, played=False)
        return total

    def _value(self, m: MinionCard, ctx: _Ctx, member: bool, played: bool) -> float:
        """What ``m`` is worth to this warband. ``member``: it is already counted in
        ``ctx`` (warband or hand); ``played``: its Battlecry is spent."""
        f = _FACTS.get(m) or _facts(m)
        v = f.base
        if f.poisonous:
            v += ctx.turn
        counts = ctx.counts
        terms = f.terms
        if terms:
            bonus = 0.0
            own = f.own
            for counter, per, bc in terms:
                if bc and played:
                    continue
                n = counts[counter]
                if member and counter in own:
                    n -= 1
                bonus += per * n
            v += bonus * self.text * ctx.scale * (2 if m.golden else 1)
        v += self.tierw * f.tier
        if f.tribes and self.synergy:
            if f.all_tribes:
                v += self.synergy * min(max(counts[:7]), 5)
            else:
                synergy = self.synergy
                less = 1 if member else 0
                for i in f.tribe_index:
                    n = counts[i] - less
                    v += synergy * (n if n < 5 else 5)
        if m.golden:
            if m.triple and not played:
                v += 8  # playing it gives a Triple Reward
        elif f.golden_id:
            copies = ctx.copies.get(m.card, 0) - (1 if member else 0)
            if copies >= 2:
                v += self.triple
            elif copies == 1:
                v += self.pair
        if self.noise:
            v += self._rng.uniform(0, self.noise)
        return v

    # ------------------------------------------------------------ planning

    def _plan(self, turn: int, s: PlayerState, ctx: _Ctx):
        """Candidate actions, best first; the first legal one is taken."""
        board = s.board
        hand = s.hand
        gold = s.gold
        actions_left = self._actions_per_turn - s.actions
        buy_cost = self._buy_cost
        refresh_cost = self._refresh_cost
        upgrade_cost = s.upgrade_cost
        hero = s.hero
        policy: PowerPolicy | None = None
        power: Any = None  # the power's action this turn, worked out when first asked
        if hero is not None:
            rules = self.rules
            assert rules is not None
            buy_cost, refresh_cost, upgrade_cost = prices(s, rules)
            policy = _POWERS.get(hero.power)
            if policy is not None and (policy.kind == PASSIVE or not power_ready(policy, s, turn)):
                policy = None
        if ctx.move is None:
            ctx.move = _next_move(board)
        move, moves_needed = ctx.move
        if move is not None and actions_left <= moves_needed + 1:
            yield move
        if actions_left <= 1:
            yield END_TURN
            return
        spare = actions_left - moves_needed  # actions left once the warband is arranged
        margin = self.margin * ctx.scale

        # Spells: coins at once; a Triple Reward after leveling.
        reward: int | None = None
        others: list[tuple[int, SpellCard]] | None = None  # other spells (from hero powers)
        for i, card in enumerate(hand):
            if type(card) is SpellCard:
                if card.card == GOLD_COIN:
                    yield ACTIONS[play_code(i, None, None)]
                elif card.card == TRIPLE_REWARD:
                    if reward is None:
                        reward = i
                elif others is None:
                    others = [(i, card)]
                else:
                    others.append((i, card))
        if others is not None:
            for i, spell in others:
                if spell_cost(spell) == 0 and spell_targets(s, spell) == (None,):
                    yield ACTIONS[play_code(i, None, None)]
        if policy is not None and policy.kind == FIRST:
            power = self._power_action(s, ctx, policy)
            if power is not None:
                yield power
        if self._want_upgrade(turn, s, ctx, upgrade_cost):
            yield UPGRADE
        if reward is not None:
            yield ACTIONS[play_code(reward, None, None)]

        # The warband's weakest minion (the one to sell).
        if ctx.weakest is None:
            ctx.weakest = self._weakest(board, ctx)
        weakest, weakest_value = ctx.weakest
        full = len(board) >= self._board_size

        # Play the hand.
        scored = ctx.scored
        if scored is None:
            scored = ctx.scored = self._hand_order(hand, ctx)
        if scored:
            for _order, v, i, c in scored:
                attach = attach_targets(s, c)
                if attach:
                    yield ACTIONS[play_code(i, None, self._best_mech(board, c, attach, ctx))]
                    continue
                if not full:
                    if (
                        policy is not None
                        and policy.kind == BEFORE_BATTLECRY
                        and card_info(c.card).battlecry
                    ):
                        power = self._power_action(s, ctx, policy)
                        if power is not None:
                            yield power
                    yield ACTIONS[play_code(i, _position(board, c), self._target(s, c, ctx))]
                    continue
                if weakest is not None and ((c.golden and c.triple) or v > weakest_value + margin):
                    yield ACTIONS[SELL_BASE + weakest]
        hand_minions = len(scored)
        if others is not None:  # free spells aimed at a minion, once the hand is played
            for i, spell in others:
                if spell_cost(spell) == 0:
                    aim = self._spell_target(s, spell, ctx)
                    if aim is not None:
                        yield ACTIONS[play_code(i, None, aim)]

        # Buy.
        room = len(board) + hand_minions < self._board_size
        hand_room = len(hand) < self._hand_size
        shop = s.shop
        best: int | None = None
        best_value = -1e9
        shop_values = ctx.shop_values
        for j, m in enumerate(shop):
            known = shop_values.get(m)
            if known is None:
                known = self._value(m, ctx, False, False)
                if not self.noise:  # a noisy value is drawn afresh every time
                    shop_values[m] = known
            if known > best_value:
                best, best_value = j, known
        triple = best is not None and ctx.copies.get(shop[best].card, 0) >= 2
        if room:
            floor = 0.0 if gold < buy_cost + refresh_cost else self._floor(s.tier, ctx)
            worth = best is not None and best_value >= floor
        else:
            worth = best is not None and (triple or best_value > weakest_value + margin)
        if others is not None and hand_room:  # spells that cost gold, before buying
            for i, spell in others:
                cost = spell_cost(spell)
                if 0 < cost <= gold and spell_targets(s, spell) == (None,):
                    yield ACTIONS[play_code(i, None, None)]
        if worth and best is not None and hand_room and spare >= 3:
            if gold >= buy_cost:
                if (
                    policy is not None
                    and hero is not None
                    and policy.kind == BEFORE_BUY
                    and gold >= buy_cost + power_cost(hero)
                ):
                    power = self._power_action(s, ctx, policy)
                    if power is not None:
                        yield power
                yield ACTIONS[BUY_BASE + best]
            elif (
                full
                and weakest is not None
                and gold + self._sell_gold(board[weakest]) >= buy_cost
                and not (hand_minions and hand_minions + len(board) > self._board_size)
            ):
                yield ACTIONS[SELL_BASE + weakest]

        # The hero power with what is left; then refresh while nothing is worth
        # buying (or the power in its place), freeze a good shop when out of gold.
        if policy is not None and spare >= 2:
            if policy.kind == AFTER_BUYS:
                power = self._power_action(s, ctx, policy)
                if power is not None:
                    yield power
            elif policy.kind == REFRESH_KIND and hand_room:
                power = self._power_action(s, ctx, policy)
        can_roll = s.free_refreshes > 0 or gold >= refresh_cost
        keep = worth and (triple or best_value >= self.freeze * _REF[s.tier] * ctx.scale)
        if not worth and can_roll and hand_room and spare >= 4:
            if power is not None and policy is not None and policy.kind == REFRESH_KIND:
                yield power
            yield REFRESH
        if gold < buy_cost and keep and not s.frozen:
            yield FREEZE
        if gold < buy_cost and not keep and can_roll and hand_room and spare >= 2:
            if power is not None and policy is not None and policy.kind == REFRESH_KIND:
                yield power
            yield REFRESH
        if move is not None:
            yield move
        yield END_TURN

    def _hand_order(
        self, hand: Sequence[Any], ctx: _Ctx
    ) -> list[tuple[float, float, int, MinionCard]]:
        """The hand's minions as (order, value, index, card), in the order to
        play them: enablers first, buffers last, a triple's golden before all."""
        minions = [(i, c) for i, c in enumerate(hand) if type(c) is MinionCard]
        scored = []
        for i, c in minions:
            v = self._value(c, ctx, True, False)
            order = v
            enabler = _ENABLERS.get(c.card)
            if enabler is not None and ctx.counts[enabler] - (enabler in _facts(c).own) > 0:
                order += 100
            elif c.card in _BUFFERS and len(minions) > 1:
                order -= 100
            if c.golden and c.triple:
                order += 200
            scored.append((order, v, i, c))
        scored.sort(key=lambda x: (-x[0], x[2]))
        return scored

    def _weakest(self, board: Sequence[MinionCard], ctx: _Ctx) -> tuple[int | None, float]:
        """The warband minion to sell first and its value."""
        if not board:
            return None, 0.0
        values = [self._value(m, ctx, True, True) for m in board]
        weakest = min(range(len(board)), key=lambda i: values[i] - self._sell_gold(board[i]))
        return weakest, values[weakest]

    def _floor(self, tier: int, ctx: _Ctx) -> float:
        """The least a shop minion must be worth to buy when a refresh is affordable."""
        return self.floor * _REF[max(tier - 1, 1)] * ctx.scale

    def _want_upgrade(self, turn: int, s: PlayerState, ctx: _Ctx, cost: int) -> bool:
        tier = s.tier
        if tier >= self._max_tier or s.gold < cost:
            return False
        curve = self.curve
        target = curve[min(turn, len(curve) - 1)]
        if s.health <= self.low and tier >= 4:
            target -= 1
        if tier < target:
            return True
        # Cheap or rich: level and still buy.
        return cost <= s.gold - self.rich or cost == 0

    # ------------------------------------------------------------ heroes

    def _power_action(self, s: PlayerState, ctx: _Ctx, policy: PowerPolicy) -> Any:
        """The hero power aimed as the policy says, or None when the rules
        allow no use now (or a weakest-minion aim finds none worth changing)."""
        rules = self.rules
        assert rules is not None
        legal = power_actions(s, rules)
        if not legal:
            return None
        first = legal[0]
        if len(legal) == 1 and first == HeroPower():
            return first
        aim = policy.aim
        best: Any = None
        best_score = -1e18
        board = s.board
        for action in legal:
            assert isinstance(action, HeroPower)
            if action.target is not None:
                v = self._value(board[action.target], ctx, True, True)
                score = -v if aim == WEAKEST else v
            elif action.shop is not None:
                if aim == WEAKEST:
                    continue
                score = self._value(s.shop[action.shop], ctx, False, False)
            elif action.player is not None:
                score = 0.0
                for info in self.standings:
                    if info.player == action.player:
                        score = info.tier * 1000.0 + info.health
                if aim != STRONGEST:
                    score = -score
            else:
                score = 0.0
            if score > best_score:
                best, best_score = action, score
        if aim == WEAKEST and best is not None and -best_score >= self._floor(s.tier, ctx):
            return None
        return best

    def _spell_target(self, s: PlayerState, card: SpellCard, ctx: _Ctx) -> int | None:
        """The friendly minion a spell aimed at one goes to: the one the agent
        values most (None when the spell takes no target or has none)."""
        targets = spell_targets(s, card)
        if not targets or targets[0] is None:
            return None
        board = s.board
        slots = cast(tuple[int, ...], targets)
        return max(slots, key=lambda i: self._value(board[i], ctx, True, True))

    def _target(self, s: PlayerState, card: MinionCard, ctx: _Ctx) -> int | None:
        targets = battlecry_targets(s, card)
        if targets[0] is None:
            return None
        slots = cast(tuple[int, ...], targets)  # battlecry_targets gives (None,) or slots
        if battlecry_target(card.card) == "shop":
            shop = s.shop
            return max(slots, key=lambda j: self._value(shop[j], ctx, False, True))
        board = s.board
        how = _TARGETING.get(card.card, 0)
        # Lambdas, not named closures: a compiled named closure makes a
        # reference cycle per call, which only the collector reclaims.
        return max(slots, key=lambda i: self._target_score(board[i], how, ctx))

    def _target_score(self, m: MinionCard, how: int, ctx: _Ctx) -> float:
        """How much a Battlecry that weighs targets ``how`` gains by targeting ``m``."""
        v = self._value(m, ctx, True, True)
        if how == STATS_ONLY:
            return -(v - m.attack - m.health)
        if how == NOT_POISONOUS:
            return (
                v + (0 if m.keywords & POISONOUS else 20) + (5 if m.keywords & DIVINE_SHIELD else 0)
            )
        if how == NO_TAUNT:
            return v + (0 if m.keywords & TAUNT else 3)
        return v

    def _best_mech(
        self, board: Sequence[MinionCard], card: MinionCard, slots: Sequence[int], ctx: _Ctx
    ) -> int:
        no_shield = _TARGETING.get(card.card, 0) == NO_SHIELD
        return max(
            slots,
            key=lambda i: (
                self._value(board[i], ctx, True, True)
                + (6 if no_shield and not board[i].keywords & DIVINE_SHIELD else 0)
            ),
        )

    def _sell_gold(self, m: MinionCard) -> int:
        special = _SELL_GOLD.get(m.card)
        if special is not None:
            return special[1] if m.golden else special[0]
        return self._sell_value


def _position(board: Sequence[MinionCard], card: MinionCard) -> int:
    """Where ``card`` goes so the roles stay in order (after its equals)."""
    role = _role(card)
    return sum(1 for m in board if _role(m) <= role)


def arranged(board: Sequence[MinionCard]) -> tuple[MinionCard, ...]:
    """The warband in the order the agent's Moves lead to (roles left to right,
    equal roles keeping their order)."""
    return tuple(sorted(board, key=_role))


def _next_move(board: Sequence[MinionCard]) -> tuple[Any, int]:
    """The next Move towards a warband in role order, and how many moves the whole
    reordering takes ((None, 0) if the order is fine). Minions of the same role keep
    their order; each move puts a minion outside a longest in-order run into its
    place in that run, so the run grows every time and moves never cycle."""
    roles = tuple([_role(m) for m in board])
    found = _MOVES_BY_ROLES.get(roles)
    if found is None:
        found = _MOVES_BY_ROLES[roles] = _move_for_roles(roles)
    return found


# The answer depends on the roles alone, of which there are few sequences.
_MOVES_BY_ROLES: Final[dict[tuple[int, ...], tuple[Any, int]]] = {}


def _move_for_roles(roles: tuple[int, ...]) -> tuple[Any, int]:
    n = len(roles)
    length = [1] * n
    prev = [-1] * n
    for i in range(n):
        for j in range(i):
            if roles[j] <= roles[i] and length[j] + 1 > length[i]:
                length[i] = length[j] + 1
                prev[i] = j
    if not n or max(length) == n:
        return None, 0
    run = set()
    k = length.index(max(length))
    while k != -1:
        run.add(k)
        k = prev[k]
    src = next(i for i in range(n) if i not in run)
    dst = 0
    for pos, i in enumerate(i for i in range(n) if i != src):
        if i in run and roles[i] <= roles[src]:
            dst = pos + 1
    return ACTIONS[move_code(src, dst)], n - len(run)


def _legal(action: Any, legal: Sequence[Any]) -> bool:
    for a in legal:
        if a is action:
            return True
    return action in legal


def _reference_values() -> dict[int, float]:
    """Mean plain value (stats, keywords, tier) of the pool cards of each tier."""
    agent = HeuristicAgent(synergy=0.0, triple=0.0)
    ctx = _Ctx(PlayerState(0, 5, 1, 0, 0, 40), 5, 40)
    out = {}
    pool = [c for c in cards().pool]
    for tier in range(1, _POOL_TIERS + 1):
        vals = [agent._value(pool_minion(c.id), ctx, False, False) for c in pool if c.tier == tier]
        out[tier] = sum(vals) / len(vals)
    return out


_REF: Final = _reference_values()
