"""Agents that play bgsim lobbies from their observations alone, and the arena
that pits them against each other (DESIGN.md, layer ``agents/``)."""

import bgsim  # noqa: F401  (first: it decides whether compiled modules may load)
from agents.base import Agent
from agents.random_agent import RandomAgent
from agents.registry import AGENTS, AgentSpec, make_agent, parse_lineup

__all__ = ["AGENTS", "Agent", "AgentSpec", "RandomAgent", "make_agent", "parse_lineup"]
