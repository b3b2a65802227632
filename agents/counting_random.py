"""A random stream that counts its draws.

Kept apart from :mod:`agents.mcts`, which mypyc compiles: a compiled class
cannot extend :class:`random.Random`.
"""

from __future__ import annotations

import random

_RANDOM = random.Random.random


class CountingRandom(random.Random):
    """Counts draws, so a search knows whether a rollout depended on chance
    (every random choice of the recruit phase goes through ``random()``)."""

    draws = 0

    def random(self) -> float:
        self.draws += 1
        return _RANDOM(self)
