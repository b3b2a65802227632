"""One-step look-ahead scored by combat odds against guessed boards.

For each legal action the agent works out the state it leads to (on its own
estimate of the pool) and scores the warband that state would field at the
end of the turn: its board plus the best minions in hand, fought against
guessed opponent boards through ``combat_c.simulate``. It takes the best
action; among equally good ones it prefers playing, buying and choosing, then
upgrading, then refreshing, and ends the turn when nothing helps.

Moves are not searched (positions come from where minions are played: left
or right end), which keeps a decision to a few dozen simulations.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from agents.belief import estimate_pool, guess_boards
from bgsim import tavern
from bgsim.actions import Buy, Choose, EndTurn, Freeze, Move, Play, Refresh, Sell, Upgrade
from bgsim.minions import MinionCard
from bgsim.observation import Observation
from bgsim.player_state import PlayerState
from bgsim.ruleset import load_ruleset
from combat_c import Board, simulate

# Tie-break order among actions whose boards score the same. Selling only when
# it strictly helps (below EndTurn); Freeze is not searched (it only toggles).
PRIORITY = {Play: 6, Buy: 5, Choose: 5, Upgrade: 4, Refresh: 2, EndTurn: 0, Sell: -1}
EPSILON = 1e-9


def fielded(state: PlayerState) -> Board:
    """The warband this state would field: the board plus the strongest minions
    in hand while there is room (simple stats order)."""
    board = list(state.board)
    hand = sorted(
        (c for c in state.hand if isinstance(c, MinionCard)),
        key=lambda m: m.attack + m.health,
        reverse=True,
    )
    for m in hand:
        if len(board) >= 7:
            break
        board.append(m)
    return Board(state.tier, max(state.health, 1), tuple(m.combat() for m in board))


class GreedyAgent:
    name = "greedy"
    OPTIONS = ("runs", "guesses")

    def __init__(self, runs: int = 24, guesses: int = 3) -> None:
        if runs < 1 or guesses < 1:
            raise ValueError("runs and guesses must be positive")
        self.runs = runs
        self.guesses = guesses
        self.rules = load_ruleset()
        self._rng = random.Random(0)
        self._turn = -1
        self._opponents: list[Board] = []
        self._cache: dict[tuple, float] = {}

    def reset(self, seat: int, seed: int) -> None:
        self._rng = random.Random(seed)
        self._turn = -1

    def _plan_turn(self, obs: Observation) -> None:
        self._turn = obs.turn
        self._opponents = []
        for _ in range(self.guesses):
            boards = guess_boards(obs, self._rng, self.rules)
            if boards:
                self._opponents.append(self._rng.choice(sorted(boards.items()))[1])
        self._cache = {}
        self._seed = self._rng.getrandbits(32)

    def score(self, board: Board) -> float:
        """Mean over the guessed opponents of P(win) - P(loss), plus a little
        for the damage swing (so stronger wins still count)."""
        if not self._opponents:
            return sum(m.attack + m.health for m in board.minions) / 100.0
        key = (board.tier, board.minions)
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        total = 0.0
        for i, opp in enumerate(self._opponents):
            odds = simulate(board, opp, self.runs, self._seed + i)
            total += odds.win - odds.loss + (odds.mean_damage_dealt - odds.mean_damage_taken) / 40
        value = total / len(self._opponents)
        self._cache[key] = value
        return value

    def act(self, observation: Observation, legal_actions: Sequence) -> object:
        if observation.turn != self._turn:
            self._plan_turn(observation)
        state = observation.state
        pool = estimate_pool(observation, self.rules)
        best, best_key = None, None
        for action in legal_actions:
            if isinstance(action, Move | Freeze):
                continue
            if isinstance(action, Play) and action.pos not in (None, 0, len(state.board)):
                continue
            if isinstance(action, EndTurn):
                after = state
            else:
                rng = random.Random(self._seed)
                after = tavern.apply_action(state, action, pool.clone(), rng, self.rules)
            key = (self.score(fielded(after)), PRIORITY.get(type(action), 0))
            if (
                best_key is None
                or key[0] > best_key[0] + EPSILON
                or (abs(key[0] - best_key[0]) <= EPSILON and key[1] > best_key[1])
            ):
                best, best_key = action, key
        return best if best is not None else legal_actions[0]
