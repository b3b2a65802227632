"""A learned estimate of the final placement, for search evaluations.

A fight's odds say how this turn goes; a placement depends on much more: the
hero's health after the fight against the others', the tavern tier against
theirs, how many players are left. :class:`ValueModel` predicts the final
placement from such features with one linear model per stage of the game,
fitted by least squares on games of the agents (``bgsim value --fit`` writes
``data/value_model.json``). Everything it reads is public or the player's own.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from bgsim import Observation, PlayerState
from bgsim.resources import data_path
from combat_c.guarded import InputError, numbers, read_json

MAX_WEIGHT = 1_000_000.0  # the largest weight a model file may hold
# Turn ranges with their own model: the same feature weighs differently early and late.
STAGES = ((1, 4), (5, 8), (9, 12), (13, 10_000))
FEATURES = (
    "bias",
    "health_after",  # hero health after the fight's expected damage, /40
    "lethal_risk",  # chance this fight kills the hero
    "win_minus_loss",
    "damage_swing",  # expected damage dealt minus taken, /10
    "tier",
    "tier_lead",  # own tier minus the mean tier of the other living players
    "health_rank",  # share of living opponents with less health than health_after
    "alive",  # living opponents, /7
    "card_value",  # the heuristic agent's worth of warband and hand, /(10 * turn)
)
# Features a search pushes on must not reward the wrong thing: warband size or
# raw stats are left out because, fitted on self-play, they pick up spurious
# signs (more minions "worse" early) that a search would exploit.


def stage_of(turn: int) -> int:
    for i, (lo, hi) in enumerate(STAGES):
        if lo <= turn <= hi:
            return i
    return len(STAGES) - 1


@cache
def _judge() -> Any:
    from agents.heuristic import HeuristicAgent

    return HeuristicAgent()


def features(obs: Observation, state: PlayerState, odds: Any) -> list[float]:
    """The model's inputs for ``state`` (this player's end of turn) fighting
    with ``odds`` (a combat_c Odds against the likely opponent)."""
    me = obs.player
    health_after = state.health - odds.mean_damage_taken
    others = [p for p in obs.players if p.alive and p.player != me]
    n = max(len(others), 1)
    mean_tier = sum(p.tier for p in others) / n if others else state.tier
    below = sum(p.health < health_after for p in others) / n
    return [
        1.0,
        max(min(health_after, 40.0), -10.0) / 40.0,
        odds.lethal_taken,
        odds.win - odds.loss,
        (odds.mean_damage_dealt - odds.mean_damage_taken) / 10.0,
        float(state.tier),
        state.tier - mean_tier,
        below,
        len(others) / 7.0,
        _judge().warband_value(state, state.turn) / (10.0 * max(state.turn, 1)),
    ]


@dataclass(frozen=True)
class ValueModel:
    """Per-stage weights over FEATURES predicting the final placement (1..8)."""

    weights: tuple[tuple[float, ...], ...]
    fitted_on: str = ""

    def placement(self, turn: int, x: Sequence[float]) -> float:
        w = self.weights[stage_of(turn)]
        return min(8.0, max(1.0, sum(a * b for a, b in zip(w, x, strict=True))))

    def reward(self, turn: int, x: Sequence[float]) -> float:
        """1 for a predicted first place, 0 for last."""
        return (8.0 - self.placement(turn, x)) / 7.0

    @classmethod
    def load(cls, path: str | Path | None = None) -> ValueModel:
        """The model in ``path`` (default: the shipped one), read through the
        guarded reader and checked; a problem is an ``InputError`` (a
        ``ValueError``) naming the file and the field."""
        source = Path(path or data_path("value_model.json"))
        doc = read_json(source)
        if not isinstance(doc, dict) or not isinstance(doc.get("fitted_on", ""), str):
            raise InputError(f"{source}: not a value model (an object with features, weights)")
        if doc.get("features") != list(FEATURES):
            raise InputError(f"{source}: fitted on other features; refit it")
        rows = doc.get("weights")
        if not isinstance(rows, list) or len(rows) != len(STAGES):
            raise InputError(f"{source}: weights: not {len(STAGES)} rows, one per stage")
        weights = []
        for i, row in enumerate(rows):
            got = numbers(row, f"{source}: weights[{i}]", -MAX_WEIGHT, MAX_WEIGHT)
            if len(got) != len(FEATURES):
                raise InputError(f"{source}: weights[{i}]: not {len(FEATURES)} numbers")
            weights.append(got)
        return cls(tuple(weights), doc.get("fitted_on", ""))

    def to_json(self) -> str:
        rows = [
            f' "fitted_on": {json.dumps(self.fitted_on)}',
            f' "features": {json.dumps(list(FEATURES))}',
            ' "weights": [\n'
            + ",\n".join(f"  {json.dumps([round(w, 5) for w in ws])}" for ws in self.weights)
            + "\n ]",
        ]
        return "{\n" + ",\n".join(rows) + "\n}\n"


@cache
def value_model() -> ValueModel:
    """The shipped model, ``data/value_model.json`` (read once)."""
    return ValueModel.load()


def load_value_model(path: str | Path) -> ValueModel:
    """A model file that ``bgsim value --out PATH`` wrote (the MCTS agent's
    ``value_model=PATH`` option); a file that cannot be read or is no such
    model raises ``ValueError`` in one line.

    >>> load_value_model("no/such/file.json")
    Traceback (most recent call last):
    ...
    ValueError: value_model=no/such/file.json: cannot read it (No such file or directory)
    """
    try:
        return ValueModel.load(path)
    except InputError as exc:
        text = str(exc).removeprefix(f"{path}: ")
        if text.startswith("cannot read"):
            raise ValueError(
                f"value_model={path}: cannot read it{text[len('cannot read') :]}"
            ) from None
        raise ValueError(f"value_model={path}: not a bgsim value model ({text})") from None


def collect_samples(
    games: int,
    seed: int = 0,
    lineup: str = "heuristic:8",
    runs: int = 16,
    progress: Callable[[int], None] | None = None,
    heroes: bool = True,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Play ``games`` lobbies (with heroes unless ``heroes`` is false); for
    every player at every end of recruit, the features (odds against a guessed
    likely opponent, as a search sees them), the turn and the final placement."""
    from agents.belief import Guesser
    from bgsim.actions import EndTurn
    from bgsim.lobby import Lobby
    from bgsim.registry import make_agent, parse_lineup
    from bgsim.seeds import derive_seed
    from combat_c import simulate

    xs: list[list[float]] = []
    turns: list[int] = []
    owners: list[tuple[int, int]] = []
    placements: dict[tuple[int, int], int] = {}
    for g in range(games):
        game_seed = derive_seed("value", seed, g)
        lobby = Lobby(game_seed, heroes=heroes)
        agents = [make_agent(s) for s in parse_lineup(lineup)]
        for p, agent in enumerate(agents):
            agent.reset(p, derive_seed(game_seed, "agent", p))
        rng = random.Random(derive_seed(game_seed, "guess"))
        while not lobby.done:
            turn = lobby.turn
            for p in lobby.to_act():
                obs = lobby.observe(p)
                while not lobby.done and lobby.turn == turn and p in lobby.to_act():
                    action = agents[p].act(lobby.observe(p), lobby.legal_actions(p))
                    if isinstance(action, EndTurn):
                        state = lobby.state(p)
                        living = [q.player for q in obs.players if q.alive and q.player != p]
                        likely = [q for q in living if q != obs.last_opponent] or living
                        enemy = Guesser(obs).guess(rng.choice(likely), rng)
                        mine = state.warband()
                        odds = simulate(mine, enemy, runs, rng.getrandbits(32))
                        xs.append(features(obs, state, odds))
                        turns.append(turn)
                        owners.append((g, p))
                    lobby.apply(p, action)
        for p, place in lobby.placements.items():
            placements[(g, p)] = place
        if progress:
            progress(g + 1)
    y = np.array([placements[o] for o in owners], dtype=float)
    return np.array(xs), np.array(turns), y


def fit(x: np.ndarray, turns: np.ndarray, y: np.ndarray, fitted_on: str) -> ValueModel:
    """Least squares per stage (a little ridge keeps rare features tame)."""
    weights = []
    for i in range(len(STAGES)):
        rows = np.array([stage_of(int(t)) == i for t in turns])
        xs, ys = x[rows], y[rows]
        if len(ys) < len(FEATURES) * 10:
            raise ValueError(
                f"too few samples for stage {STAGES[i]}: {len(ys)}, at least "
                f"{len(FEATURES) * 10} are needed"
            )
        ridge = 1e-3 * len(ys) * np.eye(xs.shape[1])
        ridge[0, 0] = 0.0
        w = np.linalg.solve(xs.T @ xs + ridge, xs.T @ ys)
        weights.append(tuple(float(v) for v in w))
    return ValueModel(tuple(weights), fitted_on)


def fit_value_model(
    games: int = 300,
    seed: int = 0,
    lineup: str = "heuristic:8",
    progress: Callable[[int], None] | None = None,
    heroes: bool = True,
) -> tuple[ValueModel, dict]:
    from agents.belief_eval import selfplay_source

    start = time.perf_counter()
    x, turns, y = collect_samples(games, seed, lineup, progress=progress, heroes=heroes)
    model = fit(x, turns, y, selfplay_source(games, lineup, seed, heroes))
    pred = np.array([model.placement(int(t), row) for t, row in zip(turns, x, strict=True)])
    report = {
        "samples": len(y),
        "mean_abs_error": float(np.mean(np.abs(pred - y))),
        "baseline_error": float(np.mean(np.abs(4.5 - y))),
        "seconds": time.perf_counter() - start,
    }
    return model, report
