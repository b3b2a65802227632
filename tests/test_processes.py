"""Long work stops on Ctrl-C with what is done kept, and a tournament's
workers end when their parent is killed outright. Each test runs ``bgsim``
in a child process and waits, with a generous bound, for what must happen."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from agents.results_db import ResultsDB

ROOT = Path(__file__).resolve().parent.parent
BOARDS = ROOT / "data" / "boards" / "bench" / "beasts_vs_demons.json"
BOUND = 60.0  # seconds: anything that must happen happens well within this


def _bgsim(*args: object) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "bgsim.cli", *map(str, args)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _until(check, what: str) -> None:
    deadline = time.monotonic() + BOUND
    while not check():
        assert time.monotonic() < deadline, f"not within {BOUND:.0f} s: {what}"
        time.sleep(0.1)


def _children(pid: int) -> list[int]:
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        found += [int(c) for c in (task / "children").read_text().split()]
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc/self/maps").exists(), reason="reads /proc")
def test_a_long_combat_simulation_stops_on_ctrl_c():
    proc = _bgsim("combat", BOARDS, "--runs", 10_000_000)  # a minute or more
    maps = Path(f"/proc/{proc.pid}/maps")
    _until(lambda: "_engine" in maps.read_text(), "the engine loaded, so fights have begun")
    time.sleep(1)
    assert proc.poll() is None, proc.communicate()
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=BOUND)
    assert proc.returncode == 130, err
    assert err.strip() == "bgsim: interrupted" and "Traceback" not in err


@pytest.mark.skipif(
    not any(Path("/proc/self/task").glob("*/children")), reason="reads /proc/PID/task/*/children"
)
def test_killing_a_tournament_ends_its_workers_and_keeps_its_games(tmp_path):
    db = tmp_path / "results.db"
    args = ("tournament", "--lineup", "heuristic:8", "--games", 40, "--workers", 2)
    proc = _bgsim(*args, "--db", db, "--json")
    _until(lambda: db.exists() and _stored(db) >= 1, "a first game stored")
    workers = _children(proc.pid)
    assert len(workers) >= 2 and all(_alive(w) for w in workers)
    proc.kill()  # SIGKILL: the parent cannot clean anything up
    proc.communicate()
    _until(lambda: not any(_alive(w) for w in workers), "the workers ending with their parent")
    kept = _stored(db)
    assert 1 <= kept < 40
    # The same command resumes from what was stored, and Ctrl-C keeps what is done.
    proc = _bgsim(*args, "--db", db)
    _until(lambda: _stored(db) > kept, "another game stored")
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=BOUND)
    assert proc.returncode == 130, err
    assert f"resuming: {kept} of 40 games already in" in out
    assert "games are stored in" in err and "run the same command again" in err
    assert "Traceback" not in err


def _stored(db: Path) -> int:
    try:
        with ResultsDB(db, readonly=True) as results:
            return len(results.games())
    except Exception:  # not created yet, or being created
        return 0


def test_the_parent_watch_ends_a_worker_whose_parent_is_gone():
    """The worker initializer itself: a forked child with the watch running
    exits once its parent has died."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the middle process: forks the worker, reports it, dies
        os.close(read)
        middle = os.getpid()  # as the pool passes its own pid to each worker
        worker = os.fork()
        if worker == 0:
            from agents.arena import _exit_with_parent

            _exit_with_parent(middle)
            time.sleep(BOUND * 2)  # blocked, as a worker waiting for tasks
            os._exit(0)
        os.write(write, str(worker).encode())
        os._exit(0)
    os.close(write)
    worker = int(os.read(read, 32).decode())
    os.close(read)
    os.waitpid(pid, 0)
    _until(lambda: not _alive(worker), "the orphaned worker exiting")


@pytest.mark.skipif(
    not any(Path("/proc/self/task").glob("*/children")), reason="reads /proc/PID/task/*/children"
)
def test_ctrl_c_to_the_parent_alone_stops_long_games_at_once(tmp_path):
    """SIGINT sent to the main process only (not the whole terminal group)
    while the workers are in games that take many seconds: the workers are
    stopped, not waited for, and leave no scratch replay behind."""
    db, replays = tmp_path / "results.db", tmp_path / "replays"
    args = ("tournament", "--lineup", "mcts:8", "--budget", "3600s", "--games", 4)
    proc = _bgsim(*args, "--workers", 2, "--db", db, "--replays", replays, "--json")
    _until(lambda: len(_children(proc.pid)) >= 2, "two workers started")
    workers = _children(proc.pid)
    time.sleep(2)  # well inside their first searches (an hour a turn)
    proc.send_signal(signal.SIGINT)
    start = time.monotonic()
    _, err = proc.communicate(timeout=BOUND)
    assert time.monotonic() - start < 15, "waited for the games in flight"
    assert proc.returncode == 130 and "Traceback" not in err, err
    assert "interrupted: no game of this run was stored" in err
    _until(lambda: not any(_alive(w) for w in workers), "the workers ending")
    # Before its first game: the database and replay folder it made are gone.
    assert not db.exists() and not replays.exists()
