"""The combat_c Python API: specs, errors, determinism, odds and results."""

import dataclasses
import json

import pytest

from bgsim.resources import data_path
from combat_c import Board, BoardSpecError, Minion, parse_board, resolve, simulate
from combat_c.board import KEYWORDS


def bench(name):
    fight = json.loads(data_path("boards", "bench", f"{name}.json").read_text())
    return parse_board(fight["a"]), parse_board(fight["b"])


def test_parse_all_bench_boards():
    for path in data_path("boards", "bench").glob("*.json"):
        fight = json.loads(path.read_text())
        a, b = parse_board(fight["a"]), parse_board(fight["b"])
        assert 1 <= len(a.minions) <= 7 and 1 <= len(b.minions) <= 7


def test_spec_roundtrip_keeps_displayed_stats():
    a, _ = bench("murlocs_poison")
    again = parse_board(a.to_spec())
    assert again == a


def test_auras_are_taken_out_of_spec_stats():
    board = parse_board(
        {
            "tier": 2,
            "minions": [
                {"card": "EX1_507", "attack": 3, "health": 3},  # Murloc Warleader
                {"card": "EX1_509", "attack": 3, "health": 2},  # Tidecaller shows +2
            ],
        }
    )
    assert board.minions[1].attack == 1
    assert board.displayed() == [(3, 3), (3, 2)]


def test_golden_id_implies_golden_and_default_stats():
    board = parse_board({"tier": 1, "minions": [{"card": "TB_BaconUps_028"}]})
    m = board.minions[0]
    assert m.card == "BOT_606" and m.golden and (m.attack, m.health) == (4, 4)


@pytest.mark.parametrize(
    ("spec", "field"),
    [
        ({"tier": 1, "minions": [{"card": "NOPE"}]}, "minions[0].card"),
        ({"tier": 1, "minions": [{"card": "BOT_606", "attack": -1}]}, "minions[0].attack"),
        ({"tier": 1, "minions": [{"card": "BOT_606", "health": 0}]}, "minions[0].health"),
        ({"tier": 1, "minions": [{"card": "BOT_606", "taunt": "yes"}]}, "minions[0].taunt"),
        ({"tier": 1, "minions": [{"card": "BOT_606", "shield": True}]}, "minions[0].shield"),
        ({"tier": 9, "minions": []}, "tier"),
        ({"minions": []}, "tier"),
        ({"tier": 1, "minions": [{"card": "BOT_606"}] * 8}, "minions"),
        (
            {"tier": 1, "minions": [{"card": "BOT_606", "magnetic": ["EX1_531"]}]},
            "minions[0].magnetic[0]",
        ),
        (
            {"tier": 1, "minions": [{"card": "EX1_531", "magnetic": ["BOT_312"]}]},
            "minions[0].magnetic",
        ),
        ({"tier": 1, "minions": [{"card": "TB_BaconShop_HP_008a"}]}, "minions[0].card"),
        ({"tier": 1, "minions": "BOT_606"}, "minions"),
    ],
)
def test_bad_specs_name_the_field(spec, field):
    with pytest.raises(BoardSpecError) as err:
        parse_board(spec)
    assert err.value.field == field


def test_malformed_json_is_a_spec_error(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text("{not json")
    with pytest.raises(BoardSpecError, match="not valid JSON"):
        parse_board(path)
    with pytest.raises(BoardSpecError, match="cannot read"):
        parse_board(tmp_path / "missing.json")


def test_minion_checks_its_fields():
    with pytest.raises(BoardSpecError, match="health"):
        Minion.of("BOT_606", health=0)
    with pytest.raises(BoardSpecError, match="attack"):
        Minion(card="BOT_606", attack=2.5, health=2)  # type: ignore[arg-type]


def test_trusted_boards_equal_checked_ones_and_the_engine_still_checks_them():
    checked = Minion("BGS_004", 3, 4, golden=True, taunt=True, magnetic=(), living_spores=0)
    fields = [getattr(checked, f) for f in ("card", "attack", "health", "golden")]
    keywords = [getattr(checked, k) for k in KEYWORDS]
    trusted = Minion.trusted(*fields, *keywords, (), 0)
    assert type(trusted) is Minion and trusted == checked and hash(trusted) == hash(checked)
    board = Board.trusted(3, 20, (trusted,))
    assert type(board) is Board and board == Board(3, 20, (checked,))
    assert simulate(board, board, 50, 1).as_dict() == simulate(board, board, 50, 1).as_dict()
    with pytest.raises(dataclasses.FrozenInstanceError):
        trusted.attack = 5  # type: ignore[misc]
    bad = Minion.trusted("BGS_004", 3, 0, *[False] * 7, (), 0)  # 0 health: invalid
    with pytest.raises(BoardSpecError, match="rejected"):
        simulate(Board.trusted(3, 20, (bad,)), board, 10, 1)


def test_simulate_is_deterministic_and_seed_sensitive():
    a, b = bench("mech_midgame")
    one, two = simulate(a, b, 2000, seed=7), simulate(a, b, 2000, seed=7)
    assert (one.wins, one.ties, one.losses) == (two.wins, two.ties, two.losses)
    assert one.damage_dealt == two.damage_dealt
    other = simulate(a, b, 2000, seed=8)
    assert (other.wins, other.ties) != (one.wins, one.ties)


def test_odds_add_up():
    a, b = bench("beasts_vs_demons")
    odds = simulate(a, b, 3000, seed=1)
    assert odds.wins + odds.ties + odds.losses == 3000
    assert sum(odds.damage_dealt) == odds.wins
    assert sum(odds.damage_taken) == odds.losses
    assert odds.win + odds.tie + odds.loss == pytest.approx(1.0)
    assert 0 <= odds.lethal_dealt <= odds.win
    assert odds.mean_damage_dealt == pytest.approx(
        sum(d * n for d, n in enumerate(odds.damage_dealt)) / 3000
    )


def test_lethal_uses_hero_health():
    a = Board(6, 40, (Minion.of("BGS_022"),))
    b = Board(1, 1, (Minion.of("EX1_506a"),))
    odds = simulate(a, b, 100, seed=3)
    assert odds.win == 1.0 and odds.lethal_dealt == 1.0
    assert odds.damage_dealt[6 + 6] == 100  # tier 6 + Zapp's tier 6


def test_resolve_matches_simulate_single_run_outcomes():
    a, b = bench("deathrattle_engine")
    for seed in range(20):
        result = resolve(a, b, seed)
        assert result.events[0].kind == "start" and result.events[-1].kind == "end"
        assert result.events[-1].side == result.winner
        assert result.outcome in ("win", "tie", "loss")


def test_resolve_is_deterministic():
    a, b = bench("shields_dragons_vs_pirates")
    assert resolve(a, b, 11) == resolve(a, b, 11)


def test_empty_boards_tie():
    empty = Board(1, 40, ())
    assert resolve(empty, empty, 1).winner == -1
    one = Board(3, 40, (Minion.of("EX1_506a"),))
    result = resolve(one, empty, 1)
    assert result.winner == 0 and result.damage == 3 + 1


def test_seed_must_be_an_int():
    a, b = bench("early_small")
    with pytest.raises(TypeError):
        resolve(a, b, "1")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        simulate(a, b, 0)


def test_bench_combat_command_reports_boards_and_call_overhead(capsys):
    from bgsim.cli import main

    assert main(["bench", "combat", "--seconds", "0.02", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    boards = {p.stem for p in data_path("boards", "bench").glob("*.json")}
    assert set(result["combats_per_second"]) == boards
    assert all(rate > 0 for rate in result["combats_per_second"].values())
    # The total is over the fights without heroes; hero fights are listed apart.
    paths = data_path("boards", "bench").glob("*.json")
    fights = {p.stem: json.loads(p.read_text()) for p in paths}
    with_heroes = {n for n, f in fights.items() if "hero" in f["a"] or "hero" in f["b"]}
    assert with_heroes and set(result["total_boards"]) == boards - with_heroes
    rates = [result["combats_per_second"][n] for n in result["total_boards"]]
    harmonic = len(rates) / sum(1 / r for r in rates)
    assert result["total_combats_per_second"] == pytest.approx(harmonic)
    calls = result["call_us"]
    assert 0 < calls["runs_1"] < calls["runs_1000"]
    # The overhead is one per call, so it is a far smaller share of a long call.
    share = result["overhead_share"]
    assert 0 <= share["runs_1000"] <= share["runs_1"] <= 1
    assert result["overhead_us"] == pytest.approx(share["runs_1"] * calls["runs_1"])
    assert main(["bench", "combat", "--seconds", "0"]) == 2
    assert "--seconds: must be a number above 0" in capsys.readouterr().err


# --- Old Murk-Eye: a spec shows its battlefield bonus (DESIGN, Board spec) ---

MURK_EYE = {"card": "EX1_062", "attack": 2 + 3, "health": 4}  # 3 other Murlocs: +3
SCOUT = {"card": "EX1_506a"}  # Murloc Scout 1/1


def _events(result):
    return [(e.kind, e.side, e.eid, e.a, e.b) for e in result.events]


def test_murk_eye_spec_includes_the_bonus_for_murlocs_on_both_boards():
    spec_a = {"tier": 2, "minions": [MURK_EYE, SCOUT]}
    spec_b = {"tier": 2, "minions": [SCOUT, SCOUT]}
    a, b = parse_board(spec_a), parse_board(spec_b)
    assert a.shown_murk_eye == (0,) and a.displayed()[0] == (5, 4)
    # The lobby's own boards carry Murk-Eye without the bonus.
    lobby_a = Board.trusted(2, 40, (Minion.of("EX1_062"), Minion.of("EX1_506a")))
    lobby_b = Board.trusted(2, 40, (Minion.of("EX1_506a"), Minion.of("EX1_506a")))
    for seed in range(5):
        shown, built = resolve(spec_a, spec_b, seed), resolve(lobby_a, lobby_b, seed)
        assert _events(shown) == _events(built)
        assert _events(resolve(a, b, seed)) == _events(built)
    assert simulate(a, b, 500, 3).as_dict() == simulate(lobby_a, lobby_b, 500, 3).as_dict()
    # As the fight starts the engine shows the same 5 Attack.
    stats = next(e for e in resolve(a, b, 1).events if e.kind == "stats" and e.eid == 1)
    assert (stats.a, stats.b) == (5, 4)


def test_murk_eye_spec_roundtrip_and_lobby_board_with_opponent():
    spec_a = {"tier": 2, "minions": [MURK_EYE, SCOUT]}
    spec_b = {"tier": 2, "minions": [SCOUT, SCOUT]}
    a, b = parse_board(spec_a), parse_board(spec_b)
    assert parse_board(a.to_spec()) == a
    lobby_a = Board.trusted(2, 40, (Minion.of("EX1_062"), Minion.of("EX1_506a")))
    assert lobby_a.to_spec()["minions"][0]["attack"] == 2
    assert lobby_a.to_spec(b)["minions"][0]["attack"] == 5
    assert parse_board(lobby_a.to_spec(b)) == a


def test_golden_murk_eye_counts_two_per_murloc_and_omitted_attack_is_the_cards():
    spec = {"tier": 2, "minions": [{"card": "TB_BaconUps_036", "attack": 4 + 2 * 2}, SCOUT]}
    a = parse_board(spec)
    b = parse_board({"tier": 1, "minions": [SCOUT]})
    built = Board.trusted(2, 40, (Minion.of("EX1_062", golden=True), Minion.of("EX1_506a")))
    assert _events(resolve(a, b, 2)) == _events(resolve(built, b, 2))
    # No attack given: the card's own 2 Attack, nothing to take off.
    plain_spec = parse_board({"tier": 2, "minions": [{"card": "EX1_062"}, SCOUT]})
    assert plain_spec.shown_murk_eye == ()


def test_murk_eye_showing_less_than_its_bonus_is_an_error():
    low = {"tier": 2, "minions": [{**MURK_EYE, "attack": 2}, SCOUT]}
    with pytest.raises(BoardSpecError, match=r"minions\[0\]\.attack"):
        simulate(low, {"tier": 2, "minions": [SCOUT, SCOUT]}, 10, 1)


# --- No cap on Magnetic attachments or Living Spores ---


def test_any_number_of_magnets_and_spores_is_accepted():
    menaces = ("BOT_312", "TB_BaconUps_032", "BOT_312", "BOT_312", "BOT_911", "BOT_312")
    spec = {
        "tier": 6,
        "minions": [{"card": "BGS_069", "magnetic": list(menaces), "living_spores": 9}],
    }
    board = parse_board(spec)
    assert board.minions[0].magnetic == menaces and board.minions[0].living_spores == 9
    assert parse_board(board.to_spec()) == board
    # Four Menaces (or Spores) already fill the board: more change nothing.
    first_four = Minion.of("BGS_069", magnetic=menaces[:4], living_spores=4)
    enemy = Board(1, 40, (Minion.of("EX1_506a", attack=50, health=50),))
    assert _events(resolve(board, enemy, 4)) == _events(
        resolve(Board(6, 40, (first_four,)), enemy, 4)
    )
    summons = [e for e in resolve(board, enemy, 4).events if e.kind == "summon"]
    assert len(summons) == 7


def test_the_boards_helpers_refuse_what_is_not_a_board_or_a_number():
    wolf = Board(tier=1, health=40, minions=(Minion.of("CFM_315"),))
    for stats in ((float("inf"), 1), ("7", 1), (2.7, 1), (1, None)):
        with pytest.raises(TypeError, match="stats must be integers"):
            wolf.minions[0].with_stats(*stats)
    with pytest.raises(TypeError, match="opponent must be a Board, got 3"):
        wolf.to_spec(opponent=3)
    with pytest.raises(TypeError, match="opponent must be a Board"):
        wolf.murk_eye_bonus(None)
    odds = simulate(wolf, Board(1, 40), runs=10)
    for qs in ((2.0,), (-1,), (True,), ("half",)):
        with pytest.raises(ValueError, match=r"percentiles must be numbers 0\.\.1"):
            odds.damage_percentiles(qs)
    with pytest.raises(TypeError, match="tribes must be a collection of tribe names"):
        from combat_c import tribe_mask

        tribe_mask("beast")
