"""Replays of lobbies of an odd player count (the ruleset allows 2..8).

With an odd number of living players and nobody out yet there is no ghost, so
one player sits the round out (``bgsim.pairing``): the replay has no fight for
them, and its reader, ``bgsim replay verify`` and the viewer must take that.
Once a player is out, the ghost fights the odd player, and a replay missing a
fight is still refused in one line.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from cli_helpers import refused, run

from bgsim.cli import main as bgsim_main
from bgsim.replay import ReplayError, read_replay
from viz.app import main as watch
from viz.frames import build_frames

RULESET = Path(__file__).resolve().parent.parent / "data" / "ruleset.toml"
# (players, heroes): a seed whose game has a ghost fight in an odd round
# (with 5 and 7 players) and no second ChooseHero in its draft.
SEEDS = {
    (3, "on"): 1,
    (3, "off"): 1,
    (5, "on"): 1,
    (5, "off"): 2,
    (7, "on"): 1,
    (7, "off"): 1,
}


pytestmark = pytest.mark.usefixtures("headless")  # conftest: no window, no sound


def ruleset(folder: Path, players: int) -> Path:
    """The shipped ruleset with ``players`` players."""
    text, count = re.subn(
        r"^players = 8\b", f"players = {players}", RULESET.read_text(), flags=re.M
    )
    assert count == 1
    path = folder / f"players{players}.toml"
    path.write_text(text)
    return path


@pytest.fixture(scope="module")
def replays(tmp_path_factory) -> dict[tuple[int, str], Path]:
    """One replay per (players, heroes), written by ``bgsim play --replay``."""
    folder = tmp_path_factory.mktemp("replays")
    out = {}
    for (players, heroes), seed in SEEDS.items():
        path = folder / f"p{players}{heroes}.jsonl"
        args = [
            "play",
            "--lineup",
            f"random:{players}",
            "--ruleset",
            ruleset(folder, players),
            "--replay",
            path,
            "--seed",
            seed,
            "--heroes",
            heroes,
        ]
        assert bgsim_main([str(a) for a in args]) == 0
        out[players, heroes] = path
    return out


def records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def rounds(recs: list[dict]) -> list[tuple[int, set[int], list[int]]]:
    """Each round: (turn, the players alive in it, the lines of its fights)."""
    alive = set(range(recs[0]["players"]))
    out, fights = [], []
    for k, rec in enumerate(recs):
        if rec["type"] == "combat":
            fights.append(k)
        elif rec["type"] == "standings":
            out.append((rec["turn"], set(alive), fights))
            alive = {s["player"] for s in rec["players"] if s["alive"]}
            fights = []
    return out


def byes(recs: list[dict]) -> list[tuple[int, int]]:
    """(turn, player) of every living player without a fight in a round."""
    out = []
    for turn, alive, fights in rounds(recs):
        fought = {p for k in fights for p in recs[k]["players"]}
        out += [(turn, p) for p in sorted(alive - fought)]
    return out


def without(path: Path, line: int, name: str) -> Path:
    """A copy of the replay at ``path`` without record ``line`` (0-based)."""
    lines = path.read_text().splitlines(keepends=True)
    out = path.with_name(name)
    out.write_text("".join(lines[:line] + lines[line + 1 :]))
    return out


@pytest.mark.parametrize("players,heroes", list(SEEDS))
def test_odd_lobby_replay_verifies(replays, capsys, players, heroes):
    path = replays[players, heroes]
    recs = records(path)
    assert recs[0]["players"] == players and recs[0]["heroes"] is (heroes == "on")
    # the case at hand: one player sits out each round while nobody is out
    sat_out = byes(recs)
    assert sat_out and sat_out[0][0] == 1
    first_out = min(t for t, alive, _ in rounds(recs) if len(alive) < players)
    assert all(turn < first_out for turn, _ in sat_out)
    assert len({turn for turn, _ in sat_out}) == len(sat_out)  # one a round
    if players > 3:  # later odd rounds: the ghost fights the odd player
        assert any(r["type"] == "combat" and r["ghost"] for r in recs)
    replay = read_replay(path)
    assert len(replay.records) == len(recs) - 1
    code, out, err = run(capsys, "replay", "verify", path)
    assert (code, err) == (0, ""), err
    assert "verified" in out


@pytest.mark.parametrize("players,heroes", [(3, "on"), (5, "off"), (7, "on")])
def test_viewer_loads_odd_lobby_replay(replays, tmp_path, capsys, players, heroes):
    path = replays[players, heroes]
    frames = build_frames(read_replay(path))
    assert frames[-1].kind == "end"
    turn, bye = byes(records(path))[0]
    # the player who sat out is shown in that turn, and has no fight in it
    png = tmp_path / "bye.png"
    assert watch(str(path), str(png), player=bye + 1, turn=turn) == 0
    assert png.stat().st_size > 0
    assert frames.first_fight(bye, turn) is None
    assert watch(str(path), str(png), player=bye + 1, turn=turn, fight=True) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"bgsim watch: error: player {bye + 1} has no fight in turn {turn}"]


@pytest.mark.parametrize("players,heroes", [(3, "off"), (5, "on"), (7, "off")])
def test_a_missing_fight_is_still_refused(replays, capsys, players, heroes):
    path = replays[players, heroes]
    recs = records(path)
    turn, alive, fights = rounds(recs)[0]
    assert turn == 1 and len(alive) == players
    # a round with a bye loses one of its fights: two more players without one
    bad = without(path, fights[0], f"nofight{players}{heroes}.jsonl")
    message = refused(capsys, ("replay", "verify", bad), str(bad), "no fight in turn 1")
    assert message.startswith(f"bgsim: error: {bad}, line {fights[-1] + 1}: player ")
    with pytest.raises(ReplayError, match="no fight in turn 1") as caught:
        read_replay(bad)
    assert "\n" not in str(caught.value)
    assert watch(str(bad), None) == 1
    assert "no fight in turn 1" in capsys.readouterr().err


@pytest.mark.parametrize("players,heroes", [(5, "off"), (7, "on")])
def test_a_missing_ghost_fight_is_refused(replays, capsys, players, heroes):
    """Once somebody is out, the odd player fights the ghost: no bye."""
    path = replays[players, heroes]
    recs = records(path)
    k = next(k for k, r in enumerate(recs) if r["type"] == "combat" and r["ghost"])
    odd = recs[k]["players"][0]
    turn = recs[k]["turn"]
    bad = without(path, k, f"noghost{players}{heroes}.jsonl")
    message = refused(
        capsys, ("replay", "verify", bad), str(bad), f"player {odd + 1} has no fight in turn {turn}"
    )
    assert len(message.splitlines()) == 1


def test_an_even_lobby_has_no_bye(tmp_path, capsys):
    """With four players everyone fights every round: a fight left out is refused."""
    path = tmp_path / "p4.jsonl"
    toml = ruleset(tmp_path, 4)
    args = ("play", "--lineup", "random:4", "--ruleset", toml, "--replay", path, "--heroes", "off")
    assert run(capsys, *args)[0] == 0
    recs = records(path)
    assert not byes(recs)
    k = next(k for k, r in enumerate(recs) if r["type"] == "combat")
    p, q = recs[k]["players"]
    bad = without(path, k, "p4bad.jsonl")
    refused(capsys, ("replay", "verify", bad), f"player {min(p, q) + 1} has no fight in turn 1")


def test_sir_finley_chooses_twice_in_the_draft_and_nobody_else_may(tmp_path, capsys):
    """Picking Sir Finley offers a Discover of hero powers, chosen in the
    draft too: his player's second turn-0 choice is legal, once."""
    path = tmp_path / "finley.jsonl"
    assert bgsim_main(["play", "--lineup", "random:8", "--seed", "4", "--replay", str(path)]) == 0
    recs = records(path)
    choices = [k for k, r in enumerate(recs) if r["type"] == "action" and r["turn"] == 0]
    twice = [k for k in choices if recs[k]["state"]["hero"]["power"] == "TB_BaconShop_HP_057"]
    assert twice, "seed 4 no longer drafts Sir Finley: pick another seed"
    code, out, _ = run(capsys, "replay", "verify", path)
    assert code == 0 and "verified" in out
    lines = path.read_text().splitlines(keepends=True)
    finley = twice[0]
    other = next(k for k in choices if recs[k]["player"] != recs[finley]["player"])
    for k in (other, finley + 1):  # a second choice for someone else; a third for Finley
        bad = tmp_path / f"twice{k}.jsonl"
        bad.write_text("".join([*lines[: k + 1], lines[k], *lines[k + 1 :]]))
        refused(capsys, ("replay", "verify", bad), "acts in the draft without a draft offer")
