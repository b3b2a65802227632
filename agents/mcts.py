"""Information-set Monte Carlo tree search over the agent's own recruit turn.

The tree holds only this player's decisions. Every iteration determinizes
anew: it guesses the hidden enemy boards through :mod:`agents.belief` (or,
with ``cheat=True``, reads the true ones, which exists only to measure what
guessing costs) and draws fresh seeds for shop rolls, discovers and combats,
so no random outcome is known in advance; the k-th try of each root action
draws the turn's k-th determinization, so sibling actions compare on common
random numbers. It then selects with UCT, expands one action, finishes the
turn with a default policy (the heuristic), fights the likely opponent (a
random living one other than the last) through ``combat_c.simulate`` and,
with ``horizon`` > 0, plays further turns (by the static policy with the
default ``policy="mixed"``) and fights again. The
reward in [0, 1] comes from the fights' outcomes weighed by the hero's health
(see :meth:`MCTSAgent.reward`). Before ending its turn the agent orders its
warband by a hill-climb over positions against guessed enemies (``arrange``).

Nodes are keyed by the information set (the player's own state: shop, hand,
board, gold, tier...), so transpositions merge. Statistics live on the
(node, action) edges. The budget is per turn: iterations or seconds, spent
over the turn's decisions (the tree is kept for the whole turn): each takes
``2 / (n + 1)`` of what is left, ``n`` being the decisions still to search on
the default policy's line. Where the default policy ends the turn (or
arranges the warband to end it) the agent does not search unless
``search_end``: that almost never changed the decision. :meth:`MCTSAgent.analyse`
searches a position for a fixed number of iterations.
"""

from __future__ import annotations

import gc
import math
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, cast

from agents.arena import Budget
from agents.belief import Guesser
from agents.counting_random import CountingRandom
from agents.heuristic import HeuristicAgent, arranged
from agents.rollout import rollout_action
from agents.value import features, value_model
from bgsim import tavern
from bgsim.actions import Action, Buy, Choose, EndTurn, Freeze, Move, Play, Refresh, Sell, Upgrade
from bgsim.observation import Observation
from bgsim.player_state import PlayerState
from bgsim.pool import Pool
from bgsim.ruleset import load_ruleset
from combat_c import Board, simulate

MAX_ROLLOUT_ACTIONS = 20
MIN_LINE_VISITS = 8
MAX_LINE_DEPTH = 8
# End-of-turn arrangement search: guessed enemies, fights per guess, hill-climbing
# rounds and the gain an order must show over the heuristic's.
ARRANGE_GUESSES = 16
ARRANGE_RUNS = 12
ARRANGE_ROUNDS = 2
ARRANGE_MARGIN = 0.02
# Share of a seconds budget kept for the arrangement, which stops trying orders
# when the turn's time is up.
ARRANGE_RESERVE = 0.1
# Order in which a node's actions join the search after the default policy's.
PRIOR = {Play: 6, Choose: 6, Buy: 5, Upgrade: 4, Refresh: 3, EndTurn: 2, Sell: 1}


@dataclass
class Edge:
    visits: int = 0
    total: float = 0.0
    squares: float = 0.0
    child: Node | None = None  # the node the action led to
    chance: bool = False  # it has led to different nodes (a shop roll, a random effect)
    # Reward by determinization (see MCTSAgent._iterate): sibling lines that
    # saw the same determinizations compare pairwise.
    samples: dict[int, float] = field(default_factory=dict)


def _variance(e: Edge) -> float:
    mean = e.total / e.visits
    return max(e.squares / e.visits - mean * mean, 1e-6)


def _difference(a: Edge, b: Edge) -> tuple[float, float]:
    """How much better ``b`` scores than ``a``, and the standard error: paired
    over the determinizations both saw when there are enough, else from the
    two means."""
    common = a.samples.keys() & b.samples.keys()
    n = len(common)
    if n < MIN_LINE_VISITS:
        gap = b.total / b.visits - a.total / a.visits
        return gap, math.sqrt(_variance(a) / a.visits + _variance(b) / b.visits)
    diffs = [b.samples[k] - a.samples[k] for k in common]
    gap = sum(diffs) / n
    var = sum((d - gap) ** 2 for d in diffs) / (n - 1)
    return gap, math.sqrt(max(var, 1e-6) / n)


class Node:
    """A decision point. ``actions`` are ordered by the prior: the default
    policy's choice first; progressive widening lets a node consider one more
    of them each time its visit count passes the next square."""

    def __init__(self, actions: list[Action]) -> None:
        self.actions = actions
        self.edges: dict[Action, Edge] = {}
        self.visits = 0

    def widened(self) -> int:
        return min(len(self.actions), 1 + math.isqrt(self.visits))


def info_key(state: PlayerState, action_cap: int) -> tuple:
    """What the player knows of its own position: equal keys share a node."""
    return (
        state.gold,
        state.tier,
        state.upgrade_cost,
        state.health,
        state.shop,
        state.shop_frozen,
        state.hand,
        state.board,
        state.discover,
        state.free_refreshes,
        state.actions >= action_cap,
    )


def search_actions(
    state: PlayerState, legal: Sequence[Action], no_upgrade: bool = False
) -> list[Action]:
    """The actions the tree branches on: no Moves and no Freeze (positions come
    from where minions are played, at either end), one Play per hand card and
    target at the left or right end; no Upgrade when leveling is left to the
    default policy."""
    end = len(state.board)
    skip = _SKIP_NO_UPGRADE if no_upgrade else _SKIP
    out = []
    for a in legal:
        kind = type(a)
        if kind in skip or (kind is Play and cast(Play, a).pos not in (None, 0, end)):
            continue
        out.append(a)
    return out


_SKIP = frozenset((Move, Freeze))
_SKIP_NO_UPGRADE = frozenset((Move, Freeze, Upgrade))


def budget_part(decisions_left: int) -> float:
    """The share of what is left of the turn's budget that a decision takes
    with ``decisions_left`` decisions (itself included) still to search."""
    return min(1.0, 2 / (decisions_left + 1))


def board_of(state: PlayerState) -> Board:
    return Board.trusted(state.tier, max(state.health, 1), tuple(m.combat() for m in state.board))


class MCTSAgent:
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
        "confidence",
        "opponents",
        "arrange",
        "search_end",
    )

    def __init__(
        self,
        budget: Budget | None = None,
        c: float = 0.35,
        cheat: bool = False,
        runs: int = 8,
        horizon: int = 1,
        iterations: int | None = None,
        seconds: float | None = None,
        policy: str = "mixed",
        value: str = "fight",
        level: str = "heuristic",
        confidence: float = 2.0,
        opponents: int = 1,
        arrange: bool = True,
        search_end: bool = False,
    ) -> None:
        if iterations is not None or seconds is not None:
            budget = Budget(seconds=seconds, iterations=iterations)
        self.budget = budget or Budget(iterations=2000)
        if c < 0 or runs < 1 or horizon < 0:
            raise ValueError("c must be >= 0, runs >= 1 and horizon >= 0")
        if policy not in ("heuristic", "static", "mixed"):
            raise ValueError(f"policy must be heuristic, static or mixed, got {policy!r}")
        if value not in ("model", "fight"):
            raise ValueError(f"value must be model or fight, got {value!r}")
        if level not in ("search", "heuristic"):
            raise ValueError(f"level must be search or heuristic, got {level!r}")
        self.policy = policy
        self.confidence = confidence
        if opponents < 1:
            raise ValueError("opponents must be at least 1")
        self.opponents = opponents
        self.arrange = bool(arrange)
        self.search_end = bool(search_end)
        self._order: tuple | None = None  # the arrangement chosen this turn
        self._order_of: list = []  # the warband it was chosen for, sorted
        self.value = value
        self.level = level
        self._model = value_model() if value == "model" else None
        self._heuristic = HeuristicAgent()
        self.c = c
        self.cheat = cheat
        self.runs = runs
        self.horizon = horizon
        self.rules = load_ruleset()
        self._cap = self.rules.recruit.actions_per_turn
        # With cheat=True the arena sets this to a function returning the true
        # enemy warbands {player: (Board, turn it reflects)}; nothing else
        # ever provides it.
        self.true_boards: Callable[[], dict[int, tuple[Board, int]]] | None = None
        self._true: dict[int, tuple[Board, int]] = {}
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

    def act(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        if len(legal_actions) == 1:
            return legal_actions[0]
        if observation.turn != self._turn:
            self._new_turn(observation)
        state = observation.state
        planned = self._default(state, legal_actions)
        action = planned if self._unsearched(planned) else self._searched(observation, state)
        if self.arrange and isinstance(action, EndTurn | Move):
            return self._arrangement_step(observation, state, legal_actions) or action
        return action

    def _unsearched(self, planned: Action) -> bool:
        """Whether the agent takes the heuristic's ``planned`` action without a
        search: its leveling (``level="heuristic"``) and, unless ``search_end``,
        its end of turn (searching there changed 1 decision in 299 for 17% of
        the turn's iterations; DESIGN, search budget)."""
        if isinstance(planned, Upgrade):
            return self.level == "heuristic"
        return not self.search_end and isinstance(planned, EndTurn | Move)

    def _searched(self, observation: Observation, state: PlayerState) -> Action:
        root = self._node(state)
        if len(root.actions) == 1:
            action = root.actions[0]
        else:
            self._search(observation, root)
            action = self._choose(root)
        return action

    # -------------------------------------------------------------- arrangement

    def _arrangement_step(
        self, obs: Observation, state: PlayerState, legal: Sequence[Action]
    ) -> Action | None:
        """At the end of the turn: the next Move towards the warband order that
        fares best against the likely opponents, else EndTurn (None if the
        order cannot be reached before the action cap)."""
        board = state.board
        if len(board) < 2:
            return None
        minions = sorted(board, key=repr)
        if self._order is None or self._order_of != minions:
            self._order = self._best_order(obs, state)
            self._order_of = minions
        target = self._order
        for dst, want in enumerate(target):
            if board[dst] != want:
                src = next(i for i in range(dst + 1, len(board)) if board[i] == want)
                move = Move(src, dst)
                return move if move in legal else None
        return EndTurn() if EndTurn() in legal else None

    def _best_order(self, obs: Observation, state: PlayerState) -> tuple:
        """Hill-climb over single relocations from the heuristic's order, every
        order fighting the same guessed enemies with the same seeds (so orders
        compare on common random numbers); a change must gain ``ARRANGE_MARGIN``.
        With a seconds budget it stops at the turn's deadline with the best
        order found so far."""
        deadline = self._deadline
        if deadline is not None and self.clock() >= deadline:
            return arranged(state.board)
        rng = random.Random(self._rng.getrandbits(64))
        likely = self._opponents
        enemies = [
            self._enemy(obs, rng, 0, likely[i % len(likely)]) for i in range(ARRANGE_GUESSES)
        ]
        seeds = [rng.getrandbits(63) for _ in enemies]
        health = max(state.health, 1)

        def score(order: tuple) -> float:
            mine = Board.trusted(state.tier, health, tuple(m.combat() for m in order))
            return sum(
                self.reward(simulate(mine, e, ARRANGE_RUNS, seed), health)
                for e, seed in zip(enemies, seeds, strict=True)
            ) / len(enemies)

        best = arranged(state.board)
        best_score = score(best)
        for _ in range(ARRANGE_ROUNDS):
            found: tuple[tuple, float] | None = None
            for i in range(len(best)):
                for j in range(len(best)):
                    if i == j:
                        continue
                    if deadline is not None and self.clock() >= deadline:
                        return found[0] if found is not None else best
                    order = list(best)
                    order.insert(j, order.pop(i))
                    value = score(tuple(order))
                    if value > best_score + ARRANGE_MARGIN and (found is None or value > found[1]):
                        found = (tuple(order), value)
            if found is None:
                break
            best, best_score = found
        return best

    # -------------------------------------------------------------- search

    def _default(self, state: PlayerState, legal: Sequence[Action] | None = None) -> Action:
        """The heuristic's action: the search's prior, its leveling and its
        rollouts of the current turn. The heuristic is deterministic, so its
        answers are kept for the turn."""
        key = (state.turn, info_key(state, self._cap))
        action = self._memo.get(key)
        if action is None:
            action = self._memo[key] = self._heuristic_action(state, legal)
        return action

    def _heuristic_action(
        self, state: PlayerState, legal: Sequence[Action] | None = None
    ) -> Action:
        return self._heuristic.decide(state, state.turn, legal)

    def _new_turn(self, obs: Observation) -> None:
        self._obs = obs
        self._memo: dict[tuple, Action] = {}
        self._finished: dict[tuple, PlayerState] = {}
        self._turn = obs.turn
        self._tree: dict[tuple, Node] = {}
        self._iterations_left = self.budget.iterations
        self._deadline = (
            self.clock() + self.budget.seconds if self.budget.seconds is not None else None
        )
        self._seeds: list[tuple[int, int]] = []
        self._plans: dict[int, list[list[tuple[Board, int]]]] = {}
        self._order = None
        # Nobody else acts during this agent's turn, so one read serves it all.
        self._true = self.true_boards() if self.cheat and self.true_boards is not None else {}
        self._guesser = Guesser(obs, self.rules)
        self._pool = Pool(self._guesser.counts, self.rules.tavern.max_tier)
        living = [p.player for p in obs.players if p.alive and p.player != obs.player]
        likely = [p for p in living if p != obs.last_opponent] or living
        self._opponents = likely

    def _node(self, state: PlayerState) -> Node:
        key = info_key(state, self._cap)
        node = self._tree.get(key)
        if node is None:
            legal = tavern.legal_actions(state, self.rules)
            actions = search_actions(state, legal, self.level == "heuristic") or legal
            first = self._default(state, legal)
            # Actions are interned (bgsim.actions.ACTIONS), so ``is`` compares
            # them without the dataclass __eq__.
            actions.sort(key=lambda a: (a is not first, -PRIOR.get(type(a), 0)))
            if actions[0] is not first:
                actions.insert(0, first)
            node = self._tree[key] = Node(actions)
        return node

    def _line(self, edge: Edge, depth: int = 0) -> Edge:
        """The edge that stands for an action's best known line of play: the
        edge itself, or, when the action always leads to the same node, the best
        line below that node if it scores higher. An edge's mean averages the
        exploration done beneath it; the best line does not."""
        best = edge
        child = edge.child
        if not edge.chance and child is not None and depth < MAX_LINE_DEPTH:
            for e in child.edges.values():
                if e.visits >= MIN_LINE_VISITS:
                    line = self._line(e, depth + 1)
                    if line.total / line.visits > best.total / best.visits:
                        best = line
        return best

    def _choose(self, root: Node) -> Action:
        """The default policy's action, unless another action's best line beats
        the default's by more than ``confidence`` standard errors of the
        difference (so noise alone does not pull the agent off a sound plan).
        Lines compare on the determinizations both saw."""
        default = root.actions[0]
        base_edge = root.edges.get(default)
        if base_edge is None:
            return default
        base = self._line(base_edge)
        best, best_line = default, base
        for a, e in root.edges.items():
            if a == default or e.visits < MIN_LINE_VISITS:
                continue
            line = self._line(e)
            if line.total / line.visits > best_line.total / best_line.visits:
                best, best_line = a, line
        if best == default:
            return default
        gap, se = _difference(base, best_line)
        return best if gap > self.confidence * se else default

    def _share(self, state: PlayerState) -> tuple[int, float | None]:
        """This decision's share of the turn's budget: the most iterations, and
        the time to stop by. With ``n`` decisions left to search this turn (see
        :meth:`_decisions_left`) it takes ``2 / (n + 1)`` of what is left: all
        of it for the last decision, more than an even share for earlier ones,
        whose trees later decisions reuse. Once the budget is gone a decision
        reads the statistics the turn's tree already holds. A seconds budget
        keeps ``ARRANGE_RESERVE`` of itself for the end-of-turn arrangement."""
        if self.budget.iterations is not None:
            left = self._iterations_left
            assert left is not None
            if left <= 0:
                return 0, None
            share = max(1, int(left * self._part(state)))
            self._iterations_left = left - share
            return share, None
        assert self.budget.seconds is not None and self._deadline is not None
        now = self.clock()
        reserve = ARRANGE_RESERVE * self.budget.seconds if self.arrange else 0.0
        time_left = self._deadline - reserve - now
        if time_left <= 0:
            return 0, None
        return sys.maxsize, now + time_left * self._part(state)

    def _part(self, state: PlayerState) -> float:
        return budget_part(self._decisions_left(state))

    def _decisions_left(self, state: PlayerState) -> int:
        """How many decisions, this one included, the agent will search before
        the turn ends, counted along the heuristic's line from ``state`` (its
        shop rolls drawn from a scratch stream of the turn, its runaway tail
        left out). Moves and the actions taken unsearched (see
        :meth:`_unsearched`) do not count."""
        taken: list[Action] = []
        rng = CountingRandom(self._seed_pair(0)[0] ^ state.actions)
        self._play_out(state, self._pool.clone(), rng, static=False, taken=taken)
        searched = (
            a
            for a in taken[:MAX_ROLLOUT_ACTIONS]
            if not isinstance(a, Move) and not self._unsearched(a)
        )
        return max(sum(1 for _ in searched), 1)

    def analyse(self, observation: Observation, iterations: int) -> dict[Action, tuple[int, float]]:
        """Search the observation's position for exactly ``iterations``
        iterations (on top of what this turn's tree already holds), whatever
        the budget, and return each root action's visits and mean reward.
        ``bgsim bench mcts`` times this."""
        if iterations < 1:
            raise ValueError(f"iterations must be at least 1, got {iterations!r}")
        if observation.turn != self._turn:
            self._new_turn(observation)
        root = self._node(observation.state)
        self._search(observation, root, iterations, None)
        return {a: (e.visits, e.total / e.visits) for a, e in root.edges.items()}

    def _search(
        self, obs: Observation, root: Node, count: int | None = None, until: float | None = None
    ) -> None:
        """Run ``count`` iterations from ``root`` (stopping at ``until``), by
        default this decision's share of the turn's budget."""
        if count is None:
            count, until = self._share(obs.state)
        if count == 0:
            return
        done = 0
        # A search makes and drops millions of small objects and no reference
        # cycles (tests/test_agents.py checks), so the collector would scan
        # them for nothing: it is off while searching.
        was_enabled = gc.isenabled()
        gc.disable()
        try:
            while done < count:
                if until is not None and done > 0 and self.clock() >= until:
                    break
                self._iterate(obs, root)
                done += 1
        finally:
            if was_enabled:
                gc.enable()
        self.iterations_done += done

    def _seed_pair(self, k: int) -> tuple[int, int]:
        """The seeds (recruit phase, fights) of the turn's ``k``-th
        determinization, drawn fresh from the agent's seed when first needed."""
        while len(self._seeds) <= k:
            self._seeds.append((self._rng.getrandbits(64), self._rng.getrandbits(64)))
        return self._seeds[k]

    def _determinization(self, k: int) -> CountingRandom:
        """The recruit-phase stream (shop rolls, random effects, the horizon's
        turns) of the turn's ``k``-th determinization; :meth:`_fight_plan`
        holds the rest."""
        return CountingRandom(self._seed_pair(k)[0])

    def _fight_plan(self, obs: Observation, k: int) -> list[list[tuple[Board, int]]]:
        """The ``k``-th determinization's enemies and fight seeds, for this turn
        and each horizon turn. They depend on ``k`` alone, so they are guessed
        once and every action tried in that determinization fights them."""
        plan = self._plans.get(k)
        if plan is None:
            fights = random.Random(self._seed_pair(k)[1])
            plan = []
            for ahead in range(self.horizon + 1):
                enemies = self._enemies(obs, fights, ahead)
                plan.append([(enemy, fights.getrandbits(63)) for enemy in enemies])
            self._plans[k] = plan
        return plan

    def _iterate(self, obs: Observation, root: Node) -> None:
        """One iteration. Its determinization is new to the action it tries at
        the root: the k-th try of every root action sees the turn's k-th
        determinization, so siblings compare on common random numbers (the
        enemies and fight seeds match exactly; shop rolls share a stream)."""
        pool = self._pool.clone()
        state = obs.state
        node = root
        path: list[tuple[Node, Action, Node | None]] = []
        first = self._select(root)
        edge = root.edges.get(first)
        k = edge.visits if edge is not None else 0
        rng = self._determinization(k)
        # Selection and expansion along the agent's own decisions.
        while not state.ended:
            action = first if node is root else self._select(node)
            # Legal: the node's actions are those of every state with its key.
            state = tavern.apply_legal_action(state, action, pool, rng, self.rules)
            if state.ended:
                path.append((node, action, None))
                break
            child = self._tree.get(info_key(state, self._cap))
            if child is None:
                path.append((node, action, self._node(state)))
                break
            path.append((node, action, child))
            node = child
        state = self._rollout(state, pool, rng)
        value = self._evaluate(obs, state, pool, rng, k)
        for node, action, child in path:
            node.visits += 1
            edge = node.edges.get(action)
            if edge is None:
                edge = node.edges[action] = Edge(child=child)
            elif edge.child is not child:
                edge.chance = True
            edge.visits += 1
            edge.total += value
            edge.squares += value * value
            edge.samples.setdefault(k, value)

    def _select(self, node: Node) -> Action:
        allowed = node.actions[: node.widened()]
        edges = node.edges
        # Edges are made only for actions this method returned, so they are a
        # subset of ``allowed``: fewer of them means one is still untried.
        if len(edges) < len(allowed):
            for a in allowed:
                if a not in edges:
                    return a
        log_n = math.log(max(node.visits, 1))
        best, best_score = allowed[0], -1.0
        for a in allowed:
            e = edges[a]
            score = e.total / e.visits + self.c * math.sqrt(log_n / e.visits)
            if score > best_score:
                best, best_score = a, score
        return best

    def _rollout(self, state: PlayerState, pool: Pool, rng: CountingRandom) -> PlayerState:
        """Finish the turn from ``state``. When no random draw happens (no shop
        roll, no random effect) the result depends on ``state`` alone, so it is
        kept for the rest of the turn and later iterations skip the work."""
        key = info_key(state, self._cap)
        done = self._finished.get(key)
        if done is not None:
            return done
        draws = rng.draws
        final = self._finish_turn(state, pool, rng)
        if rng.draws == draws:
            self._finished[key] = final
        return final

    def _finish_turn(
        self, state: PlayerState, pool: Pool, rng: CountingRandom, later: bool = False
    ) -> PlayerState:
        """Play the rest of the turn with the rollout policy (``mixed``: the
        heuristic for this turn, the static policy for ``later`` ones)."""
        static = self.policy == "static" or (later and self.policy == "mixed")
        return self._play_out(state, pool, rng, static)

    def _play_out(
        self,
        state: PlayerState,
        pool: Pool,
        rng: CountingRandom,
        static: bool,
        taken: list[Action] | None = None,
    ) -> PlayerState:
        """Play the rest of the turn with the static policy or the heuristic,
        appending each action to ``taken`` if given. The heuristic's Moves only
        arrange the warband, so its first one jumps straight to the final
        order. A safety cap ends runaway rollouts (answering a pending
        Discover first)."""
        steps = 0
        draws = rng.draws
        while not state.ended:
            if steps >= MAX_ROLLOUT_ACTIONS:
                action = tavern.legal_actions(state, self.rules)[0]
            elif static:
                action = rollout_action(state)
            elif rng.draws != draws:
                # After a random draw the states are new: skip the memo's keys.
                action = self._heuristic_action(state)
            else:
                action = self._default(state)
            if taken is not None:
                taken.append(action)
            if isinstance(action, Move) and not static:
                state = state.with_board_and_health(arranged(state.board), state.health)
            else:
                state = tavern.apply_legal_action(state, action, pool, rng, self.rules)
            steps += 1
        return state

    # -------------------------------------------------------------- value

    def _enemies(self, obs: Observation, rng: random.Random, turns_ahead: int) -> list[Board]:
        """Fresh guesses of ``opponents`` different likely opponents."""
        likely = self._opponents
        k = min(self.opponents, len(likely))
        picks = rng.sample(likely, k) if k < len(likely) else likely
        return [self._enemy(obs, rng, turns_ahead, p) for p in picks]

    def _enemy(
        self, obs: Observation, rng: random.Random, turns_ahead: int, player: int | None = None
    ) -> Board:
        if player is None:
            player = self._opponents[int(rng.random() * len(self._opponents))]
        known = self._true.get(player)
        if known is not None:
            board, as_of = known
            target = obs.turn + turns_ahead
            if as_of >= target:
                return board
            # Turns not yet played are unknown even to a cheat: grow the true
            # board over them the way the field's warbands grow.
            return self._guesser.develop(player, list(board.minions), as_of, target, rng)
        return self._guesser.guess(player, rng, obs.turn + turns_ahead)

    def reward(self, odds: Any, health: int) -> float:
        """Map a fight's odds to [0, 1]: winning is worth 1, a tie 0.5, a loss
        0; expected damage moves it, more the lower the hero's health, and a
        lethal loss counts as the worst outcome."""
        swing = (odds.mean_damage_dealt - odds.mean_damage_taken) / max(health, 10)
        base = odds.win + 0.5 * odds.tie
        value = 0.75 * base + 0.25 * (0.5 + 0.5 * max(-1.0, min(1.0, swing)))
        return max(0.0, value - odds.lethal_taken)

    def _evaluate(
        self,
        obs: Observation,
        state: PlayerState,
        pool: Pool,
        rng: CountingRandom,
        k: int,
    ) -> float:
        """Fight the likely opponent at the end of this turn (and of ``horizon``
        more turns played by the default policy); with ``value="model"`` the
        reward is the learned placement estimate after the last fight, with
        ``value="fight"`` the mean of the fights' own rewards."""
        total = 0.0
        plan = self._fight_plan(obs, k)
        for ahead in range(self.horizon + 1):
            mine = board_of(state)
            fights = [simulate(mine, enemy, self.runs, seed) for enemy, seed in plan[ahead]]
            if self._model is None:
                total += sum(self.reward(o, state.health) for o in fights) / len(fights)
            elif ahead == self.horizon:
                turn = state.turn
                return sum(self._model.reward(turn, features(obs, state, o)) for o in fights) / len(
                    fights
                )
            if ahead < self.horizon:
                damage = sum(o.mean_damage_taken for o in fights) / len(fights)
                state = state.with_board_and_health(
                    state.board, max(1, state.health - round(damage))
                )
                state = tavern.start_turn(state, state.turn + 1, pool, rng, self.rules)
                state = self._finish_turn(state, pool, rng, later=True)
        return total / (self.horizon + 1)
