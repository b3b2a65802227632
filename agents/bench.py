"""Agent-level benchmarks for `bgsim bench`: full lobbies and MCTS search speed."""

from __future__ import annotations

import time

from agents.arena import GameTask, play_game
from bgsim import compiled, load_ruleset
from bgsim.registry import make_agent, parse_lineup
from bgsim.seeds import derive_seed


def bench_lobby(
    lobbies: int = 20,
    seed: int = 0,
    lineup: str = "random:8",
    heroes: bool = False,
    repeat: int = 1,
) -> dict:
    """Full eight-player lobbies per second on this core, played by ``lineup``
    (with heroes: the draft and hero powers too). Each lobby is played
    ``repeat`` times and its fastest run counts, in CPU time of this process:
    a shared machine only ever slows a run down.

    >>> bench_lobby(1)["lobbies"]
    1
    """
    if lobbies < 1 or repeat < 1:
        raise ValueError("lobbies and repeat must be at least 1")
    rules = load_ruleset()
    seats = tuple(parse_lineup(lineup, rules.lobby.players))
    if heroes:  # the hero sheet is read once per process, as the card data is at import
        from bgsim.heroes import heroes as hero_sheet

        hero_sheet()
    clock = time.process_time
    best = [float("inf")] * lobbies
    turns = 0
    for _ in range(repeat):
        turns = 0
        for k in range(lobbies):
            task = GameTask(
                "bench", k, derive_seed("bench", seed, k), seats, None, None, rules, heroes=heroes
            )
            start = clock()
            turns += play_game(task).turns
            best[k] = min(best[k], clock() - start)
    seconds = sum(best)
    return {
        "build": compiled.status(),
        "lineup": lineup,
        "heroes": heroes,
        "lobbies": lobbies,
        "repeat": repeat,
        "seconds": seconds,
        "lobbies_per_second": lobbies / seconds,
        "turns_per_lobby": turns / lobbies,
    }


def mcts_positions(seed: int = 0, turns: tuple[int, ...] = (3, 6, 9, 12)) -> list:
    """Observations of seat 0 at the start of the given turns of a lobby whose
    eight players follow the static default policy of agents.rollout: fixed
    positions for timing the search (they do not change when agents do)."""
    from agents.rollout import rollout_action
    from bgsim.lobby import Lobby

    lobby = Lobby(derive_seed("mcts-bench", seed))
    out = []
    while not lobby.done and lobby.turn <= max(turns):
        if lobby.turn in turns and lobby.alive(0) and 0 in lobby.to_act():
            out.append(lobby.observe(0))
        turn = lobby.turn
        for p in lobby.to_act():
            while not lobby.done and lobby.turn == turn and p in lobby.to_act():
                lobby.apply(p, rollout_action(lobby.state(p), lobby.rules, lobby.legal_actions(p)))
    return out


def bench_mcts(iterations: int = 2000, seed: int = 0, options: str = "", repeat: int = 3) -> dict:
    """MCTS iterations per second (one core) on fixed positions, combat look-ups
    included: ``iterations`` iterations from the start of a turn per position. Each position is
    searched ``repeat`` times from scratch (the same work every time) and the
    fastest counts, as timeit does: a shared machine only ever slows a run."""
    from agents.mcts import MCTSAgent
    from bgsim.registry import parse_spec

    if iterations < 1 or repeat < 1:
        raise ValueError("iterations and repeat must be at least 1")
    spec = parse_spec(f"mcts[{options}]" if options else "mcts")
    per_position = {}
    total_time = 0.0
    for obs in mcts_positions(seed):
        best = None
        for _ in range(repeat):
            agent = make_agent(spec)
            assert isinstance(agent, MCTSAgent)
            agent.reset(0, seed)
            start = time.perf_counter()
            agent.analyse(obs, iterations)
            spent = time.perf_counter() - start
            if best is None or spent < best:
                best = spent
        assert best is not None
        per_position[f"turn {obs.turn}"] = iterations / best
        total_time += best
    return {
        "iterations_per_second": per_position,
        "total_iterations_per_second": iterations * len(per_position) / total_time,
        "agent": spec.label,
        "repeat": repeat,
        "build": compiled.status(),
    }
