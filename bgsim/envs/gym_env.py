"""Battlegrounds as a single-agent Gymnasium environment: one learner, the
other seven seats played by bgsim agents.

``gymnasium.make("bgsim/Battlegrounds-v0", opponents="heuristic:7")`` after
``import bgsim.envs`` (or ``gymnasium.make("bgsim.envs:bgsim/Battlegrounds-v0")``
without it). Options:

- ``opponents``: a lineup for the other seats, as ``bgsim tournament`` takes
  (``"heuristic:7"``, ``"mcts:1,random:6"``, ...), filling them in seat order.
- ``agents``: names for your own agent classes in ``opponents``, as
  ``--agent`` gives them: ``agents={"mine": "my_pkg.my_module:MyAgent"}``
  with ``opponents="mine:1,heuristic:6"``.
- ``seat``: the learner's seat, 0..7, or None (default) for a seat drawn
  from each episode's lobby seed, so that over many episodes the learner sits
  everywhere and a seed still fixes the whole episode.
- ``budget``: the MCTS opponents' search per turn, ``"200it"`` or ``"0.5s"``
  (a time budget makes games depend on the machine's speed).
- ``reward``: ``"placement"`` (default) or ``"shaped"``, as in
  :mod:`bgsim.envs.battlegrounds_v0`: ``(n + 1) / 2 - placement`` at the end
  (+3.5 for 1st, -3.5 for 8th), or its per-round changes with the same total.
- ``heroes``: play lobbies with heroes (default True): the learner's first
  action is its draft choice (``ChooseHero``, codes 703-706), then hero
  powers are actions like any other (707-729); False plays the hero-less
  variant.
- ``illegal_action``: what a legal-looking but illegal code (masked out) does.
  ``"penalize"`` (default): nothing happens in the game, the step returns
  the same observation and a reward of ``-illegal_penalty`` (default 0.05)
  with ``info["illegal_action"] = True``; ``"raise"``: an IllegalActionError
  (a ValueError), changing nothing. A masked learner (MaskablePPO) never
  sends one; an unmasked one may repeat an illegal code without end (the
  game does not move), so give it a step bound (``gymnasium.make(...,
  max_episode_steps=N)``). Codes out of range or not integers always raise.
- ``render_mode``: None or ``"ansi"`` (the standings and the learner's tavern
  as text). Another mode is an error that is a TypeError as well as a
  ValueError, so that Stable-Baselines3's ``make_vec_env``, which asks for
  ``"rgb_array"`` first, makes the environment again without it.

The observation is the float32 vector of :mod:`bgsim.envs.encoding` (a
``Box`` of 2,344 values in [0, 1]); the action space is ``Discrete(730)``;
:meth:`BattlegroundsGymEnv.action_masks` gives the legal codes as a bool
array, as MaskablePPO (sb3-contrib) asks for. Gymnasium's wrappers do not
pass attributes through, so from a made env call
``env.unwrapped.action_masks()`` or ``env.get_wrapper_attr("action_masks")()``.

An episode is the learner's game: it ends when the learner is knocked out
(``terminated``; the other seats need not finish) or the game ends
(``terminated``, or ``truncated`` at the lobby's safety bound on turns).
The final step's info holds ``placement``. Seeds: ``reset(seed=s)`` plays
lobby ``s`` with the opponents seeded as ``bgsim tournament`` seeds them
(``bgsim.seeds.derive_seed(s, "agent", seat)``); ``reset()`` without a seed
draws the lobby seed from the environment's ``np_random``.

A bgsim agent (``reset``/``act``) can be the learner too: the environment's
``lobby`` and ``seat`` give what it decides from, and ``bgsim.encode`` turns
its action into the code ``step`` takes::

    inner = env.unwrapped
    action = agent.act(inner.lobby.observe(inner.seat), inner.lobby.legal_actions(inner.seat))
    obs, reward, terminated, truncated, info = env.step(bgsim.encode(action))

>>> import gymnasium, bgsim.envs
>>> env = gymnasium.make("bgsim/Battlegrounds-v0", opponents="random:7", seat=2)
>>> obs, info = env.reset(seed=5)
>>> obs.shape, info["seat"], bool(env.unwrapped.action_masks()[703])  # the draft
((2344,), 2, True)
"""

from __future__ import annotations

import copy
import operator
from typing import Any, SupportsIndex, cast

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from bgsim.envs._common import (
    NUM_ACTIONS,
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
    integral,
    observation_space,
    placement_reward,
    potentials,
    render_text,
)
from bgsim.envs.encoding import ObservationEncoder
from combat_c.guarded import shown

__all__ = ["ILLEGAL_ACTIONS", "BattlegroundsGymEnv"]

ILLEGAL_ACTIONS = ("penalize", "raise")
MAX_PENALTY = 1000.0  # the largest illegal_penalty (a game pays at most 3.5)


def _check_agents(agents: object) -> dict[str, str]:
    """``agents`` ({name: "module:Class"}, the ``--agent`` option's form) checked."""
    from bgsim.registry import LineupError, parse_agent_option

    if agents is None:
        return {}
    if not isinstance(agents, dict):
        raise TypeError(
            'agents must be a dict like {"mine": "my_pkg.my_module:MyAgent"}, '
            f"got {shown(agents)}"
        )
    out: dict[str, str] = {}
    for name, target in agents.items():
        if not isinstance(name, str) or not isinstance(target, str):
            raise TypeError(f"agents: {shown(name)} -> {shown(target)} is not a name and a target")
        try:
            name, target = parse_agent_option(f"{name}={target}")
        except LineupError as exc:
            raise ValueError(f"agents: {exc}") from None
        out[name] = target
    return out


class BattlegroundsGymEnv(gym.Env):
    """The single-agent environment (see the module doc for the options).

    >>> env = BattlegroundsGymEnv(opponents="random:7", seat=0)
    >>> obs, info = env.reset(seed=1)
    >>> obs, reward, terminated, truncated, info = env.step(703)  # the draft
    >>> obs, reward, terminated, truncated, info = env.step(0)  # EndTurn
    >>> env.lobby.turn, reward
    (2, 0.0)
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        opponents: str = "heuristic:7",
        seat: int | None = None,
        budget: Any = None,
        reward: str = "placement",
        illegal_action: str = "penalize",
        illegal_penalty: float = 0.05,
        ruleset: Ruleset | None = None,
        render_mode: str | None = None,
        heroes: bool = True,
        agents: dict[str, str] | None = None,
    ) -> None:
        from bgsim.agent import Budget
        from bgsim.registry import LineupError, check_lineup, parse_lineup

        self.rules = check_ruleset(ruleset)
        self.heroes = check_heroes(heroes)
        n = self.rules.lobby.players
        if not isinstance(opponents, str):
            raise TypeError(
                f'opponents must be a lineup string like "heuristic:7", got {shown(opponents)}'
            )
        try:
            self.opponents = parse_lineup(
                opponents,
                seats=n - 1,
                agents=_check_agents(agents),
                room=f"the opponents fill the {n - 1} seats beside the learner's",
            )
        except LineupError as exc:
            raise ValueError(f"opponents: {exc}") from None
        if seat is not None and not integral(seat):
            raise TypeError(f"seat must be an integer 0..{n - 1} or None, got {shown(seat)}")
        if seat is not None:
            seat = operator.index(cast(SupportsIndex, seat))
            if not 0 <= seat < n:
                raise ValueError(f"seat must be 0..{n - 1} or None, got {shown(seat)}")
        self.fixed_seat = seat
        if budget is None or isinstance(budget, Budget):
            self.budget = budget
        elif isinstance(budget, str):
            try:
                self.budget = Budget.parse(budget)
            except LineupError as exc:
                raise ValueError(str(exc)) from None
        else:
            raise TypeError(f'budget must be a string like "200it" or "0.5s", got {shown(budget)}')
        try:  # every opponent built once: a bad option is reported here, not at reset
            check_lineup(self.opponents, budget=self.budget)
        except LineupError as exc:
            raise ValueError(f"opponents: {exc}") from None
        self.reward_scheme = check_reward(reward)
        if illegal_action not in ILLEGAL_ACTIONS:
            choices = ", ".join(ILLEGAL_ACTIONS)
            raise ValueError(
                f"illegal_action must be one of {choices}, got {shown(illegal_action)}"
            )
        self.illegal_action = illegal_action
        if (
            isinstance(illegal_penalty, bool | np.bool_)
            or not isinstance(illegal_penalty, int | float | np.integer | np.floating)
            or not 0 <= illegal_penalty <= MAX_PENALTY
        ):
            raise ValueError(
                f"illegal_penalty must be a number 0..{MAX_PENALTY:g}, got {shown(illegal_penalty)}"
            )
        self.illegal_penalty = float(illegal_penalty)
        self.render_mode = check_render_mode(render_mode)
        self._encoder = ObservationEncoder(self.rules)
        self.observation_space = observation_space(self._encoder.size)
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self.lobby: Lobby | None = None
        self.seat = 0
        self.lobby_seed = 0
        self._agents: list[Any] = []
        self._cheat_specs: list[Any] = []
        self._over = True
        self._turn = 0
        self._potential = 0.0

    def __copy__(self) -> BattlegroundsGymEnv:
        # A shallow copy would share the game (and the opponents) with this one.
        return copy.deepcopy(self)

    # ------------------------------------------------------------ API

    def reset(
        self, *, seed: int | None = None, options: dict | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Start a game (see the module doc for seeds); info holds ``seat`` and
        ``lobby_seed``. ``options`` are accepted and unused.

        >>> env = BattlegroundsGymEnv(opponents="random:7")
        >>> obs, info = env.reset(seed=9)
        >>> info["lobby_seed"], obs.shape
        (9, (2344,))
        """
        from bgsim.registry import make_agent
        from bgsim.seeds import derive_seed

        seed = check_seed(seed)
        super().reset(seed=seed)
        lobby_seed = seed if seed is not None else int(self.np_random.integers(2**63))
        n = self.rules.lobby.players
        seat = self.fixed_seat
        if seat is None:
            seat = derive_seed(lobby_seed, "seat") % n
        self.lobby = lobby = Lobby(lobby_seed, self.rules, heroes=self.heroes)
        self.lobby_seed = lobby_seed
        self.seat = seat
        self._encoder.reset()
        others = [p for p in range(n) if p != seat]
        agents: list[Any] = [None] * n
        cheat_specs: list[Any] = [None] * n  # seats that may be shown the true boards
        for p, spec in zip(others, self.opponents, strict=True):
            agent = make_agent(spec, budget=self.budget)
            agent.reset(p, derive_seed(lobby_seed, "agent", p))
            agents[p] = agent
            if getattr(agent, "cheat", False) is True:
                cheat_specs[p] = spec
        self._agents = agents
        self._cheat_specs = cheat_specs
        self._over = False
        self._turn = lobby.turn
        self._potential = 0.0
        self._advance()
        return self._observe(), {"seat": seat, "lobby_seed": lobby_seed}

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Take the learner's action, then let the opponents play until the
        learner is to act again or its game is over.

        >>> env = BattlegroundsGymEnv(opponents="random:7", seat=3)
        >>> _ = env.reset(seed=9)
        >>> obs, reward, terminated, truncated, info = env.step(703)  # the draft
        >>> obs, reward, terminated, truncated, info = env.step(0)  # EndTurn
        >>> env.lobby.turn, terminated, info
        (2, False, {})
        """
        code = action_code(action)
        lobby = self.lobby
        if lobby is None:
            raise RuntimeError("call reset() before step()")
        if self._over:
            raise RuntimeError("the episode is over: call reset() to start another")
        try:
            lobby.apply(self.seat, code)
        except IllegalActionError as exc:
            if self.illegal_action == "raise":
                raise illegal(f"player_{self.seat}", code, exc) from None
            return self._observe(), -self.illegal_penalty, False, False, {"illegal_action": True}
        reward = 0.0
        if lobby.turn != self._turn or lobby.done:
            reward += self._round_reward()
        reward += self._advance()
        info: dict[str, Any] = {}
        terminated = truncated = False
        if lobby.done or not lobby.alive(self.seat):
            self._over = True
            place = lobby.placements[self.seat]
            info["placement"] = place
            if self.reward_scheme == "placement":
                reward += placement_reward(lobby.players, place)
            if ended_by_turn_bound(lobby):
                truncated = True
            else:
                terminated = True
        return self._observe(), reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """Bool array over the 730 codes, True where the learner's action is
        legal now (all False once the episode is over).

        >>> env = BattlegroundsGymEnv(opponents="random:7")
        >>> _ = env.reset(seed=0)
        >>> env.action_masks().dtype.name, bool(env.action_masks()[703])  # ChooseHero(0)
        ('bool', True)
        """
        lobby = self.lobby
        if lobby is None:
            raise RuntimeError("call reset() before action_masks()")
        return lobby.action_mask(self.seat)

    def render(self) -> str | None:
        """With ``render_mode="ansi"``, the standings and the learner's tavern
        as text; None otherwise.

        >>> env = BattlegroundsGymEnv(opponents="random:7", seat=1, render_mode="ansi")
        >>> _ = env.reset(seed=9)
        >>> env.render().splitlines()[2]
        '*player_1  health  40  tier 1  alive'
        """
        if self.render_mode != "ansi":
            return None
        if self.lobby is None:
            raise RuntimeError("call reset() before render()")
        return render_text(self.lobby, self.seat)

    # ------------------------------------------------------------ inside

    def _observe(self) -> np.ndarray:
        lobby = self.lobby
        assert lobby is not None
        return self._encoder.encode_lobby(lobby, self.seat)

    def _advance(self) -> float:
        """Opponents act until the learner is to act (or is out, or the game
        is over); returns the shaped reward of the rounds played meanwhile."""
        from bgsim.registry import show_true_boards

        lobby = self.lobby
        assert lobby is not None
        me = self.seat
        agents = self._agents
        reward = 0.0
        while not lobby.done and lobby.alive(me):
            p = lobby.to_act()[0]
            if p == me:
                break
            spec = self._cheat_specs[p]
            if spec is not None:  # only the measuring cheat reads the true boards
                show_true_boards(spec, agents[p], lobby, p)
            lobby.apply(p, agents[p].act(lobby.observe(p), lobby.legal_actions(p)))
            if lobby.turn != self._turn or lobby.done:
                reward += self._round_reward()
        return reward

    def _round_reward(self) -> float:
        """After a combat round: the learner's shaped reward (0 under
        ``"placement"``)."""
        lobby = self.lobby
        assert lobby is not None
        self._turn = lobby.turn
        if self.reward_scheme != "shaped":
            return 0.0
        now = potentials(lobby)[self.seat]
        change = now - self._potential
        self._potential = now
        return change
