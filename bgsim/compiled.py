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

import ast
import contextlib
import functools
import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from pathlib import Path
from typing import Any

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


class _SourceDoc:
    """A compiled class's docstring (mypyc keeps none), read from its source
    when first asked for: ``help()`` and ``__doc__`` show it, and importing
    costs nothing. Methods' docstrings cannot come back this way (a compiled
    method's ``__doc__`` is read-only); the API reference has them."""

    def __init__(self, path: Path, name: str, kept: object) -> None:
        self.path = path
        self.name = name
        self.kept = kept

    def __get__(self, instance: object, owner: object = None) -> object:
        doc = _class_docs(self.path).get(self.name)
        return self.kept if doc is None else doc


@functools.cache
def _class_docs(path: Path) -> dict[str, str]:
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError):
        return {}
    return {
        node.name: doc
        for node in tree.body
        if isinstance(node, ast.ClassDef) and (doc := ast.get_docstring(node)) is not None
    }


def _module_doc(path: Path) -> str | None:
    """The docstring at the top of a module's source (as Python keeps it,
    uncleaned), found by reading past
    blank and comment lines to a triple-quoted string (not by parsing the
    file: importing pays microseconds for it)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, ValueError):
        return None
    at = 0
    while True:
        line_end = text.find("\n", at)
        line = text[at : len(text) if line_end < 0 else line_end].strip()
        if line and not line.startswith("#"):
            break
        if line_end < 0:
            return None
        at = line_end + 1
    at += len(text[at:]) - len(text[at:].lstrip())
    opening = at + 1 if text.startswith(("r", "R"), at) else at
    quote = text[opening : opening + 3]
    if quote not in ('"""', "'''"):
        return None
    closing = text.find(quote, opening + 3)
    try:
        doc = ast.literal_eval(text[at : closing + 3]) if closing > 0 else None
    except (SyntaxError, ValueError):
        return None
    return doc if isinstance(doc, str) else None


class _DocLoader(importlib.abc.Loader):
    """Loads a compiled module as its own loader does, then gives it its
    docstring back, and its classes theirs (:class:`_SourceDoc`)."""

    def __init__(self, inner: Any, name: str) -> None:
        self.inner = inner
        self.name = name

    def create_module(self, spec: Any) -> Any:
        return self.inner.create_module(spec)

    def exec_module(self, module: Any) -> None:
        self.inner.exec_module(module)
        path = source_path(self.name)
        if module.__doc__ is None:
            module.__doc__ = _module_doc(path)
        for obj in list(vars(module).values()):
            if isinstance(obj, type) and obj.__module__ == self.name:
                with contextlib.suppress(AttributeError, TypeError):  # a type keeping its own
                    doc = _SourceDoc(path, obj.__name__, obj.__dict__.get("__doc__"))
                    setattr(obj, "__doc__", doc)  # noqa: B010 (a descriptor, not a str)


class _DocFinder(importlib.abc.MetaPathFinder):
    """Finds the listed modules' compiled extensions, loaded by :class:`_DocLoader`."""

    def find_spec(self, fullname: str, path: Any = None, target: object = None) -> Any:
        if fullname not in MODULES:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is not None and spec.loader is not None:
            spec.loader = _DocLoader(spec.loader, fullname)
        return spec


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
    if _STATUS == "compiled" and not any(isinstance(f, _DocFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _DocFinder())
    return _STATUS


_STATUS = ""
