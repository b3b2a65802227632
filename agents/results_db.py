"""SQLite storage of tournament games: one row per finished game, plus the
health and tier of every seat after every round.

Writes are committed game by game, so an interrupted tournament loses nothing
that finished and a re-run skips what is already stored.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import stat
import time
import urllib.parse
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bgsim import cards
from combat_c.guarded import InputError, loads, shown

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


# The latest start time a run may record (the end of year 9999, in Unix seconds).
LAST_TIME = 253_402_300_799


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
    """The results file is not a bgsim results database, or cannot be used;
    the message names the file and the problem in one line."""


# The columns each table must have; later ones are added to older databases
# (MIGRATIONS) and read as their defaults where the file cannot be changed.
COLUMNS = {
    "runs": ("run", "lineup", "options", "seed", "created"),
    "games": ("run", "game", "seed", "seats", "placements", "turns", "seconds", "replay"),
    "rounds": ("run", "game", "turn", "seat", "health", "tier", "alive"),
}
MAX_STORED = 10**6  # a bound on stored counts, turns and seconds: beyond it a file was edited


KEYS = {  # each table's primary key, which resuming a run relies on
    "runs": ("run",),
    "games": ("run", "game"),
    "rounds": ("run", "game", "turn", "seat"),
}
MIGRATIONS = {
    "runs": {"fingerprints": "'{}'"},
    "games": {"heroes": "'[]'", "power_uses": "'[]'"},
}


@contextlib.contextmanager
def _sqlite_errors(path: Path) -> Iterator[None]:
    """Every SQLite failure on ``path`` as one :class:`ResultsError` line."""
    try:
        yield
    except sqlite3.Error as exc:
        text = str(exc)
        if "readonly" in text or "read-only" in text:
            problem = "cannot be written (a read-only file or folder)"
        elif "not a database" in text or "malformed" in text or "encrypted" in text:
            problem = f"not a bgsim results database ({text})"
        elif "unable to open" in text:
            problem = _unopenable(path)
        elif "locked" in text or "busy" in text:
            problem = "is locked by another program"
        else:
            problem = f"SQLite failed: {text}"
        raise ResultsError(f"{path}: {problem}") from None


def _unopenable(path: Path) -> str:
    """Why SQLite could not open ``path``, named where it can be told."""
    folder = path.parent
    if path.is_dir():
        return "cannot be opened: it is a folder"
    if not folder.is_dir():
        return f"cannot be opened: its folder {folder} does not exist"
    if not path.exists():
        if not os.access(folder, os.W_OK | os.X_OK):
            return f"cannot be made: its folder {folder} is not writable"
    elif not os.access(path, os.R_OK):
        return "cannot be opened: the file is not readable"
    elif not (os.access(path, os.W_OK) and os.access(folder, os.W_OK | os.X_OK)):
        # SQLite opens a database to write, with its journal beside it, or not at all.
        return "cannot be written (a read-only file or folder)"
    return "cannot be opened (an unreadable file or folder?)"


def _uri(path: Path, readonly: bool) -> str:
    """A read-only ``file:`` URI. Without a ``-wal`` file beside it the
    database is opened immutable, so reading creates no ``-wal``/``-shm``
    files; with one (a run in progress or killed) it is read through it."""
    uri = "file:" + urllib.parse.quote(os.fsencode(path.resolve()))  # any bytes of the name
    if Path(f"{path}-wal").exists():
        return uri + "?mode=ro"
    return uri + "?immutable=1"


def results_file_mode(path: str | Path, readonly: bool) -> int | None:
    """The mode of the results file at ``path`` (None: none there yet, which
    only a database to write may be), or a :class:`ResultsError` saying what
    the path is instead.

    >>> results_file_mode("/nonexistent.db", readonly=True)
    Traceback (most recent call last):
    ...
    agents.results_db.ResultsError: /nonexistent.db: no such results file
    """
    try:
        mode: int | None = os.stat(path).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as exc:  # a path the system cannot look at (too long, a loop)
        raise ResultsError(f"{shown(str(path), 200)}: cannot be used ({exc.strerror})") from None
    if mode is not None and stat.S_ISDIR(mode):
        raise ResultsError(f"{path}: is a directory, not a results file")
    if mode is not None and not stat.S_ISREG(mode):
        raise ResultsError(
            f"{path}: is not a regular file (a device, pipe or socket); "
            "a results database is a file"
        )
    if readonly and mode is None:
        raise ResultsError(f"{path}: no such results file")
    return mode


class ResultsDB:
    """The games of tournaments in one SQLite file.

    ``readonly=True`` (``bgsim plot``) never writes to the file: not its
    schema, not a journal. A file that is not a bgsim results database (text,
    another program's tables, a corrupt or unwritable file) or a path that is
    not a file (``:memory:`` would lose every result) is a
    :class:`ResultsError`.

    >>> import tempfile
    >>> from pathlib import Path
    >>> path = Path(tempfile.mkdtemp()) / "results.db"
    >>> with ResultsDB(path) as db:
    ...     db.finished("a-run")
    set()
    >>> ResultsDB(":memory:")
    Traceback (most recent call last):
    ...
    agents.results_db.ResultsError: ':memory:': results need a file (an in-memory ...)
    """

    def __init__(self, path: str | Path, readonly: bool = False) -> None:
        text = str(path)
        if not text or text == ":memory:" or "\0" in text:
            raise ResultsError(
                f"{shown(text, 60)}: results need a file (an in-memory database would lose them)"
            )
        if text == "-":  # the usual spelling of standard output
            raise ResultsError("'-': standard output is not a file here; give the database's path")
        if text.startswith("file:"):
            raise ResultsError(
                f"{shown(text, 60)}: a SQLite URI (results need a file: give its path)"
            )
        self.path = Path(path)
        self.readonly = readonly
        if text.endswith(("/", os.sep)):
            raise ResultsError(f"{self.path}: names a folder; a results database is a file")
        mode = results_file_mode(self.path, readonly)
        self._made = mode is None  # this object makes the file (see __exit__)
        # SQLite's journal files beside it, which a failed opening should not leave.
        journals = [Path(f"{self.path}{end}") for end in ("-wal", "-shm")]
        journals = [j for j in journals if not j.exists()]
        with _sqlite_errors(self.path):
            if readonly:
                self.conn = sqlite3.connect(_uri(self.path, True), uri=True, timeout=60)
            else:
                self.conn = sqlite3.connect(self.path, timeout=60)
            self._journals = journals
            try:
                self._columns = self._open()
            except BaseException:
                self.close()
                raise

    def _open(self) -> dict[str, set[str]]:
        """Check the file's tables (nothing written yet), then create or
        migrate them unless read-only; the columns of each table."""
        for name, kind in self.conn.execute(
            "SELECT name, type FROM sqlite_master WHERE type != 'table'"
        ).fetchall():
            if name in COLUMNS:
                raise ResultsError(
                    f"{self.path}: not a bgsim results database (its {name} is a {kind}, "
                    "not a table)"
                )
        columns = self._table_columns()
        if columns and not set(columns) & set(COLUMNS):
            raise ResultsError(
                f"{self.path}: not a bgsim results database (it holds other tables: "
                f"{', '.join(sorted(columns))[:80]})"
            )
        for table, need in COLUMNS.items():
            missing = [c for c in need if table in columns and c not in columns[table]]
            if missing:
                raise ResultsError(
                    f"{self.path}: not a bgsim results database (its {table} table has no "
                    f"{missing[0]} column)"
                )
        for table, key in KEYS.items():  # what writing (resuming a run) relies on
            if not self.readonly and table in columns and self._primary_key(table) != key:
                raise ResultsError(
                    f"{self.path}: not a bgsim results database (its {table} table is not "
                    f"keyed by {', '.join(key)})"
                )
        if self.readonly:
            for table in ("runs", "games"):
                if table not in columns:
                    raise ResultsError(
                        f"{self.path}: not a bgsim results database (no {table} table)"
                    )
            return columns
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.executescript(SCHEMA)
        columns = self._table_columns()
        for table, added in MIGRATIONS.items():
            for name, default in added.items():
                if name not in columns[table]:  # a database from before this column
                    self.conn.execute(
                        f"ALTER TABLE {table} ADD COLUMN {name} TEXT NOT NULL DEFAULT {default}"
                    )
        return self._table_columns()

    def _primary_key(self, table: str) -> tuple[str, ...]:
        rows = self.conn.execute(f"PRAGMA table_info({_quote(table)})").fetchall()
        return tuple(row[1] for row in sorted(rows, key=lambda r: r[5]) if row[5])

    def _table_columns(self) -> dict[str, set[str]]:
        tables = [
            row[0] for row in self.conn.execute("SELECT name FROM sqlite_master WHERE type='table'")
        ]
        return {
            t: {row[1] for row in self.conn.execute(f"PRAGMA table_info({_quote(t)})")}
            for t in tables
        }

    def _column(self, table: str, name: str, prefix: str = "") -> str:
        """``name`` in a query, or its default where an old read-only file lacks it."""
        if name in self._columns.get(table, ()):
            return prefix + name
        return MIGRATIONS[table][name]

    def close(self) -> None:
        """Close the connection. Journal files this object's connection made
        and SQLite could not remove (a file it may read but not write) go
        too, when they hold nothing: an empty ``-wal``.

        >>> import tempfile
        >>> with tempfile.TemporaryDirectory() as folder:
        ...     db = ResultsDB(Path(folder) / "r.db")
        ...     db.close()
        ...     sorted(p.name for p in Path(folder).iterdir())
        ['r.db']
        """
        self.conn.close()
        wal = Path(f"{self.path}-wal")
        with contextlib.suppress(OSError):
            if wal in self._journals and wal.exists() and wal.stat().st_size == 0:
                for journal in self._journals:
                    journal.unlink(missing_ok=True)

    def __enter__(self) -> ResultsDB:
        return self

    def __exit__(self, kind: object, *exc: object) -> None:
        """Close; a file this object made is removed again when the block
        fails while it holds no run and no game (a failed command leaves
        nothing; a run another command started in it keeps it)."""
        unused = kind is not None and self._made and self._empty()
        self.close()
        if unused:
            for suffix in ("", "-journal", "-wal", "-shm"):
                with contextlib.suppress(OSError):
                    os.unlink(f"{self.path}{suffix}")

    def _empty(self) -> bool:
        try:
            return not any(
                self.conn.execute(f"SELECT 1 FROM {table} LIMIT 1").fetchone()
                for table in ("runs", "games")
            )
        except sqlite3.Error:  # unreadable now: keep the file
            return False

    def add_run(
        self, run: str, lineup: str, options: dict, seed: int, fingerprints: dict[str, str]
    ) -> None:
        """Record run ``run``, unless it is there already: then a larger
        ``games`` in ``options`` (a run resumed to play more games) becomes
        its planned count.

        >>> import tempfile
        >>> from pathlib import Path
        >>> with ResultsDB(Path(tempfile.mkdtemp()) / "r.db") as db:
        ...     db.add_run("r", "random:8", {"games": 2}, 0, {})
        ...     db.add_run("r", "random:8", {"games": 5}, 0, {})
        ...     db.conn.execute("SELECT options FROM runs").fetchone()[0]
        '{"games": 5}'
        """
        with _sqlite_errors(self.path), self.conn:
            added = self.conn.execute(
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
            ).rowcount
            games = options.get("games")
            if added or not isinstance(games, int):
                return
            row = self.conn.execute("SELECT options FROM runs WHERE run = ?", (run,)).fetchone()
            try:
                stored = loads(row[0], "runs.options") if row else None
            except InputError:  # report and runs name a bad stored value; not this
                return
            if not isinstance(stored, dict):
                return
            planned = stored.get("games")
            if type(planned) is int and planned < games:
                stored["games"] = games
                self.conn.execute(
                    "UPDATE runs SET options = ? WHERE run = ?",
                    (json.dumps(stored, sort_keys=True), run),
                )

    def drop_run_if_empty(self, run: str) -> None:
        """Forget run ``run`` if none of its games is stored (a run that
        failed before its first game leaves nothing behind)."""
        with _sqlite_errors(self.path), self.conn:
            self.conn.execute(
                "DELETE FROM runs WHERE run = ? AND NOT EXISTS "
                "(SELECT 1 FROM games WHERE games.run = runs.run)",
                (run,),
            )

    def finished(self, run: str) -> set[int]:
        with _sqlite_errors(self.path):
            rows = self.conn.execute("SELECT game FROM games WHERE run = ?", (run,)).fetchall()
        return {r[0] for r in rows}

    def add_game(self, rec: GameRecord) -> None:
        with _sqlite_errors(self.path), self.conn:
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
        heroes = self._column("games", "heroes", "g.")
        uses = self._column("games", "power_uses", "g.")
        query = (
            "SELECT g.run, g.game, g.seed, g.seats, g.placements, g.turns, g.seconds, g.replay, "
            f"{heroes}, {uses} FROM games g JOIN runs r ON r.run = g.run"
        )
        args: list = []
        if runs is not None:
            runs = list(runs)
            query += f" WHERE g.run IN ({','.join('?' * len(runs))})"
            args = runs
        query += " ORDER BY r.created, g.game"
        with _sqlite_errors(self.path):
            rows = self.conn.execute(query, args).fetchall()
        return [self._record(row) for row in rows]

    def _record(self, row: tuple) -> GameRecord:
        """A stored game, checked: a file edited or damaged by hand gives a
        :class:`ResultsError` naming the game, not a crash further on."""
        run, game, seed, seats, placements, turns, seconds, replay, heroes, uses = row
        where = f"{self.path}: game {shown(game, 20)} of run {shown(run)}"
        seat_list = self._json_list(seats, where, "seats")
        places = self._json_list(placements, where, "placements")
        if not seat_list or not all(isinstance(x, str) for x in seat_list):
            raise ResultsError(f"{where}: seats is not a list of agent labels")
        n = len(seat_list)
        if len(places) != n:
            raise ResultsError(
                f"{where}: seats names {n} agents but placements holds {len(places)} places"
            )
        if not all(type(p) is int for p in places) or sorted(places) != list(range(1, n + 1)):
            raise ResultsError(f"{where}: placements are not 1..{n}, one per seat")
        hero_list = self._json_list(heroes, where, "heroes")
        use_list = self._json_list(uses, where, "power_uses")
        _check_columns(
            where,
            [
                ("run", run, isinstance(run, str), "text"),
                ("game", game, type(game) is int, "an integer"),
                ("seed", seed, type(seed) is int, "an integer"),
                ("turns", turns, type(turns) is int, "an integer"),
                ("seconds", seconds, isinstance(seconds, int | float), "a number"),
                ("replay", replay, replay is None or isinstance(replay, str), "a file name"),
                *_items("heroes", hero_list, lambda h: isinstance(h, str), "a hero card id"),
                *_items("power_uses", use_list, lambda u: type(u) is int, "a count"),
            ],
        )
        if not (0 <= game <= MAX_STORED and 0 <= turns <= MAX_STORED and 0 <= seed < 2**64):
            raise ResultsError(f"{where}: its game index, turns or seed is out of range")
        if not 0.0 <= seconds <= MAX_STORED:  # NaN fails too
            raise ResultsError(f"{where}: seconds is not a duration")
        if len(hero_list) not in (0, n) or not all(map(cards().is_hero, hero_list)):
            raise ResultsError(f"{where}: heroes is not one hero card id per seat")
        if len(use_list) not in (0, n) or not all(0 <= u <= MAX_STORED for u in use_list):
            raise ResultsError(f"{where}: power_uses is not one count per seat")
        return GameRecord(
            run,
            game,
            seed,
            tuple(seat_list),
            tuple(places),
            turns,
            float(seconds),
            (),
            replay,
            tuple(hero_list),
            tuple(use_list),
        )

    @staticmethod
    def _json_list(text: Any, where: str, name: str) -> list:
        try:
            value = loads(text, f"{where}, {name}") if isinstance(text, str | bytes) else None
        except InputError as exc:
            raise ResultsError(str(exc)) from None
        if not isinstance(value, list):
            raise ResultsError(f"{where}: {name} is not a JSON list")
        return value

    def rounds(self, runs: Iterable[str] | None = None) -> list[tuple]:
        """(run, game, turn, seat, health, tier, alive) rows."""
        if "rounds" not in self._columns:  # an old read-only file
            return []
        query = "SELECT run, game, turn, seat, health, tier, alive FROM rounds"
        args: list = []
        if runs is not None:
            runs = list(runs)
            query += f" WHERE run IN ({','.join('?' * len(runs))})"
            args = runs
        with _sqlite_errors(self.path):
            rows = self.conn.execute(query + " ORDER BY run, game, turn, seat", args).fetchall()
        for row in rows:
            if not all(type(v) is int for v in row[1:]):
                raise ResultsError(f"{self.path}: a round of run {shown(row[0])} is not numbers")
            _game, turn, seat, health, tier, alive = row[1:]
            if not (
                0 <= turn <= MAX_STORED
                and 0 <= seat < 8
                and -MAX_STORED <= health <= MAX_STORED
                and 1 <= tier <= 6  # no ruleset has more tavern tiers
                and alive in (0, 1)
            ):
                raise ResultsError(
                    f"{self.path}: a round of run {shown(row[0])} is out of range "
                    f"(turn {turn}, seat {seat}, health {health}, tier {tier}, alive {alive})"
                )
        return rows

    def runs_with_fingerprints(self) -> list[tuple[str, str, dict, int, dict[str, str]]]:
        """(run, lineup, options, seed, fingerprints) of every stored run."""
        prints = self._column("runs", "fingerprints")
        with _sqlite_errors(self.path):
            rows = self.conn.execute(
                f"SELECT run, lineup, options, seed, {prints} FROM runs ORDER BY created"
            ).fetchall()
        for r, lu, *_ in rows:
            _check_columns(f"{self.path}: run {shown(r)}", _text_columns(r, lu))
        return [
            (r, lu, self._json_dict(o, r, "options"), sd, self._json_dict(f, r, "fingerprints"))
            for r, lu, o, sd, f in rows
        ]

    def runs(self) -> list[tuple[str, str, dict, int]]:
        return [(r, lu, o, sd) for r, lu, o, sd, _ in self.runs_with_fingerprints()]

    def run_details(self) -> list[dict]:
        """Every stored run, oldest first, as a dict: ``run``, ``lineup``,
        ``options``, ``seed``, ``created`` (Unix time), ``fingerprints`` and
        ``games`` (finished games stored). Each field is checked, as
        :meth:`games` checks its records."""
        prints = self._column("runs", "fingerprints", "r.")
        with _sqlite_errors(self.path):
            rows = self.conn.execute(
                f"SELECT r.run, r.lineup, r.options, r.seed, r.created, {prints}, "
                "(SELECT COUNT(*) FROM games g WHERE g.run = r.run) FROM runs r ORDER BY r.created"
            ).fetchall()
        keys = ("run", "lineup", "options", "seed", "created", "fingerprints", "games")
        out = []
        for row in rows:
            item = dict(zip(keys, row, strict=True))
            run, lineup, seed, created = (item[k] for k in ("run", "lineup", "seed", "created"))
            _check_columns(
                f"{self.path}: run {shown(run)}",
                [
                    *_text_columns(run, lineup),
                    ("seed", seed, type(seed) is int, "an integer"),
                    ("created", created, _is_time(created), "a date"),
                ],
            )
            item["options"] = self._json_dict(item["options"], run, "options")
            item["fingerprints"] = self._json_dict(item["fingerprints"], run, "fingerprints")
            out.append(item)
        return out

    def _json_dict(self, text: Any, run: Any, name: str) -> dict:
        where = f"{self.path}: run {shown(run)}"
        if isinstance(text, str | bytes) and len(text) > MAX_TEXT:
            raise ResultsError(f"{where}: {name} is longer than {MAX_TEXT:,} characters")
        try:
            value = loads(text, f"{where}, {name}") if isinstance(text, str | bytes) else None
        except InputError as exc:
            raise ResultsError(str(exc)) from None
        if not isinstance(value, dict):
            raise ResultsError(f"{where}: {name} is not a JSON object")
        if name == "fingerprints" and not all(isinstance(v, str) for v in value.values()):
            raise ResultsError(f"{where}: fingerprints are not text")
        return value


# Longest run key, lineup or JSON column read back: far above what a run
# writes (eight labels, each with a file path at most), far below what
# would flood a terminal or a report.
MAX_TEXT = 100_000

# (column, stored value, whether it is of its kind, what it should be)
_Column = tuple[str, Any, bool, str]


def _check_columns(where: str, columns: Iterable[_Column]) -> None:
    """Raise :class:`ResultsError` naming the first column whose value is
    not of its kind, and the value."""
    for name, value, ok, what in columns:
        if not ok:
            raise ResultsError(f"{where}: {name}: {shown(value)} is not {what}")


def _items(name: str, items: list, ok: Callable[[Any], bool], what: str) -> Iterator[_Column]:
    """A JSON list column's items as columns to check (``power_uses[2]``)."""
    return ((f"{name}[{i}]", x, ok(x), what) for i, x in enumerate(items))


def _text_columns(run: Any, lineup: Any) -> list[_Column]:
    """A run's key and lineup as columns to check: text a table line can show."""
    what = f"text of at most {MAX_TEXT:,} characters"
    return [
        (name, value, isinstance(value, str) and len(value) <= MAX_TEXT, what)
        for name, value in (("run", run), ("lineup", lineup))
    ]


def _is_time(value: Any) -> bool:
    """A run's start as stored: Unix seconds up to the year 9999 (NaN is not)."""
    return isinstance(value, int | float) and 0 <= value <= LAST_TIME


def _quote(name: str) -> str:
    """An SQL identifier, quoted."""
    return '"' + name.replace('"', '""') + '"'
