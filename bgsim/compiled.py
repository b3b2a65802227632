"""Which modules ``pip install`` compiles with mypyc, and the guard that keeps
a stale compiled build from running.

The recruit rules and the heuristic are plain Python, and they stay the only
source of their behaviour. The build compiles the modules in :data:`MODULES`
to C extensions with mypyc (``setup.py``), which runs a search about 2.4 times
as fast. The extension modules sit beside their sources and Python imports
them first, so after an edit to a source the old compiled code would run. To
prevent that, the build records a hash of every source it compiled
(:data:`HASHES`), and :func:`guard` checks them on import: if any differs, or
``BGSIM_PURE=1`` is set, every listed module is imported from its source
instead (all or none: compiled modules call each other directly).

This module imports nothing outside the standard library: ``setup.py`` reads
:data:`MODULES` before the package's dependencies are installed.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.util
import json
import os
import sys
import warnings
from pathlib import Path

# Hot paths of a search: the recruit rules, the player state, the card
# effects, the agents' policies and the search itself.
MODULES = (
    "bgsim._core.minions",
    "bgsim._core.hero_state",
    "bgsim._core.player_state",
    "bgsim._core.pool",
    "bgsim._core.recruit_turn",
    "bgsim._core.recruit_effects",
    "bgsim._core.spell_effects",
    "bgsim._core.spells_prizes",
    "bgsim._core.spells",
    "bgsim._core.power_effects",
    "bgsim._core.heroes_economy",
    "bgsim._core.heroes_game",
    "bgsim._core.heroes_tavern",
    "bgsim._core.heroes_warband",
    "bgsim._core.hero_powers",
    "bgsim._core.tavern",
    "bgsim._core.turn_model",
    "agents.belief",
    "agents.hero_policy",
    "agents.heuristic",
    "agents.rollout",
    "agents.ismcts",
    "agents.arrange",
    "agents.mcts",
    "bgsim.envs.encoding",  # the RL environments' observation encoder, run every step
)
HASHES = "_compiled.json"  # beside this file: {module: sha256 of the source compiled}
ROOT = Path(__file__).resolve().parent.parent


def source_path(module: str, root: Path = ROOT) -> Path:
    return root.joinpath(*module.split(".")).with_suffix(".py")


def source_hashes(root: Path = ROOT) -> dict[str, str]:
    return {m: hashlib.sha256(source_path(m, root).read_bytes()).hexdigest() for m in MODULES}


def changed_modules(built: dict[str, str], root: Path = ROOT) -> list[str]:
    """The listed modules whose source differs from the one the build compiled
    (``built``: the hashes it recorded)."""
    return [m for m, h in source_hashes(root).items() if built.get(m) != h]


class _SourceFinder(importlib.abc.MetaPathFinder):
    """Finds the listed modules' ``.py`` sources ahead of their extensions."""

    def find_spec(self, fullname: str, path: object = None, target: object = None):
        if fullname not in MODULES:
            return None
        return importlib.util.spec_from_file_location(fullname, source_path(fullname))


def status() -> str:
    """``"compiled"``, ``"pure"`` (no compiled build, or ``BGSIM_PURE=1``) or
    ``"stale"`` (sources changed since the build: running them as pure Python)."""
    return _STATUS


def guard() -> str:
    """Decide, once per process before any listed module is imported, whether
    the compiled modules may run; see the module doc."""
    global _STATUS
    if _STATUS:
        return _STATUS
    recorded = Path(__file__).with_name(HASHES)
    if os.environ.get("BGSIM_PURE", "") not in ("", "0") or not recorded.exists():
        _STATUS = "pure"
    else:
        try:
            built = json.loads(recorded.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            built = {}
        changed = changed_modules(built)
        _STATUS = "stale" if changed else "compiled"
        if changed:
            warnings.warn(
                f"bgsim: {source_path(changed[0], Path()).as_posix()} changed since it was "
                "compiled, so the compiled modules are set aside and the sources run as "
                "pure Python, which is slower; run `pip install -e .` again to "
                "recompile",
                stacklevel=2,
            )
    if _STATUS != "compiled" and not any(isinstance(f, _SourceFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _SourceFinder())
    return _STATUS


_STATUS = ""
