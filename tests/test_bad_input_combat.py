"""Bad input to ``bgsim combat`` and the board spec: every case is one line
naming the problem, exit code 2, and no traceback."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from cli_helpers import refused, run

from combat_c import Board, BoardSpecError, Minion, parse_board, simulate
from combat_c.guarded import MAX_FILE_BYTES, InputError, read_json, shown

ROOT = Path(__file__).resolve().parent.parent
BEASTS = ROOT / "examples" / "boards" / "beasts.json"
DEMONS = ROOT / "examples" / "boards" / "demons.json"
WOLF = {"card": "CFM_315", "attack": 1, "health": 1}


def _file(tmp_path: Path, data: bytes | str, name: str = "board.json") -> Path:
    path = tmp_path / name
    if isinstance(data, str):
        data = data.encode("utf-8")
    path.write_bytes(data)
    return path


def _spec(**changes: object) -> str:
    return json.dumps({"tier": 2, "health": 30, "minions": [WOLF], **changes})


# (file bytes, what the message must name)
BAD_FILES = {
    "latin-1": ('{"tier": 1, "name": "\xe9"}'.encode("latin-1"), "not UTF-8 text"),
    "utf-16": ('{"tier": 1}'.encode("utf-16"), "not UTF-8 text"),
    "binary": (bytes(range(256)) * 4, "not UTF-8 text"),
    "deep nesting": (b"[" * 100_000 + b"]" * 100_000, "nested deeper than"),
    "deep objects": (b'{"a":' * 5000 + b"1" + b"}" * 5000, "nested deeper than"),
    "huge integer": (b'{"tier": ' + b"7" * 5000 + b"}", "digits"),
    "huge file": (b" " * (MAX_FILE_BYTES + 1) + b"{}", "too large"),
    "NaN": (b'{"tier": NaN}', "NaN"),
    "a number past a float": (b'{"tier": 1e400}', "not valid JSON (1e400 is beyond the range"),
    "not JSON": (b"{'tier': 1}", "not valid JSON"),
    "empty": (b"", "not valid JSON"),
    "a list": (b"[1, 2]", "must be an object"),
    "unknown field": (_spec(colour="red").encode(), "colour: unknown field"),
    "no tier": (b'{"minions": []}', "tier: missing"),
    "tier 9": (_spec(tier=9).encode(), "tier: must be 1..6"),
    "tier true": (_spec(tier=True).encode(), "tier: must be an integer, got True"),
    "eight minions": (_spec(minions=[WOLF] * 8).encode(), "minions: at most 7"),
    "minions not a list": (_spec(minions={"a": 1}).encode(), "minions: must be a list"),
    "unknown card": (_spec(minions=[{"card": "NOPE_1"}]).encode(), "unknown card"),
    "unknown card name": (
        _spec(minions=[{"card": "Kabom Bot"}]).encode(),
        "unknown card 'Kabom Bot' (neither a card id nor the name of a minion); did you mean",
    ),
    "a long card name": (_spec(minions=[{"card": "x" * 100_000}]).encode(), "unknown card 'xxx"),
    "magnetic by a bad name": (
        _spec(minions=[{"card": "BOT_606", "magnetic": ["Nope"]}]).encode(),
        "magnetic[0]: unknown card",
    ),
    "card not a string": (_spec(minions=[{"card": 5}]).encode(), "card id must be a string"),
    "a spell": (_spec(minions=[{"card": "TB_BaconShop_HP_008a"}]).encode(), "not a minion"),
    "golden id, golden false": (
        _spec(minions=[{"card": "TB_BaconUps_079", "golden": False}]).encode(),
        "minions[0].golden: false contradicts the golden card",
    ),
    "float attack": (_spec(minions=[dict(WOLF, attack=1.5)]).encode(), "attack: must be an int"),
    "huge attack": (_spec(minions=[dict(WOLF, attack=10**12)]).encode(), "attack"),
    "zero health": (_spec(minions=[dict(WOLF, health=0)]).encode(), "minions[0].health"),
    "taunt as text": (_spec(minions=[dict(WOLF, taunt="yes")]).encode(), "taunt: must be true"),
    "magnetic on a beast": (
        _spec(minions=[dict(WOLF, magnetic=["BOT_312"])]).encode(),
        "is not a Mech",
    ),
    "magnetic not a list": (
        _spec(minions=[{"card": "BOT_606", "magnetic": "BOT_312"}]).encode(),
        "magnetic: must be a list",
    ),
    "spores below zero": (
        _spec(minions=[{"card": "BGS_069", "living_spores": -1}]).encode(),
        "living_spores",
    ),
    "spores as true": (
        _spec(minions=[{"card": "BGS_069", "living_spores": True}]).encode(),
        "minions[0].living_spores: must be an integer, got True",
    ),
    "spores on a non-Amalgadon": (
        _spec(minions=[{"card": "BGS_021", "living_spores": 3}]).encode(),
        "minions[0].living_spores: only Amalgadon",
    ),
    "a key given twice": (
        b'{"tier": 1, "minions": [], "tier": 2}',
        "the key 'tier' appears twice",
    ),
    "a minion key given twice": (
        b'{"tier": 1, "minions": [{"card": "BGS_069", "attack": 1, "attack": 9}]}',
        "the key 'attack' appears twice",
    ),
}


@pytest.mark.parametrize("case", sorted(BAD_FILES))
def test_a_bad_board_file_is_one_line(case, tmp_path, capsys):
    data, names = BAD_FILES[case]
    path = _file(tmp_path, data)
    refused(capsys, ("combat", path, DEMONS, "--runs", 10), str(path), names)
    with pytest.raises(BoardSpecError):
        parse_board(path)  # the Python API raises what DESIGN promises


def test_amalgadon_keeps_its_spores_golden_or_not():
    for card in ("BGS_069", "TB_BaconUps_121"):
        board = parse_board({"tier": 6, "minions": [{"card": card, "living_spores": 2}]})
        assert board.minions[0].living_spores == 2
    assert parse_board({"tier": 1, "health": 0}).health == 0  # a ghost


def test_board_files_that_cannot_be_read(tmp_path, capsys):
    refused(capsys, ("combat", tmp_path / "nope.json", DEMONS), "nope.json", "No such file")
    refused(capsys, ("combat", tmp_path, DEMONS), str(tmp_path), "cannot read")


@pytest.mark.parametrize(
    "fight, names",
    [
        ({"a": {"tier": 1}}, ("one file with 'a' and 'b'",)),
        ([1], ("one file with 'a' and 'b'",)),
        ({"a": {"tier": 1}, "b": {"tier": 0}}, ("board b", "tier: must be 1..6")),
        # a string would be read as a path (a pipe, a file anywhere): refused
        ({"a": "/etc/hostname", "b": {"tier": 1}}, ("board a: must be a board object",)),
        ({"a": {"tier": 1}, "b": '{"tier": 1}'}, ("board b: must be a board object",)),
    ],
)
def test_a_bad_fight_file_is_one_line(fight, names, tmp_path, capsys):
    path = _file(tmp_path, json.dumps(fight), "fight.json")
    refused(capsys, ("combat", path), "fight.json", *names)


@pytest.mark.parametrize(
    "option, value, names",
    [
        ("--runs", "0", ("--runs", "1..10,000,000")),
        ("--runs", "-5", ("--runs",)),
        ("--runs", str(2**63), ("--runs", "1..10,000,000")),
        ("--runs", str(10**10), ("--runs",)),
        ("--runs", "1e3", ("--runs", "expected an integer")),
        ("--runs", "9" * 5000, ("--runs", "1..10,000,000", "a 5,000-digit number")),
        ("--runs", "\n\n0\n\n", ("--runs", "1..10,000,000")),  # one line all the same
        ("--seed", "\r-1", ("--seed", "0..")),
        ("--seed", str(2**100), ("--seed", "0..9,223,372,036,854,775,807")),
        ("--seed", "-1", ("--seed",)),
        ("--seed", "x", ("--seed", "expected an integer")),
    ],
)
def test_sizes_and_seeds_out_of_bounds(option, value, names, capsys):
    refused(capsys, ("combat", BEASTS, DEMONS, option, value), *names)


def test_spec_fields_with_keys_or_numbers_of_the_wrong_kind():
    import numpy as np

    cases = [
        ({"tier": 1, 1: 2}, "1: a field name must be text"),
        ({"tier": 1, "minions": [{"card": "BGS_004", 5: 1}]}, "minions[0].5: a field name"),
        ({"tier": np.int64(1)}, "tier: must be a Python int"),
        ({"tier": 1, "minions": [{"card": "BGS_004", "attack": np.int32(3)}]}, "a Python int"),
        # another hero's power that acts in combat: only Sir Finley holds one
        ({"tier": 1, "hero": "Deathwing", "hero_power": "Swatting Insects"}, "only Sir Finley"),
        ({"tier": 1, "hero": "Al'Akir", "hero_power": "Prestidigitation"}, "only Sir Finley"),
    ]
    for spec, message in cases:
        with pytest.raises(BoardSpecError, match=re.escape(message)):
            Board.from_spec(spec)
    finley = Board.from_spec({"tier": 1, "hero": "Sir Finley Mrrgglton", "hero_power": "Wingmen"})
    tickatus = Board.from_spec({"tier": 1, "hero": "Tickatus", "hero_power": "Wingmen"})
    assert tickatus.hero_power == finley.hero_power  # Training Session swapped his
    ragnaros = {"tier": 1, "hero": "Ragnaros the Firelord", "hero_power": "TB_BaconShop_HP_087t"}
    assert finley.hero_power and Board.from_spec(ragnaros).hero_power == "TB_BaconShop_HP_087t"


def test_tribes_for_random_summons():
    from combat_c import tribe_mask

    with pytest.raises(ValueError, match="tribes is empty"):
        tribe_mask([])  # the engine would read 0 as all seven
    board = Board.from_spec({"tier": 1, "minions": [{"card": "BGS_004"}]})
    import numpy as np

    odds = simulate(board, board, runs=10, seed=1, tribes=np.int64(tribe_mask(["beast"])))
    assert odds.runs == 10


def test_the_bounds_are_in_the_help(capsys):
    code, out, _ = run(capsys, "combat", "--help")
    assert code == 0 and "1..10,000,000" in out and "2**63-1" in out


def test_a_trace_of_a_bad_board(tmp_path, capsys):
    path = _file(tmp_path, _spec(minions=[WOLF] * 9))
    refused(capsys, ("combat", path, DEMONS, "--trace"), "minions: at most 7")


def test_a_trace_is_one_fight_so_runs_do_not_go_with_it(capsys):
    for runs in ("5000", "10000"):  # the default given by hand too
        refused(capsys, ("combat", BEASTS, DEMONS, "--trace", "--runs", runs), "leave out --runs")
    assert run(capsys, "combat", BEASTS, DEMONS, "--trace")[0] == 0
    code, out, _ = run(capsys, "combat", BEASTS, DEMONS)
    assert code == 0 and out.startswith("10,000 fights of")


def test_board_text_and_paths_through_the_api(tmp_path):
    with pytest.raises(BoardSpecError, match="nested deeper"):
        parse_board("{" + '"a":{' * 200 + "}" * 201)
    with pytest.raises(BoardSpecError, match="not a usable path"):
        parse_board("bad\0path.json")
    with pytest.raises(BoardSpecError, match="cannot read"):
        parse_board("x" * 5000)  # a name too long for the file system
    with pytest.raises(BoardSpecError, match="golden: false contradicts"):
        parse_board({"tier": 1, "minions": [{"card": "TB_BaconUps_079", "golden": False}]})
    # A golden id with golden true (or left out) is golden, as before.
    board = parse_board({"tier": 1, "minions": [{"card": "TB_BaconUps_079", "golden": True}]})
    assert board.minions[0].golden


@pytest.mark.parametrize(
    "a, b, extra, names",
    [
        ([WOLF], None, (), ("--arrange needs at least two minions",)),
        ([], None, (), ("--arrange needs at least two minions",)),
        ([WOLF, WOLF], None, ("--trace",), ("--arrange and --trace do not go together",)),
        (
            [{"card": "EX1_062", "attack": 2}, {"card": "Murloc Tidehunter"}],
            [{"card": "Murloc Tidehunter"}] * 3,
            (),
            ("Old Murk-Eye shows 2 Attack, below the +4",),
        ),
        ([WOLF] * 8, None, (), ("minions: at most 7",)),
        ([WOLF, dict(WOLF, health=-1)], None, (), ("minions[1].health",)),
    ],
)
def test_arrange_with_hostile_boards(a, b, extra, names, tmp_path, capsys):
    path = _file(tmp_path, _spec(minions=a), "a.json")
    other = DEMONS if b is None else _file(tmp_path, _spec(minions=b), "b.json")
    line = refused(capsys, ("combat", path, other, "--arrange", "--runs", "20", *extra), *names)
    assert len(line) < 300


def test_arrange_on_a_full_board_is_bounded_and_repeatable(tmp_path, capsys):
    minions = [{"card": c} for c in ("BOT_606", "CFM_315", "BGS_004", "EX1_506", "BOT_312")]
    path = _file(tmp_path, _spec(minions=[*minions, WOLF, WOLF]), "full.json")
    args = ("combat", path, DEMONS, "--arrange", "--runs", "5", "--json", "--seed", 2**63 - 1)
    first = run(capsys, *args)
    assert first[0] == 0 and first == run(capsys, *args)
    found = json.loads(first[1])
    assert not found["exhaustive"] and sorted(found["order"]) == list(range(7))


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes")
def test_a_pipe_or_device_is_refused_not_waited_on(tmp_path, capsys):
    os.mkfifo(tmp_path / "pipe.json")
    refused(capsys, ("combat", tmp_path / "pipe.json", DEMONS), "pipe.json", "not a regular file")
    with pytest.raises(InputError, match=r"pipe\.json: cannot read \(not a regular file"):
        read_json(tmp_path / "pipe.json")
    # (a pipe a writer held open would block a read for as long as it lives)
    for device in ("/dev/zero", "/dev/null"):
        if os.path.exists(device):
            refused(capsys, ("combat", device, DEMONS), "not a regular file")


def test_a_path_too_long_for_the_system_is_one_short_line(tmp_path, capsys):
    long = str(tmp_path / ("x" * 5000))
    line = refused(capsys, ("combat", long, DEMONS), "cannot read", "File name too long")
    assert len(line) < 400
    line = refused(capsys, ("combat", BEASTS, long), "cannot read")
    assert len(line) < 400


def test_huge_numbers_given_to_the_api_are_named_by_size():
    big = 10**5000
    wolf = Minion.of("CFM_315")
    board = Board(1, 30, (wolf,))
    for call in (
        lambda: simulate(board, board, big, 1),
        lambda: Minion("CFM_315", big, 1),
        lambda: Board(big, 30, ()),
        lambda: Board(1, -big, ()),
        lambda: parse_board({"tier": 1, "minions": [dict(WOLF, attack=-big)]}),
    ):
        with pytest.raises((BoardSpecError, ValueError), match=r"an integer of 5,00[01] digits"):
            call()
    assert shown(big) == "an integer of 5,001 digits" and shown("x" * 100) == "'" + "x" * 39


def test_an_old_murk_eye_below_its_bonus_names_its_file(tmp_path, capsys):
    """The shown Attack is checked against both boards' Murlocs, and the
    error names the file of the board it is about."""
    murlocs = {
        "tier": 3,
        "minions": [
            {"card": "Old Murk-Eye", "attack": 2, "health": 4},
            {"card": "Murloc Tidehunter"},
            {"card": "Murloc Scout"},
            {"card": "Murloc Tidecaller"},
        ],
    }
    low = _file(tmp_path, json.dumps(murlocs), "low.json")
    for args in ((low, BEASTS), (BEASTS, low)):
        refused(capsys, ("combat", *args, "--runs", 10), str(low), "Old Murk-Eye shows 2 Attack")


def test_heroes_powers_and_secrets_by_name():
    """A spec may name its hero, power and Secrets as `bgsim heroes` lists
    them, in any case; a near miss is refused with the names it is close to."""
    by_name = parse_board(
        {
            "tier": 4,
            "hero": "the great akazamzarak",
            "secrets": ["Ice Block", "SNAKE TRAP"],
            "minions": [WOLF],
        }
    )
    by_id = parse_board(
        {
            "tier": 4,
            "hero": "TB_BaconShop_HERO_21",
            "secrets": ["TB_Bacon_Secrets_12", "TB_Bacon_Secrets_02"],
            "minions": [WOLF],
        }
    )
    assert by_name == by_id
    finley = parse_board({"tier": 1, "hero": "Sir Finley Mrrgglton", "hero_power": "Prize Wall"})
    assert finley.hero_power == "TB_BaconShop_HP_106"
    for spec, names in (
        ({"tier": 1, "hero": "Deathwin"}, ("hero: unknown hero 'Deathwin'", "Deathwing?")),
        ({"tier": 1, "hero": "The Great Akazamzarak", "secrets": ["Ice Blok"]}, ("Ice Block?",)),
    ):
        with pytest.raises(BoardSpecError) as err:
            parse_board(spec)
        assert all(n in str(err.value) for n in names), err.value


def test_short_and_golden_names_as_players_write_them():
    for short, full in (("Goldrinn", "Goldrinn, the Great Wolf"), ("baron", "Baron Rivendare")):
        assert parse_board({"tier": 6, "minions": [{"card": short}]}).minions[0].name == full
    hydra = parse_board({"tier": 4, "minions": [{"card": "Cave Hydra (golden)"}]}).minions[0]
    assert hydra.golden and (hydra.attack, hydra.health) == (4, 8)
    with pytest.raises(BoardSpecError, match="false contradicts the golden card"):
        parse_board({"tier": 4, "minions": [{"card": "Cave Hydra (golden)", "golden": False}]})
    with pytest.raises(BoardSpecError, match="did you mean Dread Admiral Eliza"):
        parse_board({"tier": 6, "minions": [{"card": "Eliza"}]})
    with pytest.raises(BoardSpecError, match="did you mean Murloc"):
        parse_board({"tier": 1, "minions": [{"card": "Murloc"}]})  # leads several names


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"secrets": "Ice Block"}, "secrets: must be a list of Secret card ids, got 'Ice Block'"),
        ({"secrets": "Ice"}, "secrets: must be a list of Secret card ids, got 'Ice'"),
        ({"secrets": None}, "secrets: must be a list of Secret card ids, got None"),
        ({"minions": None}, "minions: must be a list of Minions, got None"),
        ({"minions": "CFM_315"}, "minions: must be a list of Minions, got 'CFM_315'"),
        ({"shown_murk_eye": 5}, "shown_murk_eye: must be a list of minion slots, got 5"),
    ],
)
def test_board_fields_that_are_not_lists(changes, message):
    """Text is not split into its characters, nor None iterated: the Python
    API says what the JSON spec path says."""
    akazamzarak = "TB_BaconShop_HERO_21"
    with pytest.raises(BoardSpecError, match=re.escape(message)):
        Board(tier=3, health=30, hero=akazamzarak, **changes)
    if "secrets" in changes:
        with pytest.raises(BoardSpecError, match=re.escape(message)):
            Board(3, 30).with_hero(hero=akazamzarak, secrets=changes["secrets"])
    ice_block = Board(3, 30, hero=akazamzarak, secrets=["TB_Bacon_Secrets_12"])
    assert ice_block.secrets == ("TB_Bacon_Secrets_12",)


def test_a_fight_file_with_a_second_board(tmp_path, capsys):
    fight = {"a": json.loads(BEASTS.read_text()), "b": json.loads(DEMONS.read_text())}
    path = _file(tmp_path, json.dumps(fight), "fight.json")
    for args in ((path, DEMONS), (BEASTS, path)):
        refused(
            capsys,
            ("combat", *args, "--runs", 10),
            f"{path} is a fight file (a and b): give it alone, without a second board",
        )
    assert run(capsys, "combat", path, "--runs", 10)[0] == 0
