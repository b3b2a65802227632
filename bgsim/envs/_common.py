"""What the PettingZoo and Gymnasium environments share: argument checks,
seeds, rewards and the spaces. Gymnasium is imported here, so only
``bgsim.envs`` (never ``bgsim`` itself) imports this module."""

from __future__ import annotations

import operator
import random
from numbers import Integral
from typing import Any, SupportsIndex, cast

import numpy as np
from gymnasium import spaces

# The bgsim internals the environments use, in one place.
from bgsim.actions import ACTIONS, CHOOSE_HERO_BASE, NUM_ACTIONS, POWER_BASE, IllegalActionError
from bgsim.lobby import Lobby
from bgsim.ruleset import Ruleset, load_ruleset
from combat_c.guarded import shown

__all__ = [
    "ACTIONS",
    "CHOOSE_HERO_BASE",
    "NUM_ACTIONS",
    "POWER_BASE",
    "REWARDS",
    "IllegalActionError",
    "Lobby",
    "Ruleset",
    "action_code",
    "check_heroes",
    "check_reward",
    "check_ruleset",
    "check_seed",
    "ended_by_turn_bound",
    "illegal",
    "next_seed",
    "observation_space",
    "placement_reward",
    "potentials",
    "render_text",
]

REWARDS = ("placement", "shaped")
"""Reward schemes: ``placement`` pays ``(n + 1) / 2 - placement`` when a
player's game ends (placement 1-based; +3.5 for 1st to -3.5 for 8th with
eight players, zero-sum); ``shaped`` pays, after every combat round, the
change of the player's standing ``(n + 1) / 2 - provisional place`` (see
:func:`potentials`), which adds up over a game to the same total."""

_MAX_SEED = 2**64


def check_seed(seed: object) -> int | None:
    """The seed as an int (None stays None); a clear error for anything else."""
    if seed is None:
        return None
    if isinstance(seed, bool | np.bool_) or not isinstance(seed, Integral):
        raise TypeError(f"seed must be a non-negative integer or None, got {shown(seed)}")
    value = int(seed)
    if not 0 <= value < _MAX_SEED:
        raise ValueError(f"seed must be a non-negative integer below 2**64, got {shown(value)}")
    return value


class RenderModeError(ValueError, TypeError):
    """A render mode the environments do not have. It is a TypeError too:
    Stable-Baselines3's ``make_vec_env`` asks for ``"rgb_array"`` and makes
    the environment again without a render mode only when that raises a
    TypeError.

    >>> isinstance(RenderModeError("x"), TypeError)
    True
    """


def check_render_mode(render_mode: object) -> Any:
    """``render_mode`` if the environments have it (None or ``"ansi"``).

    >>> check_render_mode("rgb_array")
    Traceback (most recent call last):
    ...
    bgsim.envs._common.RenderModeError: render_mode must be None or "ansi", got 'rgb_array'
    """
    if render_mode not in (None, "ansi"):
        raise RenderModeError(f'render_mode must be None or "ansi", got {shown(render_mode)}')
    return render_mode


def check_reward(reward: object) -> str:
    if reward not in REWARDS:
        raise ValueError(f"reward must be one of {', '.join(REWARDS)}, got {shown(reward)}")
    return str(reward)


def check_heroes(heroes: object) -> bool:
    """The ``heroes`` option as a bool; a clear error for anything else."""
    if not isinstance(heroes, bool | np.bool_):
        raise TypeError(f"heroes must be True or False, got {shown(heroes)}")
    return bool(heroes)


def check_ruleset(ruleset: object) -> Ruleset:
    if ruleset is None:
        return load_ruleset()
    if not isinstance(ruleset, Ruleset):
        raise TypeError(f"ruleset must be a bgsim Ruleset or None, got {shown(ruleset)}")
    return ruleset.check()


def action_code(action: object) -> int:
    """An action as an int code 0..NUM_ACTIONS-1: Python and numpy integers
    (also 0-d integer arrays) pass, anything else is a clear error."""
    if type(action) is int:
        code = action
    elif integral(action):
        code = operator.index(cast(SupportsIndex, action))
    else:
        raise TypeError(
            f"an action must be an integer code 0..{NUM_ACTIONS - 1}, got {shown(action)}"
        )
    if not 0 <= code < NUM_ACTIONS:
        raise ValueError(f"action code {shown(code)} is out of range 0..{NUM_ACTIONS - 1}")
    return code


def known_agent(agents: list[str], agent: object) -> str:
    """``agent`` if it is one of ``agents``, else a ValueError naming them.

    >>> known_agent(["player_0", "player_1"], "player_1")
    'player_1'
    >>> known_agent(["player_0", "player_1"], "player_9")
    Traceback (most recent call last):
    ...
    ValueError: no agent 'player_9' (agents are player_0, player_1)
    """
    if isinstance(agent, str) and agent in agents:
        return agent
    raise ValueError(f"no agent {shown(agent)} (agents are {', '.join(agents)})")


def integral(value: object) -> bool:
    """Python or numpy integers (bools excluded), and 0-d integer arrays.

    >>> integral(np.int64(3)), integral(True), integral(3.0)
    (True, False, False)
    """
    if isinstance(value, np.ndarray):
        return value.shape == () and np.issubdtype(value.dtype, np.integer)
    return isinstance(value, np.integer | Integral) and not isinstance(value, bool | np.bool_)


def next_seed(seed: int | None, seeder: random.Random | None) -> tuple[int, random.Random]:
    """The lobby seed of a reset and the generator later unseeded resets draw
    from: ``reset(seed=s)`` plays lobby ``s``; a reset without a seed draws
    the next lobby seed from a generator seeded by the last seed given (from
    the operating system if none was)."""
    if seed is not None:
        return seed, random.Random(seed)
    if seeder is None:
        seeder = random.Random()
    return seeder.getrandbits(63), seeder


def placement_reward(players: int, placement: int) -> float:
    """``(n + 1) / 2 - placement``: +3.5 for 1st, -3.5 for 8th of eight.

    >>> placement_reward(8, 1), placement_reward(8, 8)
    (3.5, -3.5)
    """
    return (players + 1) / 2 - placement


def potentials(lobby: Lobby) -> list[float]:
    """Every seat's standing as ``(n + 1) / 2 - provisional place``: a player
    out of the game has their placement; the living share the top places by
    health, tied players the mean of the places they tie for. All zero at the
    start, the placement reward at the end, summing to zero throughout.

    >>> potentials(Lobby(1))
    [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
    """
    public = lobby.public_players()
    n = len(public)
    mid = (n + 1) / 2
    alive = [p.health for p in public if p.alive and p.placement is None]
    out = []
    for p in public:
        if p.placement is not None:
            out.append(mid - p.placement)
        else:
            above = sum(h > p.health for h in alive)
            tied = sum(h == p.health for h in alive)
            out.append(mid - (1 + above + (tied - 1) / 2))
    return out


def ended_by_turn_bound(lobby: Lobby) -> bool:
    """Whether a finished lobby stopped at its safety bound on turns (more than
    one player standing) rather than by knock-outs."""
    return lobby.done and sum(p.alive for p in lobby.public_players()) > 1


def observation_space(size: int) -> spaces.Box:
    return spaces.Box(0.0, 1.0, shape=(size,), dtype=np.float32)


def illegal(who: str, code: int, error: Exception) -> IllegalActionError:
    """The error for an illegal action, naming the player, the code and why."""
    return IllegalActionError(f"{who}: action {code} is illegal now ({error})")


def render_text(lobby: Lobby, seat: int | None) -> str:
    """The standings and, for ``seat``, the tavern, as text (render mode "ansi")."""
    lines = [f"turn {lobby.turn}" + (" (game over)" if lobby.done else "")]
    if lobby.heroes and lobby.turn == 0:
        lines[0] += " (the heroes' draft)"
    for p in lobby.public_players():
        status = f"place {p.placement}" if p.placement is not None else "alive"
        mark = "*" if p.player == seat else " "
        lines.append(f"{mark}player_{p.player}  health {p.health:3d}  tier {p.tier}  {status}")
    if seat is not None:
        s = lobby.state(seat)
        lines.append(f"player_{seat}: gold {s.gold}, upgrade {s.upgrade_cost}")
        for name, zone in (
            ("shop", s.shop),
            ("hand", s.hand),
            ("board", s.board),
            ("discover", s.discover),
        ):
            if zone or name != "discover":
                lines.append(f"  {name}: " + (", ".join(str(c) for c in zone) or "-"))
    return "\n".join(lines)
