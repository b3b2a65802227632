"""Plotly figures of a results database (``bgsim plot results.db --out DIR``)."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import plotly.graph_objects as go
from plotly.colors import qualitative
from plotly.offline import get_plotlyjs

from agents.arena import summarize
from agents.results_db import GameRecord, ResultsDB
from bgsim.outputs import atomic_write, output_dir

ROLLING = 50


def _agents(games: list[GameRecord]) -> list[str]:
    return sorted({label for g in games for label in g.seats})


def win_rate_figure(games: list[GameRecord], window: int = ROLLING) -> go.Figure:
    """Cumulative and rolling win rate of each agent over the games it played.
    The rolling window shrinks to a fifth of an agent's games (at least 5), so
    a short run still shows a rolling line distinct from the cumulative one."""
    fig = go.Figure()
    palette = qualitative.Plotly
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
        color = palette[k % len(palette)]
        fig.add_trace(
            go.Scatter(
                x=x, y=cumulative, mode="lines", name=f"{label} cumulative", line={"color": color}
            )
        )
        fig.add_trace(
            go.Scatter(
                x=x,
                y=rolling,
                mode="lines",
                name=f"{label} rolling ({span})",
                line={"dash": "dot", "color": color},
            )
        )
    fig.update_layout(
        title="Win rate per agent",
        xaxis_title="games played by the agent",
        yaxis_title="win rate",
        yaxis_range=[0, 1],
    )
    return fig


def placement_figure(games: list[GameRecord]) -> go.Figure:
    """Share of each placement (1..8) per agent."""
    fig = go.Figure()
    for label in _agents(games):
        counts: defaultdict[int, int] = defaultdict(int)
        for g in games:
            for seat_label, place in zip(g.seats, g.placements, strict=True):
                if seat_label == label:
                    counts[place] += 1
        n = sum(counts.values())
        places = list(range(1, 9))
        fig.add_trace(go.Bar(x=places, y=[counts[p] / n for p in places], name=label))
    fig.update_layout(
        title="Placement distribution",
        xaxis_title="placement",
        yaxis_title="share of games",
        barmode="group",
    )
    return fig


def mean_placement_figure(games: list[GameRecord]) -> go.Figure:
    """Mean placement per agent with its 95% interval (lower is better)."""
    summary = summarize(games)
    labels = list(summary)
    means = [summary[k]["mean_placement"] for k in labels]
    fig = go.Figure(
        go.Scatter(
            x=labels,
            y=means,
            mode="markers",
            name="mean placement",
            error_y={
                "type": "data",
                "symmetric": False,
                "array": [summary[k]["ci_high"] - summary[k]["mean_placement"] for k in labels],
                "arrayminus": [summary[k]["mean_placement"] - summary[k]["ci_low"] for k in labels],
            },
        )
    )
    fig.add_hline(y=4.5, line_dash="dot", annotation_text="no better than the field")
    fig.update_layout(
        title="Mean placement (95% interval)", yaxis_title="placement", yaxis_range=[8.5, 0.5]
    )
    return fig


def health_figure(games: list[GameRecord], rounds: list[tuple]) -> go.Figure:
    """Hero health after each round, averaged over each agent's seats (0 once out)."""
    label_of = {(g.run, g.game, seat): label for g in games for seat, label in enumerate(g.seats)}
    sums: dict[str, dict[int, list[int]]] = defaultdict(lambda: defaultdict(list))
    for run, game, turn, seat, health, _tier, alive in rounds:
        label = label_of.get((run, game, seat))
        if label is not None:
            sums[label][turn].append(max(health, 0) if alive else 0)
    fig = go.Figure()
    for label in sorted(sums):
        turns = sorted(sums[label])
        fig.add_trace(
            go.Scatter(
                x=turns,
                y=[sum(sums[label][t]) / len(sums[label][t]) for t in turns],
                mode="lines+markers",
                name=label,
            )
        )
    fig.update_layout(title="Hero health by round", xaxis_title="turn", yaxis_title="health")
    return fig


def figures(db: ResultsDB, runs: list[str] | None = None) -> dict[str, go.Figure]:
    games = db.games(runs)
    if not games:
        raise ValueError(f"{db.path} holds no finished games")
    return {
        "win_rate": win_rate_figure(games),
        "placements": placement_figure(games),
        "mean_placement": mean_placement_figure(games),
        "health": health_figure(games, db.rounds(runs)),
    }


def write_plots(
    db_path: str | Path, out: str | Path, png: bool = False, runs: list[str] | None = None
) -> tuple[list[Path], str | None]:
    """Write the figures as HTML (and PNG when asked and possible). Returns the
    files written and, if PNG export failed, why. The database is only read
    (never its schema or a journal written); every file is written through a
    temporary file and renamed (``bgsim.outputs``)."""
    with ResultsDB(db_path, readonly=True) as db:
        figs = figures(db, runs)
    out = output_dir(out)
    bundle = out / "plotly.min.js"  # what include_plotlyjs="directory" pages load
    if not bundle.exists():
        with atomic_write(bundle) as f:
            f.write(get_plotlyjs())
    written = []
    png_problem = None
    for name, fig in figs.items():
        path = out / f"{name}.html"
        with atomic_write(path) as f:
            f.write(fig.to_html(include_plotlyjs="directory"))  # works offline
        written.append(path)
        if png and png_problem is None:
            try:
                image = fig.to_image(format="png", width=1000, height=600)
            except Exception as exc:  # Kaleido missing, or unable to start its browser
                png_problem = f"PNG export is not available here: {_png_reason(exc)}"
            else:
                with atomic_write(out / f"{name}.png", "wb") as f:
                    f.write(image)
                written.append(out / f"{name}.png")
    return written, png_problem


def _png_reason(exc: Exception) -> str:
    """Why ``write_image`` failed, in one line with the fix."""
    text = str(exc).strip()
    if "Kaleido package" in text or isinstance(exc, ImportError):
        return 'it needs kaleido>=1 (the png extra, or pip install "kaleido>=1")'
    if "Chrome" in text:
        return "kaleido found no Chrome or Chromium (install one, e.g. apt install chromium)"
    first = text.split("\n\n")[0] if text else repr(exc)
    return " ".join(first.split()).rstrip(",:;.")
