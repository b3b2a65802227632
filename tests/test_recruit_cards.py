"""Every pool card's recruit-phase text, one deterministic test or more per card.

``test_registry_matches_card_texts`` reads each pool card's text (normal and
golden) and fails for a card whose text acts in the recruit phase without a
matching implementation in ``bgsim._core.recruit_effects`` (or with one its text
does not call for); ``test_every_recruit_card_has_a_test`` fails for a card
that acts in the recruit phase but has no test here.
"""

from __future__ import annotations

import dataclasses
import re

import pytest
from tavern_helpers import RULES, SeqRng, act, full_pool, mk, st, stats

from bgsim._core import tavern
from bgsim._core.minions import (
    DIVINE_SHIELD,
    ELEMENTAL,
    GOLD_COIN,
    INFO,
    MURLOC,
    POISONOUS,
    TAUNT,
    WINDFURY,
    SpellCard,
)
from bgsim._core.recruit_effects import ADAPTS, EFFECTS, phases
from bgsim.actions import Buy, Choose, EndTurn, Play, Refresh, Sell
from bgsim.cards import cards
from bgsim.observation import Observation
from combat_c import Board

COVERED: set[str] = set()


def covers(*card_ids: str):
    COVERED.update(card_ids)

    def mark(fn):
        return fn

    return mark


def play(card, board=(), pos=-1, target=None, rng=None, pool=None, **state):
    """Play ``card`` (a MinionCard) from hand slot 0 into ``board`` at ``pos``
    (default: rightmost; None to magnetize onto ``target``)."""
    board = list(board)
    s = st(board=board, hand=[card], **state)
    return act(s, Play(0, len(board) if pos == -1 else pos, target), rng=rng, pool=pool)


def end_turn(board, rng=None, **state):
    return act(st(board=board, **state), EndTurn(), rng=rng)


def start_turn(board, **state):
    s = st(board=board, **state)
    return tavern.start_turn(s, s.turn + 1, full_pool(), SeqRng([0.0] * 50), RULES)


# ------------------------------------------------------------ coverage

PATTERNS = {
    "battlecry": r"Battlecry( and Deathrattle)?:",
    # An "after you summon" trigger also waits for a played minion's Battlecry.
    "after_play": r"After you play|Whenever you play|After you summon",
    "on_summon": r"Whenever you summon (?!a Mech during combat)|After you summon",
    "on_buy": r"After you buy",
    "on_sell": r"When you sell|sells for",
    "start_of_turn": r"start of (each|your) turn",
    "end_of_turn": r"end of your turn",
    "magnetic": r"^Magnetic",
    "battlecries": r"Battlecries trigger",
    "summons": r"summon (twice|three times) as many",
    "hero_immune": r"hero is Immune",
}
# Text acting in the recruit phase through generic code rather than a
# registry hook: cards a fight adds to hand (after_combat) and auras shown
# on the recruit screen (the combat engine's Board.displayed).
GENERIC = {
    "to_hand": r"to your hand",
    "aura": r"Your other \w+s have",
}


def text_phases(text: str) -> frozenset[str]:
    return frozenset(p for p, rx in PATTERNS.items() if re.search(rx, text, re.IGNORECASE))


def test_registry_matches_card_texts():
    db = cards()
    wrong = {}
    for card in db.pool:
        want = text_phases(card.text)
        golden = db.golden(card)
        assert golden is not None and text_phases(golden.text) == want, card.name
        if phases(card.id) != want:
            wrong[card.name] = (sorted(want), sorted(phases(card.id)))
    assert not wrong
    assert set(EFFECTS) <= {c.id for c in db.pool}


def recruit_cards() -> set[str]:
    out = set()
    for card in cards().pool:
        generic = any(re.search(rx, card.text) for rx in GENERIC.values())
        if text_phases(card.text) or generic:
            out.add(card.id)
    return out


def test_every_recruit_card_has_a_test():
    missing = sorted(cards()[c].name for c in recruit_cards() - COVERED)
    assert not missing


def test_recruit_card_list_is_what_the_texts_say():
    names = {cards()[c].name for c in recruit_cards()}
    assert {"Wrath Weaver", "Nomi, Kitchen Nightmare", "Warden of Old", "Murloc Warleader"} <= names
    assert not names & {"Red Whelp", "Deflect-o-Bot", "Kaboom Bot", "Old Murk-Eye"}


# ------------------------------------------------------------ tier 1


@covers("CFM_315")
@pytest.mark.parametrize(
    ("golden", "want"),
    [
        (False, [("CFM_315", 1, 1), ("CFM_315t", 1, 1)]),
        (True, [("TB_BaconUps_093", 2, 2), ("TB_BaconUps_093t", 2, 2)]),
    ],
)
def test_alleycat_summons_a_cat(golden, want):
    assert stats(play(mk("CFM_315", golden=golden)).board) == want


def test_alleycat_cat_goes_right_of_it_and_fails_on_a_full_board():
    s = play(mk("CFM_315"), [mk("EX1_531"), mk("BGS_039")], pos=1)
    assert [m.card for m in s.board] == ["EX1_531", "CFM_315", "CFM_315t", "BGS_039"]
    six = [mk(c) for c in ("EX1_531", "BGS_039", "YOD_026") for _ in range(2)]
    s = play(mk("CFM_315"), six)
    assert [m.card for m in s.board] == [m.card for m in six] + ["CFM_315"]


@covers("BGS_055")
@pytest.mark.parametrize(("golden", "cost"), [(False, 6), (True, 5)])
def test_deck_swabbie_discounts_the_upgrade(golden, cost):
    s = play(mk("BGS_055", golden=golden), tier=2)
    assert s.upgrade_cost == cost  # tier 3 costs 7


def test_deck_swabbie_never_below_zero_and_not_at_tier_6():
    assert play(mk("BGS_055"), tier=2, upgrade_cost=0).upgrade_cost == 0
    assert play(mk("BGS_055"), tier=6).upgrade_cost == 0


@covers("BGS_027")
@pytest.mark.parametrize(("golden", "want"), [(False, (2, 2)), (True, (4, 4))])
def test_micro_machine_gains_attack_each_turn(golden, want):
    s = start_turn([mk("BGS_027", golden=golden)])
    assert (s.board[0].attack, s.board[0].health) == want


@covers("ULD_217")
@pytest.mark.parametrize(("golden", "gain"), [(False, 1), (True, 2)])
def test_micro_mummy_buffs_another_minion(golden, gain):
    s = end_turn([mk("ULD_217", golden=golden), mk("EX1_531")])
    assert stats(s.board)[1] == ("EX1_531", 2 + gain, 2)
    alone = end_turn([mk("ULD_217", golden=golden)])
    assert alone.board[0].attack == (2 if golden else 1)


@covers("EX1_509")
@pytest.mark.parametrize(("golden", "attack"), [(False, 3), (True, 6)])
def test_murloc_tidecaller_grows_for_every_murloc_summoned(golden, attack):
    # Murloc Tidehunter and its Murloc Scout: two summons
    s = play(mk("EX1_506"), [mk("EX1_509", golden=golden)])
    assert s.board[0].attack == attack
    beast = play(mk("EX1_531"), [mk("EX1_509", golden=golden)])
    assert beast.board[0].attack == (2 if golden else 1)


@covers("EX1_506")
@pytest.mark.parametrize(
    ("golden", "want"),
    [
        (False, [("EX1_506", 2, 1), ("EX1_506a", 1, 1)]),
        (True, [("TB_BaconUps_003", 4, 2), ("TB_BaconUps_003t", 2, 2)]),
    ],
)
def test_murloc_tidehunter_summons_a_scout(golden, want):
    assert stats(play(mk("EX1_506", golden=golden)).board) == want


@covers("BGS_116")
@pytest.mark.parametrize(("golden", "free"), [(False, 1), (True, 2)])
def test_refreshing_anomaly_makes_refreshes_free(golden, free):
    s = play(mk("BGS_116", golden=golden), gold=0)
    assert s.free_refreshes == free
    s = act(s, Refresh())
    assert (s.gold, s.free_refreshes) == (0, free - 1)
    assert len(s.shop) == RULES.shop_size(6)


@covers("UNG_073")
@pytest.mark.parametrize(("golden", "want"), [(False, (3, 2)), (True, (4, 3))])
def test_rockpool_hunter_buffs_a_murloc(golden, want):
    s = play(mk("UNG_073", golden=golden), [mk("EX1_506")], pos=0, target=0)
    assert (s.board[1].attack, s.board[1].health) == want


def test_rockpool_hunter_targets():
    murloc_board = st(board=[mk("EX1_531"), mk("EX1_506")], hand=[mk("UNG_073")])
    assert tavern.battlecry_targets(murloc_board, murloc_board.hand[0]) == (1,)
    assert tavern.why_illegal(murloc_board, Play(0, 0, None), RULES)
    assert tavern.why_illegal(murloc_board, Play(0, 0, 0), RULES)
    lonely = st(board=[mk("EX1_531")], hand=[mk("UNG_073")])
    assert tavern.why_illegal(lonely, Play(0, 0, None), RULES) is None
    assert stats(act(lonely, Play(0, 0)).board) == [("UNG_073", 2, 3), ("EX1_531", 2, 2)]


@covers("BGS_115")
@pytest.mark.parametrize(("golden", "droplets"), [(False, 1), (True, 2)])
def test_sellemental_adds_water_droplets(golden, droplets):
    s = act(st(board=[mk("BGS_115", golden=golden)], gold=0), Sell(0))
    assert stats(s.hand) == [("BGS_115t", 2, 2)] * droplets
    assert s.gold == 1 and s.board == ()
    assert all(m.pool_copies == () for m in s.hand)


def test_sellemental_droplet_lost_on_a_full_hand():
    s = act(st(board=[mk("BGS_115")], hand=[mk("EX1_531")] * 10), Sell(0))
    assert len(s.hand) == 10


@covers("LOOT_013", "GVG_021")
@pytest.mark.parametrize("golden", [False, True])
def test_vulgar_homunculus_hits_your_hero(golden):
    assert play(mk("LOOT_013", golden=golden)).health == 38
    assert play(mk("LOOT_013", golden=golden), [mk("GVG_021")]).health == 40
    assert play(mk("LOOT_013", golden=golden), health=2).health == 1
    assert play(mk("LOOT_013", golden=golden), health=1).health == 1


@covers("BGS_004")
@pytest.mark.parametrize(("golden", "want"), [(False, (3, 5)), (True, (6, 10))])
def test_wrath_weaver_after_a_demon(golden, want):
    s = play(mk("YOD_026"), [mk("BGS_004", golden=golden)])
    assert (s.board[0].attack, s.board[0].health, s.health) == (*want, 39)
    immune = play(mk("YOD_026"), [mk("BGS_004", golden=golden), mk("GVG_021")])
    assert (immune.board[0].attack, immune.health) == (want[0], 40)
    other = play(mk("EX1_531"), [mk("BGS_004", golden=golden)])
    assert other.health == 40 and other.board[0].attack == (2 if golden else 1)


def test_wrath_weaver_counts_amalgadon_and_cannot_kill():
    s = play(mk("BGS_069"), [mk("BGS_004")], health=1, rng=SeqRng([0.0] * 10))
    assert (s.board[0].attack, s.health) == (3, 1)


# ------------------------------------------------------------ tier 2


@covers("BGS_049")
@pytest.mark.parametrize(("golden", "gold"), [(False, 3), (True, 6)])
def test_freedealing_gambler_sells_for_more(golden, gold):
    assert act(st(board=[mk("BGS_049", golden=golden)], gold=0), Sell(0)).gold == gold


@covers("BGS_082")
@pytest.mark.parametrize(("golden", "gain"), [(False, 1), (True, 2)])
def test_menagerie_mug_buffs_three_types(golden, gain):
    board = [mk("EX1_531"), mk("YOD_026"), mk("BGS_106"), mk("EX1_556")]
    s = play(mk("BGS_082", golden=golden), board)
    assert stats(s.board[:4]) == [
        ("EX1_531", 2 + gain, 2 + gain),
        ("YOD_026", 2 + gain, 1 + gain),
        ("BGS_106", 2, 2),
        ("EX1_556", 2 + gain, 3 + gain),
    ]


def test_menagerie_mug_one_minion_per_type():
    board = [mk("EX1_531"), mk("EX1_531"), mk("YOD_026")]
    s = play(mk("BGS_082"), board)
    beasts = sorted(m.attack for m in s.board[:2])
    assert beasts == [2, 3] and s.board[2].attack == 3


@covers("GVG_048")
@pytest.mark.parametrize(("golden", "gain"), [(False, 2), (True, 4)])
def test_metaltooth_leaper_buffs_mechs(golden, gain):
    s = play(mk("GVG_048", golden=golden), [mk("EX1_556"), mk("EX1_531")])
    base = (6, 6) if golden else (3, 3)
    assert stats(s.board)[:2] == [("EX1_556", 2 + gain, 3), ("EX1_531", 2, 2)]
    assert (s.board[2].attack, s.board[2].health) == base


@covers("BGS_127")
@pytest.mark.parametrize(("golden", "want"), [(False, (2, 5)), (True, (4, 10))])
def test_molten_rock_after_an_elemental(golden, want):
    s = play(mk("BGS_115"), [mk("BGS_127", golden=golden)])
    assert (s.board[0].attack, s.board[0].health) == want
    self_play = play(mk("BGS_127", golden=golden))
    assert self_play.board[0].health == (8 if golden else 4)


@covers("BGS_001")
@pytest.mark.parametrize(("golden", "want"), [(False, (4, 3)), (True, (6, 5))])
def test_nathrezim_overseer_buffs_a_demon(golden, want):
    s = play(mk("BGS_001", golden=golden), [mk("YOD_026")], target=0)
    assert (s.board[0].attack, s.board[0].health) == want


@covers("BGS_017")
@pytest.mark.parametrize(("golden", "gain"), [(False, 2), (True, 4)])
def test_pack_leader_buffs_summoned_beasts(golden, gain):
    s = play(mk("CFM_315"), [mk("BGS_017", golden=golden)])
    assert stats(s.board)[1:] == [("CFM_315", 1 + gain, 1), ("CFM_315t", 1 + gain, 1)]
    demon = play(mk("YOD_026"), [mk("BGS_017", golden=golden)])
    assert demon.board[1].attack == 2


@covers("BGS_120")
@pytest.mark.parametrize(("golden", "want"), [(False, (4, 3)), (True, (8, 6))])
def test_party_elemental_buffs_another_elemental(golden, want):
    s = play(mk("BGS_115"), [mk("BGS_120", golden=golden)])
    assert (s.board[0].attack, s.board[0].health) == want
    assert (s.board[1].attack, s.board[1].health) == (2, 2)  # never the one played


@covers("BGS_075")
@pytest.mark.parametrize(("golden", "want"), [(False, (4, 4)), (True, (8, 8))])
def test_rabid_saurolisk_after_a_deathrattle_minion(golden, want):
    s = play(mk("EX1_556"), [mk("BGS_075", golden=golden)])
    assert (s.board[0].attack, s.board[0].health) == want
    plain = play(mk("EX1_531"), [mk("BGS_075", golden=golden)])
    assert plain.board[0].attack == want[0] - (2 if golden else 1)


@covers("BGS_037")
@pytest.mark.parametrize(("golden", "gain"), [(False, 1), (True, 2)])
def test_steward_of_time_buffs_the_shop(golden, gain):
    s = act(st(board=[mk("BGS_037", golden=golden)], shop=[mk("EX1_531"), mk("BGS_039")]), Sell(0))
    assert stats(s.shop) == [("EX1_531", 2 + gain, 2 + gain), ("BGS_039", 2 + gain, 3 + gain)]
    bought = act(s, Buy(0))
    assert stats(bought.hand) == [("EX1_531", 2 + gain, 2 + gain)]


# ------------------------------------------------------------ tier 3


@covers("BGS_128")
@pytest.mark.parametrize(("golden", "gain"), [(False, 1), (True, 2)])
def test_arcane_assistant_buffs_other_elementals(golden, gain):
    s = play(mk("BGS_128", golden=golden), [mk("BGS_115"), mk("EX1_531")])
    assert stats(s.board)[:2] == [("BGS_115", 2 + gain, 2 + gain), ("EX1_531", 2, 2)]
    assert (s.board[2].attack, s.board[2].health) == ((6, 6) if golden else (3, 3))


@covers("BGS_053")
@pytest.mark.parametrize(("golden", "gain"), [(False, 3), (True, 6)])
def test_bloodsail_cannoneer_buffs_other_pirates(golden, gain):
    s = play(mk("BGS_053", golden=golden), [mk("BGS_061"), mk("EX1_531")])
    assert stats(s.board)[:2] == [("BGS_061", 2 + gain, 1), ("EX1_531", 2, 2)]


@covers("EX1_103")
@pytest.mark.parametrize(("golden", "gain"), [(False, 2), (True, 4)])
def test_coldlight_seer_gives_murlocs_health(golden, gain):
    s = play(mk("EX1_103", golden=golden), [mk("EX1_506"), mk("EX1_531")])
    assert stats(s.board)[:2] == [("EX1_506", 2, 1 + gain), ("EX1_531", 2, 2)]


@covers("CFM_610")
@pytest.mark.parametrize(("golden", "gain"), [(False, 1), (True, 2)])
def test_crystalweaver_buffs_demons(golden, gain):
    s = play(mk("CFM_610", golden=golden), [mk("YOD_026"), mk("EX1_531")])
    assert stats(s.board)[:2] == [("YOD_026", 2 + gain, 1 + gain), ("EX1_531", 2, 2)]


@covers("BT_010")
@pytest.mark.parametrize(("golden", "gain"), [(False, 1), (True, 2)])
def test_felfin_navigator_buffs_other_murlocs(golden, gain):
    s = play(mk("BT_010", golden=golden), [mk("EX1_506"), mk("YOD_026")])
    assert stats(s.board)[:2] == [("EX1_506", 2 + gain, 1 + gain), ("YOD_026", 2, 1)]


@covers("BGS_033")
@pytest.mark.parametrize(("golden", "want"), [(False, (6, 6)), (True, (12, 12))])
def test_hangry_dragon_after_a_win(golden, want):
    s = start_turn([mk("BGS_033", golden=golden)], won_last_combat=True)
    assert (s.board[0].attack, s.board[0].health) == want
    lost = start_turn([mk("BGS_033", golden=golden)], won_last_combat=False)
    assert lost.board[0].attack == want[0] - (4 if golden else 2)


def test_hangry_dragon_a_tie_is_not_a_win():
    s = st(board=[mk("BGS_033")], won_last_combat=True)
    tied = tavern.after_combat(s, 0, False, False, (), (), (), full_pool(), RULES)
    assert tied.won_last_combat is False


@covers("DS1_070")
@pytest.mark.parametrize(("golden", "gain"), [(False, 2), (True, 4)])
def test_houndmaster_gives_a_beast_taunt(golden, gain):
    s = play(mk("DS1_070", golden=golden), [mk("EX1_531")], target=0)
    assert stats(s.board)[0] == ("EX1_531", 2 + gain, 2 + gain)
    assert s.board[0].keywords & TAUNT


@covers("GVG_027")
@pytest.mark.parametrize(("golden", "gain"), [(False, 2), (True, 4)])
def test_iron_sensei_buffs_another_mech(golden, gain):
    s = end_turn([mk("GVG_027", golden=golden), mk("EX1_556"), mk("EX1_531")])
    assert stats(s.board)[1:] == [("EX1_556", 2 + gain, 3 + gain), ("EX1_531", 2, 2)]
    alone = end_turn([mk("GVG_027", golden=golden)])
    assert alone.board[0].attack == (4 if golden else 2)


@covers("DAL_575")
def test_khadgar_doubles_recruit_summons():
    s = play(mk("CFM_315"), [mk("DAL_575")])
    assert [m.card for m in s.board] == ["DAL_575", "CFM_315", "CFM_315t", "CFM_315t"]
    # three Scouts: they triple into a golden Scout in hand once all are summoned
    golden = play(mk("EX1_506"), [mk("DAL_575", golden=True)])
    assert [m.card for m in golden.board] == ["DAL_575", "EX1_506"]
    assert stats(golden.hand) == [("TB_BaconUps_003t", 2, 2)]
    # 2 x 3 = 6 Scouts, cut at the 7-minion limit to 4, three of which triple
    both = play(mk("EX1_506"), [mk("DAL_575"), mk("DAL_575", golden=True)])
    assert [m.card for m in both.board] == ["DAL_575", "DAL_575", "EX1_506", "EX1_506a"]
    assert stats(both.hand) == [("TB_BaconUps_003t", 2, 2)]


def test_khadgar_copies_after_summon_buffs():
    s = play(mk("CFM_315"), [mk("BGS_017"), mk("DAL_575")])
    assert stats(s.board)[2:] == [("CFM_315", 3, 1), ("CFM_315t", 3, 1), ("CFM_315t", 5, 1)]


@covers("BOT_312")
@pytest.mark.parametrize(
    ("golden", "magnet", "want"), [(False, "BOT_312", (5, 4)), (True, "TB_BaconUps_032", (8, 5))]
)
def test_replicating_menace_magnetizes(golden, magnet, want):
    s = play(mk("BOT_312", golden=golden), [mk("EX1_556")], pos=None, target=0)
    assert len(s.board) == 1
    m = s.board[0]
    assert (m.card, m.attack, m.health, m.magnetic) == ("EX1_556", *want, (magnet,))
    assert sorted(m.pool_copies) == sorted(["EX1_556"] + (["BOT_312"] if not golden else []))
    assert m.combat().magnetic == (magnet,)


def test_magnetic_legality():
    s = st(board=[mk("EX1_531"), mk("EX1_556")], hand=[mk("BOT_312")])
    legal = tavern.legal_actions(s, RULES)
    assert Play(0, None, 1) in legal and Play(0, None, 0) not in legal
    assert Play(0, 2, None) in legal
    full = st(board=[mk("EX1_556")] * 7, hand=[mk("BOT_312")])
    assert [a for a in tavern.legal_actions(full, RULES) if isinstance(a, Play)] == [
        Play(0, None, i) for i in range(7)
    ]
    # The game sets no limit on a Mech's Magnetic attachments.
    loaded = st(board=[mk("EX1_556", magnetic=("BOT_312",) * 4)], hand=[mk("BOT_312")])
    assert tavern.why_illegal(loaded, Play(0, None, 0), RULES) is None
    assert len(act(loaded, Play(0, None, 0)).board[0].magnetic) == 5
    plain = act(st(hand=[mk("BOT_312")]), Play(0, 0))
    assert stats(plain.board) == [("BOT_312", 3, 1)]


@covers("BGS_081")
@pytest.mark.parametrize(("golden", "want"), [(False, (5, 5)), (True, (10, 10))])
def test_salty_looter_after_a_pirate(golden, want):
    s = play(mk("BGS_061"), [mk("BGS_081", golden=golden)])
    assert (s.board[0].attack, s.board[0].health) == want
    own = play(mk("BGS_081", golden=golden))
    assert own.board[0].attack == want[0] - (2 if golden else 1)


@covers("GVG_055")
@pytest.mark.parametrize(("golden", "gain"), [(False, 2), (True, 4)])
def test_screwjank_clunker_buffs_a_mech(golden, gain):
    s = play(mk("GVG_055", golden=golden), [mk("EX1_556")], target=0)
    assert stats(s.board)[0] == ("EX1_556", 2 + gain, 3 + gain)


@covers("BGS_059")
@pytest.mark.parametrize(
    ("golden", "want"), [(False, ("BGS_059", 6, 6, 13)), (True, ("TB_BaconUps_119", 12, 12, 16))]
)
def test_soul_devourer_eats_a_demon(golden, want):
    pool = full_pool()
    before = pool.count("BGS_014")
    s = play(
        mk("BGS_059", golden=golden), [mk("BGS_014"), mk("EX1_531")], pos=2, target=0, pool=pool
    )
    assert stats(s.board) == [("EX1_531", 2, 2), want[:3]]
    assert s.gold == want[3]
    assert pool.count("BGS_014") == before + 1


def test_soul_devourer_reads_aura_stats_and_brann_cannot_eat_twice():
    # Mal'Ganis shows the Imprisoner at 5/5
    s = play(mk("BGS_059"), [mk("GVG_021"), mk("BGS_014"), mk("LOE_077")], pos=3, target=1)
    assert stats(s.board)[1:] == [("LOE_077", 2, 4), ("BGS_059", 8, 8)]
    assert s.gold == 13
    s = play(mk("BGS_059"), [mk("BGS_014"), mk("YOD_026"), mk("LOE_077")], pos=3, target=1)
    assert stats(s.board)[0] == ("BGS_014", 3, 3)
    assert s.board[2].attack == 5 and s.gold == 13


@covers("BGS_048")
@pytest.mark.parametrize(("golden", "per"), [(False, 1), (True, 2)])
def test_southsea_strongarm_counts_pirates_bought(golden, per):
    s = st(board=[mk("BGS_061")], shop=[mk("BGS_049"), mk("BGS_048", golden=golden)], gold=10)
    s = act(s, Buy(0), Buy(0))
    assert s.pirates_bought == 2
    s = act(s, Play(1, 1, 0))
    assert stats(s.board)[0] == ("BGS_061", 2 + 2 * per, 1 + 2 * per)


@covers("BGS_122")
@pytest.mark.parametrize(("golden", "added"), [(False, 1), (True, 2)])
def test_stasis_elemental_adds_frozen_elementals(golden, added):
    pool = full_pool()
    size = len(pool)
    s = play(mk("BGS_122", golden=golden), shop=[mk("EX1_531")], tier=3, pool=pool)
    assert len(s.shop) == 1 + added
    assert s.shop_frozen == (False,) + (True,) * added
    for m in s.shop[1:]:
        assert INFO[m.card].tribes & ELEMENTAL and m.tier <= 3 and m.card != "BGS_122"
        assert m.pool_copies == (m.card,)
    assert len(pool) == size - added


def test_stasis_elemental_stops_at_seven_shop_minions():
    s = play(mk("BGS_122", golden=True), shop=[mk("EX1_531")] * 6)
    assert len(s.shop) == 7 and s.shop_frozen[-1]


@covers("BGS_038")
@pytest.mark.parametrize(("golden", "gain"), [(False, 2), (True, 4)])
def test_twilight_emissary_buffs_a_dragon(golden, gain):
    s = play(mk("BGS_038", golden=golden), [mk("BGS_039")], target=0)
    assert stats(s.board)[0] == ("BGS_039", 2 + gain, 3 + gain)


@covers("BGS_200")
@pytest.mark.parametrize("coins", [1, 2])
def test_warden_of_old_gold_coins(coins):
    s = st(board=[mk("BGS_200", golden=coins == 2)], gold=10)
    s = tavern.after_combat(s, 0, True, False, (), (GOLD_COIN,) * coins, (), full_pool(), RULES)
    assert s.hand == (SpellCard(GOLD_COIN),) * coins
    s = act(s, Play(0))
    assert s.gold == 11 and len(s.hand) == coins - 1


# ------------------------------------------------------------ tier 4


@covers("BOT_911")
@pytest.mark.parametrize(("golden", "want"), [(False, (4, 7)), (True, (6, 11))])
def test_annoy_o_module_magnetizes(golden, want):
    s = play(mk("BOT_911", golden=golden), [mk("EX1_556")], pos=None, target=0)
    m = s.board[0]
    assert (m.attack, m.health, m.magnetic) == (*want, ())
    assert m.keywords & DIVINE_SHIELD and m.keywords & TAUNT


@covers("BGS_204")
@pytest.mark.parametrize(("golden", "want"), [(False, (5, 5)), (True, (10, 10))])
def test_bigfernal_after_summoning_a_demon(golden, want):
    s = play(mk("YOD_026"), [mk("BGS_204", golden=golden)])
    assert (s.board[0].attack, s.board[0].health) == want


def test_bigfernal_grows_after_the_played_demons_battlecry():
    # Soul Devourer (a Demon, 3/3) eats Bigfernal (4/4) in its Battlecry: "after
    # you summon" comes after the Battlecry, so Bigfernal is eaten at 4/4.
    s = play(mk("BGS_059"), [mk("BGS_204")], pos=1, target=0)
    assert stats(s.board) == [("BGS_059", 7, 7)]
    # A Demon that leaves Bigfernal be: +1/+1 once, after the Battlecry.
    s = play(mk("BGS_059"), [mk("BGS_204"), mk("BGS_014")], pos=2, target=1)
    assert stats(s.board) == [("BGS_204", 5, 5), ("BGS_059", 6, 6)]


@covers("ICC_029")
@pytest.mark.parametrize(("golden", "gain"), [(False, 3), (True, 6)])
def test_cobalt_scalebane_buffs_another(golden, gain):
    s = end_turn([mk("ICC_029", golden=golden), mk("EX1_531")])
    assert stats(s.board)[1] == ("EX1_531", 2 + gain, 2)


@covers("EX1_093")
@pytest.mark.parametrize(("golden", "gain"), [(False, 1), (True, 2)])
def test_defender_of_argus_buffs_neighbours(golden, gain):
    board = [mk("EX1_531"), mk("YOD_026"), mk("BGS_039")]
    s = play(mk("EX1_093", golden=golden), board, pos=1)
    assert stats(s.board[:1] + s.board[2:]) == [
        ("EX1_531", 2 + gain, 2 + gain),
        ("YOD_026", 2 + gain, 1 + gain),
        ("BGS_039", 2, 3),
    ]
    assert [bool(m.keywords & TAUNT) for m in s.board] == [True, False, True, True]


@covers("BGS_066")
@pytest.mark.parametrize(("golden", "want"), [(False, (4, 4)), (True, (12, 12))])
def test_goldgrubber_counts_golden_minions(golden, want):
    s = end_turn([mk("BGS_066", golden=golden), mk("EX1_531", golden=True), mk("YOD_026")])
    assert (s.board[0].attack, s.board[0].health) == want


@covers("BGS_105")
@pytest.mark.parametrize(("golden", "per"), [(False, 1), (True, 2)])
def test_majordomo_repeats_per_elemental_played(golden, per):
    s = st(board=[mk("EX1_531"), mk("BGS_105", golden=golden)], hand=[mk("BGS_115"), mk("BGS_115")])
    s = act(s, Play(0, 2), Play(0, 3), EndTurn())
    assert stats(s.board)[0] == ("EX1_531", 2 + 3 * per, 2 + 3 * per)


@covers("BGS_083")
@pytest.mark.parametrize(("golden", "gain"), [(False, 2), (True, 4)])
def test_menagerie_jug_buffs_three_types(golden, gain):
    board = [mk("EX1_531"), mk("YOD_026"), mk("EX1_556")]
    s = play(mk("BGS_083", golden=golden), board)
    assert [(m.attack, m.health) for m in s.board[:3]] == [
        (2 + gain, 2 + gain),
        (2 + gain, 1 + gain),
        (2 + gain, 3 + gain),
    ]


@covers("BGS_020")
def test_primalfin_lookout_discovers_a_murloc():
    pool = full_pool()
    size = len(pool)
    s = play(mk("BGS_020"), [mk("EX1_506")], tier=4, pool=pool)
    assert len(s.discover) == 3 and len({m.card for m in s.discover}) == 3
    for m in s.discover:
        assert INFO[m.card].tribes & MURLOC and m.tier <= 4 and m.card != "BGS_020"
    assert len(pool) == size - 3
    assert tavern.legal_actions(s, RULES) == [Choose(0), Choose(1), Choose(2)]
    chosen = s.discover[1]
    s = act(s, Choose(1), pool=pool)
    assert s.hand == (chosen,) and s.discover == ()
    assert len(pool) == size - 1


def test_primalfin_lookout_needs_another_murloc_and_golden_discovers_twice():
    assert play(mk("BGS_020"), [mk("EX1_531")]).discover == ()
    pool = full_pool()
    s = play(mk("BGS_020", golden=True), [mk("EX1_506")], pool=pool)
    assert len(s.discover) == 3 and len(s.discover_queue) == 1
    s = act(s, Choose(0), pool=pool)
    assert len(s.hand) == 1 and len(s.discover) == 3 and s.discover_queue == ()
    s = act(s, Choose(2), pool=pool)
    assert len(s.hand) == 2 and s.discover == ()


@covers("DAL_077")
@pytest.mark.parametrize("golden", [False, True])
def test_toxfin_gives_poisonous(golden):
    s = play(mk("DAL_077", golden=golden), [mk("EX1_506")], target=0)
    assert s.board[0].keywords & POISONOUS
    assert stats(s.board)[0] == ("EX1_506", 2, 1)


@covers("CFM_816")
@pytest.mark.parametrize(("golden", "gain"), [(False, 2), (True, 4)])
def test_virmen_sensei_buffs_a_beast(golden, gain):
    s = play(mk("CFM_816", golden=golden), [mk("EX1_531")], target=0)
    assert stats(s.board)[0] == ("EX1_531", 2 + gain, 2 + gain)


# ------------------------------------------------------------ tier 5


@covers("BGS_010")
@pytest.mark.parametrize(("golden", "want"), [(False, (3, 11)), (True, (6, 22))])
def test_annihilan_battlemaster_counts_hero_damage(golden, want):
    s = play(mk("BGS_010", golden=golden), health=30)
    assert (s.board[0].attack, s.board[0].health) == want


def test_annihilan_battlemaster_counts_from_the_heros_own_health():
    from bgsim._core import hero_powers

    patchwerk = hero_powers.new_hero("TB_BaconShop_HERO_34", "TB_BaconShop_HP_035")  # 55 Health
    s = play(mk("BGS_010"), health=35, hero=patchwerk)
    assert (s.board[0].attack, s.board[0].health) == (3, 1 + 20)


@covers("LOE_077")
@pytest.mark.parametrize(
    ("branns", "gain"), [((), 1), ((False,), 2), ((False, False), 2), ((True, False), 3)]
)
def test_brann_repeats_battlecries(branns, gain):
    board = [mk("EX1_506")] + [mk("LOE_077", golden=g) for g in branns]
    s = play(mk("UNG_073"), board, target=0)
    assert stats(s.board)[0] == ("EX1_506", 2 + gain, 1 + gain)


@covers("BGS_072")
@pytest.mark.parametrize(("golden", "gold"), [(False, 8), (True, 9)])
def test_capn_hoggarr_gold_after_buying_a_pirate(golden, gold):
    s = act(st(board=[mk("BGS_072", golden=golden)], shop=[mk("BGS_061"), mk("EX1_531")]), Buy(0))
    assert s.gold == gold
    assert act(s, Buy(0)).gold == gold - 3


@covers("BGS_113")
@pytest.mark.parametrize(
    ("golden", "want"), [(False, ("BGS_128", 3, 3)), (True, ("TB_Baconups_203", 6, 6))]
)
def test_faceless_taverngoer_becomes_a_shop_minion(golden, want):
    pool = full_pool()
    before = pool.count("BGS_113")
    shop = [mk("EX1_531"), mk("BGS_128", 9, 9)]
    s = play(mk("BGS_113", golden=golden), [mk("EX1_531")], pos=0, target=1, shop=shop, pool=pool)
    assert stats(s.board) == [want, ("EX1_531", 2, 2)]
    assert s.board[0].pool_copies == ()
    assert stats(s.shop) == stats(shop)
    assert pool.count("BGS_113") == before + (0 if golden else 1)


@covers("BGS_030")
@pytest.mark.parametrize(("golden", "gain"), [(False, 2), (True, 4)])
def test_king_bagurgle_buffs_other_murlocs(golden, gain):
    s = play(mk("BGS_030", golden=golden), [mk("EX1_506"), mk("EX1_531")])
    assert stats(s.board)[:2] == [("EX1_506", 2 + gain, 1 + gain), ("EX1_531", 2, 2)]


@covers("BGS_009")
@pytest.mark.parametrize(("golden", "gain"), [(False, 2), (True, 4)])
def test_lightfang_enforcer_buffs_one_per_type(golden, gain):
    board = [mk("BGS_009", golden=golden), mk("EX1_531"), mk("YOD_026"), mk("BGS_069")]
    s = end_turn(board)
    assert stats(s.board)[1:] == [
        ("EX1_531", 2 + gain, 2 + gain),
        ("YOD_026", 2 + gain, 1 + gain),
        ("BGS_069", 6 + gain, 6 + gain),  # Amalgadon fills one missing type, once
    ]


def test_lightfang_one_beast_of_two():
    s = end_turn([mk("BGS_009"), mk("EX1_531"), mk("EX1_531")])
    assert sorted(m.attack for m in s.board[1:]) == [2, 4]


@covers("BGS_021")
@pytest.mark.parametrize(("golden", "gain"), [(False, 4), (True, 8)])
def test_mama_bear_buffs_summoned_beasts(golden, gain):
    s = play(mk("CFM_315"), [mk("BGS_021", golden=golden)])
    assert stats(s.board)[1:] == [("CFM_315", 1 + gain, 1 + gain), ("CFM_315t", 1 + gain, 1 + gain)]


@covers("BGS_043")
@pytest.mark.parametrize(("golden", "want"), [(False, "BGS_004"), (True, "TB_BaconUps_079")])
def test_murozond_copies_from_the_last_opponent(golden, want):
    cards_seen = ("TB_BaconUps_079",)
    s = play(mk("BGS_043", golden=golden), last_opponent_cards=cards_seen)
    assert [m.card_id for m in s.hand] == [want]
    assert s.hand[0].pool_copies == ()
    assert (s.hand[0].attack, s.hand[0].health) == ((2, 6) if golden else (1, 3))
    assert play(mk("BGS_043", golden=golden)).hand == ()
    # golden Murozond's golden copy gives a Triple Reward when played, as a triple's does
    assert s.hand[0].triple == golden
    played = act(s, Play(0, 1, None))
    assert [c.card for c in played.hand] == (["TB_BaconShop_Triples_01"] if golden else [])


@covers("BGS_202")
@pytest.mark.parametrize(("golden", "per"), [(False, (1, 2)), (True, (2, 4))])
def test_mythrax_counts_types(golden, per):
    board = [mk("BGS_202", golden=golden), mk("EX1_531"), mk("EX1_531"), mk("YOD_026")]
    s = end_turn(board)
    base = (8, 8) if golden else (4, 4)
    assert (s.board[0].attack, s.board[0].health) == (base[0] + 2 * per[0], base[1] + 2 * per[1])


@covers("BGS_104")
@pytest.mark.parametrize(("golden", "gain"), [(False, 1), (True, 2)])
def test_nomi_buffs_tavern_elementals_for_the_game(golden, gain):
    pool = full_pool()
    s = play(
        mk("BGS_115"),
        [mk("BGS_104", golden=golden)],
        shop=[mk("BGS_116"), mk("EX1_531")],
        pool=pool,
    )
    assert s.nomi_bonus == gain
    assert stats(s.shop) == [("BGS_116", 1 + gain, 3 + gain), ("EX1_531", 2, 2)]
    s = tavern.start_turn(s, s.turn + 1, pool, SeqRng([0.0] * 10), RULES)
    for m in s.shop:
        info = INFO[m.card]
        bonus = gain if info.tribes & ELEMENTAL else 0
        assert (m.attack, m.health) == (info.attack + bonus, info.health + bonus)
    assert not play(mk("EX1_531"), [mk("BGS_104")]).nomi_bonus


@covers("BGS_036")
@pytest.mark.parametrize(("golden", "per"), [(False, 1), (True, 2)])
def test_razorgore_counts_dragons(golden, per):
    s = end_turn([mk("BGS_036", golden=golden), mk("BGS_039"), mk("EX1_531")])
    base = 4 if golden else 2
    assert s.board[0].attack == base + 2 * per


@covers("ICC_807")
@pytest.mark.parametrize(("golden", "gain"), [(False, 2), (True, 4)])
def test_strongshell_scavenger_buffs_taunts(golden, gain):
    s = play(mk("ICC_807", golden=golden), [mk("BGS_039"), mk("EX1_531")])
    assert stats(s.board)[:2] == [("BGS_039", 2 + gain, 3 + gain), ("EX1_531", 2, 2)]


@covers("BGS_123")
@pytest.mark.parametrize(("golden", "added"), [(False, 1), (True, 2)])
def test_tavern_tempest_adds_elementals(golden, added):
    pool = full_pool()
    size = len(pool)
    s = play(mk("BGS_123", golden=golden), tier=3, pool=pool)
    assert len(s.hand) == added
    for m in s.hand:
        assert INFO[m.card].tribes & ELEMENTAL and m.tier <= 3 and m.card != "BGS_123"
        assert m.pool_copies == (m.card,)
    assert len(pool) == size - added


# ------------------------------------------------------------ tier 6


@covers("BGS_069")
def test_amalgadon_adapts_once_per_type():
    # three other types (beast, demon, murloc): adapts drawn at 0.0 (Crackling
    # Shield), 0.9 (Poison Spit), 0.7 (Volcanic Might)
    board = [mk("EX1_531"), mk("YOD_026"), mk("EX1_506"), mk("BGS_106")]
    s = play(mk("BGS_069"), board, rng=SeqRng([0.0, 0.9, 0.7]))
    m = s.board[4]
    assert (m.attack, m.health) == (7, 7)
    assert m.keywords & DIVINE_SHIELD and m.keywords & POISONOUS
    lonely = play(mk("BGS_069"), [mk("BGS_106")], rng=SeqRng([]))
    assert stats(lonely.board)[1] == ("BGS_069", 6, 6)


def test_golden_amalgadon_adapts_twice_and_amalgadons_fill_types():
    board = [mk("EX1_531"), mk("BGS_069")]
    values = [0.3, 0.3, 0.45, 0.55]  # Living Spores x2, Lightning Speed, Massive
    s = play(mk("BGS_069", golden=True), board, rng=SeqRng(values))
    m = s.board[2]
    assert (m.card_id, m.attack, m.health, m.spores) == ("TB_BaconUps_121", 12, 12, 2)
    assert m.keywords & WINDFURY and m.keywords & TAUNT
    assert m.combat().living_spores == 2


def test_adapt_list():
    assert len(ADAPTS) == 8 and "living_spores" in ADAPTS


@covers("BGS_041")
@pytest.mark.parametrize(("golden", "gain"), [(False, 1), (True, 2)])
def test_kalecgos_after_a_battlecry(golden, gain):
    board = [mk("BGS_041", golden=golden), mk("BGS_039"), mk("EX1_531")]
    s = play(mk("BGS_055"), board)
    base = (8, 24) if golden else (4, 12)
    assert stats(s.board)[1:3] == [("BGS_039", 2 + gain, 3 + gain), ("EX1_531", 2, 2)]
    assert (s.board[0].attack, s.board[0].health) == (base[0] + gain, base[1] + gain)
    strongarm = play(mk("BGS_048"), board)  # a Battlecry the card data forgot to tag
    assert strongarm.board[1].attack == 2 + gain


@covers("BGS_124")
@pytest.mark.parametrize(("golden", "per"), [(False, 1), (True, 2)])
def test_lieutenant_garr_counts_elementals(golden, per):
    s = play(mk("BGS_115"), [mk("BGS_124", golden=golden), mk("BGS_127")])
    base = 2 if golden else 1
    assert s.board[0].health == base + 3 * per


@covers("BGS_100")
@pytest.mark.parametrize(("golden", "times"), [(False, 1), (True, 2)])
def test_lil_rag_gives_the_elemental_tier(golden, times):
    board = [mk("BGS_100", golden=golden)]
    s = play(mk("BGS_122"), board, rng=SeqRng([0.0] * times + [0.0] * 4))
    rag = s.board[0]
    base = 8 if golden else 4
    assert (rag.attack, rag.health) == (base + 3 * times, base + 3 * times)


# ------------------------------------------------------------ cards from combat, auras


@covers("BGS_046", "BGS_121")
def test_cards_a_fight_adds_to_hand():
    s = st(board=[mk("BGS_046"), mk("BGS_121")])
    hand = ("EX1_531", "TB_BaconUps_166")  # Nat Pagle's minion, a golden Djinni copy
    s = tavern.after_combat(s, 3, False, True, (), hand, (), full_pool(), RULES)
    assert stats(s.hand) == [("EX1_531", 2, 2), ("TB_BaconUps_166", 14, 6)]
    assert all(m.pool_copies == () for m in s.hand)
    assert s.health == 37


def test_a_fight_adds_to_a_full_hand_nothing():
    s = st(hand=[mk(c) for c in ("EX1_531", "BGS_039", "YOD_026", "BGS_061", "BGS_106")] * 2)
    s = tavern.after_combat(s, 0, True, False, (), ("BGS_126",), (), full_pool(), RULES)
    assert len(s.hand) == 10


@covers("EX1_507", "NEW1_027", "EX1_185", "GVG_021")
def test_auras_show_on_the_recruit_screen():
    board = [
        mk("EX1_507"),
        mk("EX1_506"),
        mk("NEW1_027"),
        mk("BGS_061"),
        mk("EX1_185"),
        mk("GVG_021"),
        mk("YOD_026"),
    ]
    obs = Observation(0, 5, st(board=board), (), (), (), None, RULES)
    assert obs.displayed() == [(3, 3), (4, 1), (3, 3), (3, 2), (7, 10), (10, 7), (5, 3)]
    assert obs.displayed() == Board(6, 40, tuple(m.combat() for m in board)).displayed()


# ------------------------------------------------------------ passives


PASSIVE_SCENARIOS = {
    # card: (passive field, a scenario whose result depends on that passive)
    "LOE_077": (
        "battlecries",
        lambda: stats(play(mk("UNG_073"), [mk("EX1_506"), mk("LOE_077")], target=0).board),
    ),
    "DAL_575": ("summons", lambda: [m.card for m in play(mk("CFM_315"), [mk("DAL_575")]).board]),
    "GVG_021": ("hero_immune", lambda: play(mk("LOOT_013"), [mk("GVG_021")]).health),
}


@pytest.mark.parametrize("card_id", sorted(PASSIVE_SCENARIOS))
def test_the_rules_read_passives_from_the_registry_entry(card_id, monkeypatch):
    """A passive acts through its registry entry alone: with the entry's flag
    taken away, the card's behaviour is gone."""
    field, scenario = PASSIVE_SCENARIOS[card_id]
    assert getattr(EFFECTS[card_id], field)
    with_flag = scenario()
    monkeypatch.setitem(
        EFFECTS,
        card_id,
        dataclasses.replace(EFFECTS[card_id], **{field: None if field != "hero_immune" else False}),
    )
    assert scenario() != with_flag


def test_every_passive_in_the_registry_has_a_scenario():
    passives = {
        card_id for card_id, fx in EFFECTS.items() if fx.battlecries or fx.summons or fx.hero_immune
    }
    assert passives == set(PASSIVE_SCENARIOS)
