"""One-step look-ahead scored by combat odds against guessed boards.

For each legal action the agent works out the state it leads to (on its own
estimate of the pool) and scores the warband that state would field at the
end of the turn: its board plus the best minions in hand, fought against
guessed opponent boards through ``combat_c.simulate``. It takes the best
action; among equally good ones it prefers playing, buying and choosing, then
upgrading, then refreshing, and ends the turn when nothing helps.

Moves are not searched (positions come from where minions are played: left
or right end), which keeps a decision to a few dozen simulations.

With heroes it drafts by the rule of :mod:`agents.hero_policy` (a draw that
favours the best rated hero offered) and weighs its hero power like any
action, aimed at every valid target, but only when that power's policy allows
a use now (its conditions: gold, turn, Health, the minions it needs). An
effect the look-ahead
cannot see (gold, cards in hand, what happens in combat) ties with the board
it leaves, and the tie-break puts the power after playing, buying, choosing
and upgrading but before refreshing and ending the turn: the gold left after
the buys is what it spends, as the policies' "after buys" kind says.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from agents.belief import guess_boards, load_development
from agents.hero_policy import KNOWLEDGE as HEROES
from agents.hero_policy import PASSIVE, power_ready
from agents.options import act_arguments, file_path, integer
from bgsim import (
    Action,
    Buy,
    Choose,
    ChooseHero,
    EndTurn,
    Freeze,
    HeroPower,
    MinionCard,
    Move,
    Observation,
    Play,
    Refresh,
    Sell,
    TurnModel,
    Upgrade,
)
from combat_c import Board, simulate

# Tie-break order among actions whose boards score the same. Selling only when
# it strictly helps (below EndTurn); Freeze is not searched (it only toggles).
PRIORITY = {
    Play: 6,
    Buy: 5,
    Choose: 5,
    Upgrade: 4,
    HeroPower: 3,
    Refresh: 2,
    EndTurn: 0,
    Sell: -1,
}
EPSILON = 1e-9
# Bounds of the options: fights per guessed board and guessed boards per turn.
MAX_RUNS = 10_000
MAX_GUESSES = 100


def fielded(model: TurnModel) -> Board:
    """The warband the model's state would field: the board plus the strongest
    minions in hand while there is room (simple stats order)."""
    state = model.state
    board = list(state.board)
    hand = sorted(
        (c for c in state.hand if isinstance(c, MinionCard)),
        key=lambda m: m.attack + m.health,
        reverse=True,
    )
    room = model.rules.limits.board_size
    for m in hand:
        if len(board) >= room:
            break
        board.append(m)
    return model.warband(board)


class GreedyAgent:
    name = "greedy"
    OPTIONS = ("runs", "guesses", "belief")

    def __init__(self, runs: object = 24, guesses: object = 3, belief: object = None) -> None:
        self.runs = integer("runs", runs, 1, MAX_RUNS)
        self.guesses = integer("guesses", guesses, 1, MAX_GUESSES)
        # belief=PATH: guess boards by a table of `bgsim belief --fit --out PATH`.
        self._dev = None if belief is None else load_development(file_path("belief", belief))
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
            boards = guess_boards(obs, self._rng, self._dev)
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

    def act(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        act_arguments(observation, legal_actions)
        offers = observation.state.hero_offers
        if offers:
            return ChooseHero(HEROES.draft(offers, self._rng))
        if observation.turn != self._turn:
            self._plan_turn(observation)
        now = TurnModel.from_observation(observation, rng=random.Random(self._seed))
        end = len(now.state.board)
        power_ok = self._power_allowed(observation)
        best, best_key = None, None
        for action in legal_actions:
            if isinstance(action, Move | Freeze):
                continue
            if isinstance(action, HeroPower) and not power_ok:
                continue
            if isinstance(action, Play) and action.pos not in (None, 0, end):
                continue
            after = now
            if not isinstance(action, EndTurn):
                after = now.clone()
                after.apply_action(action)
            key = (self.score(fielded(after)), PRIORITY.get(type(action), 0))
            if (
                best_key is None
                or key[0] > best_key[0] + EPSILON
                or (abs(key[0] - best_key[0]) <= EPSILON and key[1] > best_key[1])
            ):
                best, best_key = action, key
        return best if best is not None else legal_actions[0]

    @staticmethod
    def _power_allowed(obs: Observation) -> bool:
        """Whether the hero power's policy allows a use now."""
        hero = obs.state.hero
        if hero is None:
            return False
        policy = HEROES.policy(hero.power)
        if policy is None or policy.kind == PASSIVE:
            return False
        return power_ready(policy, obs.state, obs.turn)
