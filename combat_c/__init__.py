"""bgsim's C combat engine: fast Battlegrounds fights through cffi.

>>> from combat_c import Board, simulate
>>> odds = simulate(Board.from_spec("data/boards/..."), ..., runs=1000, seed=1)

This package knows nothing of the layers above it (DESIGN.md).
"""

from combat_c._lib import CARD_IDS, CARDS, KEYWORD_BITS, CardEntry
from combat_c.board import Board, BoardSpecError, Minion, parse_board
from combat_c.combat import (
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
    "KEYWORD_BITS",
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
