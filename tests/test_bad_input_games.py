"""Bad input to the commands that play games (``play``, ``tournament``,
``demo``, ``belief``, ``value``): lineups, agent options, budgets, sizes,
seeds, rulesets and output paths. Every case is one line naming the problem,
exit code 2, no traceback, and nothing written."""

from __future__ import annotations

import json
import os
import sqlite3
import textwrap
from pathlib import Path

import numpy as np
import pytest
from cli_helpers import refused, run

from agents.greedy import GreedyAgent
from agents.heuristic import HeuristicAgent
from agents.mcts import MCTSAgent
from bgsim import Budget, BudgetError, IllegalActionError, Lobby
from bgsim.registry import LineupError, check_lineup, parse_lineup

# Options the bundled agents refuse, each with what the message names.
BAD_OPTIONS = [
    ("heuristic[curve=bogus]", "bad curve 'bogus'"),
    ("heuristic[curve=2-4-6-8-1000000000]", "bad curve"),
    ("heuristic[curve=9-8-7-6-5]", "bad curve"),
    ("heuristic[margin=abc]", "option margin must be a finite number"),
    ("heuristic[margin=inf]", "option margin must be a finite number"),
    ("heuristic[noise=nan]", "option noise"),
    ("heuristic[bogus=1]", "has no option 'bogus'"),
    ("greedy[runs=0]", "option runs must be an integer 1..10,000"),
    ("greedy[runs=abc]", "option runs must be an integer"),
    ("greedy[runs=1.5]", "option runs must be an integer"),
    ("greedy[runs=10000000000]", "option runs"),
    ("greedy[guesses=-1]", "option guesses"),
    ("mcts[c=abc]", "option c must be a finite number in 0..100"),
    ("mcts[c=-1]", "option c"),
    ("mcts[c=nan]", "option c"),
    ("mcts[cheat=1]", "option cheat must be true or false"),
    ("mcts[horizon=1000000]", "option horizon must be an integer 0..10"),
    ("mcts[runs=0]", "option runs"),
    ("mcts[policy=smart]", "option policy must be one of heuristic, static, mixed"),
    ("mcts[value=x]", "option value"),
    ("mcts[level=x]", "option level"),
    ("mcts[opponents=0]", "option opponents"),
    ("mcts[confidence=inf]", "option confidence"),
    ("mcts[arrange=maybe]", "option arrange"),
    ("mcts[budget=fast]", "bad budget 'fast'"),
    ("mcts[seconds=inf]", "option seconds"),
    ("mcts[iterations=0]", "option iterations"),
    ("heuristic[draft=bogus]", "option draft must be one of rating, best, first"),
    ("mcts[draft=worst]", "option draft must be one of rating, best, first"),
    ("mcts[power=never]", "option power must be one of search, heuristic"),
    ("heuristic[draft]", "option draft"),
    ("greedy[belief]", "option belief must be the path of a file"),
    ("mcts[belief=]", "option 'belief' has no value after '='"),
    ("mcts[value_model=x.json]", "value_model=PATH needs value=model"),
    ("mcts[value=model,value_model]", "option value_model must be the path of a file"),
    ("greedy[runs=1e400]", "option runs"),
    ("mcts[c=" + "9" * 5000 + "]", "option c"),
    ("random[a=1,a=2]", "option 'a' is given twice"),
]


@pytest.mark.parametrize("spec, names", BAD_OPTIONS)
def test_bad_agent_options_are_refused_by_the_lineup_check(spec, names):
    with pytest.raises(LineupError, match=None) as caught:
        check_lineup(parse_lineup(f"{spec}:1,random:7"))
    assert names in str(caught.value) and "\n" not in str(caught.value)


@pytest.mark.parametrize("command", ["play", "tournament", "demo", "belief", "value"])
@pytest.mark.parametrize(
    "spec, names",
    [
        ("heuristic[curve=bogus]", "bad curve"),
        ("heuristic[margin=abc]", "option margin"),
        ("greedy[runs=0]", "option runs"),
        ("mcts[c=abc]", "option c"),
    ],
)
def test_every_command_checks_options_before_any_file(command, spec, names, tmp_path, capsys):
    args: list = [command, "--lineup", f"{spec}:1,random:7"]
    if command in ("play", "tournament", "demo", "belief", "value"):
        args += ["--games", "1"] if command != "play" else []
    if command == "tournament":
        args += ["--db", tmp_path / "results.db", "--replays", tmp_path / "replays"]
    if command == "demo":
        args += ["--out", tmp_path / "demo"]
    if command == "play":
        args += ["--replay", tmp_path / "game.jsonl"]
    refused(capsys, tuple(args), spec, names)
    assert list(tmp_path.iterdir()) == []  # no database, folder or replay made


def test_the_constructors_check_their_options_themselves():
    with pytest.raises(ValueError, match="option runs"):
        GreedyAgent(runs=0)
    with pytest.raises(ValueError, match="option c"):
        MCTSAgent(c="abc")
    with pytest.raises(ValueError, match="option margin"):
        HeuristicAgent(margin="abc")
    assert MCTSAgent(budget="40it").budget == Budget(iterations=40)
    assert MCTSAgent(c=1).c == 1.0 and GreedyAgent(runs=2).runs == 2


@pytest.mark.parametrize(
    "budget", ["nans", "infs", "1e400s", "-1s", "0s", "0it", "1.5it", "3601s", "99999999999it"]
)
def test_only_finite_positive_budgets_within_bounds(budget, capsys):
    refused(capsys, ("play", "--lineup", "mcts:1,random:7", f"--budget={budget}"), "bad budget")
    with pytest.raises(BudgetError):
        Budget.parse(budget)


def test_budget_values_through_the_api():
    for bad in (float("nan"), float("inf"), 1e400, 0, -1, True, 3601):
        with pytest.raises(BudgetError):
            Budget(seconds=bad)
    for bad in (0, -1, 1.5, True, 10**8):
        with pytest.raises(BudgetError):
            Budget(iterations=bad)
    with pytest.raises(BudgetError):
        Budget.parse(5)


@pytest.mark.parametrize(
    "args, names",
    [
        (("tournament", "--lineup", "random:8", "--games", "0"), ("--games", "1..100,000")),
        (("tournament", "--lineup", "random:8", "--games", str(10**9)), ("--games",)),
        (
            ("tournament", "--lineup", "random:8", "--games", "1", "--seed", str(2**100)),
            ("--seed",),
        ),
        (("tournament", "--lineup", "random:8", "--games", "1", "--workers", "0"), ("--workers",)),
        (
            ("tournament", "--lineup", "random:8", "--games", "1", "--workers", "100000"),
            ("1..256",),
        ),
        (
            ("tournament", "--lineup", "random:1000000000", "--games", "1"),
            ("takes 1000000000 seats",),
        ),
        (
            ("tournament", "--lineup", "random:99999999999999999999999", "--games", "1"),
            ("takes a 23-digit number of seats",),
        ),
        (
            ("tournament", "--lineup", "random:8", "--games", "1", "--budget", "-1it"),
            ("expected one argument", "goes after '=': --budget=-1it"),
        ),
        (("tournament", "--lineup", "random:" + "9" * 5000, "--games", "1"), ("seats",)),
        (("tournament", "--lineup", "nope:8", "--games", "1"), ("unknown agent 'nope'",)),
        (("tournament", "--lineup", "random:7", "--games", "1"), ("fills 7 seats",)),
        (("play", "--seed", "-1"), ("--seed",)),
        (("play", "--seed", str(2**64)), ("--seed", "0..18,446,744,073,709,551,615")),
        (("play", "--heroes", "maybe"), ("--heroes", "invalid choice")),
        (("tournament", "--lineup", "random:8", "--games", "1", "--heroes", "1"), ("--heroes",)),
        (("demo", "--heroes", "yes"), ("--heroes", "invalid choice")),
        (("bench", "lobby", "--heroes", "true"), ("--heroes", "invalid choice")),
        (("demo", "--games", "0"), ("--games",)),
        (("demo", "--workers", "-2"), ("--workers",)),
        (("belief", "--games", str(2**63)), ("--games",)),
        (("belief", "--guesses", "0"), ("--guesses", "1..1,000")),
        (("value", "--seed", "abc"), ("--seed", "expected an integer")),
        (("tournament",), ("required",)),
    ],
)
def test_sizes_seeds_and_lineups(args, names, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    refused(capsys, args, *names)
    assert list(tmp_path.iterdir()) == []


def test_the_bounds_are_in_the_help(capsys):
    code, out, _ = run(capsys, "tournament", "--help")
    assert code == 0
    for bound in ("1..100,000", "0..2**63-1", "1..256", "at most 3600", "at most 10,000,000"):
        assert bound in " ".join(out.split()), bound


def test_bad_rulesets(tmp_path, capsys):
    bad = {
        "latin1.toml": "id = '\xe9'".encode("latin-1"),
        "binary.toml": bytes(range(256)),
        "deep.toml": b"a = " + b"[" * 5000 + b"]" * 5000,
        "bigint.toml": b"x = " + b"9" * 5000,
        "players.toml": b"",
    }
    names = {
        "latin1.toml": "not UTF-8",
        "binary.toml": "not UTF-8",
        "deep.toml": "not valid TOML",
        "bigint.toml": "not valid TOML",
        "players.toml": "missing",
    }
    for name, data in bad.items():
        path = tmp_path / name
        path.write_bytes(data)
        refused(capsys, ("play", "--ruleset", path), name, names[name])
    refused(capsys, ("play", "--ruleset", tmp_path / "nope.toml"), "nope.toml", "cannot read")
    refused(capsys, ("play", "--ruleset", tmp_path), "cannot read")


def test_a_ruleset_cannot_ask_for_more_than_a_lobby_can_hold(tmp_path, capsys):
    from bgsim.resources import data_path

    text = data_path("ruleset.toml").read_text(encoding="utf-8")
    for old, new, names in [
        ("players = 8 ", "players = 1000000000 ", "must be 0..1,000,000"),
        ("players = 8 ", "players = 9 ", "2 to 8 players"),
        ("max_turns = 150", "max_turns = 100000", "lobby.max_turns"),
        ("[16, 15, 13, 11, 9, 7]", "[16, 15, 13, 11, 9, 700000]", "pool.copies_per_tier"),
        ("hero_health = 40", "hero_health = " + "9" * 30, "must be 0..1,000,000"),
    ]:
        assert old in text
        path = tmp_path / "rules.toml"
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
        refused(capsys, ("play", "--ruleset", path), names)


@pytest.mark.parametrize(
    "make, args, names",
    [
        (
            "file",
            ("tournament", "--lineup", "random:8", "--games", "1", "--replays", "X"),
            "exists and is not a directory",
        ),
        (
            "file",
            ("demo", "--lineup", "random:8", "--games", "1", "--out", "X"),
            "exists and is not a directory",
        ),
        ("dir", ("play", "--lineup", "random:8", "--replay", "X"), "is a directory"),
        (
            "file",
            ("play", "--lineup", "random:8", "--replay", "X/game.jsonl"),
            "exists and is not a directory",
        ),
        (
            "dir",
            ("tournament", "--lineup", "random:8", "--games", "1", "--db", "X"),
            "is a directory",
        ),
    ],
)
def test_output_paths_of_the_wrong_kind(make, args, names, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    if make == "file":
        (tmp_path / "X").write_text("mine")
    else:
        (tmp_path / "X").mkdir()
    before = sorted(p.name for p in tmp_path.iterdir())
    refused(capsys, args, "X", names)
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    if make == "file":
        assert (tmp_path / "X").read_text() == "mine"


def _model_files(tmp_path: Path) -> dict[str, tuple[Path, str]]:
    """Model files an agent option may name, each broken one way."""
    files = {
        "not UTF-8": (b"\xff\xfe{", "not UTF-8"),
        "not JSON": (b"{", "not valid JSON"),
        "NaN": (b'{"size": [NaN], "attack": [1], "health": [1], "weights": [NaN]}', "NaN"),
        "deep": (b"[" * 1000 + b"]" * 1000, "nested deeper"),
        "huge int": (b'{"size": [' + b"9" * 5000 + b"]}", "digits"),
        "a list": (b"[1, 2]", "not a"),
        "empty tables": (
            b'{"size": [], "attack": [], "health": [], "features": [], "weights": []}',
            "not",
        ),
        "strings": (b'{"size": ["a"], "attack": [1], "health": [1], "weights": [["a"]]}', "a"),
        "too big": (
            b'{"size": [1], "attack": [1e300], "health": [1], "weights": [[1e300]]}',
            "not",
        ),
    }
    out = {}
    for name, (data, names) in files.items():
        path = tmp_path / (name.replace(" ", "_") + ".json")
        path.write_bytes(data)
        out[name] = (path, names)
    out["missing"] = (tmp_path / "missing.json", "cannot read it")
    out["folder"] = (tmp_path, "cannot read it")
    if hasattr(os, "mkfifo"):  # a pipe is refused, never waited on
        os.mkfifo(tmp_path / "pipe.json")
        out["pipe"] = (tmp_path / "pipe.json", "not a regular file")
    return out


@pytest.mark.parametrize(
    "option", ["greedy[belief={}]", "mcts[belief={}]", "mcts[value=model,value_model={}]"]
)
def test_model_files_named_by_options_are_read_through_the_guarded_reader(option, tmp_path, capsys):
    (tmp_path / "files").mkdir()
    key = "value_model" if "value_model" in option else "belief"
    for case, (path, names) in _model_files(tmp_path / "files").items():
        spec = option.format(path)
        with pytest.raises(LineupError) as caught:
            check_lineup(parse_lineup(f"{spec}:1,random:7"))
        message = str(caught.value)
        assert f"{key}={path}" in message and "\n" not in message, (case, message)
        if key == "belief" or case not in ("NaN", "strings", "too big"):
            assert names in message, (case, message)
    path = tmp_path / "files" / "not_JSON.json"
    args = ("play", "--lineup", f"{option.format(path)}:1,random:7", "--replay", tmp_path / "g")
    refused(capsys, args, f"{key}=", "not valid JSON")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["files"]


def _agent_module(tmp_path: Path, monkeypatch, name: str, body: str) -> None:
    (tmp_path / f"{name}.py").write_text(textwrap.dedent(body), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))


FAILING_AGENTS = {
    "builds": (
        """
        class Agent:
            name = "x"
            def __init__(self, n: int = 1):
                raise RuntimeError("boom")
            def reset(self, seat, seed): pass
            def act(self, obs, legal): return legal[0]
        """,
        ("building it failed: RuntimeError: boom (", ".py:5)"),
    ),
    "rejects its setting": (
        """
        class Agent:
            name = "x"
            def __init__(self, n: int = 1):
                limit = int("abc")
            def reset(self, seat, seed): pass
            def act(self, obs, legal): return legal[0]
        """,
        ("agent 'x': invalid literal for int() with base 10: 'abc' (", ".py:5)"),
    ),
    "exits when built": (
        """
        import sys
        class Agent:
            name = "x"
            def __init__(self, n: int = 1):
                sys.exit(0)
            def reset(self, seat, seed): pass
            def act(self, obs, legal): return legal[0]
        """,
        ("building it failed: SystemExit: 0 (", ".py:6)"),
    ),
    "acts": (
        """
        class Agent:
            name = "x"
            def reset(self, seat, seed): pass
            def act(self, obs, legal): return {}["inner"]
        """,
        ("(player ", ") failed on turn 0: KeyError: 'inner' (", ".py:5)"),
    ),
    "resets": (
        """
        class Agent:
            name = "x"
            def reset(self, seat, seed): raise ValueError("no reset")
            def act(self, obs, legal): return legal[0]
        """,
        ("failed on turn", "ValueError: no reset"),
    ),
    "chooses badly": (
        """
        class Agent:
            name = "x"
            def reset(self, seat, seed): pass
            def act(self, obs, legal): return "nonsense"
        """,
        ("(player ", ") chose an action that is not legal on turn 0", "'nonsense'"),
    ),
    "chooses a float slot": (
        """
        from bgsim import ChooseHero
        class Agent:
            name = "x"
            def reset(self, seat, seed): pass
            def act(self, obs, legal): return ChooseHero(0.0)
        """,
        ("chose an action that is not legal", "ChooseHero: option must be an integer slot number"),
    ),
    "chooses a narrow numpy slot": (
        """
        import numpy as np
        from bgsim import ChooseHero
        class Agent:
            name = "x"
            def reset(self, seat, seed): pass
            def act(self, obs, legal): return ChooseHero(np.uint8(9))
        """,
        ("chose an action that is not legal", "ChooseHero(9) is outside the action space"),
    ),
    "returns None": (
        """
        class Agent:
            name = "x"
            def reset(self, seat, seed): pass
            def act(self, obs, legal): return None
        """,
        ("(player ", ") returned None on turn 0, not one of its legal actions"),
    ),
    "takes other arguments": (
        """
        class Agent:
            name = "x"
            def reset(self, seat, seed): pass
            def act(self, obs): return 0
        """,
        (") could not be called on turn 0: TypeError:", "takes 2 positional arguments"),
    ),
    "is a function": (
        "def Agent(): pass\n",
        ("failing_is_a_function", ":Agent is a function, not a class"),
    ),
    "does not parse": ("class Agent(:\n", ("importing", "failed: SyntaxError:", "line 1)")),
    "exits on import": ("import sys\nsys.exit(3)\n", ("importing", "failed: SystemExit: 3")),
    "exits": (
        """
        class Agent:
            name = "x"
            def reset(self, seat, seed): pass
            def act(self, obs, legal): raise SystemExit(3)
        """,
        ("(player ", ") failed on turn 0: SystemExit: 3 (", ".py:5)"),
    ),
    "raises a BaseException": (
        """
        class Odd(BaseException):
            pass
        class Agent:
            name = "x"
            def reset(self, seat, seed): pass
            def act(self, obs, legal): raise Odd("odd")
        """,
        ("(player ", ") failed on turn 0: Odd: odd (", ".py:7)"),
    ),
    "raises what cannot be shown": (
        """
        class Mute(Exception):
            def __str__(self): raise RuntimeError("no words")
        class Agent:
            name = "x"
            def reset(self, seat, seed): pass
            def act(self, obs, legal): raise Mute()
        """,
        ("(player ", ") failed on turn 0: Mute: (its message cannot be shown) (", ".py:7)"),
    ),
}


@pytest.mark.parametrize("case", sorted(FAILING_AGENTS))
@pytest.mark.parametrize("command", ["play", "tournament"])
def test_an_agent_whose_code_fails_is_one_line(case, command, tmp_path, capsys, monkeypatch):
    body, names = FAILING_AGENTS[case]
    module = f"failing_{case.replace(' ', '_')}_{command}"
    _agent_module(tmp_path, monkeypatch, module, body)
    args: tuple = (command, "--agent", f"x={module}:Agent", "--lineup", "x:1,random:7")
    if command == "tournament":
        args += ("--games", "2", "--workers", "2", "--db", tmp_path / "r.db", "--json")
    line = refused(capsys, args, "x", *names)
    if command == "play" and "(player " in names:
        assert "(player 1)" in line  # the seat the lineup gave it, numbered as play prints it
    if "<frozen" in line or "arena.py" in line:
        raise AssertionError(f"the message points into bgsim, not the agent: {line}")
    if command == "tournament" and case not in (
        "builds",
        "rejects its setting",
        "exits when built",
        "exits on import",
        "is a function",
        "does not parse",
    ):
        assert "no game of this run is stored" in line
        # A run that failed before its first game leaves no database behind.
        assert not (tmp_path / "r.db").exists()


# An agent whose first action raises.
FAILS_AT_ONCE = """
class Agent:
    name = "x"
    def reset(self, seat, seed): pass
    def act(self, obs, legal): raise RuntimeError("boom")
"""


def test_a_failed_run_leaves_an_existing_database_as_it_was(tmp_path, capsys, monkeypatch):
    """A database given by the user that already held results keeps them, and
    gains no empty run, when a later run fails before its first game."""
    _agent_module(tmp_path, monkeypatch, "fails_at_once", FAILS_AT_ONCE)
    db = tmp_path / "r.db"
    code, _, err = run(capsys, "tournament", "--lineup", "random:8", "--games", "1", "--db", db)
    assert code == 0, err
    with sqlite3.connect(db) as conn:
        before = conn.execute("SELECT run, game FROM games").fetchall()
    args = ("tournament", "--agent", "x=fails_at_once:Agent", "--lineup", "x:1,random:7")
    refused(capsys, (*args, "--games", "1", "--db", db, "--json"), "boom", "no game of this run is")
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT run, game FROM games").fetchall() == before
        assert conn.execute("SELECT COUNT(*) FROM runs").fetchone() == (1,)


def test_play_plays_the_lobby_of_its_seed(tmp_path, capsys):
    code, out, _ = run(
        capsys, "play", "--lineup", "random:8", "--seed", "7", "--replay", tmp_path / "g.jsonl"
    )
    assert code == 0 and out.startswith("lobby seed 7:")
    code, out, _ = run(capsys, "replay", "verify", tmp_path / "g.jsonl")
    assert code == 0 and "the game of seed 7 played again" in out
    header = json.loads((tmp_path / "g.jsonl").read_text(encoding="utf-8").splitlines()[0])
    first = Lobby(7, heroes=True)
    assert header["seed"] == 7 and header["tribes"] == list(first.tribes)


def test_demo_names_a_search_budget_only_for_a_lineup_that_searches(tmp_path, capsys):
    code, out, _ = run(
        capsys, "demo", "--lineup", "random:8", "--games", "1", "--out", tmp_path / "d"
    )
    assert code == 0 and "budget" not in out.splitlines()[0]


def test_demo_names_the_size_of_its_lobbies(tmp_path, capsys):
    shipped = Path(__file__).resolve().parent.parent / "data" / "ruleset.toml"
    two = tmp_path / "players2.toml"
    two.write_text(shipped.read_text().replace("\nplayers = 8 ", "\nplayers = 2 ", 1))
    args = ("demo", "--ruleset", two, "--lineup", "random:2", "--games", "2")
    code, out, err = run(capsys, *args, "--out", tmp_path / "d")
    assert code == 0, err
    assert out.splitlines()[0] == "playing 2 two-player lobbies: random:2"


def test_environment_options_are_checked_when_it_is_made():
    from bgsim.envs import battlegrounds_v0
    from bgsim.envs.gym_env import BattlegroundsGymEnv

    for make in (battlegrounds_v0.env, battlegrounds_v0.parallel_env, BattlegroundsGymEnv):
        for heroes in ("yes", 2, None, "x" * 100_000):
            with pytest.raises(TypeError, match="heroes must be True or False") as caught:
                make(heroes=heroes)
            assert len(str(caught.value)) < 200
    bad = {
        "opponents": ("heuristic[curve=bogus]:7", "opponents: agent 'heuristic[curve=bogus]'"),
        "seat": (10**5000, "an integer of 5,001 digits"),
        "illegal_penalty": (float("nan"), "illegal_penalty must be a number"),
        "budget": ("1e400s", "bad budget"),
    }
    for key, (value, names) in bad.items():
        with pytest.raises((TypeError, ValueError), match=None) as caught:
            BattlegroundsGymEnv(**{"opponents": "random:7", key: value})
        assert names in str(caught.value)
    with pytest.raises(ValueError, match="an integer of 5,001 digits"):
        battlegrounds_v0.env().reset(seed=10**5000)


def test_the_lobby_checks_its_heroes_flag_and_names_huge_numbers():
    with pytest.raises(TypeError, match="heroes must be True or False, not 'no'"):
        Lobby(1, heroes="no")
    assert Lobby(1, heroes=np.bool_(True)).heroes
    lobby = Lobby(1)
    for call in (lambda: lobby.apply(0, 10**5000), lambda: lobby.observe(10**5000)):
        with pytest.raises(IllegalActionError, match="an integer of 5,001 digits"):
            call()


def test_a_worker_that_dies_is_one_line(tmp_path, capsys, monkeypatch):
    _agent_module(
        tmp_path,
        monkeypatch,
        "dies_in_worker",
        """
        import os
        class Agent:
            name = "x"
            def reset(self, seat, seed): pass
            def act(self, obs, legal): os._exit(9)
        """,
    )
    args = ("tournament", "--agent", "x=dies_in_worker:Agent", "--lineup", "x:1,random:7")
    args += ("--games", "2", "--workers", "2", "--db", tmp_path / "r.db", "--json")
    line = refused(capsys, args, "a worker process died during a game", "no game of this run is")
    assert not (tmp_path / "r.db").exists()
    assert "BrokenProcessPool" not in line


def test_lobby_refuses_a_seed_out_of_range():
    for seed in (-1, -7, 2**64):
        with pytest.raises(ValueError, match=r"seed must be 0\.\.2\*\*64-1"):
            Lobby(seed)
    assert Lobby(2**64 - 1).seed == 2**64 - 1


def test_the_aec_environment_names_a_bad_agent_and_a_finished_game():
    from bgsim.envs import battlegrounds_v0

    env = battlegrounds_v0.env(heroes=False)
    for call in (lambda: env.step(0), env.last, lambda: env.observe("player_0")):
        with pytest.raises(RuntimeError, match=r"call reset\(\) before"):
            call()
    env.reset(seed=1)
    for agent in ("player_9", 0, None, [0]):
        with pytest.raises(ValueError, match=r"no agent .* \(agents are player_0, "):
            env.observe(agent)
    for _ in env.agent_iter():
        _obs, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else 0)
    with pytest.raises(RuntimeError, match="the game is over"):
        env.last()


def test_encode_takes_actions_only():
    from bgsim import EndTurn, encode

    assert encode(EndTurn()) == 0
    for bad in (None, "x", 5, 1.5):
        with pytest.raises(TypeError, match="encode takes an action such as Buy"):
            encode(bad)


def test_the_rules_functions_name_a_missing_ruleset():
    from bgsim import EndTurn, rules

    state = Lobby(1).state(0)
    calls = {
        "legal_actions": lambda r: rules.legal_actions(state, r),
        "action_mask": lambda r: rules.action_mask(state, r),
        "prices": lambda r: rules.prices(state, r),
        "power_actions": lambda r: rules.power_actions(state, r),
        "why_illegal": lambda r: rules.why_illegal(state, EndTurn(), r),
    }
    for call in calls.values():
        for bad in (None, "rules", {}):
            with pytest.raises(TypeError, match="rules must be a bgsim Ruleset"):
                call(bad)
        call(Lobby(1).rules)  # the real one still works (after a cached call too)
    with pytest.raises(TypeError, match="state must be a bgsim PlayerState"):
        rules.power_actions(None, Lobby(1).rules)


def test_a_ray_address_that_cannot_be_a_cluster_is_refused_at_once(tmp_path, capsys):
    """Ray retries a bad address for minutes; bgsim checks it first."""
    import socket

    with socket.socket() as s:  # a port nothing listens on once the socket closes
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    tour = ("tournament", "--lineup", "random:8", "--games", "1", "--backend", "ray")
    db = ("--db", tmp_path / "r.db")
    for address in ("nonsense:99999", "host", ":6379", "ray://x:0", "h:" + "1" * 5000):
        refused(capsys, (*tour, "--address", address, *db), "expected host:port")
    refused(capsys, (*tour, "--address", f"127.0.0.1:{port}", *db), "nothing answers there")
    assert list(tmp_path.iterdir()) == []


def _serve_once(reply: bytes) -> tuple[int, object]:
    """A local port whose first client gets ``reply`` (after it has spoken)."""
    import socket
    import threading

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()

    def answer():
        conn, _ = server.accept()
        with conn:
            conn.recv(64)
            conn.sendall(reply)
        server.close()

    thread = threading.Thread(target=answer, daemon=True)
    thread.start()
    return server.getsockname()[1], thread


def test_a_ray_address_where_another_service_answers_is_refused_at_once(tmp_path, capsys):
    """Ray retries an address that answers but is no Ray cluster for minutes
    too; bgsim asks the service for the HTTP/2 greeting every gRPC server gives."""
    from agents.arena import check_ray_address

    tour = ("tournament", "--lineup", "random:8", "--games", "1", "--backend", "ray")
    for reply in (b"HTTP/1.1 400 Bad Request\r\n\r\n", b"SSH-2.0-OpenSSH_9.6\r\n", b""):
        port, thread = _serve_once(reply)
        args = (*tour, "--address", f"127.0.0.1:{port}", "--db", tmp_path / "r.db")
        refused(capsys, args, "something answers there, but not Ray")
        thread.join(5)
    assert list(tmp_path.iterdir()) == []
    port, thread = _serve_once(bytes([0, 0, 0, 4, 0, 0, 0, 0, 0]))  # a SETTINGS frame
    check_ray_address(f"127.0.0.1:{port}")  # a gRPC server: passes
    thread.join(5)


def test_a_demo_whose_agent_fails_leaves_no_folder(tmp_path, capsys, monkeypatch):
    _agent_module(tmp_path, monkeypatch, "fails_in_demo", FAILS_AT_ONCE)
    before = sorted(tmp_path.iterdir())
    args = ("demo", "--agent", "x=fails_in_demo:Agent", "--lineup", "x:1,random:7")
    code, _, err = run(capsys, *args, "--games", "1", "--workers", "1", "--out", tmp_path / "d")
    assert code == 2 and "boom" in err.strip().splitlines()[-1]
    assert sorted(tmp_path.iterdir()) == before


def test_json_output_is_strict_json_even_over_one_lobby(tmp_path, capsys):
    """An interval over one lobby is not a number: --json gives null, never
    NaN, which strict JSON readers refuse."""

    def refuse(name: str) -> None:
        raise ValueError(name)

    db = tmp_path / "r.db"
    code, out, _ = run(
        capsys, "tournament", "--lineup", "random:8", "--games", "1", "--db", db, "--json"
    )
    assert code == 0
    doc = json.loads(out, parse_constant=refuse)
    heroes = doc["heroes"].values()
    assert heroes and all(h["ci_low"] is None and h["ci_high"] is None for h in heroes)


def test_a_tournament_that_stores_no_game_leaves_no_replay_folder(tmp_path, capsys, monkeypatch):
    _agent_module(tmp_path, monkeypatch, "fails_with_replays", FAILS_AT_ONCE)
    args = ("tournament", "--agent", "x=fails_with_replays:Agent", "--lineup", "x:1,random:7")
    args += ("--games", "1", "--json")
    refused(capsys, (*args, "--db", "r.db", "--replays", "made"), "no game of this run is stored")
    (tmp_path / "text.db").write_text("hello\n", encoding="utf-8")
    text = ("tournament", "--lineup", "random:8", "--games", "1", "--db", "text.db")
    refused(capsys, (*text, "--replays", "m2"), "not a bgsim results database")
    refused(capsys, (*args, "--db", "r.db", "--replays", "deep/er/still"), "no game")
    assert not (tmp_path / "made").exists() and not (tmp_path / "m2").exists()
    assert not (tmp_path / "deep").exists()  # the folders above it that it made go too
    (tmp_path / "kept").mkdir()  # a folder the user made stays
    refused(capsys, (*args, "--db", "r.db", "--replays", "kept"), "no game of this run is stored")
    assert (tmp_path / "kept").is_dir()


def test_resuming_a_run_whose_stored_games_are_corrupt_changes_nothing(tmp_path, capsys):
    import sqlite3

    db = tmp_path / "r.db"
    base = ("tournament", "--lineup", "random:8", "--heroes", "off", "--db", db, "--json")
    assert run(capsys, *base, "--games", "2")[0] == 0
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE games SET placements = '[1,1,1,1,1,1,1,1]' WHERE game = 0")
    conn.close()
    refused(capsys, (*base, "--games", "3"), "placements are not 1..8")
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        assert conn.execute("SELECT count(*) FROM games").fetchone() == (2,)
    conn.close()


# An agent standing in for Ctrl-C before the first game ends.
INTERRUPTS = """
class Agent:
    name = "x"
    def reset(self, seat, seed): pass
    def act(self, obs, legal): raise KeyboardInterrupt
"""


def test_a_tournament_interrupted_before_its_first_game_leaves_what_it_found(
    tmp_path, capsys, monkeypatch
):
    _agent_module(tmp_path, monkeypatch, "interrupts", INTERRUPTS)
    args = ("--agent", "x=interrupts:Agent", "--lineup", "x:1,random:7", "--games", "2")
    code, _, err = run(capsys, "tournament", *args, "--db", tmp_path / "new.db")
    assert code == 130 and "interrupted: no game of this run was stored" in err, err
    assert not (tmp_path / "new.db").exists()  # the database it made is gone again
    code, _, err = run(capsys, "demo", *args, "--out", tmp_path / "demo", "--workers", "1")
    assert code == 130 and not (tmp_path / "demo").exists(), err
    # A database that held a run before keeps it, unchanged.
    db = tmp_path / "old.db"
    assert run(capsys, "tournament", "--lineup", "random:8", "--games", "1", "--db", db)[0] == 0

    def rows() -> list:
        with sqlite3.connect(db) as conn:
            return [conn.execute(f"SELECT * FROM {t}").fetchall() for t in ("runs", "games")]

    before = rows()
    code, _, err = run(capsys, "tournament", *args, "--db", db)
    assert code == 130 and rows() == before, err
