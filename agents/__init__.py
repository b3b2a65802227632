"""The bundled agents and the tools that pit agents against each other
(DESIGN.md, layer ``agents/``).

- :mod:`agents.random_agent`, :mod:`agents.greedy`, :mod:`agents.heuristic`
  and :mod:`agents.mcts`: the agents that ship with bgsim;
- :mod:`agents.belief`: guesses of the hidden enemy warbands;
- :mod:`agents.ismcts` and :mod:`agents.arrange`: the generic search and the
  end-of-turn warband optimizer the MCTS agent is built from;
- :mod:`agents.arena` and :mod:`agents.results_db`: tournaments and their
  SQLite results.

Agents use bgsim's public API only (``import bgsim``); an import-linter
contract in the test suite holds them to it.
"""

import bgsim  # noqa: F401  (first: it decides whether compiled modules may load)
