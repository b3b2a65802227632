"""bgsim's C combat engine: fast Battlegrounds fights through cffi.

>>> from combat_c import Board, Minion, simulate
>>> bots = Board(tier=2, health=30, minions=(Minion.of("BOT_606"), Minion.of("BOT_606")))
>>> cats = Board(tier=1, health=30, minions=(Minion.of("CFM_315"), Minion.of("CFM_315t")))
>>> odds = simulate(bots, cats, runs=1000, seed=1)
>>> odds.runs, round(odds.win + odds.tie + odds.loss, 6)
(1000, 1.0)

This package knows nothing of the layers above it (DESIGN.md).
"""

from combat_c._lib import CARD_IDS, CARDS, HERO_POWERS, KEYWORD_BITS, SECRET_NAMES, CardEntry
from combat_c.board import Board, BoardSpecError, Minion, parse_board
from combat_c.combat import (
    MAX_RUNS,
    Aftermath,
    CombatResult,
    Event,
    Odds,
    PermanentBuff,
    resolve,
    simulate,
    tribe_mask,
)

__all__ = [
    "CARDS",
    "CARD_IDS",
    "HERO_POWERS",
    "KEYWORD_BITS",
    "MAX_RUNS",
    "SECRET_NAMES",
    "Aftermath",
    "Board",
    "BoardSpecError",
    "CardEntry",
    "CombatResult",
    "Event",
    "Minion",
    "Odds",
    "PermanentBuff",
    "parse_board",
    "resolve",
    "simulate",
    "tribe_mask",
]
