"""`bgsim bench env`: what the environments cost over driving a Lobby directly.

The same games (with heroes, as the environments play by default) three
ways, each with a masked-uniform-random policy whose generator is seeded by
the lobby seed (so the games are identical, which the bench checks by their
placements):

- ``lobby``: ``Lobby`` driven directly: the first player of ``to_act()``
  picks from ``action_mask``, as the AEC environment orders play.
- ``aec``: ``battlegrounds_v0.env()``, the
  usual ``agent_iter()`` / ``last()`` / ``step()`` loop, observations encoded.
- ``gym``: ``gymnasium.make("bgsim/Battlegrounds-v0", opponents="random:7")``
  (Gymnasium's own wrappers included), the learner picking from
  ``action_masks()``; compared with ``lobby_gym``, the same games with
  ``Lobby`` driven directly (the learner's seat by the same policy, the
  others by bgsim's random agent seeded as the environment seeds them).

Every game is played each way in turn, ``repeat`` times, and per game and
way the fastest run counts (a shared machine only ever slows a run down);
times are the CPU time of the process.

>>> r = bench_env(lobbies=1, repeat=1)
>>> sorted(r["seconds"])
['aec', 'gym', 'lobby', 'lobby_gym']
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np

from bgsim.envs._common import Lobby


def masked_random(mask: np.ndarray, rng: np.random.Generator) -> int:
    """A uniformly random legal code of ``mask`` (bool, or 0/1 int8 as the
    PettingZoo environments give it: read as bool, numpy's fast path).

    >>> masked_random(np.array([0, 1, 0], dtype=np.int8), np.random.default_rng(0))
    1
    """
    legal = np.flatnonzero(mask.view(np.bool_))
    return int(legal[rng.integers(legal.size)])


def lobby_game(seed: int, heroes: bool = True) -> tuple[tuple[int, ...], int]:
    """One game through ``Lobby`` directly: (placements by seat, actions).

    >>> placements, actions = lobby_game(3)
    >>> sorted(placements) == list(range(1, 9))
    True
    """
    rng = np.random.default_rng(seed)
    lobby = Lobby(seed, heroes=heroes)
    steps = 0
    while not lobby.done:
        p = lobby.to_act()[0]
        lobby.apply(p, masked_random(lobby.action_mask(p), rng))
        steps += 1
    return tuple(lobby.placements[p] for p in range(lobby.players)), steps


def aec_game(env: Any, seed: int) -> tuple[tuple[int, ...], int]:
    """The same game through the AEC environment ``env``.

    >>> from bgsim.envs import battlegrounds_v0
    >>> aec_game(battlegrounds_v0.env(), 3) == lobby_game(3)
    True
    """
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    steps = 0
    for _agent in env.agent_iter():
        obs, _reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        env.step(masked_random(obs["action_mask"], rng))
        steps += 1
    lobby = env.unwrapped.lobby
    return tuple(lobby.placements[p] for p in range(lobby.players)), steps


def gym_game(env: Any, seed: int) -> tuple[tuple[int, int], int]:
    """A game through the Gymnasium environment ``env`` (random opponents):
    ((seat, placement) of the learner, learner actions).

    >>> import gymnasium
    >>> from bgsim.envs import GYM_ID
    >>> (seat, place), actions = gym_game(gymnasium.make(GYM_ID, opponents="random:7"), 3)
    >>> 1 <= place <= 8
    True
    """
    rng = np.random.default_rng(seed)
    _obs, info = env.reset(seed=seed)
    inner = env.unwrapped
    steps = 0
    while True:
        _obs, _reward, terminated, truncated, last = env.step(
            masked_random(inner.action_masks(), rng)
        )
        steps += 1
        if terminated or truncated:
            return (info["seat"], last["placement"]), steps


def lobby_gym_game(seed: int, seat: int, heroes: bool = True) -> tuple[tuple[int, int], int]:
    """The game of :func:`gym_game` through ``Lobby`` directly.

    >>> import gymnasium
    >>> from bgsim.envs import GYM_ID
    >>> env = gymnasium.make(GYM_ID, opponents="random:7")
    >>> (seat, place), actions = gym_game(env, 3)
    >>> lobby_gym_game(3, seat) == ((seat, place), actions)
    True
    """
    from bgsim.registry import make_agent, parse_spec
    from bgsim.seeds import derive_seed

    rng = np.random.default_rng(seed)
    lobby = Lobby(seed, heroes=heroes)
    agents: list[Any] = []
    for p in range(lobby.players):
        agent = make_agent(parse_spec("random"))
        agent.reset(p, derive_seed(seed, "agent", p))
        agents.append(agent)
    steps = 0
    while not lobby.done and lobby.alive(seat):
        p = lobby.to_act()[0]
        if p == seat:
            lobby.apply(p, masked_random(lobby.action_mask(p), rng))
            steps += 1
        else:
            lobby.apply(p, agents[p].act(lobby.observe(p), lobby.legal_actions(p)))
    return (seat, lobby.placements[seat]), steps


def bench_env(
    lobbies: int = 20,
    seed: int = 0,
    repeat: int = 3,
    log: Callable[[str], None] | None = None,
    heroes: bool = True,
) -> dict:
    """Seconds for ``lobbies`` games each way (the fastest of ``repeat``
    runs), the environments' overhead over ``Lobby`` and actions per second;
    ``heroes`` as the environments take it.

    >>> r = bench_env(lobbies=1, repeat=1)
    >>> sorted(r["overhead"])
    ['aec', 'gym']
    """
    import gymnasium

    from bgsim import compiled
    from bgsim.envs import GYM_ID, battlegrounds_v0
    from bgsim.seeds import derive_seed

    if lobbies < 1 or repeat < 1:
        raise ValueError("lobbies and repeat must be at least 1")
    seeds = [derive_seed("bench-env", seed, k) for k in range(lobbies)]
    aec = battlegrounds_v0.env(heroes=heroes)
    gym = gymnasium.make(GYM_ID, opponents="random:7", heroes=heroes)
    seats: dict[int, int] = {}

    def run_gym(s: int) -> tuple:
        out = gym_game(gym, s)
        seats[s] = out[0][0]
        return out

    runs: dict[str, Callable[[int], tuple]] = {
        "lobby": lambda s: lobby_game(s, heroes),
        "aec": lambda s: aec_game(aec, s),
        "gym": run_gym,
        "lobby_gym": lambda s: lobby_gym_game(s, seats[s], heroes),
    }
    # Game by game, each way in turn, ``repeat`` times; per game and way the
    # fastest run counts. CPU time of this process: other processes on a
    # shared machine slow it less than they slow the wall clock.
    best = {name: [float("inf")] * lobbies for name in runs}
    results: dict[str, list] = {name: [None] * lobbies for name in runs}
    clock = time.process_time
    for _ in range(repeat):
        for k, s in enumerate(seeds):
            for name, run in runs.items():
                start = clock()
                results[name][k] = run(s)
                best[name][k] = min(best[name][k], clock() - start)
    if results["lobby"] != results["aec"]:
        raise AssertionError("the AEC environment played other games than the Lobby")
    if results["gym"] != results["lobby_gym"]:
        raise AssertionError("the Gymnasium environment played other games than the Lobby")
    seconds = {name: sum(times) for name, times in best.items()}
    steps = {name: sum(r[1] for r in rs) for name, rs in results.items()}
    out: dict[str, Any] = {
        "build": compiled.status(),
        "lobbies": lobbies,
        "repeat": repeat,
        "heroes": heroes,
        "seconds": seconds,
        "actions": steps,  # all players' (lobby, aec); the learner's (lobby_gym, gym)
        "actions_per_second": {name: steps[name] / seconds[name] for name in runs},
        "overhead": {
            "aec": seconds["aec"] / seconds["lobby"] - 1,
            "gym": seconds["gym"] / seconds["lobby_gym"] - 1,
        },
    }
    if log:
        log(
            f"{lobbies} lobbies each way{', with heroes' if heroes else ''}, masked-random "
            f"play, fastest of {repeat} runs per game (CPU seconds, one core)"
        )
        for name, label, who in (
            ("lobby", "Lobby directly", "actions/s"),
            ("aec", "battlegrounds_v0.env()", "actions/s"),
            ("lobby_gym", "Lobby, learner + 7 random", "learner actions/s"),
            ("gym", "Battlegrounds-v0 (gym)", "learner actions/s"),
        ):
            rate = out["actions_per_second"][name]
            log(f"  {label:28s} {seconds[name]:7.3f} s  {rate:9,.0f} {who}")
        log(f"  AEC overhead over Lobby   {out['overhead']['aec']:+7.1%}")
        log(f"  Gym overhead over Lobby   {out['overhead']['gym']:+7.1%}")
    return out
