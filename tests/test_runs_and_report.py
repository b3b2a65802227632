"""Runs told apart, clustered intervals, figure metadata and the
self-contained report (bgsim runs / plot --run / report)."""

import html
import math
import re

import pytest

from agents.arena import summarize
from agents.results_db import GameRecord, ResultsDB
from agents.runs import head_to_head, labelled_games, load_runs, ratings, select_runs
from agents.stats import clustered_mean, clustered_rate, mean_interval, wilson
from bgsim import cards
from bgsim.cli import main
from viz.plots import figures, line_style, write_plots
from viz.report import build_report, write_report

RUN_A = "aaaa1111bbbb2222"  # heuristic:2,random:6, seed 3, no budget
RUN_B = "cccc3333dddd4444"  # mcts:2,heuristic:6, seed 9, budget 200it


HEROES = sorted(c.id for c in cards() if c.type == "hero")


def _game(run, game, seats, placements, heroes=()):
    rounds = []
    for turn in range(1, 5):
        for seat, place in enumerate(placements):
            # the seat placed p is knocked out after turn 9 - p... here: places 7-8
            # are out after turn 2, the rest stay; health falls 5 a turn
            alive = not (place >= 7 and turn > 2)
            rounds.append((turn, seat, 40 - 5 * turn if alive else -3, 1, int(alive)))
    return GameRecord(
        run,
        game,
        1000 + game,
        tuple(seats),
        tuple(placements),
        9,
        2.0,
        tuple(rounds),
        heroes=tuple(heroes),
        power_uses=tuple(1 for _ in heroes),
    )


def _db(path, heroes=False):
    with ResultsDB(path) as db:
        db.add_run(
            RUN_A,
            "heuristic:2,random:6",
            {"budget": None, "games": 6, "ruleset": "r", "heroes": False},
            3,
            {"heuristic": "h1", "random": "r1", "bgsim": "g"},
        )
        for i in range(6):
            seats = ["random"] * 8
            seats[i % 8] = seats[(i + 1) % 8] = "heuristic"
            places = [0] * 8
            places[i % 8], places[(i + 1) % 8] = (1, 2) if i % 3 else (2, 1)
            rest = iter(range(3, 9))  # the others place 3..8 in seat order
            places = [p or next(rest) for p in places]
            hero_ids = HEROES[:8] if heroes else []
            db.add_game(_game(RUN_A, i, seats, places, hero_ids))
        db.add_run(
            RUN_B,
            "mcts:2,heuristic:6",
            {"budget": "200it", "games": 4, "ruleset": "r", "heroes": False},
            9,
            {"mcts": "m1", "heuristic": "h1", "bgsim": "g"},
        )
        for i in range(4):
            seats = ["mcts", "mcts"] + ["heuristic"] * 6
            places = [1, 8, 2, 3, 4, 5, 6, 7] if i % 2 else [2, 3, 1, 4, 5, 6, 7, 8]
            db.add_game(_game(RUN_B, i, seats, places))
    return path


# --------------------------------------------------------------- intervals


def test_clustered_mean_takes_the_lobby_as_the_unit():
    lobbies = [[1, 2], [3, 4], [5, 6], [7, 8]]
    mean, low, high = clustered_mean(lobbies)
    lobby_means = [sum(c) / len(c) for c in lobbies]
    assert (mean, low, high) == pytest.approx(mean_interval(lobby_means))
    # Two seats that always finish together: twice the naive width or so.
    together = [[p, p] for p in (1, 8, 2, 7, 3, 6)]
    naive = mean_interval([p for c in together for p in c])
    clustered = clustered_mean(together)
    assert clustered[2] - clustered[1] > 1.3 * (naive[2] - naive[1])
    assert math.isnan(clustered_mean([[1, 2, 3]])[1])  # one lobby: no interval


def test_clustered_rates_never_count_more_than_the_seats():
    independent = [[True], [False]] * 10
    # one seat per lobby: Wilson, up to the G / (G - 1) correction
    assert clustered_rate(independent)[1:] == pytest.approx(wilson(10, 20), abs=0.006)
    # Seats of one lobby sharing the outcome carry one lobby's worth of evidence.
    shared = [[True, True], [False, False]] * 10
    rate, low, high = clustered_rate(shared)
    assert rate == 0.5 and (low, high) == pytest.approx(wilson(10, 20), abs=0.02)
    assert high - low > (lambda w: w[1] - w[0])(wilson(20, 40))
    assert clustered_rate([[False, False]] * 5)[1:] == pytest.approx(wilson(0, 5))


def test_the_tournament_summary_is_clustered_by_lobby():
    # Two seats that take places 1 and 2 in every lobby: their mean is 1.5 in
    # every lobby, so the clustered interval has no width, while treating the
    # seats as independent would give one.
    games = [
        GameRecord("r", i, i, ("a", "a", *["b"] * 6), (1, 2, 3, 4, 5, 6, 7, 8), 9, 1.0, ())
        for i in range(5)
    ]
    a = summarize(games)["a"]
    assert a["lobbies"] == 5 and a["games"] == 10
    assert a["ci_low"] == pytest.approx(1.5) and a["ci_high"] == pytest.approx(1.5)
    assert mean_interval([1, 2] * 5)[1] < 1.2


# ------------------------------------------------------------- runs apart


def test_runs_are_listed_with_their_metadata(tmp_path, capsys):
    path = _db(tmp_path / "r.db")
    assert main(["runs", str(path)]) == 0
    out = capsys.readouterr().out
    for text in (RUN_A, RUN_B, "heuristic:2,random:6", "mcts:2,heuristic:6", "200it", "6/6"):
        assert text in out
    assert "heuristic h1" in out and "mcts m1" in out and "bgsim g" in out
    assert re.search(r"\d{4}-\d\d-\d\d \d\d:\d\d UTC", out)
    assert main(["runs", str(path), "--json"]) == 0
    assert '"budget": "200it"' in capsys.readouterr().out


def test_runs_shows_control_characters_of_a_damaged_file_escaped(tmp_path, capsys):
    import json
    import sqlite3

    path = _db(tmp_path / "r.db")
    with sqlite3.connect(path) as con:
        con.execute(
            "UPDATE runs SET lineup = ?, fingerprints = ? WHERE run = ?",
            ("mcts:2\x1b[2J\rheuristic:6\n", json.dumps({"mc\x07ts": "m\n1"}), RUN_B),
        )
    con.close()
    assert main(["runs", str(path)]) == 0
    out = capsys.readouterr().out
    assert "mcts:2\\x1b[2J\\x0dheuristic:6\\x0a" in out and "mc\\x07ts m\\x0a1" in out
    assert not any(ch in out for ch in "\x1b\r\x07")


def test_run_selection_by_key_prefix(tmp_path):
    with ResultsDB(_db(tmp_path / "r.db")) as db:
        runs = load_runs(db)
        assert [r.run for r in select_runs(runs, ["cccc"], "r.db")] == [RUN_B]
        assert [r.run for r in select_runs(runs, [], "r.db")] == [RUN_A, RUN_B]
        with pytest.raises(ValueError, match=r"no run 'eeee' in r\.db"):
            select_runs(runs, ["eeee"], "r.db")


def test_plot_run_filters_and_several_runs_are_never_pooled(tmp_path):
    with ResultsDB(_db(tmp_path / "r.db")) as db:
        one = figures(db, ["aaaa"])
        names = {t.name for t in one["placements"].data}
        assert names == {"heuristic", "random"}
        both = figures(db)
        names = {t.name for t in both["placements"].data}
        # heuristic played in both runs: two series, one per run
        assert names == {
            "heuristic @aaaa11",
            "random @aaaa11",
            "heuristic @cccc33",
            "mcts @cccc33",
        }
        games = labelled_games(db, load_runs(db))
        assert summarize(games)["heuristic @aaaa11"]["games"] == 12


def test_every_title_carries_lineup_games_seed_budget_and_each_n(tmp_path):
    with ResultsDB(_db(tmp_path / "r.db")) as db:
        figs = figures(db, ["aaaa"])
    for name, fig in figs.items():
        title = html.unescape(fig.layout.title.text)
        for text in ("heuristic:2,random:6", "6 games", "seed 3", "budget none"):
            assert text in title, (name, text)
        assert "heuristic n=12 seats/6 lobbies" in title and "random n=36 seats/6 lobbies" in title
    write_plots(tmp_path / "r.db", tmp_path / "plots", runs=["cccc"])
    page = (tmp_path / "plots" / "health.html").read_text(encoding="utf-8")
    head = re.search(r"<title>(.*)</title>", page).group(1)
    assert "mcts:2,heuristic:6" in html.unescape(head) and "budget 200it" in head


def test_health_counts_only_the_living_and_says_how_many_lobbies(tmp_path):
    with ResultsDB(_db(tmp_path / "r.db")) as db:
        fig = figures(db, ["cccc"])["health"]
    traces = {t.name: t for t in fig.data}
    mcts = traces["mcts"]
    # Every mcts seat alive through turn 2 at 35 and 30; after that only the
    # living ones count (never the -3 or 0 of a dead seat).
    assert list(mcts.x) == [1, 2, 3, 4]
    assert list(mcts.y) == [35, 30, 25, 20]
    assert list(mcts.customdata) == [4, 4, 4, 4]
    lobbies = traces["mcts lobbies"]
    assert list(lobbies.y) == [4, 4, 4, 4]


def test_lines_differ_in_colour_and_dash(tmp_path):
    styles = [line_style(k) for k in range(6)]
    assert len({(s["color"], s["dash"]) for s in styles}) == 6
    assert len({s["dash"] for s in styles}) == 6
    with ResultsDB(_db(tmp_path / "r.db")) as db:
        fig = figures(db)["win_rate"]
    seen = {(t.line.color, t.line.dash) for t in fig.data if t.name.endswith("cumulative")}
    assert len(seen) == 4


def test_plot_cli_filters_runs_and_rejects_unknown_ones(tmp_path, capsys):
    path = _db(tmp_path / "r.db")
    assert main(["plot", str(path), "--run", "cccc", "--out", str(tmp_path / "p")]) == 0
    page = (tmp_path / "p" / "placements.html").read_text(encoding="utf-8")
    assert "mcts:2,heuristic:6" in page and "heuristic:2,random:6" not in page
    capsys.readouterr()
    assert main(["plot", str(path), "--run", "ffff", "--out", str(tmp_path / "q")]) == 2
    err = capsys.readouterr().err
    assert "no run 'ffff'" in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "q").exists()


# ------------------------------------------------------------------ report


def test_the_report_is_one_offline_page_with_every_section(tmp_path, capsys):
    path = _db(tmp_path / "r.db")
    out = tmp_path / "report.html"
    assert main(["report", str(path), "--out", str(out)]) == 0
    assert "wrote" in capsys.readouterr().out
    page = out.read_text(encoding="utf-8")
    # Nothing loaded from elsewhere: no script, style sheet, image or frame by URL.
    assert not re.search(r"<(script|link|img|iframe)[^>]*(src|href)=", page)
    assert "Plotly.newPlot" in page and len(page) > 1_000_000  # plotly.js is inside
    title = html.unescape(re.search(r"<title>(.*)</title>", page).group(1))
    assert "heuristic:2,random:6 · 6 games · seed 3 · budget none" in title
    assert "mcts:2,heuristic:6 · 4 games · seed 9 · budget 200it" in title
    for heading in (
        "Summary",
        "Placements",
        "Health by round",
        "Head-to-head",
        "Ratings across runs",
        "How the numbers are computed",
        "Runs",
    ):
        assert f"<h2>{heading}</h2>" in page
    assert "<h2>Heroes</h2>" not in page  # these games had none
    assert RUN_A in page and "h1" in page and "m1" in page  # keys and fingerprints
    assert build_report(ResultsDB(path)) == build_report(ResultsDB(path))  # same bytes


def test_report_run_filter_heroes_and_errors(tmp_path, capsys):
    path = _db(tmp_path / "r.db", heroes=True)
    out = tmp_path / "one.html"
    assert main(["report", str(path), "--run", "aaaa", "--out", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    assert "mcts" not in page.split("<h2>Summary</h2>")[1].split("<h2>Runs</h2>")[0]
    assert "<h2>Heroes</h2>" in page and "power uses/game" in page
    capsys.readouterr()
    # A missing folder is made, as for every file a command writes.
    assert main(["report", str(path), "--out", str(tmp_path / "no" / "r.html")]) == 0
    assert (tmp_path / "no" / "r.html").is_file()
    assert main(["report", str(tmp_path / "missing.db"), "--out", str(tmp_path / "no2" / "r")]) == 2
    assert not (tmp_path / "no2").exists()  # a report that fails makes no folder
    capsys.readouterr()
    assert main(["report", str(tmp_path / "missing.db"), "--out", str(out)]) == 2
    assert "no such results file" in capsys.readouterr().err
    assert not (tmp_path / "missing.db").exists()


def test_head_to_head_and_ratings(tmp_path):
    with ResultsDB(_db(tmp_path / "r.db")) as db:
        runs = load_runs(db)
        pairs = head_to_head(db.games([RUN_A]))
        assert pairs[("heuristic", "random")]["ahead"] == 1.0
        assert pairs[("heuristic", "random")]["lobbies"] == 6
        assert pairs[("random", "heuristic")]["ahead"] == 0.0
        assert ("mcts", "random") not in head_to_head(db.games())  # they never met
        rated = ratings(db, runs)
    assert next(iter(rated)) == "heuristic"  # it won every lobby of run A
    assert rated["heuristic"]["runs"] == 2 and rated["random"]["seats"] == 36
    assert rated["random"]["mu"] < 25 < rated["heuristic"]["mu"]


def test_the_same_label_with_other_code_is_rated_apart(tmp_path):
    path = _db(tmp_path / "r.db")
    with ResultsDB(path) as db:
        db.conn.execute(
            "UPDATE runs SET fingerprints = ? WHERE run = ?",
            ('{"mcts": "m1", "heuristic": "h2", "bgsim": "g"}', RUN_B),
        )
        db.conn.commit()
        rated = ratings(db, load_runs(db))
    assert {"heuristic (code h1)", "heuristic (code h2)"} <= set(rated)


def test_write_report_refuses_nothing_silently(tmp_path):
    path = _db(tmp_path / "r.db")
    with pytest.raises(ValueError, match="no run 'zz'"):
        write_report(path, tmp_path / "x.html", ["zz"])
    assert not (tmp_path / "x.html").exists()


def test_the_demo_writes_the_report(tmp_path, capsys):
    out = tmp_path / "demo"
    args = ["demo", "--out", str(out), "--games", "2", "--workers", "1"]
    assert main([*args, "--lineup", "heuristic:2,greedy:2,random:4"]) == 0
    printed = capsys.readouterr().out
    assert f"report:   {out / 'report.html'}" in printed
    page = (out / "report.html").read_text(encoding="utf-8")
    assert "heuristic:2,greedy:2,random:4 · 2 games · seed 0 · budget 200it" in html.unescape(page)
    assert not re.search(r"<(script|link)[^>]*(src|href)=", page)
    assert sorted(p.name for p in out.iterdir()) == [
        "plots",
        "replay.jsonl",
        "report.html",
        "results.db",
    ]


def test_readme_and_design_speak_of_the_project_in_dates_and_versions():
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    for name in ("README.md", "DESIGN.md"):
        text = (root / name).read_text(encoding="utf-8")
        assert not re.search(r"\b[Ss]tops? \d+|\bstop-\d+", text), name
    readme = (root / "README.md").read_text(encoding="utf-8")
    assert "## What is not modelled" in readme.split("## Set-up")[0]
    for command in ("bgsim runs", "bgsim report", "--arrange", "docs/report.png"):
        assert command in readme


def test_mean_placement_intervals_stay_within_the_placements():
    games = [
        GameRecord(
            "r", i, i, ("a", *["b"] * 7), (p, *[q for q in range(1, 9) if q != p]), 9, 1.0, ()
        )
        for i, p in enumerate((1, 8))
    ]
    a = summarize(games)["a"]
    assert a["mean_placement"] == 4.5 and a["ci_low"] == 1.0 and a["ci_high"] == 8.0
