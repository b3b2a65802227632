"""Bad replays for ``bgsim watch`` and ``bgsim replay verify``: the schema and
the order checks name the line of the first problem, ``verify`` plays the
game again and names the first record that differs, and the viewer never
crashes, hangs or opens a window nobody can see."""

from __future__ import annotations

import json
from pathlib import Path

import pygame
import pytest
from cli_helpers import refused, run

from bgsim import Lobby, Ruleset, load_ruleset
from bgsim.replay import ReplayError, read_replay, verify_replay, write_replay

pytestmark = pytest.mark.usefixtures("headless")  # conftest: no window, no sound


def _play(seed: int, rules: Ruleset | None = None, heroes: bool = True) -> Lobby:
    """A whole lobby of random-ish play: each player takes its first legal
    action that is not EndTurn a few times a turn, then ends it."""
    lobby = Lobby(seed, rules, heroes=heroes)
    while not lobby.done:
        player = lobby.to_act()[0]
        legal = lobby.legal_actions(player)
        acted = sum(1 for e in lobby.log if e["type"] == "action" and e["turn"] == lobby.turn)
        choice = legal[(seed + acted) % len(legal)] if acted % 3 != 2 else legal[0]
        lobby.apply(player, choice)
    return lobby


@pytest.fixture(scope="module")
def lines(tmp_path_factory) -> list[str]:
    path = tmp_path_factory.mktemp("replay") / "game.jsonl"
    write_replay(path, _play(5), [f"agent{p}" for p in range(8)])
    return path.read_text(encoding="utf-8").splitlines()


def _write(tmp_path: Path, lines: list[str], name: str = "bad.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _index(lines: list[str], kind: str, nth: int = 0, **fields: object) -> int:
    """The index of the nth line of a record type whose fields match."""
    found = [
        i
        for i, line in enumerate(lines)
        if (rec := json.loads(line))["type"] == kind
        and all(rec.get(k) == v for k, v in fields.items())
    ]
    return found[nth]


def _edit(lines: list[str], i: int, **changes: object) -> list[str]:
    rec = json.loads(lines[i])
    rec.update(changes)
    return [*lines[:i], json.dumps(rec), *lines[i + 1 :]]


def _watch(capsys, path: Path, *names: str) -> str:
    return refused(
        capsys, ("watch", path, "--screenshot", path.with_suffix(".png")), *names, code=1
    )


def test_the_good_replay_reads_verifies_and_shows(lines, tmp_path, capsys):
    path = _write(tmp_path, lines, "good.jsonl")
    code, out, err = run(capsys, "replay", "verify", path)
    assert code == 0 and "verified" in out, err
    code, out, err = run(capsys, "watch", path, "--screenshot", tmp_path / "x.png")
    assert code == 0 and (tmp_path / "x.png").is_file(), err


def test_impossible_values_the_viewer_would_trip_on(lines, tmp_path, capsys):
    combat = _index(lines, "combat")
    cases = {
        "winner": (_edit(lines, combat, winner=5), "combat.winner: expected an integer -1..1"),
        "labels": (_edit(lines, 0, agents=[1, 2, 3, 4, 5, 6, 7, 8]), "header.agents[0]"),
        "placements": (
            _edit(lines, len(lines) - 1, placements=[1, "2", 3, 4, 5, 6, 7, 8]),
            "end.placements[1]",
        ),
        "nesting": (
            [*lines[:3], lines[3][:-1] + ', "x": ' + "[" * 5000 + "]" * 5000 + "}", *lines[4:]],
            "nested deeper than",
        ),
        "long label": (_edit(lines, 0, agents=["x" * 1_000_000] * 8), "header.agents[0]"),
        "gold": (_edit(lines, _index(lines, "recruit"), state={"gold": -5}), "state.gold"),
        "event kind": (
            _edit(lines, combat, events=[{"kind": "boom"}] * 2),
            "combat.events[0].kind: 'boom' is not one of start",
        ),
        "seat": (_edit(lines, _index(lines, "recruit"), player=8), "recruit.player"),
        "schema": (_edit(lines, 0, schema=99), "unknown schema version 99"),
        "players": (_edit(lines, 0, players=10**9), "header.players"),
        "seed": (_edit(lines, 0, seed=-7), "header.seed"),
        "offer": (
            _edit(lines, _index(lines, "draft"), offers=["BGS_004", "BGS_004"]),
            "is offered 'BGS_004', which is no hero",
        ),
    }
    for case, (bad, names) in cases.items():
        path = _write(tmp_path, bad, f"{case}.jsonl")
        line = _watch(capsys, path, names)
        assert f"{case}.jsonl, line " in line, line
        refused(capsys, ("replay", "verify", path), names)


def test_deleted_duplicated_and_reordered_lines(lines, tmp_path, capsys):
    recruit = _index(lines, "recruit", turn=3)
    standings = _index(lines, "standings", turn=2)
    combat = _index(lines, "combat", turn=2)
    end_turn = _index(lines, "action", -1, turn=2, action="EndTurn()")
    cases = {
        "deleted recruit": (
            [*lines[:recruit], *lines[recruit + 1 :]],
            "without starting it",
        ),
        "deleted standings": (
            [*lines[:standings], *lines[standings + 1 :]],
            "before the standings",
        ),
        "deleted fight": ([*lines[:combat], *lines[combat + 1 :]], "has no fight in turn 2"),
        "deleted end turn": ([*lines[:end_turn], *lines[end_turn + 1 :]], "ended the turn"),
        "duplicated standings": (
            [*lines[: standings + 1], lines[standings], *lines[standings + 1 :]],
            "a second standings record",
        ),
        "duplicated fight": (
            [*lines[: combat + 1], lines[combat], *lines[combat + 1 :]],
            "a seat fights once a round",
        ),
        "reordered turns": (
            [*lines[:standings], lines[recruit], *lines[standings:recruit], *lines[recruit + 1 :]],
            "turn 3 starts before the standings of turn 2",
        ),
        "duplicated header": ([lines[0], *lines], "bad.jsonl, line 2: a second header record"),
        "truncated": (lines[:-1], "no end record"),
        "a record after the end": ([*lines, lines[-1]], "a record after the end record"),
    }
    for case, (bad, names) in cases.items():
        path = _write(tmp_path, bad, f"{case.replace(' ', '-')}.jsonl")
        _watch(capsys, path, names.replace("bad.jsonl", path.name))
        refused(capsys, ("replay", "verify", path), names.replace("bad.jsonl", path.name))


def test_a_bad_board_in_a_fight_names_the_file_and_line(lines, tmp_path, capsys):
    combat = _index(lines, "combat", turn=2)
    rec = json.loads(lines[combat])
    rec["boards"][1]["minions"] = [{"card": "NOPE_404"}]
    path = _write(tmp_path, [*lines[:combat], json.dumps(rec), *lines[combat + 1 :]])
    _watch(capsys, path, f"bad.jsonl, line {combat + 1}: combat.boards[1].minions[0].card")


def test_verify_finds_what_the_cheap_checks_cannot(lines, tmp_path, capsys):
    # An action repeated: still in order, but not the game its seed plays.
    buy = next(
        i for i, line in enumerate(lines) if json.loads(line).get("action", "").startswith("Buy(")
    )
    doubled = [*lines[: buy + 1], lines[buy], *lines[buy + 1 :]]
    path = _write(tmp_path, doubled, "doubled.jsonl")
    read_replay(path)  # the cheap checks pass
    line = refused(capsys, ("replay", "verify", path), f"line {buy + 2}", code=1)
    assert "doubled.jsonl" in line
    # A changed number in a tavern view.
    rec = json.loads(lines[buy])
    rec["state"]["health"] += 1
    changed = [*lines[:buy], json.dumps(rec), *lines[buy + 1 :]]
    refused(
        capsys,
        ("replay", "verify", _write(tmp_path, changed, "changed.jsonl")),
        f"line {buy + 1}",
        "action.state.health",
        code=1,
    )
    # Another seed: the first record differs.
    reseeded = _edit(lines, 0, seed=json.loads(lines[0])["seed"] + 1)
    line = refused(capsys, ("replay", "verify", _write(tmp_path, reseeded, "seed.jsonl")), code=1)
    # Named there, not at the first action the other seed's game refuses.
    assert "seed.jsonl, line 1: header." in line or "seed.jsonl, line 2:" in line


def test_verify_plays_a_replay_by_another_ruleset(tmp_path, capsys):
    table = load_ruleset().to_table()
    table["id"] = "cheap-minions"
    table["economy"]["buy_cost"] = 2
    rules = Ruleset.from_table(table)
    path = tmp_path / "cheap.jsonl"
    write_replay(path, _play(3, rules, heroes=False), ["x"] * 8)
    code, _, err = run(capsys, "replay", "verify", path)
    assert code == 0, err
    # A replay from before the header held its ruleset's table.
    old = [json.loads(line) for line in path.read_text().splitlines()]
    del old[0]["rules"]
    stripped = _write(tmp_path, [json.dumps(r) for r in old], "old.jsonl")
    refused(capsys, ("replay", "verify", stripped), "ruleset 'cheap-minions'", code=1)
    assert verify_replay(read_replay(stripped)) is not None


def test_files_that_are_not_replays(tmp_path, capsys):
    files = {
        "latin1.jsonl": ('{"type": "header", "x": "\xe9"}'.encode("latin-1"), "not UTF-8 text"),
        "utf16.jsonl": ('{"type": "header"}'.encode("utf-16"), "not UTF-8 text"),
        "binary.jsonl": (bytes(range(128, 256)) * 8, "not UTF-8 text"),
        "empty.jsonl": (b"", "empty file, no header"),
        "header.jsonl": (b'{"type": "end"}\n', "the first line must be the header"),
        "list.jsonl": (b"[1, 2]\n", "the first line must be the header"),
        "bigint.jsonl": (b'{"type": "header", "seed": ' + b"9" * 5000 + b"}\n", "digits"),
    }
    for name, (data, names) in files.items():
        path = tmp_path / name
        path.write_bytes(data)
        _watch(capsys, path, name, names)
        refused(capsys, ("replay", "verify", path), name, names)
    with pytest.raises(ReplayError, match="cannot read"):
        read_replay(tmp_path)
    refused(capsys, ("watch", tmp_path / "nope.jsonl"), "nope.jsonl", "cannot read", code=1)


def test_a_replay_over_the_size_cap_is_refused_before_it_is_read(tmp_path, capsys, monkeypatch):
    from bgsim import replay

    path = tmp_path / "big.jsonl"
    with open(path, "wb") as f:  # sparse: 300 MB on no disk
        f.truncate(300 << 20)
    read = []
    monkeypatch.setattr(replay, "decode", lambda raw, where: read.append(where))
    with pytest.raises(ReplayError, match="too large"):
        read_replay(path)
    assert read == []
    refused(capsys, ("replay", "verify", path), "big.jsonl", "too large (at most")


def test_a_huge_label_is_fitted_in_a_few_measurements(monkeypatch):
    """Fitting text bisects: a 1 MB label costs a few dozen font
    measurements, not one per character (it hung the viewer)."""
    from viz import theme

    font = theme.get_font(18)
    calls = []

    class Counting:
        def size(self, text: str) -> tuple[int, int]:
            calls.append(len(text))
            return font.size(text)

    monkeypatch.setattr(theme, "get_font", lambda size, bold=False: Counting())
    fitted = theme.fit_text("mcts[" + "x" * 1_000_000 + "]", 18, False, 200)
    assert fitted.endswith("...") and font.size(fitted)[0] <= 200
    assert len(calls) < 40 and max(calls) <= 201


def test_watch_without_a_display_fails_at_once(lines, tmp_path, capsys, monkeypatch):
    path = _write(tmp_path, lines, "good.jsonl")
    for name in ("SDL_VIDEODRIVER", "DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr("sys.platform", "linux")
    refused(capsys, ("watch", path), "no display", "--screenshot", code=1)
    # SDL falling back to a driver that shows nothing is refused too.
    monkeypatch.setenv("DISPLAY", ":98765")
    monkeypatch.setattr(pygame.display, "init", lambda: None)
    monkeypatch.setattr(pygame.display, "get_driver", lambda: "offscreen")
    refused(capsys, ("watch", path), "no display", "offscreen", code=1)
    # A driver the user set that draws nowhere would play unseen until killed.
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setattr(pygame.display, "get_driver", lambda: "dummy")
    refused(capsys, ("watch", path), "SDL_VIDEODRIVER=dummy draws nowhere", "--screenshot", code=1)


def test_an_action_code_that_is_not_the_action_its_record_names(lines, tmp_path, capsys):
    buy = next(
        i for i, line in enumerate(lines) if json.loads(line).get("action", "").startswith("Buy(")
    )
    path = _write(tmp_path, _edit(lines, buy, code=0), "code.jsonl")
    with pytest.raises(ReplayError, match=rf"line {buy + 1}: action code 0 is EndTurn\(\)"):
        read_replay(path)
    refused(capsys, ("replay", "verify", path), f"line {buy + 1}", "but the record says")


def test_a_game_changed_outside_its_rules_is_not_written_as_a_replay(tmp_path):
    from bgsim import Refresh

    lobby = Lobby(4)
    player = lobby.to_act()[0]
    # What an agent could do to the frozen values its observation hands it:
    object.__setattr__(lobby.observe(player).state, "gold", 50)
    for _ in range(20):  # refreshes the rules' 3 gold would never pay for
        lobby.apply(player, Refresh())
    with pytest.raises(ReplayError, match="does not play again from its seed"):
        write_replay(tmp_path / "x.jsonl", lobby, ["random"] * 8)
    assert list(tmp_path.iterdir()) == []
