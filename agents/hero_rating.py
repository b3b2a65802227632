"""Measure the hero ratings the agents draft by (``data/hero_ratings.json``).

Plays lobbies with heroes in which every seat is the heuristic agent taking the
first hero offered (``heuristic[draft=first]``: the offers are a random draw,
so every seat gets a uniformly random hero) and records, per hero, the games
and the mean placement, and how far to trust a hero's mean: the shrinkage
``shrink``, in pseudo-games at the average, is the empirical-Bayes ratio of
the placements' variance within a hero to the variance of the heroes' true
means (the spread of the measured means less what their sampling explains).
:mod:`agents.hero_policy` shrinks each mean toward the average by it and
drafts by the result. Run it again whenever hero powers change::

    python -m agents.hero_rating --lobbies 600 --seed 1 --write

>>> table = measure(1, seed=3)
>>> sum(games for games, _ in table["heroes"].values())
8
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence

from agents.arena import GameTask, play_game
from bgsim import compiled, load_ruleset
from bgsim.registry import parse_lineup
from bgsim.resources import data_path
from bgsim.seeds import derive_seed

LINEUP = "heuristic[draft=first]:8"


def measure(lobbies: int, seed: int = 0, lineup: str = LINEUP) -> dict:
    """Per hero played in ``lobbies`` lobbies of ``lineup``: [games, mean
    placement], with how it was measured."""
    if lobbies < 1:
        raise ValueError(f"lobbies must be at least 1, got {lobbies}")
    rules = load_ruleset()
    seats = tuple(parse_lineup(lineup, rules.lobby.players))
    places: dict[str, list[int]] = {}
    for k in range(lobbies):
        s = derive_seed("hero-rating", seed, k)
        task = GameTask("hero-rating", k, s, seats, None, None, rules, heroes=True)
        record = play_game(task)
        for hero, place in zip(record.heroes, record.placements, strict=True):
            places.setdefault(hero, []).append(place)
    heroes = {h: [len(got), round(sum(got) / len(got), 3)] for h, got in sorted(places.items())}
    return {
        "shrink": round(shrinkage(places), 1),
        "about": (
            "mean placement per hero in lobbies of heuristic agents that each drafted "
            "a random hero; written by agents/hero_rating.py, read by agents/hero_policy.py"
        ),
        "lineup": lineup,
        "lobbies": lobbies,
        "seed": seed,
        "heroes": heroes,
    }


def shrinkage(places: dict[str, list[int]]) -> float:
    """Pseudo-games at the average to shrink a hero's mean with: the pooled
    variance of placements within a hero over the variance of the heroes'
    true means (at least 0.01 placement squared), the empirical-Bayes choice.

    >>> round(shrinkage({"a": [1, 2, 1, 2], "b": [7, 8, 7, 8]}), 2)
    0.02
    """
    groups = [got for got in places.values() if len(got) > 1]
    if len(groups) < 2:
        return 10.0
    means = [sum(g) / len(g) for g in groups]
    within = sum(sum((x - m) ** 2 for x in g) for g, m in zip(groups, means, strict=True))
    within /= sum(len(g) - 1 for g in groups)
    grand = sum(means) / len(means)
    spread = sum((m - grand) ** 2 for m in means) / (len(means) - 1)
    sampling = sum(within / len(g) for g in groups) / len(groups)
    return within / max(spread - sampling, 0.01)


def main(argv: Sequence[str] | None = None) -> int:
    """The command line (see the module doc); prints the table, best first."""
    parser = argparse.ArgumentParser(prog="python -m agents.hero_rating", description=__doc__)
    parser.add_argument("--lobbies", type=int, default=600, help="lobbies to play")
    parser.add_argument("--seed", type=int, default=1, help="base seed")
    parser.add_argument("--write", action="store_true", help="write data/hero_ratings.json")
    args = parser.parse_args(argv)
    from bgsim.heroes import heroes

    start = time.perf_counter()
    table = measure(args.lobbies, args.seed)
    spent = time.perf_counter() - start
    names = {h.id: h.name for h in heroes().values()}
    rows = sorted(table["heroes"].items(), key=lambda kv: kv[1][1])
    for hero, (games, mean) in rows:
        print(f"{names.get(hero, hero):28s} {games:5d} games  mean placement {mean:.2f}")
    print(f"{args.lobbies} lobbies in {spent:.0f} s ({compiled.status()} build)")
    if args.write:
        path = data_path("hero_ratings.json")
        path.write_text(json.dumps(table, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
