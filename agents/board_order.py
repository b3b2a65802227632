"""The best left-to-right order of a board against a known enemy board
(``bgsim combat A.json B.json --arrange``).

Every order is scored by the same fights: ``runs`` fights with the same seed
against the same enemy (common random numbers), so orders differ by their
order and not by their luck. The score is A's win rate plus half its tie
rate. Boards of up to :data:`EXHAUSTIVE` minions try every distinct order;
larger ones hill-climb from the given order over single relocations (the
search the MCTS agent orders its warband with, :func:`agents.arrange.hill_climb`)
until no move gains. Since the best of many orders scored on the same fights
is flattered by them, the given and the best order are then fought again on
fresh fights (another seed drawn from ``seed``), and the gain reported is
that one. The same boards, runs and seed give the same answer.

>>> from combat_c import parse_board
>>> a = parse_board({"tier": 2, "minions": [{"card": "Murloc Tidehunter"}, {"card": "Kaboom Bot"}]})
>>> b = parse_board({"tier": 2, "minions": [{"card": "Annoy-o-Module"}]})
>>> found = best_order(a, b, runs=200, seed=1)
>>> found.searched_best >= found.searched_given, found.exhaustive, found.tried
(True, True, 2)
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import permutations

from agents.arrange import hill_climb
from bgsim.seeds import derive_seed
from combat_c import Board, Odds, simulate

__all__ = ["EXHAUSTIVE", "Arrangement", "best_order", "reorder"]

EXHAUSTIVE = 5  # boards of up to this many minions try every order (120 at most)
MAX_ROUNDS = 50  # hill-climbing rounds for larger boards (it stops at a local best)


@dataclass(frozen=True)
class Arrangement:
    """What :func:`best_order` found: ``order`` (slots of the given board,
    left to right), the board in that order, the search's scores of the given
    and the best order (win + tie / 2 on the search's fights), the odds of
    both on fresh fights, how many distinct orders were scored and whether
    that was all of them."""

    order: tuple[int, ...]
    board: Board
    searched_given: float
    searched_best: float
    given: Odds
    best: Odds
    tried: int
    exhaustive: bool
    check_seed: int

    @property
    def changed(self) -> bool:
        """Whether the best order differs from the given one."""
        return self.order != tuple(range(len(self.order)))


def reorder(board: Board, order: tuple[int, ...]) -> Board:
    """``board`` with its minions in ``order`` (slots of ``board``), Old
    Murk-Eye's shown figure following it; the hero, its power and the
    Secrets stay as they are.

    >>> from combat_c import parse_board
    >>> b = parse_board({"tier": 1, "minions": [{"card": "Alleycat"}, {"card": "Scallywag"}]})
    >>> [m.name for m in reorder(b, (1, 0)).minions]
    ['Scallywag', 'Alleycat']
    """
    if sorted(order) != list(range(len(board.minions))):
        raise ValueError(f"{order} is not an order of {len(board.minions)} slots")
    where = {old: new for new, old in enumerate(order)}
    return Board(
        board.tier,
        board.health,
        tuple(board.minions[i] for i in order),
        tuple(sorted(where[i] for i in board.shown_murk_eye)),
        board.hero,
        board.hero_power,
        board.hero_power_armed,
        board.secrets,
    )


def _score(odds: Odds) -> float:
    return odds.win + odds.tie / 2


def best_order(a: Board, b: Board, runs: int, seed: int) -> Arrangement:
    """The order of ``a``'s minions that fights ``b`` best (see the module
    doc): ``runs`` fights per order with ``seed``, then the given and the
    best order on ``runs`` fresh fights."""
    if runs < 1:
        raise ValueError("runs must be at least 1")
    n = len(a.minions)
    scores: dict[tuple, float] = {}  # by the minions in order: equal minions share a score

    def score(order: tuple[int, ...]) -> float:
        key = tuple(a.minions[i] for i in order)
        if key not in scores:
            scores[key] = _score(simulate(reorder(a, order), b, runs, seed))
        return scores[key]

    given = tuple(range(n))
    exhaustive = n <= EXHAUSTIVE
    if exhaustive:
        best = given
        for order in permutations(given):
            if score(order) > score(best):
                best = order
    else:
        best = hill_climb(given, score, rounds=MAX_ROUNDS, margin=0.0)
    check = derive_seed("arrange-check", seed)
    board = reorder(a, best)
    return Arrangement(
        order=best,
        board=board,
        searched_given=score(given),
        searched_best=score(best),
        given=simulate(a, b, runs, check),
        best=simulate(board, b, runs, check),
        tried=len(scores),
        exhaustive=exhaustive,
        check_seed=check,
    )
