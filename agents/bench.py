"""Agent-level benchmarks for `bgsim bench`: full lobbies and MCTS search speed."""

from __future__ import annotations

import time

from agents.arena import GameTask, derive_seed, play_game
from agents.registry import parse_lineup


def bench_lobby(lobbies: int = 20, seed: int = 0, lineup: str = "random:8") -> dict:
    """Full eight-player lobbies per second on this core, played by ``lineup``."""
    seats = tuple(parse_lineup(lineup))
    start = time.perf_counter()
    turns = 0
    for k in range(lobbies):
        task = GameTask("bench", k, derive_seed("bench", seed, k), seats, None, None)
        turns += play_game(task).turns
    seconds = time.perf_counter() - start
    return {
        "lineup": lineup,
        "lobbies": lobbies,
        "seconds": seconds,
        "lobbies_per_second": lobbies / seconds,
        "turns_per_lobby": turns / lobbies,
    }
