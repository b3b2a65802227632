"""A hand-written agent: the one README's "Write your own agent" builds.

Play it against the bundled agents:

    bgsim tournament --agent thrifty=thrifty:Thrifty \\
        --lineup "thrifty:2,heuristic:2,greedy:2,random:2" --games 16 --db thrifty.db

(run from ``examples/``, or put this folder on ``PYTHONPATH``).
"""

import random
from collections.abc import Sequence

import bgsim


class Thrifty:
    """Drafts a random hero, levels on a fixed curve, buys the shop minion
    with the most stats, plays everything it holds, and never spends gold on
    a refresh or its hero power."""

    name = "thrifty"

    def __init__(self, level_from_turn: int = 3) -> None:
        self.level_from_turn = level_from_turn

    def reset(self, seat: int, seed: int) -> None:
        self.rng = random.Random(seed)  # every random choice comes from the seed

    def act(self, obs: bgsim.Observation, legal: Sequence[bgsim.Action]) -> bgsim.Action:
        if obs.hero_offers:  # the draft (turn 0), or a hero power's offer
            return self.rng.choice(legal)  # all ChooseHero: any will do
        if obs.discover:  # a pending Discover: the biggest minion (a spell counts 0)
            return legal[max(range(len(legal)), key=lambda i: _stats(obs.discover[i]))]
        if bgsim.Upgrade() in legal and obs.turn >= self.level_from_turn + 2 * (obs.tier - 1):
            return bgsim.Upgrade()
        plays = [a for a in legal if isinstance(a, bgsim.Play)]
        if plays:
            return self.rng.choice(plays)
        buys = [a for a in legal if isinstance(a, bgsim.Buy)]
        if buys:
            return max(buys, key=lambda a: _stats(obs.shop[a.slot]))
        return bgsim.EndTurn()


def _stats(card: bgsim.MinionCard | bgsim.SpellCard) -> int:
    """Attack plus health; 0 for a spell (a Darkmoon Prize Discover offers spells)."""
    return card.attack + card.health if isinstance(card, bgsim.MinionCard) else 0
