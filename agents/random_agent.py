"""Uniformly random play: the floor every other agent must clear."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from agents.options import legal_choices


class RandomAgent:
    """Picks uniformly among the legal actions."""

    name = "random"

    def __init__(self) -> None:
        self._rng = random.Random(0)

    def reset(self, seat: int, seed: int) -> None:
        self._rng = random.Random(seed)

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        legal_choices(legal_actions)
        return legal_actions[self._rng.randrange(len(legal_actions))]
