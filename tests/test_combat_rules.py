"""The rules of a fight: attack order, targets, keywords, deaths, damage, end."""

import pytest
from combat_helpers import Fight, m, plain, view

from combat_c import Board, resolve


def test_more_minions_attacks_first():
    for seed in range(10):
        f = Fight([plain(1, 5), plain(1, 5)], [plain(1, 5)], seed=seed)
        assert f.events[0].kind == "start" and f.events[0].side == 0


def test_equal_counts_pick_first_attacker_at_random():
    firsts = {Fight([plain(1, 5)], [plain(1, 5)], seed=s).events[0].side for s in range(40)}
    assert firsts == {0, 1}


def test_sides_alternate_left_to_right_and_wrap():
    a = [plain(1, 50), plain(1, 50), plain(1, 50)]
    b = [plain(1, 50, taunt=True), plain(0, 50)]
    f = Fight(a, b)
    a_attackers = [ev.eid for ev in f.events if ev.kind == "attack" and ev.side == 0][:7]
    assert a_attackers == [1, 2, 3, 1, 2, 3, 1]
    sides = [ev.side for ev in f.events if ev.kind == "attack"][:10]
    assert sides == [0, 1] * 5


def test_zero_attack_minions_do_not_attack():
    f = Fight([plain(0, 5), plain(2, 50)], [plain(1, 50)])
    assert all(ev.eid == 2 for ev in f.events if ev.kind == "attack" and ev.side == 0)


def test_neither_side_can_attack_is_a_tie():
    f = Fight([plain(0, 5)], [plain(0, 5)])
    assert f.result.winner == -1 and f.result.damage == 0


def test_tokens_of_a_dying_attacker_attack_next():
    a = [m("Mechano-Egg", attack=2, health=1), plain(1, 50)]
    f = Fight(a, [plain(1, 90)])
    robosaur = next(ev.eid for ev in f.events if ev.kind == "summon")
    order = [ev.eid for ev in f.events if ev.kind == "attack" and ev.side == 0]
    assert order[:2] == [1, robosaur]


def test_tokens_of_a_minion_that_attacked_earlier_wait_for_the_next_cycle():
    # The Egg attacks, then a Plant; b kills the Egg on its second attack. The
    # Robosaur waits until the other Plant has attacked, then leads the new cycle.
    egg = m("Mechano-Egg", attack=1, health=12, taunt=True)
    f = Fight([egg, plain(1, 50), plain(1, 50)], [plain(5, 99)])
    robosaur = next(ev.eid for ev in f.events if ev.kind == "summon")
    order = [ev.eid for ev in f.events if ev.kind == "attack" and ev.side == 0]
    assert order[:4] == [1, 2, 3, robosaur]


def test_windfury_attacks_twice_in_a_row():
    f = Fight([m("Crackling Cyclone", divine_shield=False, health=50)], [plain(1, 200)])
    sides = "".join(str(ev.side) for ev in f.events if ev.kind == "attack")
    assert "00" in sides and "000" not in sides


def test_divine_shield_absorbs_one_hit_and_blocks_poison():
    f = Fight([plain(3, 10, divine_shield=True)], [plain(5, 1, poisonous=True)], seed=1)
    a, _ = f.settled("attack")
    assert view(a) == [("Plant", 3, 10)] and not a[0].has("divine_shield")


def test_poisonous_kills_whatever_it_damages():
    f = Fight([plain(1, 1, poisonous=True)], [plain(0, 1000)])
    assert f.result.winner == 0


def test_reborn_returns_after_deathrattles_with_one_health():
    golem = m("Harvest Golem", attack=0, health=1, taunt=True, reborn=True)
    f = Fight([golem], [plain(1, 90)])
    a, _ = f.settled("death", "Harvest Golem")
    assert view(a) == [("Damaged Golem", 2, 1), ("Harvest Golem", 2, 1)]
    assert not a[1].has("reborn")


def test_a_reborn_minion_is_damaged_not_smaller():
    # Reborn brings the Gambler back with 1 Health but its card's maximum (3):
    # under the Captain's aura it is 4/2, and when the Captain dies it keeps 2.
    gambler = m("Freedealing Gambler", taunt=True, reborn=True)
    captain = m("Southsea Captain", taunt=True)
    f = Fight([gambler, captain], [plain(10, 80)])
    a, _ = f.settled("death", "Southsea Captain")
    assert view(a) == [("Freedealing Gambler", 3, 2)]


def test_summons_stop_at_seven():
    a = [m("Rat Pack", attack=9, health=1, taunt=True)] + [plain(0, 9)] * 5
    f = Fight(a, [plain(1, 90)])
    a, _ = f.settled("trigger", "Rat Pack")
    assert len(a) == 7 and sum(u[0] == "Rat" for u in view(a)) == 2


def test_losing_a_health_aura_never_kills_a_damaged_minion():
    # The pirate is 1/3 under the Captain's aura. Foe Reaper's hit (2) leaves it
    # at 1 health and its cleave kills the Captain: the pirate drops to a maximum
    # of 2 and keeps its 1 health.
    pirate = m("Sky Pirate", attack=0, health=2, taunt=True)
    captain = m("Southsea Captain", attack=0, health=1)
    f = Fight([pirate, captain], [m("Foe Reaper 4000", attack=2), plain(0, 1), plain(0, 1)])
    a, _ = f.settled("attack")
    assert view(a) == [("Sky Pirate", 0, 1)]


def test_damage_is_tier_plus_surviving_tiers():
    a = Board(4, 40, (m("Kaboom Bot"), m("Micro Machine"), plain(5, 99)))
    b = Board(2, 40, (plain(1, 1),))
    result = resolve(a, b, 0)
    assert result.winner == 0
    assert result.damage == 4 + 2 + 1 + 1  # tier, Kaboom Bot (2), Micro Machine (1), token (1)


def test_golden_minions_count_their_normal_tier():
    a = Board(1, 40, (m("Kaboom Bot", golden=True),))
    result = resolve(a, Board(1, 40, ()), 0)
    assert result.damage == 1 + 2


def test_start_of_combat_alternates_starting_with_first_attacker():
    a = [m("Red Whelp"), m("Red Whelp"), plain(0, 5)]
    b = [m("Red Whelp"), plain(0, 50)]
    f = Fight(a, b)
    sides = [ev.side for ev in f.events if ev.kind == "trigger" and ev.a == 2]
    assert sides == [0, 1, 0]


def test_deathrattles_before_reborn_and_deaths_left_to_right():
    a = [m("Kindly Grandmother", attack=0, health=1), m("Harvest Golem", attack=0, health=1)]
    f = Fight(a, [m("Foe Reaper 4000", attack=1, health=90)])
    triggers = [ev.card for ev in f.events if ev.kind == "trigger" and ev.a == 1]
    if len(triggers) >= 2:
        assert triggers[:2] == ["KAR_005", "EX1_556"]


@pytest.mark.parametrize("seed", range(5))
def test_attack_cap_ends_in_a_tie(seed):
    a = Board(1, 40, (plain(1, 10**6),))
    b = Board(1, 40, (plain(1, 10**6),))
    result = resolve(a, b, seed)
    assert result.winner == -1 and result.attacks == 400


# --- The attack pointer (hearthstone.wiki.gg/wiki/Battlegrounds#Combat: each
# side's minions attack in turn from left to right; the pointer moves on past
# every minion left of the one that just attacked) ---


def test_zero_attack_minion_buffed_mid_cycle_waits_for_the_next_cycle():
    # A's Plant (eid 2) attacks first and the pointer passes the 0-Attack Egg.
    # b kills the golden Spawn of N'Zoth, which gives the Egg +2/+2; the Egg
    # attacks only once the other Plant has, as the next cycle starts.
    egg = m("Mechano-Egg", attack=0, health=40)
    spawn = m("Spawn of N'Zoth", golden=True, attack=1, health=1, taunt=True)
    f = Fight([egg, plain(1, 50), plain(1, 50), spawn], [plain(1, 999)])
    order = [ev.eid for ev in f.events if ev.kind == "attack" and ev.side == 0]
    assert order[:4] == [2, 3, 1, 2]


def test_tokens_summoned_left_of_the_pointer_wait_for_the_next_cycle():
    # The Egg never attacks (0 Attack); once the first Plant has attacked it is
    # left of the pointer, so its Robosaur waits for the next cycle.
    egg = m("Mechano-Egg", attack=0, health=1, taunt=True)
    f = Fight([egg, plain(1, 50), plain(1, 50), plain(1, 50)], [plain(1, 999)])
    robosaur = next(ev.eid for ev in f.events if ev.kind == "summon")
    order = [ev.eid for ev in f.events if ev.kind == "attack" and ev.side == 0]
    assert order[:4] == [2, 3, 4, robosaur]


def test_tokens_summoned_at_or_right_of_the_pointer_attack_in_this_cycle():
    egg = m("Mechano-Egg", attack=0, health=1, taunt=True)
    f = Fight([plain(1, 50), egg, plain(1, 50)], [plain(1, 999)])
    robosaur = next(ev.eid for ev in f.events if ev.kind == "summon")
    order = [ev.eid for ev in f.events if ev.kind == "attack" and ev.side == 0]
    assert order[:3] == [1, robosaur, 3]


# --- Start of Combat ---


def test_start_of_combat_deaths_resolve_before_the_next_effect():
    # The first Whelp kills the Grandmother; her Big Bad Wolf arrives before
    # the second Whelp fires, which then kills it (2 damage each).
    a = [m("Red Whelp"), m("Red Whelp")]
    f = Fight(a, [m("Kindly Grandmother")])
    _, b = f.before_first_attack()
    assert b == ()
    kinds = [ev.kind for ev in f.events if ev.kind in ("trigger", "death", "summon")]
    assert kinds == ["trigger", "death", "trigger", "summon", "trigger", "death"]


def test_a_whelp_killed_by_an_earlier_start_of_combat_effect_does_not_fire():
    # b's turn comes first (more minions); its golden Whelp hits twice for 2.
    a = [m("Red Whelp", attack=1, health=2)]
    b = [m("Red Whelp", golden=True), plain(0, 50)]
    for seed in range(10):
        f = Fight(a, b, seed=seed)
        fired = [ev.side for ev in f.events if ev.trigger == "start_of_combat"]
        assert fired == [1]


def test_start_event_names_the_side_that_attacks_first():
    # b has more minions, so its turn comes first, but none of them can attack.
    f = Fight([plain(1, 5)], [plain(0, 5), plain(0, 5)])
    assert f.events[0].kind == "start" and f.events[0].side == 0
    assert {ev.side for ev in f.events if ev.kind == "attack"} == {0}
    # With nothing that attacks at all it names the side whose turn came first.
    f = Fight([plain(0, 5)], [plain(0, 5), plain(0, 5)])
    assert f.events[0].side == 1 and f.result.attacks == 0
