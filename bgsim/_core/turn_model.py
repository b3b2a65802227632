"""The forward model of one player's recruit turn, as that player sees it.

A :class:`TurnModel` holds one player's state, a pool of minion copies and a
random generator, and plays actions on them with the game's own rules. Built
from an observation it guesses what the player cannot see: the pool holds the
copies the player can tell are still there, the generator stands for the
shops and random effects to come, and a :class:`Guess` stands for the hidden
enemy warbands. That is OpenSpiel's ``ResampleFromInfostate``; searches make
one model per turn and :meth:`TurnModel.clone` it into a fresh determinization
per iteration.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Protocol, cast

import numpy as np

from bgsim._core import tavern
from bgsim._core.minions import MinionCard
from bgsim._core.player_state import PlayerState
from bgsim._core.pool import Pool
from bgsim.actions import ACTIONS, NUM_ACTIONS, Action, IllegalActionError, as_action
from bgsim.observation import Observation
from bgsim.ruleset import Ruleset
from combat_c import Board
from combat_c.board import MAX_MINIONS


class Guess(Protocol):
    """Guesses of the enemy warbands one observation cannot see.

    ``warband(player, rng, turn)`` returns one guess (drawn from ``rng``) of
    ``player``'s warband as it will fight on ``turn``. bgsim's own
    :class:`LastSeen` repeats the board last seen in combat; the agents'
    belief model (``agents.belief.Guesser``) grows it the way warbands grow.

    >>> import random
    >>> from bgsim import Lobby, LastSeen
    >>> obs = Lobby(seed=1).observe(0)
    >>> LastSeen(obs).warband(3, random.Random(0), obs.turn).minions  # never seen yet
    ()
    """

    def warband(self, player: int, rng: random.Random, turn: int) -> Board: ...


class LastSeen:
    """The plainest :class:`Guess`: every enemy fields the warband it was last
    seen with in combat (an empty one if never seen), at its current tier and
    health.

    >>> import random
    >>> from bgsim import Lobby, LastSeen
    >>> obs = Lobby(seed=1).observe(0)
    >>> LastSeen(obs).warband(5, random.Random(0), obs.turn).tier
    1
    """

    def __init__(self, observation: Observation) -> None:
        self.observation = observation

    def __reduce__(self) -> tuple:
        # A compiled class unpickles through its __init__.
        return (LastSeen, (self.observation,))

    def warband(self, player: int, rng: random.Random, turn: int) -> Board:
        """The board ``player`` was last seen with (``rng`` and ``turn`` unused),
        with their hero and hero power (public); whether the power fires and
        the Secrets in play are hidden: not armed, none."""
        info = self.observation.players[player]
        seen = self.observation.seen[player]
        minions = seen.board.minions if seen is not None else ()
        return Board.trusted(info.tier, max(info.health, 1), minions, info.hero, info.hero_power)


class TurnModel:
    """One player's recruit turn, played forward with the game's rules.

    Make one with :meth:`from_observation` (everything hidden guessed) or
    ``Lobby.turn_model(player)`` (the true pool and generator). Then
    :meth:`legal_actions`, :meth:`apply_action` until :meth:`is_turn_over`,
    and :meth:`warband` for the board it fields. Models are independent:
    :meth:`clone` copies the pool and the generator.

    >>> import random
    >>> from bgsim import Lobby, TurnModel, Upgrade
    >>> obs = Lobby(seed=7).observe(0)
    >>> model = TurnModel.from_observation(obs, obs.rules, random.Random(1))
    >>> model.state.gold
    3
    >>> imagined = model.clone()
    >>> imagined.apply_action(imagined.legal_actions()[1])  # the first buy
    >>> imagined.state.gold, model.state.gold
    (0, 3)
    >>> Upgrade() in imagined.legal_actions()
    False
    """

    def __init__(
        self,
        state: PlayerState,
        pool: Pool,
        rng: random.Random,
        rules: Ruleset,
        guess: Guess | None = None,
    ) -> None:
        self._state = state
        self._pool = pool
        self._rng = rng
        self._rules = rules
        self._guess = guess
        self._cap = rules.recruit.actions_per_turn

    def __reduce__(self) -> tuple:
        # A compiled class unpickles through its __init__.
        return (TurnModel, (self._state, self._pool, self._rng, self._rules, self._guess))

    def __copy__(self) -> TurnModel:
        # A shallow copy would share the pool and generator: make it independent.
        return self.clone()

    @classmethod
    def from_observation(
        cls,
        obs: Observation,
        rules: Ruleset | None = None,
        rng: random.Random | None = None,
        guess: Callable[[Observation], Guess] | Guess | None = None,
    ) -> TurnModel:
        """A model of the observer's turn with everything hidden guessed: the
        pool holds the copies the observer can tell are left
        (:meth:`Observation.pool_estimate`), ``rng`` (default: seeded 0)
        draws the shops and random effects to come, and ``guess`` guesses
        the enemy warbands: a :class:`Guess`, or a function of the
        observation that makes one (a Guess class such as
        ``agents.belief.Guesser``, which grows each warband the way
        warbands grow). The default, :class:`LastSeen`, repeats the board
        last seen in combat, so an enemy not yet fought has no minions.
        ``rules`` default to the observation's.

        >>> import random
        >>> from bgsim import LastSeen, Lobby, TurnModel
        >>> obs = Lobby(seed=3).observe(2)
        >>> TurnModel.from_observation(obs, rng=random.Random(5)).state.player
        2
        >>> TurnModel.from_observation(obs, guess=LastSeen(obs)).state.player  # a Guess
        2
        """
        if not isinstance(obs, Observation):
            raise TypeError(f"obs must be an Observation, not {type(obs).__name__}")
        if rules is not None and not isinstance(rules, Ruleset):
            raise TypeError(f"rules must be a Ruleset or None, not {type(rules).__name__}")
        if rng is not None and not isinstance(rng, random.Random):
            raise TypeError(f"rng must be a random.Random or None, not {type(rng).__name__}")
        if rules is None:
            rules = obs.rules
        else:
            rules.check()
            if rules.tavern.max_tier < obs.rules.tavern.max_tier:
                raise ValueError(
                    f"rules: its tavern has tiers 1..{rules.tavern.max_tier}, the observation's "
                    f"game 1..{obs.rules.tavern.max_tier} (leave rules out to use the game's)"
                )
        pool = Pool(obs.pool_estimate(), rules.tavern.max_tier)
        made: Guess
        if guess is None:
            made = LastSeen(obs)
        elif not isinstance(guess, type) and callable(getattr(guess, "warband", None)):
            made = cast(Guess, guess)
        elif callable(guess):
            made = cast(Callable[[Observation], Guess], guess)(obs)
        else:
            raise TypeError(
                "guess must be a Guess (with warband(player, rng, turn)) or a function "
                f"of the observation that makes one, not {type(guess).__name__}"
            )
        return cls(obs.state, pool, random.Random(0) if rng is None else rng, rules, made)

    # ------------------------------------------------------------ reading

    @property
    def state(self) -> PlayerState:
        """The player's state now (an immutable value)."""
        return self._state

    @property
    def rules(self) -> Ruleset:
        """The ruleset the model plays by."""
        return self._rules

    @property
    def rng(self) -> random.Random:
        """The generator that draws this model's shops and random effects."""
        return self._rng

    def legal_actions(self) -> list[Action]:
        """Every action the player may take now (``EndTurn`` first; in the
        heroes' draft only one ``ChooseHero`` per offer; empty once the turn
        is over).

        >>> import random
        >>> from bgsim import Lobby, TurnModel
        >>> model = Lobby(seed=2).turn_model(0)
        >>> model.legal_actions()[0]
        EndTurn()
        """
        return tavern.legal_actions(self._state, self._rules)

    def action_mask(self) -> np.ndarray:
        """Boolean array over every action code, True where legal.

        >>> from bgsim import Lobby, NUM_ACTIONS
        >>> Lobby(seed=2).turn_model(0).action_mask().shape == (NUM_ACTIONS,)
        True
        """
        return tavern.action_mask(self._state, self._rules)

    def is_turn_over(self) -> bool:
        """Whether the player has ended the turn.

        >>> from bgsim import Lobby, EndTurn
        >>> model = Lobby(seed=2).turn_model(0)
        >>> model.apply_action(EndTurn())
        >>> model.is_turn_over()
        True
        """
        return self._state.ended

    def info_key(self, state: PlayerState | None = None) -> tuple:
        """What the player knows of its own position (or of ``state``, one of
        the player's states under this model's rules), as a hashable key: two
        positions with equal keys are the same decision point to the player
        (searches merge them).

        >>> from bgsim import Lobby
        >>> lobby = Lobby(seed=2)
        >>> lobby.turn_model(0).info_key() == lobby.clone().turn_model(0).info_key()
        True
        """
        return info_key(self._state if state is None else state, self._cap)

    def warband(self, minions: Sequence[MinionCard] | None = None) -> Board:
        """The board this player would field now (or with ``minions`` in
        place of the warband), as ``combat_c.simulate`` takes it.

        >>> from bgsim import Lobby
        >>> Lobby(seed=2).turn_model(0).warband().tier
        1
        """
        if minions is not None and len(minions) > MAX_MINIONS:
            raise ValueError(f"a warband holds at most {MAX_MINIONS} minions, got {len(minions)}")
        return self._state.warband(minions)

    def guess_warband(self, player: int, rng: random.Random, turns_ahead: int = 0) -> Board:
        """One guess, drawn from ``rng``, of ``player``'s warband as it will
        fight ``turns_ahead`` turns from now.

        >>> import random
        >>> from bgsim import Lobby
        >>> Lobby(seed=2).turn_model(0).guess_warband(4, random.Random(1)).health
        40
        """
        guess = self._guess
        if guess is None:
            raise ValueError("this model has no Guess of the enemy warbands")
        n = self._rules.lobby.players
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < n:
            raise ValueError(f"player must be a seat 0..{n - 1}, not {player!r:.40}")
        if turns_ahead < 0:
            raise ValueError(f"turns_ahead must be 0 or more, got {turns_ahead}")
        return guess.warband(player, rng, self._state.turn + turns_ahead)

    # ------------------------------------------------------------ acting

    def apply_action(self, action: Action | int, check: bool = True) -> None:
        """Take ``action`` (or its integer code). An illegal one raises
        :class:`IllegalActionError` and changes nothing. ``check=False``
        skips the legality check, for searches that took ``action`` from
        :meth:`legal_actions` of a model with the same :meth:`info_key`.

        >>> from bgsim import Lobby, Sell, IllegalActionError
        >>> model = Lobby(seed=2).turn_model(0)
        >>> try:
        ...     model.apply_action(Sell(0))
        ... except IllegalActionError as error:
        ...     print(error)
        Sell(0): no minion in warband slot 0 (the warband has 0)
        """
        if check:
            self._state = tavern.apply_action(
                self._state, as_action(action), self._pool, self._rng, self._rules
            )
        else:
            if type(action) is int:
                if not 0 <= action < NUM_ACTIONS:
                    raise IllegalActionError(
                        f"action code {action} is outside the action space 0..{NUM_ACTIONS - 1}"
                    )
                action = ACTIONS[action]
            self._state = tavern.apply_legal_action(
                self._state, cast(Action, action), self._pool, self._rng, self._rules
            )

    def clone(self, rng: random.Random | None = None) -> TurnModel:
        """An independent copy. With ``rng`` the copy draws its shops and
        random effects from that generator (a fresh determinization of what
        is still to come); without, from a copy of this model's.

        >>> import random
        >>> from bgsim import Lobby
        >>> model = Lobby(seed=2).turn_model(0)
        >>> twin = model.clone()
        >>> twin.apply_action(twin.legal_actions()[-1])
        >>> model.state == twin.state
        False
        """
        if rng is None:
            rng = random.Random()
            rng.setstate(self._rng.getstate())
        elif not isinstance(rng, random.Random):
            raise TypeError(f"rng must be a random.Random, not {type(rng).__name__}")
        return TurnModel(self._state, self._pool.clone(), rng, self._rules, self._guess)

    def reorder(self, order: Sequence[MinionCard], check: bool = True) -> None:
        """Put the warband in ``order`` at once (what a run of ``Move``
        actions does, for none of the turn's actions). ``order`` must hold
        the warband's minions; ``check=False`` trusts the caller.

        >>> from bgsim import Lobby
        >>> model = Lobby(seed=2).turn_model(0)
        >>> model.reorder(())
        """
        order = tuple(order)
        if check and Counter(order) != Counter(self._state.board):
            raise IllegalActionError("reorder needs exactly the warband's minions")
        state = self._state
        self._state = state.with_board_and_health(order, state.health)

    def jump(self, state: PlayerState) -> None:
        """Put the model in ``state``, a state its turn reached before (a
        search's cached end of a turn), leaving the pool and the generator
        as they are. The caller keeps ``state`` valid for this model.

        >>> from bgsim import Lobby
        >>> model = Lobby(seed=2).turn_model(0)
        >>> start = model.state
        >>> model.apply_action(model.legal_actions()[-1])
        >>> model.jump(start)
        >>> model.state is start
        True
        """
        self._state = state

    def next_turn(self, damage: int = 0) -> None:
        """Start the player's next turn after taking ``damage`` in the fight
        (never below 1 Health): new gold, the upgrade discount, start-of-turn
        effects and a new shop drawn from the model's pool.

        >>> from bgsim import Lobby, EndTurn
        >>> model = Lobby(seed=2).turn_model(0)
        >>> model.apply_action(EndTurn())
        >>> model.next_turn(damage=5)
        >>> model.state.turn, model.state.health, model.state.gold
        (2, 35, 4)
        """
        if damage < 0:
            raise ValueError(f"damage must be 0 or more, got {damage}")
        state = self._state
        if not state.ended:
            raise IllegalActionError("the turn is not over: end it (EndTurn) before next_turn")
        if damage:
            state = state.with_board_and_health(state.board, max(1, state.health - damage))
        self._state = tavern.start_turn(state, state.turn + 1, self._pool, self._rng, self._rules)


def info_key(state: PlayerState, action_cap: int) -> tuple:
    """What the player knows of its own position (see :meth:`TurnModel.info_key`)."""
    return (
        state.gold,
        state.tier,
        state.upgrade_cost,
        state.health,
        state.shop,
        state.shop_frozen,
        state.hand,
        state.board,
        state.discover,
        state.free_refreshes,
        state.actions >= action_cap,
        # The hero (power uses, counters, discounts) and a power's own offers
        # (Secrets, hero powers): states that differ there offer other actions.
        state.hero,
        state.hero_offers,
    )
