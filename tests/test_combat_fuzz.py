"""Fuzz the combat engine through its public Python API with valid but extreme
boards (stats at the limits, every keyword, many Magnetic cards and Living
Spores, extreme hero health, seeds and tribe masks), and with what the
unchecked constructors must still refuse before anything reaches C.

The cases come from one seeded generator, so a failure names a case that can
be run again. The sanitizer test runs this module under ASan and UBSan, where
a write past a buffer or a signed overflow aborts. ``BGSIM_FUZZ_CASES`` runs
more cases (the default keeps this to a few seconds).
"""

from __future__ import annotations

import os
import random

import pytest

from combat_c import CARD_IDS, CARDS, MAX_RUNS, Board, BoardSpecError, Minion, resolve, simulate
from combat_c.board import MAX_STAT

MINIONS = [c for c in CARDS if not c.is_spell]
MECHS = [c for c in MINIONS if "mech" in c.tribes]
MAGNETS = ("BOT_312", "BOT_911")
KEYWORDS = ("taunt", "divine_shield", "poisonous", "windfury", "mega_windfury", "reborn")
CASES = int(os.environ.get("BGSIM_FUZZ_CASES", "300"))
SEED = 20261125


def _stat(rng: random.Random, low: int) -> int:
    return rng.choice((low, low + 1, MAX_STAT, MAX_STAT - 1, rng.randint(low, MAX_STAT)))


def _minion(rng: random.Random) -> Minion:
    card = rng.choice(MECHS if rng.random() < 0.2 else MINIONS)
    magnetic = tuple(rng.choice(MAGNETS) for _ in range(rng.choice((0, 1, 4, 12))))
    return Minion(
        card=card.id,
        golden=card.golden_id is not None and rng.random() < 0.5,
        attack=_stat(rng, 0),
        health=_stat(rng, 1),
        magnetic=magnetic if "mech" in card.tribes else (),
        living_spores=rng.choice((0, 1, 4, 50, MAX_STAT)),
        **{k: rng.random() < 0.5 for k in KEYWORDS},
    )


def _board(rng: random.Random) -> Board:
    return Board(
        tier=rng.randint(1, 6),
        health=rng.choice((-MAX_STAT, 0, 1, MAX_STAT, rng.randint(-MAX_STAT, MAX_STAT))),
        minions=tuple(_minion(rng) for _ in range(rng.choice((0, 1, 7, 7, rng.randint(0, 7))))),
    )


def test_extreme_boards_fight_to_a_possible_result():
    rng = random.Random(SEED)
    for case in range(CASES):
        a, b = _board(rng), _board(rng)
        runs = rng.choice((1, 2, 17))
        seed = rng.choice((0, -1, 2**64 - 1, 2**200, rng.getrandbits(64)))
        tribes = rng.randint(0, 127)
        odds = simulate(a, b, runs, seed, tribes)
        assert odds.wins + odds.ties + odds.losses == odds.runs == runs, case
        assert sum(odds.damage_dealt) == odds.wins and sum(odds.damage_taken) == odds.losses
        assert odds.mean_damage_dealt >= 0 and odds.mean_damage_taken >= 0
        fight = resolve(a, b, seed, tribes)
        assert fight.winner in (-1, 0, 1) and fight.damage >= 0, case
        assert 0 <= fight.survivors[0] <= 7 and 0 <= fight.survivors[1] <= 7
        assert fight.events[0].kind == "start" and fight.events[-1].kind == "end"
        assert resolve(a, b, seed, tribes) == fight  # the same seed, the same fight


def test_the_unchecked_constructors_cannot_reach_past_the_engines_buffers():
    """``Board.trusted``/``Minion.trusted`` skip the Python checks; packing
    checks sizes and ranges itself, so any call is a BoardSpecError at worst."""
    rng = random.Random(SEED + 1)
    plain = Minion.of("CFM_315")
    for case in range(CASES):
        n = rng.choice((8, 9, 20, 1000))
        with pytest.raises(BoardSpecError, match="at most 7"):
            simulate(Board.trusted(1, 40, (plain,) * n), Board.trusted(1, 40, ()), 1)
        bad = Minion.trusted(
            rng.choice(("CFM_315", "NOPE_1", "BOT_606")),
            rng.choice((-1, 2**31, 2**40, 5)),
            rng.choice((0, -5, 2**33, 3)),
            False,
            False,
            False,
            False,
            False,
            False,
            False,
            tuple(rng.choice(("BOT_312", "XX")) for _ in range(rng.randint(0, 6))),
            rng.choice((0, 2**70)),
            packed=rng.choice((None, b"", b"\xff" * rng.randint(1, 400))),
        )
        given = bad._packed
        tier = rng.randint(-3, 9)
        try:
            simulate(Board.trusted(tier, 40, (bad,)), Board.trusted(1, 40, ()), 1)
        except BoardSpecError:
            continue
        # Accepted: then every value was one the checked constructors allow too.
        assert given is None and 1 <= tier <= 6, case
        assert bad.card in CARD_IDS and 0 <= bad.attack <= MAX_STAT and bad.health >= 1
        assert all(m == "BOT_312" for m in bad.magnetic)


def test_runs_are_bounded_and_a_long_call_gives_the_same_odds_in_parts():
    a = Board(tier=3, health=30, minions=(Minion.of("BOT_606"), Minion.of("CFM_315")))
    b = Board(tier=3, health=30, minions=(Minion.of("BGS_004"), Minion.of("EX1_531")))
    for runs in (0, -1, MAX_RUNS + 1, 2**63, 1.5, True):
        with pytest.raises(ValueError, match="runs must be an integer"):
            simulate(a, b, runs)
    import combat_c.combat as engine

    parted = simulate(a, b, engine.PART_RUNS * 2 + 5, seed=9)
    whole = engine.PART_RUNS
    try:
        engine.PART_RUNS = MAX_RUNS  # one C call
        single = simulate(a, b, whole * 2 + 5, seed=9)
    finally:
        engine.PART_RUNS = whole
    assert (parted.wins, parted.ties, parted.losses) == (single.wins, single.ties, single.losses)
    assert parted.damage_dealt == single.damage_dealt
    assert parted.damage_taken == single.damage_taken
