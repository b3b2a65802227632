"""Load the compiled engine and expose its card table to Python.

``BGSIM_ENGINE`` may name another build of the extension (a path to a ``.so``),
which the sanitizer tests use; normally ``combat_c._engine`` is imported.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
from dataclasses import dataclass
from types import ModuleType

KEYWORD_BITS = {
    "taunt": 1,
    "divine_shield": 2,
    "poisonous": 4,
    "windfury": 8,
    "mega_windfury": 16,
    "reborn": 32,
}
TRIBES = ("beast", "demon", "dragon", "elemental", "mech", "murloc", "pirate")


def _load() -> ModuleType:
    path = os.environ.get("BGSIM_ENGINE")
    if path:
        spec = importlib.util.spec_from_file_location(os.path.basename(path).split(".")[0], path)
        if spec is None or spec.loader is None:
            raise ImportError(f"BGSIM_ENGINE={path} is not a loadable extension")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    try:
        return importlib.import_module("combat_c._engine")  # built by cffi at install
    except ImportError as exc:
        raise ImportError(_not_compiled(os.path.dirname(os.path.abspath(__file__)))) from exc


def _not_compiled(here: str) -> str:
    """What to do when the engine is missing beside ``here`` (this package's
    folder): in a source checkout the usual cause is Python importing the
    checkout instead of the installed copy.

    >>> _not_compiled("/nowhere/combat_c")
    'the combat engine is not compiled; install bgsim with `pip install .`'
    """
    root = os.path.dirname(here)
    if os.path.isfile(os.path.join(root, "pyproject.toml")) and os.path.isdir(
        os.path.join(here, "src")
    ):
        return (
            f"Python is importing bgsim from its source tree ({root}), where the combat engine "
            "is not compiled, instead of the copy `pip install .` installed: this happens when "
            "Python runs inside the cloned repository (or it is on PYTHONPATH). Run Python "
            "from another directory, or build the source tree in place with `pip install -e .`"
        )
    return "the combat engine is not compiled; install bgsim with `pip install .`"


_engine = _load()
ffi = _engine.ffi
lib = _engine.lib


@dataclass(frozen=True, slots=True)
class CardEntry:
    """One row of the engine's card table (normal card; golden via flag)."""

    index: int
    id: str
    golden_id: str | None
    name: str
    tier: int
    tribes: frozenset[str]
    attack: int
    health: int
    golden_attack: int
    golden_health: int
    keywords: int
    golden_keywords: int
    in_pool: bool
    is_spell: bool
    hooks: int

    def stats(self, golden: bool) -> tuple[int, int]:
        return (self.golden_attack, self.golden_health) if golden else (self.attack, self.health)

    def keyword_bits(self, golden: bool) -> int:
        return self.golden_keywords if golden else self.keywords


def _read_table() -> tuple[tuple[CardEntry, ...], dict[str, tuple[int, bool]]]:
    rows = []
    ids: dict[str, tuple[int, bool]] = {}
    for i in range(lib.bg_card_count()):
        info = lib.bg_card(i)
        golden_id = ffi.string(info.golden_id).decode() or None
        entry = CardEntry(
            index=i,
            id=ffi.string(info.id).decode(),
            golden_id=golden_id,
            name=ffi.string(info.name).decode(),
            tier=info.tier,
            tribes=frozenset(t for b, t in enumerate(TRIBES) if info.tribes & (1 << b)),
            attack=info.atk,
            health=info.hp,
            golden_attack=info.gatk,
            golden_health=info.ghp,
            keywords=info.kw,
            golden_keywords=info.gkw,
            in_pool=bool(info.flags & 1),
            is_spell=bool(info.flags & 2),
            hooks=lib.bg_card_hooks(i),
        )
        rows.append(entry)
        ids[entry.id] = (i, False)
        if golden_id:
            ids[golden_id] = (i, True)
    return tuple(rows), ids


CARDS, CARD_IDS = _read_table()


@dataclass(frozen=True, slots=True)
class HeroEntry:
    """A hero card of the engine's table and its own hero power."""

    id: str
    name: str
    power: str


def _read_heroes() -> tuple[dict[str, HeroEntry], dict[str, str], tuple[str, ...], dict[str, str]]:
    """Heroes by id, hero power names by id, the Secrets by engine code
    (index 0 unused) and Secret names by id, all from the engine's tables."""
    heroes = {}
    for i in range(lib.bg_hero_count()):
        h = lib.bg_hero(i)
        entry = HeroEntry(
            ffi.string(h.id).decode(), ffi.string(h.name).decode(), ffi.string(h.power).decode()
        )
        heroes[entry.id] = entry
    powers = {}
    for i in range(lib.bg_hero_power_count()):
        p = lib.bg_hero_power(i)
        powers[ffi.string(p.id).decode()] = ffi.string(p.name).decode()
    secrets = [""]
    names = {}
    for code in range(1, lib.BG_N_SECRET_KINDS):
        s = lib.bg_secret(code)
        secrets.append(ffi.string(s.id).decode())
        names[secrets[-1]] = ffi.string(s.name).decode()
    return heroes, powers, tuple(secrets), names


HEROES, HERO_POWERS, SECRET_CODES, SECRET_NAMES = _read_heroes()
