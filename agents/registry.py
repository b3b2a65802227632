"""Agents by name, and the lineup syntax of ``bgsim tournament``.

A lineup lists agents and how many seats each takes, e.g. ``mcts:1,heuristic:7``.
Options go in brackets: ``mcts[cheat]:1``, ``mcts[c=0.7,rollout=2]:1``; a bare
key means true. The bracketed form is also the agent's label in results.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from agents.base import Agent

# name -> "module:class". Each class takes its options as keyword arguments.
AGENTS: dict[str, str] = {
    "random": "agents.random_agent:RandomAgent",
    "heuristic": "agents.heuristic:HeuristicAgent",
    "greedy": "agents.greedy:GreedyAgent",
    "mcts": "agents.mcts:MCTSAgent",
}

_ITEM = re.compile(r"^\s*([a-z_]+)(?:\[([^\]]*)\])?\s*(?::\s*(\d+))?\s*$")


class LineupError(ValueError):
    """A lineup or agent spec that cannot be used; the message says why."""


@dataclass(frozen=True)
class AgentSpec:
    name: str
    options: tuple[tuple[str, Any], ...] = field(default=())

    @property
    def label(self) -> str:
        if not self.options:
            return self.name
        inner = ",".join(k if v is True else f"{k}={v}" for k, v in self.options)
        return f"{self.name}[{inner}]"


def _value(text: str) -> Any:
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    return text


def parse_spec(text: str) -> AgentSpec:
    match = _ITEM.match(text)
    if not match or match.group(3) is not None:
        raise LineupError(f"bad agent spec {text!r}; expected name or name[key=value,...]")
    return _spec(match.group(1), match.group(2))


def _spec(name: str, inner: str | None) -> AgentSpec:
    if name not in AGENTS:
        raise LineupError(f"unknown agent {name!r}; choose from {', '.join(sorted(AGENTS))}")
    options = []
    for part in (inner or "").split(","):
        part = part.strip()
        if not part:
            continue
        key, _, raw = part.partition("=")
        options.append((key.strip(), _value(raw.strip()) if raw else True))
    return AgentSpec(name, tuple(sorted(options)))


def parse_lineup(text: str, seats: int = 8) -> list[AgentSpec]:
    """``"mcts:1,heuristic:7"`` -> one AgentSpec per seat (in lineup order)."""
    out: list[AgentSpec] = []
    for item in split_lineup(text):
        if not item.strip():
            continue
        match = _ITEM.match(item)
        if not match:
            raise LineupError(f"bad lineup item {item!r}; expected name:count or name[opts]:count")
        count = int(match.group(3) or 1)
        out.extend([_spec(match.group(1), match.group(2))] * count)
    if len(out) != seats:
        raise LineupError(f"the lineup fills {len(out)} seats; a lobby has {seats}")
    return out


def split_lineup(text: str) -> list[str]:
    """Split on commas that are not inside brackets."""
    parts, depth, cur = [], 0, []
    for ch in text:
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur))
    return parts


def make_agent(spec: AgentSpec, **common: Any) -> Agent:
    """Build the agent; ``common`` options (e.g. budget) go to agents that take them."""
    module, _, cls_name = AGENTS[spec.name].partition(":")
    cls: Callable[..., Agent] = getattr(importlib.import_module(module), cls_name)
    kwargs = dict(spec.options)
    accepted = getattr(cls, "OPTIONS", ())
    for key in kwargs:
        if key not in accepted:
            raise LineupError(
                f"agent {spec.name!r} has no option {key!r}"
                + (f"; it takes {', '.join(accepted)}" if accepted else "")
            )
    for key, value in common.items():
        if key in accepted and key not in kwargs and value is not None:
            kwargs[key] = value
    agent = cls(**kwargs)
    agent.name = spec.label
    return agent
