"""Economy, limits, triples, discovers and legality of one player's recruit phase."""

import random

import pytest
from tavern_helpers import RULES, act, full_pool, mk, st, stats

from bgsim._core import tavern
from bgsim._core.minions import GOLD_COIN, TAUNT, TRIPLE_REWARD, SpellCard
from bgsim._core.player_state import PlayerState, new_player_state
from bgsim.actions import (
    ACTIONS,
    Buy,
    Choose,
    EndTurn,
    Freeze,
    IllegalActionError,
    Move,
    Play,
    Refresh,
    Sell,
    Upgrade,
)


def fresh(turns: int = 1, seed: int = 0):
    """A new player through ``turns`` turn starts, ending each turn unchanged."""
    pool, rng = full_pool(), random.Random(seed)
    s = new_player_state(0, RULES)
    for turn in range(1, turns + 1):
        if turn > 1:
            s = tavern.apply_action(s, EndTurn(), pool, rng, RULES)
        s = tavern.start_turn(s, turn, pool, rng, RULES)
    return s, pool, rng


# ------------------------------------------------------------ economy


def test_gold_curve_and_upgrade_discount():
    golds, costs = [], []
    for turns in range(1, 11):
        s, _, _ = fresh(turns)
        golds.append(s.gold)
        costs.append(s.upgrade_cost)
    assert golds == [3, 4, 5, 6, 7, 8, 9, 10, 10, 10]
    assert costs == [5, 4, 3, 2, 1, 0, 0, 0, 0, 0]


def test_upgrade_restarts_at_the_next_base_cost():
    s, pool, rng = fresh(2)
    s = tavern.apply_action(s, Upgrade(), pool, rng, RULES)
    assert (s.tier, s.gold, s.upgrade_cost) == (2, 0, 7)
    s = tavern.apply_action(s, EndTurn(), pool, rng, RULES)
    s = tavern.start_turn(s, 3, pool, rng, RULES)
    assert (s.upgrade_cost, len(s.shop)) == (6, 4)


@pytest.mark.parametrize(("tier", "size"), [(1, 3), (2, 4), (3, 4), (4, 5), (5, 5), (6, 6)])
def test_shop_size_by_tier(tier, size):
    s = tavern.start_turn(st(tier=tier), 6, full_pool(), random.Random(1), RULES)
    assert len(s.shop) == size and all(m.tier <= tier for m in s.shop)
    assert s.shop_frozen == (False,) * size


def test_no_upgrade_past_tier_6():
    s = st(tier=6)
    assert Upgrade() not in tavern.legal_actions(s, RULES)
    assert "tier 6" in tavern.why_illegal(s, Upgrade(), RULES)


def test_buy_sell_refresh_costs_and_pool():
    pool = full_pool()
    size = len(pool)
    s = tavern.start_turn(
        st(tier=1, gold=0, board=[mk("EX1_531")]), 3, pool, random.Random(2), RULES
    )
    assert len(pool) == size - 3 and s.gold == 5
    bought = s.shop[0]
    s = act(s, Buy(0), pool=pool)
    assert (s.gold, s.hand, len(s.shop)) == (2, (bought,), 2)
    s = act(s, Refresh(), pool=pool)
    assert s.gold == 1 and len(s.shop) == 3 and len(pool) == size - 4
    s = act(s, Sell(0), pool=pool)
    assert s.gold == 2 and s.board == () and len(pool) == size - 3


def test_selling_a_golden_returns_three_copies():
    pool = full_pool()
    s = st(shop=[mk("EX1_531")], hand=[mk("EX1_531"), mk("EX1_531")])
    before = pool.count("EX1_531")
    s = act(s, Buy(0), Play(0, 0), Sell(0), pool=pool)
    assert pool.count("EX1_531") == before + 3
    assert s.hand == (SpellCard(TRIPLE_REWARD, 6),)


def test_freeze_keeps_the_shop_and_refills_bought_slots():
    pool = full_pool()
    s = tavern.start_turn(st(tier=2), 6, pool, random.Random(3), RULES)
    kept = s.shop[1:]
    s = act(s, Freeze(), Buy(0), EndTurn(), pool=pool)
    assert s.frozen
    s = tavern.start_turn(s, 7, pool, random.Random(4), RULES)
    assert s.shop[:3] == kept and len(s.shop) == 4
    assert s.shop_frozen == (False,) * 4


def test_freeze_toggles_and_refresh_replaces_frozen_minions():
    s = st(shop=[mk("EX1_531"), mk("BGS_039")])
    assert act(s, Freeze()).shop_frozen == (True, True)
    assert act(s, Freeze(), Freeze()).shop_frozen == (False, False)
    pool = full_pool()
    s = act(s, Freeze(), Refresh(), pool=pool, rng=random.Random(0))
    assert s.shop_frozen == (False,) * 6 and s.gold == 9
    assert "empty" in tavern.why_illegal(st(), Freeze(), RULES)


def test_move():
    s = st(board=[mk("EX1_531"), mk("BGS_039"), mk("YOD_026")])
    assert [m.card for m in act(s, Move(0, 2)).board] == ["BGS_039", "YOD_026", "EX1_531"]
    assert [m.card for m in act(s, Move(2, 0)).board] == ["YOD_026", "EX1_531", "BGS_039"]


def test_gold_coin_can_go_past_ten_for_the_turn():
    s = act(st(hand=[SpellCard(GOLD_COIN)], gold=10), Play(0))
    assert s.gold == 11 and s.hand == ()
    s = tavern.start_turn(act(s, EndTurn()), 7, full_pool(), random.Random(0), RULES)
    assert s.gold == 9


# ------------------------------------------------------------ limits


def test_full_hand_cannot_buy_and_full_board_cannot_play():
    hand = [mk(c) for c in ("EX1_531", "BGS_039", "YOD_026", "BGS_061", "BGS_106")] * 2
    s = st(hand=hand, shop=[mk("EX1_556")])
    assert "hand is full" in tavern.why_illegal(s, Buy(0), RULES)
    assert not [a for a in tavern.legal_actions(s, RULES) if isinstance(a, Buy)]
    board = [mk(c) for c in ("EX1_531", "BGS_039", "YOD_026")] * 2 + [mk("BGS_061")]
    s = st(board=board, hand=[mk("EX1_556")])
    assert "warband is full" in tavern.why_illegal(s, Play(0, 0), RULES)
    assert not [a for a in tavern.legal_actions(s, RULES) if isinstance(a, Play)]


def test_not_enough_gold():
    s = st(gold=2, shop=[mk("EX1_531")], tier=1)
    assert "costs 3 gold" in tavern.why_illegal(s, Buy(0), RULES)
    assert tavern.why_illegal(st(gold=0), Refresh(), RULES)
    assert tavern.why_illegal(st(gold=4, tier=1, upgrade_cost=5), Upgrade(), RULES)


def test_action_cap_stands_in_for_the_timer():
    cap = RULES.recruit.actions_per_turn
    s = st(board=[mk("EX1_531"), mk("BGS_039")])
    for _ in range(cap):
        s = act(s, Move(0, 1))
    assert s.actions == cap
    assert tavern.legal_actions(s, RULES) == [EndTurn()]
    assert "timer" in tavern.why_illegal(s, Move(0, 1), RULES)
    pool = full_pool()
    s = tavern.start_turn(act(s, EndTurn()), 6, pool, random.Random(0), RULES)
    assert s.actions == 0 and len(tavern.legal_actions(s, RULES)) > 1


# ------------------------------------------------------------ triples and discover


def test_triple_merges_buffs_keywords_and_copies():
    hand = [mk("EX1_531", 5, 3), mk("EX1_531", 1, 2, keywords=TAUNT)]
    s = st(board=[mk("BGS_039"), mk("EX1_531", 2, 6)], hand=hand, shop=[mk("EX1_531")])
    s = act(s, Buy(0))
    assert [m.card for m in s.board] == ["BGS_039", "EX1_531"]  # the hand copies come first
    golden = s.hand[0]
    # golden 4/4 plus buffs (+3/+1) + (-1/0) + (0/0): attack 6, health 5
    assert (golden.card_id, golden.attack, golden.health) == ("TB_BaconUps_043", 6, 5)
    assert golden.keywords & TAUNT and golden.triple
    assert golden.pool_copies == ("EX1_531",) * 3


def test_golden_never_below_golden_base():
    s = act(st(hand=[mk("EX1_531", 0, 1)] * 2, shop=[mk("EX1_531")]), Buy(0))
    assert stats(s.hand) == [("TB_BaconUps_043", 4, 4)]


def test_triple_reward_discovers_from_the_next_tier():
    pool = full_pool()
    s = st(hand=[mk("EX1_531"), mk("EX1_531")], shop=[mk("EX1_531")], tier=3)
    s = act(s, Buy(0), Play(0, 0), pool=pool)
    assert s.hand == (SpellCard(TRIPLE_REWARD, 4),)
    s = act(s, Play(0), pool=pool, rng=random.Random(5))
    assert len(s.discover) == 3 and all(m.tier == 4 for m in s.discover)
    assert tavern.legal_actions(s, RULES) == [Choose(0), Choose(1), Choose(2)]
    with pytest.raises(IllegalActionError, match="Discover is pending"):
        act(s, EndTurn(), pool=pool)
    chosen = s.discover[2]
    s = act(s, Choose(2), pool=pool)
    assert s.hand == (chosen,) and chosen.pool_copies == (chosen.card,)


def test_triple_reward_tier_caps_at_six_and_created_goldens_give_none():
    s = act(st(hand=[mk("EX1_531", triple=True, golden=True)], tier=6), Play(0, 0))
    assert s.hand == (SpellCard(TRIPLE_REWARD, 6),)
    assert act(st(hand=[mk("EX1_531", golden=True)]), Play(0, 0)).hand == ()


def test_tokens_triple_too():
    s = act(st(board=[mk("CFM_315t"), mk("CFM_315t")], hand=[mk("CFM_315")]), Play(0, 0))
    assert [m.card for m in s.board] == ["CFM_315"]
    assert stats(s.hand) == [("TB_BaconUps_093t", 2, 2)]
    assert s.hand[0].pool_copies == ()


# ------------------------------------------------------------ legality


def test_illegal_actions_change_nothing():
    pool = full_pool()
    rng = random.Random(9)
    s = tavern.start_turn(st(tier=2, gold=0), 3, pool, rng, RULES)
    counts, rng_state = pool.counts(), rng.getstate()
    bad = (Buy(7), Buy("0"), Move(1, 1), Play(0, 8), Play(10, 0))
    for action in (*bad, Sell(0), Move(0, 1), Play(0, 0), Choose(0), Upgrade(), "Buy(0)"):
        with pytest.raises(IllegalActionError) as err:
            tavern.apply_action(s, action, pool, rng, RULES)
        assert repr(action) in str(err.value)
    assert pool.counts() == counts and rng.getstate() == rng_state
    ended = act(s, EndTurn())
    with pytest.raises(IllegalActionError, match="already ended"):
        act(ended, Buy(0))
    assert tavern.legal_actions(ended, RULES) == []


def test_legal_actions_mask_and_why_illegal_agree_on_random_states():
    pool, rng = full_pool(), random.Random(11)
    checked = 0
    for game in range(8):
        s = new_player_state(0, RULES)
        for turn in range(1, 12):
            s = tavern.start_turn(s, turn, pool, rng, RULES)
            while not s.ended:
                legal = tavern.legal_actions(s, RULES)
                mask = tavern.action_mask(s, RULES)
                assert set(map(int, mask.nonzero()[0])) == {a.code for a in legal}
                assert len(set(legal)) == len(legal)
                if checked % 3 == 0:
                    for action in ACTIONS:
                        assert (tavern.why_illegal(s, action, RULES) is None) == mask[action.code]
                checked += 1
                s = tavern.apply_action(s, legal[int(rng.random() * len(legal))], pool, rng, RULES)
            if game % 3 == 0:
                s = tavern.after_combat(
                    s, 0, True, False, (), (GOLD_COIN,), ("BGS_004",), pool, RULES
                )
        tavern.release(s, pool)
    assert checked > 500


def test_states_the_engine_builds_are_whole_frozen_player_states():
    import dataclasses

    s, pool, rng = fresh(3)
    after = tavern.apply_action(s, Buy(0), pool, rng, RULES)
    assert type(after) is PlayerState
    fields = {f.name: getattr(after, f.name) for f in dataclasses.fields(after) if f.init}
    rebuilt = PlayerState(**fields)
    assert rebuilt == after and hash(rebuilt) == hash(after)
    assert after.gold == s.gold - RULES.economy.buy_cost and len(after.hand) == 1
    with pytest.raises(dataclasses.FrozenInstanceError):
        after.gold = 99
    # Compiled or not: pickles, copies by replace, and positional order is the fields'.
    import pickle

    assert pickle.loads(pickle.dumps(after)) == after
    assert dataclasses.replace(after, gold=1) == PlayerState(**{**fields, "gold": 1})
    assert PlayerState(*fields.values()) == after and after._legal is None
