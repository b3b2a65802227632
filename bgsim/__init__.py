"""bgsim: a Hearthstone Battlegrounds (patch 20.0) simulator and agent lab."""

from bgsim import compiled

compiled.guard()  # before any compiled module loads (see bgsim/compiled.py)

# ruff: noqa: E402
from bgsim.cards import Card, CardDB, UnknownCardError, cards
from bgsim.ruleset import Ruleset, RulesetError, load_ruleset

__version__ = "0.1.0"

__all__ = [
    "Card",
    "CardDB",
    "Ruleset",
    "RulesetError",
    "UnknownCardError",
    "cards",
    "load_ruleset",
]
