"""SQLite storage of tournament games: one row per finished game, plus the
health and tier of every seat after every round.

Writes are committed game by game, so an interrupted tournament loses nothing
that finished and a re-run skips what is already stored.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    run TEXT PRIMARY KEY,        -- key of (lineup, options, base seed)
    lineup TEXT NOT NULL,
    options TEXT NOT NULL,       -- JSON: budget, ruleset and other settings
    seed INTEGER NOT NULL,
    created REAL NOT NULL,
    fingerprints TEXT NOT NULL DEFAULT '{}'  -- JSON: agent label (and "bgsim") -> code hash
);
CREATE TABLE IF NOT EXISTS games (
    run TEXT NOT NULL REFERENCES runs(run),
    game INTEGER NOT NULL,       -- index of the game within its run
    seed INTEGER NOT NULL,       -- the lobby seed
    seats TEXT NOT NULL,         -- JSON list: agent label per seat
    placements TEXT NOT NULL,    -- JSON list: placement (1..8) per seat
    turns INTEGER NOT NULL,
    seconds REAL NOT NULL,
    replay TEXT,                 -- path of the replay file, if one was written
    finished REAL NOT NULL,
    heroes TEXT NOT NULL DEFAULT '[]',      -- JSON list: hero card id per seat (or empty)
    power_uses TEXT NOT NULL DEFAULT '[]',  -- JSON list: hero power uses per seat
    PRIMARY KEY (run, game)
);
CREATE TABLE IF NOT EXISTS rounds (
    run TEXT NOT NULL,
    game INTEGER NOT NULL,
    turn INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    health INTEGER NOT NULL,
    tier INTEGER NOT NULL,
    alive INTEGER NOT NULL,
    PRIMARY KEY (run, game, turn, seat)
);
"""


@dataclass(frozen=True)
class GameRecord:
    run: str
    game: int
    seed: int
    seats: tuple[str, ...]
    placements: tuple[int, ...]
    turns: int
    seconds: float
    rounds: tuple[tuple[int, int, int, int, int], ...]  # (turn, seat, health, tier, alive)
    replay: str | None = None
    heroes: tuple[str, ...] = ()  # hero card id per seat, in lobbies with heroes
    power_uses: tuple[int, ...] = ()  # hero power uses per seat


class ResultsError(RuntimeError):
    """The results file is not a bgsim results database."""


class ResultsDB:
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            self.conn = sqlite3.connect(self.path, timeout=60)
            self.conn.execute("PRAGMA journal_mode=WAL")
            self.conn.executescript(SCHEMA)
            columns = {row[1] for row in self.conn.execute("PRAGMA table_info(runs)")}
            if "fingerprints" not in columns:  # a database from before fingerprints
                self.conn.execute(
                    "ALTER TABLE runs ADD COLUMN fingerprints TEXT NOT NULL DEFAULT '{}'"
                )
            columns = {row[1] for row in self.conn.execute("PRAGMA table_info(games)")}
            for name in ("heroes", "power_uses"):  # a database from before heroes
                if name not in columns:
                    self.conn.execute(
                        f"ALTER TABLE games ADD COLUMN {name} TEXT NOT NULL DEFAULT '[]'"
                    )
        except sqlite3.DatabaseError as exc:
            raise ResultsError(f"{self.path}: not a bgsim results database ({exc})") from None

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> ResultsDB:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def add_run(
        self, run: str, lineup: str, options: dict, seed: int, fingerprints: dict[str, str]
    ) -> None:
        with self.conn:
            self.conn.execute(
                "INSERT OR IGNORE INTO runs (run, lineup, options, seed, created, fingerprints) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (
                    run,
                    lineup,
                    json.dumps(options, sort_keys=True),
                    seed,
                    time.time(),
                    json.dumps(fingerprints, sort_keys=True),
                ),
            )

    def finished(self, run: str) -> set[int]:
        rows = self.conn.execute("SELECT game FROM games WHERE run = ?", (run,))
        return {r[0] for r in rows}

    def add_game(self, rec: GameRecord) -> None:
        with self.conn:
            self.conn.execute(
                "INSERT OR REPLACE INTO games (run, game, seed, seats, placements, turns, "
                "seconds, replay, finished, heroes, power_uses) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    rec.run,
                    rec.game,
                    rec.seed,
                    json.dumps(list(rec.seats)),
                    json.dumps(list(rec.placements)),
                    rec.turns,
                    rec.seconds,
                    rec.replay,
                    time.time(),
                    json.dumps(list(rec.heroes)),
                    json.dumps(list(rec.power_uses)),
                ),
            )
            self.conn.executemany(
                "INSERT OR REPLACE INTO rounds VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(rec.run, rec.game, *r) for r in rec.rounds],
            )

    def games(self, runs: Iterable[str] | None = None) -> list[GameRecord]:
        """Finished games, oldest run first, in game order."""
        query = (
            "SELECT g.run, g.game, g.seed, g.seats, g.placements, g.turns, g.seconds, g.replay, "
            "g.heroes, g.power_uses FROM games g JOIN runs r ON r.run = g.run"
        )
        args: list = []
        if runs is not None:
            runs = list(runs)
            query += f" WHERE g.run IN ({','.join('?' * len(runs))})"
            args = runs
        query += " ORDER BY r.created, g.game"
        out = []
        for row in self.conn.execute(query, args):
            run, game, seed, seats, placements, turns, seconds, replay, heroes, uses = row
            out.append(
                GameRecord(
                    run,
                    game,
                    seed,
                    tuple(json.loads(seats)),
                    tuple(json.loads(placements)),
                    turns,
                    seconds,
                    (),
                    replay,
                    tuple(json.loads(heroes)),
                    tuple(json.loads(uses)),
                )
            )
        return out

    def rounds(self, runs: Iterable[str] | None = None) -> list[tuple]:
        """(run, game, turn, seat, health, tier, alive) rows."""
        query = "SELECT run, game, turn, seat, health, tier, alive FROM rounds"
        args: list = []
        if runs is not None:
            runs = list(runs)
            query += f" WHERE run IN ({','.join('?' * len(runs))})"
            args = runs
        return list(self.conn.execute(query + " ORDER BY run, game, turn, seat", args))

    def runs_with_fingerprints(self) -> list[tuple[str, str, dict, int, dict[str, str]]]:
        """(run, lineup, options, seed, fingerprints) of every stored run."""
        rows = self.conn.execute(
            "SELECT run, lineup, options, seed, fingerprints FROM runs ORDER BY created"
        )
        return [(r, lu, json.loads(o), sd, json.loads(f)) for r, lu, o, sd, f in rows]

    def runs(self) -> list[tuple[str, str, dict, int]]:
        rows = self.conn.execute("SELECT run, lineup, options, seed FROM runs ORDER BY created")
        return [(r, lineup, json.loads(opts), seed) for r, lineup, opts, seed in rows]

    def run_details(self) -> list[dict]:
        """Every stored run, oldest first, as a dict: ``run``, ``lineup``,
        ``options``, ``seed``, ``created`` (Unix time), ``fingerprints`` and
        ``games`` (finished games stored)."""
        rows = self.conn.execute(
            "SELECT r.run, r.lineup, r.options, r.seed, r.created, r.fingerprints, "
            "(SELECT COUNT(*) FROM games g WHERE g.run = r.run) FROM runs r ORDER BY r.created"
        )
        keys = ("run", "lineup", "options", "seed", "created", "fingerprints", "games")
        out = []
        for row in rows:
            item = dict(zip(keys, row, strict=True))
            item["options"] = json.loads(item["options"])
            item["fingerprints"] = json.loads(item["fingerprints"])
            out.append(item)
        return out
