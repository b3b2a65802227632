"""The runs of a results database, told apart: what each run was (lineup,
games, seed, budget, agents' code) and the results that belong to it alone.

A database may hold several runs (``bgsim tournament`` keys a run by its
lineup, budget, seed, ruleset and code). Results of different runs are never
pooled here: :func:`labelled_games` tags each agent's label with its run when
more than one run is shown, so the same agent against other opponents stays
a separate series. :func:`head_to_head` compares agents that met in the same
lobbies, and :func:`ratings` rates every agent across runs with OpenSkill's
Plackett-Luce model, which is built for many-player placements.

>>> info = RunInfo("3f2a9c1b5d6e7f80", "mcts:2,random:6", {"budget": "200it", "games": 4}, 0,
...                0.0, {}, 4)
>>> info.describe()
'mcts:2,random:6 · 4 games · seed 0 · budget 200it'
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from agents.results_db import GameRecord, ResultsDB
from agents.stats import clustered_mean, clustered_rate
from combat_c.guarded import shown

__all__ = [
    "RunError",
    "RunInfo",
    "agent_counts",
    "head_to_head",
    "labelled_games",
    "load_runs",
    "ratings",
    "select_runs",
    "short_ids",
]

SHORT_ID = 6  # characters of a run key shown beside labels (more if needed to be unique)


class RunError(ValueError):
    """A run selection that does not name runs of the database; the message
    says why and how to list them.

    >>> select_runs([], [], "results.db")
    Traceback (most recent call last):
    ...
    agents.runs.RunError: results.db holds no runs
    """


@dataclass(frozen=True)
class RunInfo:
    """One stored run: its key, lineup, options (``budget``, ``games``,
    ``ruleset``, ``heroes``), base seed, creation time (Unix seconds), the
    fingerprints of its agents' code and of the game (``"bgsim"``), and how
    many of its games are stored.

    >>> RunInfo("ab", "random:8", {"games": 10}, 3, 0.0, {}, 7).describe()
    'random:8 · 7 of 10 games · seed 3 · budget none'
    """

    run: str
    lineup: str
    options: dict[str, Any] = field(hash=False)
    seed: int
    created: float
    fingerprints: dict[str, str] = field(hash=False)
    games: int

    @property
    def budget(self) -> str:
        """The MCTS budget per turn as given (``"200it"``), or ``"none"``.

        >>> RunInfo("ab", "random:8", {}, 0, 0.0, {}, 1).budget
        'none'
        """
        return str(self.options.get("budget") or "none")

    @property
    def planned(self) -> int | None:
        """The number of games the run was asked for, when recorded.

        >>> RunInfo("ab", "random:8", {"games": 16}, 0, 0.0, {}, 1).planned
        16
        """
        games = self.options.get("games")
        return games if isinstance(games, int) else None

    @property
    def date(self) -> str:
        """When the run was started, in UTC.

        >>> RunInfo("ab", "random:8", {}, 0, 0.0, {}, 1).date
        '1970-01-01 00:00 UTC'
        """
        moment = _dt.datetime.fromtimestamp(self.created, tz=_dt.UTC)
        return moment.strftime("%Y-%m-%d %H:%M UTC")

    def games_text(self) -> str:
        """``"16 games"``, or ``"12 of 16 games"`` for a run not finished.

        >>> RunInfo("ab", "random:8", {"games": 16}, 0, 0.0, {}, 16).games_text()
        '16 games'
        """
        planned = self.planned
        if planned is not None and planned != self.games:
            return f"{self.games} of {planned} games"
        return f"{self.games} game{'s' if self.games != 1 else ''}"

    def describe(self) -> str:
        """Lineup, games, seed and budget in one line (figure titles use it).

        >>> RunInfo("ab", "greedy:8", {"budget": "0.5s"}, 1, 0.0, {}, 2).describe()
        'greedy:8 · 2 games · seed 1 · budget 0.5s'
        """
        heroes = " · heroes" if self.options.get("heroes") else ""
        return (
            f"{self.lineup} · {self.games_text()} · seed {self.seed} · budget {self.budget}{heroes}"
        )


def load_runs(db: ResultsDB) -> list[RunInfo]:
    """Every run stored in ``db``, oldest first.

    >>> import tempfile, pathlib
    >>> with ResultsDB(pathlib.Path(tempfile.mkdtemp()) / "r.db") as db:
    ...     db.add_run("abc", "random:8", {"games": 2}, 0, {"random": "f"})
    ...     [r.lineup for r in load_runs(db)]
    ['random:8']
    """
    return [
        RunInfo(
            d["run"],
            d["lineup"],
            d["options"],
            d["seed"],
            d["created"],
            d["fingerprints"],
            d["games"],
        )
        for d in db.run_details()
    ]


def select_runs(runs: Sequence[RunInfo], wanted: Sequence[str], where: str) -> list[RunInfo]:
    """The runs named by ``wanted`` (each a run key or a unique start of
    one), in the order given; all runs when ``wanted`` is empty. ``where``
    names the database in errors.

    >>> runs = [RunInfo(k, "random:8", {}, 0, 0.0, {}, 1) for k in ("ab12", "ab34", "cd56")]
    >>> [r.run for r in select_runs(runs, ["cd", "ab1"], "r.db")]
    ['cd56', 'ab12']
    >>> select_runs(runs, ["ab"], "r.db")
    Traceback (most recent call last):
    ...
    agents.runs.RunError: run 'ab' is ambiguous in r.db: it starts ab12, ab34; give more of the key
    """
    if not runs:
        raise RunError(f"{where} holds no runs")
    if not wanted:
        return list(runs)
    out: list[RunInfo] = []
    for text in wanted:
        key = text.strip().lower()
        found = [r for r in runs if key and r.run.startswith(key)]
        if not found:
            raise RunError(
                f"no run {shown(text)} in {where}; `bgsim runs {where}` lists its "
                f"{len(runs)} run{'s' if len(runs) != 1 else ''}"
            )
        if len(found) > 1:
            keys = ", ".join(r.run for r in found)
            raise RunError(
                f"run {shown(text)} is ambiguous in {where}: it starts {keys}; give more of the key"
            )
        if found[0] not in out:
            out.append(found[0])
    return out


def short_ids(runs: Sequence[RunInfo] | Sequence[str]) -> dict[str, str]:
    """Each run's key cut to the shortest length (at least six characters)
    that tells the runs apart; ``runs`` are runs or their keys.

    >>> short_ids([RunInfo(k, "random:8", {}, 0, 0.0, {}, 1) for k in ("abcdef12", "abcdef34")])
    {'abcdef12': 'abcdef1', 'abcdef34': 'abcdef3'}
    >>> short_ids(["abcdef12"])
    {'abcdef12': 'abcdef'}
    """
    keys = [r if isinstance(r, str) else r.run for r in runs]
    size = SHORT_ID
    while size < max((len(k) for k in keys), default=0) and len({k[:size] for k in keys}) < len(
        set(keys)
    ):
        size += 1
    return {k: k[:size] for k in keys}


def labelled_games(db: ResultsDB, runs: Sequence[RunInfo]) -> list[GameRecord]:
    """The games of ``runs``; with more than one run every seat's label
    carries its run (``"heuristic @3f2a9c"``), so no result is pooled across
    runs by accident.

    >>> import tempfile, pathlib
    >>> with ResultsDB(pathlib.Path(tempfile.mkdtemp()) / "r.db") as db:
    ...     for key in ("aaaaaa1", "bbbbbb2"):
    ...         db.add_run(key, "random:8", {}, 0, {})
    ...         db.add_game(GameRecord(key, 0, 5, ("random",) * 8, tuple(range(1, 9)), 9, 1.0, ()))
    ...     sorted({g.seats[0] for g in labelled_games(db, load_runs(db))})
    ['random @aaaaaa', 'random @bbbbbb']
    """
    games = db.games([r.run for r in runs])
    if len(runs) < 2:
        return games
    tags = short_ids(runs)
    return [replace(g, seats=tuple(f"{s} @{tags[g.run]}" for s in g.seats)) for g in games]


def agent_counts(games: Iterable[GameRecord]) -> dict[str, tuple[int, int]]:
    """Per label: (seats played, lobbies played in).

    >>> rec = GameRecord("r", 0, 1, ("a",) * 2 + ("b",) * 6, tuple(range(1, 9)), 9, 1.0, ())
    >>> agent_counts([rec])
    {'a': (2, 1), 'b': (6, 1)}
    """
    seats: dict[str, int] = {}
    lobbies: dict[str, set[tuple[str, int]]] = {}
    for g in games:
        for label in g.seats:
            seats[label] = seats.get(label, 0) + 1
            lobbies.setdefault(label, set()).add((g.run, g.game))
    return {label: (seats[label], len(lobbies[label])) for label in sorted(seats)}


def head_to_head(games: Iterable[GameRecord]) -> dict[tuple[str, str], dict[str, float]]:
    """For every pair of labels (A, B) that met in the same lobbies: how
    often a seat of A finished above a seat of B, over every pair of their
    seats in those lobbies, with a 95% interval clustered by lobby, and the
    mean placement gap (B's mean placement minus A's, positive when A does
    better) with its clustered interval. Keys are ordered pairs, both ways.

    >>> rec = GameRecord("r", 0, 1, ("a", "b") * 4, tuple(range(1, 9)), 9, 1.0, ())
    >>> h = head_to_head([rec, replace(rec, game=1)])
    >>> h[("a", "b")]["ahead"], h[("a", "b")]["lobbies"], h[("b", "a")]["ahead"]
    (0.625, 2, 0.375)
    """
    ahead: dict[tuple[str, str], list[list[bool]]] = {}
    gap: dict[tuple[str, str], list[list[float]]] = {}
    for g in games:
        places: dict[str, list[int]] = {}
        for label, place in zip(g.seats, g.placements, strict=True):
            places.setdefault(label, []).append(place)
        for a, mine in places.items():
            for b, theirs in places.items():
                if a == b:
                    continue
                ahead.setdefault((a, b), []).append([p < q for p in mine for q in theirs])
                gap.setdefault((a, b), []).append([q - p for p in mine for q in theirs])
    out = {}
    for pair in sorted(ahead):
        rate, low, high = clustered_rate(ahead[pair])
        mean_gap, gap_low, gap_high = clustered_mean(gap[pair])
        out[pair] = {
            "lobbies": len(ahead[pair]),
            "pairs": sum(len(c) for c in ahead[pair]),
            "ahead": rate,
            "low": low,
            "high": high,
            "gap": mean_gap,
            "gap_low": gap_low,
            "gap_high": gap_high,
        }
    return out


def ratings(db: ResultsDB, runs: Sequence[RunInfo]) -> dict[str, dict[str, float]]:
    """OpenSkill (Plackett-Luce) ratings of every agent over the games of
    ``runs``, played in order (oldest run first, game by game), each lobby a
    match of eight players ranked by placement. An agent is its label and its
    code: a label whose fingerprint differs between runs is rated once per
    fingerprint, shown as ``"label (code 1a2b3c)"``. An agent with several
    seats in a lobby plays each from its rating before the lobby, and its
    new rating is the mean of its seats' updates. Returns, best first by the
    ordinal ``mu - 3 sigma``: ``mu``, ``sigma``, ``ordinal``, ``seats``,
    ``runs``.

    >>> import tempfile, pathlib
    >>> with ResultsDB(pathlib.Path(tempfile.mkdtemp()) / "r.db") as db:
    ...     db.add_run("r1", "a:4,b:4", {}, 0, {"a": "x", "b": "y"})
    ...     for i in range(5):
    ...         seats = ("a", "b") * 4
    ...         db.add_game(GameRecord("r1", i, i, seats, (1, 5, 2, 6, 3, 7, 4, 8), 9, 1.0, ()))
    ...     rated = ratings(db, load_runs(db))
    >>> list(rated), rated["a"]["mu"] > 25 > rated["b"]["mu"]
    (['a', 'b'], True)
    """
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    prints: dict[str, set[str]] = {}
    for r in runs:
        for label, print_ in r.fingerprints.items():
            if label != "bgsim":
                prints.setdefault(label, set()).add(print_)

    def name_of(label: str, run: RunInfo) -> str:
        if len(prints.get(label, ())) > 1:
            return f"{label} (code {run.fingerprints.get(label, '?')[:6]})"
        return label

    by_run = {r.run: r for r in runs}
    state: dict[str, tuple[float, float]] = {}
    seats_played: dict[str, int] = {}
    in_runs: dict[str, set[str]] = {}
    for g in db.games(list(by_run)):
        run = by_run[g.run]
        names = [name_of(label, run) for label in g.seats]
        teams = []
        for name in names:
            mu, sigma = state.get(name, (model.mu, model.sigma))
            teams.append([model.rating(mu=mu, sigma=sigma)])
        rated = model.rate(teams, ranks=[float(p) for p in g.placements])
        updates: dict[str, list[tuple[float, float]]] = {}
        for name, team in zip(names, rated, strict=True):
            updates.setdefault(name, []).append((team[0].mu, team[0].sigma))
            seats_played[name] = seats_played.get(name, 0) + 1
            in_runs.setdefault(name, set()).add(g.run)
        for name, got in updates.items():
            state[name] = (sum(m for m, _ in got) / len(got), sum(s for _, s in got) / len(got))
    out = {
        name: {
            "mu": mu,
            "sigma": sigma,
            "ordinal": mu - 3 * sigma,
            "seats": seats_played[name],
            "runs": len(in_runs[name]),
        }
        for name, (mu, sigma) in state.items()
    }
    return dict(sorted(out.items(), key=lambda kv: (-kv[1]["ordinal"], kv[0])))
