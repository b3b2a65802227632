import random
from collections import Counter

from tavern_helpers import RULES

from bgsim._core.minions import INFO
from bgsim._core.pool import Pool, starting_copies
from bgsim.cards import TRIBES, cards


def test_lobby_pool_has_the_lobby_types_neutrals_and_amalgadon():
    tribes = ("beast", "demon", "mech", "murloc", "pirate")
    copies = starting_copies(tribes, RULES)
    names = {INFO[c].name for c in copies}
    assert {"Alleycat", "Wrath Weaver", "Amalgadon", "Baron Rivendare"} <= names
    assert not names & {"Red Whelp", "Sellemental", "Lil' Rag"}
    for card_id, n in copies.items():
        assert n == RULES.copies(INFO[card_id].tier)
    full = starting_copies(TRIBES, RULES)
    assert set(full) == {c.id for c in cards().pool}
    assert sum(full.values()) == sum(RULES.copies(c.tier) for c in cards().pool)


def test_draw_respects_tier_and_takes_copies():
    pool = Pool(starting_copies(TRIBES, RULES))
    before = pool.counts()
    drawn = pool.draw(random.Random(1), 2, 200)
    assert len(drawn) == 200 and all(INFO[c].tier <= 2 for c in drawn)
    assert pool.counts() + Counter(drawn) == before
    pool.put(drawn)
    assert pool.counts() == before


def test_draw_is_weighted_by_copies_left():
    pool = Pool({"CFM_315": 16, "BGS_004": 1})
    drawn = Counter(pool.clone().draw(random.Random(k), 1, 1)[0] for k in range(3000))
    assert 0.9 < drawn["CFM_315"] / 3000 < 0.97


def test_draw_stops_when_empty_and_take():
    pool = Pool({"CFM_315": 2})
    assert pool.draw(random.Random(0), 1, 5) == ["CFM_315", "CFM_315"]
    assert len(pool) == 0 and not pool.take("CFM_315")
    pool.put(["CFM_315"])
    assert pool.take("CFM_315") and pool.count("CFM_315") == 0


def test_pick_distinct():
    pool = Pool({"CFM_315": 3, "BGS_004": 1, "BGS_039": 5, "EX1_556": 4})
    got = pool.pick_distinct(random.Random(3), 3, 1, 1)
    assert len(set(got)) == 3 and "EX1_556" not in got
    assert len(pool) == 13 - 3
    only = pool.pick_distinct(random.Random(3), 3, 1, 6, lambda c: c == "EX1_556")
    assert only == ["EX1_556"]


def test_clone_is_independent():
    pool = Pool({"CFM_315": 3})
    other = pool.clone()
    other.draw(random.Random(0), 1, 2)
    assert pool.count("CFM_315") == 3 and other.count("CFM_315") == 1
