"""An eight-player Battlegrounds lobby: recruit turns, combat rounds, placements.

Every living player recruits (in any order, through :meth:`Lobby.apply`);
when the last one ends the turn, the combat round runs: pairings, one
``combat_c.resolve`` per pair with a seed drawn from the lobby's generator,
damage, eliminations and the effects that outlive each fight. Then the next
turn starts for everyone alive. Every random choice flows from the lobby
seed: the lobby's own generator draws the minion types, a seat order for
placement ties, the pairings and the combat seeds, and seeds one generator
per player for that player's shops and card effects.

A round's pairings are drawn as its recruit turn starts (in the same order
of the lobby's draws as at the combat round), so that every player sees
their next opponent (:attr:`Observation.next_opponent`, as the game's
scoreboard shows it) and hero powers can act on them (Lord Barov's wager).
With heroes, each warband fights with its hero's fields (the power,
whether it fires in this combat, the Secrets in play); after the round's
fights the hero powers learn who won and, from each fight's result, how many
enemy minions died and which Secrets were revealed. A ghost fights without a
hero, and the boards players see of each other keep the hero but not the
Secrets (hidden) nor the armed flag.

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
  "events": [Event.as_dict(), ...]}``; when a board has a hero, each
  aftermath also holds ``"kills"``, ``"first_kill"`` and ``"secrets_used"``.
- ``damage``: ``{"turn", "player", "amount", "health"}``.
- ``elimination``: ``{"turn", "player", "placement"}``.
- ``end``: ``{"turn", "placements": [[player, placement], ...]}``.
"""

from __future__ import annotations

import operator
import random
from functools import cache
from typing import Any, SupportsIndex, cast

import numpy as np

from bgsim._core import tavern
from bgsim._core.player_state import PlayerState, new_player_state
from bgsim._core.pool import Pool
from bgsim._core.turn_model import LastSeen, TurnModel
from bgsim.actions import ACTIONS, Action, EndTurn, IllegalActionError, as_action
from bgsim.cards import TRIBES
from bgsim.heroes import hero_pool
from bgsim.observation import Observation, PlayerInfo, SeenBoard
from bgsim.pairing import pair_players
from bgsim.ruleset import Ruleset, load_ruleset
from combat_c import Aftermath, Board, CombatResult, resolve, tribe_mask
from combat_c.guarded import shown


@cache
def _default_rules() -> Ruleset:
    return load_ruleset()


def _copy_rng(rng: random.Random) -> random.Random:
    other = random.Random.__new__(random.Random)
    other.setstate(rng.getstate())
    return other


class Lobby:
    """A whole eight-player game (see the module doc for its rules).

    Players act through :meth:`apply`; the last ``EndTurn`` of a turn runs the
    combat round and starts the next turn. Every random choice flows from
    ``seed``: the same seed and the same actions give the same game.
    ``ruleset`` defaults to the shipped one (``load_ruleset()``). With
    ``heroes=True`` every player first chooses a hero (``ChooseHero``) from
    the ones the draft offers them (turn 0); without, the game is played
    without heroes.

    >>> from bgsim import Lobby
    >>> lobby = Lobby(seed=7)
    >>> lobby.turn, lobby.to_act()
    (1, [0, 1, 2, 3, 4, 5, 6, 7])
    >>> while not lobby.done:
    ...     player = lobby.to_act()[0]
    ...     lobby.apply(player, lobby.legal_actions(player)[-1])
    >>> sorted(lobby.placements.values())
    [1, 2, 3, 4, 5, 6, 7, 8]
    """

    def __init__(self, seed: int, ruleset: Ruleset | None = None, heroes: bool = False) -> None:
        rules = ruleset if ruleset is not None else _default_rules()
        if not isinstance(rules, Ruleset):
            raise TypeError(f"ruleset must be a Ruleset, not {type(rules).__name__}")
        rules.check()
        if isinstance(seed, bool) or not isinstance(seed, int | np.integer):
            raise TypeError(f"seed must be an integer, not {type(seed).__name__} {shown(seed)}")
        seed = int(seed)
        if not 0 <= seed < 2**64:  # Random(-n) would play the game of Random(n)
            raise ValueError(f"seed must be 0..2**64-1, not {shown(seed)}")
        if not isinstance(heroes, bool | np.bool_):
            raise TypeError(f"heroes must be True or False, not {shown(heroes)}")
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
        self._pool = Pool.for_lobby(self.tribes, rules)
        self._states = [new_player_state(p, rules) for p in range(n)]
        self._alive = [True] * n
        self.placements: dict[int, int] = {}
        self._last_opponent: dict[int, int | None] = dict.fromkeys(range(n))
        self._seen: list[tuple[SeenBoard | None, ...]] = [(None,) * n for _ in range(n)]
        self._ghost: tuple[int, Board] | None = None
        self._pairs: tuple[tuple[int, int], ...] | None = None  # drawn as the turn starts
        self._next: dict[int, int] = {}  # the same, by player (replaced, never changed)
        self._log: list[tuple] = []
        self._public: tuple[PlayerInfo, ...] | None = None
        # The environments' observation encoder (bgsim.envs.encoding) reads
        # _states, _seen, _last_opponent and _public directly, as observe()
        # does, without building an Observation on every step.
        self.turn = 0
        self.done = False
        self.heroes = bool(heroes)
        if self.heroes:
            self._draft()
        else:
            self._start_turn()

    # ------------------------------------------------------------ queries

    @property
    def players(self) -> int:
        """How many seats the lobby has.

        >>> Lobby(seed=1).players
        8
        """
        return len(self._states)

    def alive(self, player: int) -> bool:
        """Whether ``player`` is still in the game.

        >>> Lobby(seed=1).alive(0)
        True
        """
        return self._alive[self._seat(player)]

    def state(self, player: int) -> PlayerState:
        """A player's full recruit state. Agents must not read it (they get
        :meth:`observe`); it is for tools, tests and cheating baselines.

        >>> Lobby(seed=1).state(0).gold
        3
        """
        return self._states[self._seat(player)]

    def to_act(self) -> list[int]:
        """Living players who have not ended this turn, in seat order.

        >>> Lobby(seed=1).to_act()[:3]
        [0, 1, 2]
        """
        if self.done:
            return []
        return [p for p, s in enumerate(self._states) if self._alive[p] and not s.ended]

    def legal_actions(self, player: int) -> list[Action]:
        """Every action ``player`` may take now, ``EndTurn`` first (in the
        heroes' draft, turn 0, only one ``ChooseHero`` per offer; empty if
        they may take none).

        >>> Lobby(seed=1).legal_actions(0)[:3]
        [EndTurn(), Buy(0), Buy(1)]
        """
        player = self._seat(player)
        if self.done or not self._alive[player]:
            return []
        return tavern.legal_actions(self._states[player], self.rules)

    def action_mask(self, player: int) -> np.ndarray:
        """Boolean array over all action codes; True exactly for
        :meth:`legal_actions`.

        >>> mask = Lobby(seed=1).action_mask(0)
        >>> mask.shape, int(mask.sum())
        ((730,), 6)
        """
        player = self._seat(player)
        if self.done or not self._alive[player]:
            return np.zeros(len(ACTIONS), dtype=bool)
        return tavern.action_mask(self._states[player], self.rules)

    def public_players(self) -> tuple[PlayerInfo, ...]:
        """Every player's health, tier, alive flag and placement (public facts).

        >>> Lobby(seed=1).public_players()[0].health
        40
        """
        if self._public is None:
            self._public = tuple(self._info(p) for p in range(len(self._states)))
        return self._public

    def _info(self, p: int) -> PlayerInfo:
        s = self._states[p]
        if self.turn == 0:
            # The heroes' draft: as in the game, nobody sees another's pick
            # (nor the health it brings) until every player has chosen.
            return PlayerInfo(p, self.rules.lobby.hero_health, s.tier, self._alive[p], None)
        hero = s.hero
        return PlayerInfo(
            p,
            s.health,
            s.tier,
            self._alive[p],
            self.placements.get(p),
            hero.hero if hero else None,
            hero.power if hero else None,
            tavern.visible_counter(s),
        )

    def observe(self, player: int) -> Observation:
        """What ``player`` may know now (references to immutable values, no
        copies): what an agent decides from.

        >>> obs = Lobby(seed=1).observe(2)
        >>> obs.player, obs.turn, obs.gold
        (2, 1, 3)
        """
        player = self._seat(player)
        return Observation(
            player,
            self.turn,
            self._states[player],
            self.public_players(),
            self._seen[player],
            self.tribes,
            self._last_opponent[player],
            self.rules,
            self._next_opponent(player),
        )

    def _next_opponent(self, player: int) -> int | None:
        """Who ``player`` fights this round, once the turn's pairings are
        drawn (None in the heroes' draft)."""
        return self._next.get(player)

    def turn_model(self, player: int) -> TurnModel:
        """A forward model of ``player``'s turn with nothing guessed: the true
        pool and a copy of the player's own generator, so it plays out as the
        lobby would (enemy warbands are guessed as last seen). For tools and
        tests; agents build theirs with ``TurnModel.from_observation``.

        >>> lobby = Lobby(seed=1)
        >>> model = lobby.turn_model(0)
        >>> action = lobby.legal_actions(0)[1]
        >>> model.apply_action(action)
        >>> lobby.apply(0, action)
        >>> model.state == lobby.state(0)
        True
        """
        player = self._seat(player)
        guess = LastSeen(self.observe(player))
        rng = _copy_rng(self._rngs[player])
        return TurnModel(self._states[player], self._pool.clone(), rng, self.rules, guess)

    def true_warbands(self, player: int) -> dict[int, tuple[Board, int]]:
        """Every other living player's warband as it stands now, with the turn
        whose recruit phase it reflects (this turn once they have ended it,
        else the last one). Hidden information: only for the cheating baseline
        that measures what guessing costs (``mcts[cheat]``).

        >>> sorted(Lobby(seed=1).true_warbands(0))[:3]
        [1, 2, 3]
        """
        player = self._seat(player)
        acting = set(self.to_act())
        return {
            p: (state.warband(), self.turn - 1 if p in acting else self.turn)
            for p, state in enumerate(self._states)
            if p != player and self._alive[p]
        }

    @property
    def log(self) -> list[dict[str, Any]]:
        """Every action and combat record so far, as plain data (see the
        module doc for the record types).

        >>> Lobby(seed=1).log
        [{'type': 'turn', 'turn': 1}]
        """
        return [_record(entry) for entry in self._log]

    # ------------------------------------------------------------ acting

    def apply(self, player: int, action: Action | int) -> None:
        """Take ``action`` (an action or its integer code, numpy integers
        included) for ``player``. An action the player may not take now
        raises :class:`IllegalActionError` and changes nothing.

        >>> from bgsim import Buy, IllegalActionError
        >>> lobby = Lobby(seed=1)
        >>> lobby.apply(0, Buy(0))
        >>> lobby.state(0).gold
        0
        >>> try:
        ...     lobby.apply(0, Buy(0))
        ... except IllegalActionError as error:
        ...     print(error)
        Buy(0): buying costs 3 gold, you have 0
        """
        action = as_action(action)
        if self.done:
            raise IllegalActionError(f"{action!r}: the game is over")
        player = self._seat(player)
        if not self._alive[player]:
            raise IllegalActionError(f"{action!r}: player {player} is out of the game")
        before = self._states[player]
        after = tavern.apply_action(before, action, self._pool, self._rngs[player], self.rules)
        self._states[player] = after
        self._log.append(("action", self.turn, player, action.code))
        public = self._public
        if public is not None and (
            after.tier != before.tier
            or after.health != before.health
            or after.hero is not before.hero  # a hero chosen, a power used, a counter moved
        ):
            info = self._info(player)
            if info != public[player]:
                self._public = (*public[:player], info, *public[player + 1 :])
        if type(action) is EndTurn:
            if not self.to_act():
                self._hand_out_gifts()
                self._combat_round()
        elif self.turn == 0 and not self.to_act():
            self._start_turn()

    def clone(self) -> Lobby:
        """An independent copy: the same actions give both the same future.

        >>> lobby = Lobby(seed=1)
        >>> other = lobby.clone()
        >>> lobby.apply(0, lobby.legal_actions(0)[1])
        >>> other.state(0).gold
        3
        """
        other = Lobby.__new__(Lobby)
        other.__dict__.update(self.__dict__)
        other._rng = _copy_rng(self._rng)
        other._rngs = [_copy_rng(r) for r in self._rngs]
        other._pool = self._pool.clone()
        other._states = list(self._states)
        other._alive = list(self._alive)
        other.placements = dict(self.placements)
        other._last_opponent = dict(self._last_opponent)
        other._seen = list(self._seen)
        other._log = list(self._log)
        return other

    def __copy__(self) -> Lobby:
        # A shallow copy would share the pool, generators and player lists.
        return self.clone()

    def _seat(self, player: object) -> int:
        """``player`` as a seat index (numpy integers too), or IllegalActionError."""
        seat = player if type(player) is int else _index(player)
        if seat is None:
            raise IllegalActionError(f"player must be an integer, got {shown(player)}")
        if 0 <= seat < len(self._states):
            return seat
        raise IllegalActionError(f"no player {shown(seat)} (players are 0..{self.players - 1})")

    # ------------------------------------------------------------ rounds

    def _draft(self) -> None:
        """Offer every player ``lobby.heroes_offered`` heroes, no hero to two
        players, drawn from the heroes this lobby's minion types allow."""
        pool = list(hero_pool(self.tribes))
        offered = self.rules.lobby.heroes_offered
        picks = self._rng.sample(pool, offered * self.players)
        for p in range(self.players):
            offers = tuple(picks[p * offered : (p + 1) * offered])
            self._states[p] = tavern.offer_heroes(self._states[p], offers)
            self._log.append(("draft", p, offers))

    def _hand_out_gifts(self) -> None:
        """What the players' hero powers give every other living player at the
        end of the turn (King Mukla's Bananas): once every player has ended it,
        since the recruit phase ends for all at once, so no one plays a gift in
        the turn it was given."""
        for player, giver in enumerate(self._states):
            if not self._alive[player]:
                continue
            gifts = tavern.gifts(giver)
            if not gifts:
                continue
            for p, state in enumerate(self._states):
                if p != player and self._alive[p]:
                    self._states[p] = tavern.receive(state, gifts, self._pool, self.rules)

    def _start_turn(self) -> None:
        self.turn += 1
        self._log.append(("turn", self.turn))
        for p, s in enumerate(self._states):
            if self._alive[p]:
                self._states[p] = tavern.start_turn(
                    s, self.turn, self._pool, self._rngs[p], self.rules
                )
        self._draw_pairs()
        self._public = None

    def _draw_pairs(self) -> None:
        """The round's pairings, drawn as the turn starts, so that every
        player knows their next opponent and hero powers can act on them
        (Lord Barov); the lobby's generator draws them in the same order as
        it would at the combat round."""
        alive = [p for p in range(self.players) if self._alive[p]]
        ghost = self._ghost[0] if self._ghost else None
        pairs = pair_players(alive, self._last_opponent, ghost, self._rng)
        self._pairs = pairs
        self._next = {a: b for a, b in pairs} | {b: a for a, b in pairs}
        for p in alive:
            self._states[p] = tavern.see_pairings(
                self._states[p], pairs, ghost, self._rngs[p], self.rules
            )

    def _combat_round(self) -> None:
        rules = self.rules
        alive = [p for p in range(self.players) if self._alive[p]]
        ghost = self._ghost[0] if self._ghost else None
        if self._pairs is not None:
            pairs, self._pairs = self._pairs, None
            self._next = {}
        else:
            pairs = pair_players(alive, self._last_opponent, ghost, self._rng)
        self._log.append(("pairing", self.turn, pairs, ghost))
        winners: list[int] = []
        boards = {p: self._states[p].warband() for p in alive}
        if self._ghost is not None:
            boards[self._ghost[0]] = self._ghost[1]
        for a, b in pairs:
            seed = self._rng.getrandbits(63)
            result = resolve(boards[a], boards[b], seed, self._mask)
            self._log.append(
                ("combat", self.turn, a, b, b == ghost, seed, boards[a], boards[b], result)
            )
            if self.heroes and result.winner >= 0:
                winners.append((a, b)[result.winner])
            for side, me, opp in ((0, a, b), (1, b, a)):
                if me == ghost:
                    continue
                damage = result.damage if result.winner == 1 - side else 0
                aftermath = result.aftermath[side]
                self._states[me] = tavern.after_combat(
                    self._states[me],
                    damage,
                    aftermath.won,
                    result.winner == 1 - side,
                    tuple((x.index, x.attack, x.health) for x in aftermath.permanent),
                    aftermath.hand,
                    tuple(m.card_id for m in boards[opp].minions),
                    self._pool,
                    rules,
                    aftermath.kills,
                    aftermath.first_kill,
                    aftermath.secrets_used,
                )
                self._last_opponent[me] = opp
                seen = list(self._seen[me])
                seen[opp] = SeenBoard(self.turn, _public(boards[opp]))
                self._seen[me] = tuple(seen)
                if damage:
                    health = self._states[me].health
                    self._log.append(("damage", self.turn, me, damage, health))
        if self.heroes:
            for p in alive:
                if self._states[p].health > 0:
                    self._states[p] = tavern.round_over(
                        self._states[p], tuple(winners), self._pool, rules
                    )
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
            tavern.release(self._states[p], self._pool)
            self._log.append(("elimination", self.turn, p, left + 1 + k))
        if self.heroes:
            for p in dead:
                warband = self._states[p].board
                for q, state in enumerate(self._states):
                    if self._alive[q]:
                        self._states[q] = tavern.player_died(state, warband, self.rules)
        ghost = boards[dead[0]]
        # A knocked-out player's ghost fights without a hero (data/heroes.toml,
        # Deathwing: a dead Deathwing's ghost carries no aura).
        self._ghost = (dead[0], ghost if ghost.hero is None else ghost.with_hero())
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


def _index(value: object) -> int | None:
    """``value`` as an int if it is an integer of any type (numpy's too),
    else None. (An ``isinstance`` check against ``SupportsIndex`` would do,
    at many times the cost of a call that fails.)"""
    if isinstance(value, bool):
        return None
    try:
        return operator.index(cast(SupportsIndex, value))
    except TypeError:
        return None


def _public(board: Board) -> Board:
    """A warband as its opponent saw it: the hero and power are public, the
    Secrets in play and whether the power was used for the fight are not."""
    if board.hero is None or not (board.secrets or board.hero_power_armed):
        return board
    return board.with_hero(board.hero, board.hero_power)


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
    if kind == "draft":
        _, player, offers = entry
        return {"type": "draft", "turn": 0, "player": player, "offers": list(offers)}
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
        "boards": [board_a.to_spec(board_b), board_b.to_spec(board_a)],
        "winner": result.winner,  # 0: players[0] won, 1: players[1] won, -1: a tie
        "damage": result.damage,
        "aftermath": [
            _aftermath(side, board_a.hero is not None or board_b.hero is not None)
            for side in result.aftermath
        ],
        "events": [e.as_dict() for e in result.events],
    }


def _aftermath(side: Aftermath, heroes: bool) -> dict[str, Any]:
    out: dict[str, Any] = {
        "won": side.won,
        "permanent": [[x.index, x.attack, x.health] for x in side.permanent],
        "hand": list(side.hand),
    }
    if heroes:
        out["kills"] = side.kills
        out["first_kill"] = side.first_kill
        out["secrets_used"] = list(side.secrets_used)
    return out
