"""Who fights whom in a combat round.

Pairings are random among the living players and avoid a player's previous
opponent when some pairing allows it (the exact window of the real
matchmaker is not known; rules-research Q27, so only the last opponent is
avoided). With an odd number of players alive, the ghost of the most recently
eliminated player takes the free seat and is paired like any player (so a
player who fought that ghost last round avoids it too). Without a ghost (an
odd lobby before anybody is out) the odd player sits the round out.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence


def pair_players(
    alive: Sequence[int],
    last_opponent: Mapping[int, int | None],
    ghost: int | None,
    rng: random.Random,
) -> tuple[tuple[int, int], ...]:
    """Pairs ``(a, b)`` for this round; ``b`` may be the ghost's player id."""
    order = list(alive)
    rng.shuffle(order)
    if len(order) % 2:
        if ghost is not None:
            order.append(ghost)
        else:
            order.pop()

    def avoid(a: int, b: int) -> bool:
        return last_opponent.get(a) == b or last_opponent.get(b) == a

    found = _match(order, avoid)
    if found is None:
        found = [(order[i], order[i + 1]) for i in range(0, len(order), 2)]
    # the ghost, if any, always sits in the second seat of its pair
    return tuple((b, a) if a == ghost else (a, b) for a, b in found)


def _match(nodes: list[int], avoid) -> list[tuple[int, int]] | None:
    """A perfect matching without avoided pairs: the first node pairs with the
    earliest allowed partner; backtrack if that leaves no matching."""
    if not nodes:
        return []
    first, rest = nodes[0], nodes[1:]
    for k, other in enumerate(rest):
        if avoid(first, other):
            continue
        tail = _match(rest[:k] + rest[k + 1 :], avoid)
        if tail is not None:
            return [(first, other), *tail]
    return None
