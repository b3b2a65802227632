"""`--backend ray` on a local two-CPU Ray instance (the `ray` extra)."""

import pytest

from agents.arena import Tournament, run_tournament
from agents.results_db import ResultsDB
from bgsim import load_ruleset

ray = pytest.importorskip("ray", reason="needs the ray extra")


def test_tournament_on_local_ray(tmp_path):
    tour = Tournament("greedy:1,random:7", 4, load_ruleset(), seed=2)
    with ResultsDB(tmp_path / "r.db") as db:
        summary = run_tournament(tour, db, workers=2, backend="ray", progress=False)
        assert db.finished(tour.run) == {0, 1, 2, 3}
    assert summary["greedy"]["games"] == 4 and summary["random"]["games"] == 28
    assert not ray.is_initialized()  # the arena shut down the instance it started
    # The same games through the local backend give the same placements.
    with ResultsDB(tmp_path / "local.db") as db:
        local = run_tournament(tour, db, workers=1, progress=False)
    assert local == summary
