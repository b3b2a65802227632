"""Hero powers that buff the warband or change gold and counters (the group
modules bgsim/_core/heroes_warband.py and heroes_economy.py): each power in
every recruit-phase and lobby-phase part of its text, and whole lobbies where
these heroes are drafted."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from itertools import pairwise

import pytest
from tavern_helpers import RULES, act, full_pool, mk, st, stats

from bgsim import ChooseHero, EndTurn, HeroPower, IllegalActionError, Lobby, Play, Sell
from bgsim._core import hero_powers, tavern
from bgsim._core.heroes_warband import (
    COMPETITIVE_SPIRIT,
    ICE_BLOCK,
    KINGS,
    MAX_SECRETS,
    SECRETS,
    secrets_in_play,
)
from bgsim._core.minions import (
    INFO,
    PIRATE,
    REBORN,
    TRIBE_BITS,
    TRIPLE_REWARD,
    MinionCard,
    SpellCard,
    make_minion,
)
from bgsim._core.pool import Pool, starting_copies
from bgsim.actions import Buy, Freeze, Upgrade
from bgsim.cards import cards
from bgsim.heroes import heroes
from combat_c import resolve

HERO = {h.name: h for h in heroes().values()}
HERO_BY_ID = heroes()


def fresh_hero(name: str):
    """The hero state of ``name`` as just chosen."""
    info = HERO[name]
    return hero_powers.new_hero(info.id, info.power.id)


def with_hero(name: str, **state):
    """A player state whose hero is ``name`` (its power fresh)."""
    return st(hero=fresh_hero(name), **state)


def next_turn(state, pool=None, rng=None, turn=None):
    """The state at the start of the next turn (``turn`` if given)."""
    pool = pool if pool is not None else full_pool()
    turn = state.turn + 1 if turn is None else turn
    return tavern.start_turn(state, turn, pool, rng or random.Random(0), RULES)


def fight(state, killed=(), pool=None):
    """What a fight with no damage and no buffs leaves (enemy ``killed``,
    as the fight's result gives them: how many, and the first)."""
    pool = pool if pool is not None else full_pool()
    first = killed[0] if killed else None
    return tavern.after_combat(state, 0, True, False, (), (), (), pool, RULES, len(killed), first)


def power_actions(state):
    return [a for a in tavern.legal_actions(state, RULES) if isinstance(a, HeroPower)]


# ------------------------------------------------------------ Edwin VanCleef


def test_edwin_vancleef_gives_plus_one_per_minion_bought_this_turn():
    shop = [mk("BGS_004"), mk("BOT_606"), mk("EX1_506")]
    state = with_hero("Edwin VanCleef", board=[mk("BGS_039")], shop=shop, gold=10)
    bought = act(state, Buy(0), Buy(0))
    assert bought.hero.counter == 2 and bought.gold == 4
    used = act(bought, HeroPower(target=0))
    assert stats(used.board) == [("BGS_039", 4, 5)] and used.gold == 3
    # nothing bought yet: the power still costs and is used, for nothing
    idle = act(state, HeroPower(target=0))
    assert stats(idle.board) == [("BGS_039", 2, 3)] and idle.gold == 9 and idle.hero.uses == 1
    # discovered minions do not count; a new turn starts the count again
    assert next_turn(bought).hero.counter == 0
    with pytest.raises(IllegalActionError, match="cannot aim at nothing"):
        act(state, HeroPower())


# ------------------------------------------------------------ Reno Jackson


def test_reno_jackson_makes_a_minion_golden_once_keeping_buffs_and_its_pool_copy():
    buffed = mk("BOT_606").buffed(3, 1)  # Kaboom Bot 5/3
    state = with_hero("Reno Jackson", board=[buffed, mk("EX1_506", golden=True)], gold=0)
    assert power_actions(state) == [HeroPower(target=0)]  # a golden is no target
    pool = full_pool()
    used = act(state, HeroPower(target=0), pool=pool)
    golden = used.board[0]
    assert golden.golden and (golden.attack, golden.health) == (4 + 3, 4 + 1)
    assert golden.pool_copies == ("BOT_606",) and not golden.triple  # no Triple Reward
    assert used.hero.spent and not power_actions(next_turn(used))
    with pytest.raises(IllegalActionError, match="already used this game"):
        act(next_turn(used), HeroPower(target=0))
    # selling it gives back the one copy it holds
    before = pool.count("BOT_606")
    act(used, Sell(0), pool=pool)
    assert pool.count("BOT_606") == before + 1
    # a created minion stays created: it holds no copy golden either
    created = with_hero("Reno Jackson", board=[make_minion("BOT_606")])
    assert act(created, HeroPower(target=0)).board[0].pool_copies == ()


def test_reno_jackson_cannot_target_a_minion_without_a_golden_version():
    no_golden = [c.id for c in cards() if c.is_minion and not c.golden and not c.golden_id]
    card = next(c for c in no_golden if c in INFO)
    state = with_hero("Reno Jackson", board=[make_minion(card)])
    assert power_actions(state) == []
    with pytest.raises(IllegalActionError, match="no valid target"):
        act(state, HeroPower(target=0))


# ------------------------------------------------------------ The Lich King


def test_the_lich_king_gives_reborn_for_the_next_combat_only():
    state = with_hero("The Lich King", board=[mk("BOT_606"), mk("ULD_217")], gold=0)
    assert power_actions(state) == [HeroPower(target=0)]  # Micro Mummy has Reborn
    used = act(state, HeroPower(target=0))
    assert used.board[0].keywords & REBORN and used.gold == 0
    # the combat engine receives Reborn: the minion comes back in the fight
    board = used.warband()
    assert board.minions[0].reborn
    strong = st(board=[mk("BGS_060", 50, 50)]).warband()
    result = resolve(board, strong, 1)
    assert [e for e in result.events if e.trigger == "reborn" and e.card == "BOT_606"]
    # after the fight the Rite is gone; the Mummy keeps its own Reborn
    after = fight(used)
    assert not after.board[0].keywords & REBORN and after.board[1].keywords & REBORN


def test_the_lich_kings_reborn_leaves_a_golden_made_from_the_minion_after_combat():
    state = with_hero(
        "The Lich King", board=[mk("BOT_606")], hand=[mk("BOT_606")], shop=[mk("BOT_606")]
    )
    tripled = act(state, HeroPower(target=0), Buy(0))
    golden = next(c for c in tripled.hand if isinstance(c, MinionCard) and c.golden)
    assert golden.keywords & REBORN and not tripled.board
    after = fight(tripled)
    golden = next(c for c in after.hand if isinstance(c, MinionCard) and c.golden)
    assert not golden.keywords & REBORN


# ------------------------------------------------------------ C'Thun


def test_cthun_buffs_at_end_of_turn_and_repeats_one_more_time_after_each_use():
    state = with_hero("C'Thun", board=[mk("BGS_004"), mk("BOT_606")], gold=10)
    assert tavern.visible_counter(state) == ("repeats", 0)
    used = act(state, HeroPower())
    assert used.gold == 8 and stats(used.board) == stats(state.board)  # nothing yet
    ended = act(used, EndTurn())
    gained = sum(m.attack + m.health for m in ended.board) - 8
    assert gained == 2 and ended.hero.counter == 1
    second = act(next_turn(ended), HeroPower(), EndTurn())
    gained = sum(m.attack + m.health for m in second.board) - 8
    assert gained == 2 + 4 and tavern.visible_counter(second) == ("repeats", 2)
    # a turn without using it: nothing, the counter stays
    idle = act(next_turn(second), EndTurn())
    assert stats(idle.board) == stats(second.board) and idle.hero.counter == 2
    # no minion at the end of the turn: the buffs are lost, the counter rises
    empty = act(with_hero("C'Thun", gold=2), HeroPower(), EndTurn())
    assert empty.hero.counter == 1 and not empty.board


# ------------------------------------------------------------ Kael'thas


def test_kaelthas_gives_every_third_minion_bought_plus_two_across_turns():
    shop = [mk("BGS_004"), mk("BGS_039"), mk("EX1_506")]
    state = with_hero("Kael'thas Sunstrider", shop=shop, gold=6)
    two = act(state, Buy(0), Buy(0))
    assert stats(two.hand) == [("BGS_004", 1, 3), ("BGS_039", 2, 3)]
    assert two.hero.counter == 2
    later = replace(next_turn(two), shop=tuple(shop), shop_frozen=(False,) * 3, gold=6)
    third = act(later, Buy(2), Buy(0))
    assert stats(third.hand)[2:] == [("EX1_506", 4, 3), ("BGS_004", 1, 3)]
    assert third.hero.counter == 1


# ------------------------------------------------------------ Overlord Saurfang


def test_overlord_saurfang_gives_the_next_minion_bought_attack_growing_each_turn():
    state = with_hero("Overlord Saurfang", turn=0)
    assert state.hero.counter == 1
    turns = [state]
    for turn in range(1, 5):
        turns.append(next_turn(turns[-1], turn=turn))
    assert [s.hero.counter for s in turns[1:]] == [1, 2, 3, 4]
    assert tavern.visible_counter(turns[4]) == ("attack_bonus", 4)
    shop = (mk("BGS_004"), mk("BGS_039"))
    ready = replace(turns[4], shop=shop, shop_frozen=(False, False), gold=10)
    bought = act(ready, HeroPower(), Buy(0), Buy(0))
    assert stats(bought.hand) == [("BGS_004", 5, 3), ("BGS_039", 2, 3)]  # only the first
    assert bought.gold == 10 - 1 - 6
    # armed and nothing bought: gone at the next turn
    armed = act(ready, HeroPower())
    assert armed.hero.extra and not next_turn(armed).hero.extra


# ------------------------------------------------------------ The Rat King


def test_the_rat_king_swaps_among_the_lobbys_types_and_buffs_that_type_when_bought():
    tribes = ("beast", "demon", "mech", "murloc", "pirate")
    pool = Pool(starting_copies(tribes, RULES))
    offers = (HERO["The Rat King"].id, HERO["Patchwerk"].id)
    state = act(tavern.offer_heroes(st(turn=0), offers), ChooseHero(0), pool=pool)
    allowed = {KINGS[TRIBE_BITS[t]] for t in tribes}
    rng = random.Random(4)
    seen = []
    for turn in range(1, 40):
        state = next_turn(state, pool, rng, turn)
        seen.append(state.hero.power)
    assert set(seen) == allowed  # every lobby type comes up, no other
    assert all(a != b for a, b in pairwise(seen))  # never twice in a row
    # buying a minion of the turn's type gives it +2/+2, others nothing
    king = fresh_hero("The Rat King").changed(power=KINGS[TRIBE_BITS["beast"]])
    amalgam = make_minion("TB_BaconShop_HP_033t")  # every type
    shop = [mk("CFM_315"), mk("BGS_004"), mk("BGS_039"), amalgam]
    bought = act(st(hero=king, shop=shop), Buy(0), Buy(0), Buy(1))
    assert stats(bought.hand) == [
        ("CFM_315", 3, 3),
        ("BGS_004", 1, 3),
        (
            "TB_BaconShop_HP_033t",
            INFO["TB_BaconShop_HP_033t"].attack + 2,
            INFO["TB_BaconShop_HP_033t"].health + 2,
        ),
    ]
    # every player sees which King he is this turn
    lobby = _drafted_lobby(HERO["The Rat King"].id)
    if lobby is not None:
        p, lob = lobby
        assert lob.public_players()[p].hero_power in set(KINGS.values())


# ------------------------------------------------------------ Sindragosa


def test_sindragosa_gives_frozen_tavern_minions_plus_two_plus_one_at_end_of_turn():
    shop = [mk("BGS_004"), mk("BOT_606")]
    state = with_hero("Sindragosa", shop=shop)
    frozen = act(state, Freeze(), EndTurn())
    assert stats(frozen.shop) == [("BGS_004", 3, 4), ("BOT_606", 4, 3)]
    assert act(state, EndTurn()).shop == state.shop  # not frozen: nothing
    # kept (and thawed) next turn, frozen again: another +2/+1, kept when bought
    pool = full_pool()
    again = act(next_turn(frozen, pool), Freeze(), EndTurn(), pool=pool)
    assert stats(again.shop)[:2] == [("BGS_004", 5, 5), ("BOT_606", 6, 4)]
    bought = act(next_turn(again, pool), Buy(0), pool=pool)
    assert stats(bought.hand) == [("BGS_004", 5, 5)] and bought.hand[0].pool_copies == ("BGS_004",)


# ------------------------------------------------------------ Patches the Pirate


def test_patches_gets_a_pirate_from_the_pool_and_pirates_bought_lower_the_cost():
    pool = full_pool()
    state = with_hero("Patches the Pirate", tier=2, gold=10)
    assert tavern.visible_counter(state) == ("cost_reduction", 0)
    used = act(state, HeroPower(), pool=pool)
    pirate = used.hand[0]
    assert used.gold == 7 and INFO[pirate.card].tribes & PIRATE and pirate.tier <= 2
    assert pool.count(pirate.card) == full_pool().count(pirate.card) - 1
    assert pirate.pool_copies == (pirate.card,)
    shop = (mk("BGS_061"), mk("BGS_055"), mk("BGS_004"))
    ready = replace(next_turn(used), shop=shop, shop_frozen=(False,) * 3, gold=10)
    cheaper = act(ready, Buy(0), Buy(0), Buy(0))
    assert cheaper.hero.discount == 2 and hero_powers.power_cost(cheaper.hero) == 1
    assert tavern.visible_counter(cheaper) == ("cost_reduction", 2)
    # the reductions carry over turns until the power is used, which resets them
    carried = replace(next_turn(cheaper), gold=10)
    assert hero_powers.power_cost(carried.hero) == 1
    reset = act(carried, HeroPower())
    assert reset.gold == 9 and reset.hero.discount == 0
    full = with_hero("Patches the Pirate", hand=[SpellCard("TB_BaconShop_HP_008a")] * 10)
    with pytest.raises(IllegalActionError, match="hand is full"):
        act(full, HeroPower())


# ------------------------------------------------------------ Skycap'n Kragg


def test_skycapn_kragg_gains_gold_equal_to_the_turn_once_per_game():
    state = with_hero("Skycap'n Kragg", turn=0)
    for turn in range(1, 8):
        state = next_turn(state, turn=turn)
    assert state.gold == 9 and tavern.visible_counter(state) == ("gold", 7)
    state = next_turn(state)
    used = act(state, HeroPower())
    assert used.gold == 18 and used.hero.spent  # above 10 for the turn
    assert next_turn(used).gold == 10
    with pytest.raises(IllegalActionError, match="already used this game"):
        act(next_turn(used), HeroPower())


# ------------------------------------------------------------ Chenvaala


def test_chenvaala_lowers_the_upgrade_cost_by_3_after_every_3_elementals():
    hand = [mk("BGS_115"), mk("BGS_004"), mk("BGS_127"), mk("BGS_115"), mk("BGS_120")]
    state = with_hero("Chenvaala", hand=hand, tier=2, upgrade_cost=7, gold=0)
    two = act(state, Play(0, 0), Play(0, 0), Play(0, 0))  # Wrath Weaver does not count
    assert two.upgrade_cost == 7 and tavern.visible_counter(two) == ("elementals_played", 2)
    three = act(two, Play(0, 0))
    assert three.upgrade_cost == 4 and three.hero.counter == 0
    # the discount stays until she upgrades, never below 0
    two_played = fresh_hero("Chenvaala").changed(counter=2)
    low = st(hero=two_played, hand=hand[:1], tier=2, upgrade_cost=1)
    assert act(low, Play(0, 0)).upgrade_cost == 0
    up = act(replace(three, gold=10), Upgrade())
    assert up.gold == 6 and up.upgrade_cost == RULES.upgrade_base_cost(4)


# ------------------------------------------------------------ A. F. Kay


def test_af_kay_skips_her_first_two_turns_then_gets_two_tier_3_triple_rewards():
    found = _drafted_lobby(HERO["A. F. Kay"].id)
    assert found is not None
    kay, lobby = found
    for turn in (1, 2):
        assert lobby.turn == turn and kay not in lobby.to_act()
        s = lobby.state(kay)
        assert s.ended and not s.shop and lobby.legal_actions(kay) == []
        assert lobby.public_players()[kay].counter == ("turns_skipped", turn)
        for p in lobby.to_act():
            lobby.apply(p, EndTurn())
    s = lobby.state(kay)
    assert lobby.turn == 3 and kay in lobby.to_act() and s.shop
    assert s.tier == 1 and s.upgrade_cost == RULES.upgrade_base_cost(2) - 2
    rewards = [c for c in s.hand if isinstance(c, SpellCard)]
    assert [(c.card, c.tier) for c in rewards] == [(TRIPLE_REWARD, 3)] * 2
    lobby.apply(kay, Play(0))
    assert {m.tier for m in lobby.state(kay).discover} == {3}


# ------------------------------------------------------------ Y'Shaarj


def test_yshaarj_arms_the_start_of_combat_summon_for_this_turns_combat():
    state = with_hero("Y'Shaarj", gold=2)
    armed = act(state, HeroPower())
    assert armed.gold == 0 and armed.hero.counter == 1
    assert fight(armed).hero.counter == 0  # that combat used it
    assert act(with_hero("Y'Shaarj"), EndTurn()).hero.counter == 0


# ------------------------------------------------------------ Arch-Villain Rafaam


def test_rafaam_gets_a_plain_copy_of_the_first_enemy_minion_killed():
    state = with_hero("Arch-Villain Rafaam", gold=1)
    armed = act(state, HeroPower())
    assert armed.gold == 0 and armed.hero.counter == 1
    pool = full_pool()
    before = pool.count("BOT_606")
    got = fight(armed, ("BOT_606", "BGS_004"), pool)
    assert stats(got.hand) == [("BOT_606", 2, 2)] and got.hero.counter == 0
    assert got.hand[0].pool_copies == ("BOT_606",) and pool.count("BOT_606") == before - 1
    # a golden: a plain golden copy, created; a token: created
    golden = cards().golden("BOT_606").id
    copy = fight(armed, (golden,), pool).hand[0]
    assert copy.golden and copy.pool_copies == () and (copy.attack, copy.health) == (4, 4)
    token_id = next(c.id for c in cards() if c.is_minion and not c.in_pool and c.id in INFO)
    token = fight(armed, (token_id,), pool)
    assert len(token.hand) == 1 and token.hand[0].pool_copies == ()
    # not armed or nothing killed: nothing; the arming lasts one combat
    assert fight(state, ("BOT_606",)).hand == ()
    none = fight(armed, ())
    assert none.hand == () and none.hero.counter == 0
    # a full hand loses it and the pool keeps its copy
    coins = [SpellCard("TB_BaconShop_HP_008a")] * 10
    full = act(with_hero("Arch-Villain Rafaam", hand=coins), HeroPower())
    pool = full_pool()
    assert len(fight(full, ("BOT_606",), pool).hand) == 10
    assert pool.count("BOT_606") == full_pool().count("BOT_606")


def test_the_fights_result_counts_the_enemy_minions_killed():
    a = st(board=[mk("BGS_060", 50, 50)]).warband()
    b = st(board=[mk("BOT_606"), mk("EX1_506", golden=True)]).warband()
    result = resolve(a, b, 3)
    mine, theirs = result.aftermath
    assert mine.first_kill in ("BOT_606", cards().golden("EX1_506").id)
    assert mine.kills == 2 and theirs.kills == 0 and theirs.first_kill is None
    dead = [e.card for e in result.events if e.kind == "death" and e.side == 1]
    assert dead[0] == mine.first_kill and len(dead) == mine.kills


# ------------------------------------------------------------ The Great Akazamzarak


def test_the_great_akazamzarak_discovers_a_secret_and_puts_it_into_play():
    assert len(SECRETS) == 10
    state = with_hero("The Great Akazamzarak", gold=5)
    used = act(state, HeroPower(), rng=random.Random(1))
    offers = used.hero_offers
    assert used.gold == 4 and len(offers) == 3 and len(set(offers)) == 3
    assert set(offers) <= set(SECRETS) and not used.ended
    assert tavern.legal_actions(used, RULES) == [ChooseHero(0), ChooseHero(1), ChooseHero(2)]
    with pytest.raises(IllegalActionError, match="hero power's offers first"):
        act(used, EndTurn())
    picked = act(used, ChooseHero(1))
    assert secrets_in_play(picked.hero) == (offers[1],) and not picked.ended
    assert picked.hero.power == state.hero.power and picked.hero_offers == ()
    assert EndTurn() in tavern.legal_actions(picked, RULES)


def test_the_great_akazamzaraks_secrets_are_distinct_at_most_five_ice_block_once():
    state = with_hero("The Great Akazamzarak", gold=10)
    rng = random.Random(2)
    for _ in range(MAX_SECRETS):
        state = replace(state, hero=state.hero.changed(uses=0))  # a new turn's use
        state = act(state, HeroPower(), rng=rng)
        assert not set(state.hero_offers) & set(secrets_in_play(state.hero))
        state = act(state, ChooseHero(0))
    have = secrets_in_play(state.hero)
    assert len(set(have)) == MAX_SECRETS
    with pytest.raises(IllegalActionError, match="already has 5 Secrets"):
        act(replace(state, hero=state.hero.changed(uses=0)), HeroPower())
    # Ice Block is offered only until it is picked once (even after it is gone)
    ice = fresh_hero("The Great Akazamzarak").changed(extra=((), True))
    offered: set[str] = set()
    for seed in range(40):
        s = act(st(hero=ice), HeroPower(), rng=random.Random(seed))
        offered |= set(s.hero_offers)
    assert ICE_BLOCK not in offered and len(offered) == 9
    # when fewer than three are left, fewer are offered; none left: unusable
    # picking it is what marks it taken
    offered_ice = st(hero=fresh_hero("The Great Akazamzarak"), hero_offers=(SECRETS[0], ICE_BLOCK))
    picked = act(offered_ice, ChooseHero(1))
    assert picked.hero.extra == ((ICE_BLOCK,), True)
    assert act(offered_ice, ChooseHero(0)).hero.extra == ((SECRETS[0],), False)


def test_competitive_spirit_buffs_his_minions_at_the_start_of_his_next_turn():
    spirit = (COMPETITIVE_SPIRIT, ICE_BLOCK)
    hero = fresh_hero("The Great Akazamzarak").changed(extra=(spirit, False))
    state = st(board=[mk("BGS_004"), mk("BOT_606")], hero=hero)
    started = next_turn(state)
    assert stats(started.board) == [("BGS_004", 2, 4), ("BOT_606", 3, 3)]
    assert secrets_in_play(started.hero) == (ICE_BLOCK,)
    assert stats(next_turn(started).board) == stats(started.board)
    # With no minion to buff it does not trigger: it waits for a turn with one.
    empty = next_turn(st(board=[], hero=hero))
    assert secrets_in_play(empty.hero) == spirit


# ------------------------------------------------------------ whole lobbies

MINE = (
    "Edwin VanCleef",
    "Reno Jackson",
    "The Lich King",
    "C'Thun",
    "Kael'thas Sunstrider",
    "Overlord Saurfang",
    "The Rat King",
    "Sindragosa",
    "Patches the Pirate",
    "Skycap'n Kragg",
    "Chenvaala",
    "A. F. Kay",
    "Y'Shaarj",
    "Arch-Villain Rafaam",
    "The Great Akazamzarak",
)
MINE_IDS = frozenset(HERO[name].id for name in MINE)


def _drafted_lobby(hero_id: str, seeds=range(200)):
    """A lobby where a player drafted ``hero_id`` (the others their first
    offer), at the start of turn 1: (that player, lobby), or None."""
    for seed in seeds:
        lobby = Lobby(seed, heroes=True)
        offers = [lobby.state(p).hero_offers for p in range(8)]
        who = next((p for p in range(8) if hero_id in offers[p]), None)
        if who is None:
            continue
        for p in range(8):
            lobby.apply(p, ChooseHero(offers[p].index(hero_id) if p == who else 0))
        return who, lobby
    return None


WEIGHTS = {
    "EndTurn": 0.3,
    "Buy": 4,
    "Sell": 0.7,
    "Play": 4,
    "Move": 0.5,
    "Refresh": 1,
    "Freeze": 0.5,
    "Upgrade": 0.7,
    "Choose": 1,
    "ChooseHero": 1,
    "HeroPower": 3,
}


def _policy(legal, rng):
    by_kind: dict[str, list] = {}
    for a in legal:
        by_kind.setdefault(type(a).__name__, []).append(a)
    kinds = list(by_kind)
    group = by_kind[rng.choices(kinds, [WEIGHTS[k] for k in kinds])[0]]
    return group[int(rng.random() * len(group))]


def _held(lobby) -> Counter:
    counts = lobby._pool.counts()
    for p in range(lobby.players):
        if lobby.alive(p):
            counts.update(lobby.state(p).pool_copies())
    return counts


SEEDS = (0, 1, 3, 4, 5, 6, 7, 8, 36)


def _draft_mine(lobby) -> dict[int, str]:
    """Whoever is offered one of these heroes drafts it (the first offered)."""
    for p in range(8):
        offers = lobby.state(p).hero_offers
        mine = [i for i, h in enumerate(offers) if h in MINE_IDS]
        lobby.apply(p, ChooseHero(mine[0] if mine else 0))
    return {p: lobby.state(p).hero.hero for p in range(8)}


def test_the_lobby_seeds_draft_every_one_of_these_heroes():
    drafted = set()
    for seed in SEEDS:
        drafted |= set(_draft_mine(Lobby(seed, heroes=True)).values())
    assert drafted >= MINE_IDS


def _check_fights(lobby, turn, before, drafted):
    """What the round's fights left to the Lich King and Rafaam."""
    lich, rafaam = HERO["The Lich King"].id, HERO["Arch-Villain Rafaam"].id
    for record in lobby.log:
        if record["type"] != "combat" or record["turn"] != turn:
            continue
        for side, p in enumerate(record["players"]):
            if (side == 1 and record["ghost"]) or drafted[p] not in (lich, rafaam):
                continue
            then, now = before[p], lobby.state(p)
            if drafted[p] == lich:
                rites = [i for i, m in enumerate(then.board) if m.keywords & REBORN]
                spec = record["boards"][side]["minions"]
                assert all(spec[i].get("reborn") for i in rites)  # the engine got Reborn
                for m in now.board if lobby.alive(p) else ():
                    info = INFO[m.card]
                    own = info.golden_keywords if m.golden else info.keywords
                    assert not m.keywords & REBORN or own & REBORN
            elif then.hero.counter and lobby.alive(p):
                enemy = 1 - side
                dead = [
                    e["card"]
                    for e in record["events"]
                    if e["kind"] == "death" and e["side"] == enemy
                ]
                assert now.hero.counter == 0
                held = [c.card_id for c in then.hand + then.board]
                gained = len(record["aftermath"][side]["hand"]) + 1
                if dead and dead[0] not in held and len(then.hand) + gained <= 10:
                    assert dead[0] in [c.card_id for c in now.hand]


@pytest.mark.parametrize("seed", SEEDS)
def test_lobbies_with_these_heroes_finish_and_conserve_the_pool(seed):
    lobby = Lobby(seed, heroes=True)
    rng = random.Random(seed)
    start = Counter(starting_copies(lobby.tribes, RULES))
    drafted = _draft_mine(lobby)
    assert set(drafted.values()) & MINE_IDS
    uses: Counter[str] = Counter()
    while not lobby.done:
        turn = lobby.turn
        before = {}
        for p in lobby.to_act():
            while lobby.turn == turn and not lobby.state(p).ended:
                action = _policy(lobby.legal_actions(p), rng)
                if isinstance(action, HeroPower):
                    uses[drafted[p]] += 1
                if isinstance(action, EndTurn) and lobby.to_act() == [p]:
                    before = {q: lobby.state(q) for q in range(8)}
                    before[p] = tavern.apply_action(
                        before[p], action, lobby._pool.clone(), random.Random(0), RULES
                    )
                lobby.apply(p, action)
                assert _held(lobby) == start
                s = lobby.state(p)
                assert s.gold >= 0 and len(s.hand) <= RULES.limits.hand_size
        assert _held(lobby) == start
        _check_fights(lobby, turn, before, drafted)
    assert sorted(lobby.placements.values()) == list(range(1, 9))
    active = {h for h in set(drafted.values()) & MINE_IDS if not HERO_BY_ID[h].power.passive}
    assert set(uses) >= active  # every active power of ours was used
