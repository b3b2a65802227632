"""Plotly figures of a results database (``bgsim plot results.db --out DIR``).

Every figure shows the runs it was made from: its title carries each run's
lineup, games, seed and budget and every agent's n (seats and lobbies), and
with several runs each agent's label carries its run (``heuristic @3f2a9c``),
so games of different runs are never pooled. Lines differ in colour, dash and
marker. Intervals are 95% and clustered by lobby (see
:func:`agents.arena.summarize`).
"""

from __future__ import annotations

import html
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

import plotly.graph_objects as go
from plotly.colors import qualitative
from plotly.subplots import make_subplots

from agents.arena import summarize, summarize_heroes
from agents.results_db import GameRecord, ResultsDB
from agents.runs import RunInfo, agent_counts, labelled_games, load_runs, select_runs, short_ids
from bgsim.cards import cards
from bgsim.outputs import output_dir, write_together

ROLLING = 50
DASHES = ("solid", "dash", "dot", "dashdot", "longdash", "longdashdot")
SYMBOLS = ("circle", "square", "diamond", "triangle-up", "x", "star", "triangle-down", "cross")
PATTERNS = ("", "/", ".", "x", "\\", "+", "-", "|")


def _agents(games: list[GameRecord]) -> list[str]:
    return sorted({label for g in games for label in g.seats})


def line_style(k: int) -> dict[str, str]:
    """The colour, dash and marker of the ``k``-th series: no two of the first
    48 share all three, and neighbours differ in each.

    >>> line_style(0) == line_style(1)
    False
    >>> line_style(0)["dash"], line_style(1)["dash"]
    ('solid', 'dash')
    """
    palette = qualitative.Plotly
    return {
        "color": palette[k % len(palette)],
        "dash": DASHES[k % len(DASHES)],
        "symbol": SYMBOLS[k % len(SYMBOLS)],
        "pattern": PATTERNS[k % len(PATTERNS)],
        # Later lines are drawn thinner, so a line under another still shows.
        "width": str(max(1.5, 4.5 - 0.75 * k)),
    }


def describe_runs(runs: Sequence[RunInfo]) -> list[str]:
    """One line per run: lineup, games, seed and budget (and the run's short
    key when there are several).

    >>> describe_runs([RunInfo("abcdef99", "random:8", {"budget": None}, 0, 0.0, {}, 4)])
    ['random:8 · 4 games · seed 0 · budget none']
    """
    if len(runs) == 1:
        return [runs[0].describe()]
    tags = short_ids(runs)
    return [f"@{tags[r.run]}: {r.describe()}" for r in runs]


def _n_lines(games: list[GameRecord], per_line: int = 4) -> list[str]:
    items = [
        f"{label} n={seats}" + (f" seats/{lobbies} lobbies" if seats != lobbies else " lobbies")
        for label, (seats, lobbies) in agent_counts(games).items()
    ]
    return ["; ".join(items[i : i + per_line]) for i in range(0, len(items), per_line)]


def _titled(fig: go.Figure, what: str, games: list[GameRecord], about: Sequence[str]) -> None:
    """Put ``what``, the runs and every agent's n in the figure's title."""
    lines = [*about, *_n_lines(games)]
    text = f"<b>{html.escape(what)}</b>" + "".join(
        f"<br><sup>{html.escape(line)}</sup>" for line in lines
    )
    fig.update_layout(
        title={
            "text": text,
            "x": 0.01,
            "xanchor": "left",
            "yref": "container",
            "y": 1.0,
            "yanchor": "top",
            "pad": {"t": 14},
        },
        margin={"t": 70 + 20 * len(lines)},
        meta={"title": f"{what} — {' | '.join(about)}"},
    )


def win_rate_figure(
    games: list[GameRecord], window: int = ROLLING, about: Sequence[str] = ()
) -> go.Figure:
    """Cumulative (top) and rolling (bottom) win rate of each agent over the
    seats it played, in game order. The rolling window shrinks to a fifth of
    an agent's seats (at least 5), so a short run still shows a rolling line
    distinct from the cumulative one."""
    fig = make_subplots(
        rows=2,
        cols=1,
        shared_xaxes=True,
        vertical_spacing=0.08,
        subplot_titles=("cumulative", "rolling"),
    )
    for k, label in enumerate(_agents(games)):
        wins = []
        for g in games:
            for seat_label, place in zip(g.seats, g.placements, strict=True):
                if seat_label == label:
                    wins.append(1 if place == 1 else 0)
        span = min(window, max(5, len(wins) // 5))
        x = list(range(1, len(wins) + 1))
        cumulative, rolling, total = [], [], 0
        for i, w in enumerate(wins):
            total += w
            cumulative.append(total / (i + 1))
            lo = max(0, i + 1 - span)
            rolling.append(sum(wins[lo : i + 1]) / (i + 1 - lo))
        style = line_style(k)
        line = {"color": style["color"], "dash": style["dash"], "width": float(style["width"])}
        marker = {"symbol": style["symbol"], "size": 6, "maxdisplayed": 12}
        fig.add_trace(
            go.Scatter(
                x=x,
                y=cumulative,
                mode="lines+markers",
                name=f"{label} cumulative",
                legendgroup=label,
                line=line,
                marker=marker,
            ),
            row=1,
            col=1,
        )
        fig.add_trace(
            go.Scatter(
                x=x,
                y=rolling,
                mode="lines+markers",
                name=f"{label} rolling ({span})",
                legendgroup=label,
                line=line,
                marker=marker,
            ),
            row=2,
            col=1,
        )
    fig.update_yaxes(title_text="win rate", range=[-0.05, 1.05])
    fig.update_layout(height=720)
    fig.update_xaxes(title_text="seats played by the agent, in game order", row=2, col=1)
    _titled(fig, "Win rate per agent", games, about)
    return fig


def placement_figure(games: list[GameRecord], about: Sequence[str] = ()) -> go.Figure:
    """Share of each placement (1..8) per agent."""
    fig = go.Figure()
    for k, label in enumerate(_agents(games)):
        counts: defaultdict[int, int] = defaultdict(int)
        for g in games:
            for seat_label, place in zip(g.seats, g.placements, strict=True):
                if seat_label == label:
                    counts[place] += 1
        n = sum(counts.values())
        places = list(range(1, 9))
        style = line_style(k)
        fig.add_trace(
            go.Bar(
                x=places,
                y=[counts[p] / n for p in places],
                name=label,
                marker={"color": style["color"], "pattern": {"shape": style["pattern"]}},
                customdata=[counts[p] for p in places],
                hovertemplate=f"{label}<br>place %{{x}}: %{{y:.1%}} (%{{customdata}} of {n})"
                "<extra></extra>",
            )
        )
    fig.update_layout(xaxis_title="placement", yaxis_title="share of seats", barmode="group")
    _titled(fig, "Placement distribution", games, about)
    return fig


def hero_placement_figure(games: list[GameRecord], about: Sequence[str] = ()) -> go.Figure:
    """Mean placement per hero played with its 95% interval (lower is better),
    best first, one series per run so runs are never pooled; the hover says
    the games, the top-4 rate and the hero power's uses per game."""
    db = cards()
    by_run: dict[str, list[GameRecord]] = defaultdict(list)
    for g in games:
        by_run[g.run].append(g)
    tags = short_ids(sorted(by_run))
    summaries = {run: summarize_heroes(rows) for run, rows in sorted(by_run.items())}
    pooled_order = summarize_heroes(games)
    heroes = sorted(pooled_order, key=lambda h: (pooled_order[h]["mean_placement"], h))
    names = {h: db[h].name if h in db else h for h in heroes}
    fig = go.Figure()
    for k, (run, summary) in enumerate(summaries.items()):
        style = line_style(k)
        shown = [h for h in heroes if h in summary]
        rows = [summary[h] for h in shown]
        fig.add_trace(
            go.Scatter(
                x=[names[h] for h in shown],
                y=[r["mean_placement"] for r in rows],
                mode="markers",
                name=f"@{tags[run]}" if len(summaries) > 1 else "mean placement",
                marker={"color": style["color"], "symbol": style["symbol"], "size": 9},
                error_y={
                    "type": "data",
                    "symmetric": False,
                    "array": [r["ci_high"] - r["mean_placement"] for r in rows],
                    "arrayminus": [r["mean_placement"] - r["ci_low"] for r in rows],
                },
                customdata=[[r["games"], r["top4"], r["power_uses"]] for r in rows],
                hovertemplate=(
                    "%{x}: mean placement %{y:.2f}<br>%{customdata[0]} games, "
                    "top 4 %{customdata[1]:.0%}, %{customdata[2]:.1f} power uses a game"
                    "<extra></extra>"
                ),
            )
        )
    fig.add_hline(y=4.5, line_dash="dot", annotation_text="the field's average")
    fig.update_layout(
        yaxis_title="placement",
        yaxis_range=[8.5, 0.5],
        xaxis_tickangle=-45,
        xaxis={"categoryorder": "array", "categoryarray": [names[h] for h in heroes]},
        showlegend=len(summaries) > 1,
    )
    _titled(fig, "Placement by hero (95% interval)", games, about)
    return fig


def mean_placement_figure(games: list[GameRecord], about: Sequence[str] = ()) -> go.Figure:
    """Mean placement per agent with its 95% interval, clustered by lobby
    (lower is better)."""
    summary = summarize(games)
    fig = go.Figure()
    for k, (label, row) in enumerate(summary.items()):
        style = line_style(k)
        fig.add_trace(
            go.Scatter(
                x=[label],
                y=[row["mean_placement"]],
                mode="markers",
                name=label,
                marker={"color": style["color"], "symbol": style["symbol"], "size": 11},
                error_y={
                    "type": "data",
                    "symmetric": False,
                    "array": [row["ci_high"] - row["mean_placement"]],
                    "arrayminus": [row["mean_placement"] - row["ci_low"]],
                },
                hovertemplate=f"{label}<br>mean %{{y:.2f}} "
                f"({row['ci_low']:.2f}-{row['ci_high']:.2f}), "
                f"{row['games']} seats in {row['lobbies']} lobbies<extra></extra>",
            )
        )
    fig.add_hline(y=4.5, line_dash="dot", annotation_text="no better than the field")
    fig.update_layout(yaxis_title="placement", yaxis_range=[8.5, 0.5], showlegend=False)
    _titled(fig, "Mean placement (95% interval, clustered by lobby)", games, about)
    return fig


def health_figure(
    games: list[GameRecord], rounds: list[tuple], about: Sequence[str] = ()
) -> go.Figure:
    """Hero health after each round, averaged over each agent's seats still
    alive then (top), and how many lobbies stand behind each point: those in
    which the agent still had a seat alive (bottom). Seats that are out, and
    lobbies that are over, drop out of the mean instead of counting as 0."""
    label_of = {(g.run, g.game, seat): label for g in games for seat, label in enumerate(g.seats)}
    alive: dict[str, dict[int, list[int]]] = defaultdict(lambda: defaultdict(list))
    lobbies: dict[str, dict[int, set[tuple[str, int]]]] = defaultdict(lambda: defaultdict(set))
    for run, game, turn, seat, health, _tier, is_alive in rounds:
        label = label_of.get((run, game, seat))
        if label is not None and is_alive:
            alive[label][turn].append(health)
            lobbies[label][turn].add((run, game))
    fig = make_subplots(
        rows=2,
        cols=1,
        shared_xaxes=True,
        row_heights=[0.7, 0.3],
        vertical_spacing=0.06,
    )
    for k, label in enumerate(_agents(games)):
        turns = sorted(alive[label])
        if not turns:
            continue
        style = line_style(k)
        counts = [len(lobbies[label][t]) for t in turns]
        line = {"color": style["color"], "dash": style["dash"], "width": float(style["width"])}
        marker = {"symbol": style["symbol"], "size": 7}
        fig.add_trace(
            go.Scatter(
                x=turns,
                y=[sum(alive[label][t]) / len(alive[label][t]) for t in turns],
                mode="lines+markers",
                name=label,
                legendgroup=label,
                line=line,
                marker=marker,
                customdata=counts,
                hovertemplate=f"{label}<br>turn %{{x}}: %{{y:.1f}} health, "
                "%{customdata} lobbies<extra></extra>",
            ),
            row=1,
            col=1,
        )
        fig.add_trace(
            go.Scatter(
                x=turns,
                y=counts,
                mode="lines+markers",
                name=f"{label} lobbies",
                legendgroup=label,
                showlegend=False,
                line=line,
                marker=marker,
            ),
            row=2,
            col=1,
        )
    fig.update_yaxes(title_text="health (alive only)", row=1, col=1)
    fig.update_yaxes(title_text="lobbies", rangemode="tozero", row=2, col=1)
    fig.update_xaxes(title_text="turn", row=2, col=1)
    fig.update_layout(height=680)
    _titled(fig, "Hero health by round, players still alive", games, about)
    return fig


def figures(db: ResultsDB, runs: Sequence[str] | None = None) -> dict[str, go.Figure]:
    """The figures of the runs named by ``runs`` (keys or unique starts of
    keys; all runs when empty), every run a separate series."""
    chosen = select_runs(load_runs(db), list(runs or ()), str(db.path))
    games = labelled_games(db, chosen)
    if not games:
        raise ValueError(f"{db.path} holds no finished games in the runs asked for")
    about = describe_runs(chosen)
    out = {
        "win_rate": win_rate_figure(games, about=about),
        "placements": placement_figure(games, about=about),
        "mean_placement": mean_placement_figure(games, about=about),
        "health": health_figure(games, db.rounds([r.run for r in chosen]), about=about),
    }
    if any(any(g.heroes) for g in games):
        out["heroes"] = hero_placement_figure(games, about=about)
    return out


def standalone_html(fig: go.Figure, div_id: str = "figure") -> str:
    """``fig`` as one HTML page that works offline and on its own: plotly.js
    inside it, the figure's title in ``<title>``.

    >>> page = standalone_html(go.Figure(layout={"meta": {"title": "x < y"}}))
    >>> "<title>x &lt; y</title>" in page, "<script src=" in page
    (True, False)
    """
    meta = fig.layout.meta
    title = meta.get("title", "bgsim") if isinstance(meta, dict) else "bgsim"
    body = fig.to_html(full_html=False, include_plotlyjs=True, div_id=div_id)
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{html.escape(title)}</title>\n</head>\n<body>\n{body}\n</body>\n</html>\n"
    )


def write_plots(
    db_path: str | Path, out: str | Path, png: bool = False, runs: Sequence[str] | None = None
) -> tuple[list[Path], str | None]:
    """Write the figures as HTML (and PNG when asked and possible). Returns the
    files written and, if PNG export failed, why. The database is only read
    (never its schema or a journal written); every file is written through a
    temporary file, and all are renamed into place together once every figure
    is drawn (``bgsim.outputs.write_together``)."""
    with ResultsDB(db_path, readonly=True) as db:
        figs = figures(db, runs)
    out = Path(out)
    pages: dict[Path, str | bytes] = {}
    png_problem = None
    for name, fig in figs.items():
        pages[out / f"{name}.html"] = standalone_html(fig, div_id=name)  # works offline
        if png and png_problem is None:
            try:
                pages[out / f"{name}.png"] = fig.to_image(format="png", width=1000, height=600)
            except Exception as exc:  # Kaleido missing, or unable to start its browser
                png_problem = f"PNG export is not available here: {_png_reason(exc)}"
    # Made and written once every figure is drawn: the set lands whole or not at all.
    output_dir(out)
    write_together(pages)
    return list(pages), png_problem


def _png_reason(exc: Exception) -> str:
    """Why ``write_image`` failed, in one line with the fix."""
    text = str(exc).strip()
    if "Kaleido package" in text or isinstance(exc, ImportError):
        return 'it needs kaleido>=1 (the png extra, or pip install "kaleido>=1")'
    if "Chrome" in text:
        return "kaleido found no Chrome or Chromium (install one, e.g. apt install chromium)"
    first = text.split("\n\n")[0] if text else repr(exc)
    return " ".join(first.split()).rstrip(",:;.")
