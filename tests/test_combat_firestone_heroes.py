"""bgsim's heroes and Secrets against Firestone's simulator of May 2021.

``combat_c/tools/firestone_oracle.py --heroes`` made the boards (every hero
power that acts in combat, the Fish of N'Zoth, the Lich King's Reborn,
Ragnaros and every Secret, each at least five times) and ran the simulator on
each of them twice, with the heroes and with the hero fields taken away; its
counts are in ``tests/data/firestone_heroes.json``, so no node is needed here.
A board whose win or loss rate differs from the reference's by more than 3
points must carry a verdict in ``tests/data/firestone_heroes_verdicts.json``:
which engine follows the game there, of which class the difference is, and
the rule's source. bgsim's runs are seeded, so the test is deterministic.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from combat_c import parse_board, simulate
from combat_c.board import COMBAT_POWERS, HEROES, SECRETS

DATA = Path(__file__).resolve().parent / "data"
RUNS = 6000
SEED = 20210525
GAP = 0.03  # win or loss rate, either engine's
VERDICTS = ("bgsim", "reference", "unsettled")
# Heroes whose combat part is not a hero power's code in the engine: the
# Fish is a minion, Reborn Rites a keyword on the board, Ragnaros's count a
# figure of the result.
OTHER_HEROES = {
    "TB_BaconShop_HERO_93": "N'Zoth",
    "TB_BaconShop_HERO_22": "The Lich King",
    "TB_BaconShop_HERO_11": "Ragnaros the Firelord",
}


@pytest.fixture(scope="module")
def corpus() -> list[dict]:
    return json.loads((DATA / "firestone_heroes.json").read_text(encoding="utf-8"))["fights"]


@pytest.fixture(scope="module")
def verdicts() -> dict:
    return json.loads((DATA / "firestone_heroes_verdicts.json").read_text(encoding="utf-8"))


def gaps(fight: dict) -> tuple[float, float]:
    """bgsim's win and loss rates less the reference's, with the heroes."""
    ref = fight["reference"]
    n_ref = ref["won"] + ref["tied"] + ref["lost"]
    odds = simulate(parse_board(fight["a"]), parse_board(fight["b"]), RUNS, SEED)
    return odds.win - ref["won"] / n_ref, odds.loss - ref["lost"] / n_ref


@pytest.fixture(scope="module")
def disagree(corpus) -> dict[str, tuple[float, float]]:
    out = {}
    for fight in corpus:
        win, loss = gaps(fight)
        if max(abs(win), abs(loss)) > GAP:
            out[fight["name"]] = (win, loss)
    return out


def test_corpus_covers_every_combat_hero_and_secret_five_times(corpus):
    powers = {HEROES[h].power: h for h in HEROES}
    wanted = {powers[p] for p in COMBAT_POWERS} | set(OTHER_HEROES) | set(SECRETS)
    seen = dict.fromkeys(wanted, 0)
    golden = 0
    for fight in corpus:
        assert "reference" in fight and "reference_plain" in fight, fight["name"]
        for side in ("a", "b"):
            board = parse_board(fight[side])
            if board.hero in seen:
                seen[board.hero] += 1
            for secret in board.secrets:
                seen[secret] += 1
            golden += sum(m.golden for m in board.minions)
    assert len(seen) == 9 + 10
    assert {k: n for k, n in seen.items() if n < 5} == {}
    assert golden >= len(corpus) // 2  # golden minions where they matter


def test_every_disagreement_carries_a_verdict(disagree, verdicts):
    boards = verdicts["boards"]
    classes = verdicts["classes"]
    open_verdicts = {n for n, v in boards.items() if v["verdict"] != "fixed"}
    fixed = {n for n, v in boards.items() if v["verdict"] == "fixed"}
    assert sorted(set(disagree) - open_verdicts) == []  # a new disagreement needs a verdict
    assert sorted(open_verdicts - set(disagree)) == []  # a verdict on a board that now agrees
    assert sorted(fixed & set(disagree)) == []  # bgsim was fixed there: it must agree
    for name, v in boards.items():
        assert v["verdict"] in (*VERDICTS, "fixed"), name
        assert v["classes"] and set(v["classes"]) <= set(classes), name
    for name, c in classes.items():
        assert c["verdict"] in (*VERDICTS, "fixed") and c["rule"] and c["source"], name


def test_verdict_gaps_are_the_measured_ones(disagree, verdicts):
    for name, (win, loss) in disagree.items():
        recorded = verdicts["boards"][name]["gap"]
        assert recorded == [round(100 * win, 1), round(100 * loss, 1)], name
