"""Results database, tournament summaries and the plotly figures."""

import json
import math

import pytest

from agents.arena import seats_for_game, summarize
from agents.results_db import GameRecord, ResultsDB, ResultsError
from agents.stats import mean_interval, wilson
from bgsim import Budget, BudgetError
from bgsim.registry import LineupError, parse_lineup
from bgsim.seeds import derive_seed
from viz.plots import figures, write_plots


def test_wilson_interval_known_values():
    low, high = wilson(5, 10)
    assert low == pytest.approx(0.2366, abs=1e-4) and high == pytest.approx(0.7634, abs=1e-4)
    assert wilson(0, 20)[0] == 0.0 and wilson(20, 20)[1] == 1.0


def test_mean_interval():
    mean, low, high = mean_interval([1, 2, 3, 4, 5, 6, 7, 8])
    assert mean == 4.5 and mean - low == pytest.approx(high - mean)
    assert high - mean == pytest.approx(1.96 * math.sqrt(6.0 / 8), rel=1e-3)


def test_lineup_parsing():
    specs = parse_lineup("random:3,random[x=1]:5")
    assert [s.label for s in specs] == ["random"] * 3 + ["random[x=1]"] * 5
    with pytest.raises(LineupError, match="fills 7 seats"):
        parse_lineup("random:7")
    with pytest.raises(LineupError, match="unknown agent 'nope'"):
        parse_lineup("nope:8")
    with pytest.raises(LineupError, match="bad lineup item"):
        parse_lineup("random:x")


def test_budget_parsing():
    assert Budget.parse("0.5s") == Budget(seconds=0.5)
    assert Budget.parse("2000it") == Budget(iterations=2000)
    for bad in ("fast", "nans", "infs", "1e400s", "-1s", "0it", "1.5it", "s", ""):
        with pytest.raises(BudgetError, match="bad budget"):
            Budget.parse(bad)
    with pytest.raises(BudgetError, match="either seconds or iterations"):
        Budget()


def test_seats_rotate_and_seeds_are_shared():
    lineup = parse_lineup("random[a]:1,random:7")
    assert seats_for_game(lineup, 0)[0].label == "random[a]"
    assert seats_for_game(lineup, 3)[5].label == "random[a]"
    assert derive_seed("lobby", 1, 2) == derive_seed("lobby", 1, 2) != derive_seed("lobby", 1, 3)


def _records(n=12):
    out = []
    for i in range(n):
        seats = ("a", "b", "b", "b", "b", "b", "b", "b")
        # agent a wins even games, is 8th in odd ones
        first = 1 if i % 2 == 0 else 8
        others = [p for p in range(1, 9) if p != first]
        rounds = tuple(
            (t, s, 40 - t * (s + 1), 1 + t // 3, 1) for t in range(1, 4) for s in range(8)
        )
        out.append(GameRecord("run1", i, 100 + i, seats, (first, *others), 10, 1.5, rounds))
    return out


def test_summary_per_agent():
    summary = summarize(_records())
    a = summary["a"]
    assert a["games"] == 12 and a["win"] == 0.5 and a["top4"] == 0.5
    assert a["mean_placement"] == pytest.approx(4.5)
    assert a["ci_low"] < 4.5 < a["ci_high"]
    assert summary["b"]["games"] == 84


def test_db_roundtrip_and_resume(tmp_path):
    path = tmp_path / "r.db"
    with ResultsDB(path) as db:
        db.add_run("run1", "a:1,b:7", {"budget": None}, 0, {"a": "f1"})
        for rec in _records(5):
            db.add_game(rec)
    with ResultsDB(path) as db:
        assert db.finished("run1") == {0, 1, 2, 3, 4}
        games = db.games()
        assert [g.game for g in games] == [0, 1, 2, 3, 4]
        assert games[0].placements[0] == 1
        assert len(db.rounds()) == 5 * 3 * 8


def test_not_a_database(tmp_path):
    path = tmp_path / "junk.db"
    path.write_text("this is not sqlite" * 100)
    with pytest.raises(ResultsError, match="not a bgsim results database"):
        ResultsDB(path)


def test_figures_hold_the_expected_traces(tmp_path):
    path = tmp_path / "r.db"
    with ResultsDB(path) as db:
        db.add_run("run1", "a:1,b:7", {}, 0, {})
        for rec in _records():
            db.add_game(rec)
        figs = figures(db)
    win = figs["win_rate"]
    names = [t.name for t in win.data]
    assert "a cumulative" in names and "b rolling (16)" in names
    a_cum = next(t for t in win.data if t.name == "a cumulative")
    assert list(a_cum.y)[:4] == [1.0, 0.5, pytest.approx(2 / 3), 0.5]
    a_roll = next(t for t in win.data if t.name == "a rolling (5)")
    # a wins every even game: the 5-game window over games 2..6 holds two wins
    assert list(a_roll.y)[:6] == [1.0, 0.5, pytest.approx(2 / 3), 0.5, 0.6, 0.4]
    places = {t.name: list(t.y) for t in figs["placements"].data}
    assert places["a"][0] == 0.5 and places["a"][7] == 0.5
    assert sum(places["b"]) == pytest.approx(1.0)
    means = {t.name: t.y[0] for t in figs["mean_placement"].data}
    assert sorted(means) == ["a", "b"] and means["a"] == pytest.approx(4.5)
    health = {t.name: (list(t.x), list(t.y)) for t in figs["health"].data}
    assert health["a"] == ([1, 2, 3], [39, 38, 37])


def test_write_plots(tmp_path):
    path = tmp_path / "r.db"
    with ResultsDB(path) as db:
        db.add_run("run1", "a:1,b:7", {}, 0, {})
        for rec in _records():
            db.add_game(rec)
    written, problem = write_plots(path, tmp_path / "plots", png=False)
    names = sorted(p.name for p in written)
    assert names == ["health.html", "mean_placement.html", "placements.html", "win_rate.html"]
    assert not (tmp_path / "plots" / "plotly.min.js").exists()  # each page holds plotly.js
    page = (tmp_path / "plots" / "win_rate.html").read_text(encoding="utf-8")
    assert "<script src=" not in page and "Plotly.newPlot" in page
    assert problem is None


def test_a_database_from_before_fingerprints_gets_the_column(tmp_path):
    import sqlite3

    path = tmp_path / "old.db"
    conn = sqlite3.connect(path)
    conn.executescript(
        "CREATE TABLE runs (run TEXT PRIMARY KEY, lineup TEXT NOT NULL, options TEXT NOT NULL,"
        " seed INTEGER NOT NULL, created REAL NOT NULL);"
        "INSERT INTO runs VALUES ('old', 'random:8', '{}', 0, 1.0);"
    )
    conn.commit()
    conn.close()
    with ResultsDB(path) as db:
        db.add_run("new", "random:8", {}, 0, {"random": "abc"})
        prints = {run: f for run, _, _, _, f in db.runs_with_fingerprints()}
    assert prints == {"old": {}, "new": {"random": "abc"}}


def test_the_tournament_json_names_seats_and_lobbies_and_gives_every_interval(tmp_path, capsys):
    from bgsim.cli import main

    db = tmp_path / "r.db"
    code = main(
        [
            "tournament",
            "--lineup",
            "greedy:2,random:6",
            "--games",
            "3",
            "--db",
            str(db),
            "--seed",
            "4",
            "--json",
        ]
    )
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert (out["games"], out["seed"], out["lineup"]) == (3, 4, "greedy:2,random:6")
    assert out["run"] and set(out["agents"]) == {"greedy", "random"}
    greedy = out["agents"]["greedy"]
    assert (greedy["seats"], greedy["lobbies"]) == (6, 3)  # two seats in each of 3 games
    for key in ("mean_placement", "ci_low", "ci_high", "top4", "top4_low", "top4_high"):
        assert key in greedy
    assert greedy["win_low"] <= greedy["win"] <= greedy["win_high"]
    heroes = out["heroes"].values()
    assert sum(h["games"] for h in heroes) == 24  # each seat drafted one hero
    assert all(isinstance(h["name"], str) and h["name"] for h in heroes)
