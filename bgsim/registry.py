"""Agents by name, the lineup syntax of ``bgsim tournament``, and agent
fingerprints.

A lineup lists agents and how many seats each takes, e.g.
``mcts:1,heuristic:7``. Options go in brackets: ``mcts[cheat]:1``,
``mcts[c=0.7,horizon=2]:1``; a bare key means true. The bracketed form is
also the agent's label in results.

Names resolve, in this order, to the agents given by the caller (``bgsim
tournament --agent mine=my_pkg.my_module:MyAgent``), the bundled ones
(:data:`BUNDLED`) and those installed packages register under the entry-point
group ``bgsim.agents``::

    [project.entry-points."bgsim.agents"]
    mine = "my_pkg.my_module:MyAgent"

An agent class takes its options as keyword arguments; it lists them in an
``OPTIONS`` class attribute, or else its ``__init__`` parameters are its
options. A value (a number, true/false or text) must suit the ``int``,
``float`` or ``bool`` annotation of the ``__init__`` parameter it goes to,
where there is one. It
is imported by its ``module:Class`` string wherever a game is played (a
worker process, a Ray node), so bgsim imports no agent module itself.

>>> specs = parse_lineup("heuristic[curve=fast]:1,random:7")
>>> specs[0].label, specs[0].target, len(specs)
('heuristic[curve=fast]', 'agents.heuristic:HeuristicAgent', 8)
>>> make_agent(specs[1]).name
'random'
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.metadata
import inspect
import json
import math
import os
import re
import site
import stat
import sys
import sysconfig
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any, cast

from bgsim.agent import Agent, described, raised_at
from bgsim.resources import data_dir
from combat_c.guarded import shown

__all__ = [
    "BUNDLED",
    "ENTRY_POINT_GROUP",
    "AgentSpec",
    "LineupError",
    "accepted_options",
    "agent_class",
    "check_lineup",
    "fingerprint",
    "game_fingerprint",
    "installed_agents",
    "known_agents",
    "make_agent",
    "parse_agent_option",
    "parse_lineup",
    "parse_spec",
    "show_true_boards",
    "split_lineup",
]

BUNDLED: dict[str, str] = {
    "random": "agents.random_agent:RandomAgent",
    "heuristic": "agents.heuristic:HeuristicAgent",
    "greedy": "agents.greedy:GreedyAgent",
    "mcts": "agents.mcts:MCTSAgent",
}
"""The agents that ship with bgsim, name -> ``module:Class``."""

ENTRY_POINT_GROUP = "bgsim.agents"
MAX_SEATS = 8

_NAME = re.compile(r"^[a-z_][a-z0-9_]*$")
_ITEM = re.compile(r"^\s*([a-z_][a-z0-9_]*)(?:\[([^\]]*)\])?\s*(?::\s*(\d+))?\s*$")
_TARGET = re.compile(r"^[A-Za-z_][\w.]*:[A-Za-z_]\w*$")
# bgsim's own top-level packages (pyproject's packages and py-modules): a
# user's module of the same name is shadowed by them.
_OWN_PACKAGES = frozenset({"agents", "bgsim", "bgsim_launch", "combat_c", "viz"})


class LineupError(ValueError):
    """A lineup, agent spec or agent that cannot be used; the message says why.

    >>> try:
    ...     parse_lineup("random:7")
    ... except LineupError as error:
    ...     print(error)
    the lineup fills 7 seats; a lobby has 8
    """


@dataclass(frozen=True)
class AgentSpec:
    """One seat's agent: its name, its options and the ``module:Class`` it is
    built from.

    >>> AgentSpec("mcts", (("c", 0.5), ("cheat", True)), "agents.mcts:MCTSAgent").label
    'mcts[c=0.5,cheat]'
    """

    name: str
    options: tuple[tuple[str, Any], ...] = field(default=())
    target: str = ""

    @property
    def label(self) -> str:
        """The agent's label in results: its name with its options."""
        if not self.options:
            return self.name
        inner = ",".join(k if v is True else f"{k}={v}" for k, v in self.options)
        return f"{self.name}[{inner}]"


def show_true_boards(spec: AgentSpec, agent: object, lobby: Any, seat: int) -> None:
    """Before the agent of ``seat`` acts: when its lineup entry asks to cheat
    (the ``cheat`` option, so results label it ``[cheat]``) and it has a true
    ``cheat`` attribute, set its ``true_boards`` to a function returning the
    enemy warbands as they stand now (:meth:`bgsim.Lobby.true_warbands`), the
    baseline that measures what guessing costs. The function holds those
    boards only, never the lobby; any other agent gets nothing.

    >>> from bgsim import Lobby
    >>> class Peek:
    ...     cheat = True
    ...     true_boards = None
    >>> agent = Peek()
    >>> show_true_boards(AgentSpec("peek", (("cheat", True),)), agent, Lobby(1), 0)
    >>> sorted(agent.true_boards())[:2]
    [1, 2]
    >>> show_true_boards(AgentSpec("peek"), Peek(), Lobby(1), 0)  # not asked: nothing
    """
    if dict(spec.options).get("cheat") is not True or getattr(agent, "cheat", False) is not True:
        return
    boards = lobby.true_warbands(seat)
    cast(Any, agent).true_boards = lambda: boards


@cache
def installed_agents() -> dict[str, str]:
    """Agents that installed packages register under the ``bgsim.agents``
    entry-point group, name -> ``module:Class``.

    >>> isinstance(installed_agents(), dict)
    True
    """
    found: dict[str, str] = {}
    for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        found[ep.name] = ep.value
    return found


def known_agents(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """Every agent name a lineup may use: ``extra`` first, then the bundled
    ones, then the installed ones.

    >>> sorted(known_agents())[:4]
    ['greedy', 'heuristic', 'mcts', 'random']
    """
    out = dict(installed_agents())
    out.update(BUNDLED)
    out.update(extra or {})
    return out


def parse_agent_option(text: str) -> tuple[str, str]:
    """``NAME=module:Class`` (the ``--agent`` option) as (name, target); a
    bundled agent's name is refused.

    >>> parse_agent_option("mine=my_pkg.my_module:MyAgent")
    ('mine', 'my_pkg.my_module:MyAgent')
    """
    name, sep, target = text.partition("=")
    name, target = name.strip(), target.strip()
    if not sep or not _NAME.match(name) or not _TARGET.match(target):
        raise LineupError(
            f"bad --agent {shown(text, 80)}; expected NAME=module:Class, e.g. "
            "mine=my_pkg.my_module:MyAgent (NAME in lower case letters, digits and _)"
        )
    if name in BUNDLED:
        raise LineupError(f"--agent {name}=...: {name} is a bundled agent; give yours another name")
    return name, target


def _value(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    return text


def _spec(name: str, inner: str | None, agents: Mapping[str, str]) -> AgentSpec:
    if name not in agents:
        raise LineupError(
            f"unknown agent {shown(name, 80)}; choose from {', '.join(sorted(agents))}"
        )
    options = []
    for part in (inner or "").split(","):
        part = part.strip()
        if not part:
            continue
        key, sep, raw = part.partition("=")
        if sep and not raw.strip():
            raise LineupError(
                f"agent {shown(name, 80)}: option {shown(key.strip())} has no value after '='"
            )
        options.append((key.strip(), _value(raw.strip()) if sep else True))
    seen: set[str] = set()
    for key, _ in options:
        if key in seen:
            raise LineupError(f"agent {shown(name, 80)}: option {shown(key)} is given twice")
        seen.add(key)
    return AgentSpec(name, tuple(sorted(options)), agents[name])


def parse_spec(text: str, agents: Mapping[str, str] | None = None) -> AgentSpec:
    """One agent spec, ``name`` or ``name[key=value,...]``.

    >>> parse_spec("mcts[c=0.5]").options
    (('c', 0.5),)
    """
    if not isinstance(text, str):
        raise TypeError(f'an agent spec must be a string like "mcts[c=0.5]", got {shown(text, 80)}')
    match = _ITEM.match(text)
    if not match or match.group(3) is not None:
        raise LineupError(f"bad agent spec {shown(text, 80)}; expected name or name[key=value,...]")
    return _spec(match.group(1), match.group(2), known_agents(agents))


def parse_lineup(
    text: str,
    seats: int = MAX_SEATS,
    agents: Mapping[str, str] | None = None,
    room: str = "",
) -> list[AgentSpec]:
    """``"mcts:1,heuristic:7"`` -> one :class:`AgentSpec` per seat, in lineup
    order; ``agents`` adds names (``--agent``); ``room`` says how many seats
    there are in a miscount's message (default: "a lobby has N").

    >>> [s.name for s in parse_lineup("greedy:2,random:6")][:3]
    ['greedy', 'greedy', 'random']
    """
    if not isinstance(text, str):
        raise TypeError(f'lineup must be a string like "heuristic:8", got {shown(text, 80)}')
    known = known_agents(agents)
    out: list[AgentSpec] = []
    for item in split_lineup(text):
        if not item.strip():
            continue
        match = _ITEM.match(item)
        if not match:
            raise LineupError(
                f"bad lineup item {shown(item, 80)}; expected name:count or name[opts]:count"
            )
        digits = match.group(3) or "1"
        count = int(digits) if len(digits.lstrip("0")) <= 6 else seats + 1  # no 4,300-digit int()
        if count == 0:
            raise LineupError(f"{shown(item.strip(), 80)} takes no seat; leave it out")
        if count > seats:
            many = digits if len(digits) <= 20 else f"a {len(digits)}-digit number of"
            raise LineupError(
                f"{shown(item.strip(), 80)} takes {many} seats; {room or f'a lobby has {seats}'}"
            )
        out.extend([_spec(match.group(1), match.group(2), known)] * count)
        if len(out) > seats:
            break
    if len(out) != seats:
        raise LineupError(f"the lineup fills {len(out)} seats; {room or f'a lobby has {seats}'}")
    return out


def split_lineup(text: str) -> list[str]:
    """Split on the commas that are not inside brackets.

    >>> split_lineup("mcts[c=1,cheat]:1,random:7")
    ['mcts[c=1,cheat]:1', 'random:7']
    """
    parts: list[str] = []
    cur: list[str] = []
    depth = 0
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


def agent_class(spec: AgentSpec) -> type:
    """Import the class a spec is built from; a clear :class:`LineupError` if
    it cannot be imported.

    >>> agent_class(parse_spec("random")).__name__
    'RandomAgent'
    """
    module_name, _, class_name = spec.target.partition(":")
    try:
        module = _import_agent_module(module_name)
    except ImportError as exc:
        where = ""
        if isinstance(exc, ModuleNotFoundError) and exc.name == module_name.split(".")[0]:
            where = "; run from the module's folder or put that folder on PYTHONPATH"
        raise LineupError(
            f"agent {shown(spec.name, 80)}: cannot import {module_name!r} ({exc}){where}"
        ) from None
    except (Exception, SystemExit) as exc:  # a module failing on import is the agent's problem
        raise LineupError(
            f"agent {shown(spec.name, 80)}: importing {module_name!r} failed: {described(exc)}"
        ) from None
    cls = getattr(module, class_name, None)
    if cls is None:
        raise LineupError(
            f"agent {shown(spec.name, 80)}: {module_name!r} has no class {class_name!r}"
            + _shadowed(module_name)
        )
    if not isinstance(cls, type):
        raise LineupError(
            f"agent {shown(spec.name, 80)}: {module_name}:{class_name} is a "
            f"{type(cls).__name__}, not a class (an agent is a class with reset and act)"
        )
    return cls


def _shadowed(module_name: str) -> str:
    """The hint for a module name that is bgsim's own package, which is
    imported first, whatever file of that name the user has."""
    top = module_name.partition(".")[0]
    if top not in _OWN_PACKAGES:
        return ""
    return f" ({top!r} is bgsim's own package; give your module another name)"


def _import_agent_module(module_name: str) -> ModuleType:
    """Import ``module_name``; a module not found on ``sys.path`` is looked
    for in the current directory too, last, so that ``--agent x=mine:Mine``
    works from the folder holding ``mine.py`` under the installed ``bgsim``
    command (whose ``sys.path`` does not include it) without ever shadowing an
    installed module."""
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        here = os.getcwd()
        top = module_name.partition(".")[0]
        if exc.name != top or here in sys.path or "" in sys.path:
            raise
        sys.path.append(here)
        importlib.invalidate_caches()
        return importlib.import_module(module_name)


def accepted_options(cls: type) -> tuple[str, ...]:
    """The options an agent class takes: its ``OPTIONS``, else its
    ``__init__`` parameters.

    >>> accepted_options(agent_class(parse_spec("greedy")))
    ('runs', 'guesses', 'belief')
    """
    declared = getattr(cls, "OPTIONS", None)
    if declared is not None:
        return tuple(declared)
    try:
        params = inspect.signature(cls).parameters.values()
    except (TypeError, ValueError):
        return ()
    kinds = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    return tuple(p.name for p in params if p.kind in kinds)


def make_agent(spec: AgentSpec, **common: Any) -> Agent:
    """Build the agent of ``spec``; ``common`` options (``budget``) go to the
    agents that take them. An unknown option, a bad value or a class that is
    not an :class:`~bgsim.Agent` raises :class:`LineupError` with the agent's
    own message.

    >>> from bgsim import Budget
    >>> make_agent(parse_spec("mcts[c=0.5]"), budget=Budget(iterations=50)).budget
    Budget(seconds=None, iterations=50)
    """
    if not isinstance(spec, AgentSpec):
        raise TypeError(
            f"make_agent takes an AgentSpec, not {type(spec).__name__} {shown(spec, 60)}; "
            'parse_spec("random") makes one from its text'
        )
    cls = agent_class(spec)
    accepted = accepted_options(cls)
    kwargs = dict(spec.options)
    for key in kwargs:
        if key not in accepted:
            raise LineupError(
                f"agent {shown(spec.name, 80)} has no option {shown(key)}"
                + (f"; it takes {', '.join(accepted)}" if accepted else "; it takes none")
            )
    _check_annotated(spec, cls, kwargs)
    for key, value in common.items():
        if key in accepted and key not in kwargs and value is not None:
            kwargs[key] = value
    factory: Callable[..., Any] = cls
    try:
        agent = factory(**kwargs)
    except (TypeError, ValueError) as exc:  # a bad option, in the agent's own words
        where = ""
        tb = exc.__traceback__
        if (
            tb is not None
            and tb.tb_next is not None
            and cls.__module__.split(".")[0]
            not in (
                "agents",
                "bgsim",
            )
        ):  # raised in a user's agent: its file and line help more than a bundled one's
            where = raised_at(exc)
        raise LineupError(f"agent {shown(spec.label, 80)}: {exc}{where}") from None
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # the agent's code failed (SystemExit too): say where
        raise LineupError(
            f"agent {shown(spec.label, 80)}: building it failed: {described(exc)}"
        ) from None
    try:
        agent.name = spec.label
    except KeyboardInterrupt:
        raise
    except BaseException as exc:
        raise LineupError(
            f"agent {shown(spec.name, 80)}: bgsim names each agent by its lineup label "
            f"({shown(spec.label, 80)}), but setting its name attribute failed: "
            f"{described(exc)}; make name a plain attribute, not a read-only property"
        ) from None
    if not isinstance(agent, Agent):
        raise LineupError(
            f"agent {shown(spec.name, 80)} ({spec.target}) is not an agent: it needs "
            "reset(seat, seed) and act(observation, legal_actions) methods"
        )
    return agent


_KINDS: dict[Any, tuple[str, Callable[[Any], bool]]] = {
    int: ("an integer", lambda v: isinstance(v, int) and not isinstance(v, bool)),
    float: (
        "a finite number",
        lambda v: isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v),
    ),
    bool: ("true or false", lambda v: isinstance(v, bool)),
}


def _check_annotated(spec: AgentSpec, cls: type, options: Mapping[str, Any]) -> None:
    """Lineup values (numbers, true/false or text) against the ``__init__``
    annotations of int, float and bool parameters (``X | None`` included);
    other annotations, or none, take any value."""
    try:
        params = inspect.signature(cls, eval_str=True).parameters
    except Exception:  # annotations that do not resolve: the agent checks its own
        return
    for key, value in options.items():
        hint = params[key].annotation if key in params else None
        union = isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union
        members = [m for m in (typing.get_args(hint) if union else (hint,)) if m is not type(None)]
        if not members or any(m not in _KINDS for m in members):
            continue
        if not any(_KINDS[m][1](value) for m in members):
            wanted = " or ".join(_KINDS[m][0] for m in members)
            raise LineupError(
                f"agent {shown(spec.label, 80)}: option {shown(key)} must be {wanted}, "
                f"got {shown(value)}"
            )


def check_lineup(specs: list[AgentSpec], **common: Any) -> None:
    """Build every distinct agent of a lineup once, so that a bad option is
    reported (as :class:`LineupError`) before any game starts.

    >>> check_lineup(parse_lineup("random:8"))
    """
    for spec in dict.fromkeys(specs):
        make_agent(spec, **common)


def _package_files(module_name: str) -> list[tuple[str, Path]]:
    """The source files an agent's code lives in, each with the name it is
    hashed under: every ``.py`` file of its top-level package; for a module
    outside a package, the module and every module loaded from its folder
    (the helpers it imports), unless that folder is a library's."""
    top = module_name.split(".")[0]
    module = sys.modules.get(top) or importlib.import_module(top)
    roots = [Path(r) for r in getattr(module, "__path__", [])]
    if roots:
        return sorted(
            (path.relative_to(root).as_posix(), path)
            for root in roots
            for path in root.rglob("*.py")
        )
    source = getattr(module, "__file__", None)
    if not source:
        return []
    own = Path(source).resolve()
    folder = own.parent
    files = {own}
    if folder not in _library_folders():
        for other in list(sys.modules.values()):
            name = getattr(other, "__file__", None)
            if isinstance(name, str) and name.endswith(".py"):
                path = Path(name).resolve()
                if path.is_relative_to(folder):
                    files.add(path)
    return sorted((path.relative_to(folder).as_posix(), path) for path in files)


@cache
def _library_folders() -> frozenset[Path]:
    """Where installed packages and the standard library live."""
    paths = sysconfig.get_paths()
    names = [paths[k] for k in ("stdlib", "platstdlib", "purelib", "platlib") if k in paths]
    names += [*site.getsitepackages(), site.getusersitepackages()]
    return frozenset(Path(n).resolve() for n in names)


@cache
def _code_hash(module_name: str) -> str:
    digest = hashlib.sha256()
    for rel, path in _package_files(module_name):
        digest.update(rel.encode() + b"\0" + path.read_bytes() + b"\0")
    if module_name.split(".")[0] == "agents":
        # The bundled agents also read these tables.
        names = (
            "heuristic.toml",
            "belief.json",
            "belief_heroes.json",
            "value_model.json",
            "hero_policy.toml",
        )
        for name in (*names, "hero_ratings.json"):
            path = data_dir() / name
            if path.is_file() or name in names:
                digest.update(name.encode() + path.read_bytes())
    return digest.hexdigest()


def fingerprint(spec: AgentSpec) -> str:
    """A short hash of an agent's code (every source file of its top-level
    package, or a module outside a package with the modules it loads from its
    folder; and the bundled agents' data tables) and options: results
    recorded under another fingerprint came from other code.

    >>> len(fingerprint(parse_spec("random")))
    16
    """
    agent_class(spec)  # imported, so its files are found
    module_name = spec.target.partition(":")[0]
    parts = [spec.target, [list(o) for o in spec.options], _code_hash(module_name)]
    # An option naming a file (mcts[value_model=PATH]) counts by what the file holds.
    for _, value in spec.options:
        if isinstance(value, str):
            parts.extend(_file_digest(value))
    text = json.dumps(parts)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _file_digest(path: str) -> list[str]:
    """The SHA-256 of the regular file ``path`` as a one-item list, read in
    blocks; nothing for an option that names no readable regular file (the
    agent itself says what is wrong with it)."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):  # never open a pipe: it could block
            return []
        with open(path, "rb") as f:
            return [hashlib.file_digest(f, "sha256").hexdigest()]
    except (OSError, ValueError):
        return []


@cache
def game_fingerprint() -> str:
    """A short hash of the game's own code and data (bgsim's rules, the combat
    engine, the card data): results recorded under another one came from
    other rules.

    >>> len(game_fingerprint())
    16
    """
    digest = hashlib.sha256()
    root = Path(__file__).resolve().parent
    engine = root.parent / "combat_c"
    rules = ("lobby.py", "actions.py", "observation.py", "pairing.py", "ruleset.py")
    files = sorted(root.glob("_core/*.py")) + [root / name for name in rules]
    files += sorted(engine.glob("*.py")) + sorted(engine.glob("src/*.[ch]"))
    for path in files:
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    digest.update((data_dir() / "cards.json").read_bytes())
    return digest.hexdigest()[:16]
