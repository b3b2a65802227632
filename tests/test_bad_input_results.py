"""Bad results databases for ``bgsim tournament`` and ``bgsim plot``, and
``plot`` never writing into the database it reads. Every case is one line
naming the problem, exit code 2, no traceback."""

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
    assert digest(tmp_path) == before  # neither command changed or added a file


@pytest.mark.parametrize("name", [":memory:", "", "file:x.db?mode=memory"])
def test_a_database_that_would_lose_its_results(name, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    refused(capsys, (*TOURNAMENT, "--db", name), "results need a file")
    assert list(tmp_path.iterdir()) == []


def test_a_database_path_that_is_a_folder(tmp_path, capsys):
    refused(capsys, (*TOURNAMENT, "--db", tmp_path), str(tmp_path), "is a directory")
    refused(capsys, ("plot", tmp_path), str(tmp_path), "no such results file")
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


def test_hand_edited_rows_are_named(tmp_path, capsys):
    path = _results(tmp_path / "r.db", games=1)
    capsys.readouterr()
    edits = {
        "UPDATE games SET seats = '{\"a\": 1}'": "seats is not a JSON list",
        "UPDATE games SET seats = '[1, 2, 3, 4, 5, 6, 7, 8]'": "seats is not a list",
        "UPDATE games SET placements = '[1, \"2\", 3, 4, 5, 6, 7, 8]'": "placements are not",
        "UPDATE games SET placements = 'NaN'": "not valid JSON",
        "UPDATE games SET placements = '" + "[" * 500 + "]" * 500 + "'": "nested deeper",
        "UPDATE games SET heroes = '[[1]]'": "wrong type",
        "UPDATE rounds SET health = 'x'": "is not numbers",
    }
    for sql, names in edits.items():
        copy = tmp_path / "copy.db"
        copy.write_bytes(path.read_bytes())
        _sqlite(copy, sql)
        refused(capsys, ("plot", copy, "--out", tmp_path / "plots"), "copy.db", names)
        with ResultsDB(copy, readonly=True) as db, pytest.raises(ResultsError):
            db.games()
            db.rounds()


def test_a_database_with_no_games(tmp_path, capsys):
    path = tmp_path / "empty.db"
    ResultsDB(path).close()
    refused(capsys, ("plot", path), "empty.db", "holds no runs")


def test_plot_never_writes_into_the_database_it_reads(tmp_path, capsys):
    (tmp_path / "in").mkdir()
    path = _results(tmp_path / "in" / "r.db")
    assert sorted(p.name for p in path.parent.iterdir()) == ["r.db"]  # closed cleanly
    before = digest(path.parent)
    code, out, _ = run(capsys, "plot", path, "--out", tmp_path / "plots")
    assert code == 0 and "wrote" in out
    assert digest(path.parent) == before  # no schema, journal, -wal or -shm files
    # An older database (no fingerprints, no hero columns) is read as it is.
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
    code, out, err = run(capsys, "plot", old, "--out", tmp_path / "old-plots")
    assert code == 0, err
    assert digest(old.parent) == before


def test_plot_output_folder_of_the_wrong_kind(tmp_path, capsys):
    path = _results(tmp_path / "r.db")
    capsys.readouterr()
    (tmp_path / "taken").write_text("mine")
    refused(capsys, ("plot", path, "--out", tmp_path / "taken"), "exists and is not a directory")
    assert (tmp_path / "taken").read_text() == "mine"
