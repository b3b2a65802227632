"""Information-set Monte Carlo tree search over a ``bgsim.TurnModel``.

The search knows nothing of Battlegrounds beyond the forward model. What it
searches with is passed in:

- ``expand(model)``: the actions a new node branches on, the default
  policy's first (the prior);
- ``rollout(model)``: finishes the turn from a leaf (the rollout policy);
- ``evaluate(model, k)``: the reward in [0, 1] of a finished turn in the
  ``k``-th determinization (the evaluator);
- ``stream(k)``: the random generator of the ``k``-th determinization (shop
  rolls and random effects).

The tree holds only the searching player's decisions and lasts a turn.
Nodes are keyed by the model's information set (:meth:`TurnModel.info_key`),
so transpositions merge; statistics live on the (node, action) edges. Every
iteration plays a fresh determinization: the ``k``-th try of each root action
plays the ``k``-th one, so sibling actions compare on common random numbers.
Selection is UCT with progressive widening (a node considers one more of its
actions each time its visits pass the next square). :meth:`Search.choose`
keeps the default action unless another action's best line beats it by
``confidence`` standard errors.

>>> import random
>>> from bgsim import Lobby, TurnModel
>>> obs = Lobby(seed=5).observe(0)
>>> start = TurnModel.from_observation(obs, rng=random.Random(0))
>>> def finish(model):  # rollout policy: end the turn
...     while not model.is_turn_over():
...         model.apply_action(model.legal_actions()[0])
>>> def gold_left(model, k):  # evaluator: a thrifty reward
...     return model.state.gold / 10
>>> search = Search(
...     expand=lambda model: model.legal_actions(),
...     rollout=finish,
...     evaluate=gold_left,
...     stream=lambda k: random.Random(k),
... )
>>> root = search.node(start)
>>> search.run(start, root, count=50)
50
>>> search.choose(root, confidence=0.0)
EndTurn()
"""

from __future__ import annotations

import gc
import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field

from bgsim import Action, TurnModel

MIN_LINE_VISITS = 8
MAX_LINE_DEPTH = 8

Expand = Callable[[TurnModel], list[Action]]
Rollout = Callable[[TurnModel], None]
Evaluator = Callable[[TurnModel, int], float]
Stream = Callable[[int], random.Random]


@dataclass
class Edge:
    """Statistics of one (node, action) pair."""

    visits: int = 0
    total: float = 0.0
    squares: float = 0.0
    child: Node | None = None  # the node the action led to
    chance: bool = False  # it has led to different nodes (a shop roll, a random effect)
    # Reward by determinization: sibling lines that saw the same
    # determinizations compare pairwise.
    samples: dict[int, float] = field(default_factory=dict)


def _variance(e: Edge) -> float:
    mean = e.total / e.visits
    return max(e.squares / e.visits - mean * mean, 1e-6)


def difference(a: Edge, b: Edge) -> tuple[float, float]:
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


def _checked(actions: list[Action], model: TurnModel) -> list[Action]:
    """``expand``'s answer for ``model``, refused unless it is one or more of
    the model's legal actions (the search applies them unchecked)."""
    if model.is_turn_over():
        raise ValueError("the turn is over: a finished turn has no node to search")
    if not actions:
        raise ValueError("expand returned no actions for a turn that is not over")
    legal = model.legal_actions()
    shared = {id(a) for a in legal}  # bgsim's actions are shared instances: by identity first
    for action in actions:
        if id(action) not in shared and action not in legal:
            raise ValueError(f"expand returned {action!r}, which is not legal here")
    return actions


class Search:
    """One turn's search tree and the pieces it searches with (see the module
    doc). ``c`` is the UCT exploration constant."""

    def __init__(
        self,
        expand: Expand,
        rollout: Rollout,
        evaluate: Evaluator,
        stream: Stream,
        c: float = 0.35,
    ) -> None:
        if not 0.0 <= c < math.inf:
            raise ValueError(f"c must be a finite number 0 or more, got {c!r}")
        self.expand = expand
        self.rollout = rollout
        self.evaluate = evaluate
        self.stream = stream
        self.c = c
        self.tree: dict[tuple, Node] = {}
        self.iterations = 0

    def node(self, model: TurnModel) -> Node:
        """The tree's node for the model's information set (made if new). A
        model whose turn is over has none, and ``expand`` must give at least
        one action, each legal in ``model``: otherwise a ValueError."""
        key = model.info_key()
        node = self.tree.get(key)
        if node is None:
            node = self.tree[key] = Node(_checked(self.expand(model), model))
        return node

    def run(
        self,
        start: TurnModel,
        root: Node,
        count: int,
        until: float | None = None,
        clock: Callable[[], float] | None = None,
    ) -> int:
        """Run up to ``count`` iterations from ``start`` (whose node is
        ``root``), stopping once ``clock()`` reaches ``until``; return how many
        ran."""
        if start.is_turn_over():
            raise ValueError("the turn is over: there is nothing left to search")
        done = 0
        # A search makes and drops millions of small objects and no reference
        # cycles (tests/test_agents.py checks), so the collector would scan
        # them for nothing: it is off while searching. The tree it leaves is
        # freed by reference counts when the turn ends, so it is moved to the
        # oldest generation unscanned (freeze, then unfreeze: two list splices)
        # rather than walked by the next young collection, a tenth of a
        # second on a big tree. Skipped when the program froze objects itself.
        was_enabled = gc.isenabled()
        gc.disable()
        try:
            while done < count:
                if until is not None and clock is not None and done > 0 and clock() >= until:
                    break
                self.iterate(start, root)
                done += 1
        finally:
            if was_enabled:
                if gc.get_freeze_count() == 0:
                    gc.freeze()
                    gc.unfreeze()
                gc.enable()
        self.iterations += done
        return done

    def iterate(self, start: TurnModel, root: Node) -> None:
        """One iteration from ``start``. Its determinization is new to the
        action it tries at the root: the k-th try of every root action plays
        the k-th determinization, so siblings compare on common random
        numbers."""
        first = self._select(root)
        edge = root.edges.get(first)
        k = edge.visits if edge is not None else 0
        model = start.clone(self.stream(k))
        node = root
        path: list[tuple[Node, Action, Node | None]] = []
        # Selection and expansion along the player's own decisions.
        while not model.is_turn_over():
            action = first if node is root else self._select(node)
            # Legal: a node's actions are those of every model with its key.
            model.apply_action(action, False)
            if model.is_turn_over():
                path.append((node, action, None))
                break
            child = self.tree.get(model.info_key())
            if child is None:
                path.append((node, action, self.node(model)))
                break
            path.append((node, action, child))
            node = child
        self.rollout(model)
        value = self.evaluate(model, k)
        if not 0.0 <= value <= 1.0:
            raise ValueError(f"evaluate returned {value!r}: rewards must lie in [0, 1]")
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

    def line(self, edge: Edge, depth: int = 0) -> Edge:
        """The edge that stands for an action's best known line of play: the
        edge itself, or, when the action always leads to the same node, the
        best line below that node if it scores higher. An edge's mean averages
        the exploration done beneath it; the best line does not."""
        best = edge
        child = edge.child
        if not edge.chance and child is not None and depth < MAX_LINE_DEPTH:
            for e in child.edges.values():
                if e.visits >= MIN_LINE_VISITS:
                    line = self.line(e, depth + 1)
                    if line.total / line.visits > best.total / best.visits:
                        best = line
        return best

    def choose(self, root: Node, confidence: float) -> Action:
        """The default action (the node's first), unless another action's best
        line beats the default's by more than ``confidence`` standard errors
        of the difference (so noise alone does not pull the player off a
        sound plan). Lines compare on the determinizations both saw."""
        if not confidence >= 0.0:
            raise ValueError(f"confidence must be 0 or more, got {confidence!r}")
        default = root.actions[0]
        base_edge = root.edges.get(default)
        if base_edge is None:
            return default
        base = self.line(base_edge)
        best, best_line = default, base
        for a, e in root.edges.items():
            if a == default or e.visits < MIN_LINE_VISITS:
                continue
            line = self.line(e)
            if line.total / line.visits > best_line.total / best_line.visits:
                best, best_line = a, line
        if best == default:
            return default
        gap, se = difference(base, best_line)
        return best if gap > confidence * se else default
