"""Replay files: one JSON-lines file per game, enough to draw every frame.

Schema version 2 (version 1, the same without heroes, still reads). The
first line is the header; every later line is one record::

    {"type": "header", "schema": 2, "seed": S, "ruleset": ID, "agents": [8 labels],
     "tribes": [...], "players": 8, "heroes": true|false}
    {"type": "draft", "turn": 0, "player": P, "offers": [hero ids]}
        the heroes offered to a player before turn 1 (lobbies with heroes); the
        choice is the player's ChooseHero action record
    {"type": "recruit", "turn": T, "player": P, "state": VIEW}
        a player's tavern as their turn starts (after start-of-turn effects)
    {"type": "action", "turn": T, "player": P, "action": "Buy(2)", "code": C, "state": VIEW}
        one action and the acting player's tavern right after it
    {"type": "combat", "turn": T, "players": [P, Q], "ghost": false,
     "boards": [SPEC, SPEC], "events": [EVENT, ...], "winner": 0|1|-1, "damage": D}
        one fight: the two boards as DESIGN.md board specs and the engine's
        event log (combat_c Event.as_dict()); ``ghost`` is true when Q is the
        ghost of an eliminated player
    {"type": "standings", "turn": T, "players": [STANDING, ...]}
        every player's health, tier, alive flag and placement after a round
    {"type": "end", "placements": [8 ints]}

VIEW = {"gold", "tier", "upgrade_cost", "health", "frozen", "shop", "hand",
"board", "discover"} (and, with heroes, "hero": {"hero", "power", "uses",
"spent", "counter", "cost"} or null) where shop/hand/board/discover are lists of CARD =
{"card": id (golden id when golden), "name", "attack", "health", "golden",
"tier", "keywords": [...]}; board stats are as displayed (auras included).
STANDING = {"player", "health", "tier", "alive", "placement"} (placement null
while alive).

:func:`read_replay` validates every line and raises :class:`ReplayError`
naming the line for a truncated or corrupt file or an unknown schema version.
"""

from __future__ import annotations

import json
import os
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bgsim._core.heroes_game import FINLEY
from bgsim.actions import ACTIONS, IllegalActionError
from bgsim.cards import cards
from bgsim.outputs import atomic_write
from combat_c.guarded import (
    MAX_LINE_BYTES,
    InputError,
    decode,
    loads,
    open_file,
    shown,
    shown_path,
)

SCHEMA_VERSION = 2
READABLE_VERSIONS = (1, 2)
MAX_REPLAY_BYTES = 1 << 28  # a long game of eight players is a few MB
MAX_LABEL = 200  # characters of an agent label or card name
_INT32 = (-(2**31), 2**31 - 1)
_EVENT_KINDS = (
    "start",
    "attack",
    "damage",
    "shield",
    "death",
    "summon",
    "stats",
    "keywords",
    "trigger",
    "hand",
    "end",
    "poison",
    "hero",  # a hero power acting (fights with heroes)
    "secret",  # a Secret revealed
)


class ReplayError(ValueError):
    """A replay that cannot be read: the message names the file and line."""


@dataclass(frozen=True)
class Replay:
    """A replay read and checked by :func:`read_replay`: the header, every
    record, and the file line of each record (for messages).

    >>> replay = parse_replay(['{"type": "header", "schema": 2, "seed": 1, '
    ...     '"ruleset": "r", "players": 2, "agents": ["a", "b"]}',
    ...     '{"type": "end", "placements": [2, 1]}'])
    >>> replay.agents, replay.players, replay.lines
    (['a', 'b'], 2, (2,))
    """

    header: dict[str, Any]
    records: tuple[dict[str, Any], ...]
    lines: tuple[int, ...] = field(default=(), compare=False)
    name: str = field(default="<replay>", compare=False)  # its file, as messages name it

    def where(self, r: int) -> str:
        """Record ``r`` as a message names it: the file and line when known.

        >>> Replay({}, ({"type": "end"},), (9,), "game.jsonl").where(0)
        'game.jsonl, line 9'
        """
        if r < len(self.lines):
            return f"{self.name}, line {self.lines[r]}"
        return f"{self.name}, record {r + 1}"

    @property
    def agents(self) -> list[str]:
        return list(self.header["agents"])

    @property
    def players(self) -> int:
        return int(self.header["players"])


class ReplayWriter:
    """Writes a replay line by line, through a temporary file that becomes
    ``path`` only when the replay is complete (``bgsim.outputs``)."""

    def __init__(self, path: str | Path, header: dict[str, Any]) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._writing = atomic_write(self.path)
        self._file = self._writing.__enter__()
        self.write({"type": "header", "schema": SCHEMA_VERSION, **header})

    def write(self, record: dict[str, Any]) -> None:
        self._file.write(json.dumps(record, separators=(",", ":")) + "\n")

    def close(self) -> None:
        self._writing.__exit__(None, None, None)

    def __enter__(self) -> ReplayWriter:
        return self

    def __exit__(self, *exc: Any) -> None:
        self._writing.__exit__(*exc)


# ------------------------------------------------------------------ schema
# One declarative schema says what every record holds, with ranges; the
# viewer and `replay verify` read nothing it has not checked. Keys it does
# not name are ignored (later writers may add some).


class _Spec(ABC):
    @abstractmethod
    def check(self, value: Any, where: str) -> None:
        """Raise a one-line error naming ``where`` unless ``value`` fits."""


def _show(value: Any) -> str:
    return f"{shown(value)}" if not isinstance(value, dict | list) else type(value).__name__


class _Int(_Spec):
    def __init__(self, low: int = _INT32[0], high: int = _INT32[1]) -> None:
        self.low, self.high = low, high

    def check(self, value: Any, where: str) -> None:
        if type(value) is not int or not self.low <= value <= self.high:
            raise ValueError(
                f"{where}: expected an integer {self.low}..{self.high}, got {_show(value)}"
            )


class _Str(_Spec):
    def __init__(self, longest: int = MAX_LABEL, choices: tuple[str, ...] = ()) -> None:
        self.longest, self.choices = longest, choices

    def check(self, value: Any, where: str) -> None:
        if not isinstance(value, str) or len(value) > self.longest:
            raise ValueError(
                f"{where}: expected text of at most {self.longest} characters, got {_show(value)}"
            )
        if self.choices and value not in self.choices:
            raise ValueError(f"{where}: {shown(value)} is not one of {', '.join(self.choices)}")


class _Bool(_Spec):
    def check(self, value: Any, where: str) -> None:
        if not isinstance(value, bool):
            raise ValueError(f"{where}: expected true or false, got {_show(value)}")


class _Null(_Spec):
    def __init__(self, spec: _Spec) -> None:
        self.spec = spec

    def check(self, value: Any, where: str) -> None:
        if value is not None:
            self.spec.check(value, where)


class _List(_Spec):
    def __init__(self, item: _Spec, shortest: int = 0, longest: int = 64) -> None:
        self.item, self.shortest, self.longest = item, shortest, longest

    def check(self, value: Any, where: str) -> None:
        if not isinstance(value, list) or not self.shortest <= len(value) <= self.longest:
            raise ValueError(
                f"{where}: expected a list of {self.shortest}..{self.longest} items, "
                f"got {_show(value) if not isinstance(value, list) else len(value)}"
            )
        for i, item in enumerate(value):
            self.item.check(item, f"{where}[{i}]")


class _Obj(_Spec):
    def __init__(self, optional: Mapping[str, _Spec] | None = None, **required: _Spec) -> None:
        self.required, self.optional = required, dict(optional or {})

    def check(self, value: Any, where: str) -> None:
        if not isinstance(value, dict):
            raise ValueError(f"{where}: expected an object, got {_show(value)}")
        for key, spec in self.required.items():
            if key not in value:
                raise ValueError(f"{where}: missing {key!r}")
            spec.check(value[key], f"{where}.{key}")
        for key, spec in self.optional.items():
            if key in value:
                spec.check(value[key], f"{where}.{key}")


_STAT = _Int(-(10**9), 10**9)
_TURN = _Int(0, 100_000)
_CARD = _Obj(
    card=_Str(64),
    name=_Str(),
    attack=_STAT,
    health=_STAT,
    golden=_Bool(),
    tier=_Int(0, 7),
    keywords=_List(_Str(40), 0, 32),
)
_HERO = _Obj(
    hero=_Str(64), power=_Str(64), uses=_Int(0), spent=_Bool(), counter=_Int(), cost=_Int(0)
)
_VIEW = _Obj(
    {"hero": _Null(_HERO)},
    gold=_Int(0, 10**9),
    tier=_Int(1, 7),
    upgrade_cost=_Int(0, 10**9),
    health=_STAT,
    frozen=_Bool(),
    shop=_List(_CARD, 0, 16),
    hand=_List(_CARD, 0, 16),
    board=_List(_CARD, 0, 7),
    discover=_List(_CARD, 0, 16),
)
_EVENT = _Obj(
    kind=_Str(16, _EVENT_KINDS),
    side=_Int(-1, 1),
    slot=_Null(_Int(0, 6)),
    eid=_Int(0, 65535),
    target=_Int(0, 65535),
    card=_Null(_Str(64)),
    golden=_Bool(),
    keywords=_Int(0, 255),
    a=_Int(),
    b=_Int(),
)
_BOARD = _Obj(tier=_Int(1, 6), minions=_List(_Obj(), 0, 7))


def _record_specs(players: int) -> dict[str, _Spec]:
    seat = _Int(0, players - 1)
    return {
        "draft": _Obj(turn=_Int(0, 0), player=seat, offers=_List(_Str(64), 1, 8)),
        "recruit": _Obj(turn=_Int(1, _TURN.high), player=seat, state=_VIEW),
        "action": _Obj(
            turn=_TURN, player=seat, action=_Str(64), code=_Int(0, 100_000), state=_VIEW
        ),
        "combat": _Obj(
            turn=_Int(1, _TURN.high),
            players=_List(seat, 2, 2),
            ghost=_Bool(),
            boards=_List(_BOARD, 2, 2),
            events=_List(_EVENT, 2, 1 << 20),
            winner=_Int(-1, 1),
            damage=_Int(0, 10**6),
        ),
        "standings": _Obj(
            turn=_Int(1, _TURN.high),
            players=_List(
                _Obj(
                    {"placement": _Null(_Int(1, players))},
                    player=seat,
                    health=_STAT,
                    tier=_Int(1, 7),
                    alive=_Bool(),
                ),
                players,
                players,
            ),
        ),
        "end": _Obj(placements=_List(_Int(1, players), players, players)),
    }


def _header_spec() -> _Obj:
    return _Obj(
        {
            "tribes": _List(_Str(16), 0, 7),
            "heroes": _Bool(),
            "rules": _Obj(),
        },
        type=_Str(16, ("header",)),
        seed=_Int(0, 2**64 - 1),
        ruleset=_Str(),
        players=_Int(2, 8),
        agents=_List(_Str(), 0, 8),
    )


class _Order:
    """The cheap checks of a replay's order, record by record: turns never go
    back; a player acts only in a turn they started (or in the draft) and
    until they end it; fights follow every player's end of turn; each seat
    fights once a round, and every player who recruited does but the one who
    sits out a round of an odd lobby before anybody is out (there is no ghost
    yet); one standings per round, before the next turn; the
    end record comes last. Deleted, duplicated and reordered lines mostly
    break one of these; ``bgsim replay verify`` finds the rest."""

    def __init__(self, header: dict[str, Any]) -> None:
        self.players = int(header["players"])
        self.heroes = bool(header.get("heroes", False))
        self.turn = 0
        self.alive = set(range(self.players))
        self.drafted: set[int] = set()
        self.chosen: set[int] = set()
        self.finley: set[int] = set()  # players whose Sir Finley offered his Discover
        self.started: set[int] = set()  # players who started self.turn
        self.ended: set[int] = set()  # ... and ended it
        self.fought: set[int] = set()
        self.standings: set[int] = set()
        self.placements: list[Any] = []
        self.done = False

    def feed(self, rec: dict[str, Any]) -> None:
        kind = rec["type"]
        if self.done:
            raise ValueError("a record after the end record")
        turn = rec.get("turn", self.turn)
        if turn < self.turn:
            raise ValueError(f"turn {turn} after turn {self.turn}: lines out of order")
        if turn > self.turn:
            if self.turn >= 1 and self.turn not in self.standings:
                raise ValueError(f"turn {turn} starts before the standings of turn {self.turn}")
            self.turn = turn
            self.started, self.ended, self.fought = set(), set(), set()
        if kind in ("draft", "action", "recruit"):
            self._tavern(kind, rec)
            if kind == "action":
                code = rec["code"]
                if code >= len(ACTIONS):
                    raise ValueError(
                        f"action code {code} is not one of bgsim's 0..{len(ACTIONS) - 1}"
                    )
                if repr(ACTIONS[code]) != rec["action"]:
                    raise ValueError(
                        f"action code {code} is {ACTIONS[code]!r}, but the record says "
                        f"{shown(rec['action'], 60)}"
                    )
                if turn >= 1 and code == 0:  # EndTurn
                    self.ended.add(rec["player"])
                elif turn == 0 and not self._draft_goes_on(rec):
                    self.chosen.add(rec["player"])
        elif kind == "combat":
            waiting = self.started - self.ended
            if waiting:
                raise ValueError(
                    f"a fight of turn {turn} before player {min(waiting) + 1} ended the turn"
                )
            p, q = rec["players"]
            if p == q or p in self.fought or q in self.fought:
                raise ValueError(f"players {p + 1} and {q + 1}: a seat fights once a round")
            self.fought |= {p, q}
        elif kind == "standings":
            if turn in self.standings:
                raise ValueError(f"a second standings record for turn {turn}")
            # every player who recruited this turn fights but the one with a bye
            unfought = self.started - self.fought
            if len(unfought) == 1 and self._bye():
                unfought = set()
            if unfought:
                raise ValueError(f"player {min(unfought) + 1} has no fight in turn {turn}")
            seats = sorted(s["player"] for s in rec["players"])
            if seats != list(range(self.players)):
                raise ValueError("standings: not one entry per seat")
            self.standings.add(turn)
            self.alive = {s["player"] for s in rec["players"] if s["alive"]}
            self.placements = [None] * self.players
            for s in rec["players"]:
                self.placements[s["player"]] = s.get("placement")
        elif kind == "end":
            placements = rec["placements"]
            if sorted(placements) != list(range(1, self.players + 1)):
                raise ValueError(f"end.placements: not a placement of {self.players} players")
            for p, place in enumerate(self.placements):
                if place is not None and place != placements[p]:
                    raise ValueError(f"end.placements: player {p + 1} placed {place} before")
            self.done = True

    def _draft_goes_on(self, rec: dict[str, Any]) -> bool:
        """Whether a draft choice leaves its player a second one: picking Sir
        Finley offers a Discover of hero powers, chosen in the draft too
        (the recorded view shows his own power until then), once."""
        state = rec.get("state")
        hero = state.get("hero") if isinstance(state, dict) else None
        power = hero.get("power") if isinstance(hero, dict) else None
        p = rec["player"]
        if power != FINLEY or p in self.finley:
            return False
        self.finley.add(p)
        return True

    def _bye(self) -> bool:
        """Whether this round has a bye (``bgsim.pairing``): an odd number of
        living players before anybody is out, so there is no ghost to take the
        free seat and one player fights nobody. Once a player is out, the
        ghost of the latest one out fights the odd player instead."""
        return self.players % 2 == 1 and len(self.alive) == self.players

    def _tavern(self, kind: str, rec: dict[str, Any]) -> None:
        p, turn = rec["player"], rec.get("turn", 0)
        who = f"player {p + 1}"
        if kind == "draft":
            if not self.heroes:
                raise ValueError("a hero draft in a replay without heroes")
            if p in self.drafted:
                raise ValueError(f"a second draft for {who}")
            db = cards()
            for offer in rec["offers"]:
                if not db.is_hero(offer):
                    raise ValueError(f"{who} is offered {shown(offer)}, which is no hero")
            self.drafted.add(p)
        elif turn == 0:
            if p not in self.drafted or p in self.chosen:
                raise ValueError(f"{who} acts in the draft without a draft offer")
        elif kind == "recruit":
            if p in self.started:
                raise ValueError(f"{who} starts turn {turn} twice")
            if p not in self.alive:
                raise ValueError(f"{who} starts turn {turn} but is out")
            if self.fought:
                raise ValueError(f"{who} starts turn {turn} after its fights")
            self.started.add(p)
        else:
            if p not in self.started:
                raise ValueError(f"{who} acts in turn {turn} without starting it")
            if p in self.ended:
                raise ValueError(f"{who} acts in turn {turn} after ending it")


def _check_header(rec: Any) -> dict[str, Any]:
    if not isinstance(rec, dict) or rec.get("type") != "header":
        raise ValueError("the first line must be the header")
    version = rec.get("schema")
    if type(version) is not int or version not in READABLE_VERSIONS:
        raise ValueError(
            f"unknown schema version {shown(version, 20)} (this bgsim reads "
            f"{', '.join(map(str, READABLE_VERSIONS))})"
        )
    _header_spec().check(rec, "header")
    if len(rec["agents"]) != rec["players"]:
        raise ValueError("header.agents: one label per player expected")
    if "rules" in rec:
        from bgsim.ruleset import Ruleset, RulesetError

        try:
            rules = Ruleset.from_table(rec["rules"], "header.rules")
        except RulesetError as exc:
            raise ValueError(str(exc)) from None
        if rules.lobby.players != rec["players"] or rules.id != rec["ruleset"]:
            raise ValueError("header.rules: not the ruleset the header names")
    return rec


def check_records(lines: Iterable[tuple[int, Any]], name: str = "<replay>") -> Replay:
    """A replay from its parsed lines, ``(line number, value)``, every one
    checked against the schema and the order (:class:`ReplayError` naming
    the line of the first problem).

    >>> check_records([(1, {"type": "end"})])
    Traceback (most recent call last):
    ...
    bgsim.replay.ReplayError: <replay>, line 1: the first line must be the header
    """
    header: dict[str, Any] | None = None
    specs: dict[str, _Spec] = {}
    order: _Order | None = None
    records: list[dict[str, Any]] = []
    numbers: list[int] = []
    number = 0
    for number, rec in lines:
        try:
            if header is None:
                header = _check_header(rec)
                specs = _record_specs(header["players"])
                order = _Order(header)
                continue
            if not isinstance(rec, dict):
                raise ValueError(f"expected a record object, got {_show(rec)}")
            kind = rec.get("type")
            if kind == "header":
                raise ValueError("a second header record")
            spec = specs.get(kind) if isinstance(kind, str) else None
            if spec is None or not isinstance(kind, str):
                raise ValueError(f"unknown record type {shown(kind)}")
            spec.check(rec, kind)
            assert order is not None
            order.feed(rec)
        except ValueError as exc:
            raise ReplayError(f"{name}, line {number}: {exc}") from None
        records.append(rec)
        numbers.append(number)
    if header is None:
        raise ReplayError(f"{name}: empty file, no header")
    if not records or records[-1]["type"] != "end":
        raise ReplayError(f"{name}: truncated after line {number}: no end record")
    return Replay(header, tuple(records), tuple(numbers), name)


def parse_replay(lines: Iterable[str], name: str = "<replay>") -> Replay:
    """A replay from its lines of text, checked (see :func:`check_records`).

    >>> parse_replay(["{"], "x.jsonl")
    Traceback (most recent call last):
    ...
    bgsim.replay.ReplayError: x.jsonl, line 1: not valid JSON (Expecting property name ...)
    """

    def parsed() -> Iterator[tuple[int, Any]]:
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                yield number, loads(line, f"line {number}")
            except InputError as exc:
                raise ReplayError(f"{name}, {exc}") from None

    return check_records(parsed(), name)


def _file_lines(path: Path) -> Iterator[str]:
    """The lines of a replay file: size-capped, each line too, strict UTF-8."""
    with open_file(path) as f:
        if os.fstat(f.fileno()).st_size > MAX_REPLAY_BYTES:  # refused before a byte is read
            raise ReplayError(f"{shown_path(path)}: too large (at most {MAX_REPLAY_BYTES:,} bytes)")
        total = 0  # counted as read too: the file may grow meanwhile
        for number, raw in enumerate(iter(lambda: f.readline(MAX_LINE_BYTES + 1), b""), 1):
            total += len(raw)
            if total > MAX_REPLAY_BYTES:
                raise ReplayError(
                    f"{shown_path(path)}: too large (at most {MAX_REPLAY_BYTES:,} bytes)"
                )
            if len(raw) > MAX_LINE_BYTES:
                raise ReplayError(
                    f"{shown_path(path)}, line {number}: longer than {MAX_LINE_BYTES:,} bytes"
                )
            try:
                yield decode(raw, f"line {number}")
            except InputError as exc:
                raise ReplayError(f"{shown_path(path)}, {exc}") from None


def read_replay(path: str | Path) -> Replay:
    """Read a replay file and check every line (raises :class:`ReplayError`
    naming the file and line).

    >>> read_replay("/nonexistent.jsonl")
    Traceback (most recent call last):
    ...
    bgsim.replay.ReplayError: /nonexistent.jsonl: cannot read (No such file or directory)
    """
    if isinstance(path, str) and not path:  # Path("") would be the current folder
        raise ReplayError("no replay file given (an empty path)")
    path = Path(path)
    try:
        return parse_replay(_file_lines(path), shown_path(path))
    except ReplayError:
        raise
    except OSError as exc:
        raise ReplayError(f"{shown_path(path)}: cannot read ({exc.strerror or exc})") from None
    except ValueError as exc:  # a NUL in the path
        raise ReplayError(f"{shown(str(path), 80)}: not a usable path ({exc})") from None


# ------------------------------------------------------------------ writing


def _keywords(bits: int) -> list[str]:
    from combat_c import KEYWORD_BITS

    return [name for name, bit in KEYWORD_BITS.items() if bits & bit]


def _card(card: Any, attack: int | None = None, health: int | None = None) -> dict[str, Any]:
    from bgsim import SpellCard

    if isinstance(card, SpellCard):
        return {
            "card": card.card,
            "name": card.name,
            "attack": 0,
            "health": 0,
            "golden": False,
            "tier": card.tier,
            "keywords": [],
        }
    from bgsim.cards import cards

    keywords = _keywords(card.keywords)
    if card.magnetic:
        keywords.append("magnetic")
    if card.spores or card.magnetic or cards()[card.card].has("deathrattle"):
        keywords.append("deathrattle")
    return {
        "card": card.card_id,
        "name": card.name,
        "attack": card.attack if attack is None else attack,
        "health": card.health if health is None else health,
        "golden": card.golden,
        "tier": card.tier,
        "keywords": keywords,
    }


def player_view(state: Any) -> dict[str, Any]:
    """A player's tavern as the replay stores it (board stats as displayed)."""
    from bgsim._core.tavern import attack_aura

    shown = state.warband().displayed()  # Deathwing's +2 Attack included: the board has its hero
    bonus = attack_aura(state)  # Deathwing's +2 Attack on the shop, as he sees it
    view = {
        "gold": state.gold,
        "tier": state.tier,
        "upgrade_cost": state.upgrade_cost,
        "health": state.health,
        "frozen": state.frozen,
        "shop": [_card(m, m.attack + bonus) if bonus else _card(m) for m in state.shop],
        "hand": [_card(c) for c in state.hand],
        "board": [_card(m, a, h) for m, (a, h) in zip(state.board, shown, strict=True)],
        "discover": [_card(m) for m in state.discover],
    }
    hero = state.hero
    if hero is not None:
        from bgsim.rules import power_cost

        view["hero"] = {
            "hero": hero.hero,
            "power": hero.power,
            "uses": hero.uses,
            "spent": hero.spent,
            "counter": hero.counter,
            "cost": power_cost(hero),
        }
    return view


def _standings(lobby: Any, turn: int) -> dict[str, Any]:
    return {
        "type": "standings",
        "turn": turn,
        "players": [
            {
                "player": p.player,
                "health": p.health,
                "tier": p.tier,
                "alive": p.alive,
                "placement": p.placement,
            }
            for p in lobby.public_players()
        ],
    }


def replay_records(lobby: Any, agents: list[str]) -> Iterator[dict[str, Any]]:
    """The replay of a finished (or running) lobby, record by record, header
    first: what :func:`write_replay` writes and :func:`verify_replay` compares.

    The tavern views are rebuilt by replaying the lobby's logged actions on a
    fresh lobby of the same seed and ruleset (the game is deterministic), so
    playing never pays for them; no agent runs again.

    >>> from bgsim import Lobby
    >>> next(replay_records(Lobby(seed=1), ["a"] * 8))["schema"]
    2
    """
    from bgsim.lobby import Lobby

    fresh = Lobby(lobby.seed, lobby.rules, heroes=lobby.heroes)
    yield {
        "type": "header",
        "schema": SCHEMA_VERSION,
        "seed": lobby.seed,
        "ruleset": lobby.rules.id,
        "agents": list(agents),
        "players": lobby.players,
        "tribes": list(lobby.tribes),
        "heroes": lobby.heroes,
        "rules": lobby.rules.to_table(),
    }
    for rec in lobby.log:
        kind = rec["type"]
        if kind == "draft":
            yield rec
        elif kind == "turn":
            if rec["turn"] > 1:
                yield _standings(fresh, rec["turn"] - 1)
            for p in fresh.to_act():
                yield {
                    "type": "recruit",
                    "turn": rec["turn"],
                    "player": p,
                    "state": player_view(fresh.state(p)),
                }
        elif kind == "action":
            player = rec["player"]
            fresh.apply(player, rec["action"])
            yield {
                "type": "action",
                "turn": rec["turn"],
                "player": player,
                "action": rec["text"],
                "code": rec["action"],
                "state": player_view(fresh.state(player)),
            }
        elif kind == "combat":
            yield {
                "type": "combat",
                "turn": rec["turn"],
                "players": rec["players"],
                "ghost": rec["ghost"],
                "boards": rec["boards"],
                "events": rec["events"],
                "winner": rec["winner"],
                "damage": rec["damage"],
            }
        elif kind == "end":
            yield _standings(fresh, rec["turn"])
            placements = dict((p, place) for p, place in rec["placements"])
            yield {"type": "end", "placements": [placements[p] for p in range(lobby.players)]}


def write_replay(path: str | Path, lobby: Any, agents: list[str]) -> Path:
    """Write the replay of a finished (or running) lobby (see
    :func:`replay_records`), through a temporary file renamed when complete.
    A lobby whose log does not play again from its seed (its values were
    changed outside its rules) is a :class:`ReplayError`."""
    records = replay_records(lobby, agents)
    try:
        header = next(records)
        del header["type"], header["schema"]
        with ReplayWriter(path, header) as out:
            for rec in records:
                out.write(rec)
    except IllegalActionError as exc:
        raise ReplayError(
            f"{shown_path(str(path))}: not written: the game's log does not play again from "
            f"its seed ({exc}); its values were changed outside the rules (an agent that "
            "wrote through the frozen values of its observation?)"
        ) from None
    return Path(path)


def verify_replay(replay: Replay, name: str = "<replay>") -> str | None:
    """Play the game of ``replay`` again from its header's seed, ruleset and
    heroes with its recorded action codes, and compare every record with the
    replay that game gives. None when they all match; else a message naming
    the line of the first record that differs.

    A replay without its ruleset table (written before tables were stored)
    can be checked when it names the shipped ruleset.

    >>> from bgsim import Lobby, Ruleset, load_ruleset
    >>> table = load_ruleset().to_table()
    >>> table["lobby"]["max_turns"] = 2  # a short game: everyone ends two turns
    >>> lobby = Lobby(seed=2, ruleset=Ruleset.from_table(table))
    >>> while not lobby.done:
    ...     lobby.apply(lobby.to_act()[0], 0)
    >>> lines = [json.dumps(r) for r in replay_records(lobby, ["a"] * 8)]
    >>> verify_replay(parse_replay(lines)) is None
    True
    >>> lines[9] = lines[9].replace('"gold": 3', '"gold": 9', 1)  # player 1's EndTurn
    >>> verify_replay(parse_replay(lines))
    '<replay>, line 10: action.state.gold: recorded 9, the game gives 3'
    """
    from bgsim.lobby import Lobby
    from bgsim.ruleset import Ruleset, load_ruleset

    header = replay.header
    if "rules" in header:
        rules = Ruleset.from_table(header["rules"], f"{name}, header.rules")
    else:
        rules = load_ruleset()
        if rules.id != header["ruleset"]:
            return (
                f"{name}, line 1: the replay names ruleset {shown(header['ruleset'])} but does "
                "not hold its table, so its game cannot be played again"
            )
    if not header.get("tribes"):
        return f"{name}, line 1: the header lists no minion types"
    lobby = Lobby(header["seed"], rules, heroes=bool(header.get("heroes", False)))
    lines = replay.lines or tuple(range(2, len(replay.records) + 2))
    for k, (rec, line) in enumerate(zip(replay.records, lines, strict=True)):
        if rec["type"] != "action":
            continue
        where = f"{name}, line {line}"
        if lobby.done:
            return f"{where}: the game is over before this action"
        try:
            lobby.apply(rec["player"], rec["code"])
        except IllegalActionError as exc:
            # A record before this one that differs is the first difference.
            return _first_difference(replay, lines, lobby, name, k) or (
                f"{where}: {rec['action']} is not legal for player {rec['player'] + 1} ({exc})"
            )
    return _first_difference(replay, lines, lobby, name, len(replay.records))


def _first_difference(
    replay: Replay, lines: tuple[int, ...], lobby: Any, name: str, upto: int
) -> str | None:
    """The first of the replay's header and records ``[:upto]`` that differs
    from what ``lobby`` played (with the end of the file, when ``upto``
    covers it all), as a message naming its line; None if none differs."""
    header = replay.header
    played = [_plain(r) for r in replay_records(lobby, replay.agents)]
    header_diff = _difference(
        {k: header.get(k) for k in ("seed", "players", "tribes", "heroes")},
        {k: played[0][k] for k in ("seed", "players", "tribes", "heroes")},
        "header",
    )
    if header_diff:
        return f"{name}, line 1: {header_diff}"
    whole = upto >= len(replay.records)
    for k, (rec, line) in enumerate(zip(replay.records[:upto], lines[:upto], strict=True)):
        if k + 1 >= len(played):
            return f"{name}, line {line}: the game is over before this {rec['type']} record"
        expected = played[k + 1]
        if rec["type"] != expected["type"]:
            return (
                f"{name}, line {line}: a {rec['type']} record where the game gives "
                f"a {expected['type']} record ({_about(expected)})"
            )
        diff = _difference(rec, expected, rec["type"])
        if diff:
            return f"{name}, line {line}: {diff}"
    if whole and len(played) > len(replay.records) + 1:
        missing = played[len(replay.records) + 1]
        return f"{name}: the file ends where the game goes on with a {missing['type']} record"
    return None


def _about(record: dict[str, Any]) -> str:
    """A record in a few words, for messages."""
    if "player" in record:
        who = f"player {record['player'] + 1}"
        what = f" {record['action']}" if "action" in record else ""
        return f"turn {record.get('turn', 0)}, {who}{what}"
    if record["type"] == "combat":
        p, q = record["players"]
        return f"turn {record['turn']}, players {p + 1} and {q + 1}"
    return f"turn {record['turn']}" if "turn" in record else record["type"]


def _plain(record: dict[str, Any]) -> Any:
    """A record as it reads back from JSON (tuples become lists)."""
    return json.loads(json.dumps(record))


def _difference(recorded: Any, played: Any, where: str) -> str | None:
    """Where ``recorded`` first differs from ``played``, in words (None if equal).
    Keys only the recorded side has are ignored, as the schema ignores them."""
    if isinstance(played, dict) and isinstance(recorded, dict):
        for key, value in played.items():
            if key not in recorded:
                return f"{where}: {key!r} is missing"
            diff = _difference(recorded[key], value, f"{where}.{key}")
            if diff:
                return diff
        return None
    if isinstance(played, list) and isinstance(recorded, list):
        for i, (mine, theirs) in enumerate(zip(recorded, played, strict=False)):
            diff = _difference(mine, theirs, f"{where}[{i}]")
            if diff:
                return diff
        if len(recorded) != len(played):
            return f"{where}: {len(recorded)} items recorded, the game gives {len(played)}"
        return None
    if recorded == played and type(recorded) is type(played):
        return None
    return f"{where}: recorded {_show(recorded)}, the game gives {_show(played)}"
