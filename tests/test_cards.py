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


def test_heroes_and_their_powers():
    db = cards()
    assert len(db.heroes) == 54
    assert len({h.id for h in db.heroes}) == 54
    for hero in db.heroes:
        assert hero.type == "hero" and hero.kind == "hero" and not hero.in_pool
        assert hero.health == (55 if hero.name == "Patchwerk" else 40), hero.name
        power = db.hero_power(hero)
        assert power.type == "hero_power" and power.kind == "hero_power"
        assert power.hero == hero.id
        assert power.cost is not None and 0 <= power.cost <= 3
        assert power.text.startswith(("Hero Power", "Passive Hero Power")), power.name
        # Avalanche and DIE, INSECTS! only trigger although their text says "Hero Power".
        labelled = power.text.startswith("Passive Hero Power")
        assert power.passive == (labelled or power.name in ("Avalanche", "DIE, INSECTS!"))
    assert db.hero_power("TB_BaconShop_HERO_18").cost == 3  # Patches the Pirate
    assert db.hero_power("TB_BaconShop_HERO_91").cost == 3  # Zephrys
    assert db.hero_power("BG20_HERO_102").name == "For the Horde!"
    with pytest.raises(ValueError, match="not a hero"):
        db.hero_power("BGS_004")


def test_pool_and_lookups_ignore_hero_cards():
    db = cards()
    assert all(c.kind == "pool" for c in db.pool)
    # Same name as the Prestidigitation Secret's own buff: by_name keeps to pool and tokens.
    with pytest.raises(UnknownCardError):
        db.by_name("Competitive Spirit")
    assert db.by_name("Gold Coin").id == "TB_BaconShop_HP_008a"


def test_hero_power_created_cards_exist():
    db = cards()
    powers = {db.hero_power(h).id for h in db.heroes}
    hero_keys = {k for k in db.created_by if db[k].type == "hero_power"}
    assert hero_keys <= powers
    for key in hero_keys:
        for normal_id, golden_id in db.created_by[key]:
            assert db[normal_id].kind in ("hero_token", "token", "hero_power"), normal_id
            if golden_id is not None:
                assert db[golden_id].golden and db[golden_id].normal_id == normal_id
    assert db["TB_BaconShop_HP_105t"].golden_id == "TB_BaconUps_307"  # Fish of N'Zoth
    assert db["TB_BaconShop_HP_047t"].cost == 3  # Recruitment Map
    assert db["TB_BaconShop_HERO_59t"].hero_power == "TB_BaconShop_HP_065t2"
    assert db["TB_BaconShop_HP_087t"].hero == "TB_BaconShop_HERO_11"  # Sulfuras


def _made(db, power_id):
    return [db[n] for n, _ in db.created_by.get(power_id, ())]


def test_hero_power_texts_name_what_they_create():
    """Each card a hero power creates is named by the power's text (or by another card it
    creates), is a Secret, Darkmoon Prize or Discover the text promises, or is a hero
    power or hero the power turns into."""
    db = cards()
    for hero in db.heroes:
        power = db.hero_power(hero)
        made = _made(db, power.id)
        heroes_made = {c.id for c in made if c.type == "hero"}
        texts = " ".join([power.text] + [c.text for c in made])
        for card in made:
            words = [w.rstrip("s") for w in card.name.split() if len(w) >= 4]
            if card.type == "enchantment" or any(w in texts for w in words):
                continue
            if card.type == "hero_power":
                assert card.hero in {hero.id} | heroes_made or "Discover a Hero Power" in power.text
            elif card.type == "hero":
                assert card.hero_power in {c.id for c in made}
            elif card.secret:
                assert "Secret" in power.text or card.prize_turn, card.name
            elif card.prize_turn:
                assert "Darkmoon Prize" in power.text, card.name
            else:
                # A Discover spell (Triple Reward, Prize) stands for "minions from Tavern Tier".
                assert card.text.startswith("Discover a minion"), (power.name, card.name)
                assert "Discover" in power.text or "Tavern Tier" in power.text, power.name


def test_stats_quoted_by_hero_powers_and_secrets_exist():
    """'1/1 Fish', '1/2 Amalgam', the Secrets' '2/3 Cobra' and '1/1 Snakes' are created."""
    db = cards()
    for hero in db.heroes:
        power = db.hero_power(hero)
        made = _made(db, power.id)
        texts = [power.text] + [c.text for c in made if c.secret]
        quoted = {(int(a), int(h)) for text in texts for a, h in _STATS.findall(text)}
        made_stats = {(c.attack, c.health) for c in made if c.type == "minion"}
        assert quoted <= made_stats, power.name
