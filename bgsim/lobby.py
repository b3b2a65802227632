"""An eight-player Battlegrounds lobby: recruit turns, combat rounds, placements.

Every living player recruits (in any order, through :meth:`Lobby.apply`);
when the last one ends the turn, the combat round runs: pairings, one
``combat_c.resolve`` per pair with a seed drawn from the lobby's generator,
damage, eliminations and the effects that outlive each fight. Then the next
turn starts for everyone alive. Every random choice flows from the lobby
seed: the lobby's own generator draws the minion types, a seat order for
placement ties, the pairings and the combat seeds, and seeds one generator
per player for that player's shops and card effects.

Placements: the last player standing is 1st; players knocked out in the same
round are ordered by remaining health (higher is better), then by the seat
order. The ghost of a round's knockouts (for odd player counts) is the
best-placed of them, fighting with the warband they last fought with. A lobby
still running after ``lobby.max_turns`` turns (a safety bound) ranks the
living by health, then seat.

The event log (:attr:`Lobby.log`) is a list of plain dicts, by ``type``:

- ``turn``: ``{"turn"}`` a recruit turn starts.
- ``action``: ``{"turn", "player", "action": code, "text": "Buy(2)"}``.
- ``pairing``: ``{"turn", "pairs": [[a, b], ...], "ghost": id or None}``.
- ``combat``: ``{"turn", "players": [a, b], "ghost": bool (b is the ghost),
  "seed", "boards": [spec_a, spec_b], "winner": 0/1/-1 (index into players),
  "damage", "aftermath": [{"won", "permanent": [[slot, atk, hp]], "hand"}] * 2,
  "events": [Event.as_dict(), ...]}``.
- ``damage``: ``{"turn", "player", "amount", "health"}``.
- ``elimination``: ``{"turn", "player", "placement"}``.
- ``end``: ``{"turn", "placements": [[player, placement], ...]}``.
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import numpy as np

from bgsim import tavern
from bgsim.actions import ACTIONS, Action, EndTurn, IllegalActionError, decode
from bgsim.cards import TRIBES
from bgsim.observation import Observation, PlayerInfo, SeenBoard
from bgsim.pairing import pair_players
from bgsim.player_state import PlayerState, new_player_state
from bgsim.pool import Pool
from bgsim.ruleset import Ruleset, load_ruleset
from combat_c import Board, CombatResult, resolve, tribe_mask


@cache
def _default_rules() -> Ruleset:
    return load_ruleset()


def _copy_rng(rng: random.Random) -> random.Random:
    other = random.Random.__new__(random.Random)
    other.setstate(rng.getstate())
    return other


class Lobby:
    """A whole game; see the module doc."""

    def __init__(self, seed: int, ruleset: Ruleset | None = None) -> None:
        rules = ruleset if ruleset is not None else _default_rules()
        self.rules = rules
        self.seed = seed
        rng = random.Random(seed)
        n = rules.lobby.players
        self.tribes: tuple[str, ...] = tuple(
            sorted(rng.sample(TRIBES, rules.lobby.tribes_per_lobby), key=TRIBES.index)
        )
        self._mask = tribe_mask(self.tribes)
        self._seat_rank: tuple[int, ...] = tuple(rng.sample(range(n), n))
        self._rngs = [random.Random(rng.getrandbits(64)) for _ in range(n)]
        self._rng = rng
        self.pool = Pool.for_lobby(self.tribes, rules)
        self._states = [new_player_state(p, rules) for p in range(n)]
        self._alive = [True] * n
        self.placements: dict[int, int] = {}
        self._last_opponent: dict[int, int | None] = dict.fromkeys(range(n))
        self._seen: list[tuple[SeenBoard | None, ...]] = [(None,) * n for _ in range(n)]
        self._ghost: tuple[int, Board] | None = None
        self._log: list[tuple] = []
        self._public: tuple[PlayerInfo, ...] | None = None
        self.turn = 0
        self.done = False
        self._start_turn()

    # ------------------------------------------------------------ queries

    @property
    def players(self) -> int:
        return len(self._states)

    def alive(self, player: int) -> bool:
        self._check_player(player)
        return self._alive[player]

    def state(self, player: int) -> PlayerState:
        """A player's full recruit state (agents should use :meth:`observe`)."""
        self._check_player(player)
        return self._states[player]

    def to_act(self) -> list[int]:
        """Living players who have not ended this turn."""
        if self.done:
            return []
        return [p for p, s in enumerate(self._states) if self._alive[p] and not s.ended]

    def legal_actions(self, player: int) -> list[Action]:
        """Every action ``player`` may take now (empty if they may take none)."""
        self._check_player(player)
        if self.done or not self._alive[player]:
            return []
        return tavern.legal_actions(self._states[player], self.rules)

    def action_mask(self, player: int) -> np.ndarray:
        """Boolean array over all action codes; True exactly for :meth:`legal_actions`."""
        self._check_player(player)
        if self.done or not self._alive[player]:
            return np.zeros(len(ACTIONS), dtype=bool)
        return tavern.action_mask(self._states[player], self.rules)

    def public_players(self) -> tuple[PlayerInfo, ...]:
        """Every player's health, tier, alive flag and placement (public facts)."""
        if self._public is None:
            self._public = tuple(
                PlayerInfo(p, s.health, s.tier, self._alive[p], self.placements.get(p))
                for p, s in enumerate(self._states)
            )
        return self._public

    def observe(self, player: int) -> Observation:
        """What ``player`` may know now (references, no copies)."""
        self._check_player(player)
        return Observation(
            player,
            self.turn,
            self._states[player],
            self.public_players(),
            self._seen[player],
            self.tribes,
            self._last_opponent[player],
        )

    @property
    def log(self) -> list[dict[str, Any]]:
        """Every action and combat record so far, as plain data."""
        return [_record(entry) for entry in self._log]

    # ------------------------------------------------------------ acting

    def apply(self, player: int, action: Action | int) -> None:
        """Take ``action`` (an action or its integer code) for ``player``; raises
        :class:`IllegalActionError` (changing nothing) if the player may not take
        it now."""
        if type(action) is int:
            action = decode(action)
        if self.done:
            raise IllegalActionError(f"{action!r}: the game is over")
        self._check_player(player)
        if not self._alive[player]:
            raise IllegalActionError(f"{action!r}: player {player} is out of the game")
        before = self._states[player]
        after = tavern.apply_action(before, action, self.pool, self._rngs[player], self.rules)
        self._states[player] = after
        self._log.append(("action", self.turn, player, action.code))
        if after.tier != before.tier or after.health != before.health:
            self._public = None
        if type(action) is EndTurn and not self.to_act():
            self._combat_round()

    def clone(self) -> Lobby:
        """An independent copy (same future given the same actions)."""
        other = Lobby.__new__(Lobby)
        other.__dict__.update(self.__dict__)
        other._rng = _copy_rng(self._rng)
        other._rngs = [_copy_rng(r) for r in self._rngs]
        other.pool = self.pool.clone()
        other._states = list(self._states)
        other._alive = list(self._alive)
        other.placements = dict(self.placements)
        other._last_opponent = dict(self._last_opponent)
        other._seen = list(self._seen)
        other._log = list(self._log)
        return other

    def _check_player(self, player: int) -> None:
        if isinstance(player, bool) or not isinstance(player, int):
            raise IllegalActionError(f"player must be an integer, got {player!r}")
        if not 0 <= player < len(self._states):
            raise IllegalActionError(f"no player {player} (players are 0..{self.players - 1})")

    # ------------------------------------------------------------ rounds

    def _start_turn(self) -> None:
        self.turn += 1
        self._log.append(("turn", self.turn))
        for p, s in enumerate(self._states):
            if self._alive[p]:
                self._states[p] = tavern.start_turn(
                    s, self.turn, self.pool, self._rngs[p], self.rules
                )
        self._public = None

    def _board(self, player: int) -> Board:
        s = self._states[player]
        return Board(s.tier, s.health, tuple(m.combat() for m in s.board))

    def _combat_round(self) -> None:
        rules = self.rules
        alive = [p for p in range(self.players) if self._alive[p]]
        ghost = self._ghost[0] if self._ghost else None
        pairs = pair_players(alive, self._last_opponent, ghost, self._rng)
        self._log.append(("pairing", self.turn, pairs, ghost))
        boards = {p: self._board(p) for p in alive}
        if self._ghost is not None:
            boards[self._ghost[0]] = self._ghost[1]
        for a, b in pairs:
            seed = self._rng.getrandbits(63)
            result = resolve(boards[a], boards[b], seed, self._mask)
            self._log.append(
                ("combat", self.turn, a, b, b == ghost, seed, boards[a], boards[b], result)
            )
            for side, me, opp in ((0, a, b), (1, b, a)):
                if me == ghost:
                    continue
                damage = result.damage if result.winner == 1 - side else 0
                aftermath = result.aftermath[side]
                self._states[me] = tavern.after_combat(
                    self._states[me],
                    damage,
                    aftermath.won,
                    tuple((x.index, x.attack, x.health) for x in aftermath.permanent),
                    aftermath.hand,
                    tuple(m.card_id for m in boards[opp].minions),
                    self.pool,
                    rules,
                )
                self._last_opponent[me] = opp
                seen = list(self._seen[me])
                seen[opp] = SeenBoard(self.turn, boards[opp])
                self._seen[me] = tuple(seen)
                if damage:
                    health = self._states[me].health
                    self._log.append(("damage", self.turn, me, damage, health))
        self._eliminate(alive, boards)
        self._public = None
        if self.done:
            return
        if self.turn >= rules.lobby.max_turns:
            self._finish([p for p in range(self.players) if self._alive[p]])
            return
        self._start_turn()

    def _eliminate(self, alive: list[int], boards: dict[int, Board]) -> None:
        dead = [p for p in alive if self._states[p].health <= 0]
        if not dead:
            return
        dead.sort(key=lambda p: (-self._states[p].health, self._seat_rank[p]))
        left = len(alive) - len(dead)
        for k, p in enumerate(dead):
            self.placements[p] = left + 1 + k
            self._alive[p] = False
            tavern.release(self._states[p], self.pool)
            self._log.append(("elimination", self.turn, p, left + 1 + k))
        self._ghost = (dead[0], boards[dead[0]])
        if left <= 1:
            self._finish([p for p in alive if self._alive[p]])

    def _finish(self, standing: list[int]) -> None:
        """End the game; the players still standing are ranked by health, then seat."""
        standing.sort(key=lambda p: (-self._states[p].health, self._seat_rank[p]))
        for k, p in enumerate(standing):
            self.placements[p] = k + 1
        self.done = True
        self._public = None
        self._log.append(("end", self.turn, tuple(sorted(self.placements.items()))))


def _record(entry: tuple) -> dict[str, Any]:
    kind = entry[0]
    if kind == "action":
        _, turn, player, code = entry
        return {
            "type": "action",
            "turn": turn,
            "player": player,
            "action": code,
            "text": repr(ACTIONS[code]),
        }
    if kind == "turn":
        return {"type": "turn", "turn": entry[1]}
    if kind == "pairing":
        _, turn, pairs, ghost = entry
        return {"type": "pairing", "turn": turn, "pairs": [list(p) for p in pairs], "ghost": ghost}
    if kind == "combat":
        _, turn, a, b, is_ghost, seed, board_a, board_b, result = entry
        return _combat_record(turn, a, b, is_ghost, seed, board_a, board_b, result)
    if kind == "damage":
        _, turn, player, amount, health = entry
        return {
            "type": "damage",
            "turn": turn,
            "player": player,
            "amount": amount,
            "health": health,
        }
    if kind == "elimination":
        _, turn, player, placement = entry
        return {"type": "elimination", "turn": turn, "player": player, "placement": placement}
    _, turn, placements = entry
    return {"type": "end", "turn": turn, "placements": [list(p) for p in placements]}


def _combat_record(
    turn: int,
    a: int,
    b: int,
    is_ghost: bool,
    seed: int,
    board_a: Board,
    board_b: Board,
    result: CombatResult,
) -> dict[str, Any]:
    return {
        "type": "combat",
        "turn": turn,
        "players": [a, b],
        "ghost": is_ghost,
        "seed": seed,
        "boards": [board_a.to_spec(), board_b.to_spec()],
        "winner": result.winner,  # 0: players[0] won, 1: players[1] won, -1: a tie
        "damage": result.damage,
        "aftermath": [
            {
                "won": side.won,
                "permanent": [[x.index, x.attack, x.health] for x in side.permanent],
                "hand": list(side.hand),
            }
            for side in result.aftermath
        ],
        "events": [e.as_dict() for e in result.events],
    }
