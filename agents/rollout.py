"""A fast default policy for finishing a turn inside a search.

It must cost a few microseconds per decision, so it looks only at static card
facts: level on a fixed curve, play what is in hand (right end), buy the best
shop minion by a simple value, sell the weakest when a clearly better minion
waits, take the best Discover option, then end the turn.
"""

from __future__ import annotations

from collections.abc import Sequence

from bgsim.actions import (
    ACTIONS,
    BUY_BASE,
    END_TURN,
    SELL_BASE,
    UPGRADE,
    Buy,
    Choose,
    Play,
    Upgrade,
)
from bgsim.minions import MinionCard, SpellCard
from bgsim.player_state import PlayerState

# Turn from which each tier upgrade is taken when affordable (to tiers 2..6).
LEVEL_TURN = {1: 2, 2: 4, 3: 6, 4: 8, 5: 10}
_KEYWORD_VALUE = {1: 1.5, 2: 4.0, 4: 3.0, 8: 2.0, 16: 4.0, 32: 2.0}  # taunt, shield, poison, ...


def minion_value(m: MinionCard) -> float:
    """Static worth of a minion: stats, tier (as a stand-in for its text) and keywords."""
    value = _VALUES.get(m)
    if value is None:
        value = m.attack + m.health + 3.0 * m.tier * (2 if m.golden else 1)
        kw = m.keywords
        for bit, v in _KEYWORD_VALUE.items():
            if kw & bit:
                value += v
        if len(_VALUES) >= 50_000:
            _VALUES.clear()
        _VALUES[m] = value
    return value


_VALUES: dict[MinionCard, float] = {}


def _card_value(c: MinionCard | SpellCard) -> float:
    return 100.0 if isinstance(c, SpellCard) else minion_value(c)


def rollout_action(state: PlayerState, legal: Sequence[object]) -> object:
    """The default policy's action in ``state`` (one of ``legal``)."""
    if state.discover:
        best = max(range(len(state.discover)), key=lambda i: minion_value(state.discover[i]))
        return next(a for a in legal if isinstance(a, Choose) and a.option == best)
    plays = []
    upgrade = buys = False
    for a in legal:
        kind = type(a)
        if kind is Play:
            plays.append(a)
        elif kind is Buy:
            buys = True
        elif kind is Upgrade:
            upgrade = True
    if plays:
        order = sorted(
            range(len(state.hand)), key=lambda h: _card_value(state.hand[h]), reverse=True
        )
        end = len(state.board)
        for h in order:
            mine = [a for a in plays if a.hand == h]
            if mine:
                right = [a for a in mine if a.pos in (None, end)]
                return (right or mine)[0]
    if upgrade and state.turn >= LEVEL_TURN.get(state.tier, 99):
        return UPGRADE
    if buys:
        shop = state.shop
        return ACTIONS[BUY_BASE + max(range(len(shop)), key=lambda j: minion_value(shop[j]))]
    if len(state.board) >= 7 and state.hand:
        weakest = min(range(len(state.board)), key=lambda i: minion_value(state.board[i]))
        best_hand = max((_card_value(c) for c in state.hand), default=0.0)
        if best_hand > minion_value(state.board[weakest]) + 4:
            sell = ACTIONS[SELL_BASE + weakest]
            if sell in legal:
                return sell
    return END_TURN
