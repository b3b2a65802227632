"""Tournaments: many lobbies with rotated seats and shared seeds, stored in SQLite.

Game ``i`` of a tournament with base seed ``S`` always uses the same lobby seed
and the same seat rotation, whatever the lineup, so two configurations run
with the same ``--seed`` differ only in their agents.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import signal
import socket
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from agents.results_db import GameRecord, ResultsDB
from agents.stats import clustered_mean, clustered_rate
from bgsim import Budget, HeroPower, IllegalActionError, Lobby, Ruleset
from bgsim.actions import as_action
from bgsim.agent import AgentError
from bgsim.limits import MAX_GAMES, MAX_SEED, MAX_WORKERS, check_int
from bgsim.outputs import output_dir, output_file
from bgsim.registry import (
    AgentSpec,
    LineupError,
    check_lineup,
    fingerprint,
    game_fingerprint,
    make_agent,
    parse_lineup,
    show_true_boards,
)
from bgsim.seeds import derive_seed
from combat_c.guarded import shown


@dataclass(frozen=True)
class GameTask:
    run: str
    game: int
    seed: int
    seats: tuple[AgentSpec, ...]
    budget: Budget | None
    replay_dir: str | None
    rules: Ruleset
    heroes: bool = False
    replay_name: str | None = None  # in replay_dir; default "{run}-{game:05d}.jsonl"


def seats_for_game(lineup: list[AgentSpec], game: int) -> tuple[AgentSpec, ...]:
    """The lineup rotated by the game index, so every agent sits in every seat."""
    k = game % len(lineup)
    return tuple(lineup[k:] + lineup[:k])


def run_key(
    lineup: list[AgentSpec],
    budget: Budget | None,
    seed: int,
    ruleset_id: str,
    fingerprints: dict[str, str],
) -> str:
    """The key of a run: its lineup, budget, seed, ruleset and the code
    fingerprints of its agents and of the game, so that games played by other
    code are never pooled with these."""
    text = json.dumps(
        [[s.label for s in lineup], str(budget), seed, ruleset_id, sorted(fingerprints.items())]
    )
    return hashlib.sha1(text.encode()).hexdigest()[:16]


def replay_path(task: GameTask) -> Path | None:
    """Where ``task``'s game writes its replay (None: it writes none).

    >>> from bgsim import load_ruleset
    >>> task = GameTask("ab12", 3, 1, (), None, "out", load_ruleset())
    >>> replay_path(task).as_posix()
    'out/ab12-00003.jsonl'
    """
    if task.replay_dir is None:
        return None
    return Path(task.replay_dir) / (task.replay_name or f"{task.run}-{task.game:05d}.jsonl")


def play_game(task: GameTask) -> GameRecord:
    """Play one full lobby and return its record (runs in a worker process)."""
    start = time.perf_counter()
    lobby = Lobby(task.seed, task.rules, heroes=task.heroes)
    agents = [make_agent(spec, budget=task.budget) for spec in task.seats]
    for seat, agent in enumerate(agents):
        try:
            agent.reset(seat, derive_seed(task.seed, "agent", seat))
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # SystemExit too: the agent's code, not the user
            raise AgentError.failed(agent.name, seat + 1, lobby.turn, exc) from exc
    # The lineup entries of seats that may be shown the true boards (the
    # measuring cheat), None for the others.
    cheat_specs = [
        spec if getattr(agent, "cheat", False) is True else None
        for spec, agent in zip(task.seats, agents, strict=True)
    ]
    rounds: list[tuple[int, int, int, int, int]] = []
    uses = [0] * len(agents)  # hero power uses per seat
    turn = lobby.turn
    while not lobby.done:
        # Each living player recruits in turn; the last EndTurn runs the fights
        # and starts a new turn.
        for player in lobby.to_act():
            agent = agents[player]
            while not lobby.done and lobby.turn == turn and player in lobby.to_act():
                # The agent's code fails or chooses badly as an AgentError
                # naming it (the CLI prints one line); bgsim's own errors pass.
                spec = cheat_specs[player]
                if spec is not None:  # only the measuring cheat reads the true boards
                    show_true_boards(spec, agent, lobby, player)
                try:
                    action = agent.act(lobby.observe(player), lobby.legal_actions(player))
                except KeyboardInterrupt:
                    raise
                except BaseException as exc:  # SystemExit too: the agent's code, not the user
                    raise AgentError.failed(agent.name, player + 1, lobby.turn, exc) from exc
                try:
                    lobby.apply(player, action)
                except IllegalActionError as exc:
                    what = (
                        f"returned None on turn {lobby.turn}, not one of its legal actions"
                        if action is None
                        else f"chose an action that is not legal on turn {lobby.turn}: {exc}"
                    )
                    raise AgentError(
                        f"agent {shown(agent.name)} (player {player + 1}) {what}"
                    ) from None
                if task.heroes and type(as_action(action)) is HeroPower:
                    uses[player] += 1
        if lobby.turn != turn or lobby.done:
            if turn > 0:  # turn 0 is the heroes' draft: no round was fought
                rounds.extend(_standings(lobby, turn))
            turn = lobby.turn
    replay = None
    path = replay_path(task)
    if path is not None:
        from bgsim.replay import write_replay

        write_replay(path, lobby, [a.name for a in agents])
        replay = str(path)
    placements = tuple(lobby.placements[p] for p in range(len(agents)))
    heroes: tuple[str, ...] = ()
    if task.heroes:
        heroes = tuple(i.hero or "" for i in lobby.public_players())
    return GameRecord(
        run=task.run,
        game=task.game,
        seed=task.seed,
        seats=tuple(a.name for a in agents),
        placements=placements,
        turns=lobby.turn,
        seconds=time.perf_counter() - start,
        rounds=tuple(rounds),
        replay=replay,
        heroes=heroes,
        power_uses=tuple(uses) if task.heroes else (),
    )


def _standings(lobby: Any, turn: int) -> list[tuple[int, int, int, int, int]]:
    return [(turn, p.player, p.health, p.tier, int(p.alive)) for p in lobby.public_players()]


def summarize_heroes(records: Iterable[GameRecord]) -> dict[str, dict[str, float]]:
    """Per hero played: games, mean placement with its 95% interval (clustered
    by lobby, see :func:`summarize`), the top-4 rate and hero power uses per
    game."""
    places: dict[str, dict[tuple[str, int], list[int]]] = {}
    uses: dict[str, int] = {}
    last = 1
    for rec in records:
        last = max(last, len(rec.placements))
        for hero, place, used in zip(rec.heroes, rec.placements, rec.power_uses, strict=False):
            if hero:
                places.setdefault(hero, {}).setdefault((rec.run, rec.game), []).append(place)
                uses[hero] = uses.get(hero, 0) + used
    out = {}
    for hero, lobbies in sorted(places.items()):
        got = [p for seats in lobbies.values() for p in seats]
        n = len(got)
        mean, low, high = _within(clustered_mean(list(lobbies.values())), last)
        out[hero] = {
            "games": n,
            "lobbies": len(lobbies),
            "mean_placement": mean,
            "ci_low": low,
            "ci_high": high,
            "top4": sum(p <= 4 for p in got) / n,
            "power_uses": uses[hero] / n,
        }
    return out


def summarize(records: Iterable[GameRecord]) -> dict[str, dict[str, float]]:
    """Per agent label: seats played (``games``), lobbies, mean placement with
    its 95% interval, and the top-4 and win rates with 95% intervals.

    The seats an agent holds in one lobby share that lobby, so the intervals
    take the lobby as the unit: the mean placement's standard error is
    clustered by lobby (:func:`agents.stats.clustered_mean`; the interval is
    cut to the placements that exist) and the rates' Wilson intervals use the
    effective number of trials that clustering leaves
    (:func:`agents.stats.clustered_rate`). Records of several runs are
    summed per label; callers that must not pool runs pass one run's records.

    >>> seats = ("a",) * 4 + ("b",) * 4
    >>> games = [GameRecord("r", i, i, seats, (1, 2, 3, 4, 5, 6, 7, 8), 9, 1.0, ()) for i in (0, 1)]
    >>> s = summarize(games)
    >>> s["a"]["games"], s["a"]["lobbies"], s["a"]["mean_placement"], s["a"]["top4"]
    (8, 2, 2.5, 1.0)
    """
    by_agent: dict[str, dict[tuple[str, int], list[int]]] = {}
    last = 1
    for rec in records:
        last = max(last, len(rec.placements))
        for label, place in zip(rec.seats, rec.placements, strict=True):
            by_agent.setdefault(label, {}).setdefault((rec.run, rec.game), []).append(place)
    out = {}
    for label, lobbies in sorted(by_agent.items()):
        clusters = list(lobbies.values())
        n = sum(len(c) for c in clusters)
        mean, low, high = _within(clustered_mean(clusters), last)
        top4, top4_low, top4_high = clustered_rate([[p <= 4 for p in c] for c in clusters])
        win, win_low, win_high = clustered_rate([[p == 1 for p in c] for c in clusters])
        out[label] = {
            "games": n,
            "lobbies": len(clusters),
            "mean_placement": mean,
            "ci_low": low,
            "ci_high": high,
            "top4": top4,
            "top4_low": top4_low,
            "top4_high": top4_high,
            "win": win,
            "win_low": win_low,
            "win_high": win_high,
        }
    return out


def _within(interval: tuple[float, float, float], last: int) -> tuple[float, float, float]:
    """A mean placement's interval cut to the placements that exist, 1..``last``
    (a normal interval over few lobbies can reach past them)."""
    mean, low, high = interval
    return (mean, max(low, 1.0), min(high, float(last)))


@dataclass
class Tournament:
    """A tournament: ``games`` lobbies of ``lineup`` (seats rotated), agents
    resolved with ``agents`` (``--agent NAME=module:Class``) besides the
    bundled and installed ones. Every agent is built once here, so a bad
    option is a :class:`LineupError` before any game starts."""

    lineup: str
    games: int
    rules: Ruleset
    seed: int = 0
    budget: Budget | None = None
    replays: Path | None = None
    agents: dict[str, str] = field(default_factory=dict)
    heroes: bool = False

    def __post_init__(self) -> None:
        try:
            check_int(self.games, 1, MAX_GAMES, "games")
            check_int(self.seed, 0, MAX_SEED, "seed")
            if not isinstance(self.heroes, bool):
                raise ValueError(f"heroes must be True or False, got {shown(self.heroes)}")
            if not isinstance(self.rules, Ruleset):
                raise ValueError(f"rules must be a Ruleset, got {shown(self.rules)}")
            self.rules.check()
            if self.budget is not None and not isinstance(self.budget, Budget):
                raise ValueError(f"budget must be a Budget or None, got {shown(self.budget)}")
        except ValueError as exc:
            raise LineupError(str(exc)) from None
        self.specs = parse_lineup(self.lineup, self.rules.lobby.players, self.agents)
        check_lineup(self.specs, budget=self.budget)
        if self.replays is not None:
            try:
                str(self.replays).encode("utf-8")
            except UnicodeEncodeError:
                raise LineupError(
                    f"replay folder {shown(str(self.replays))}: its name is not valid UTF-8 "
                    "(the results database keeps replay paths as text)"
                ) from None
            output_dir(self.replays, "replay folder", make=False)
        self.fingerprints = {spec.label: fingerprint(spec) for spec in self.specs}
        self.fingerprints["bgsim"] = game_fingerprint()
        # The ruleset by its contents: a file edited under the same id is another run.
        ruleset = f"{self.rules.id}:{self.rules.digest()}" + ("+heroes" if self.heroes else "")
        self.run = run_key(self.specs, self.budget, self.seed, ruleset, self.fingerprints)

    def tasks(self, skip: set[int]) -> list[GameTask]:
        replay_dir = str(self.replays) if self.replays is not None else None
        return [
            GameTask(
                run=self.run,
                game=i,
                seed=derive_seed("lobby", self.seed, i),
                seats=seats_for_game(self.specs, i),
                budget=self.budget,
                replay_dir=replay_dir,
                rules=self.rules,
                heroes=self.heroes,
            )
            for i in range(self.games)
            if i not in skip
        ]

    def options(self) -> dict:
        return {
            "budget": str(self.budget) if self.budget else None,
            "games": self.games,
            "ruleset": self.rules.id,
            "ruleset_digest": self.rules.digest(),
            "heroes": self.heroes,
        }

    def changed_code(self, db: ResultsDB) -> list[tuple[str, int, list[str]]]:
        """Stored runs of this same lineup, seed, budget and ruleset that were
        played by other code: (run, games stored, the labels whose code or
        options differ, "bgsim" for the game itself)."""
        out = []
        mine = self.options()
        for run, lineup, options, seed, prints in db.runs_with_fingerprints():
            if run == self.run or lineup != self.lineup or seed != self.seed:
                continue
            if options.get("budget") != mine["budget"] or options.get("ruleset") != self.rules.id:
                continue
            if options.get("ruleset_digest") != mine["ruleset_digest"]:
                continue  # other rules under the same id: a run of its own, not other code
            if bool(options.get("heroes", False)) != self.heroes:
                continue
            changed = sorted(k for k, v in self.fingerprints.items() if prints.get(k) != v)
            out.append((run, len(db.finished(run)), changed))
        return out


def run_tournament(
    tour: Tournament,
    db: ResultsDB,
    workers: int = 1,
    backend: str = "local",
    address: str | None = None,
    progress: bool = True,
    on_game: Callable[[GameRecord], None] | None = None,
) -> dict[str, dict[str, float]]:
    """Play every game of the tournament not already in ``db``; return the summary
    of all its stored games."""
    from tqdm import tqdm

    if not isinstance(tour, Tournament):
        raise TypeError(f"run_tournament plays a Tournament, not {type(tour).__name__}")
    if not isinstance(db, ResultsDB):
        raise TypeError(f"run_tournament stores into a ResultsDB, not {type(db).__name__}")
    check_int(workers, 1, MAX_WORKERS, "workers")
    if backend not in ("local", "ray"):
        raise ValueError(f"backend must be 'local' or 'ray', got {shown(backend)}")
    db.games([tour.run])  # a resumed run's stored games are read (and checked) before any change
    done = db.finished(tour.run) & set(range(tour.games))
    tasks = tour.tasks(done)
    if tour.replays is not None:
        output_dir(tour.replays, "replay folder")
        for task in tasks:  # each game's replay file, before the first game
            path = replay_path(task)
            assert path is not None
            output_file(path, "replay file", make=False)
    db.add_run(tour.run, tour.lineup, tour.options(), tour.seed, tour.fingerprints)
    bar = tqdm(
        total=tour.games, initial=len(done), unit="game", disable=not progress, smoothing=0.1
    )

    def store(rec: GameRecord) -> None:
        db.add_game(rec)
        bar.update(1)
        if on_game:
            on_game(rec)

    try:
        if backend == "ray":
            _run_ray(tasks, store, workers, address)
        elif workers <= 1 or len(tasks) <= 1:
            for task in tasks:
                store(play_game(task))
        else:
            _run_pool(tasks, store, workers)
    except BaseException:
        # A run that stored no game leaves nothing; the first error is the one to report.
        with contextlib.suppress(Exception):
            db.drop_run_if_empty(tour.run)
        raise
    finally:
        bar.close()
    return summarize(r for r in db.games([tour.run]) if r.game < tour.games)


def _exit_with_parent(parent: int) -> None:
    """A pool worker's initializer: a thread that ends the worker once its
    parent is gone. Killed outright (SIGKILL), the parent cannot shut the pool
    down, and the workers, which hold the task queue's other end themselves,
    would wait on it forever."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_POLL)
        os._exit(1)

    threading.Thread(target=watch, name="bgsim-parent-watch", daemon=True).start()


PARENT_POLL = 0.5  # seconds between a worker's checks that its parent lives
_IN_GAME = False  # in a worker: whether a game is being played


def _start_worker(parent: int) -> None:
    """A pool worker's initializer: the parent watch (above), and the signals.
    Ctrl-C is the parent's to handle (a terminal sends it to every worker
    too), so workers ignore SIGINT; the parent stops them with SIGTERM, on
    which a worker in a game unwinds it (a replay being written is removed)
    and exits, and an idle one exits at once."""
    _exit_with_parent(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _on_stop)


def _on_stop(signum: int, frame: object) -> None:
    if _IN_GAME:
        raise KeyboardInterrupt
    os._exit(1)


def _worker_game(task: GameTask) -> GameRecord:
    """:func:`play_game` in a pool worker: stopped by the parent, it exits
    once the game has unwound instead of taking the next task."""
    global _IN_GAME
    _IN_GAME = True
    try:
        return play_game(task)
    except KeyboardInterrupt:
        os._exit(1)
    finally:
        _IN_GAME = False


def _run_pool(tasks: list[GameTask], store: Callable[[GameRecord], None], workers: int) -> None:
    pool = ProcessPoolExecutor(
        max_workers=workers,
        mp_context=get_context("fork"),
        initializer=_start_worker,
        initargs=(os.getpid(),),
    )
    pending: set[Future] = set()
    queue = list(reversed(tasks))
    try:
        while queue or pending:
            while queue and len(pending) < workers * 2:
                pending.add(pool.submit(_worker_game, queue.pop()))
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for fut in finished:
                try:
                    record = fut.result()
                except BrokenProcessPool:
                    raise AgentError(
                        "a worker process died during a game (killed, or an agent's code "
                        "ended or crashed it)"
                    ) from None
                store(record)
    except BaseException:
        # Ctrl-C, or a game that failed: the games in flight are abandoned
        # (every finished one is stored), so the workers stop now rather than
        # finish them and take the queued ones.
        processes = list(getattr(pool, "_processes", None) or {})
        pool.shutdown(wait=False, cancel_futures=True)
        for pid in processes:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGTERM)
        # Let the pool's manager thread see its workers gone and close its
        # wakeup pipe now: at exit, Python 3.11 wakes that thread through the
        # pipe and, should the thread be closing it at the same moment,
        # prints a traceback (OSError: Bad file descriptor) after ours.
        manager = getattr(pool, "_executor_manager_thread", None)
        if manager is not None:
            manager.join(timeout=PARENT_POLL * 10)
        raise
    pool.shutdown(wait=True)


def check_ray_address(address: str, timeout: float = 5.0) -> None:
    """Refuse a Ray cluster address that is not ``host:port``,
    ``ray://host:port``, ``auto`` or ``local``, or where nothing answers, in
    one line (a LineupError): Ray itself retries such an address for minutes.

    >>> check_ray_address("nonsense:99999")
    Traceback (most recent call last):
    ...
    bgsim.registry.LineupError: Ray address 'nonsense:99999': expected host:port, ...
    """
    if address in ("auto", "local"):
        return
    host, sep, port = address.removeprefix("ray://").rpartition(":")
    if not (sep and host and port.isdigit() and len(port) <= 5 and 1 <= int(port) <= 65535):
        raise LineupError(
            f"Ray address {shown(address)}: expected host:port, ray://host:port, auto or local"
        )
    try:
        conn = socket.create_connection((host.strip("[]"), int(port)), timeout=timeout)
    except OSError as exc:
        raise LineupError(
            f"Ray address {shown(address)}: nothing answers there ({exc.strerror or exc})"
        ) from None
    with conn:
        if not _speaks_grpc(conn):
            raise LineupError(
                f"Ray address {shown(address)}: something answers there, but not Ray "
                "(no gRPC service)"
            )


# What an HTTP/2 client sends first: the connection preface and an empty
# SETTINGS frame (RFC 9113, 3.4). A gRPC server (Ray's GCS and its client
# server are) answers with a SETTINGS frame of its own.
_H2_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes([0, 0, 0, 4, 0, 0, 0, 0, 0])
_H2_SETTINGS = 4


def _speaks_grpc(conn: socket.socket) -> bool:
    """Whether the service on ``conn`` answers an HTTP/2 preface with its
    SETTINGS, as gRPC servers do (within the connection's timeout)."""
    try:
        conn.sendall(_H2_PREFACE)
        head = b""
        while len(head) < 9:
            got = conn.recv(9 - len(head))
            if not got:
                return False
            head += got
    except OSError:
        return False
    return head[3] == _H2_SETTINGS


def _run_ray(
    tasks: list[GameTask], store: Callable[[GameRecord], None], workers: int, address: str | None
) -> None:
    try:
        import ray
    except ImportError:
        raise LineupError("--backend ray needs Ray: pip install 'bgsim[ray]'") from None
    started = False
    if not ray.is_initialized():
        if address:
            check_ray_address(address)
            ray.init(address=address, log_to_driver=False)
        else:
            ray.init(num_cpus=max(workers, 1), include_dashboard=False, log_to_driver=False)
        started = True
    try:
        remote = ray.remote(play_game)
        pending = [remote.remote(t) for t in tasks]
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for ref in ready:
                store(ray.get(ref))
    finally:
        if started:
            ray.shutdown()
