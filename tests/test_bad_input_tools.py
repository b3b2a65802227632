"""Bad input to the tool commands (``bench``, ``cards``, ``heroes``,
``data``, ``docs``, ``replay``), to argparse itself, and to the Python API
behind them (the lobby's players and action codes, numpy integers
included). Every command case is one line naming the problem, exit code 2,
no traceback."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from cli_helpers import refused, run

from bgsim import IllegalActionError, Lobby


@pytest.mark.parametrize(
    "args, names",
    [
        (("bench", "combat", "--seconds", "inf"), ("--seconds", "at most 3600")),
        (("bench", "combat", "--seconds", "nan"), ("--seconds",)),
        (("bench", "combat", "--seconds", "1e400"), ("--seconds",)),
        (("bench", "combat", "--seconds", "-1"), ("--seconds",)),
        (("bench", "mcts", "--iterations", "0"), ("--iterations", "1..10,000,000")),
        (("bench", "mcts", "--iterations", str(2**63)), ("--iterations",)),
        (("bench", "lobby", "--lobbies", str(10**9)), ("--lobbies", "1..100,000")),
        (("bench", "mcts", "--repeat", "1000"), ("--repeat", "1..100")),
        (("bench", "everything"), ("invalid choice",)),
        (("cards", "--tier", "9"), ("--tier", "invalid choice")),
        (("cards", "--tribe", "dinosaur"), ("unknown tribe 'dinosaur'",)),
        (("heroes", "--bogus"), ("unrecognized arguments",)),
        (("heroes", "--json", "extra"), ("bgsim heroes: error: unrecognized arguments: extra",)),
        (("replay", "verify", "a", "b"), ("bgsim replay verify: error: unrecognized arguments",)),
        (("cards", "--tribe", "x" * 100_000), ("unknown tribe 'xxx",)),
        (("belief", "--out", "b.json"), ("--out goes with --fit",)),
        (("value", "--out", "v/"), ("names a folder",)),
        (("belief", "--fit", "--out", "b/"), ("names a folder",)),
        (("value", "--out", "a\0b.json"), ("not a usable path",)),
        (("replay",), ("required",)),
        (("replay", "verify"), ("required", "file")),
        (("nonsense",), ("invalid choice",)),
        ((), ("required",)),
        (("-x",), ("bgsim: error: unrecognized arguments: -x",)),
        (("-x", "--verbose=2"), ("unrecognized arguments: -x --verbose=2",)),
        (("watch", "x.jsonl", "--speed", "inf"), ("--speed", "at most 100")),
        (("watch", "x.jsonl", "--speed", "0"), ("--speed",)),
        (("watch", "x.jsonl", "--player", "9"), ("--player", "0..8")),
        (("watch", "x.jsonl", "--turn", "-1"), ("--turn",)),
        (("watch", "x.jsonl", "--hover", "1,2,3"), ("--hover", "expected X,Y")),
        (("watch", "x.jsonl", "--hover", "9223372036854775808,1"), ("--hover", "-1,000,000")),
    ],
)
def test_bad_options(args, names, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    refused(capsys, args, *names)
    assert list(tmp_path.iterdir()) == []


def test_output_paths_of_the_tools(tmp_path, capsys):
    (tmp_path / "file").write_text("mine")
    refused(capsys, ("docs", "--out", tmp_path / "file"), "exists and is not a directory")
    refused(capsys, ("data", "build", "--out", tmp_path), "is a directory")
    refused(
        capsys,
        ("data", "build", "--out", tmp_path / "file" / "cards.json"),
        "exists and is not a directory",
    )
    assert (tmp_path / "file").read_text() == "mine"


def test_refitted_models_go_only_where_named(tmp_path, capsys):
    (tmp_path / "taken").mkdir()
    for command in (("value",), ("belief", "--fit")):
        refused(capsys, (*command, "--games", "1", "--out", tmp_path / "taken"), "is a directory")
        refused(
            capsys,
            (*command, "--out", tmp_path / "v.json", "--lineup", "heuristic[curve=bogus]:8"),
            "bad curve",
        )
        if hasattr(os, "mkfifo"):
            pipe = tmp_path / "pipe.json"
            if not pipe.exists():
                os.mkfifo(pipe)
            refused(capsys, (*command, "--games", "1", "--out", pipe), "not a regular file")
            assert pipe.is_fifo()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["taken", *(["pipe.json"] if hasattr(os, "mkfifo") else [])]
    )


def test_heroes_lists_them_and_json_is_one_document(capsys):
    code, out, err = run(capsys, "heroes", "--json")
    assert code == 0 and not err
    listed = json.loads(out)
    assert len(listed["heroes"]) == 54 and all("hero_power" in h for h in listed["heroes"])
    assert "Snake Trap" in [s["name"] for s in listed["secrets"]]
    code, out, err = run(capsys, "heroes")
    assert code == 0 and not err
    assert "@" not in out and "|4(" not in out  # the card markup, read as people read it
    assert "(3 Wishes left!)" in out and "Deathwing" in out


def test_a_system_error_on_any_path_is_one_line(tmp_path, capsys):
    """A path the operating system refuses to look at (here: too long)
    gives one line naming it, whatever command meets it."""
    long = tmp_path / ("y" * 5000)
    for args in (
        ("runs", long),
        ("plot", long),
        ("report", tmp_path / "r.db", "--out", long),
        ("play", "--lineup", "random:8", "--replay", long),
        ("tournament", "--lineup", "random:8", "--games", "1", "--db", long),
        ("demo", "--games", "1", "--out", long),
        ("value", "--games", "1", "--out", long),
        ("watch", long),
        ("replay", "verify", long),
        ("play", "--ruleset", long),
    ):
        got, _, err = run(capsys, *args)
        assert got in (1, 2) and "Traceback" not in err, (args, err)
        lines = err.strip().splitlines()
        assert len(lines) == 1 and len(lines[0]) < 500, (args, err)
    assert sorted(tmp_path.iterdir()) == []


def test_help_states_the_bounds(capsys):
    for command, bounds in {
        "bench": ("1..10,000,000", "1..100,000", "1..100", "at most 3600"),
        "play": ("0..2**64-1", "at most 3600"),
        "demo": ("1..100,000", "1..256", "0..2**63-1"),
        "belief": ("1..100,000", "1..1,000"),
        "value": ("1..100,000",),
        "watch": ("at most 100",),
    }.items():
        code, out, _ = run(capsys, command, "--help")
        text = " ".join(out.split())
        assert code == 0 and all(b in text for b in bounds), (command, text)


def test_lobby_players_and_codes_numpy_included():
    lobby = Lobby(seed=3)
    mask = lobby.action_mask(np.int64(0))
    codes = np.flatnonzero(mask)
    assert isinstance(codes[0], np.integer)
    lobby.apply(np.int32(0), codes[-1])  # numpy player and numpy code
    assert lobby.observe(np.uint8(0)).player == 0
    assert lobby.legal_actions(np.int16(1)) == lobby.legal_actions(1)
    before = (len(lobby.log), lobby.state(0), lobby.state(1))
    bad = [
        (np.int64(0), np.int64(10**6)),
        (np.int64(9), 0),
        (-1, 0),
        ("0", 0),
        (1.0, 0),
        (True, 0),
        (0, "Buy(0)"),
        (0, 2.5),
        (0, np.float64(0)),
        (0, None),
    ]
    for player, code in bad:
        with pytest.raises((IllegalActionError, ValueError, TypeError)) as caught:
            lobby.apply(player, code)
        assert "\n" not in str(caught.value)
        assert (len(lobby.log), lobby.state(0), lobby.state(1)) == before  # untouched


def test_the_tournament_api_checks_its_arguments(tmp_path):
    from agents.arena import Tournament, run_tournament
    from agents.results_db import ResultsDB
    from bgsim import Budget, load_ruleset
    from bgsim.registry import LineupError, make_agent

    rules = load_ruleset()
    for bad, message in (
        (dict(heroes=1), "heroes must be True or False"),
        (dict(rules=None), "rules must be a Ruleset"),
        (dict(budget=5), "budget must be a Budget or None"),
    ):
        with pytest.raises(LineupError, match=message):
            Tournament(**{"lineup": "random:8", "games": 1, "rules": rules, **bad})
    tour = Tournament("random:8", 1, rules)
    with ResultsDB(tmp_path / "r.db") as db:
        for kwargs, error, message in (
            (dict(workers=0), ValueError, "workers must be an integer 1..256, got 0"),
            (dict(workers=1.5), ValueError, "workers must be an integer"),
            (dict(backend="x"), ValueError, "backend must be 'local' or 'ray'"),
        ):
            with pytest.raises(error, match=message):
                run_tournament(tour, db, progress=False, **kwargs)
        with pytest.raises(TypeError, match="stores into a ResultsDB"):
            run_tournament(tour, None)
        assert db.runs() == []
    with pytest.raises(TypeError, match=r'parse_spec\("random"\) makes one'):
        make_agent("random")
    assert Budget(seconds=np.float32(0.5)).seconds == 0.5
    assert type(Budget(iterations=np.int64(30)).iterations) is int


@pytest.mark.parametrize("command", ["runs", "plot", "report"])
def test_a_results_path_that_is_no_file_says_what_it_is(command, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    extra = {"runs": (), "plot": ("--out", "p"), "report": ("--out", "r.html")}[command]
    for path, names in (
        ("", ("no results file given (an empty path)",)),
        (str(tmp_path), ("is a directory, not a results file",)),
        ("/dev/null", ("/dev/null: is not a regular file",)),
        ("nope.db", ("nope.db: no such results file",)),
    ):
        refused(capsys, (command, path, *extra), *names)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "command, code",
    [(("replay", "verify", ""), 2), (("watch", "", "--screenshot", "x.png"), 1)],
)
def test_an_empty_replay_path_is_refused(command, code, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    refused(capsys, command, "no replay file given (an empty path)", code=code)
    assert list(tmp_path.iterdir()) == []


def test_an_error_naming_a_path_with_control_characters_is_one_line(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    line = refused(capsys, ("combat", "a\nb\x1b[31m"), "a\\x0ab\\x1b[31m", "cannot read")
    assert "\x1b" not in line


def test_budget_numbers_beyond_a_float_are_refused():
    from bgsim import Budget, BudgetError

    with pytest.raises(BudgetError, match="seconds must be a number above 0"):
        Budget(seconds=10**400)


def test_ctrl_c_while_bgsim_loads_is_one_line_and_exit_130(monkeypatch, capsys):
    """The command's entry point imports the CLI itself, so an interrupt in
    the half second Python spends loading bgsim is reported, not a traceback."""
    import builtins

    import bgsim_launch

    real = builtins.__import__

    def interrupted(name, *args, **kwargs):
        if name == "bgsim.cli":
            raise KeyboardInterrupt
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", interrupted)
    assert bgsim_launch.main() == 130
    assert capsys.readouterr().err == "bgsim: interrupted\n"


class _FullDisk(io.StringIO):
    def write(self, text: str) -> int:
        raise OSError(28, "No space left on device")


@pytest.mark.parametrize("args", [("cards",), ("--help",), ("cards", "--help"), ("--version",)])
def test_output_that_cannot_be_written_is_one_line(args, capsys, monkeypatch):
    capsys.readouterr()
    monkeypatch.setattr(sys, "stdout", _FullDisk())
    from bgsim.cli import main

    assert main(list(args)) == 2
    err = capsys.readouterr().err
    assert err == "bgsim: error: cannot write to standard output (No space left on device)\n"


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_full_device_as_standard_output(tmp_path):
    root = Path(__file__).resolve().parent.parent
    for args in (["cards"], ["--help"]):
        with open("/dev/full", "w") as full:
            done = subprocess.run(
                [sys.executable, "-m", "bgsim.cli", *args],
                cwd=root,
                stdout=full,
                stderr=subprocess.PIPE,
                text=True,
                timeout=120,
            )
        assert done.returncode == 2
        assert done.stderr == (
            "bgsim: error: cannot write to standard output (No space left on device)\n"
        )
