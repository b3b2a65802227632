"""Random bytes and random JSON fed to every loader: board specs, replays,
ruleset TOML and results databases. Each either loads or raises its own
one-line error; nothing else escapes, and what loads can be used (a board
fights, a replay becomes frames and verifies, a database plots)."""

from __future__ import annotations

import json
import sqlite3
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agents.results_db import ResultsDB, ResultsError
from bgsim import Lobby
from bgsim.replay import ReplayError, parse_replay, read_replay, verify_replay, write_replay
from bgsim.resources import data_path
from bgsim.ruleset import RulesetError, load_ruleset, parse_ruleset
from combat_c import Board, BoardSpecError, parse_board, simulate
from viz.frames import build_frames

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=12)
    | st.sampled_from(["CFM_315", "BOT_606", "TB_BaconUps_079", "EX1_062", "header", "end"])
)
JSON = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=6)
        | st.dictionaries(
            st.sampled_from(["tier", "health", "minions", "card", "attack", "golden", "type", "x"])
            | st.text(max_size=6),
            inner,
            max_size=6,
        )
    ),
    max_leaves=30,
)
MINION = st.fixed_dictionaries(
    {"card": st.sampled_from(["CFM_315", "BOT_606", "TB_BaconUps_079", "EX1_062", "BGS_069"])},
    optional={
        "attack": JSON,
        "health": JSON,
        "golden": JSON,
        "taunt": JSON,
        "magnetic": st.lists(st.sampled_from(["BOT_312", "BOT_911", "X"]), max_size=6) | JSON,
        "living_spores": JSON,
    },
)
BOARD = st.fixed_dictionaries(
    {"tier": st.integers(-1, 8) | JSON},
    optional={
        "health": st.integers(-(2**40), 2**40) | JSON,
        "minions": st.lists(MINION, max_size=9),
    },
)


def _file(data: bytes, suffix: str) -> Path:
    with tempfile.NamedTemporaryFile("wb", suffix=suffix, delete=False) as f:
        f.write(data)
    return Path(f.name)


def _fights(board: Board) -> None:
    odds = simulate(board, board, 2, seed=1)
    assert odds.runs == 2


@SETTINGS
@given(st.binary(max_size=400))
def test_board_files_of_random_bytes(data):
    path = _file(data, ".json")
    try:
        _fights(parse_board(path))
    except BoardSpecError as exc:
        assert "\n" not in str(exc)
    finally:
        path.unlink()


@SETTINGS
@given(JSON | BOARD)
def test_board_specs_of_random_json(spec):
    for given_as in (spec, json.dumps(spec)):
        try:
            board = parse_board(given_as)
        except BoardSpecError as exc:
            assert "\n" not in str(exc)
        else:
            _fights(board)


@pytest.fixture(scope="module")
def replay_lines(tmp_path_factory) -> list[str]:
    lobby = Lobby(4, heroes=True)
    while not lobby.done:
        player = lobby.to_act()[0]
        legal = lobby.legal_actions(player)
        lobby.apply(player, legal[min(1, len(legal) - 1)] if lobby.turn < 3 else legal[0])
    path = tmp_path_factory.mktemp("replay") / "r.jsonl"
    write_replay(path, lobby, [f"a{p}" for p in range(8)])
    return path.read_text(encoding="utf-8").splitlines()


def _usable(lines: list[str]) -> None:
    """Read ``lines`` as a replay: a ReplayError, or frames and a verdict."""
    try:
        replay = parse_replay(lines)
    except ReplayError as exc:
        assert "\n" not in str(exc)
        return
    try:
        build_frames(replay)
    except ReplayError as exc:
        assert "\n" not in str(exc)
    verdict = verify_replay(replay)
    assert verdict is None or "\n" not in verdict


@SETTINGS
@given(st.binary(max_size=400))
def test_replay_files_of_random_bytes(data):
    path = _file(data, ".jsonl")
    try:
        read_replay(path)
    except ReplayError as exc:
        assert "\n" not in str(exc)
    finally:
        path.unlink()


@settings(
    SETTINGS, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(st.data())
def test_replays_with_random_json_in_random_places(replay_lines, data):
    lines = list(replay_lines)
    for _ in range(data.draw(st.integers(1, 3))):
        i = data.draw(st.integers(0, len(lines) - 1))
        rec = json.loads(lines[i])
        how = data.draw(st.sampled_from(["field", "record", "delete", "copy", "swap"]))
        if how == "field" and not (isinstance(rec, dict) and rec):
            how = "record"  # an earlier change left no field to change there
        if how == "field":
            key = data.draw(st.sampled_from(sorted(rec)))
            rec[key] = data.draw(JSON)
            lines[i] = json.dumps(rec)
        elif how == "record":
            lines[i] = json.dumps(data.draw(JSON))
        elif how == "delete" and len(lines) > 1:
            del lines[i]
        elif how == "copy":
            lines.insert(data.draw(st.integers(0, len(lines))), lines[i])
        else:
            j = data.draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
    _usable(lines)


@SETTINGS
@given(st.lists(JSON.map(json.dumps), max_size=5))
def test_replays_of_random_json_lines(lines):
    _usable(['{"type": "header", "schema": 2, "seed": 1, "ruleset": "r", "players": 2, '
             '"agents": ["a", "b"]}', *lines])  # fmt: skip
    _usable(lines)


RULESET = data_path("ruleset.toml").read_text(encoding="utf-8")
NUMBERS = [token for token in RULESET.split() if token.strip(",[]").isdigit()]


@SETTINGS
@given(st.binary(max_size=400))
def test_ruleset_files_of_random_bytes(data):
    path = _file(data, ".toml")
    try:
        load_ruleset(path)
    except RulesetError as exc:
        assert "\n" not in str(exc)
    finally:
        path.unlink()


@SETTINGS
@given(
    st.sampled_from(sorted(set(NUMBERS))),
    st.integers(-(2**40), 2**40).map(str)
    | st.sampled_from(['"x"', "true", "[]", "1.5", "9" * 5000, "inf", "{}", "[[[[1]]]]"]),
)
def test_rulesets_with_a_number_changed(number, value):
    text = RULESET.replace(f"= {number}", f"= {value}", 1)
    try:
        rules = parse_ruleset(text)
    except RulesetError as exc:
        assert "\n" not in str(exc)
        return
    lobby = Lobby(1, rules)  # a ruleset that loads is one a lobby can play
    for _ in range(3 * rules.lobby.players):
        if lobby.done:
            break
        lobby.apply(lobby.to_act()[0], 0)


@SETTINGS
@given(st.text(max_size=200))
def test_ruleset_text_of_random_characters(text):
    try:
        parse_ruleset(text)
    except RulesetError as exc:
        assert "\n" not in str(exc)


@SETTINGS
@given(st.binary(max_size=2000))
def test_results_databases_of_random_bytes(data):
    path = _file(b"SQLite format 3\0" + data if data[:1] == b"\0" else data, ".db")
    try:
        for readonly in (True, False):
            try:
                with ResultsDB(path, readonly=readonly) as db:
                    db.games()
                    db.rounds()
                    db.runs()
            except ResultsError as exc:
                assert "\n" not in str(exc)
    finally:
        path.unlink()
        Path(f"{path}-wal").unlink(missing_ok=True)
        Path(f"{path}-shm").unlink(missing_ok=True)


@SETTINGS
@given(
    st.lists(
        st.tuples(
            JSON.map(json.dumps) | st.text(max_size=10),
            JSON.map(json.dumps) | st.text(max_size=10),
            st.sampled_from(["[]", '["H"]', "x", "[1]"]),
            JSON,
        ),
        min_size=1,
        max_size=4,
    )
)
def test_results_databases_with_random_rows(rows):
    from viz.plots import write_plots

    folder = Path(tempfile.mkdtemp())
    path = folder / "r.db"
    ResultsDB(path).close()
    conn = sqlite3.connect(path)
    conn.execute("INSERT INTO runs VALUES ('r', 'x', '{}', 0, 1.0, '{}')")
    for game, (seats, placements, heroes, turns) in enumerate(rows):
        conn.execute(
            "INSERT INTO games VALUES ('r', ?, 1, ?, ?, ?, 1.0, NULL, 1.0, ?, '[]')",
            (game, seats, placements, _sqlite_value(turns), heroes),
        )
    conn.commit()
    conn.close()
    try:
        write_plots(path, folder / "plots")
    except (ResultsError, ValueError) as exc:  # what `bgsim plot` reports in one line
        assert "\n" not in str(exc)


def _sqlite_value(value: object) -> object:
    """``value`` if SQLite can store it as it is (text, a 64-bit integer), else 1."""
    if isinstance(value, str) or (type(value) is int and -(2**63) <= value < 2**63):
        return value
    return 1
