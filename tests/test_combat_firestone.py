"""bgsim against Firestone's simulator of May 2021 on a committed corpus.

``combat_c/tools/firestone_oracle.py`` made the boards (every pool minion at
least three times, golden versions included) and ran the simulator on them;
its counts are in ``tests/data/firestone_corpus.json``, so no node is needed
here. A board whose win, tie or loss rate differs by more than Z standard
errors (the reference's sampling error plus bgsim's) must carry a verdict in
``tests/data/firestone_verdicts.json``: which engine follows the game there,
and the rule's source. bgsim's runs are seeded, so the test is deterministic.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from combat_c import CARDS, parse_board, simulate

DATA = Path(__file__).resolve().parent / "data"
RUNS = 6000
SEED = 20210525
Z = 4.0
VERDICTS = ("bgsim", "reference", "unsettled")


@pytest.fixture(scope="module")
def corpus() -> list[dict]:
    return json.loads((DATA / "firestone_corpus.json").read_text(encoding="utf-8"))["fights"]


@pytest.fixture(scope="module")
def verdicts() -> dict[str, dict]:
    return json.loads((DATA / "firestone_verdicts.json").read_text(encoding="utf-8"))["boards"]


def outside(fight: dict) -> list[str]:
    """Which of won/tied/lost disagree beyond Z standard errors."""
    ref = fight["reference"]
    n_ref = ref["won"] + ref["tied"] + ref["lost"]
    odds = simulate(parse_board(fight["a"]), parse_board(fight["b"]), RUNS, SEED)
    out = []
    for key, mine in (("won", odds.win), ("tied", odds.tie), ("lost", odds.loss)):
        theirs = ref[key] / n_ref
        p = (mine * RUNS + ref[key]) / (RUNS + n_ref)
        se = math.sqrt(max(p * (1 - p), 1 / (RUNS + n_ref)) * (1 / RUNS + 1 / n_ref))
        if abs(mine - theirs) > Z * se:
            out.append(key)
    return out


def test_corpus_covers_every_pool_minion_three_times_golden_included(corpus):
    seen: dict[str, list[int]] = {c.id: [0, 0] for c in CARDS if c.in_pool}
    assert len(seen) == 127
    for fight in corpus:
        assert "reference" in fight, fight["name"]
        for side in ("a", "b"):
            for m in parse_board(fight[side]).minions:
                if m.card in seen:
                    seen[m.card][int(m.golden)] += 1
    thin = [cid for cid, (normal, golden) in seen.items() if normal + golden < 3]
    no_golden = [cid for cid, (_, golden) in seen.items() if golden == 0 and cid != "EX1_509"]
    assert not thin and not no_golden


def test_every_disagreement_carries_a_verdict(corpus, verdicts):
    off = {f["name"]: outside(f) for f in corpus}
    disagree = {name for name, keys in off.items() if keys}
    open_verdicts = {n for n, v in verdicts.items() if v["verdict"] != "fixed"}
    fixed = {n for n, v in verdicts.items() if v["verdict"] == "fixed"}
    assert sorted(disagree - open_verdicts) == []  # a new disagreement needs a verdict
    assert sorted(open_verdicts - disagree) == []  # a verdict on a board that now agrees
    assert sorted(fixed & disagree) == []  # bgsim was fixed there: it must agree
    for name, v in verdicts.items():
        assert v["verdict"] in (*VERDICTS, "fixed"), name
        assert v["rule"] and v["source"], name
    # Most boards agree (DESIGN.md has the tally).
    assert len(disagree) <= len(corpus) * 2 // 5
