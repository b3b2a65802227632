"""Battlegrounds as PettingZoo environments: :func:`env` (AEC) and
:func:`parallel_env`.

Eight agents, ``player_0`` .. ``player_7`` (the lobby's seats). Each one
observes a dict: ``observation``, the float32 vector of
:mod:`bgsim.envs.encoding` (layout 4, 2,344 values in [0, 1]), and
``action_mask``, an int8 array over the 730 action codes of
:mod:`bgsim.actions` (1 = legal). Actions are those codes (``Discrete(730)``;
Python or numpy integers).

**AEC order** follows the game: the agent to act is the first living player
(in seat order) who has not ended the turn, so each player recruits their
whole turn in one go; the last EndTurn of a turn runs the combat round.
Players knocked out in a round get ``terminations`` True and their
placement in ``infos`` (``{"placement": p}``), and leave ``agents`` when
stepped with ``None``, the PettingZoo way. When the game ends every
remaining agent terminates; if it ends at the lobby's safety bound on turns
(``ruleset.lobby.max_turns``, 150) they get ``truncations`` True instead,
with their placements (ranked by health) all the same.

**Rewards** (``reward=``): ``"placement"`` (default) pays
``(n + 1) / 2 - placement`` when a player's game ends (placement 1-based:
+3.5 for 1st down to -3.5 for 8th of eight; zero-sum), nothing before.
``"shaped"`` pays after every combat round the change of
``(n + 1) / 2 - provisional place``, where the living share the top places
by health (ties share the mean place) and the knocked-out hold their
placement: the same zero-sum total per game, paid as the standings move.

**Heroes** (``heroes=True``, the default): each reset plays
``Lobby(s, heroes=True)``, whose turn 0 is the draft: every agent chooses a
hero (``ChooseHero``, codes 703-706) as its whole turn, and turn 1 starts
when all have; hero powers are then actions like any other (707-729).
``heroes=False`` plays the hero-less variant, whose observations have zeros
in the hero sections (layout 4).

**Seeds**: ``reset(seed=s)`` plays ``bgsim.lobby.Lobby(s, heroes=...)``, so a seed and
the same actions reproduce a game exactly; ``reset()`` without a seed draws
the next lobby seed from a generator seeded by the last seed given.

**Parallel form**: every step takes one action from each agent in
``agents``. The players still recruiting this turn each take theirs: first
every action but EndTurn, in seat order, then the EndTurns, in seat order.
Recruiting players affect each other only through the shared pool (what
hero powers hand out, King Mukla's Bananas, arrives once everyone has ended
the turn), so an action its mask allowed stays legal when the step applies
it. A player who has
ended the turn waits for the combat round:
their mask allows only 0, which then means "wait" (an action may also be
left out for them). The step in which the last recruiting player ends the
turn runs the combat round, so the next step starts a new turn with everyone
recruiting. Trajectories differ from the AEC form's (there players recruit
one after another), both are legal orders of the same game.

>>> from bgsim.envs import battlegrounds_v0
>>> aec = battlegrounds_v0.env()
>>> aec.reset(seed=42)
>>> obs, reward, terminated, truncated, info = aec.last()
>>> aec.agent_selection, obs["observation"].shape, int(obs["action_mask"][703])
('player_0', (2344,), 1)
>>> aec.step(703)  # ChooseHero(0): the draft is a turn of one action
>>> aec.agent_selection
'player_1'
"""

from __future__ import annotations

import copy
import random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv

from bgsim.envs._common import (
    ACTIONS,
    CHOOSE_HERO_BASE,
    NUM_ACTIONS,
    POWER_BASE,
    IllegalActionError,
    Lobby,
    Ruleset,
    action_code,
    check_heroes,
    check_render_mode,
    check_reward,
    check_ruleset,
    check_seed,
    ended_by_turn_bound,
    illegal,
    known_agent,
    next_seed,
    observation_space,
    placement_reward,
    potentials,
    render_text,
)
from bgsim.envs.encoding import ObservationEncoder
from combat_c.guarded import shown

__all__ = ["BattlegroundsAEC", "BattlegroundsParallel", "env", "parallel_env", "raw_env"]

NAME = "battlegrounds_v0"


def _spaces(size: int) -> tuple[spaces.Dict, spaces.Discrete]:
    obs = spaces.Dict(
        {
            "observation": observation_space(size),
            "action_mask": spaces.Box(0, 1, shape=(NUM_ACTIONS,), dtype=np.int8),
        }
    )
    return obs, spaces.Discrete(NUM_ACTIONS)


class BattlegroundsAEC(AECEnv):
    """The AEC environment (see the module doc), as :func:`env` makes it.

    >>> e = BattlegroundsAEC(reward="shaped")
    >>> e.reset(seed=1)
    >>> e.possible_agents[:2], e.num_agents
    (['player_0', 'player_1'], 8)
    """

    metadata: ClassVar[dict] = {"name": NAME, "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(
        self,
        reward: str = "placement",
        ruleset: Ruleset | None = None,
        render_mode: str | None = None,
        heroes: bool = True,
    ) -> None:
        super().__init__()
        self.rules = check_ruleset(ruleset)
        self.heroes = check_heroes(heroes)
        self.reward_scheme = check_reward(reward)
        self.render_mode = check_render_mode(render_mode)
        n = self.rules.lobby.players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        self._encoder = ObservationEncoder(self.rules)
        made = [_spaces(self._encoder.size) for _ in self.possible_agents]
        self.observation_spaces = {a: m[0] for a, m in zip(self.possible_agents, made, strict=True)}
        self.action_spaces = {a: m[1] for a, m in zip(self.possible_agents, made, strict=True)}
        self._seeder: random.Random | None = None
        self.lobby: Lobby | None = None
        self.agents: list[str] = []
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection = self.possible_agents[0]
        self._rewarded = False
        self._turn = 0
        self._potential = [0.0] * n

    def __copy__(self) -> BattlegroundsAEC:
        # A shallow copy would share the game with this one: copy it whole.
        return copy.deepcopy(self)

    def observation_space(self, agent: str) -> spaces.Space:
        """The agent's observation space (the same object every call).

        >>> BattlegroundsAEC().observation_space("player_3")["observation"].shape
        (2344,)
        """
        return self.observation_spaces[known_agent(self.possible_agents, agent)]

    def action_space(self, agent: str) -> spaces.Space:
        """``Discrete(730)``, one per agent (the same object every call).

        >>> BattlegroundsAEC().action_space("player_3")
        Discrete(730)
        """
        return self.action_spaces[known_agent(self.possible_agents, agent)]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start lobby ``seed`` (see the module doc); ``options`` are accepted
        and unused.

        >>> e = BattlegroundsAEC()
        >>> e.reset(seed=4)
        >>> e.lobby.seed, e.agents == e.possible_agents
        (4, True)
        """
        seed = check_seed(seed)
        lobby_seed, self._seeder = next_seed(seed, self._seeder)
        self.lobby = lobby = Lobby(lobby_seed, self.rules, heroes=self.heroes)
        self.lobby_seed = lobby_seed
        self._encoder.reset()
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self._rewarded = False
        self._turn = lobby.turn
        self._potential = [0.0] * len(self.possible_agents)
        self.agent_selection = self.possible_agents[lobby.to_act()[0]]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``{"observation": float32 vector, "action_mask": int8 mask}``, new
        arrays every call.

        >>> e = BattlegroundsAEC()
        >>> e.reset(seed=4)
        >>> obs = e.observe("player_5")
        >>> obs["observation"].dtype.name, int(obs["action_mask"].sum()) > 1
        ('float32', True)
        """
        lobby = self._lobby()
        try:
            seat = self._seat[agent]
        except (KeyError, TypeError):
            known_agent(self.possible_agents, agent)
            raise
        return {
            "observation": self._encoder.encode_lobby(lobby, seat),
            "action_mask": lobby.action_mask(seat).view(np.int8),
        }

    def last(self, observe: bool = True) -> tuple:
        """The selected agent's (observation, cumulative reward, terminated,
        truncated, info), as PettingZoo's ``last``; a clear error before
        ``reset`` or once the game is over.

        >>> e = BattlegroundsAEC()
        >>> e.reset(seed=4)
        >>> obs, reward, terminated, truncated, info = e.last()
        >>> reward, terminated, truncated, info
        (0.0, False, False, {})
        """
        agent = self.agent_selection
        if not self.agents:
            self._lobby()  # before reset: says to call it
            raise RuntimeError("the game is over: call reset() to start another")
        return (
            self.observe(agent) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def step(self, action: Any) -> None:
        """Take the selected agent's action (an int code; ``None`` for a
        terminated agent). A bad action raises (TypeError, ValueError, or
        IllegalActionError, a ValueError) and changes nothing.

        >>> e = BattlegroundsAEC()
        >>> e.reset(seed=4)
        >>> e.step(730)
        Traceback (most recent call last):
        ...
        ValueError: action code 730 is out of range 0..729
        >>> e.step(703)  # player_0 drafts the first hero offered
        >>> e.agent_selection
        'player_1'
        """
        agent = self.agent_selection
        self._lobby()  # before reset: says to call it
        if not self.agents:
            raise RuntimeError("the game is over: call reset() to start another")
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise TypeError(f"{agent} is still in the game: None is only for terminated agents")
        code = action_code(action)
        lobby = self._lobby()
        try:
            lobby.apply(self._seat[agent], code)
        except IllegalActionError as exc:
            raise illegal(agent, code, exc) from None
        self._cumulative_rewards[agent] = 0.0
        if self._rewarded:
            self._clear_rewards()
            self._rewarded = False
        if code == 0 or CHOOSE_HERO_BASE <= code < POWER_BASE:
            # EndTurn, or a draft choice (the draft is a turn of one action):
            # the next player, or the combat round (after the draft, turn 1).
            if lobby.turn != self._turn or lobby.done:
                self._end_round()
            else:
                self.agent_selection = self.possible_agents[lobby.to_act()[0]]

    def _end_round(self) -> None:
        lobby = self._lobby()
        self._turn = lobby.turn
        seat = self._seat
        n = len(self.possible_agents)
        if self.reward_scheme == "shaped":
            now = potentials(lobby)
            before = self._potential
            for a in self.agents:
                s = seat[a]
                self.rewards[a] = now[s] - before[s]
            self._potential = now
            self._rewarded = True
        truncated = ended_by_turn_bound(lobby)
        for a in self.agents:
            s = seat[a]
            if lobby.done or not lobby.alive(s):
                place = lobby.placements[s]
                if self.reward_scheme == "placement":
                    self.rewards[a] = placement_reward(n, place)
                    self._rewarded = True
                if truncated:
                    self.truncations[a] = True
                else:
                    self.terminations[a] = True
                self.infos[a] = {"placement": place}
        if self._rewarded:
            self._accumulate_rewards()
        if not lobby.done:
            self.agent_selection = self.possible_agents[lobby.to_act()[0]]
        self._deads_step_first()

    def _lobby(self) -> Lobby:
        lobby = self.lobby
        if lobby is None:
            raise RuntimeError("call reset() before using the environment")
        return lobby

    def render(self) -> str | None:
        """With ``render_mode="ansi"``, the standings and the selected agent's
        tavern as text; None otherwise.

        >>> e = BattlegroundsAEC(render_mode="ansi")
        >>> e.reset(seed=4)
        >>> e.render().splitlines()[0]
        "turn 0 (the heroes' draft)"
        """
        if self.render_mode != "ansi":
            return None
        seat = self._seat.get(self.agent_selection) if self.agents else None
        return render_text(self._lobby(), seat)

    def close(self) -> None:
        """Nothing to release (no window, no processes).

        >>> BattlegroundsAEC().close()
        """


class BattlegroundsParallel(ParallelEnv):
    """The parallel environment (see the module doc for how simultaneous
    actions map onto the game).

    >>> par = BattlegroundsParallel()
    >>> obs, infos = par.reset(seed=3)
    >>> obs, *_ = par.step({a: 703 for a in par.agents})  # everyone drafts at once
    >>> actions = {a: 0 for a in par.agents}  # everyone ends turn 1 at once
    >>> obs, rewards, terminations, truncations, infos = par.step(actions)
    >>> par.lobby.turn
    2
    """

    metadata: ClassVar[dict] = {"name": NAME, "render_modes": ["ansi"], "is_parallelizable": True}

    def __init__(
        self,
        reward: str = "placement",
        ruleset: Ruleset | None = None,
        render_mode: str | None = None,
        heroes: bool = True,
    ) -> None:
        self.rules = check_ruleset(ruleset)
        self.heroes = check_heroes(heroes)
        self.reward_scheme = check_reward(reward)
        self.render_mode = check_render_mode(render_mode)
        n = self.rules.lobby.players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        self._encoder = ObservationEncoder(self.rules)
        made = [_spaces(self._encoder.size) for _ in self.possible_agents]
        self.observation_spaces = {a: m[0] for a, m in zip(self.possible_agents, made, strict=True)}
        self.action_spaces = {a: m[1] for a, m in zip(self.possible_agents, made, strict=True)}
        self._seeder: random.Random | None = None
        self.lobby: Lobby | None = None
        self.agents: list[str] = []
        self._masks: dict[str, np.ndarray] = {}
        self._potential = [0.0] * n
        wait = np.zeros(NUM_ACTIONS, dtype=bool)
        wait[0] = True
        self._wait = wait

    def __copy__(self) -> BattlegroundsParallel:
        # A shallow copy would share the game with this one: copy it whole.
        return copy.deepcopy(self)

    def observation_space(self, agent: str) -> spaces.Space:
        """The agent's observation space (the same object every call).

        >>> BattlegroundsParallel().observation_space("player_0")["action_mask"].shape
        (730,)
        """
        return self.observation_spaces[known_agent(self.possible_agents, agent)]

    def action_space(self, agent: str) -> spaces.Space:
        """``Discrete(730)``, one per agent (the same object every call).

        >>> int(BattlegroundsParallel().action_space("player_0").n)
        730
        """
        return self.action_spaces[known_agent(self.possible_agents, agent)]

    def reset(
        self, seed: int | None = None, options: dict | None = None
    ) -> tuple[dict[str, dict[str, np.ndarray]], dict[str, dict[str, Any]]]:
        """Start lobby ``seed``; returns every agent's observation and info.

        >>> obs, infos = BattlegroundsParallel().reset(seed=2)
        >>> len(obs), infos["player_0"]
        (8, {})
        """
        seed = check_seed(seed)
        lobby_seed, self._seeder = next_seed(seed, self._seeder)
        self.lobby = Lobby(lobby_seed, self.rules, heroes=self.heroes)
        self.lobby_seed = lobby_seed
        self._encoder.reset()
        self.agents = list(self.possible_agents)
        self._potential = [0.0] * len(self.possible_agents)
        return {a: self._observe(a) for a in self.agents}, {a: {} for a in self.agents}

    def _observe(self, agent: str) -> dict[str, np.ndarray]:
        lobby = self._lobby()
        seat = self._seat[agent]
        state = lobby.state(seat)
        if state.ended and lobby.alive(seat) and not lobby.done:
            mask = self._wait
        else:
            mask = lobby.action_mask(seat)
        self._masks[agent] = mask
        return {
            "observation": self._encoder.encode_lobby(lobby, seat),
            "action_mask": mask.astype(np.int8),
        }

    def step(
        self, actions: dict[str, Any]
    ) -> tuple[
        dict[str, dict[str, np.ndarray]],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        """One action per agent in ``agents`` (see the module doc). Bad input
        raises before any action is taken.

        >>> par = BattlegroundsParallel()
        >>> _ = par.reset(seed=2)
        >>> obs, rewards, terminations, truncations, infos = par.step({"player_0": 703})
        Traceback (most recent call last):
        ...
        ValueError: no action for player_1, who is still recruiting this turn
        """
        lobby = self._lobby()
        if not self.agents:
            raise RuntimeError("the game is over: call reset() to start another")
        if not isinstance(actions, dict):
            raise TypeError(f"actions must be a dict of agent -> action, got {shown(actions)}")
        for agent in actions:
            known_agent(self.possible_agents, agent)
            if agent not in self.agents:
                raise ValueError(f"{agent} is out of the game and takes no action")
        recruiting = set(lobby.to_act())
        todo = []
        for agent in self.agents:
            seat = self._seat[agent]
            if seat not in recruiting:
                if agent in actions and action_code(actions[agent]) != 0:
                    raise IllegalActionError(
                        f"{agent} has ended the turn: its only action is 0 (wait), "
                        f"got {actions[agent]!r}"
                    )
                continue
            if agent not in actions:
                raise ValueError(f"no action for {agent}, who is still recruiting this turn")
            code = action_code(actions[agent])
            if not self._masks[agent][code]:
                raise IllegalActionError(
                    f"{agent}: action {code} ({ACTIONS[code]!r}) is illegal now (masked out)"
                )
            todo.append((seat, code))
        turn = lobby.turn
        # EndTurns last, in seat order: the last one runs the combat round.
        # Should an allowed action still be refused, nothing is applied.
        todo.sort(key=lambda seat_code: seat_code[1] == 0)
        before = lobby.clone()
        for seat, code in todo:
            try:
                lobby.apply(seat, code)
            except IllegalActionError as exc:
                # Back to the state before the step, in the same object (a
                # caller may hold env.lobby); the copy is not used again.
                lobby.__dict__.clear()
                lobby.__dict__.update(before.__dict__)
                agent = self.possible_agents[seat]
                raise IllegalActionError(
                    f"{agent}: action {code} ({ACTIONS[code]!r}) became illegal through "
                    f"the other actions of this step ({exc}); no action was taken"
                ) from None
        live = self.agents
        rewards = dict.fromkeys(live, 0.0)
        terminations = dict.fromkeys(live, False)
        truncations = dict.fromkeys(live, False)
        infos: dict[str, dict[str, Any]] = {a: {} for a in live}
        if lobby.turn != turn or lobby.done:
            n = len(self.possible_agents)
            if self.reward_scheme == "shaped":
                now = potentials(lobby)
                for a in live:
                    s = self._seat[a]
                    rewards[a] = now[s] - self._potential[s]
                self._potential = now
            truncated = ended_by_turn_bound(lobby)
            for a in live:
                s = self._seat[a]
                if lobby.done or not lobby.alive(s):
                    place = lobby.placements[s]
                    if self.reward_scheme == "placement":
                        rewards[a] = placement_reward(n, place)
                    if truncated:
                        truncations[a] = True
                    else:
                        terminations[a] = True
                    infos[a] = {"placement": place}
        observations = {a: self._observe(a) for a in live}
        self.agents = [a for a in live if not (terminations[a] or truncations[a])]
        return observations, rewards, terminations, truncations, infos

    def _lobby(self) -> Lobby:
        lobby = self.lobby
        if lobby is None:
            raise RuntimeError("call reset() before using the environment")
        return lobby

    def render(self) -> str | None:
        """With ``render_mode="ansi"``, the standings as text; None otherwise.

        >>> par = BattlegroundsParallel(render_mode="ansi")
        >>> _ = par.reset(seed=2)
        >>> par.render().splitlines()[1]
        ' player_0  health  40  tier 1  alive'
        """
        if self.render_mode != "ansi":
            return None
        return render_text(self._lobby(), None)

    def close(self) -> None:
        """Nothing to release (no window, no processes).

        >>> BattlegroundsParallel().close()
        """


def raw_env(**kwargs: Any) -> BattlegroundsAEC:
    """The AEC environment (``reward=``, ``ruleset=``, ``render_mode=``,
    ``heroes=`` as for :class:`BattlegroundsAEC`); the same as :func:`env`.

    >>> raw_env(reward="shaped").reward_scheme
    'shaped'
    """
    return BattlegroundsAEC(**kwargs)


def env(**kwargs: Any) -> BattlegroundsAEC:
    """The AEC environment; the same keyword arguments as :func:`raw_env`.

    It checks the order of calls itself (a RuntimeError for using it before
    ``reset`` or stepping a finished game), so it comes without PettingZoo's
    ``OrderEnforcingWrapper``, whose attribute forwarding would cost more
    than the environment's own bookkeeping on every step.

    >>> e = env()
    >>> e.reset(seed=0)
    >>> e.agent_selection
    'player_0'
    """
    return BattlegroundsAEC(**kwargs)


def parallel_env(**kwargs: Any) -> BattlegroundsParallel:
    """The parallel environment; the same keyword arguments as :func:`raw_env`.

    >>> p = parallel_env()
    >>> obs, infos = p.reset(seed=0)
    >>> sorted(obs) == p.possible_agents
    True
    """
    return BattlegroundsParallel(**kwargs)
