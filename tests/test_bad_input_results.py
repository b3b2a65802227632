"""Bad results databases for ``bgsim tournament``, ``plot``, ``runs`` and
``report``, and the commands that only read a database never writing into
it. Every case is one line naming the problem, exit code 2, no traceback."""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

import pytest
from cli_helpers import digest, refused, run

from agents.results_db import ResultsDB, ResultsError

TOURNAMENT = ("tournament", "--lineup", "random:8", "--games", "1", "--json")


def _results(path: Path, games: int = 2) -> Path:
    code = _main(*TOURNAMENT[:-3], "--games", games, "--db", path, "--json")
    assert code == 0
    return path


def _main(*args: object) -> int:
    from bgsim.cli import main

    return main([str(a) for a in args])


def _sqlite(path: Path, script: str) -> Path:
    conn = sqlite3.connect(path)
    conn.executescript(script)
    conn.commit()
    conn.close()
    return path


def _bad_files(tmp_path: Path) -> dict[str, tuple[Path, str]]:
    text = tmp_path / "text.db"
    text.write_text("this is not sqlite\n" * 50)
    binary = tmp_path / "binary.db"
    binary.write_bytes(bytes(range(256)) * 64)
    corrupt = tmp_path / "corrupt.db"
    corrupt.write_bytes(b"SQLite format 3\0" + bytes(range(256)) * 32)
    foreign = _sqlite(tmp_path / "foreign.db", "CREATE TABLE people (name TEXT);")
    shape = _sqlite(tmp_path / "shape.db", "CREATE TABLE games (x INTEGER);")
    return {
        "text": (text, "not a bgsim results database"),
        "binary": (binary, "not a bgsim results database"),
        "corrupt": (corrupt, "not a bgsim results database"),
        "foreign": (foreign, "other tables: people"),
        "shape": (shape, "games table has no run column"),
    }


@pytest.mark.parametrize("case", ["text", "binary", "corrupt", "foreign", "shape"])
def test_a_file_that_is_not_a_results_database(case, tmp_path, capsys):
    path, names = _bad_files(tmp_path)[case]
    before = digest(tmp_path)
    refused(capsys, (*TOURNAMENT, "--db", path), path.name, names)
    refused(capsys, ("plot", path, "--out", tmp_path / "plots"), path.name, names)
    refused(capsys, ("runs", path), path.name, names)
    refused(capsys, ("report", path, "--out", tmp_path / "r.html"), path.name, names)
    assert digest(tmp_path) == before  # no command changed or added a file


@pytest.mark.parametrize("name", [":memory:", "", "file:x.db?mode=memory"])
def test_a_database_that_would_lose_its_results(name, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    refused(capsys, (*TOURNAMENT, "--db", name), "results need a file")
    assert list(tmp_path.iterdir()) == []


def test_a_database_path_that_is_a_folder(tmp_path, capsys):
    refused(capsys, (*TOURNAMENT, "--db", tmp_path), str(tmp_path), "is a directory")
    before = sorted(tmp_path.iterdir())
    refused(capsys, (*TOURNAMENT, "--db", f"{tmp_path}/new/"), "names a folder")
    refused(capsys, (*TOURNAMENT, "--db", f"{tmp_path}/r.db/"), "names a folder")
    missing = tmp_path / "missing" / "parent"
    refused(capsys, (*TOURNAMENT, "--db", missing / "x.db"), f"its folder {missing} does not exist")
    assert sorted(tmp_path.iterdir()) == before
    with pytest.raises(ResultsError, match="does not exist"):  # the class says the same
        ResultsDB(missing / "x.db")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes")
def test_a_database_path_that_is_a_pipe_is_left_alone(tmp_path, capsys):
    pipe = tmp_path / "pipe.db"
    os.mkfifo(pipe)
    refused(capsys, (*TOURNAMENT, "--db", pipe), "pipe.db", "not a regular file")
    for args in (("runs", pipe), ("plot", pipe), ("report", pipe, "--out", tmp_path / "r.html")):
        refused(capsys, args, "pipe.db")
    assert pipe.is_fifo() and sorted(p.name for p in tmp_path.iterdir()) == ["pipe.db"]
    refused(capsys, ("plot", tmp_path), str(tmp_path), "is a directory, not a results file")
    refused(capsys, ("plot", tmp_path / "nope.db"), "nope.db", "no such results file")


def test_a_read_only_database(tmp_path, capsys, monkeypatch):
    path = _results(tmp_path / "r.db")
    capsys.readouterr()
    if os.geteuid() != 0:
        path.chmod(0o444)
    else:  # root writes to any file: open it the read-only way SQLite offers
        connect = sqlite3.connect

        def read_only(target: object, *args: object, **kwargs: object) -> sqlite3.Connection:
            if isinstance(target, Path):
                return connect(f"file:{target}?mode=ro", *args, uri=True, **kwargs)
            return connect(target, *args, **kwargs)

        monkeypatch.setattr("agents.results_db.sqlite3.connect", read_only)
    refused(capsys, (*TOURNAMENT, "--games", "3", "--db", path), "r.db", "cannot be written")


def test_a_database_on_a_read_only_file_system(tmp_path, capsys, monkeypatch):
    # SQLite cannot open a database to write where it cannot make its journal:
    # it says only "unable to open database file", and bgsim names the cause.
    path = _results(tmp_path / "r.db")
    capsys.readouterr()

    def unable(*args: object, **kwargs: object) -> sqlite3.Connection:
        raise sqlite3.OperationalError("unable to open database file")

    def access(target: object, mode: int) -> bool:
        return not mode & os.W_OK  # readable, not writable (EROFS)

    monkeypatch.setattr("agents.results_db.sqlite3.connect", unable)
    monkeypatch.setattr("agents.results_db.os.access", access)
    refused(capsys, (*TOURNAMENT, "--games", "3", "--db", path), "r.db", "read-only file or folder")


def test_hand_edited_rows_are_named(tmp_path, capsys):
    path = _results(tmp_path / "r.db", games=1)
    capsys.readouterr()
    edits = {
        "UPDATE games SET seats = '{\"a\": 1}'": "seats is not a JSON list",
        "UPDATE games SET seats = '[1, 2, 3, 4, 5, 6, 7, 8]'": "seats is not a list",
        "UPDATE games SET placements = '[1, \"2\", 3, 4, 5, 6, 7, 8]'": "placements are not",
        "UPDATE games SET placements = 'NaN'": "not valid JSON",
        "UPDATE games SET placements = '" + "[" * 500 + "]" * 500 + "'": "nested deeper",
        "UPDATE games SET heroes = '[[1]]'": "heroes[0]: [1] is not a hero card id",
        "UPDATE games SET power_uses = '[\"a\", 0, 0, 0, 0, 0, 0, 0]'": (
            "power_uses[0]: 'a' is not a count"
        ),
        "UPDATE games SET seed = 9.9e300": "seed: 9.9e+300 is not an integer",
        "UPDATE games SET replay = x'00'": "replay: b'\\x00' is not a file name",
        "UPDATE rounds SET health = 'x'": "is not numbers",
        "UPDATE rounds SET tier = 7": "is out of range",
        'UPDATE games SET seats = \'["a", "b", "c", "d", "e", "f", "g"]\'': (
            "seats names 7 agents but placements holds 8 places"
        ),
    }
    for sql, names in edits.items():
        copy = tmp_path / "copy.db"
        copy.write_bytes(path.read_bytes())
        _sqlite(copy, sql)
        refused(capsys, ("plot", copy, "--out", tmp_path / "plots"), "copy.db", names)
        refused(capsys, ("report", copy, "--out", tmp_path / "r.html"), "copy.db", names)
        with ResultsDB(copy, readonly=True) as db, pytest.raises(ResultsError):
            db.games()
            db.rounds()
    assert not (tmp_path / "plots").exists() and not (tmp_path / "r.html").exists()


@pytest.mark.parametrize(
    "sql, names",
    [
        ("UPDATE runs SET options = '[1'", "options: not valid JSON"),
        ("UPDATE runs SET options = '[1]'", "options is not a JSON object"),
        ("UPDATE runs SET fingerprints = '{\"random\": 5}'", "fingerprints are not text"),
        ("UPDATE runs SET fingerprints = '{\"a\": [1]}'", "fingerprints are not text"),
        ("UPDATE runs SET created = 1e300", "created: 1e+300 is not a date"),
        ("UPDATE runs SET created = -1", "created: -1.0 is not a date"),
        ("UPDATE runs SET created = -1e18", "created: -1e+18 is not a date"),
        ("UPDATE runs SET created = 'nan'", "created: 'nan' is not a date"),
        ("UPDATE runs SET created = 'yesterday'", "created: 'yesterday' is not a date"),
        ("UPDATE runs SET lineup = x'00ff'", "lineup: b'\\x00\\xff' is not text"),
        ("UPDATE runs SET seed = 'x'", "seed: 'x' is not an integer"),
        ("UPDATE runs SET seed = 9.9e300", "seed: 9.9e+300 is not an integer"),
        # Text no run writes, which would flood a table line or a report page.
        (
            "UPDATE runs SET lineup = 'random:8' || printf('%.200000c', 'x')",
            "is not text of at most 100,000 characters",
        ),
        (
            "UPDATE runs SET options = '{\"x\": \"' || printf('%.200000c', 'a') || '\"}'",
            "options is longer than 100,000 characters",
        ),
    ],
)
def test_hand_edited_runs_are_named_by_runs_plot_and_report(sql, names, tmp_path, capsys):
    path = _sqlite(_results(tmp_path / "r.db", games=1), sql)
    capsys.readouterr()
    before = digest(tmp_path)
    refused(capsys, ("runs", path), "r.db", names)
    refused(capsys, ("runs", path, "--json"), "r.db", names)
    refused(capsys, ("plot", path, "--out", tmp_path / "plots"), "r.db", names)
    refused(capsys, ("report", path, "--out", tmp_path / "r.html"), "r.db", names)
    assert digest(tmp_path) == before


def test_a_database_with_no_games(tmp_path, capsys):
    path = tmp_path / "empty.db"
    ResultsDB(path).close()
    refused(capsys, ("plot", path), "empty.db", "holds no runs")


@pytest.mark.parametrize("command", ["plot", "runs", "report"])
def test_reading_commands_never_write_into_the_database(command, tmp_path, capsys):
    (tmp_path / "in").mkdir()
    path = _results(tmp_path / "in" / "r.db")
    assert sorted(p.name for p in path.parent.iterdir()) == ["r.db"]  # closed cleanly
    before = digest(path.parent)
    args = {
        "plot": ("plot", path, "--out", tmp_path / "plots"),
        "runs": ("runs", path),
        "report": ("report", path, "--out", tmp_path / "report.html"),
    }[command]
    code, out, err = run(capsys, *args)
    assert code == 0 and out, err
    assert digest(path.parent) == before  # no schema, journal, -wal or -shm files
    # An empty file is refused, not given a schema.
    empty = tmp_path / "in" / "empty.db"
    empty.write_bytes(b"")
    args = (command, empty, *args[2:])
    refused(capsys, args, "empty.db", "no runs table")
    assert empty.read_bytes() == b"" and sorted(p.name for p in path.parent.iterdir()) == [
        "empty.db",
        "r.db",
    ]


def test_an_older_database_is_read_as_it_is(tmp_path, capsys):
    """No fingerprints, no hero columns: plot, runs and report read it unchanged."""
    (tmp_path / "old").mkdir()
    old = _sqlite(
        tmp_path / "old" / "old.db",
        "CREATE TABLE runs (run TEXT PRIMARY KEY, lineup TEXT, options TEXT, seed INTEGER,"
        " created REAL);"
        "CREATE TABLE games (run TEXT, game INTEGER, seed INTEGER, seats TEXT,"
        " placements TEXT, turns INTEGER, seconds REAL, replay TEXT, finished REAL);"
        "INSERT INTO runs VALUES ('r', 'random:8', '{}', 0, 1.0);"
        "INSERT INTO games VALUES ('r', 0, 5, '"
        + json.dumps(["random"] * 8)
        + "', '[1, 2, 3, 4, 5, 6, 7, 8]', 9, 1.0, NULL, 2.0);",
    )
    before = digest(old.parent)
    for args in (
        ("plot", old, "--out", tmp_path / "old-plots"),
        ("runs", old),
        ("report", old, "--out", tmp_path / "old.html"),
    ):
        code, _, err = run(capsys, *args)
        assert code == 0, err
    assert digest(old.parent) == before


def test_run_keys_that_name_no_run(tmp_path, capsys):
    path = _results(tmp_path / "r.db")
    capsys.readouterr()
    for command in (
        ("plot", path, "--out", tmp_path / "p"),
        ("report", path, "--out", tmp_path / "r.html"),
    ):
        line = refused(capsys, (*command, "--run", "z" * 100_000), "no run 'zzz", "bgsim runs")
        assert len(line) < 300
        refused(capsys, (*command, "--run", ""), "no run ''")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.db"]


def test_report_output_of_the_wrong_kind(tmp_path, capsys):
    path = _results(tmp_path / "r.db")
    capsys.readouterr()
    (tmp_path / "taken").mkdir()
    refused(capsys, ("report", path, "--out", tmp_path / "taken"), "is a directory")
    refused(capsys, ("report", path, "--out", f"{tmp_path}/x/"), "names a folder")
    refused(capsys, ("report", path, "--out", "a\0b"), "not a usable path")
    if hasattr(os, "mkfifo"):
        os.mkfifo(tmp_path / "pipe.html")
        refused(capsys, ("report", path, "--out", tmp_path / "pipe.html"), "not a regular file")
        assert (tmp_path / "pipe.html").is_fifo()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["r.db", "taken", *(["pipe.html"] if hasattr(os, "mkfifo") else [])]
    )


def test_plot_output_folder_of_the_wrong_kind(tmp_path, capsys):
    path = _results(tmp_path / "r.db")
    capsys.readouterr()
    (tmp_path / "taken").write_text("mine")
    refused(capsys, ("plot", path, "--out", tmp_path / "taken"), "exists and is not a directory")
    assert (tmp_path / "taken").read_text() == "mine"


def test_a_view_or_an_unkeyed_table_is_no_results_database(tmp_path, capsys):
    """A games view, or a runs table without its key (resuming would store
    the run again and count its seats twice), is refused before any write."""
    good = tmp_path / "good.db"
    with ResultsDB(good):
        pass
    view = _sqlite(
        tmp_path / "view.db",
        good.read_bytes() and "CREATE TABLE g2 (x); CREATE VIEW games AS SELECT * FROM g2;",
    )
    refused(capsys, ("runs", view), "view.db", "its games is a view, not a table")
    loose = _sqlite(
        tmp_path / "loose.db",
        "CREATE TABLE runs (run TEXT, lineup TEXT, options TEXT, seed INTEGER, created REAL);",
    )
    before = loose.read_bytes()
    args = ("tournament", "--lineup", "random:8", "--games", "1", "--db", loose)
    refused(capsys, args, "loose.db", "its runs table is not keyed by run")
    assert loose.read_bytes() == before


@pytest.mark.parametrize(
    ("update", "names"),
    [
        ("UPDATE games SET placements = '[1, 1, 1, 1, 1, 1, 1, 1]'", ("placements are not 1..8",)),
        (
            'UPDATE games SET heroes = \'["a", "b", "c", "d", "e", "f", "g", "h"]\'',
            ("heroes is not one hero card id per seat",),
        ),
        ("UPDATE games SET seconds = -1", ("seconds is not a duration",)),
        ("UPDATE games SET game = -1", ("out of range",)),
        ("UPDATE rounds SET health = 9223372036854775807", ("a round of run", "out of range")),
        ("UPDATE rounds SET alive = -1", ("a round of run", "out of range")),
    ],
)
def test_stored_values_out_of_range_are_named(update, names, tmp_path, capsys):
    db = tmp_path / "r.db"
    assert run(capsys, "tournament", "--lineup", "random:8", "--games", "1", "--db", db)[0] == 0
    _sqlite(db, update)
    for args in (
        ("report", db, "--out", tmp_path / "r.html"),
        ("plot", db, "--out", tmp_path / "p"),
    ):
        refused(capsys, args, "r.db", *names)


def test_a_database_name_that_is_not_utf8(tmp_path, capsys):
    db = tmp_path / "g\udcff.db"  # the byte 0xff in a file name
    assert run(capsys, *TOURNAMENT, "--db", db)[0] == 0
    assert run(capsys, "runs", db)[0] == 0
    code, _out, err = run(capsys, "report", db, "--out", tmp_path / "r.html")
    assert code == 0, err
    assert "g\\udcff.db" in (tmp_path / "r.html").read_text(encoding="utf-8")
