"""The end-of-turn optimizer: the warband order that fights best.

Starting from a given order, :func:`hill_climb` tries every single relocation
of one minion, keeps the best if it gains at least ``margin``, and repeats for
``rounds`` rounds. :func:`fight_score` scores an order by fighting guessed
enemies, every order against the same enemies with the same seeds, so orders
compare on common random numbers.

>>> from bgsim import MinionCard
>>> from bgsim.rules import make_minion
>>> wolf, hyena = make_minion("OG_216"), make_minion("EX1_531")  # Infested Wolf, Hyena
>>> scores = {(wolf, hyena): 0.4, (hyena, wolf): 0.6}
>>> hill_climb((wolf, hyena), scores.__getitem__, rounds=2, margin=0.02)[0].name
'Scavenging Hyena'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from bgsim import MinionCard, TurnModel
from combat_c import Board, Odds, simulate

Order = tuple[MinionCard, ...]
T = TypeVar("T")


def hill_climb(
    start: tuple[T, ...],
    score: Callable[[tuple[T, ...]], float],
    rounds: int,
    margin: float,
    out_of_time: Callable[[], bool] | None = None,
) -> tuple[T, ...]:
    """The best order found by hill-climbing over single relocations from
    ``start`` (see the module doc). Once ``out_of_time()`` says so it stops
    and returns the best order found so far. The items may be anything: the
    agent orders its minions, ``bgsim combat --arrange`` a board's slots."""
    best = start
    best_score = score(best)
    for _ in range(rounds):
        found: tuple[tuple[T, ...], float] | None = None
        for i in range(len(best)):
            for j in range(len(best)):
                if i == j:
                    continue
                if out_of_time is not None and out_of_time():
                    return found[0] if found is not None else best
                order = list(best)
                order.insert(j, order.pop(i))
                value = score(tuple(order))
                if value > best_score + margin and (found is None or value > found[1]):
                    found = (tuple(order), value)
        if found is None:
            break
        best, best_score = found
    return best


def fight_score(
    model: TurnModel,
    enemies: Sequence[Board],
    seeds: Sequence[int],
    runs: int,
    reward: Callable[[Odds, int], float],
) -> Callable[[Order], float]:
    """A score for :func:`hill_climb`: the mean ``reward(odds, health)`` of the
    model's player fielding an order against each enemy, ``runs`` fights with
    its seed."""
    health = max(model.state.health, 1)

    def score(order: Order) -> float:
        mine = model.warband(order)
        return sum(
            reward(simulate(mine, enemy, runs, seed), health)
            for enemy, seed in zip(enemies, seeds, strict=True)
        ) / len(enemies)

    return score
