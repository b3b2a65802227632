"""The MCTS agent: information-set MCTS over its own recruit turn.

The search itself is :mod:`agents.ismcts`, generic over a ``bgsim.TurnModel``;
this module gives it its pieces. Every iteration determinizes anew: the
turn's model guesses the hidden enemy warbands through :mod:`agents.belief`
(or, with ``cheat=True``, reads the true ones, which exists only to measure
what guessing costs) and each determinization draws fresh seeds for shop
rolls, discovers and combats, so no random outcome is known in advance. The
prior and the rollout policy of the current turn are the heuristic agent's;
the evaluator fights the likely opponent (the next opponent the pairings
show; a random living one other than the last when none is shown) through
``combat_c.simulate`` and, with ``horizon`` > 0, plays further turns (by
the static policy with the default ``policy="mixed"``) and fights again (a
random living player other than this turn's opponent). The reward in [0, 1] comes from the fights'
outcomes weighed by the hero's health (see :func:`fight_reward`).
Before ending its turn the agent orders its warband with the hill-climb of
:mod:`agents.arrange`.

The budget is per turn: iterations or seconds, spent over the turn's
decisions (the tree is kept for the whole turn): each takes ``2 / (n + 1)``
of what is left, ``n`` being the decisions still to search on the default
policy's line. Where the default policy ends the turn (or arranges the
warband to end it) the agent does not search unless ``search_end``: that
almost never changed the decision. :meth:`MCTSAgent.analyse` searches a
position for a fixed number of iterations.

Heroes: the hero power is used as the heuristic's policy uses it
(``power="heuristic"``, the default): where the policy uses it the agent
does so unsearched, and the tree does not branch on it. A one-turn search
sees a power's worth only in this turn's and the next fight, and most powers
pay later (gold, cards, a warband grown over turns); over 800 lobbies at 0.5
s a turn the agent placed as well or better this way (DESIGN, Search).
``power="search"`` branches on ``HeroPower`` (every valid target) like on
any other action, ordered after the heuristic's choice with Upgrade's
weight. The draft (``ChooseHero`` before turn 1) is not searched but decided
by the ratings of :mod:`agents.hero_policy`: the best rated offer
(``draft="best"``), or the heuristic's draw (``draft="rating"``). A search
here looks one turn ahead and fights with the warband it ends on, and before
turn 1 every hero ends the draft with the same empty warband, so the search
would compare equal rewards; a hero's worth shows over a whole game, which
is what the measured rating is.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any, ClassVar, cast

from agents.arrange import fight_score, hill_climb
from agents.belief import Development, Guesser, load_development
from agents.counting_random import CountingRandom
from agents.heuristic import DRAFTS, HeuristicAgent, arranged
from agents.ismcts import Node, Search
from agents.options import act_arguments, choice, file_path, flag, integer, number
from agents.rollout import rollout_action
from agents.value import ValueModel, features, load_value_model, value_model
from bgsim import (
    Action,
    Budget,
    Buy,
    Choose,
    ChooseHero,
    EndTurn,
    Freeze,
    Guess,
    HeroPower,
    Move,
    Observation,
    Play,
    PlayerState,
    Refresh,
    Sell,
    TurnModel,
    Upgrade,
)
from bgsim.limits import MAX_ITERATIONS as MAX_ITER
from combat_c import Board, simulate
from combat_c.guarded import shown

__all__ = ["MCTSAgent", "TurnContext", "budget_part", "fight_reward", "search_actions"]

MAX_ROLLOUT_ACTIONS = 20
# End-of-turn arrangement search: guessed enemies, fights per guess, hill-climbing
# rounds and the gain an order must show over the heuristic's.
ARRANGE_GUESSES = 16
ARRANGE_RUNS = 12
ARRANGE_ROUNDS = 2
ARRANGE_MARGIN = 0.02
# Share of a seconds budget kept for the arrangement, which stops trying orders
# when the turn's time is up.
ARRANGE_RESERVE = 0.1
# Bounds of the options: the UCT constant, fights per evaluation, turns played
# ahead and opponents fought per iteration.
MAX_C = 100.0
MAX_FIGHTS = 10_000
MAX_HORIZON = 10
MAX_OPPONENTS = 7
# Order in which a node's actions join the search after the default policy's.
PRIOR = {
    Play: 6,
    Choose: 6,
    ChooseHero: 6,
    Buy: 5,
    Upgrade: 4,
    HeroPower: 4,
    Refresh: 3,
    EndTurn: 2,
    Sell: 1,
}


def search_actions(
    state: PlayerState, legal: Sequence[Action], no_upgrade: bool = False, no_power: bool = False
) -> list[Action]:
    """The actions the tree branches on: no Moves and no Freeze (positions come
    from where minions are played, at either end), one Play per hand card and
    target at the left or right end; no Upgrade when leveling is left to the
    default policy, and no HeroPower when the hero power is."""
    end = len(state.board)
    skip = _SKIPS[no_upgrade, no_power]
    out = []
    for a in legal:
        if type(a) in skip or (type(a) is Play and a.pos not in (None, 0, end)):
            continue
        out.append(a)
    return out


_SKIPS = {
    (False, False): frozenset((Move, Freeze)),
    (True, False): frozenset((Move, Freeze, Upgrade)),
    (False, True): frozenset((Move, Freeze, HeroPower)),
    (True, True): frozenset((Move, Freeze, Upgrade, HeroPower)),
}


def budget_part(decisions_left: int) -> float:
    """The share of what is left of the turn's budget that a decision takes
    with ``decisions_left`` decisions (itself included) still to search."""
    return min(1.0, 2 / (decisions_left + 1))


class CheatGuess:
    """The true enemy warbands, for ``cheat=True`` (a ``bgsim.Guess``): a board
    as it stands after the turn it reflects, grown by ``guesser`` over the
    turns not yet played (unknown even to a cheat); enemies without a known
    board are guessed."""

    def __init__(self, guesser: Guesser, true: dict[int, tuple[Board, int]]) -> None:
        self.guesser = guesser
        self.true = true

    def warband(self, player: int, rng: random.Random, turn: int) -> Board:
        known = self.true.get(player)
        if known is None:
            return self.guesser.guess(player, rng, turn)
        board, as_of = known
        if as_of >= turn:
            return board
        return self.guesser.develop(player, list(board.minions), as_of, turn, rng)


def fight_reward(odds: Any, health: int) -> float:
    """Map a fight's odds to [0, 1]: winning is worth 1, a tie 0.5, a loss 0;
    expected damage moves it, more the lower the hero's health, and a lethal
    loss counts as the worst outcome."""
    swing = (odds.mean_damage_dealt - odds.mean_damage_taken) / max(health, 10)
    base = odds.win + 0.5 * odds.tie
    value = 0.75 * base + 0.25 * (0.5 + 0.5 * max(-1.0, min(1.0, swing)))
    return max(0.0, value - odds.lethal_taken)


def unsearched(planned: Action, level: str, search_end: bool, power: str = "search") -> bool:
    """Whether the agent takes the heuristic's ``planned`` action without a
    search: its leveling (``level="heuristic"``), its hero power
    (``power="heuristic"``) and, unless ``search_end``, its end of turn
    (searching there changed 1 decision in 299 for 17% of the turn's
    iterations; DESIGN, search budget)."""
    if isinstance(planned, Upgrade):
        return level == "heuristic"
    if isinstance(planned, HeroPower):
        return power == "heuristic"
    return not search_end and isinstance(planned, EndTurn | Move)


def _cheat_guess(
    true: dict[int, tuple[Board, int]], dev: Development | None, obs: Observation
) -> CheatGuess:
    return CheatGuess(Guesser(obs, dev), true)


def _guesser(dev: Development, obs: Observation) -> Guesser:
    return Guesser(obs, dev)


def _value_model(path: str | None) -> ValueModel:
    """The shipped value model, or the file ``path`` names."""
    return value_model() if path is None else load_value_model(path)


class TurnContext:
    """The pieces the agent searches one turn with: the turn's model (its
    pool estimate and guessed enemies), the prior (:meth:`expand`), the
    rollout policy (:meth:`rollout`), the evaluator (:meth:`evaluate`) and the
    determinizations' streams (:meth:`determinization`), with what they work
    out once per turn: the heuristic's answers, finished turns, seeds and
    fight plans. It holds no reference to the agent or the search, so a turn's
    search leaves no reference cycle behind."""

    def __init__(self, agent: MCTSAgent, obs: Observation) -> None:
        self.obs = obs
        self.heuristic = agent._heuristic
        self.heuristic.use_rules(obs.rules)
        self.heuristic.standings = obs.players  # for powers aimed at a player
        self.rng = agent._rng  # the agent's stream: seeds are drawn when first needed
        self.policy = agent.policy
        self.horizon = agent.horizon
        self.runs = agent.runs
        self.opponents = agent.opponents
        self.level = agent.level
        self.power = agent.power
        self.search_end = agent.search_end
        self.value_model = agent._model
        self.memo: dict[tuple, Action] = {}
        self.finished: dict[tuple, PlayerState] = {}
        self.seeds: list[tuple[int, int]] = []
        self.plans: dict[int, list[list[tuple[Board, int]]]] = {}
        # Nobody else acts during this agent's turn, so one read serves it all.
        true = agent.true_boards() if agent.cheat and agent.true_boards is not None else {}
        guess: Callable[[Observation], Guess] = Guesser
        if agent._dev is not None:
            guess = partial(_guesser, agent._dev)
        if true:
            guess = partial(_cheat_guess, true, agent._dev)
        self.model = TurnModel.from_observation(obs, obs.rules, guess=guess)
        living = [p.player for p in obs.players if p.alive and p.player != obs.player]
        # The round's pairings are drawn as the turn starts and every player
        # sees their next opponent (as in the game): this turn's
        # fights are against that one, and later turns' against anyone else.
        nxt = obs.next_opponent
        if nxt is not None and nxt != obs.player:
            self.likely = [nxt]
            self.later = [p for p in living if p != nxt] or living
        else:
            self.likely = [p for p in living if p != obs.last_opponent] or living
            self.later = self.likely

    def at(self, state: PlayerState) -> TurnModel:
        """The turn's model at ``state``, a state this turn reached (the pool
        stays the turn's estimate)."""
        model = self.model.clone()
        model.jump(state)
        return model

    def default(self, state: PlayerState, legal: Sequence[Action] | None = None) -> Action:
        """The heuristic's action: the search's prior, its leveling and its
        rollouts of the current turn. The heuristic is deterministic, so its
        answers are kept for the turn."""
        key = (state.turn, self.model.info_key(state))
        action = self.memo.get(key)
        if action is None:
            action = self.memo[key] = self.heuristic.decide(state, state.turn, legal)
        return action

    def expand(self, model: TurnModel) -> list[Action]:
        """A new node's actions: those the tree branches on (see
        :func:`search_actions`), the heuristic's first, then by ``PRIOR``."""
        state = model.state
        legal = model.legal_actions()
        actions = (
            search_actions(state, legal, self.level == "heuristic", self.power == "heuristic")
            or legal
        )
        first = self.default(state, legal)
        # Actions are interned (bgsim.ACTIONS), so ``is`` compares them
        # without the dataclass __eq__.
        actions.sort(key=lambda a: (a is not first, -PRIOR.get(type(a), 0)))
        if actions[0] is not first:
            actions.insert(0, first)
        return actions

    def decisions_left(self, start: TurnModel) -> int:
        """How many decisions, this one included, the agent will search before
        the turn ends, counted along the heuristic's line from ``start`` (its
        shop rolls drawn from a scratch stream of the turn, its runaway tail
        left out). Moves and the actions taken unsearched do not count."""
        taken: list[Action] = []
        rng = CountingRandom(self.seed_pair(0)[0] ^ start.state.actions)
        self.play_out(start.clone(rng), static=False, taken=taken)
        searched = (
            a
            for a in taken[:MAX_ROLLOUT_ACTIONS]
            if not isinstance(a, Move)
            and not unsearched(a, self.level, self.search_end, self.power)
        )
        return max(sum(1 for _ in searched), 1)

    def seed_pair(self, k: int) -> tuple[int, int]:
        """The seeds (recruit phase, fights) of the turn's ``k``-th
        determinization, drawn fresh from the agent's seed when first needed."""
        while len(self.seeds) <= k:
            self.seeds.append((self.rng.getrandbits(64), self.rng.getrandbits(64)))
        return self.seeds[k]

    def determinization(self, k: int) -> random.Random:
        """The recruit-phase stream (shop rolls, random effects, the horizon's
        turns) of the turn's ``k``-th determinization; :meth:`fight_plan`
        holds the rest."""
        return CountingRandom(self.seed_pair(k)[0])

    def fight_plan(self, k: int) -> list[list[tuple[Board, int]]]:
        """The ``k``-th determinization's enemies and fight seeds, for this turn
        and each horizon turn. They depend on ``k`` alone, so they are guessed
        once and every action tried in that determinization fights them."""
        plan = self.plans.get(k)
        if plan is None:
            fights = random.Random(self.seed_pair(k)[1])
            plan = []
            for ahead in range(self.horizon + 1):
                enemies = self.enemies(fights, ahead)
                plan.append([(enemy, fights.getrandbits(63)) for enemy in enemies])
            self.plans[k] = plan
        return plan

    def enemies(self, rng: random.Random, turns_ahead: int) -> list[Board]:
        """Fresh guesses of ``opponents`` different likely opponents: this
        turn's known opponent when the pairings are shown."""
        likely = self.likely if turns_ahead == 0 else self.later
        k = min(self.opponents, len(likely))
        picks = rng.sample(likely, k) if k < len(likely) else likely
        model = self.model
        return [model.guess_warband(p, rng, turns_ahead) for p in picks]

    def rollout(self, model: TurnModel) -> None:
        """Finish the turn. When no random draw happens (no shop roll, no
        random effect) the result depends on the state alone, so it is kept
        for the rest of the turn and later iterations skip the work."""
        key = model.info_key()
        done = self.finished.get(key)
        if done is not None:
            model.jump(done)
            return
        rng: Any = model.rng
        draws = rng.draws
        self.finish_turn(model)
        if rng.draws == draws:
            self.finished[key] = model.state

    def finish_turn(self, model: TurnModel, later: bool = False) -> None:
        """Play the rest of the turn with the rollout policy (``mixed``: the
        heuristic for this turn, the static policy for ``later`` ones)."""
        static = self.policy == "static" or (later and self.policy == "mixed")
        self.play_out(model, static)

    def play_out(self, model: TurnModel, static: bool, taken: list[Action] | None = None) -> None:
        """Play the rest of the turn with the static policy or the heuristic,
        appending each action to ``taken`` if given. The heuristic's Moves only
        arrange the warband, so its first one jumps straight to the final
        order. A safety cap ends runaway rollouts (answering a pending
        Discover first)."""
        steps = 0
        rng: Any = model.rng
        draws = rng.draws
        rules = model.rules
        while not model.is_turn_over():
            state = model.state
            if steps >= MAX_ROLLOUT_ACTIONS:
                action = model.legal_actions()[0]
            elif static:
                action = rollout_action(state, rules)
            elif rng.draws != draws:
                # After a random draw the states are new: skip the memo's keys.
                action = self.heuristic.decide(state, state.turn)
            else:
                action = self.default(state)
            if taken is not None:
                taken.append(action)
            if isinstance(action, Move) and not static:
                model.reorder(arranged(state.board), False)
            else:
                model.apply_action(action, False)
            steps += 1

    def evaluate(self, model: TurnModel, k: int) -> float:
        """Fight the likely opponent at the end of this turn (and of ``horizon``
        more turns played by the default policy); with ``value="model"`` the
        reward is the learned placement estimate after the last fight, with
        ``value="fight"`` the mean of the fights' own rewards."""
        total = 0.0
        plan = self.fight_plan(k)
        for ahead in range(self.horizon + 1):
            mine = model.warband()
            fights = [simulate(mine, enemy, self.runs, seed) for enemy, seed in plan[ahead]]
            state = model.state
            if self.value_model is None:
                total += sum(fight_reward(o, state.health) for o in fights) / len(fights)
            elif ahead == self.horizon:
                obs = self.obs
                return sum(
                    self.value_model.reward(state.turn, features(obs, state, o)) for o in fights
                ) / len(fights)
            if ahead < self.horizon:
                damage = sum(o.mean_damage_taken for o in fights) / len(fights)
                model.next_turn(round(damage))
                self.finish_turn(model, later=True)
        return total / (self.horizon + 1)


class MCTSAgent:
    """Information-set MCTS over the agent's own turn (see the module doc).

    >>> from bgsim import Budget, Lobby
    >>> lobby = Lobby(seed=3)
    >>> agent = MCTSAgent(budget=Budget(iterations=40))
    >>> agent.reset(seat=0, seed=3)
    >>> action = agent.act(lobby.observe(0), lobby.legal_actions(0))
    >>> action in lobby.legal_actions(0)
    True
    """

    name = "mcts"
    OPTIONS: ClassVar[tuple[str, ...]] = (
        "budget",
        "c",
        "cheat",
        "runs",
        "horizon",
        "iterations",
        "seconds",
        "policy",
        "value",
        "level",
        "power",
        "confidence",
        "opponents",
        "arrange",
        "search_end",
        "value_model",
        "belief",
        "draft",
    )

    def __init__(
        self,
        budget: object = None,
        c: object = 0.35,
        cheat: object = False,
        runs: object = 8,
        horizon: object = 1,
        iterations: object = None,
        seconds: object = None,
        policy: object = "mixed",
        value: object = "fight",
        level: object = "heuristic",
        power: object = "heuristic",
        confidence: object = 2.0,
        opponents: object = 1,
        arrange: object = True,
        search_end: object = False,
        value_model: object = None,
        belief: object = None,
        draft: object = "best",
    ) -> None:
        # Options arrive from lineups as text, numbers or true: each is checked
        # here (agents.options), so a bad one is a ValueError naming it.
        chosen: Budget | None
        if iterations is not None or seconds is not None:
            chosen = Budget(
                seconds=None if seconds is None else number("seconds", seconds, 0),
                iterations=(
                    None if iterations is None else integer("iterations", iterations, 1, MAX_ITER)
                ),
            )
        elif budget is None or isinstance(budget, Budget):
            chosen = budget
        elif isinstance(budget, str):
            chosen = Budget.parse(budget)
        else:
            raise ValueError(f"option budget must be like 0.5s or 2000it, not {shown(budget)}")
        self.budget = chosen or Budget(iterations=2000)
        c = number("c", c, 0, MAX_C)
        runs = integer("runs", runs, 1, MAX_FIGHTS)
        horizon = integer("horizon", horizon, 0, MAX_HORIZON)
        self.policy = choice("policy", policy, ("heuristic", "static", "mixed"))
        value = choice("value", value, ("model", "fight"))
        level = choice("level", level, ("search", "heuristic"))
        self.power = choice("power", power, ("search", "heuristic"))
        self.confidence = number("confidence", confidence, 0)
        self.opponents = integer("opponents", opponents, 1, MAX_OPPONENTS)
        self.arrange = flag("arrange", arrange)
        self.search_end = flag("search_end", search_end)
        cheat = flag("cheat", cheat)
        self._order: tuple | None = None  # the arrangement chosen this turn
        self._order_of: list = []  # the warband it was chosen for, sorted
        self.value = value
        self.level = level
        if value_model is not None and value != "model":
            raise ValueError("value_model=PATH needs value=model")
        model_path = None if value_model is None else file_path("value_model", value_model)
        self._model = _value_model(model_path) if value == "model" else None
        # belief=PATH: guess enemy boards by a table of `bgsim belief --fit --out PATH`.
        self._dev = None if belief is None else load_development(file_path("belief", belief))
        # The draft is the heuristic's rule; by default its best rated offer
        # rather than its draw (which lets a heuristic lobby play every hero).
        self._heuristic = HeuristicAgent(draft=choice("draft", draft, DRAFTS))
        self.c = c
        self.cheat = cheat
        self.runs = runs
        self.horizon = horizon
        # With cheat=True the arena sets this to a function returning the true
        # enemy warbands {player: (Board, turn it reflects)}; nothing else
        # ever provides it.
        self.true_boards: Callable[[], dict[int, tuple[Board, int]]] | None = None
        # The clock a seconds budget is read from (a test gives a fake one).
        self.clock: Callable[[], float] = time.perf_counter
        self._rng = random.Random(0)
        self._turn = -1
        self.iterations_done = 0

    # -------------------------------------------------------------- protocol

    def reset(self, seat: int, seed: int) -> None:
        self._rng = random.Random(seed)
        self._heuristic.reset(seat, seed)
        self._turn = -1
        self.iterations_done = 0

    def __reduce__(self) -> tuple:
        # The current turn's search (its tree and turn context: compiled
        # values with no pickle form) stays behind. A copy taken between the
        # agent's turns plays on exactly as the original; one taken within a
        # turn searches the rest of that turn afresh, with a new budget.
        state = dict(cast(dict, self.__getstate__()))
        state.pop("_ctx", None)
        state.pop("_search", None)
        state["_turn"] = -1
        return (type(self), (), state)

    def act(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        act_arguments(observation, legal_actions)
        if len(legal_actions) == 1:
            return legal_actions[0]
        if observation.state.hero_offers:  # the draft: the hero rule (see the module doc)
            return self._heuristic.act(observation, legal_actions)
        if observation.turn != self._turn:
            self._new_turn(observation)
        state = observation.state
        planned = self._ctx.default(state, legal_actions)
        if unsearched(planned, self.level, self.search_end, self.power):
            action = planned
        else:
            action = self._searched(observation)
        if self.arrange and isinstance(action, EndTurn | Move):
            return self._arrangement_step(state, legal_actions) or action
        return action

    def _new_turn(self, obs: Observation) -> None:
        self._turn = obs.turn
        self._iterations_left = self.budget.iterations
        self._deadline = (
            self.clock() + self.budget.seconds if self.budget.seconds is not None else None
        )
        self._order = None
        ctx = self._ctx = TurnContext(self, obs)
        self._search = Search(ctx.expand, ctx.rollout, ctx.evaluate, ctx.determinization, self.c)

    def _searched(self, observation: Observation) -> Action:
        start = self._ctx.at(observation.state)
        root = self._search.node(start)
        if len(root.actions) == 1:
            return root.actions[0]
        self._run(start, root)
        return self._search.choose(root, self.confidence)

    # -------------------------------------------------------------- arrangement

    def _arrangement_step(self, state: PlayerState, legal: Sequence[Action]) -> Action | None:
        """At the end of the turn: the next Move towards the warband order that
        fares best against the likely opponents, else EndTurn (None if the
        order cannot be reached before the action cap)."""
        board = state.board
        if len(board) < 2:
            return None
        minions = sorted(board, key=repr)
        if self._order is None or self._order_of != minions:
            self._order = self._best_order(state)
            self._order_of = minions
        target = self._order
        for dst, want in enumerate(target):
            if board[dst] != want:
                src = next(i for i in range(dst + 1, len(board)) if board[i] == want)
                move = Move(src, dst)
                return move if move in legal else None
        return EndTurn() if EndTurn() in legal else None

    def _best_order(self, state: PlayerState) -> tuple:
        """The hill-climb of :mod:`agents.arrange` from the heuristic's order
        against ``ARRANGE_GUESSES`` guessed likely enemies; with a seconds
        budget it stops at the turn's deadline with the best order so far."""
        deadline = self._deadline
        if deadline is not None and self.clock() >= deadline:
            return arranged(state.board)
        ctx = self._ctx
        model = ctx.at(state)
        rng = random.Random(self._rng.getrandbits(64))
        likely = ctx.likely
        enemies = [
            model.guess_warband(likely[i % len(likely)], rng) for i in range(ARRANGE_GUESSES)
        ]
        seeds = [rng.getrandbits(63) for _ in enemies]
        score = fight_score(model, enemies, seeds, ARRANGE_RUNS, fight_reward)
        clock = self.clock
        out_of_time = None if deadline is None else (lambda: clock() >= deadline)
        start = arranged(state.board)
        return hill_climb(start, score, ARRANGE_ROUNDS, ARRANGE_MARGIN, out_of_time)

    # -------------------------------------------------------------- budget

    def _run(self, start: TurnModel, root: Node, count: int | None = None) -> None:
        """Search from ``start``: ``count`` iterations, by default this
        decision's share of the turn's budget."""
        until = None
        if count is None:
            count, until = self._share(start)
        if count == 0:
            return
        self.iterations_done += self._search.run(start, root, count, until, self.clock)

    def _share(self, start: TurnModel) -> tuple[int, float | None]:
        """This decision's share of the turn's budget: the most iterations, and
        the time to stop by. With ``n`` decisions left to search this turn (see
        :meth:`TurnContext.decisions_left`) it takes ``2 / (n + 1)`` of what is
        left: all of it for the last decision, more than an even share for
        earlier ones, whose trees later decisions reuse. Once the budget is
        gone a decision reads the statistics the turn's tree already holds. A
        seconds budget keeps ``ARRANGE_RESERVE`` of itself for the end-of-turn
        arrangement."""
        if self.budget.iterations is not None:
            left = self._iterations_left
            assert left is not None
            if left <= 0:
                return 0, None
            share = max(1, int(left * budget_part(self._ctx.decisions_left(start))))
            self._iterations_left = left - share
            return share, None
        assert self.budget.seconds is not None and self._deadline is not None
        now = self.clock()
        reserve = ARRANGE_RESERVE * self.budget.seconds if self.arrange else 0.0
        time_left = self._deadline - reserve - now
        if time_left <= 0:
            return 0, None
        return sys.maxsize, now + time_left * budget_part(self._ctx.decisions_left(start))

    def analyse(self, observation: Observation, iterations: int) -> dict[Action, tuple[int, float]]:
        """Search the observation's position for exactly ``iterations``
        iterations (on top of what this turn's tree already holds), whatever
        the budget, and return each root action's visits and mean reward.
        ``bgsim bench mcts`` times this."""
        if iterations < 1:
            raise ValueError(f"iterations must be at least 1, got {shown(iterations)}")
        if observation.turn != self._turn:
            self._new_turn(observation)
        start = self._ctx.at(observation.state)
        root = self._search.node(start)
        self._run(start, root, iterations)
        return {a: (e.visits, e.total / e.visits) for a, e in root.edges.items()}
