"""A fast default policy for finishing a turn inside a search.

It must cost a few microseconds per decision, so it looks only at static card
facts: level on a fixed curve, play what is in hand (right end), buy the best
shop minion by a simple value, sell the weakest when a clearly better minion
waits, take the best Discover option, then end the turn.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from bgsim import MinionCard, PlayerState, Ruleset, SpellCard
from bgsim.actions import (
    ACTIONS,
    BUY_BASE,
    CHOOSE_BASE,
    END_TURN,
    SELL_BASE,
    UPGRADE,
    Action,
    play_code,
)
from bgsim.rules import attach_targets, battlecry_targets, why_illegal

# Turn from which each tier upgrade is taken when affordable (to tiers 2..6).
LEVEL_TURN: Final = {1: 2, 2: 4, 3: 6, 4: 8, 5: 10}
# Worth of each keyword bit: taunt, shield, poison, windfury, mega-windfury, reborn.
_KEYWORD_VALUE: Final = {1: 1.5, 2: 4.0, 4: 3.0, 8: 2.0, 16: 4.0, 32: 2.0}


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


_VALUES: Final[dict[MinionCard, float]] = {}


def _card_value(c: MinionCard | SpellCard) -> float:
    return 100.0 if isinstance(c, SpellCard) else minion_value(c)


def rollout_action(
    state: PlayerState, rules: Ruleset, legal: Sequence[object] | None = None
) -> Action:
    """The default policy's action in ``state``. Given ``legal``, it is one of
    them; without, each candidate is checked on its own (cheaper in a search,
    which never needs the whole list)."""
    if state.discover:
        best = max(range(len(state.discover)), key=lambda i: _card_value(state.discover[i]))
        return ACTIONS[CHOOSE_BASE + best]
    hand = state.hand
    if hand:
        for h in sorted(range(len(hand)), key=lambda h: _card_value(hand[h]), reverse=True):
            play = _right_end_play(state, h, rules)
            if play is not None and _ok(state, play, rules, legal):
                return play
    if state.turn >= LEVEL_TURN.get(state.tier, 99) and _ok(state, UPGRADE, rules, legal):
        return UPGRADE
    shop = state.shop
    if shop:
        buy = ACTIONS[BUY_BASE + max(range(len(shop)), key=lambda j: minion_value(shop[j]))]
        if _ok(state, buy, rules, legal):
            return buy
    board = state.board
    if hand and len(board) >= rules.limits.board_size:
        weakest = min(range(len(board)), key=lambda i: minion_value(board[i]))
        best_hand = max(_card_value(c) for c in hand)
        if best_hand > minion_value(board[weakest]) + 4:
            sell = ACTIONS[SELL_BASE + weakest]
            if _ok(state, sell, rules, legal):
                return sell
    return END_TURN


def _ok(state: PlayerState, action: object, rules: Ruleset, legal: Sequence[object] | None) -> bool:
    # A module function, not a closure: a compiled closure would make a
    # reference cycle per call, which only the collector reclaims.
    if legal is not None:
        return action in legal
    return why_illegal(state, action, rules) is None


def _right_end_play(state: PlayerState, h: int, rules: Ruleset) -> Action | None:
    """How the policy plays hand card ``h``: a spell as it is, a minion at the
    right end with its first Battlecry target, or, with a full warband, a
    Magnetic minion onto the first Mech it can take."""
    card = state.hand[h]
    if isinstance(card, SpellCard):
        return ACTIONS[play_code(h, None, None)]
    end = len(state.board)
    if end < rules.limits.board_size:
        return ACTIONS[play_code(h, end, battlecry_targets(state, card)[0])]
    attach = attach_targets(state, card)
    return ACTIONS[play_code(h, None, attach[0])] if attach else None
