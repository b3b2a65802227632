"""`bgsim bench`: the project's performance figures, measured on this machine.

Every figure is per core: each measurement runs in this one process.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from bgsim.resources import data_path
from combat_c import Board, parse_board, simulate


def bench_boards() -> list[tuple[str, Board, Board]]:
    """(name, board a, board b) for every fight in data/boards/bench/."""
    out: list[tuple[str, Board, Board]] = []
    for path in sorted(data_path("boards", "bench").glob("*.json")):
        fight = json.loads(Path(path).read_text(encoding="utf-8"))
        out.append((fight.get("name", path.stem), parse_board(fight["a"]), parse_board(fight["b"])))
    return out


def _rate(fn: Callable[[int], object], seconds: float, first: int) -> tuple[int, float]:
    """Call fn(n) with growing n until `seconds` have passed; (total n, elapsed)."""
    n, total, elapsed = first, 0, 0.0
    while elapsed < seconds:
        start = time.perf_counter()
        fn(n)
        spent = time.perf_counter() - start
        total += n
        elapsed += spent
        if spent < seconds / 10:
            n *= 2
    return total, elapsed


def _fights(a: Board, b: Board, n: int) -> None:
    simulate(a, b, n, seed=n)


def _calls(a: Board, b: Board, runs: int, n: int) -> None:
    for i in range(n):
        simulate(a, b, runs, seed=i)


_COUNTS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def _has_hero(board: Board) -> bool:
    return board.hero is not None


def bench_combat(seconds: float = 1.0, log: Callable[[str], None] | None = None) -> dict:
    """Resolved combats per second on each bench board and in total, plus the
    Python overhead of one ``simulate`` call and its share of a call at
    runs=1 and runs=1000. Boards with heroes are measured and listed after
    the others; the total and the overhead are those of the boards without
    heroes, so they keep their meaning as hero fights are added."""
    boards = bench_boards()
    heroes = {n for n, a, b in boards if _has_hero(a) or _has_hero(b)}
    boards.sort(key=lambda t: t[0] in heroes)  # stable: by name within each group
    plain = [t for t in boards if t[0] not in heroes]
    per_board = {}
    for name, a, b in boards:
        runs, elapsed = _rate(partial(_fights, a, b), seconds, 1000)
        per_board[name] = runs / elapsed
        if log:
            shown = f"{name} (heroes)" if name in heroes else name
            log(f"{shown:28s} {runs / elapsed:>12,.0f} combats/s")
    # Overhead: a runs=1 call's time minus the engine time of its one fight,
    # on the smallest board so the engine part is as small as it gets. The
    # Python side of a call (reading the packed boards, building the Odds)
    # does not depend on runs, so at runs=1000 it is that same overhead, as a
    # share of a far longer call (subtracting 1,000 fights' engine time from
    # the call would leave only noise).
    name, a, b = min(plain, key=lambda t: len(t[1].minions) + len(t[2].minions))
    engine_us = 1e6 / per_board[name]
    call_us = {}
    for runs in (1, 1000):
        calls, elapsed = _rate(partial(_calls, a, b, runs), seconds / 2, 100 if runs == 1 else 10)
        call_us[runs] = elapsed / calls * 1e6
    overhead = max(call_us[1] - engine_us, 0.0)
    share = {runs: overhead / t for runs, t in call_us.items()}
    if log:
        log(f"simulate(runs=1) overhead {overhead:>12.2f} µs per call ({share[1]:.0%} of it)")
        log(f"simulate(runs=1000) call {call_us[1000]:>13,.0f} µs ({share[1000]:.2%} overhead)")
    # The total resolves the fights without heroes in equal numbers: the
    # harmonic mean.
    total = len(plain) / sum(1 / per_board[n] for n, _, _ in plain)
    result = {
        "combats_per_second": per_board,
        "total_combats_per_second": total,
        "total_boards": [n for n, _, _ in plain],
        "overhead_us": overhead,
        "call_us": {"runs_1": call_us[1], "runs_1000": call_us[1000]},
        "overhead_share": {"runs_1": share[1], "runs_1000": share[1000]},
        "overhead_board": name,
    }
    if log:
        count = _COUNTS[len(plain)] if len(plain) < len(_COUNTS) else str(len(plain))
        label = f"total ({count} boards)"
        log(f"{label:28s} {total:>12,.0f} combats/s")
    return result
