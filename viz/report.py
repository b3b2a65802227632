"""One self-contained HTML report of a results database
(``bgsim report results.db --out report.html``).

The page carries everything it needs (plotly.js is inside it, no external
script, style sheet or font), so it works offline when copied on its own. It
holds, for the runs chosen: the summary table with 95% intervals clustered by
lobby, the placement distribution, the mean placements and the health of the
players still alive by round, head-to-head results between agents that met in
the same lobbies, per-hero results when the games had heroes, OpenSkill
ratings across the runs, each run's metadata (lineup, games, seed, budget,
ruleset, dates, code fingerprints) and how each number is computed. The same
database gives the same bytes.
"""

from __future__ import annotations

import html
import importlib.metadata
import math
from collections.abc import Sequence
from pathlib import Path

import plotly.graph_objects as go
from plotly.offline import get_plotlyjs

from agents.arena import summarize, summarize_heroes
from agents.results_db import GameRecord, ResultsDB
from agents.runs import (
    RunInfo,
    head_to_head,
    labelled_games,
    load_runs,
    ratings,
    select_runs,
    short_ids,
)
from bgsim.outputs import atomic_write, output_file
from viz.plots import describe_runs, health_figure, mean_placement_figure, placement_figure

__all__ = ["METHODS", "build_report", "write_report"]

METHODS = (
    "Intervals are 95% and take the lobby as the unit, since an agent's seats in one lobby "
    "share it. The mean placement's interval uses the cluster-robust standard error of the "
    "mean over the agent's seats, clustered by lobby (with equal seats per lobby, the "
    "standard error of the per-lobby means); the top-4 and win rates use a Wilson interval "
    "on the effective number of trials that clustering leaves (p(1-p)/SE², never more than "
    "the seats; one per lobby at a rate of 0 or 1).",
    "Head-to-head: over the lobbies in which two agents met, the share of pairs of their "
    "seats in which the row agent finished above the column agent, with the same clustered "
    "Wilson interval, and the mean placement gap over those pairs.",
    "Ratings: OpenSkill's Plackett-Luce model (openskill.py), every lobby a match of eight "
    "players ranked by placement, games played in order (oldest run first). An agent is its "
    "label and its code fingerprint; with several seats in a lobby each seat plays from the "
    "agent's rating before the lobby and the new rating is the mean of their updates. The "
    "table is sorted by the ordinal mu - 3 sigma.",
)

_STYLE = """
body { font-family: system-ui, -apple-system, "Segoe UI", Helvetica, Arial, sans-serif;
       margin: 24px auto; max-width: 1180px; color: #1d2330; padding: 0 16px; }
h1 { font-size: 26px; margin-bottom: 4px; }
h2 { font-size: 20px; border-bottom: 2px solid #d9dde6; padding-bottom: 4px; margin-top: 36px; }
h3 { font-size: 16px; margin-bottom: 6px; }
p.runs { margin: 2px 0; font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 14px; }
table { border-collapse: collapse; margin: 8px 0 16px; font-size: 14px; }
th, td { border: 1px solid #d9dde6; padding: 4px 10px; text-align: right; }
th { background: #f1f3f8; }
td.l, th.l { text-align: left; }
td.mono { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 13px; }
td.na { color: #9aa1ad; }
.note { color: #4a5263; font-size: 13px; max-width: 900px; }
.fig { margin: 8px 0 20px; }
"""


def _version() -> str:
    try:
        return importlib.metadata.version("bgsim")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def _ci(low: float, high: float, pct: bool = False) -> str:
    if math.isnan(low) or math.isnan(high):
        return "no interval"
    if pct:
        return f"{low:.0%}-{high:.0%}"
    return f"{low:.2f}-{high:.2f}"


def _table(head: Sequence[str], rows: Sequence[Sequence[str]], left: int = 1) -> str:
    """An HTML table; the first ``left`` columns are aligned left. Cells are
    escaped here."""
    out = ["<table>", "<tr>"]
    out += [
        f"<th{' class=l' if i < left else ''}>{html.escape(h)}</th>" for i, h in enumerate(head)
    ]
    out.append("</tr>")
    for row in rows:
        out.append("<tr>")
        for i, cell in enumerate(row):
            cls = "l" if i < left else ""
            if cell == "—":
                cls += " na"
            out.append(f'<td class="{cls.strip()}">{html.escape(cell)}</td>')
        out.append("</tr>")
    out.append("</table>")
    return "".join(out)


def _summary(games: list[GameRecord]) -> str:
    rows = [
        (
            label,
            str(r["games"]),
            str(r["lobbies"]),
            f"{r['mean_placement']:.2f} ({_ci(r['ci_low'], r['ci_high'])})",
            f"{r['top4']:.1%} ({_ci(r['top4_low'], r['top4_high'], pct=True)})",
            f"{r['win']:.1%} ({_ci(r['win_low'], r['win_high'], pct=True)})",
        )
        for label, r in sorted(summarize(games).items(), key=lambda kv: kv[1]["mean_placement"])
    ]
    head = ("agent", "seats", "lobbies", "mean place (95% CI)", "top-4 (95% CI)", "win (95% CI)")
    return _table(head, rows)


def _head_to_head(games: list[GameRecord]) -> str:
    pairs = head_to_head(games)
    labels = sorted({a for a, _ in pairs})
    if len(labels) < 2:
        return '<p class="note">Only one agent played in these lobbies.</p>'
    rows = []
    for a in labels:
        row = [a]
        for b in labels:
            got = pairs.get((a, b))
            if got is None:
                row.append("—")
            else:
                row.append(f"{got['ahead']:.0%} ({_ci(got['low'], got['high'], pct=True)})")
        rows.append(row)
    gaps = [
        (
            a,
            b,
            str(got["lobbies"]),
            str(got["pairs"]),
            f"{got['ahead']:.1%} ({_ci(got['low'], got['high'], pct=True)})",
            f"{got['gap']:+.2f} ({_ci(got['gap_low'], got['gap_high'])})",
        )
        for (a, b), got in pairs.items()
        if a < b
    ]
    return (
        '<p class="note">Row agent above column agent, share of seat pairs (95% CI).</p>'
        + _table(("agent", *labels), rows)
        + _table(
            (
                "agent A",
                "agent B",
                "lobbies",
                "seat pairs",
                "A above B (95% CI)",
                "places A gains on B (95% CI)",
            ),
            gaps,
            left=2,
        )
    )


def _heroes(games: list[GameRecord]) -> str:
    from bgsim.heroes import heroes

    known = heroes()
    rows = [
        (
            known[hero].name if hero in known else hero,
            str(r["games"]),
            f"{r['mean_placement']:.2f} ({_ci(r['ci_low'], r['ci_high'])})",
            f"{r['top4']:.1%}",
            f"{r['power_uses']:.1f}",
        )
        for hero, r in sorted(
            summarize_heroes(games).items(), key=lambda kv: kv[1]["mean_placement"]
        )
    ]
    return _table(("hero", "games", "mean place (95% CI)", "top-4", "power uses/game"), rows)


def _ratings(db: ResultsDB, runs: Sequence[RunInfo]) -> str:
    rows = [
        (
            name,
            f"{r['mu']:.2f}",
            f"{r['sigma']:.2f}",
            f"{r['ordinal']:.2f}",
            str(r["seats"]),
            str(r["runs"]),
        )
        for name, r in ratings(db, runs).items()
    ]
    return _table(("agent", "mu", "sigma", "mu - 3 sigma", "seats", "runs"), rows)


def _metadata(db: ResultsDB, runs: Sequence[RunInfo]) -> str:
    tags = short_ids(runs)
    parts = []
    for r in runs:
        games = db.games([r.run])
        seconds = sum(g.seconds for g in games)
        turns = sum(g.turns for g in games) / len(games) if games else math.nan
        rows = [
            ("run key", r.run),
            ("lineup", r.lineup),
            ("games", r.games_text()),
            ("seed", str(r.seed)),
            ("budget", r.budget),
            ("ruleset", str(r.options.get("ruleset", "—"))),
            ("heroes", "on" if r.options.get("heroes") else "off"),
            ("started", r.date),
            ("play time", f"{seconds:,.1f} s of agent and game time in all"),
            ("turns per game", f"{turns:.1f}" if games else "—"),
        ]
        rows += [(f"fingerprint: {k}", v) for k, v in sorted(r.fingerprints.items())]
        parts.append(f"<h3>Run @{html.escape(tags[r.run])}</h3>")
        parts.append(_table(("field", "value"), rows, left=2))
    return "".join(parts)


def _figure(fig: go.Figure, div_id: str) -> str:
    body = fig.to_html(
        full_html=False, include_plotlyjs=False, div_id=div_id, config={"responsive": True}
    )
    return f'<div class="fig">{body}</div>'


def build_report(db: ResultsDB, wanted: Sequence[str] = (), source: str = "") -> str:
    """The report page for the runs of ``db`` named by ``wanted`` (run keys
    or unique starts of keys; every run when empty), as one HTML string.
    ``source`` names the database on the page.

    >>> import tempfile, pathlib
    >>> with ResultsDB(pathlib.Path(tempfile.mkdtemp()) / "r.db") as db:
    ...     db.add_run("abcdef01", "a:1,b:7", {"games": 2, "budget": None}, 4, {"a": "f"})
    ...     for i in range(2):
    ...         seats = ("a",) + ("b",) * 7
    ...         db.add_game(GameRecord("abcdef01", i, i, seats, tuple(range(1, 9)), 9, 1.0, ()))
    ...     page = build_report(db, source="r.db")
    >>> "<title>bgsim report: a:1,b:7 · 2 games · seed 4 · budget none</title>" in page
    True
    >>> "<script src=" in page
    False
    """
    chosen = select_runs(load_runs(db), list(wanted), source or str(db.path))
    games = labelled_games(db, chosen)
    if not games:
        raise ValueError(f"{source or db.path} holds no finished games in the runs asked for")
    about = describe_runs(chosen)
    title = "bgsim report: " + " | ".join(about)
    tags = short_ids(chosen)
    out = [
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n',
        f"<title>{html.escape(title)}</title>\n<style>{_STYLE}</style>\n",
        f"<script>{get_plotlyjs()}</script>\n</head>\n<body>\n",
        "<h1>bgsim results report</h1>\n",
    ]
    out += [f'<p class="runs">{html.escape(line)}</p>\n' for line in about]
    out.append(
        f'<p class="note">From {html.escape(source or db.path.name)}, written by bgsim '
        f"{html.escape(_version())}. Lower placements are better (1 = first of 8).</p>\n"
    )
    out.append("<h2>Summary</h2>\n")
    for r in chosen:
        if len(chosen) > 1:
            out.append(f"<h3>Run @{html.escape(tags[r.run])}: {html.escape(r.describe())}</h3>")
        out.append(_summary(db.games([r.run])))
    out.append("<h2>Placements</h2>\n")
    out.append(_figure(placement_figure(games, about=about), "placements"))
    out.append(_figure(mean_placement_figure(games, about=about), "mean-placement"))
    out.append("<h2>Health by round</h2>\n")
    rounds = db.rounds([r.run for r in chosen])
    out.append(_figure(health_figure(games, rounds, about=about), "health"))
    out.append("<h2>Head-to-head</h2>\n")
    for r in chosen:
        if len(chosen) > 1:
            out.append(f"<h3>Run @{html.escape(tags[r.run])}: {html.escape(r.describe())}</h3>")
        out.append(_head_to_head(db.games([r.run])))
    hero_runs = [r for r in chosen if any(g.heroes for g in db.games([r.run]))]
    if hero_runs:
        out.append("<h2>Heroes</h2>\n")
        for r in hero_runs:
            out.append(f"<h3>Run @{html.escape(tags[r.run])}: {html.escape(r.describe())}</h3>")
            out.append(_heroes(db.games([r.run])))
    out.append("<h2>Ratings across runs</h2>\n")
    out.append(
        f'<p class="note">OpenSkill (Plackett-Luce) over the {len(chosen)} run'
        f"{'s' if len(chosen) != 1 else ''} of this report.</p>"
    )
    out.append(_ratings(db, chosen))
    out.append("<h2>How the numbers are computed</h2>\n")
    out += [f'<p class="note">{html.escape(text)}</p>\n' for text in METHODS]
    out.append("<h2>Runs</h2>\n")
    out.append(_metadata(db, chosen))
    out.append("\n</body>\n</html>\n")
    return "".join(out)


def write_report(
    db_path: str | Path, out: str | Path, wanted: Sequence[str] = (), source: str = ""
) -> Path:
    """Write the report of ``db_path``'s runs named by ``wanted`` to ``out``
    (see :func:`build_report`) and return its path. The database is only read
    (never its schema or a journal written); the page is written through a
    temporary file and renamed (``bgsim.outputs``)."""
    out = output_file(out, "report file", make=False)
    with ResultsDB(db_path, readonly=True) as db:
        # A name that is not valid UTF-8 is shown with escapes on the UTF-8 page.
        name = source or str(db_path)
        name = name.encode("utf-8", "backslashreplace").decode("utf-8")
        page = build_report(db, wanted, name)
    with atomic_write(output_file(out, "report file")) as f:
        f.write(page)
    return out
