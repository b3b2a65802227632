"""Hero powers that change Bob's Tavern (bgsim/_core/heroes_tavern.py): one
test or more per hero, each phase where its text acts, the edge cases of
data/heroes.toml, pool copies kept exact; and lobbies of random agents
playing these heroes."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest
from tavern_helpers import RULES, act, full_pool, mk, st, stats

from bgsim import (
    Buy,
    Choose,
    ChooseHero,
    EndTurn,
    HeroPower,
    IllegalActionError,
    Lobby,
    Play,
    Refresh,
    Sell,
)
from bgsim._core import hero_powers, tavern
from bgsim._core.heroes_tavern import SPECTRAL_SIGHT
from bgsim._core.minions import DRAGON, INFO, MURLOC, MinionCard, SpellCard
from bgsim._core.pool import Pool, starting_copies
from bgsim._core.recruit_turn import golden_of
from bgsim.actions import Freeze, Upgrade
from bgsim.heroes import heroes

HERO = {h.name: h for h in heroes().values()}
PRIZE = "TB_BaconShop_HP_101t2"
MAP = "TB_BaconShop_HP_047t"
COINS = (SpellCard("TB_BaconShop_HP_008a"),) * 10  # a full hand that makes no triple


def with_hero(name: str, **state):
    """A player state whose hero is ``name`` (its power fresh)."""
    info = HERO[name]
    return st(hero=hero_powers.new_hero(info.id, info.power.id), **state)


def held(state, pool: Pool) -> Counter:
    """Copies in the pool plus those the player holds: constant while a
    power moves minions between tavern, hand, warband, pool."""
    counts = pool.counts()
    counts.update(state.pool_copies())
    return counts


def next_turn(state, pool: Pool, rng=None):
    rng = rng if rng is not None else random.Random(0)
    return tavern.start_turn(state, state.turn + 1, pool, rng, RULES)


def powers(state) -> list:
    return [a for a in tavern.legal_actions(state, RULES) if isinstance(a, HeroPower)]


def tiers(minions) -> list[int]:
    return [INFO[m.card].tier for m in minions]


# ------------------------------------------------------------ Ysera


def test_ysera_every_refresh_adds_a_dragon_at_the_right_end():
    state = with_hero("Ysera", tier=1, gold=5)
    pool = Pool({"BGS_004": 10, "CFM_315": 10, "BGS_019": 3, "BGS_045": 5})  # Red Whelp tier 1
    start = held(state, pool)
    fresh = next_turn(state, pool)
    assert len(fresh.shop) == RULES.shop_size(1) + 1
    assert fresh.shop[-1].card == "BGS_019"  # the only Dragon of tier 1 (Glyph Guardian is 2)
    assert held(fresh, pool) == start
    again = act(fresh, Refresh(), pool=pool)
    assert len(again.shop) == 4 and INFO[again.shop[-1].card].tribes & DRAGON
    assert held(again, pool) == start
    # frozen minions count toward the four: no Dragon beyond them
    frozen = act(again, Freeze(), pool=pool)
    kept = next_turn(frozen, pool)
    assert kept.shop == frozen.shop and held(kept, pool) == start


def test_ysera_without_a_dragon_in_the_pool_the_extra_slot_stays_empty():
    state = with_hero("Ysera", tier=1)
    pool = Pool({"BGS_004": 10, "BGS_045": 5})  # Glyph Guardian: a Dragon, but tier 2
    assert len(next_turn(state, pool).shop) == RULES.shop_size(1)
    tier6 = next_turn(with_hero("Ysera", tier=6), full_pool())
    assert len(tier6.shop) == RULES.tavern.max_shop_size == 7


def test_without_a_hero_the_shop_is_the_usual_size():
    assert len(next_turn(st(tier=1), full_pool()).shop) == RULES.shop_size(1)


# ------------------------------------------------------------ Aranna Starseeker


def test_aranna_after_five_refreshes_bob_always_has_seven_minions():
    state = with_hero("Aranna Starseeker", tier=1, gold=10)
    assert tavern.visible_counter(state) == ("refreshes_left", 5)
    pool = full_pool()
    start = held(state, pool)
    for left in (4, 3, 2, 1):
        state = act(state, Refresh(), pool=pool)
        assert tavern.visible_counter(state) == ("refreshes_left", left)
        assert len(state.shop) == 3
    state = act(state, Refresh(), pool=pool)
    assert len(state.shop) == 3  # the fifth refresh itself is a normal one
    assert state.hero.power == SPECTRAL_SIGHT and state.hero.hero == HERO["Aranna Starseeker"].id
    assert tavern.visible_counter(state) is None
    state = act(state, Refresh(), pool=pool)
    assert len(state.shop) == 7 and state.gold == 4
    assert held(state, pool) == start
    # the start-of-turn refresh too, frozen minions counting toward the seven
    bought = act(state, Buy(0), Freeze(), pool=pool)
    turn = next_turn(bought, pool)
    assert len(turn.shop) == 7 and turn.shop[:6] == bought.shop
    assert held(turn, pool) == start
    # Spectral Sight is passive: nothing to use
    assert powers(turn) == []


# ------------------------------------------------------------ Infinite Toki


def test_infinite_toki_refreshes_with_a_minion_from_the_tier_above():
    state = with_hero("Infinite Toki", tier=2, gold=2, shop=[mk("BGS_004")])
    state = act(state, Freeze())  # a Toki refresh replaces frozen minions too
    pool = full_pool()
    start = held(state, pool)
    after = act(state, HeroPower(), pool=pool)
    assert after.gold == 1 and len(after.shop) == RULES.shop_size(2)
    assert tiers(after.shop)[-1] == 3 and max(tiers(after.shop)[:-1]) <= 2
    assert not any(after.shop_frozen)
    assert held(after, pool) == start
    with pytest.raises(IllegalActionError, match="already used this turn"):
        act(after, HeroPower(), pool=pool)


def test_infinite_toki_at_tier_6_or_without_copies_above_refreshes_as_usual():
    top = act(with_hero("Infinite Toki", tier=6), HeroPower())
    assert len(top.shop) == 6
    pool = Pool({"BGS_004": 10, "BOT_606": 10})  # nothing of tier 3 left
    state = with_hero("Infinite Toki", tier=2)
    start = held(state, pool)
    after = act(state, HeroPower(), pool=pool)
    assert len(after.shop) == 4 and max(tiers(after.shop)) <= 2
    assert held(after, pool) == start


# ------------------------------------------------------------ Dinotamer Brann


def test_dinotamer_brann_refreshes_with_battlecry_minions():
    state = with_hero("Dinotamer Brann", tier=3, gold=1, shop=[mk("BGS_004"), mk("BOT_606")])
    pool = full_pool()
    start = held(state, pool)
    after = act(state, HeroPower(), pool=pool)
    assert after.gold == 0 and len(after.shop) == RULES.shop_size(3)
    assert all(INFO[m.card].battlecry and INFO[m.card].tier <= 3 for m in after.shop)
    assert held(after, pool) == start


def test_dinotamer_brann_leaves_slots_empty_when_battlecries_run_out():
    pool = Pool({"UNG_073": 1, "BGS_004": 10, "EX1_556": 10})  # one Rockpool Hunter
    state = with_hero("Dinotamer Brann", tier=2, shop=[mk("EX1_509")])
    start = held(state, pool)
    after = act(state, HeroPower(), pool=pool)
    assert [m.card for m in after.shop] == ["UNG_073"]
    assert held(after, pool) == start and pool.count("EX1_509") == 1


# ------------------------------------------------------------ Jandice Barov


def test_jandice_barov_swaps_a_minion_with_a_random_tavern_minion():
    pool = full_pool()
    shop = [pool_minion_taken(pool, "BOT_606"), pool_minion_taken(pool, "CFM_315")]
    weaver = mk("BGS_004", 5, 6)  # buffed: the buff goes with it
    state = with_hero("Jandice Barov", board=[weaver], shop=shop, gold=1)
    start = held(state, pool)
    assert powers(state) == [HeroPower(target=0)]
    after = act(state, HeroPower(target=0), pool=pool)
    assert after.gold == 1  # Jandice's power is free
    assert after.board[0] in shop and weaver in after.shop
    assert sorted(m.card for m in after.shop + after.board) == ["BGS_004", "BOT_606", "CFM_315"]
    assert held(after, pool) == start  # nothing goes to or comes from the pool
    # the minion sent to the tavern goes back to the pool at the next refresh
    refreshed = act(after, Refresh(), pool=pool)
    assert weaver not in refreshed.shop and held(refreshed, pool) == start


def test_jandice_barovs_swapped_minion_is_not_summoned():
    # Pack Leader gives a Beast summoned on her warband +2 Attack: not this Alleycat
    state = with_hero("Jandice Barov", board=[mk("BGS_017"), mk("BGS_004")], shop=[mk("CFM_315")])
    after = act(state, HeroPower(target=1))
    assert stats(after.board)[1] == ("CFM_315", 1, 1)


def test_jandice_barov_needs_a_non_golden_minion_and_a_tavern_minion():
    golden = with_hero("Jandice Barov", board=[mk("BGS_004", golden=True)], shop=[mk("BOT_606")])
    with pytest.raises(IllegalActionError, match="no valid target"):
        act(golden, HeroPower(target=0))
    empty = with_hero("Jandice Barov", board=[mk("BGS_004")])
    with pytest.raises(IllegalActionError, match="Bob's Tavern is empty"):
        act(empty, HeroPower(target=0))


def test_jandice_barov_can_complete_a_triple():
    state = with_hero(
        "Jandice Barov",
        board=[mk("CFM_315"), mk("BGS_004")],
        hand=[mk("BOT_606"), mk("BOT_606")],
        shop=[mk("BOT_606")],
    )
    after = act(state, HeroPower(target=1))
    assert [m.card_id for m in after.hand] == ["TB_BaconUps_028"]  # golden Kaboom Bot
    assert len(after.hand[0].pool_copies) == 3 and len(after.board) == 1


def pool_minion_taken(pool: Pool, card_id: str) -> MinionCard:
    assert pool.take(card_id)
    return mk(card_id)


# ------------------------------------------------------------ Malygos


def test_malygos_replaces_a_warband_or_tavern_minion_with_one_of_its_tier():
    pool = full_pool()
    board = [pool_minion_taken(pool, "BGS_004").buffed(3, 3)]
    shop = [pool_minion_taken(pool, "BOT_606"), pool_minion_taken(pool, "CFM_315")]
    state = with_hero("Malygos", board=board, shop=shop, gold=0)
    start = held(state, pool)
    assert powers(state) == [HeroPower(target=0), HeroPower(shop=0), HeroPower(shop=1)]
    on_board = act(state, HeroPower(target=0), pool=pool)
    new = on_board.board[0]
    assert INFO[new.card].tier == 1 and (new.attack, new.health) == (
        INFO[new.card].attack,
        INFO[new.card].health,
    )  # the buff is gone
    assert held(on_board, pool) == start
    pool2 = full_pool()
    for m in shop + board:
        pool2.take(m.card)
    in_shop = act(state, HeroPower(shop=0), pool=pool2)
    assert INFO[in_shop.shop[0].card].tier == 2 and in_shop.shop[1] == shop[1]
    assert held(in_shop, pool2) == start


def test_malygos_turns_a_golden_minion_into_a_golden_of_that_tier():
    pool = full_pool()
    parts = [pool_minion_taken(pool, "BOT_606") for _ in range(3)]
    golden = golden_of(parts)
    state = with_hero("Malygos", board=[golden])
    start = held(state, pool)
    after = act(state, HeroPower(target=0), pool=pool)
    new = after.board[0]
    assert new.golden and INFO[new.card].tier == 2 and not new.triple
    assert new.pool_copies == (new.card,) * 3
    assert held(after, pool) == start


def test_malygos_turns_a_token_into_a_tier_1_minion():
    pool = Pool({"BGS_004": 2})
    state = with_hero("Malygos", board=[mk("EX1_506a")])  # Murloc Scout, created
    after = act(state, HeroPower(target=0), pool=pool)
    assert after.board[0].card == "BGS_004" and after.board[0].pool_copies == ("BGS_004",)
    assert pool.count("BGS_004") == 1
    # nothing of the tier left: it stays as it was
    empty = act(state, HeroPower(target=0), pool=Pool())
    assert empty.board == state.board


# ------------------------------------------------------------ Yogg-Saron


def test_yogg_saron_puts_a_random_tavern_minion_in_hand_with_plus_one():
    pool = full_pool()
    shop = [pool_minion_taken(pool, "BOT_606"), pool_minion_taken(pool, "CFM_315")]
    state = with_hero("Yogg-Saron, Hope's End", shop=shop, gold=2, board=[mk("BGS_066")])
    start = held(state, pool)
    after = act(state, HeroPower(), pool=pool)
    assert after.gold == 0 and len(after.shop) == 1
    got = after.hand[0]
    base = next(m for m in shop if m.card == got.card)
    assert (got.attack, got.health) == (base.attack + 1, base.health + 1)
    assert got.pool_copies == (got.card,) and held(after, pool) == start


def test_yogg_saron_needs_a_tavern_minion_and_room_in_hand():
    with pytest.raises(IllegalActionError, match="Bob's Tavern is empty"):
        act(with_hero("Yogg-Saron, Hope's End", gold=2), HeroPower())
    full = with_hero("Yogg-Saron, Hope's End", gold=2, shop=[mk("BOT_606")], hand=COINS)
    with pytest.raises(IllegalActionError, match="hand is full"):
        act(full, HeroPower())


def test_yogg_saron_take_is_not_a_purchase():
    # Hoggarr gives gold when a Pirate is bought; Yogg-Saron's take gives none
    state = with_hero("Yogg-Saron, Hope's End", gold=2, shop=[mk("BGS_061")], board=[mk("BGS_066")])
    after = act(state, HeroPower())
    assert after.gold == 0 and after.pirates_bought == 0


# ------------------------------------------------------------ Maiev Shadowsong


def test_maiev_imprisons_a_tavern_minion_for_two_turns():
    pool = full_pool()
    shop = [pool_minion_taken(pool, c) for c in ("BOT_606", "CFM_315", "BGS_004")]
    state = with_hero("Maiev Shadowsong", tier=1, gold=1, shop=shop)
    start = held(state, pool)
    assert powers(state) == [HeroPower(shop=0), HeroPower(shop=1), HeroPower(shop=2)]
    used = act(state, HeroPower(shop=1), pool=pool)
    assert used.gold == 0 and [m.card for m in used.shop] == ["BOT_606", "BGS_004"]
    assert used.hero.extra == ((shop[1], state.turn + 2),)
    assert held(used, pool) == start  # the Dormant minion keeps its copy
    assert powers(replace(state, shop=())) == []  # nothing to imprison
    # it takes a tavern slot: the next shop draws one minion fewer, and it cannot be bought
    turn1 = next_turn(used, pool)
    assert len(turn1.shop) == RULES.shop_size(1) - 1 and turn1.hero.extra == used.hero.extra
    assert shop[1] not in turn1.shop + turn1.hand
    assert held(turn1, pool) == start
    turn2 = next_turn(turn1, pool)
    assert turn2.hero.extra == () and len(turn2.shop) == RULES.shop_size(1)
    assert stats(turn2.hand) == [("CFM_315", 2, 1)]  # Alleycat 1/1 with +1 Attack
    assert held(turn2, pool) == start


def test_maiev_s_awakened_minion_makes_a_triple_at_once():
    pool = full_pool()
    cats = [pool_minion_taken(pool, "CFM_315") for _ in range(3)]
    state = with_hero("Maiev Shadowsong", tier=1, gold=1, board=cats[:2], shop=cats[2:])
    woken = next_turn(next_turn(act(state, HeroPower(shop=0), pool=pool), pool), pool)
    assert woken.board == () and [(m.card, m.golden) for m in woken.hand] == [("CFM_315", True)]


def test_maiev_several_dormant_minions_and_a_full_hand():
    pool = full_pool()
    shop = [pool_minion_taken(pool, c) for c in ("BOT_606", "CFM_315", "BGS_004")]
    state = with_hero("Maiev Shadowsong", tier=1, gold=5, shop=shop)
    start = held(state, pool)
    first = act(state, HeroPower(shop=0), pool=pool)
    second = act(next_turn(first, pool), HeroPower(shop=0), pool=pool)
    assert len(second.hero.extra) == 2 and held(second, pool) == start
    woken = next_turn(second, pool)  # the first awakens, the second sleeps on
    assert [m.card for m in woken.hand] == ["BOT_606"] and len(woken.hero.extra) == 1
    assert len(woken.shop) == RULES.shop_size(1) - 1 and held(woken, pool) == start
    # a full hand when the second awakens: it dies and its copy goes back to the pool
    pool.put(woken.hand[0].pool_copies)
    full = replace(woken, hand=COINS)
    gone = next_turn(full, pool)
    assert gone.hero.extra == () and gone.hand == COINS
    assert held(gone, pool) == start


def test_an_eliminated_maiev_releases_her_dormant_minions():
    pool = full_pool()
    shop = [pool_minion_taken(pool, "BOT_606")]
    state = act(with_hero("Maiev Shadowsong", gold=1, shop=shop), HeroPower(shop=0), pool=pool)
    assert state.pool_copies() == ["BOT_606"]
    tavern.release(state, pool)
    assert pool.counts() == full_pool().counts()


# ------------------------------------------------------------ Fungalmancer Flurgl


def test_fungalmancer_flurgl_adds_a_murloc_after_selling_a_murloc():
    pool = full_pool()
    board = [pool_minion_taken(pool, "EX1_507"), pool_minion_taken(pool, "BGS_004")]
    state = with_hero("Fungalmancer Flurgl", tier=2, board=board, shop=[mk("BOT_606")])
    pool.take("BOT_606")
    start = held(state, pool)
    sold = act(state, Sell(0), pool=pool)
    assert len(sold.shop) == 2 and INFO[sold.shop[1].card].tribes & MURLOC
    assert INFO[sold.shop[1].card].tier <= 2 and held(sold, pool) == start
    plain = act(sold, Sell(0), pool=pool)  # Wrath Weaver: not a Murloc
    assert plain.shop == sold.shop and held(plain, pool) == start


def test_fungalmancer_flurgl_adds_nothing_to_a_full_tavern():
    state = with_hero(
        "Fungalmancer Flurgl", board=[mk("EX1_507")], shop=[mk("BGS_004")] * 7, tier=6
    )
    assert len(act(state, Sell(0)).shop) == 7
    amalgam = with_hero("Fungalmancer Flurgl", board=[mk("TB_BaconShop_HP_033t")], tier=1)
    assert INFO[act(amalgam, Sell(0)).shop[0].card].tribes & MURLOC  # Amalgam is a Murloc


# ------------------------------------------------------------ Dancin' Deryl


def test_dancin_deryl_buffs_tavern_minions_twice_after_a_sale():
    shop = [mk("BOT_606"), mk("CFM_315"), mk("BGS_004")]
    state = with_hero("Dancin' Deryl", board=[mk("EX1_509")], shop=shop)
    after = act(state, Sell(0))
    gained = [
        (a.attack - b.attack, a.health - b.health) for a, b in zip(after.shop, shop, strict=True)
    ]
    assert sum(a for a, _ in gained) == 2 and sum(h for _, h in gained) == 2
    assert all(a == h for a, h in gained)
    # they come along when bought, and are lost when a refresh sends them back
    slot = next(i for i, (a, _) in enumerate(gained) if a)
    assert act(after, Buy(slot)).hand[0].attack == shop[slot].attack + gained[slot][0]
    empty = act(with_hero("Dancin' Deryl", board=[mk("EX1_509")]), Sell(0))
    assert empty.shop == () and empty.gold == 11


def test_dancin_deryl_may_buff_one_minion_twice():
    seen = Counter()
    for seed in range(30):
        after = act(
            with_hero("Dancin' Deryl", board=[mk("EX1_509")], shop=[mk("BOT_606"), mk("CFM_315")]),
            Sell(0),
            rng=random.Random(seed),
        )
        seen[tuple(m.attack for m in after.shop)] += 1
    assert set(seen) == {(4, 1), (3, 2), (2, 3)}  # Kaboom Bot 2/2, Alleycat 1/1


# ------------------------------------------------------------ Silas Darkmoon


def silas(tickets, counter=0, **state):
    s = with_hero("Silas Darkmoon", **state)
    return replace(s, hero=s.hero.changed(counter=counter, extra=(tickets, False)))


def test_silas_darkmoon_three_tickets_give_a_prize():
    shop = [mk("BOT_606"), mk("CFM_315"), mk("BGS_004")]
    state = silas((True, False, True), counter=1, shop=shop, tier=3)
    assert tavern.visible_counter(state) == ("tickets", 1)
    plain = act(state, Buy(1))
    assert plain.hero.counter == 1 and plain.hero.extra[0] == (True, True)
    one = act(state, Buy(0))
    assert one.hero.counter == 2 and one.hero.extra[0] == (False, True)
    assert not any(isinstance(c, SpellCard) for c in one.hand)
    prize = act(one, Buy(1))
    assert prize.hero.counter == 0 and prize.hero.extra[0] == (False,)
    assert [c.card for c in prize.hand if isinstance(c, SpellCard)] == [PRIZE]
    assert prize.hand[-1].tier == 3
    # the Prize is free and Discovers a minion of that tier
    pool = full_pool()
    cast = act(replace(prize, gold=0), Play(2), pool=pool)
    assert cast.discover and all(INFO[m.card].tier == 3 for m in cast.discover)
    chosen = act(cast, Choose(0), pool=pool)
    assert chosen.hand[-1].pool_copies == (chosen.hand[-1].card,)


def test_silas_darkmoon_prize_is_lost_with_a_full_hand():
    hand = COINS[:9]
    state = silas((True,), counter=2, shop=[mk("BOT_606")], hand=hand)
    after = act(state, Buy(0))
    assert len(after.hand) == 10 and after.hand[-1].card == "BOT_606"
    assert after.hero.counter == 0


def test_silas_darkmoon_tickets_come_with_new_shops_and_stay_on_frozen_minions():
    state = with_hero("Silas Darkmoon", tier=1)
    pool = full_pool()
    rng = random.Random(4)
    ticketed = total = 0
    for _ in range(200):
        state = act(state, Refresh(), pool=pool, rng=rng)
        tickets = state.hero.extra[0]
        assert len(tickets) == len(state.shop)
        ticketed += sum(tickets)
        total += len(tickets)
        state = replace(state, gold=10, actions=0)
    assert 0.27 < ticketed / total < 0.40  # one in three
    # frozen minions keep their tickets; the new ones draw theirs
    state = silas((False, True, False), shop=[mk("BOT_606"), mk("CFM_315"), mk("BGS_004")], tier=1)
    state = act(state, Buy(0), Freeze())
    for tier in (1, 2):
        kept = next_turn(replace(state, tier=tier), pool, random.Random(1))
        assert kept.shop[:2] == state.shop and len(kept.shop) == RULES.shop_size(tier)
        tickets, carried = kept.hero.extra
        assert tickets[:2] == (True, False) and len(tickets) == len(kept.shop) and not carried


# ------------------------------------------------------------ Zephrys, the Great


def test_zephrys_finds_the_third_copy():
    pool = full_pool()
    pair = [pool_minion_taken(pool, "BOT_606"), pool_minion_taken(pool, "BOT_606")]
    state = with_hero("Zephrys, the Great", board=[pair[0], mk("BGS_004")], hand=[pair[1]], gold=3)
    assert tavern.visible_counter(state) == ("wishes_left", 3)
    start = held(state, pool)
    after = act(state, HeroPower(), pool=pool)
    assert after.gold == 0 and tavern.visible_counter(after) == ("wishes_left", 2)
    golden = [c for c in after.hand if isinstance(c, MinionCard) and c.golden]
    assert [g.card for g in golden] == ["BOT_606"] and golden[0].triple
    assert golden[0].pool_copies == ("BOT_606",) * 3
    assert held(after, pool) == start
    assert pool.count("BOT_606") == start["BOT_606"] - 3


def test_zephrys_creates_the_copy_when_the_pool_has_none_and_wishes_run_out():
    pool = Pool({"BGS_004": 4})
    state = with_hero("Zephrys, the Great", hand=[mk("BOT_606"), mk("BOT_606")], gold=10)
    after = act(state, HeroPower(), pool=pool)
    assert after.hand[0].golden and after.hand[0].pool_copies == ("BOT_606",) * 2
    spent = replace(state, hero=state.hero.changed(counter=0))
    with pytest.raises(IllegalActionError, match="no wishes left"):
        act(spent, HeroPower())
    single = with_hero("Zephrys, the Great", hand=[mk("BOT_606"), mk("BGS_004")], gold=3)
    with pytest.raises(IllegalActionError, match="no two copies"):
        act(single, HeroPower())
    goldens = with_hero("Zephrys, the Great", hand=[mk("BOT_606", golden=True)] * 2, gold=3)
    with pytest.raises(IllegalActionError, match="no two copies"):
        act(goldens, HeroPower())
    full = with_hero("Zephrys, the Great", hand=[mk("BOT_606")] * 2 + [mk("BGS_004")] * 8)
    with pytest.raises(IllegalActionError, match="hand is full"):
        act(full, HeroPower())


def test_zephrys_picks_the_minion_seen_first():
    state = with_hero(
        "Zephrys, the Great",
        board=[mk("CFM_315"), mk("BOT_606"), mk("BOT_606")],
        hand=[mk("CFM_315")],
    )
    after = act(state, HeroPower())
    assert [c.card for c in after.hand if c.golden] == ["CFM_315"]


# ------------------------------------------------------------ Captain Eudora


def test_captain_eudora_digs_five_times_for_a_golden_minion():
    state = with_hero("Captain Eudora", tier=3, gold=10)
    assert tavern.visible_counter(state) == ("digs_left", 5)
    pool = full_pool()
    start = held(state, pool)
    for left in (4, 3, 2, 1):
        state = act(state, HeroPower(), pool=pool)
        assert tavern.visible_counter(state) == ("digs_left", left) and state.hand == ()
        state = next_turn(replace(state, gold=10), pool)
    state = act(state, HeroPower(), pool=pool)
    assert tavern.visible_counter(state) == ("digs_left", 5)
    golden = state.hand[0]
    assert golden.golden and not golden.triple and INFO[golden.card].tier <= 3
    assert golden.pool_copies == (golden.card,) * 3
    assert held(state, pool) == start
    # it gives no Triple Reward when played
    played = act(state, Play(0, 0), pool=pool)
    assert played.hand == ()


def test_captain_eudoras_golden_is_lost_with_a_full_hand():
    hero = hero_powers.new_hero(HERO["Captain Eudora"].id, HERO["Captain Eudora"].power.id)
    state = st(hero=hero.changed(counter=1), hand=COINS, gold=1)
    pool = full_pool()
    after = act(state, HeroPower(), pool=pool)
    assert len(after.hand) == 10 and after.hero.counter == 5
    assert pool.counts() == full_pool().counts()


# ------------------------------------------------------------ Alexstrasza


def test_alexstrasza_discovers_two_dragons_after_reaching_tier_5():
    state = with_hero("Alexstrasza", tier=4, gold=20, upgrade_cost=3)
    pool = full_pool()
    start = held(state, pool)
    up = act(state, Upgrade(), pool=pool)
    assert up.tier == 5 and len(up.discover) == 3
    assert all(INFO[m.card].tribes & DRAGON for m in up.discover)
    assert held(up, pool) == start
    first = act(up, Choose(0), pool=pool)
    assert len(first.discover) == 3 and len(first.hand) == 1
    second = act(first, Choose(1), pool=pool)
    assert second.discover == () and len(second.hand) == 2
    assert all(INFO[m.card].tribes & DRAGON for m in second.hand)
    assert held(second, pool) == start
    assert act(second, Upgrade(), pool=pool).discover == ()  # tier 6: nothing more
    low = act(with_hero("Alexstrasza", tier=3, gold=10, upgrade_cost=3), Upgrade())
    assert low.discover == ()


# ------------------------------------------------------------ Elise Starseeker


def test_elise_starseeker_gets_a_recruitment_map_on_each_upgrade():
    state = with_hero("Elise Starseeker", tier=2, gold=10, upgrade_cost=3)
    up = act(state, Upgrade())
    assert up.hand == (SpellCard(MAP, 3),)
    pool = full_pool()
    start = held(up, pool)
    cast = act(replace(up, tier=4), Play(0), pool=pool)  # the map's tier is its own
    assert cast.gold == 10 - 3 - 3 and all(INFO[m.card].tier == 3 for m in cast.discover)
    assert held(cast, pool) == start
    full = with_hero("Elise Starseeker", tier=2, upgrade_cost=0, hand=COINS)
    assert len(act(full, Upgrade()).hand) == 10


# ------------------------------------------------------------ Shudderwock


def test_shudderwock_the_next_battlecry_this_turn_triggers_twice():
    state = with_hero(
        "Shudderwock", board=[mk("EX1_062")], hand=[mk("UNG_073"), mk("UNG_073")], gold=1
    )
    used = act(state, HeroPower())
    assert used.gold == 0
    once = act(used, Play(0, 1, 0))
    assert stats(once.board)[0] == ("EX1_062", 4, 6)  # Old Murk-Eye 2/4, +1/+1 twice
    again = act(once, Play(0, 2, 0))
    assert stats(again.board)[0] == ("EX1_062", 5, 7)  # only the next one
    # unused at the end of the turn: lost
    ended = act(used, EndTurn())
    assert ended.hero.counter == 0
    later = next_turn(ended, full_pool())
    assert stats(act(later, Play(0, 1, 0)).board)[0] == ("EX1_062", 3, 5)


def test_shudderwock_with_brann_bronzebeard_triggers_four_times():
    state = with_hero("Shudderwock", board=[mk("EX1_062"), mk("LOE_077")], hand=[mk("UNG_073")])
    after = act(state, HeroPower(), Play(0, 2, 0))
    assert stats(after.board)[0] == ("EX1_062", 6, 8)
    golden = with_hero(
        "Shudderwock", board=[mk("EX1_062"), mk("LOE_077", golden=True)], hand=[mk("UNG_073")]
    )
    assert stats(act(golden, HeroPower(), Play(0, 2, 0)).board)[0] == ("EX1_062", 8, 10)


# ------------------------------------------------------------ lobbies

MINE = (
    "Ysera",
    "Aranna Starseeker",
    "Infinite Toki",
    "Dinotamer Brann",
    "Jandice Barov",
    "Malygos",
    "Yogg-Saron, Hope's End",
    "Maiev Shadowsong",
    "Fungalmancer Flurgl",
    "Dancin' Deryl",
    "Silas Darkmoon",
    "Zephrys, the Great",
    "Captain Eudora",
    "Alexstrasza",
    "Elise Starseeker",
    "Shudderwock",
)


def _lobby_seeds(count: int) -> list[int]:
    """Seeds whose lobbies have Dragons and Murlocs (for the heroes tied to them)."""
    out = []
    seed = 0
    while len(out) < count:
        if {"dragon", "murloc"} <= set(Lobby(seed).tribes):
            out.append(seed)
        seed += 1
    return out


def _evidence(state, seen: Counter) -> None:
    """Note what a passive power visibly did in this state."""
    hero = state.hero
    if hero is None:
        return
    cards = {c.card for c in state.hand}
    seen["aranna unleashed"] += hero.power == SPECTRAL_SIGHT
    seen["prize"] += PRIZE in cards
    seen["map"] += MAP in cards
    seen["dormant"] += hero.power == HERO["Maiev Shadowsong"].power.id and bool(hero.extra)
    if hero.hero == HERO["Alexstrasza"].id and state.discover and state.tier == 5:
        seen["alexstrasza"] += all(INFO[m.card].tribes & DRAGON for m in state.discover)
    if hero.hero == HERO["Ysera"].id:
        seen["ysera"] += len(state.shop) > RULES.shop_size(state.tier)


WEIGHTS = {"EndTurn": 0.3, "Buy": 4, "Sell": 0.7, "Play": 4, "Move": 0.3, "Refresh": 1}
WEIGHTS |= {"Freeze": 0.3, "Upgrade": 0.8, "Choose": 1, "HeroPower": 6}


def _pick(legal, rng):
    """A random agent that picks an action kind first (weighted towards
    buying, playing and the hero power), then an action of that kind."""
    by_kind: dict[str, list] = {}
    for a in legal:
        by_kind.setdefault(type(a).__name__, []).append(a)
    kinds = list(by_kind)
    group = by_kind[rng.choices(kinds, [WEIGHTS[k] for k in kinds])[0]]
    return group[int(rng.random() * len(group))]


def test_random_agents_play_lobbies_of_these_heroes():
    """Every player drafts one of these heroes (all sixteen over each two
    lobbies); random agents play to the end; the pool copies stay exact after
    every action, and every power is seen at work."""
    seen: Counter[str] = Counter()
    used: Counter[str] = Counter()
    ids = [HERO[name].id for name in MINE]
    for k, seed in enumerate(_lobby_seeds(6)):
        lobby = Lobby(seed, heroes=True)
        start = Counter(starting_copies(lobby.tribes, RULES))
        for p in range(8):
            offers = (ids[(8 * k + p) % 16], ids[(8 * k + p + 8) % 16])
            lobby._states[p] = tavern.offer_heroes(lobby.state(p), offers)
        rng = random.Random(seed)
        while not lobby.done:
            turn = lobby.turn
            for p in lobby.to_act():
                while not lobby.done and lobby.turn == turn and p in lobby.to_act():
                    legal = lobby.legal_actions(p)
                    action = ChooseHero(0) if turn == 0 else _pick(legal, rng)
                    if isinstance(action, HeroPower):
                        used[lobby.state(p).hero.hero] += 1
                    lobby.apply(p, action)
                    _evidence(lobby.state(p), seen)
                    counts = lobby._pool.counts()
                    for q in range(8):
                        if lobby.alive(q):
                            counts.update(lobby.state(q).pool_copies())
                    assert counts == start
        assert sorted(lobby.placements.values()) == list(range(1, 9))
        assert [lobby.state(p).hero.hero for p in range(8)] == [
            ids[(8 * k + p) % 16] for p in range(8)
        ]
    active = [HERO[n].id for n in MINE if not HERO[n].power.passive]
    assert all(used[h] > 0 for h in active), used
    shown = ("aranna unleashed", "prize", "map", "dormant", "alexstrasza", "ysera")
    assert all(seen[k] > 0 for k in shown), seen


def test_random_lobbies_with_heroes_are_reproducible():
    def play(seed):
        lobby = Lobby(seed, heroes=True)
        ids = [HERO[name].id for name in MINE]
        for p in range(8):
            lobby._states[p] = tavern.offer_heroes(lobby.state(p), (ids[p + 8], ids[p]))
        rng = random.Random(seed)
        while not lobby.done and lobby.turn <= 8:
            p = lobby.to_act()[0]
            legal = lobby.legal_actions(p)
            lobby.apply(p, legal[int(rng.random() * len(legal))])
        return lobby.log

    seed = _lobby_seeds(1)[0]
    assert play(seed) == play(seed)
