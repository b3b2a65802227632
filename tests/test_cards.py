"""The committed card data: pool, goldens and tokens of build 77662."""

import re
from collections import Counter

import pytest

from bgsim.cards import TRIBES, UnknownCardError, cards


def test_pool_size_and_tiers():
    db = cards()
    assert len(db.pool) == 127
    assert len({c.id for c in db.pool}) == 127
    tiers = Counter(c.tier for c in db.pool)
    assert [tiers[t] for t in range(1, 7)] == [17, 23, 27, 24, 21, 15]


def test_tidecaller_kept_once():
    ids = {c.id for c in cards().pool}
    assert "EX1_509" in ids
    assert "VAN_EX1_509" not in ids


def test_tribe_counts():
    counts = Counter(t for c in cards().pool for t in c.tribes)
    neutral = sum(1 for c in cards().pool if not c.tribes)
    # Amalgadon counts once in every tribe.
    assert dict(counts) == {
        "beast": 15,
        "demon": 14,
        "dragon": 14,
        "elemental": 13,
        "mech": 16,
        "murloc": 11,
        "pirate": 15,
    }
    assert neutral == 35
    assert sum(counts.values()) - (len(TRIBES) - 1) + neutral == 127
    assert cards().by_name("Amalgadon").tribes == frozenset(TRIBES)


def test_every_pool_card_has_golden_with_doubled_stats():
    db = cards()
    for card in db.pool:
        golden = db.golden(card)
        assert golden is not None, card.id
        assert golden.golden and golden.normal_id == card.id
        assert (golden.attack, golden.health) == (2 * card.attack, 2 * card.health), card.name
        assert golden.tier == card.tier
        assert golden.tribes == card.tribes
        assert db.normal(golden) is card


def test_golden_keywords():
    db = cards()
    assert db.golden("BGS_022").has("mega_windfury")  # Zapp
    assert db["BGS_022"].has("windfury")
    assert db.golden("BGS_119").has("mega_windfury")  # Crackling Cyclone
    assert db["BGS_119"].keywords >= {"windfury", "divine_shield"}
    assert db["BOT_312"].keywords >= {"magnetic", "deathrattle"}
    assert db["BGS_030"].keywords >= {"battlecry", "deathrattle"}  # King Bagurgle
    assert db["EX1_062"].has("charge")
    assert db["BGS_019"].has("start_of_combat")
    assert db["BAR_073"].has("frenzy")
    assert db["TRL_232"].has("overkill")


_STATS = re.compile(r"(\d+)/(\d+)")


@pytest.mark.parametrize("golden", [False, True])
def test_tokens_referenced_by_pool_cards_are_present(golden):
    """Every 'a/b' token a pool card's text names exists with those stats."""
    db = cards()
    for card in db.pool:
        text_card = db.golden(card) if golden else card
        quoted = {(int(a), int(h)) for a, h in _STATS.findall(text_card.text)}
        made = db.created_by.get(card.id, ())
        if quoted:
            assert made, f"{card.name} creates a token but lists none"
        # A golden card with no golden token (Sellemental) makes the normal one.
        tokens = {db[(g or n) if golden else n] for n, g in made}
        for token in tokens:
            assert token.kind == "token"
        assert quoted <= {(t.attack, t.health) for t in tokens}, card.name


def test_created_cards_exist_with_goldens():
    db = cards()
    for pairs in db.created_by.values():
        for normal_id, golden_id in pairs:
            assert normal_id in db
            if golden_id is not None:
                assert db[golden_id].golden and db[golden_id].normal_id == normal_id
                assert db[normal_id].golden_id == golden_id
    assert db["TB_BaconShop_HP_008a"].name == "Gold Coin"
    assert db["TB_BaconShop_Triples_01"].name == "Triple Reward"


def test_unknown_card_is_a_clear_error():
    with pytest.raises(UnknownCardError, match="NOPE_1"):
        cards()["NOPE_1"]
