"""One deterministic scenario per pool card whose text acts in combat.

Scenarios force every random choice (a single legal target, taunts, minion
counts that decide who attacks first) so the expected boards are exact.
"""

import re

import pytest
from combat_helpers import COVERED, ID, Fight, covers, m, plain, view

from bgsim.cards import cards
from combat_c import CARDS
from combat_c._lib import lib

GOLDEN = [False, True]


def g(golden, normal, gold):
    return gold if golden else normal


# ------------------------------------------------------------------ tier 1


@covers("Acolyte of C'Thun")
def test_acolyte_taunt_and_reborn():
    f = Fight([m("Acolyte of C'Thun", attack=0), plain(0, 5)], [plain(5, 50)])
    a, _ = f.settled("death", "Acolyte of C'Thun")
    assert view(a) == [("Acolyte of C'Thun", 2, 1), ("Plant", 0, 5)]
    assert not a[0].has("reborn") and a[0].has("taunt")


@pytest.mark.parametrize("golden", GOLDEN)
@covers("Fiendish Servant")
def test_fiendish_servant_gives_its_attack(golden):
    f = Fight([m("Fiendish Servant", golden, attack=3, health=1), plain(0, 5)], [plain(1, 20)])
    a, _ = f.settled("death", g(golden, "Fiendish Servant", "Golden Fiendish Servant"))
    assert view(a) == [("Plant", g(golden, 3, 6), 5)]


@covers("Micro Mummy")
def test_micro_mummy_reborn_with_one_health():
    f = Fight([m("Micro Mummy", attack=0, taunt=True)], [plain(5, 50)])
    a, _ = f.settled("death", "Micro Mummy")
    assert view(a) == [("Micro Mummy", 1, 1)]


@pytest.mark.parametrize("golden", GOLDEN)
@covers("Murloc Tidecaller")
def test_tidecaller_grows_on_murloc_summon_in_combat(golden):
    scout = m("Murloc Scout", attack=0, taunt=True, reborn=True)
    f = Fight([m("Murloc Tidecaller", golden, attack=0, health=5), scout], [plain(1, 20)])
    a, _ = f.settled("death", "Murloc Scout")
    assert view(a) == [
        (g(golden, "Murloc Tidecaller", "Golden Murloc Tidecaller"), g(golden, 1, 2), 5),
        ("Murloc Scout", 1, 1),
    ]


@pytest.mark.parametrize("golden", GOLDEN)
@covers("Red Whelp")
def test_red_whelp_counts_dragons_at_start(golden):
    f = Fight([m("Red Whelp", golden), m("Dragonspawn Lieutenant")], [plain(0, 10)])
    _, b = f.before_first_attack()
    assert view(b) == [("Plant", 0, g(golden, 8, 6))]


@pytest.mark.parametrize("golden", GOLDEN)
@covers("Scallywag")
def test_scallywag_pirate_attacks_immediately(golden):
    f = Fight([m("Scallywag", golden, attack=0)], [plain(5, 10)])
    summon = f.index("summon", g(golden, "Sky Pirate", "Golden Sky Pirate"))
    nxt = next(ev for ev, _ in f.steps[summon + 1 :] if ev.kind == "attack")
    assert nxt.eid == f.steps[summon][0].eid
    _, b = f.final()
    assert view(b) == [("Plant", 5, g(golden, 9, 8))]


@pytest.mark.parametrize("golden", GOLDEN)
@covers("Scavenging Hyena")
def test_scavenging_hyena_grows_when_a_beast_dies(golden):
    a = [m("Scavenging Hyena", golden, attack=0, health=5), m("Tabbycat", attack=0, taunt=True)]
    f = Fight(a, [plain(1, 20)])
    a, _ = f.settled("death", "Tabbycat")
    assert view(a)[0][1:] == g(golden, (2, 6), (4, 7))


@covers("Dragonspawn Lieutenant", "Vulgar Homunculus")
def test_taunt_is_attacked_first():
    for name in ("Dragonspawn Lieutenant", "Vulgar Homunculus"):
        f = Fight([plain(0, 5), m(name, attack=0), plain(0, 5)], [plain(1, 50)])
        targets = [ev.target for ev in f.events if ev.kind == "attack"][:3]
        assert targets == [2, 2, 2], name  # eid 2 is the taunt


# ------------------------------------------------------------------ tier 2


@pytest.mark.parametrize("golden", GOLDEN)
@covers("Glyph Guardian")
def test_glyph_guardian_multiplies_attack_when_attacking(golden):
    f = Fight([m("Glyph Guardian", golden)], [plain(0, 30)])
    a, b = f.settled("attack")
    assert view(a)[0][1] == g(golden, 4, 12)
    assert view(b) == [("Plant", 0, g(golden, 26, 18))]


@pytest.mark.parametrize(
    ("card", "token", "count", "stats", "golden_stats"),
    [
        ("Harvest Golem", "Damaged Golem", 1, (2, 1), (4, 2)),
        ("Imprisoner", "Imp", 1, (1, 1), (2, 2)),
        ("Kindly Grandmother", "Big Bad Wolf", 1, (3, 2), (6, 4)),
        ("Infested Wolf", "Spider", 2, (1, 1), (2, 2)),
        ("Replicating Menace", "Microbot", 3, (1, 1), (2, 2)),
        ("Mechano-Egg", "Robosaur", 1, (8, 8), (16, 16)),
        ("Ring Matron", "Fiery Imp", 2, (3, 2), (6, 4)),
        ("Savannah Highmane", "Hyena", 2, (2, 2), (4, 4)),
        ("Voidlord", "Voidwalker", 3, (1, 3), (2, 6)),
    ],
)
@pytest.mark.parametrize("golden", GOLDEN)
@covers(
    "Harvest Golem",
    "Imprisoner",
    "Kindly Grandmother",
    "Infested Wolf",
    "Replicating Menace",
    "Mechano-Egg",
    "Ring Matron",
    "Savannah Highmane",
    "Voidlord",
)
def test_deathrattle_tokens_take_the_dead_minions_place(
    card, token, count, stats, golden_stats, golden
):
    f = Fight([m(card, golden, attack=0, health=1, taunt=True), plain(0, 9)], [plain(1, 90)])
    a, _ = f.settled("trigger", g(golden, card, "Golden " + card))
    name = g(golden, token, "Golden " + token)
    expected = [(name, *g(golden, stats, golden_stats))] * count + [("Plant", 0, 9)]
    assert view(a) == expected


@pytest.mark.parametrize("golden", GOLDEN)
@covers("Kaboom Bot")
def test_kaboom_bot_bombs(golden):
    f = Fight([m("Kaboom Bot", golden, attack=0)], [plain(2, 10)])
    _, b = f.final()
    assert view(b) == [("Plant", 2, g(golden, 6, 2))]
    assert f.result.winner == 1 and f.result.damage == 1 + 1


@pytest.mark.parametrize("golden", GOLDEN)
@covers("Murloc Warleader")
def test_murloc_warleader_aura_follows_the_board(golden):
    a = [m("Murloc Warleader", golden, attack=0, taunt=True), m("Murloc Scout", attack=0)]
    f = Fight(a, [plain(9, 20), plain(0, 1), plain(0, 1)])
    a0, _ = f.initial()
    assert view(a0)[1] == ("Murloc Scout", g(golden, 2, 4), 1)
    a1, _ = f.settled("death", g(golden, "Murloc Warleader", "Golden Murloc Warleader"))
    assert view(a1) == [("Murloc Scout", 0, 1)]


@pytest.mark.parametrize("golden", GOLDEN)
@covers("Old Murk-Eye")
def test_old_murk_eye_counts_murlocs_on_both_sides(golden):
    f = Fight([m("Old Murk-Eye", golden)], [m("Murloc Scout"), m("Murloc Scout")])
    a, _ = f.before_first_attack()
    assert view(a)[0][1] == g(golden, 2 + 2, 4 + 4)


@pytest.mark.parametrize("golden", GOLDEN)
@covers("Pack Leader", "Mama Bear")
def test_summon_buffs_for_beasts(golden):
    for card, normal, gold in (("Pack Leader", (5, 2), (7, 2)), ("Mama Bear", (7, 6), (11, 10))):
        a = [m(card, golden, attack=0, health=10), m("Kindly Grandmother", attack=0, taunt=True)]
        f = Fight(a, [plain(1, 20)])
        a, _ = f.settled("trigger", "Kindly Grandmother")
        assert view(a)[1] == ("Big Bad Wolf", *g(golden, normal, gold)), card


@pytest.mark.parametrize("golden", GOLDEN)
@covers("Selfless Hero")
def test_selfless_hero_gives_divine_shield(golden):
    a = [m("Selfless Hero", golden, attack=0, taunt=True, health=1), plain(0, 5), plain(0, 5)]
    f = Fight(a, [plain(1, 20)])
    a, _ = f.settled("trigger", g(golden, "Selfless Hero", "Golden Selfless Hero"))
    assert sum(u.has("divine_shield") for u in a) == g(golden, 1, 2)


@pytest.mark.parametrize("golden", GOLDEN)
@covers("Southsea Captain")
def test_southsea_captain_health_aura_loss(golden):
    a = [m("Southsea Captain", golden, attack=0, taunt=True), m("Sky Pirate", attack=0)]
    f = Fight(a, [plain(5, 20), plain(0, 1), plain(0, 1)])
    a0, _ = f.initial()
    assert view(a0)[1] == ("Sky Pirate", g(golden, 1, 2), g(golden, 2, 3))
    a1, _ = f.settled("death", g(golden, "Southsea Captain", "Golden Southsea Captain"))
    assert view(a1) == [("Sky Pirate", 0, 1)]


@pytest.mark.parametrize("golden", GOLDEN)
@covers("Spawn of N'Zoth")
def test_spawn_of_nzoth(golden):
    f = Fight([m("Spawn of N'Zoth", golden, attack=0, taunt=True), plain(0, 5)], [plain(2, 20)])
    a, _ = f.settled("trigger")
    assert view(a) == [("Plant", g(golden, 1, 2), g(golden, 6, 7))]


@pytest.mark.parametrize("golden", GOLDEN)
@covers("Tormented Ritualist")
def test_tormented_ritualist_buffs_neighbours_when_attacked(golden):
    a = [plain(0, 5), m("Tormented Ritualist", golden, attack=0, health=10), plain(0, 5)]
    f = Fight(a, [plain(1, 20)])
    a, _ = f.settled("attack")
    k = g(golden, 1, 2)
    assert [u[1:] for u in view(a)] == [(k, 5 + k), (0, 9), (k, 5 + k)]


@pytest.mark.parametrize("golden", GOLDEN)
@covers("Unstable Ghoul")
def test_unstable_ghoul_hits_everything(golden):
    a = [m("Unstable Ghoul", golden, attack=0, health=1), plain(0, 5)]
    f = Fight(a, [plain(1, 20), plain(1, 1)])
    a, b = f.settled("trigger")
    assert view(a) == [("Plant", 0, g(golden, 4, 3))]
    assert view(b) == [("Plant", 1, g(golden, 19, 18))]


@pytest.mark.parametrize("golden", GOLDEN)
@covers("Waxrider Togwaggle")
def test_waxrider_grows_when_a_dragon_kills(golden):
    a = [
        m("Waxrider Togwaggle", golden, attack=0, health=10),
        m("Dragonspawn Lieutenant", attack=5),
    ]
    f = Fight(a, [plain(0, 3)])
    a, _ = f.final()
    assert view(a)[0][1:] == g(golden, (2, 12), (4, 14))


@covers("Yo-Ho-Ogre")
def test_yo_ho_ogre_strikes_back_immediately():
    f = Fight([m("Yo-Ho-Ogre")], [plain(1, 10), plain(1, 10)])
    attacks = [ev for ev in f.events if ev.kind == "attack"]
    assert attacks[0].side == 1 and attacks[1].side == 0 and attacks[1].eid == 1
    assert attacks[2].side == 0  # then a's own turn, as usual after b attacked


@covers("Molten Rock", "Twilight Emissary", "Lieutenant Garr")
def test_taunt_minions_soak_attacks():
    for name in ("Molten Rock", "Twilight Emissary", "Lieutenant Garr"):
        f = Fight([plain(0, 5), m(name, attack=0, health=50)], [plain(1, 50)])
        targets = [ev.target for ev in f.events if ev.kind == "attack"][:20]
        assert targets == [2] * 20, name


# ------------------------------------------------------------------ tier 3


@pytest.mark.parametrize("golden", GOLDEN)
@covers("Arm of the Empire")
def test_arm_of_the_empire_buffs_attacked_taunt_permanently(golden):
    a = [m("Arm of the Empire", golden, attack=0), plain(0, 10, taunt=True)]
    f = Fight(a, [plain(1, 20)])
    a, _ = f.settled("attack")
    assert view(a)[1] == ("Plant", g(golden, 2, 4), 9)
    perm = f.result.aftermath[0].permanent
    assert perm and perm[0].index == 1 and perm[0].attack >= g(golden, 2, 4)


@pytest.mark.parametrize("golden", GOLDEN)
@covers("Barrens Blacksmith")
def test_barrens_blacksmith_frenzy_once(golden):
    a = [m("Barrens Blacksmith", golden, attack=0, health=5, taunt=True), plain(0, 5)]
    f = Fight(a, [plain(1, 20)])
    a, _ = f.final() if False else f.settled("trigger")
    k = g(golden, 2, 4)
    assert view(a)[1] == ("Plant", k, 5 + k)
    assert sum(ev.kind == "trigger" and ev.a == 4 for ev in f.events) == 1


@covers("Bronze Warden")
def test_bronze_warden_shield_then_reborn():
    f = Fight([m("Bronze Warden", attack=0)], [plain(3, 20)])
    kinds = f.kinds()
    assert kinds.index("shield") < kinds.index("death")
    a, _ = f.settled("death", "Bronze Warden")
    assert view(a) == [("Bronze Warden", 2, 1)]
    assert a[0].has("divine_shield") and not a[0].has("reborn")


@pytest.mark.parametrize("golden", GOLDEN)
@covers("Crackling Cyclone")
def test_crackling_cyclone_windfury(golden):
    cyclone = m("Crackling Cyclone", golden, attack=1, health=90, divine_shield=False)
    f = Fight([cyclone], [plain(1, 300)])
    sides = "".join(str(ev.side) for ev in f.events if ev.kind == "attack")
    runs = [r for r in sides.split("1") if r]
    assert runs and all(len(r) == g(golden, 2, 4) for r in runs[:-1])


@pytest.mark.parametrize("golden", GOLDEN)
@covers("Deflect-o-Bot")
def test_deflect_o_bot_reacts_to_mech_summons(golden):
    a = [
        m("Deflect-o-Bot", golden, attack=0, divine_shield=False),
        m("Harvest Golem", attack=0, health=1, taunt=True),
    ]
    f = Fight(a, [plain(1, 20)])
    a, _ = f.settled("trigger", "Harvest Golem")
    assert view(a)[0][1] == g(golden, 1, 2) and a[0].has("divine_shield")


@pytest.mark.parametrize("golden", GOLDEN)
@covers("Imp Gang Boss", "Security Rover")
def test_damage_summons_go_to_the_right(golden):
    for card, token, stats in (
        ("Imp Gang Boss", "Imp", (1, 1)),
        ("Security Rover", "Guard Bot", (2, 3)),
    ):
        f = Fight([m(card, golden, attack=0, health=10, taunt=True), plain(0, 5)], [plain(2, 30)])
        a, _ = f.settled("attack")
        tok = g(golden, token, "Golden " + token)
        st = g(golden, stats, (stats[0] * 2, stats[1] * 2))
        assert view(a)[1] == (tok, *st) and len(a) == 3, card


@pytest.mark.parametrize("golden", GOLDEN)
@covers("Khadgar", "Baron Rivendare")
def test_khadgar_and_baron_multiply(golden):
    for card in ("Khadgar", "Baron Rivendare"):
        a = [m(card, golden, attack=0, health=10), m("Harvest Golem", attack=0, health=1)]
        f = Fight(a, [plain(1, 30)])
        a, _ = f.settled("death", "Harvest Golem")
        golems = [u for u in view(a) if u[0] == "Damaged Golem"]
        assert len(golems) == g(golden, 2, 3), card


def test_two_khadgars_multiply():
    a = [m("Khadgar", attack=0), m("Khadgar", attack=0), m("Harvest Golem", attack=0, health=1)]
    f = Fight(a, [plain(1, 30)], seed=1)
    a, _ = f.settled("death", "Harvest Golem")
    assert sum(u[0] == "Damaged Golem" for u in view(a)) == 4


@pytest.mark.parametrize("golden", GOLDEN)
@covers("Monstrous Macaw")
def test_monstrous_macaw_triggers_a_friendly_deathrattle(golden):
    a = [m("Monstrous Macaw", golden), m("Harvest Golem", attack=0, health=10)]
    f = Fight(a, [plain(0, 30)])
    a, _ = f.settled("attack")
    assert [u[0] for u in view(a)] == [
        g(golden, "Monstrous Macaw", "Golden Monstrous Macaw"),
        "Harvest Golem",
    ] + ["Damaged Golem"] * g(golden, 1, 2)


@pytest.mark.parametrize("golden", GOLDEN)
@covers("Rat Pack")
def test_rat_pack_summons_one_rat_per_attack(golden):
    f = Fight([m("Rat Pack", golden, attack=3, health=1, taunt=True)], [plain(1, 90)])
    a, _ = f.settled("trigger")
    assert view(a) == [(g(golden, "Rat", "Golden Rat"), *g(golden, (1, 1), (2, 2)))] * 3


@pytest.mark.parametrize("golden", GOLDEN)
def test_magnetized_menace_deathrattle(golden):
    menace = g(golden, "BOT_312", "TB_BaconUps_032")
    golem = m("Harvest Golem", attack=0, health=1, magnetic=(menace,))
    f = Fight([golem], [plain(1, 90)])
    a, _ = f.settled("death", "Harvest Golem")
    micro = g(golden, "Microbot", "Golden Microbot")
    assert [u[0] for u in view(a)] == ["Damaged Golem", micro, micro, micro]


@pytest.mark.parametrize("golden", GOLDEN)
@covers("Soul Juggler")
def test_soul_juggler(golden):
    a = [m("Soul Juggler", golden, attack=0, health=10), m("Imp", attack=0, taunt=True)]
    f = Fight(a, [plain(1, 20)])
    _, b = f.settled("death", "Imp")
    assert view(b) == [("Plant", 1, g(golden, 17, 14))]


@pytest.mark.parametrize("golden", GOLDEN)
@covers("Warden of Old")
def test_warden_of_old_coins(golden):
    f = Fight([m("Warden of Old", golden, attack=0)], [plain(5, 20)])
    assert f.result.aftermath[0].hand == ("TB_BaconShop_HP_008a",) * g(golden, 1, 2)


# ------------------------------------------------------------------ tier 4


@covers("Annoy-o-Module")
def test_annoy_o_module_taunt_and_shield():
    f = Fight([plain(0, 5), m("Annoy-o-Module", attack=0)], [plain(3, 50)])
    first = next(ev for ev in f.events if ev.kind == "attack")
    assert first.target == 2 and "shield" in f.kinds()


@pytest.mark.parametrize("golden", GOLDEN)
@covers("Bigfernal")
def test_bigfernal_grows_permanently_on_demon_summon(golden):
    a = [m("Bigfernal", golden, attack=0, health=10), m("Imprisoner", attack=0, health=1)]
    f = Fight(a, [plain(1, 30)])
    a, _ = f.settled("trigger", "Imprisoner")
    k = g(golden, 1, 2)
    assert view(a)[0][1:] == (k, 10 + k)
    perm = f.result.aftermath[0].permanent
    assert perm[0].index == 0 and (perm[0].attack, perm[0].health) == (k, k)


@pytest.mark.parametrize("golden", GOLDEN)
@covers("Bolvar, Fireblood", "Drakonid Enforcer")
def test_shield_loss_triggers(golden):
    f = Fight([m("Bolvar, Fireblood", golden)], [plain(1, 40)])
    a, _ = f.settled("shield")
    assert view(a)[0][1] == g(golden, 1 + 2, 2 + 4)
    a = [
        m("Drakonid Enforcer", golden, attack=0, health=10),
        plain(0, 5, divine_shield=True, taunt=True),
    ]
    f = Fight(a, [plain(1, 40)])
    a, _ = f.settled("shield")
    k = g(golden, 2, 4)
    assert view(a)[0][1:] == (k, 10 + k)


@pytest.mark.parametrize("golden", GOLDEN)
@covers("Cave Hydra", "Foe Reaper 4000")
def test_cleave_hits_neighbours(golden):
    for card in ("Cave Hydra", "Foe Reaper 4000"):
        hydra = m(card, golden, attack=2, health=50)
        f = Fight([hydra], [plain(0, 5), plain(0, 5, taunt=True), plain(0, 5)])
        _, b = f.settled("attack")
        assert [u[2] for u in view(b)] == [3, 3, 3], card


@pytest.mark.parametrize("golden", GOLDEN)
@covers("Champion of Y'Shaarj")
def test_champion_of_yshaarj(golden):
    a = [m("Champion of Y'Shaarj", golden, attack=0), plain(0, 10, taunt=True)]
    f = Fight(a, [plain(1, 20)])
    a, _ = f.settled("attack")
    k = g(golden, 1, 2)
    assert view(a)[0][1] == k
    perm = f.result.aftermath[0].permanent
    assert any(p.index == 0 and p.attack >= k for p in perm)


@pytest.mark.parametrize("golden", GOLDEN)
@covers("Herald of Flame")
def test_herald_of_flame_overkill_chains(golden):
    b = [plain(0, 1), plain(0, 2, taunt=True), plain(0, 10)]
    f = Fight([m("Herald of Flame", golden)], b)
    _, b = f.settled("attack")
    assert view(b) == [("Plant", 0, 10 - g(golden, 3, 6))]


@pytest.mark.parametrize("golden", GOLDEN)
@covers("Junkbot")
def test_junkbot(golden):
    a = [m("Junkbot", golden, attack=0, health=5), m("Microbot", attack=0, taunt=True)]
    f = Fight(a, [plain(1, 20)])
    a, _ = f.settled("death", "Microbot")
    k = g(golden, 2, 4)
    assert view(a)[0][1:] == (k, 5 + k)


@pytest.mark.parametrize("golden", GOLDEN)
@covers("Qiraji Harbinger")
def test_qiraji_harbinger_buffs_neighbours_of_dead_taunt(golden):
    a = [plain(0, 5), plain(0, 1, taunt=True), plain(0, 5), m("Qiraji Harbinger", golden, attack=0)]
    f = Fight(a, [plain(1, 20)])
    a, _ = f.settled("death")
    k = g(golden, 2, 4)
    assert [u[1:] for u in view(a)][:2] == [(k, 5 + k), (k, 5 + k)]


@pytest.mark.parametrize("golden", GOLDEN)
@covers("Ripsnarl Captain", "Dread Admiral Eliza")
def test_pirate_attack_triggers(golden):
    a = [m("Ripsnarl Captain", golden, attack=0, health=10), m("Sky Pirate")]
    f = Fight(a, [plain(0, 20)])
    _, b = f.settled("attack")
    assert view(b) == [("Plant", 0, 20 - g(golden, 3, 5))]
    a = [m("Dread Admiral Eliza", golden, attack=0, health=10), m("Sky Pirate")]
    f = Fight(a, [plain(0, 20)])
    a, b = f.settled("attack")
    assert view(a)[0][1:] == g(golden, (2, 11), (4, 12))
    assert view(b) == [("Plant", 0, 20 - g(golden, 3, 5))]


@pytest.mark.parametrize("golden", GOLDEN)
@covers("Siegebreaker", "Mal'Ganis")
def test_demon_auras(golden):
    for card, normal, gold in (("Siegebreaker", (1, 1), (2, 1)), ("Mal'Ganis", (2, 3), (4, 5))):
        a = [m(card, golden, attack=0, taunt=True, health=1), m("Imp", attack=0)]
        f = Fight(a, [plain(5, 20), plain(0, 1), plain(0, 1)])
        a0, _ = f.initial()
        assert view(a0)[1][1:] == g(golden, normal, gold), card
        a1, _ = f.settled("death", g(golden, card, "Golden " + card))
        assert view(a1) == [("Imp", 0, 1)]


@pytest.mark.parametrize("golden", GOLDEN)
@covers("Wildfire Elemental")
def test_wildfire_elemental_spills_excess(golden):
    b = [plain(0, 5), plain(0, 2, taunt=True), plain(0, 5)]
    f = Fight([m("Wildfire Elemental", golden)], b)
    _, b = f.settled("attack")
    assert len(b) == g(golden, 1, 0)


# ------------------------------------------------------------------ tier 5


@covers("Deadly Spore", "Maexxna")
def test_poisonous_destroys_and_shield_blocks_it():
    for card in ("Deadly Spore", "Maexxna"):
        f = Fight([m(card)], [plain(0, 99)])
        assert f.result.winner == 0, card
        f = Fight([m(card)], [plain(0, 99, divine_shield=True)])
        _, b = f.settled("attack")
        assert view(b) == [("Plant", 0, 99)] and not b[0].has("divine_shield")


@pytest.mark.parametrize("golden", GOLDEN)
@covers("Ironhide Direhorn")
def test_ironhide_direhorn_overkill_runt(golden):
    f = Fight([m("Ironhide Direhorn", golden)], [plain(0, 2), plain(0, 2)])
    a, _ = f.settled("attack")
    runt = g(golden, "Ironhide Runt", "Golden Ironhide Runt")
    assert view(a)[1] == (runt, *g(golden, (5, 5), (10, 10)))


@pytest.mark.parametrize("golden", GOLDEN)
@covers("King Bagurgle")
def test_king_bagurgle_deathrattle(golden):
    a = [m("King Bagurgle", golden, attack=0, health=1, taunt=True), m("Murloc Scout", attack=0)]
    f = Fight(a, [plain(1, 20)])
    a, _ = f.settled("trigger")
    k = g(golden, 2, 4)
    assert view(a) == [("Murloc Scout", k, 1 + k)]


@pytest.mark.parametrize("golden", GOLDEN)
@covers("Nat Pagle, Extreme Angler")
def test_nat_pagle_adds_minions_of_its_tier(golden):
    f = Fight([m("Nat Pagle, Extreme Angler", golden)], [plain(0, 1)], tiers=(2, 1))
    hand = f.result.aftermath[0].hand
    assert len(hand) == g(golden, 1, 2)
    assert all(cards()[c].in_pool and cards()[c].tier <= 2 for c in hand)


@pytest.mark.parametrize("golden", GOLDEN)
@covers("Seabreaker Goliath")
def test_seabreaker_goliath_overkill_on_each_attack(golden):
    a = [m("Seabreaker Goliath", golden), m("Sky Pirate", attack=0)]
    f = Fight(a, [plain(0, 1), plain(0, 1)])
    a, _ = f.final()
    k = g(golden, 2, 4)
    assert view(a)[1] == ("Sky Pirate", 2 * k, 1 + 2 * k)


def _summoned(f):
    return [ev for ev in f.events if ev.kind == "summon"]


@pytest.mark.parametrize("golden", GOLDEN)
@covers("Sneed's Old Shredder", "Ghastcoiler", "The Tide Razor")
def test_random_summons_come_from_the_right_pool(golden):
    cases = (
        ("Sneed's Old Shredder", 1, lambda c: c.legendary and c.name != "Sneed's Old Shredder"),
        ("Ghastcoiler", 2, lambda c: "deathrattle" in c.keywords and c.name != "Ghastcoiler"),
        ("The Tide Razor", 3, lambda c: "pirate" in c.tribes),
    )
    for card, count, ok in cases:
        for seed in range(5):
            f = Fight([m(card, golden, attack=0, health=1, taunt=True)], [plain(1, 90)], seed=seed)
            made = [cards()[ev.card] for ev in _summoned(f)]
            first = made[: g(golden, count, 2 * count)]
            assert len(first) == g(golden, count, 2 * count), card
            assert all(c.in_pool and not c.golden and ok(c) for c in first), card


def test_random_summons_stay_in_the_lobby_tribes():
    from combat_c import tribe_mask

    mask = tribe_mask(["beast", "mech", "murloc", "demon", "elemental"])
    for seed in range(20):
        f = Fight([m("Ghastcoiler", attack=0, health=1)], [plain(1, 90)], seed=seed, tribes=mask)
        for ev in _summoned(f)[:2]:
            tribes = cards()[ev.card].tribes
            assert not tribes or tribes & {"beast", "mech", "murloc", "demon", "elemental"}


@pytest.mark.parametrize("golden", GOLDEN)
@covers("Gentle Djinni")
def test_gentle_djinni_summons_and_copies_an_elemental(golden):
    f = Fight([m("Gentle Djinni", golden, attack=0, health=1)], [plain(1, 90)])
    made = [ev.card for ev in _summoned(f)][: g(golden, 1, 2)]
    assert all("elemental" in cards()[c].tribes and c != "BGS_121" for c in made)
    assert f.result.aftermath[0].hand == tuple(made)


@pytest.mark.parametrize("golden", GOLDEN)
@covers("Imp Mama")
def test_imp_mama_summons_taunting_demons(golden):
    f = Fight([m("Imp Mama", golden, attack=0, health=30)], [plain(1, 90)])
    a, _ = f.settled("attack")
    summoned = a[1:]
    assert len(summoned) == g(golden, 1, 2)
    assert all(u.has("taunt") and "demon" in cards()[u.card].tribes for u in summoned)
    assert all(cards()[u.card].name != "Imp Mama" for u in summoned)


@pytest.mark.parametrize("golden", GOLDEN)
@covers("Goldrinn, the Great Wolf")
def test_goldrinn(golden):
    a = [
        m("Goldrinn, the Great Wolf", golden, attack=0, health=1, taunt=True),
        m("Tabbycat", attack=0),
    ]
    f = Fight(a, [plain(1, 90)])
    a, _ = f.settled("trigger")
    k = g(golden, 5, 10)
    assert view(a) == [("Tabbycat", k, 1 + k)]


@pytest.mark.parametrize("golden", GOLDEN)
@covers("Kangor's Apprentice")
def test_kangors_apprentice_resummons_dead_mechs(golden):
    kangor = g(golden, "Kangor's Apprentice", "Golden Kangor's Apprentice")
    for mech, expected in (("Microbot", ("Microbot", 1, 1)), ("Damaged Golem", None)):
        first = m(mech, attack=0, taunt=True, golden=expected is None)
        f = Fight([first, m("Kangor's Apprentice", golden, attack=0, health=1)], [plain(1, 90)])
        a, _ = f.settled("trigger", kangor)
        assert view(a) == [expected or ("Golden Damaged Golem", 4, 2)]


@pytest.mark.parametrize("golden", GOLDEN)
@covers("Nadina the Red")
def test_nadina_shields_dragons(golden):
    a = [
        m("Nadina the Red", golden, attack=0, health=1),
        m("Dragonspawn Lieutenant", attack=0, taunt=False),
    ]
    f = Fight(a, [plain(1, 90)], seed=3)
    a, _ = f.settled("trigger")
    assert a[0].has("divine_shield")


@pytest.mark.parametrize("golden", GOLDEN)
@covers("Zapp Slywick")
def test_zapp_hits_the_lowest_attack_ignoring_taunt(golden):
    b = [plain(5, 10, taunt=True), plain(1, 10), plain(3, 10)]
    f = Fight([m("Zapp Slywick", golden)], b)
    zapp = [ev for ev in f.events if ev.kind == "attack" and ev.side == 0]
    assert zapp[0].target == 3


def test_living_spores_plants():
    f = Fight([m("Amalgadon", attack=0, health=1, living_spores=1)], [plain(1, 90)])
    a, _ = f.settled("death", "Amalgadon")
    assert view(a) == [("Plant", 1, 1), ("Plant", 1, 1)]


# ---------------------------------------------------------------- coverage

COMBAT_TEXT = re.compile(
    r"Deathrattle|Start of Combat|Overkill|Frenzy|attacks|attacked|takes damage|dies"
    r"|Whenever you summon|summon a Demon|loses Divine Shield|kills|Your other|Has \+1 Attack"
    r"|trigger their|summon twice|Also damages|Reborn|Taunt|Divine Shield|Poisonous|Windfury"
    r"|Immune"
)
# Text that mentions a combat word but acts only while recruiting.
RECRUIT_ONLY = {ID["Rabid Saurolisk"]}


def combat_cards():
    out = []
    for card in cards().pool:
        text = card.text.split("Battlecry:")[0] if "Battlecry:" in card.text else card.text
        if card.id in RECRUIT_ONLY or not COMBAT_TEXT.search(text):
            continue
        out.append(card)
    return out


def test_every_combat_card_has_an_implementation():
    missing = []
    for card in combat_cards():
        index = next(c.index for c in CARDS if c.id == card.id)
        keyword_only = re.fullmatch(
            r"(?:(?:Taunt|Divine Shield|Reborn|Poisonous|Windfury|Magnetic|Charge)\.?\s*)+",
            card.text,
        )
        if not lib.bg_card_hooks(index) and not keyword_only and card.id not in KEYWORD_CARDS:
            missing.append(card.name)
    assert not missing, f"combat text without an implementation: {missing}"


KEYWORD_CARDS = {
    ID["Vulgar Homunculus"],  # Taunt; its battlecry is a recruit effect
    ID["Twilight Emissary"],
    ID["Molten Rock"],
    ID["Lieutenant Garr"],
    ID["Micro Mummy"],  # Reborn; its end-of-turn text is a recruit effect
    ID["Replicating Menace"],
    ID["Mal'Ganis"],
}


def test_every_combat_card_has_a_scenario():
    missing = sorted(c.name for c in combat_cards() if c.id not in COVERED)
    assert not missing, f"combat cards without a scenario test: {missing}"
