"""Heroes between the recruit phase and the combat engine: what a player's
hero state puts on its warband (the board spec's hero fields), what a fight's
result gives back (Secrets revealed, enemy minions killed, Y'Shaarj's copy,
Rafaam's capture), the lobby and the searches passing hero information, the
trace and the viewer showing hero effects."""

from __future__ import annotations

import json
import random

from tavern_helpers import RULES, act, full_pool, mk, st

from bgsim import ChooseHero, HeroPower, LastSeen, Lobby
from bgsim._core import hero_powers, tavern
from bgsim._core.hero_state import HeroState, Prizes
from bgsim._core.heroes_warband import secrets_in_play
from bgsim._core.minions import REBORN
from bgsim.heroes import heroes
from bgsim.replay import ReplayWriter, player_view, read_replay
from combat_c import Board, Minion, parse_board, resolve
from viz.frames import build_frames

HERO = {h.name: h for h in heroes().values()}
KABOOM, WEAVER, ALLEYCAT = "BOT_606", "BGS_004", "CFM_315"
SNAKE_TRAP, ICE_BLOCK, AVENGE = "TB_Bacon_Secrets_02", "TB_Bacon_Secrets_12", "TB_Bacon_Secrets_08"


def with_hero(name: str, **state):
    info = HERO[name]
    return st(hero=hero_powers.new_hero(info.id, info.power.id), **state)


def wall(n: int = 4, tier: int = 6) -> Board:
    """An enemy that wins every fight: big Taunt-less minions."""
    return st(board=[mk(KABOOM, 50, 50)] * n, tier=tier).warband()


def after(state, result, side=0, pool=None):
    """``state`` once the fight's ``result`` (its side ``side``) is applied."""
    mine = result.aftermath[side]
    lost = result.winner == 1 - side
    return tavern.after_combat(
        state,
        result.damage if lost else 0,
        mine.won,
        lost,
        tuple((x.index, x.attack, x.health) for x in mine.permanent),
        mine.hand,
        (),
        pool if pool is not None else full_pool(),
        RULES,
        mine.kills,
        mine.first_kill,
        mine.secrets_used,
    )


# ------------------------------------------------------------ the warband's hero fields


def test_a_players_warband_carries_the_hero_power_and_secrets():
    assert st(board=[mk(KABOOM)]).warband().hero is None
    wing = with_hero("Deathwing", board=[mk(KABOOM)]).warband()
    assert (wing.hero, wing.hero_power) == (HERO["Deathwing"].id, "TB_BaconShop_HP_061")
    assert not wing.hero_power_armed and wing.secrets == ()
    maga = with_hero("The Great Akazamzarak")
    maga = st(hero=maga.hero.changed(extra=((SNAKE_TRAP, AVENGE), False)))
    assert maga.warband().secrets == (SNAKE_TRAP, AVENGE)
    tick = with_hero("Tickatus")
    tick = st(hero=tick.hero.changed(prizes=Prizes(ice_blocks=1)))
    assert tick.warband().secrets == (ICE_BLOCK,)
    # Sir Finley with another hero's power fights with that power
    finley = HeroState(HERO["Sir Finley Mrrgglton"].id, "TB_BaconShop_HP_069")
    assert st(hero=finley).warband().hero_power == "TB_BaconShop_HP_069"


def test_deathwings_plus_two_is_shown_once():
    state = with_hero("Deathwing", board=[mk(KABOOM)], shop=[mk(WEAVER)])
    assert state.warband().displayed() == [(4, 2)]
    view = player_view(state)
    assert view["board"][0]["attack"] == 4 and view["shop"][0]["attack"] == 3


def test_yshaarj_armed_fights_with_the_summon_and_gets_the_copy():
    state = with_hero("Y'Shaarj", board=[mk(ALLEYCAT)], tier=3, gold=5)
    armed = act(state, HeroPower())
    board = armed.warband()
    assert board.hero_power_armed and not state.warband().hero_power_armed
    result = resolve(board, wall(), 1)
    summoned = next(e for e in result.events if e.kind == "summon" and e.side == 0)
    assert result.aftermath[0].hand[0] == summoned.card
    later = after(armed, result)
    assert later.hand[0].card == summoned.card and later.hand[0].pool_copies == ()
    assert not later.warband().hero_power_armed  # one combat only


def test_rafaam_armed_copies_the_first_kill_the_result_gives():
    state = with_hero("Arch-Villain Rafaam", board=[mk(WEAVER, 40, 40)], gold=5)
    armed = act(state, HeroPower())
    enemy = st(board=[mk(KABOOM, golden=True), mk(ALLEYCAT)]).warband()
    result = resolve(armed.warband(), enemy, 4)
    first = result.aftermath[0].first_kill
    assert any(e.kind == "hero" and e.side == 0 for e in result.events)
    got = after(armed, result)
    assert got.hand[0].card_id == first and got.hero.counter == 0


def test_ragnaros_adds_up_the_kills_of_the_result():
    state = with_hero("Ragnaros the Firelord", board=[mk(WEAVER, 40, 40)])
    enemy = st(board=[mk("EX1_556"), mk(ALLEYCAT), mk(ALLEYCAT)]).warband()
    result = resolve(state.warband(), enemy, 2)
    kills = result.aftermath[0].kills
    assert kills == 4  # a Harvest Golem's Damaged Golem counts
    assert after(state, result).hero.counter == 25 - kills


def test_akazamzaraks_revealed_secrets_leave_play_and_the_rest_stay():
    hero = with_hero("The Great Akazamzarak").hero.changed(extra=((SNAKE_TRAP, ICE_BLOCK), True))
    state = st(hero=hero, board=[mk(ALLEYCAT)], health=3)
    result = resolve(state.warband(), wall(), 1)
    assert result.aftermath[0].secrets_used == (SNAKE_TRAP, ICE_BLOCK)
    assert result.damage == 0 and result.prevented > 3
    later = after(state, result)
    assert secrets_in_play(later.hero) == () and later.health == 3
    kept = st(hero=hero.changed(extra=((ICE_BLOCK,), True)), health=30)
    hit = resolve(kept.warband(), wall(), 1)
    assert hit.damage > 0 and after(kept, hit).warband().secrets == (ICE_BLOCK,)


def test_the_darkmoon_ice_block_is_the_same_secret():
    state = with_hero("Tickatus", health=4).hero.changed(prizes=Prizes(ice_blocks=1))
    tick = st(hero=state, health=4)
    result = resolve(tick.warband(), wall(), 3)
    assert result.damage == 0 and result.aftermath[0].secrets_used == (ICE_BLOCK,)
    later = after(tick, result)
    assert later.health == 4 and later.hero.prizes.ice_blocks == 0


def test_the_lich_kings_reborn_lasts_one_combat():
    state = with_hero("The Lich King", board=[mk(ALLEYCAT, 1, 1), mk(WEAVER, 30, 30)])
    rite = act(state, HeroPower(target=0))
    assert rite.board[0].keywords & REBORN and rite.warband().minions[0].reborn
    enemy = st(board=[mk(KABOOM, 3, 30)]).warband()
    result = resolve(rite.warband(), enemy, 0)
    back = [e for e in result.events if e.kind == "trigger" and e.trigger == "reborn"]
    assert back and back[0].side == 0
    summoned = next(e for e in result.events if e.kind == "summon" and e.eid > 3)
    assert not summoned.keywords & 32  # the returned Alleycat has no Reborn
    later = after(rite, result)
    assert not later.board[0].keywords & REBORN  # and the warband's is gone after the fight
    assert not later.warband().minions[0].reborn


# ------------------------------------------------------------ the lobby and the searches


def _lobby_with(name: str, seeds=range(80)) -> tuple[Lobby, int]:
    wanted = HERO[name].id
    for seed in seeds:
        lobby = Lobby(seed, heroes=True)
        seat = next((p for p in range(8) if wanted in lobby.state(p).hero_offers), None)
        if seat is not None:
            break
    else:
        raise AssertionError(f"no lobby offers {name}")
    for p in range(8):
        offers = lobby.state(p).hero_offers
        lobby.apply(p, ChooseHero(offers.index(wanted) if p == seat else 0))
    return lobby, seat


def _play(lobby: Lobby, turns: int, seed: int, power_seat: int | None = None) -> None:
    rng = random.Random(seed)
    while not lobby.done and lobby.turn <= turns:
        p = lobby.to_act()[0]
        legal = lobby.legal_actions(p)
        if p == power_seat:
            powers = [a for a in legal if isinstance(a, HeroPower)]
            if powers:
                lobby.apply(p, powers[0])
                continue
            picks = [a for a in legal if isinstance(a, ChooseHero)]
            if picks:
                lobby.apply(p, picks[0])
                continue
        lobby.apply(p, rng.choice(legal))


def test_a_lobby_with_heroes_fights_with_them_and_hides_secrets():
    lobby, seat = _lobby_with("The Great Akazamzarak")
    _play(lobby, 9, 3, power_seat=seat)
    fights = [r for r in lobby.log if r["type"] == "combat"]
    assert fights
    revealed = 0
    for rec in fights:
        for side, p in enumerate(rec["players"]):
            spec = rec["boards"][side]
            if side == 1 and rec["ghost"]:
                assert "hero" not in spec  # a ghost fights without a hero
                continue
            assert spec["hero"] == lobby.state(p).hero.hero
            assert set(rec["aftermath"][side]) >= {"kills", "first_kill", "secrets_used"}
            revealed += len(rec["aftermath"][side]["secrets_used"])
        assert parse_board(rec["boards"][0]).hero is not None
    assert revealed > 0  # his Secrets went off in some fight
    mine = lobby.state(seat)
    assert set(secrets_in_play(mine.hero)) == set(mine.warband().secrets)
    for p in range(8):
        seen = lobby.observe(p).seen[seat]
        if seen is not None and p != seat:
            assert seen.board.hero == mine.hero.hero and seen.board.secrets == ()


def test_lobbies_without_heroes_keep_their_records():
    lobby = Lobby(5)
    _play(lobby, 4, 5)
    rec = next(r for r in lobby.log if r["type"] == "combat")
    assert "hero" not in rec["boards"][0] and set(rec["aftermath"][0]) == {
        "won",
        "permanent",
        "hand",
    }


def test_searches_see_their_own_hero_and_the_enemys_public_one():
    lobby, seat = _lobby_with("Deathwing")
    _play(lobby, 3, 1)
    model = lobby.turn_model(seat)
    assert model.warband().hero == HERO["Deathwing"].id
    other = (seat + 1) % 8
    obs = lobby.observe(other)
    guess = LastSeen(obs).warband(seat, random.Random(0), obs.turn)
    assert guess.hero == HERO["Deathwing"].id and guess.hero_power == "TB_BaconShop_HP_061"
    assert not guess.hero_power_armed and guess.secrets == ()
    from agents.belief import Guesser

    guessed = Guesser(obs).warband(seat, random.Random(0), obs.turn)
    assert (guessed.hero, guessed.secrets) == (HERO["Deathwing"].id, ())


# ------------------------------------------------------------ trace, CLI and viewer


def test_combat_command_takes_hero_fields_and_traces_hero_effects(tmp_path, capsys):
    from bgsim.cli import main

    fight = {
        "a": {
            "tier": 3,
            "hero": HERO["Illidan Stormrage"].id,
            "minions": [{"card": WEAVER, "attack": 3, "health": 9}, {"card": ALLEYCAT}],
        },
        "b": {
            "tier": 2,
            "health": 2,
            "hero": HERO["The Great Akazamzarak"].id,
            "secrets": [SNAKE_TRAP, ICE_BLOCK],
            "minions": [{"card": ALLEYCAT}],
        },
    }
    path = tmp_path / "fight.json"
    path.write_text(json.dumps(fight))
    assert main(["combat", str(path), "--trace", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "A's hero power Wingmen on A's Wrath Weaver 3/9" in out
    assert "B's Secret is revealed: Snake Trap" in out
    assert "B's Secret is revealed: Ice Block" in out and "deals 0 damage" in out
    assert main(["combat", str(path), "--runs", "200"]) == 0
    fight["b"]["secrets"] = ["TB_Bacon_Secrets_99"]
    path.write_text(json.dumps(fight))
    assert main(["combat", str(path)]) == 2
    assert "secrets[0]: unknown Secret" in capsys.readouterr().err


def test_the_viewer_shows_hero_powers_and_secrets(tmp_path):
    a = parse_board(
        {
            "tier": 3,
            "health": 30,
            "hero": HERO["Illidan Stormrage"].id,
            "minions": [{"card": WEAVER, "attack": 2, "health": 9}, {"card": ALLEYCAT}],
        }
    )
    b = Board(2, 25, (Minion.of(ALLEYCAT, attack=1, health=5),)).with_hero(
        HERO["The Great Akazamzarak"].id, secrets=(SNAKE_TRAP,)
    )
    wing = Board(2, 25, (Minion.of(ALLEYCAT),)).with_hero(HERO["Deathwing"].id)
    header = {"seed": 1, "ruleset": "bg-20.0.0-77662", "agents": ["random"] * 8, "players": 8}
    with ReplayWriter(tmp_path / "heroes.jsonl", header) as w:
        for turn, (x, y) in ((2, (a, b)), (3, (wing, b.with_hero()))):
            fight = resolve(x, y, seed=1)
            w.write(
                {
                    "type": "combat",
                    "turn": turn,
                    "players": [4, 1],
                    "ghost": False,
                    "boards": [x.to_spec(y), y.to_spec(x)],
                    "events": [e.as_dict() for e in fight.events],
                    "winner": fight.winner,
                    "damage": fight.damage,
                }
            )
            standing = {"health": 20, "tier": 2, "alive": True}
            players = [{"player": p, **standing} for p in range(8)]
            w.write({"type": "standings", "turn": turn, "players": players})
        w.write({"type": "end", "placements": [1, 2, 3, 4, 5, 6, 7, 8]})
    frames = build_frames(read_replay(tmp_path / "heroes.jsonl"))
    steps = [f.combat for f in frames if f.combat is not None]
    first = [s for s in steps if s.players == (4, 1)]
    kinds = [s.kind for s in first[: len(first) // 2 + 1]]
    assert kinds[:3] == ["start", "start_of_combat", "start_of_combat"]
    left, right = first[1], first[2]
    assert left.attacker == 1 and left.target is not None and right.attacker == 2
    assert "Wingmen" in next(f for f in left.after[0] if f.eid == 1).triggers
    assert any("Secret is revealed: Snake Trap" in line for s in first for line in s.log)
    # Deathwing's aura: the opening step shows the enemy's minion gaining it
    opening = next(
        s
        for s in steps
        if s.kind == "start" and s.number == 0 and s.before[0][0].card.name == "Alleycat"
    )
    assert any("every minion has +2 Attack" in line for line in opening.log)
    assert opening.after[1][0].buffed and opening.after[1][0].card.attack == 3
