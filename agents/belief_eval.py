"""How good are the guessed boards? `bgsim belief` measures it on real lobbies.

For every pair of living players at every turn of many lobbies, the observer's
warband at the end of its recruit phase fights (a) the opponent's true warband
at the end of that recruit phase and (b) guesses made from what the observer
knew when its turn began. The error is the absolute difference of the two
combat win probabilities; the report gives its mean over all pairs, for one
guess (what one MCTS iteration sees) and for the mean of several guesses.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from agents.belief import Development, Guesser
from bgsim import EndTurn
from bgsim.registry import make_agent, parse_lineup
from bgsim.seeds import derive_seed
from combat_c import Board, simulate


def _play(lineup: str, game_seed: int, heroes: bool = False):
    """Yield (lobby, observations at turn start, warbands at end of recruit) per
    turn of one lobby played by ``lineup`` (with heroes: the draft is turn 0,
    which ends no warband)."""
    from bgsim.lobby import Lobby

    lobby = Lobby(game_seed, heroes=heroes)
    agents = [make_agent(s) for s in parse_lineup(lineup)]
    for p, agent in enumerate(agents):
        agent.reset(p, derive_seed(game_seed, "agent", p))
    while not lobby.done:
        observed = {p: lobby.observe(p) for p in lobby.to_act()}
        final: dict[int, Board] = {}
        turn = lobby.turn
        for p in lobby.to_act():
            while not lobby.done and lobby.turn == turn and p in lobby.to_act():
                action = agents[p].act(lobby.observe(p), lobby.legal_actions(p))
                if isinstance(action, EndTurn):
                    final[p] = lobby.state(p).warband()
                lobby.apply(p, action)
        yield lobby, turn, observed, final


def selfplay_source(games: int, lineup: str, seed: int, heroes: bool) -> str:
    """How a table fitted on self-play names its games (its ``fitted_on``).

    >>> selfplay_source(200, "heuristic:8", 0, True)
    '200 games of heuristic:8 with heroes, seed 0'
    """
    return f"{games} games of {lineup}{' with heroes' if heroes else ''}, seed {seed}"


def fit_development(
    games: int = 40, seed: int = 0, lineup: str = "heuristic:8", heroes: bool = False
) -> Development:
    """Mean warband size and minion stats per turn over real games of ``lineup``
    (with ``heroes``, lobbies with heroes: their hero powers grow warbands
    faster)."""
    size: dict[int, list[float]] = {}
    atk: dict[int, list[float]] = {}
    hp: dict[int, list[float]] = {}
    for g in range(games):
        for _lobby, turn, _observed, final in _play(lineup, derive_seed("fit", seed, g), heroes):
            for board in final.values():
                size.setdefault(turn, []).append(len(board.minions))
                if board.minions:
                    shown = board.displayed()
                    atk.setdefault(turn, []).append(sum(a for a, _ in shown) / len(shown))
                    hp.setdefault(turn, []).append(sum(h for _, h in shown) / len(shown))
    # Late turns have few samples (most games are over): stop where fewer than
    # 20 boards remain and let the last mean stand for later turns.
    turns = [t for t in sorted(size) if len(size[t]) >= 20 and t in atk]
    mean = lambda xs: sum(xs) / len(xs)  # noqa: E731
    return Development(
        size=tuple(mean(size[t]) for t in turns),
        attack=tuple(mean(atk[t]) for t in turns),
        health=tuple(mean(hp[t]) for t in turns),
        fitted_on=selfplay_source(games, lineup, seed, heroes),
    )


def measure_belief(
    games: int = 10,
    seed: int = 0,
    lineup: str = "heuristic:8",
    guesses: int = 4,
    runs: int = 200,
    pairs_per_turn: int = 8,
    progress: Callable[[int], None] | None = None,
    heroes: bool = False,
) -> dict:
    single: list[float] = []
    averaged: list[float] = []
    start = time.perf_counter()
    for g in range(games):
        game_seed = derive_seed("belief", seed, g)
        rng = random.Random(derive_seed(game_seed, "guess"))
        for _lobby, _turn, observed, final in _play(lineup, game_seed, heroes):
            pairs = [(p, q) for p in final for q in final if p != q and final[p].minions]
            rng.shuffle(pairs)
            for p, q in pairs[:pairs_per_turn]:
                guesser = Guesser(observed[p])
                truth = simulate(final[p], final[q], runs, rng.getrandbits(32)).win
                wins = []
                for _ in range(guesses):
                    guess = guesser.guess(q, rng)
                    wins.append(simulate(final[p], guess, runs, rng.getrandbits(32)).win)
                single.append(abs(wins[0] - truth))
                averaged.append(abs(sum(wins) / len(wins) - truth))
        if progress:
            progress(g + 1)
    n = len(single)
    return {
        "games": games,
        "lineup": lineup,
        "heroes": heroes,
        "pairs": n,
        "mae_one_guess": sum(single) / n if n else float("nan"),
        f"mae_mean_of_{guesses}_guesses": sum(averaged) / n if n else float("nan"),
        "seconds": time.perf_counter() - start,
    }
