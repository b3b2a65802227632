"""The pygame replay viewer: frames from replays, headless rendering, keys, errors.

Replays are built here (no lobby needed): real card ids from the card data and
real fights resolved by the engine on the benchmark boards.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pygame
import pytest

from agents.arena import GameTask, play_game
from bgsim import load_ruleset
from bgsim.cards import cards
from bgsim.registry import parse_lineup
from bgsim.replay import Replay, ReplayError, ReplayWriter, read_replay
from combat_c import KEYWORD_BITS, Board, Event, parse_board, resolve
from combat_c.timeline import final_boards
from viz.app import (
    Viewer,
    card_under,
    describe_frame,
    main,
    parse_point,
    render_frame,
    start_frame,
    watch_seconds,
)
from viz.detail import detail_lines
from viz.frames import STATIC_KEYWORDS, CardView, Frames, build_frames
from viz.theme import BACKGROUND, BASE_SIZE, CARD_SIZE, KEYWORD_BADGES, REGIONS, SMALL_CARD
from viz.widgets import row_rects

BENCH = Path(__file__).resolve().parent.parent / "data" / "boards" / "bench"
AGENTS = ["heuristic", "random", "greedy", "mcts", "random", "heuristic", "greedy", "random"]
# Two players per bench file: seat 2k is board "a", seat 2k+1 board "b".
FILES = ("deathrattle_engine", "shields_dragons_vs_pirates", "murlocs_poison", "beasts_vs_demons")
TURNS = (7, 8)


pytestmark = pytest.mark.usefixtures("headless")  # conftest: no window, no sound


def card(card_id: str, golden: bool = False, **changes: object) -> dict:
    """A replay CARD of a real card (``golden`` picks its golden version)."""
    db = cards()
    c = db.golden(card_id) if golden else db[card_id]
    assert c is not None
    out = {
        "card": c.id,
        "name": c.name,
        "attack": c.attack,
        "health": c.health,
        "golden": c.golden,
        "tier": db.normal(c).tier,
        "keywords": sorted(c.keywords),
    }
    out.update(changes)
    return out


def board_cards(board: Board) -> list[dict]:
    """A combat board as the tavern VIEW shows it (displayed stats, current keywords)."""
    out = []
    for m in board.to_spec()["minions"]:
        flags = {k for k in ("taunt", "divine_shield", "poisonous", "windfury") if m[k]}
        base = card(m["card"])
        keywords = sorted(flags | (set(base["keywords"]) - {"taunt", "divine_shield"}))
        out.append(card(m["card"], attack=m["attack"], health=m["health"], keywords=keywords))
    return out


def view(tier: int, health: int, gold: int, shop: list, board: list, **extra) -> dict:
    state = {
        "gold": gold,
        "tier": tier,
        "upgrade_cost": 0 if tier == 6 else 7,
        "health": health,
        "frozen": False,
        "shop": shop,
        "hand": [],
        "board": board,
        "discover": [],
    }
    state.update(extra)
    return state


def make_replay(path: Path) -> Path:
    """A two-round, eight-player game that exercises every record type: recruits,
    buys, freeze, a golden triple with its discover, fights with deathrattles,
    shields and poison, an elimination, a ghost fight, standings and the end."""
    boards: dict[int, Board] = {}
    for k, name in enumerate(FILES):
        doc = json.loads((BENCH / f"{name}.json").read_text())
        boards[2 * k], boards[2 * k + 1] = parse_board(doc["a"]), parse_board(doc["b"])
    # Hero health does not change a fight, so pick it after seeing round one: exactly one
    # player (the first loser) goes out, the others survive, and round two has a ghost.
    health = {p: b.health for p, b in boards.items()}
    victim = None
    for k in range(4):
        fight = resolve(boards[2 * k], boards[2 * k + 1], seed=2 * k)
        if fight.winner >= 0:
            loser = 2 * k + 1 - fight.winner
            if victim is None:
                victim, health[loser] = loser, fight.damage
            else:
                health[loser] = max(health[loser], fight.damage + 1)
    tier1 = [c.id for c in cards().pool_tier(1)]
    out: list[int] = []  # seats in the order they were knocked out
    header = {"seed": 11, "ruleset": "bg-20.0.0-77662", "agents": AGENTS, "players": 8}
    header["tribes"] = ["beast", "demon", "mech", "murloc", "dragon"]
    with ReplayWriter(path, header) as w:
        for rnd, turn in enumerate(TURNS):
            alive = [p for p in range(8) if health[p] > 0]
            for p in alive:
                b = boards[p]
                shop = [card(tier1[(p + 3 * rnd + i) % len(tier1)]) for i in range(4)]
                state = view(b.tier, health[p], 10, shop, board_cards(b))
                w.write({"type": "recruit", "turn": turn, "player": p, "state": state})
                if p == 0:
                    bought = view(b.tier, health[p], 7, shop[1:], state["board"], hand=[shop[0]])
                    w.write(_action(turn, p, "Buy(0)", 4, bought))
                    frozen = dict(bought, frozen=True)
                    w.write(_action(turn, p, "Freeze()", 2, frozen))
                if p == 2:
                    golden = card("BGS_039", golden=True)
                    offer = [card(c.id) for c in cards().pool_tier(min(6, b.tier + 1))[:3]]
                    held = view(b.tier, health[p], 7, shop[:3], state["board"], hand=[golden])
                    w.write(_action(turn, p, "Buy(3)", 7, held))
                    w.write(
                        _action(
                            turn,
                            p,
                            "Play(hand=0, pos=6, target=0)",
                            120,
                            dict(held, hand=[], discover=offer),
                        )
                    )
                    w.write(_action(turn, p, "Choose(1)", 19, dict(held, hand=[offer[1]])))
                w.write(_action(turn, p, "EndTurn()", 0, state))
            pairs = [(alive[i], alive[i + 1]) for i in range(0, len(alive) - 1, 2)]
            ghosts = []
            if len(alive) % 2:
                pairs.append((alive[-1], out[-1]))
                ghosts.append(out[-1])
            for a, b in pairs:
                ghost = b in ghosts
                specs = [boards[a].to_spec(), boards[b].to_spec()]
                specs[0]["health"], specs[1]["health"] = health[a], health[b]
                fight = resolve(specs[0], specs[1], seed=100 * rnd + a)
                w.write(
                    {
                        "type": "combat",
                        "turn": turn,
                        "players": [a, b],
                        "ghost": ghost,
                        "boards": specs,
                        "events": [e.as_dict() for e in fight.events],
                        "winner": fight.winner,
                        "damage": fight.damage,
                    }
                )
                if fight.winner >= 0 and not (ghost and fight.winner == 0):
                    loser = (a, b)[1 - fight.winner]
                    health[loser] -= fight.damage
            dead = sorted((p for p in alive if health[p] <= 0), key=lambda p: health[p])
            assert rnd > 0 or dead == [victim]
            out.extend(dead)
            places = {p: 8 - i for i, p in enumerate(out)}
            standings = [
                {
                    "player": p,
                    "health": health[p],
                    "tier": boards[p].tier,
                    "alive": health[p] > 0,
                    "placement": places.get(p),
                }
                for p in range(8)
            ]
            w.write({"type": "standings", "turn": turn, "players": standings})
        ranked = sorted((p for p in range(8) if p not in out), key=lambda p: -health[p])
        order = ranked + out[::-1]
        placements = [order.index(p) + 1 for p in range(8)]
        w.write({"type": "end", "placements": placements})
    return path


def _action(turn: int, player: int, action: str, code: int, state: dict) -> dict:
    return {
        "type": "action",
        "turn": turn,
        "player": player,
        "action": action,
        "code": code,
        "state": state,
    }


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> tuple[Path, Replay, Frames]:
    path = make_replay(tmp_path_factory.mktemp("replays") / "game.jsonl")
    replay = read_replay(path)
    return path, replay, build_frames(replay)


def first(frames: Frames, pred) -> int:
    return next(f.index for f in frames if pred(f))


def drawn_share(surface: pygame.Surface, rect: pygame.Rect) -> float:
    """Share of the pixels of ``rect`` that are not the background colour."""
    pixels = pygame.surfarray.array3d(surface.subsurface(rect))
    return float(np.any(pixels != np.array(BACKGROUND), axis=2).mean())


# ---------------------------------------------------------------- frames


def test_frames_cover_every_record(game):
    _, replay, frames = game
    assert {f.record for f in frames} == set(range(len(replay.records)))
    assert [f.index for f in frames] == list(range(len(frames)))
    for f in frames:
        rec = replay.records[f.record]
        assert f.kind == rec["type"]
        if f.kind in ("recruit", "action"):
            assert f.tavern is not None and f.player == rec["player"]
            assert f.tavern.gold == rec["state"]["gold"]
    kinds = {f.kind for f in frames}
    assert kinds == {"recruit", "action", "combat", "standings", "end"}
    buy = frames[first(frames, lambda f: f.action == "Buy(0)")]
    bought = replay.records[buy.record]["state"]["hand"][0]["name"]
    # Captions say the action in words (viz.wording), no longer the action's code text.
    assert buy.caption == f"Turn 7 — player 1 (heuristic): buys {bought} (3 gold)"
    assert [c.name for c in buy.tavern.hand] == [bought]


def test_standings_start_full_and_follow_records(game):
    _, replay, frames = game
    assert all(s.alive and s.placement is None for s in frames[0].standings)
    untouched = frames[0].standings[5]  # seat 5 has not acted at frame 0
    assert (untouched.health, untouched.tier, untouched.alive) == (40, 1, True)
    k = first(frames, lambda f: f.kind == "standings")
    rec = replay.records[frames[k].record]
    assert [(s.health, s.alive, s.placement) for s in frames[k].standings] == [
        (s["health"], s["alive"], s["placement"]) for s in rec["players"]
    ]
    assert any(not s.alive for s in frames[k].standings)
    end = frames[-1]
    assert end.kind == "end" and end.placements == tuple(replay.records[-1]["placements"])


def test_health_before_the_fights_until_they_are_shown(tmp_path):
    lineup = tuple(parse_lineup("heuristic:4,random:4"))
    record = play_game(GameTask("t", 0, 21, lineup, None, str(tmp_path), load_ruleset()))
    frames = build_frames(read_replay(record.replay))
    checked = 0
    for f in frames:
        if f.kind == "action" and f.action == "EndTurn()":
            before = frames[f.index - 1].standings[f.player].health
            assert f.tavern.health == before == f.standings[f.player].health
            checked += 1
    assert checked > 50


def test_fight_steps_follow_the_engine_timeline(game):
    _, replay, frames = game
    for r, rec in enumerate(replay.records):
        if rec["type"] != "combat":
            continue
        steps = [f.combat for f in frames if f.record == r]
        events = [Event(**e) for e in rec["events"]]
        assert steps[0].kind == "start" and steps[-1].kind == "result"
        attacks = [s for s in steps if s.kind == "attack"]
        assert len(attacks) == sum(e.kind == "attack" for e in events) == steps[0].attacks
        a, b = (parse_board(s) for s in rec["boards"])
        final = final_boards(a, b, events)
        for side in (0, 1):
            got = [(f.eid, f.card.attack, f.card.health) for f in steps[-1].after[side]]
            assert got == [(u.eid, u.attack, u.health) for u in final[side]]
        dealt = sum(f.damage for s in steps for side in s.after for f in side)
        assert dealt == sum(e.a for e in events if e.kind == "damage")
        died = sum(f.status == "dying" for s in steps for side in s.after for f in side)
        assert died == sum(e.kind == "death" for e in events)
        for s in attacks:
            assert s.attacker in {f.eid for side in s.before for f in side}
        assert (steps[-1].winner, steps[-1].damage) == (rec["winner"], rec["damage"])
    every = [f.combat for f in frames if f.combat is not None]
    fighters = [f for s in every for side in s.after for f in side]
    assert any(f.status == "summoned" for f in fighters)
    assert any(f.shield_popped for f in fighters)
    assert any("Deathrattle" in f.triggers for f in fighters)
    assert any(s.ghost for s in every)


def test_player_view_and_navigation(game):
    _, _, frames = game
    fight = first(frames, lambda f: f.kind == "combat" and 0 not in f.players)
    shown = frames.shown(fight, 0)
    last = frames.latest_tavern(fight, 0)
    assert shown.kind == "tavern" and shown.tavern == last.tavern and last.player == 0
    assert shown.note == frames[fight].caption
    assert frames.shown(fight, None).kind == "combat"
    assert frames.shown(0, 6).tavern is None  # seat 6 has not had a turn yet
    i = 0
    seen = []
    while (j := frames.step(i, 1, 3)) != i:
        seen.append(frames[j])
        i = j
    assert seen and all(3 in f.players or f.kind in ("standings", "end") for f in seen)
    turn8 = frames.jump_turn(0, 1)
    assert frames[turn8].turn == 8 and frames[turn8 - 1].turn == 7
    assert frames.jump_turn(turn8, -1) == 0
    start = first(frames, lambda f: f.kind == "combat")
    after = frames.jump_record(start, 1)
    assert frames[after].record == frames[start].record + 1
    assert frames[after].combat.kind == "start"  # the next fight, from its beginning
    assert frames.jump_record(after + 3, -1) == start


def test_start_of_combat_is_its_own_step(tmp_path):
    whelp = {"tier": 2, "health": 30, "minions": [{"card": "BGS_019"}, {"card": "BGS_039"}]}
    cats = {"tier": 1, "health": 25, "minions": [{"card": "CFM_315"}, {"card": "EX1_506"}]}
    a, b = parse_board(whelp), parse_board(cats)
    fight = resolve(a, b, seed=1)
    header = {"seed": 1, "ruleset": "bg-20.0.0-77662", "agents": AGENTS, "players": 8}
    with ReplayWriter(tmp_path / "soc.jsonl", header) as w:
        w.write(
            {
                "type": "combat",
                "turn": 2,
                "players": [4, 1],
                "ghost": False,
                "boards": [a.to_spec(), b.to_spec()],
                "events": [e.as_dict() for e in fight.events],
                "winner": fight.winner,
                "damage": fight.damage,
            }
        )
        w.write({"type": "end", "placements": [1, 2, 3, 4, 5, 6, 7, 8]})
    replay = read_replay(tmp_path / "soc.jsonl")
    frames = build_frames(replay)
    kinds = [f.combat.kind for f in frames if f.combat is not None]
    assert kinds[:2] == ["start", "start_of_combat"] and kinds[-1] == "result"
    soc = frames[1].combat
    assert soc.attacker == 1  # Red Whelp, the first minion of board a
    hit = next(f for f in soc.after[1] if f.damage)
    assert soc.target == hit.eid and hit.status == "dying"
    assert "Start of Combat" in next(f for f in soc.after[0] if f.eid == 1).triggers
    assert all((s.health, s.tier, s.alive) == (40, 1, True) for s in frames[0].standings)
    texts = describe_frame(replay, frames, 1)
    assert "Start of Combat" in texts["friendly_board"]
    assert any(f"-{hit.damage}" == t for t in texts["enemy_board"])
    assert frames.shown(1, 0).tavern is None  # player 1 never recruited in this replay
    assert "has not played a turn yet" in " ".join(describe_frame(replay, frames, 1, 0)["board"])


def test_bad_fight_in_replay_is_a_clear_error(game, tmp_path):
    path, _, _ = game
    lines = path.read_text().splitlines()
    k = next(i for i, line in enumerate(lines) if '"type":"combat"' in line)
    rec = json.loads(lines[k])
    rec["boards"][0]["minions"][0]["card"] = "NOPE_404"
    lines[k] = json.dumps(rec)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    where = rf"bad\.jsonl, line {k + 1}: combat\.boards\[0\]\.minions\[0\]\.card: unknown card"
    with pytest.raises(ReplayError, match=where + ".*NOPE_404"):
        build_frames(read_replay(bad))


# ---------------------------------------------------------------- rendering


def test_screenshot_cli_writes_a_drawn_png(game, tmp_path, capsys):
    path, _, frames = game
    at = first(frames, lambda f: f.combat is not None and f.combat.kind == "attack")
    png = tmp_path / "shot.png"
    assert main(str(path), screenshot=str(png), at=at) == 0
    assert "wrote" in capsys.readouterr().out
    image = pygame.image.load(str(png))
    assert image.get_size() == BASE_SIZE
    rgb = pygame.surfarray.array3d(image).reshape(-1, 3).astype(np.int64)
    assert len(np.unique(rgb[:, 0] << 16 | rgb[:, 1] << 8 | rgb[:, 2])) > 200
    assert drawn_share(image, image.get_rect()) > 0.3


def test_tavern_regions_are_drawn(game):
    _, replay, frames = game
    at = first(frames, lambda f: f.kind == "action" and f.action == "Buy(3)")
    surface = render_frame(replay, frames, at)
    for name in ("caption", "shop", "board", "hand", "hero", "standings", "footer"):
        assert drawn_share(surface, REGIONS[name]) > 0.5, name
    texts = describe_frame(replay, frames, at)
    f = frames[at]
    assert f.caption in texts["caption"]
    for name, cards_ in (
        ("shop", f.tavern.shop),
        ("board", f.tavern.board),
        ("hand", f.tavern.hand),
    ):
        drawn = " ".join(texts[name])
        for c in cards_:
            assert c.name.split()[0] in drawn, (name, c.name)
    assert str(f.tavern.gold) in texts["hero"] and "Gold" in texts["hero"]
    assert f.tavern.tier == 5 and "7 gold" in texts["hero"]  # the upgrade cost
    tier6 = first(frames, lambda f: f.tavern is not None and f.tavern.tier == 6)
    assert "max" in describe_frame(replay, frames, tier6)["hero"]
    assert "heuristic" in texts["standings"]


def test_frozen_golden_and_discover_are_marked(game):
    _, replay, frames = game
    frozen = first(frames, lambda f: f.action == "Freeze()")
    buy = first(frames, lambda f: f.action == "Buy(0)")
    assert "FROZEN" in describe_frame(replay, frames, frozen)["shop"]
    assert "FROZEN" not in describe_frame(replay, frames, buy)["shop"]

    def bluish(index: int) -> int:
        px = pygame.surfarray.array3d(
            render_frame(replay, frames, index).subsurface(REGIONS["shop"])
        )
        px = px.astype(int)
        return int(((px[..., 2] > 200) & (px[..., 2] - px[..., 0] > 60)).sum())

    assert bluish(frozen) > 5 * max(1, bluish(buy))

    held = first(frames, lambda f: f.action == "Buy(3)")
    surface = render_frame(replay, frames, held)
    px = pygame.surfarray.array3d(surface.subsurface(REGIONS["hand"])).astype(int)
    gold = (px[..., 0] > 220) & (px[..., 1] > 170) & (px[..., 2] < 100)
    assert gold.sum() > 200  # the golden border of the golden card in hand
    discover = first(frames, lambda f: f.tavern is not None and f.tavern.discover)
    texts = describe_frame(replay, frames, discover)
    assert any("DISCOVER" in t for t in texts["discover"])


def test_combat_frame_draws_both_boards_and_the_attack(game):
    _, replay, frames = game
    at = first(frames, lambda f: f.combat is not None and f.combat.kind == "attack")
    step = frames[at].combat
    surface = render_frame(replay, frames, at)
    for name in ("enemy_board", "friendly_board", "log", "hero", "standings"):
        assert drawn_share(surface, REGIONS[name]) > 0.5, name
    texts = describe_frame(replay, frames, at)
    p, q = step.players
    assert any(f"player {p + 1}" in t for t in texts["friendly_board"])
    assert any(f"player {q + 1}" in t for t in texts["enemy_board"])
    for side, region in ((0, "friendly_board"), (1, "enemy_board")):
        names = " ".join(texts[region])
        for f in step.after[side]:
            assert f.card.name.split()[0] in names
    hit = [f for side in step.after for f in side if f.damage]
    assert hit and all(
        f"-{f.damage}" in texts["friendly_board"] + texts["enemy_board"] for f in hit
    )
    assert "attacks" in texts["log"][1]
    # Seen from the other player, the boards swap rows.
    flipped = describe_frame(replay, frames, at, player=q)
    assert any(f"player {q + 1}" in t for t in flipped["friendly_board"])
    # Mid-animation frames draw too (lunge and settling).
    for progress in (0.0, 0.2, 0.5, 0.8):
        mid = render_frame(replay, frames, at, progress=progress)
        assert drawn_share(mid, REGIONS["friendly_board"]) > 0.5


def test_result_frame_shows_winner_and_damage(game):
    _, replay, frames = game
    results = [f for f in frames if f.combat is not None and f.combat.kind == "result"]
    decided = next(f for f in results if f.combat.winner >= 0 and not f.combat.ghost)
    texts = describe_frame(replay, frames, decided.index)
    step = decided.combat
    winner = step.players[step.winner]
    assert f"PLAYER {winner + 1} WINS" in texts["result"]
    assert any(f"{step.damage} damage to player" in t for t in texts["result"])
    surface = render_frame(replay, frames, decided.index)
    assert drawn_share(surface, REGIONS["result"]) > 0.9


def test_standings_frames_grey_out_the_eliminated(game):
    _, replay, frames = game
    at = first(frames, lambda f: f.kind == "standings")
    texts = describe_frame(replay, frames, at)
    assert "8th place" in texts["standings"]
    assert any("STANDINGS AFTER TURN 7" in t for t in texts["scoreboard"])
    end = describe_frame(replay, frames, len(frames) - 1)
    assert "FINAL PLACEMENTS" in end["scoreboard"] and "1st" in end["scoreboard"]


def test_render_other_sizes(game):
    _, replay, frames = game
    assert render_frame(replay, frames, 0, size=(640, 400)).get_size() == (640, 400)


# ---------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"type":"header","schema":1,"seed":1\n', "not valid JSON"),
        ('{"type":"header","schema":99}\n', "unknown schema version 99"),
        ("", "empty file"),
    ],
)
def test_broken_replays_give_clear_errors(tmp_path, capsys, content, message):
    path = tmp_path / "broken.jsonl"
    path.write_text(content)
    assert main(str(path), screenshot=str(tmp_path / "x.png")) == 1
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert not (tmp_path / "x.png").exists()


def test_missing_file_and_bad_arguments(game, tmp_path, capsys):
    path, _, frames = game
    assert main(str(tmp_path / "nope.jsonl"), screenshot=str(tmp_path / "x.png")) == 1
    assert "cannot read" in capsys.readouterr().err
    # An option naming nothing in the replay exits 2, like argparse's usage errors and
    # bgsim's other commands (it was 1, the code of a replay that cannot be read).
    n = len(frames)
    assert main(str(path), screenshot=str(tmp_path / "x.png"), at=n) == 2
    assert f"has {n} frames (0..{n - 1})" in capsys.readouterr().err
    assert main(str(path), screenshot=str(tmp_path / "x.png"), at=-1) == 2
    assert "out of range" in capsys.readouterr().err
    assert main(str(path), screenshot=str(tmp_path / "x.png"), player=9) == 2
    assert "choose 1..8" in capsys.readouterr().err


# ---------------------------------------------------------------- keyboard


def key(k: int, unicode: str = "", mod: int = 0) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, unicode=unicode, mod=mod))


def test_keys_drive_the_viewer(game):
    _, replay, frames = game
    pygame.display.init()
    screen = pygame.display.set_mode(BASE_SIZE)
    # Every player's actions from frame 0 (the default follows the winner: tested below).
    v = Viewer(replay, frames, index=0, player=None)
    pygame.event.clear()

    key(pygame.K_SPACE)
    v.run(screen, max_ticks=1, fps=1000)
    assert v.paused and v.index == 0
    key(pygame.K_RIGHT)
    key(pygame.K_RIGHT)
    v.run(screen, max_ticks=1, fps=1000)
    assert v.index == 2
    key(pygame.K_LEFT)
    v.run(screen, max_ticks=1, fps=1000)
    assert v.index == 1
    key(pygame.K_DOWN)
    v.run(screen, max_ticks=1, fps=1000)
    assert frames[v.index].turn == 8

    key(pygame.K_TAB)
    v.run(screen, max_ticks=1, fps=1000)
    assert v.player == 0
    key(pygame.K_TAB, mod=pygame.KMOD_SHIFT)
    v.run(screen, max_ticks=1, fps=1000)
    assert v.player is None
    key(pygame.K_4, "4")
    v.run(screen, max_ticks=1, fps=1000)
    assert v.player == 3
    assert "following player 4 (mcts)" in v.texts["footer"][0]
    key(pygame.K_RIGHT)
    v.run(screen, max_ticks=1, fps=1000)
    assert frames.involves(v.index, 3)
    key(pygame.K_0, "0")
    v.run(screen, max_ticks=1, fps=1000)
    assert v.player is None

    key(pygame.K_EQUALS, "+")
    key(pygame.K_EQUALS, "+")
    v.run(screen, max_ticks=1, fps=1000)
    assert v.speed == 4.0
    key(pygame.K_MINUS, "-")
    v.run(screen, max_ticks=1, fps=1000)
    assert v.speed == 2.0

    key(pygame.K_q, "q")
    v.run(screen, max_ticks=50, fps=1000)
    assert not v.running


def test_playback_advances_with_time_and_speed(game):
    _, replay, frames = game
    v = Viewer(replay, frames, index=0, player=None)  # every frame, in order
    v.tick(v.dwell() - 0.01)
    assert v.index == 0 and 0 < v.progress <= 1
    v.tick(0.02)
    assert v.index == 1 and v.elapsed == 0
    v.speed = 8.0
    v.tick(v.dwell() / 8 + 0.001)
    assert v.index == 2
    v.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE, unicode=" ", mod=0))
    v.tick(100.0)
    assert v.index == 2 and v.progress == 1.0  # paused: the animation ends, no advance
    v.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_END, unicode="", mod=0))
    v.paused = False
    v.tick(100.0)
    assert v.index == len(frames) - 1 and v.paused  # stops at the end
    v.handle(pygame.event.Event(pygame.QUIT))
    assert not v.running


def test_window_close_ends_the_loop(game):
    _, replay, frames = game
    pygame.display.init()
    screen = pygame.display.set_mode((640, 400))  # a resized window gets a scaled picture
    v = Viewer(replay, frames, index=5)
    pygame.event.clear()
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    v.run(screen, max_ticks=100, fps=1000)
    assert not v.running
    v.running = True
    v.run(screen, max_ticks=3, fps=1000)
    assert v.texts["caption"] and drawn_share(screen, screen.get_rect()) > 0.3


def window(monkeypatch) -> None:
    """Let ``main`` open its window on the tests' dummy video driver, which it
    refuses from a user (a window there would play unseen until killed)."""
    monkeypatch.setattr("viz.app.HEADLESS_DRIVERS", ())


def test_main_opens_a_window_and_quits(game, monkeypatch):
    path, _, _ = game
    window(monkeypatch)
    seen = []

    def events() -> list:
        seen.append(pygame.display.get_surface().get_size())
        return [pygame.event.Event(pygame.QUIT)]

    monkeypatch.setattr(pygame.event, "get", events)
    assert main(str(path), at=3, player=2, speed=2.0) == 0
    assert seen == [BASE_SIZE]


def test_ctrl_c_in_the_window_exits_130_as_every_command(game, monkeypatch, capsys):
    import os

    path, _, _ = game
    # Without this hint SDL turns SIGINT into a window close (exit 0).
    assert os.environ.get("SDL_NO_SIGNAL_HANDLERS") == "1"

    def interrupted() -> list:
        raise KeyboardInterrupt

    monkeypatch.setattr(pygame.event, "get", interrupted)
    window(monkeypatch)
    assert main(str(path), at=3) == 130
    assert "bgsim: interrupted" in capsys.readouterr().err


# ---------------------------------------------------------------- following one player


def test_default_follow_is_the_winner(game, tmp_path, capsys):
    path, replay, frames = game
    winner = replay.records[-1]["placements"].index(1)
    assert frames.winner == winner == 2
    v = Viewer(replay, frames)
    assert v.player == winner and v.index == frames.start(winner)
    assert frames[v.index].player == winner and frames[v.index].kind == "recruit"
    v.draw(pygame.Surface(BASE_SIZE))
    assert f"following player {winner + 1} (greedy)" in v.texts["footer"][0]
    assert "Tab or 1-8: switch, 0: everyone" in v.texts["footer"][0]
    assert main(str(path), screenshot=str(tmp_path / "x.png")) == 0
    assert f"frame {frames.start(winner)} of" in capsys.readouterr().out
    # Without an end record nobody has won: player 1 is followed.
    unfinished = Frames(frames[:-1], frames.players, frames.agents)
    assert unfinished.winner == 0 and Viewer(replay, unfinished).player == 0


def test_player_option_overrides_the_winner(game, tmp_path, capsys, monkeypatch):
    path, _, frames = game
    assert main(str(path), screenshot=str(tmp_path / "x.png"), player=4) == 0
    assert f"frame {frames.start(3)} of" in capsys.readouterr().out
    assert main(str(path), screenshot=str(tmp_path / "x.png"), player=0) == 0
    assert "frame 0 of" in capsys.readouterr().out  # 0: every player, from the first frame
    made = []
    monkeypatch.setattr("viz.app.Viewer.run", lambda self, screen: made.append(self))
    window(monkeypatch)
    assert main(str(path), player=4) == 0
    assert made[0].player == 3 and made[0].index == frames.start(3)


def played(v: Viewer) -> list[int]:
    """The frames a viewer shows playing on from where it is to the end."""
    seen = [v.index]
    while True:
        v.tick(v.dwell())
        if v.paused:
            return seen
        seen.append(v.index)


def test_following_skips_the_other_players_actions(game):
    _, replay, frames = game
    winner = frames.winner
    seen = played(Viewer(replay, frames))
    kinds = {frames[i].kind for i in seen}
    assert kinds == {"recruit", "action", "combat", "standings", "end"}
    for i in seen:
        f = frames[i]
        if f.kind in ("recruit", "action"):
            assert f.player == winner
        elif f.kind == "combat":
            assert winner in f.combat.players
    mine = [f.index for f in frames if f.player == winner and f.tavern is not None]
    assert set(mine) <= set(seen)  # every one of the followed player's actions
    everyone = played(Viewer(replay, frames, index=0, player=None))
    assert everyone == list(range(len(frames)))
    assert watch_seconds(frames, winner) < watch_seconds(frames, None) / 2


def test_a_dead_players_ghost_fights_are_not_followed(game):
    _, _, frames = game
    ghost = next(f for f in frames if f.combat is not None and f.combat.ghost)
    dead = ghost.combat.players[1]
    assert not frames.involves(ghost.index, dead)
    assert frames.involves(ghost.index, ghost.combat.players[0])


def test_keys_switch_whom_the_viewer_follows(game):
    _, replay, frames = game
    v = Viewer(replay, frames)
    press = lambda k, u="", mod=0: v.handle(  # noqa: E731
        pygame.event.Event(pygame.KEYDOWN, key=k, unicode=u, mod=mod)
    )
    press(pygame.K_1, "1")
    assert v.player == 0
    v.paused = False
    assert all(frames.involves(i, 0) for i in played(v)[1:])  # from the next frame on
    press(pygame.K_HOME)  # player 1's first frame
    v.paused = False
    after = played(v)
    assert after[0] == 0 and all(frames.involves(i, 0) for i in after)
    assert any(frames[i].kind == "action" and frames[i].player == 0 for i in after)
    v.go(0)
    press(pygame.K_TAB)
    assert v.player == 1
    press(pygame.K_TAB, mod=pygame.KMOD_SHIFT)
    press(pygame.K_TAB, mod=pygame.KMOD_SHIFT)
    assert v.player is None  # after the last player: every player
    press(pygame.K_TAB)
    assert v.player == 0
    press(pygame.K_0, "0")
    assert v.player is None
    v.paused = False
    others = played(v)
    assert len({frames[i].player for i in others if frames[i].kind == "action"}) > 1
    v.draw(pygame.Surface(BASE_SIZE))
    assert "following every player's actions" in v.texts["footer"][0]


# ---------------------------------------------------------------- seeking


def test_turn_and_fight_options_seek(game, tmp_path, capsys):
    path, _, frames = game
    winner = frames.winner
    i = start_frame(frames, winner, turn=8)
    assert frames[i].turn == 8 and frames[i].player == winner and frames[i].kind == "recruit"
    assert frames[i - 1].turn == 7 or not frames.involves(i - 1, winner)
    i = start_frame(frames, winner, fight=True)
    step = frames[i].combat
    assert step.kind == "start" and winner in step.players and frames[i].turn == 7
    i = start_frame(frames, winner, turn=8, fight=True)
    assert frames[i].combat.kind == "start" and frames[i].turn == 8
    assert winner in frames[i].players
    shot = tmp_path / "fight.png"
    assert main(str(path), screenshot=str(shot), turn=8, fight=True) == 0
    assert f"frame {i} of" in capsys.readouterr().out
    assert "FIGHT!" in " ".join(describe_frame(game[1], frames, i, winner)["result"])


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"turn": 99}, "turn 99 does not exist: the replay has turns 7..8"),
        ({"turn": 3, "fight": True}, "turn 3 does not exist"),
        ({"at": 3, "turn": 7}, "--at picks a frame itself"),
        ({"player": 1, "turn": 8, "fight": True}, "player 1 has no frame"),
    ],
)
def test_bad_seek_is_a_one_line_error(game, tmp_path, capsys, options, message):
    path, _, frames = game
    if options.get("player") == 1:  # seat 0 is knocked out in round one: no turn-8 fight
        assert frames[start_frame(frames, 0, turn=8)].kind == "standings"
        message = "player 1 has no fight in turn 8"
    assert main(str(path), screenshot=str(tmp_path / "x.png"), **options) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert not (tmp_path / "x.png").exists()


def test_watch_command_line_options(game, tmp_path, capsys):
    from bgsim.cli import main as cli

    path, _, frames = game
    shot = tmp_path / "x.png"
    assert cli(["watch", str(path), "--screenshot", str(shot), "--turn", "8", "--player", "3"]) == 0
    assert f"frame {start_frame(frames, 2, turn=8)} of" in capsys.readouterr().out
    assert cli(["watch", str(path), "--screenshot", str(shot), "--turn", "1"]) == 2
    assert "turn 1 does not exist" in capsys.readouterr().err
    args = ["watch", str(path), "--screenshot", str(shot), "--fight", "--hover", "300,200"]
    assert cli(args) == 0
    assert cli(["watch", str(path), "--screenshot", str(shot), "--hover", "300"]) == 2
    assert "--hover: expected X,Y in pixels, got '300'" in capsys.readouterr().err
    assert parse_point("12,34") == (12, 34)


# ---------------------------------------------------------------- card detail


def slot_center(region: str, n: int, k: int, size: tuple[int, int] = CARD_SIZE) -> tuple:
    return row_rects(REGIONS[region], n, size, REGIONS[region].y + 34)[k].center


def test_hover_hit_testing_finds_the_card(game):
    _, replay, frames = game
    at = first(frames, lambda f: f.action == "Buy(0)")
    tv = frames[at].tavern
    for k, c in enumerate(tv.shop):
        under = card_under(replay, frames, at, slot_center("shop", len(tv.shop), k), 0)
        assert (under.card, under.region, under.slot) == (c, "shop", k)
    for k, c in enumerate(tv.board):
        under = card_under(replay, frames, at, slot_center("board", len(tv.board), k), 0)
        assert (under.card, under.region, under.slot) == (c, "board", k)
    under = card_under(replay, frames, at, slot_center("hand", 1, 0, SMALL_CARD), 0)
    assert under.card == tv.hand[0] and under.region == "hand"
    assert card_under(replay, frames, at, (20, 60), 0) is None  # a panel's corner
    assert card_under(replay, frames, at, REGIONS["standings"].center, 0) is None


def test_hover_shows_the_full_card(game):
    _, replay, frames = game
    at = first(frames, lambda f: f.action == "Buy(0)")
    tv = frames[at].tavern
    k = next(k for k, c in enumerate(tv.board) if c.tribes and c.keywords)
    pos = slot_center("board", len(tv.board), k)
    c = tv.board[k]
    data = cards()[c.card]
    text = " ".join(describe_frame(replay, frames, at, 0, hover=pos)["detail"])
    assert c.name in text and f"Tier {c.tier}" in text
    assert data.tribes and all(t.capitalize() in text for t in data.tribes)
    assert f"Attack {c.attack}" in text and f"Health {c.health}" in text
    lines = detail_lines(c)
    assert lines[0] == c.name and lines[1].startswith(f"Tier {c.tier}")
    for k in c.keywords:
        assert KEYWORD_BADGES[k][2] in lines[3]
    body = " ".join(lines[4:])
    assert body and body in " ".join(lines)
    assert data.text.split()[-1] in text  # the card's text, to its last word


def test_golden_detail_has_the_golden_text(game):
    _, replay, frames = game
    at = first(frames, lambda f: f.action == "Buy(3)")  # a golden Dragonspawn Lieutenant
    golden = frames[at].tavern.hand[0]
    normal, gold = cards()["BGS_039"], cards().golden("BGS_039")
    assert golden.golden and golden.card == gold.id
    lines = detail_lines(golden)
    assert lines[0] == "Dragonspawn Lieutenant"
    assert lines[1] == "Golden  ·  Tier 1  ·  Dragon"
    assert lines[2] == f"Attack {gold.attack}  ·  Health {gold.health}"
    assert lines[3] == "Keywords: Taunt"
    assert " ".join(lines[4:]) == "Taunt."  # its whole text
    pos = slot_center("hand", 1, 0, SMALL_CARD)
    drawn = describe_frame(replay, frames, at, 2, hover=pos)["detail"]
    assert "Golden  ·  Tier 1  ·  Dragon" in drawn
    # A golden fight card is drawn from its normal id and golden flag: the golden text.
    whelp, golden_whelp = cards()["BGS_019"], cards().golden("BGS_019")
    fighter = CardView("BGS_019", "Red Whelp", 2, 4, True, 1, ("start_of_combat",))
    lines = detail_lines(fighter)
    assert lines[1].startswith("Golden") and "Start of Combat" in lines[3]
    assert " ".join(lines[4:]) == golden_whelp.text != whelp.text
    assert "(card: 2/4)" not in lines[2] and normal.text == "Taunt"


def test_fight_cards_have_details_on_hover(game):
    _, replay, frames = game
    at = first(frames, lambda f: f.combat is not None and f.combat.kind == "start")
    step = frames[at].combat
    side = step.before[1]
    under = card_under(
        replay, frames, at, slot_center("enemy_board", len(side), 0), step.players[0]
    )
    assert under is not None and under.region == "enemy_board"
    assert under.card == side[0].card


def test_the_touched_card_is_selected_without_a_mouse(game):
    _, replay, frames = game
    at = first(frames, lambda f: f.action == "Buy(0)")
    f = frames[at]
    assert f.touched.card == f.tavern.hand[0] and (f.touched.zone, f.touched.slot) == ("hand", 0)
    detail = describe_frame(replay, frames, at, 0)["detail"]
    assert detail[0] == f.tavern.hand[0].name
    assert "detail" not in describe_frame(replay, frames, f.index - 1, 0)  # a turn start
    # Another player's action is not selected on the followed player's tavern.
    assert "detail" not in describe_frame(replay, frames, at, 3)


def test_viewer_hover_follows_the_mouse_in_a_scaled_window(game):
    _, replay, frames = game
    at = first(frames, lambda f: f.action == "Buy(0)")
    v = Viewer(replay, frames, index=at, player=0)
    screen = pygame.Surface((640, 400))
    v.draw(screen)
    x, y = slot_center("shop", len(frames[at].tavern.shop), 1)
    v.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=(x // 2, y // 2), rel=(0, 0), buttons=()))
    v.draw(screen)
    assert v.hovered is not None and v.hovered.card == frames[at].tavern.shop[1]
    assert v.texts["detail"][0] == frames[at].tavern.shop[1].name
    v.handle(pygame.event.Event(pygame.WINDOWLEAVE))
    v.draw(screen)
    assert v.hovered is None


# ---------------------------------------------------------------- legend


def test_the_keyword_legend_is_complete(game):
    _, replay, frames = game
    shown = set(KEYWORD_BITS) | set(STATIC_KEYWORDS)
    for c in cards():
        if c.kind in ("pool", "token"):
            shown |= c.keywords
    legend = describe_frame(replay, frames, 0)["footer"]
    for k in sorted(shown):
        assert k in KEYWORD_BADGES, k
        label, _, name = KEYWORD_BADGES[k]
        assert name in legend and label in legend, k
    assert "Golden" in legend


# ------------------------------------------------------------ heroes


@pytest.fixture(scope="module")
def hero_game(tmp_path_factory):
    """A real lobby with heroes played by heuristic agents, as a replay."""
    out = tmp_path_factory.mktemp("heroes")
    seats = tuple(parse_lineup("heuristic:8", 8))
    task = GameTask("heroes", 0, 2, seats, None, str(out), load_ruleset(), heroes=True)
    record = play_game(task)
    assert record.replay is not None
    replay = read_replay(record.replay)
    return replay, build_frames(replay), record


def test_the_draft_is_shown_as_frames_of_offers_and_choices(hero_game):
    replay, frames, record = hero_game
    db = cards()
    drafts = [f for f in frames if f.kind == "draft"]
    assert len(drafts) == 2 * replay.players  # the offers, then the choice, per player
    for p in range(replay.players):
        offered, chose = [f for f in drafts if f.player == p]
        assert offered.chosen is None and len(offered.offers) == 2
        assert chose.offers == offered.offers and chose.chosen in (0, 1)
        hero = chose.offers[chose.chosen]
        assert hero == record.heroes[p]
        assert chose.words == f"chooses {db[hero].name}"
        texts = describe_frame(replay, frames, chose.index, p)
        assert "CHOSEN" in texts["draft"]
        assert any(db[o].name in texts["draft"] for o in chose.offers)
        assert db[hero].name in texts["hero"]
    # every later standing knows each player's hero
    last = frames[len(frames) - 1]
    assert [s.hero for s in last.standings] == list(record.heroes)


def test_the_hero_panel_shows_the_hero_and_its_power(hero_game):
    replay, frames, record = hero_game
    db = cards()
    frame = next(f for f in frames if f.kind == "recruit" and f.turn == 2)
    p = frame.player
    hero = frame.tavern.hero
    assert hero is not None and hero.hero == record.heroes[p]
    texts = describe_frame(replay, frames, frame.index, p)["hero"]
    assert db[hero.hero].name in texts and hero.power_name in texts
    assert hero.status in texts or f"{hero.status} (once per game)" in texts
    # hovering the power box shows the power's text; the portrait, the hero's
    box = REGIONS["hero"]
    under = card_under(replay, frames, frame.index, (box.x + 40, box.bottom - 30), p)
    assert under is not None and under.card.card == hero.power
    lines = detail_lines(under.card)
    assert lines[0] == hero.power_name and "Hero Power" in lines[1]
    portrait = card_under(replay, frames, frame.index, (box.x + 50, box.y + 72), p)
    assert portrait is not None and portrait.card.card == hero.hero
    assert any(line.startswith("Hero Power:") for line in detail_lines(portrait.card))


def test_a_used_power_is_said_and_shown_as_used(hero_game):
    replay, frames, _ = hero_game
    used = [f for f in frames if f.kind == "action" and (f.action or "").startswith("HeroPower")]
    if not used:
        pytest.skip("nobody used an active power in this lobby")
    f = used[0]
    assert f.words.startswith(f"uses {f.tavern.hero.power_name}")
    assert f.tavern.hero.status in ("used", "spent")
    assert f.caption.endswith(f.words)
    assert f.tavern.hero.status in describe_frame(replay, frames, f.index, f.player)["hero"]


def test_standings_show_every_players_hero_portrait(hero_game):
    replay, frames, record = hero_game
    frame = next(f for f in frames if f.kind == "standings")
    surface = render_frame(replay, frames, frame.index, 0)
    assert surface.get_size() == BASE_SIZE
    rect = REGIONS["standings"]
    found = set()
    for y in range(rect.y + 34, rect.bottom - 10, 4):
        under = card_under(replay, frames, frame.index, (rect.x + 30, y), 0)
        if under is not None:
            found.add(under.card.card)
    assert found == set(record.heroes)


def test_draft_screenshot_is_drawn(hero_game, tmp_path, capsys):
    _, frames, record = hero_game
    path = tmp_path / "replay.jsonl"
    path.write_text(Path(record.replay).read_text())
    index = next(f.index for f in frames if f.kind == "draft" and f.chosen is not None)
    png = tmp_path / "draft.png"
    assert main(str(path), screenshot=str(png), at=index, player=1) == 0
    image = pygame.image.load(str(png))
    area = REGIONS["shop"]
    colours = {tuple(image.get_at((x, area.y + 114))) for x in range(area.x, area.right, 5)}
    assert len(colours) > 4  # portraits, not an empty panel
    assert "Draft" in capsys.readouterr().out


def test_hero_wording():
    from viz.wording import describe_action

    db = cards()
    alley = card("CFM_315")
    view = {
        "gold": 5,
        "tier": 1,
        "upgrade_cost": 5,
        "health": 40,
        "frozen": False,
        "shop": [],
        "hand": [],
        "board": [alley],
        "discover": [],
    }
    millhouse = db["TB_BaconShop_HERO_49"]
    chose = {
        **view,
        "hero": {
            "hero": millhouse.id,
            "power": millhouse.hero_power,
            "uses": 0,
            "spent": False,
            "counter": 0,
            "cost": 0,
        },
    }
    assert describe_action("ChooseHero(1)", 704, None, chose).text == "chooses Millhouse Manastorm"
    george = {
        "hero": "TB_BaconShop_HERO_15",
        "power": "TB_BaconShop_HP_010",
        "uses": 0,
        "spent": False,
        "counter": 0,
        "cost": 2,
    }
    before = {**view, "hero": george}
    after = {**view, "gold": 3, "hero": {**george, "uses": 1}}
    said = describe_action("HeroPower(target=0)", 708, before, after)
    assert said.text == "uses Boon of Light on Alleycat (2 gold)"
    assert said.zone == "board" and said.slot == 0
    bananas = card("TRL_509t")
    cast = describe_action(
        "Play(hand=0, target=0)", 64, {**view, "hand": [bananas]}, {**view, "hand": []}
    )
    assert cast.text == "casts Bananas on Alleycat"


def test_plots_add_placements_by_hero(hero_game, tmp_path):
    import dataclasses

    from agents.results_db import ResultsDB
    from viz.plots import figures

    _, _, record = hero_game
    db = cards()
    with ResultsDB(tmp_path / "r.db") as results:
        results.add_run(record.run, "heuristic:8", {}, 0, {})
        results.add_game(record)
        figs = figures(results)
    trace = figs["heroes"].data[0]
    assert sorted(trace.x) == sorted(db[h].name for h in set(record.heroes))
    assert all(1 <= y <= 8 for y in trace.y)
    plain = dataclasses.replace(record, run="plain", heroes=(), power_uses=())
    with ResultsDB(tmp_path / "p.db") as results:
        results.add_run("plain", "heuristic:8", {}, 0, {})
        results.add_game(plain)
        assert "heroes" not in figures(results)


def _first_agent_named(path: Path, label: str, out: Path) -> Path:
    """The replay at ``path`` with its first agent's label set to ``label``, written to ``out``."""
    lines = path.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    header["agents"] = [label, *header["agents"][1:]]
    out.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n", encoding="utf-8")
    return out


def test_control_characters_in_a_replays_text_are_drawn_not_fatal(game, tmp_path, capsys):
    from bgsim.cli import main as cli

    odd = _first_agent_named(game[0], "ran\u0000dom\u001b[31m\n", tmp_path / "odd.jsonl")
    shot = tmp_path / "odd.png"
    assert cli(["watch", str(odd), "--screenshot", str(shot), "--player", "1"]) == 0
    assert shot.stat().st_size > 0


def test_a_screenshot_is_a_png_and_its_caption_one_harmless_line(game, tmp_path, capsys):
    from bgsim.cli import main as cli

    odd = _first_agent_named(game[0], "a\u001b[2J\u0007b", tmp_path / "odd.jsonl")
    shot = tmp_path / "shot"  # no ending: still a PNG
    assert cli(["watch", str(odd), "--screenshot", str(shot), "--player", "1"]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out and "a\\x1b[2J\\x07b" in out
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_screenshot_name_that_is_not_utf8(game, tmp_path, capsys):
    from bgsim.cli import main as cli

    path, _, _ = game
    shot = tmp_path / "s\udcff.png"  # the byte 0xff in a file name
    assert cli(["watch", str(path), "--screenshot", str(shot)]) == 0
    assert "wrote " in capsys.readouterr().out and shot.exists()
