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
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

SCHEMA_VERSION = 2
READABLE_VERSIONS = (1, 2)

_CARD_KEYS = {"card": str, "name": str, "attack": int, "health": int, "golden": bool, "tier": int}
_VIEW_KEYS = {"gold": int, "tier": int, "upgrade_cost": int, "health": int, "frozen": bool}
_VIEW_LISTS = ("shop", "hand", "board", "discover")


class ReplayError(ValueError):
    """A replay that cannot be read: the message names the file and line."""


@dataclass(frozen=True)
class Replay:
    header: dict[str, Any]
    records: tuple[dict[str, Any], ...]

    @property
    def agents(self) -> list[str]:
        return list(self.header["agents"])

    @property
    def players(self) -> int:
        return int(self.header["players"])


class ReplayWriter:
    """Writes a replay line by line (flushes each line so a crash keeps the rest)."""

    def __init__(self, path: str | Path, header: dict[str, Any]) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._file: IO[str] = self.path.open("w", encoding="utf-8")
        self.write({"type": "header", "schema": SCHEMA_VERSION, **header})

    def write(self, record: dict[str, Any]) -> None:
        self._file.write(json.dumps(record, separators=(",", ":")) + "\n")

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> ReplayWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _need(obj: Any, key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if not isinstance(obj, dict) or key not in obj:
        raise ValueError(f"{where}: missing {key!r}")
    value = obj[key]
    if kind is int and isinstance(value, bool):
        raise ValueError(f"{where}.{key}: expected int, got {value!r}")
    if not isinstance(value, kind):
        name = kind.__name__ if isinstance(kind, type) else "/".join(k.__name__ for k in kind)
        raise ValueError(f"{where}.{key}: expected {name}, got {value!r}")
    return value


def _check_card(card: Any, where: str) -> None:
    for key, kind in _CARD_KEYS.items():
        _need(card, key, kind, where)
    _need(card, "keywords", list, where)


def _check_view(view: Any, where: str) -> None:
    for key, kind in _VIEW_KEYS.items():
        _need(view, key, kind, where)
    for key in _VIEW_LISTS:
        for i, card in enumerate(_need(view, key, list, where)):
            _check_card(card, f"{where}.{key}[{i}]")


def _check_record(rec: Any, players: int) -> None:
    kind = _need(rec, "type", str, "record")
    if kind in ("recruit", "action"):
        _need(rec, "turn", int, kind)
        p = _need(rec, "player", int, kind)
        if not 0 <= p < players:
            raise ValueError(f"{kind}.player: {p} is not a seat")
        _check_view(_need(rec, "state", dict, kind), f"{kind}.state")
        if kind == "action":
            _need(rec, "action", str, kind)
            _need(rec, "code", int, kind)
    elif kind == "combat":
        _need(rec, "turn", int, kind)
        pair = _need(rec, "players", list, kind)
        if len(pair) != 2 or not all(isinstance(p, int) and 0 <= p < players for p in pair):
            raise ValueError(f"combat.players: expected two seats, got {pair!r}")
        boards = _need(rec, "boards", list, kind)
        if len(boards) != 2:
            raise ValueError("combat.boards: expected two board specs")
        for i, board in enumerate(boards):
            _need(board, "minions", list, f"combat.boards[{i}]")
            _need(board, "tier", int, f"combat.boards[{i}]")
        for i, ev in enumerate(_need(rec, "events", list, kind)):
            _need(ev, "kind", str, f"combat.events[{i}]")
            _need(ev, "eid", int, f"combat.events[{i}]")
        _need(rec, "winner", int, kind)
        _need(rec, "damage", int, kind)
        _need(rec, "ghost", bool, kind)
    elif kind == "standings":
        _need(rec, "turn", int, kind)
        for i, s in enumerate(_need(rec, "players", list, kind)):
            for key in ("player", "health", "tier"):
                _need(s, key, int, f"standings.players[{i}]")
            _need(s, "alive", bool, f"standings.players[{i}]")
    elif kind == "draft":
        p = _need(rec, "player", int, kind)
        if not 0 <= p < players:
            raise ValueError(f"draft.player: {p} is not a seat")
        offers = _need(rec, "offers", list, kind)
        if not offers or not all(isinstance(o, str) for o in offers):
            raise ValueError("draft.offers: expected a list of hero ids")
    elif kind == "end":
        placements = _need(rec, "placements", list, kind)
        if sorted(placements) != list(range(1, players + 1)):
            raise ValueError(f"end.placements: not a placement of {players} players")
    else:
        raise ValueError(f"unknown record type {kind!r}")


def parse_replay(lines: Iterable[str], name: str = "<replay>") -> Replay:
    header: dict[str, Any] | None = None
    records: list[dict[str, Any]] = []
    players = 0
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ReplayError(f"{name}, line {number}: not valid JSON ({exc.msg})") from None
        try:
            if header is None:
                if not isinstance(rec, dict) or rec.get("type") != "header":
                    raise ValueError("the first line must be the header")
                version = rec.get("schema")
                if version not in READABLE_VERSIONS:
                    raise ValueError(
                        f"unknown schema version {version!r:.20} (this bgsim reads "
                        f"{', '.join(map(str, READABLE_VERSIONS))})"
                    )
                _need(rec, "seed", int, "header")
                _need(rec, "ruleset", str, "header")
                players = _need(rec, "players", int, "header")
                agents = _need(rec, "agents", list, "header")
                if len(agents) != players:
                    raise ValueError("header.agents: one label per player expected")
                header = rec
                continue
            _check_record(rec, players)
        except ValueError as exc:
            raise ReplayError(f"{name}, line {number}: {exc}") from None
        records.append(rec)
    if header is None:
        raise ReplayError(f"{name}: empty file, no header")
    if not records or records[-1]["type"] != "end":
        raise ReplayError(f"{name}: truncated after line {number}: no end record")
    return Replay(header, tuple(records))


def read_replay(path: str | Path) -> Replay:
    """Read and validate a replay file (raises :class:`ReplayError`)."""
    path = Path(path)
    try:
        with path.open(encoding="utf-8") as f:
            return parse_replay(f, str(path))
    except OSError as exc:
        raise ReplayError(f"{path}: cannot read ({exc.strerror})") from None
    except UnicodeDecodeError:
        raise ReplayError(f"{path}: not a text file") from None


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


def write_replay(path: str | Path, lobby: Any, agents: list[str]) -> Path:
    """Write the replay of a finished (or running) lobby.

    The tavern views are rebuilt by replaying the lobby's logged actions on a
    fresh lobby of the same seed and ruleset (the game is deterministic), so
    playing never pays for them; no agent runs again.
    """
    from bgsim.lobby import Lobby

    fresh = Lobby(lobby.seed, lobby.rules, heroes=lobby.heroes)
    header = {
        "seed": lobby.seed,
        "ruleset": lobby.rules.id,
        "agents": list(agents),
        "players": lobby.players,
        "tribes": list(lobby.tribes),
        "heroes": lobby.heroes,
    }
    with ReplayWriter(path, header) as out:
        for rec in lobby.log:
            kind = rec["type"]
            if kind == "draft":
                out.write(rec)
            elif kind == "turn":
                if rec["turn"] > 1:
                    out.write(_standings(fresh, rec["turn"] - 1))
                for p in fresh.to_act():
                    out.write(
                        {
                            "type": "recruit",
                            "turn": rec["turn"],
                            "player": p,
                            "state": player_view(fresh.state(p)),
                        }
                    )
            elif kind == "action":
                player = rec["player"]
                fresh.apply(player, rec["action"])
                out.write(
                    {
                        "type": "action",
                        "turn": rec["turn"],
                        "player": player,
                        "action": rec["text"],
                        "code": rec["action"],
                        "state": player_view(fresh.state(player)),
                    }
                )
            elif kind == "combat":
                out.write(
                    {
                        "type": "combat",
                        "turn": rec["turn"],
                        "players": rec["players"],
                        "ghost": rec["ghost"],
                        "boards": rec["boards"],
                        "events": rec["events"],
                        "winner": rec["winner"],
                        "damage": rec["damage"],
                    }
                )
            elif kind == "end":
                out.write(_standings(fresh, rec["turn"]))
                placements = dict((p, place) for p, place in rec["placements"])
                out.write(
                    {"type": "end", "placements": [placements[p] for p in range(lobby.players)]}
                )
    return Path(path)
