"""Hero powers that act at the start of the game or across the lobby, and the
Darkmoon Prizes (Tickatus's): one test or more per hero and per Prize."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from tavern_helpers import RULES, act, full_pool, mk, st, stats

from bgsim import Choose, ChooseHero, EndTurn, HeroPower, IllegalActionError, Lobby, Play
from bgsim._core import hero_powers, heroes_game, tavern
from bgsim._core.hero_state import Prizes
from bgsim._core.minions import DIVINE_SHIELD, GOLD_COIN, INFO, TAUNT, WINDFURY, SpellCard
from bgsim._core.pool import Pool, starting_copies
from bgsim._core.spells import SPELLS
from bgsim.actions import Buy, Refresh, Sell
from bgsim.cards import cards
from bgsim.heroes import heroes
from bgsim.replay import player_view
from combat_c import resolve

HERO = {h.name: h for h in heroes().values()}
MINE = (
    "Sir Finley Mrrgglton",
    "Mr. Bigglesworth",
    "Lord Barov",
    "Tickatus",
    "N'Zoth",
    "Ragnaros the Firelord",
    "Deathwing",
    "Al'Akir",
    "Illidan Stormrage",
    "Greybough",
)
MY_HEROES = frozenset(HERO[name].id for name in MINE)
WEAVER, KABOOM, ALLEYCAT, MICRO = "BGS_004", "BOT_606", "CFM_315", "BGS_027"
TIER_6 = "GVG_113"  # Foe Reaper 4000


def with_hero(name: str, **state):
    """A player state whose hero is ``name`` (its power fresh)."""
    info = HERO[name]
    return st(hero=hero_powers.new_hero(info.id, info.power.id), **state)


def with_prizes(prizes: Prizes, **state):
    """Tickatus with these lasting Prizes."""
    s = with_hero("Tickatus", **state)
    return st(hero=s.hero.changed(prizes=prizes), **state)


def prize(card_id: str, **state):
    """Tickatus holding one Prize (and ``state``'s hand after it)."""
    hand = (SpellCard(card_id), *state.pop("hand", ()))
    return with_hero("Tickatus", hand=hand, **state)


def next_turn(state, pool=None, rng=None):
    return tavern.start_turn(
        state, state.turn + 1, pool or full_pool(), rng or random.Random(0), RULES
    )


# ------------------------------------------------------------ registry


def test_every_hero_of_this_group_has_a_registry_entry():
    for name in MINE:
        assert HERO[name].power.id in hero_powers.POWERS, name
    assert heroes_game.SULFURAS in hero_powers.POWERS


@pytest.mark.parametrize("name", ["Al'Akir", "Illidan Stormrage", "Greybough"])
def test_combat_only_powers_say_so_and_do_nothing_in_the_recruit_phase(name):
    fx = hero_powers.POWERS[HERO[name].power.id]
    assert fx.combat_only
    hooks = [v for k, v in vars_of(fx).items() if k not in ("combat_only", "uses_per_turn")]
    assert not any(hooks)
    # a recruit turn with the power is a recruit turn without it
    state = with_hero(name, board=[mk(KABOOM)], shop=[mk(WEAVER)], gold=5, tier=2)
    plain = st(board=[mk(KABOOM)], shop=[mk(WEAVER)], gold=5, tier=2)
    for action in (Buy(0), Refresh(), EndTurn()):
        a, b = act(state, action), act(plain, action)
        assert (a.board, a.hand, a.gold, a.shop) == (b.board, b.hand, b.gold, b.shop)
    assert not any(isinstance(a, HeroPower) for a in tavern.legal_actions(state, RULES))
    # every other power of the group acts somewhere
    for other in MINE:
        fx = hero_powers.POWERS[HERO[other].power.id]
        assert fx.combat_only == (other in ("Al'Akir", "Illidan Stormrage", "Greybough"))


def vars_of(fx) -> dict:
    return {name: getattr(fx, name) for name in fx.__dataclass_fields__}


# ------------------------------------------------------------ Sir Finley


def test_sir_finley_discovers_a_hero_power_after_the_draft():
    finley = HERO["Sir Finley Mrrgglton"]
    state = tavern.offer_heroes(st(turn=0), (finley.id, HERO["Patchwerk"].id))
    chosen = act(state, ChooseHero(0), rng=random.Random(3))
    assert chosen.hero.hero == finley.id and chosen.health == 40
    offers = chosen.hero_offers
    assert len(offers) == 3 == len(set(offers)) and not chosen.ended
    assert set(offers) <= set(heroes_game.POWER_OFFERS)
    excluded = {finley.power.id} | {
        HERO[n].power.id for n in ("Patchwerk", "The Curator", "N'Zoth", "A. F. Kay")
    }
    assert not excluded & set(heroes_game.POWER_OFFERS)
    assert len(heroes_game.POWER_OFFERS) == 54 - 5
    assert tavern.legal_actions(chosen, RULES) == [ChooseHero(0), ChooseHero(1), ChooseHero(2)]
    picked = act(chosen, ChooseHero(2))
    assert picked.hero.power == offers[2] and picked.hero.hero == finley.id
    assert picked.ended and not picked.hero_offers
    fresh = hero_powers.POWERS.get(offers[2], hero_powers.PowerEffects()).counter_start
    assert picked.hero.counter == fresh and picked.hero.uses == 0


def test_sir_finley_with_ragnaros_power_starts_its_counter_fresh():
    finley = HERO["Sir Finley Mrrgglton"].id
    state = st(turn=0, hero=hero_powers.new_hero(finley, HERO["Sir Finley Mrrgglton"].power.id))
    state = st(turn=0, hero=state.hero, hero_offers=(HERO["Ragnaros the Firelord"].power.id,))
    picked = act(state, ChooseHero(0))
    assert picked.hero.counter == 25 and tavern.visible_counter(picked) == ("kills_left", 25)


def test_a_lobby_waits_for_sir_finleys_power_before_turn_1():
    finley = HERO["Sir Finley Mrrgglton"].id
    for seed in range(40):
        lobby = Lobby(seed, heroes=True)
        seat = next((p for p in range(8) if finley in lobby.state(p).hero_offers), None)
        if seat is not None:
            break
    assert seat is not None
    for p in range(8):
        offers = lobby.state(p).hero_offers
        lobby.apply(p, ChooseHero(offers.index(finley) if p == seat else 0))
    assert lobby.turn == 0 and lobby.to_act() == [seat]
    offers = lobby.state(seat).hero_offers
    lobby.apply(seat, ChooseHero(1))
    assert lobby.turn == 1 and lobby.state(seat).hero.power == offers[1]
    assert lobby.public_players()[seat].hero_power == offers[1]


# ------------------------------------------------------------ Mr. Bigglesworth


def test_mr_bigglesworth_discovers_from_a_dead_players_warband_at_his_next_turn():
    buffed = mk(KABOOM, 7, 9).with_keywords(DIVINE_SHIELD)
    warband = (buffed, mk(WEAVER), mk(MICRO), mk(ALLEYCAT), mk(WEAVER))
    state = with_hero("Mr. Bigglesworth", turn=4)
    died = tavern.player_died(state, warband, RULES)
    assert not died.discover  # nothing offered between turns
    pool = full_pool()
    before = pool.counts()
    turned = tavern.start_turn(died, 5, pool, random.Random(1), RULES)
    offered = turned.discover
    assert len(offered) == 3 and len(set(offered)) == 3
    originals = {(m.card, m.attack, m.health, m.keywords) for m in warband}
    assert all((m.card, m.attack, m.health, m.keywords) in originals for m in offered)
    assert all(not m.pool_copies for m in offered)  # created: the pool lost them already
    shop_taken = sum(len(m.pool_copies) for m in turned.shop)
    assert sum(before.values()) - sum(pool.counts().values()) == shop_taken
    k = (
        next(i for i, m in enumerate(offered) if m.card == KABOOM)
        if any(m.card == KABOOM for m in offered)
        else 0
    )
    chose = act(turned, Choose(k))
    assert chose.hand[-1] == offered[k] and not chose.discover
    assert not chose.hero.extra


def test_mr_bigglesworth_keeps_every_enchantment_and_one_discover_per_death():
    enchanted = mk(KABOOM, 5, 5, magnetic=("BOT_312",), spores=1, triple=True, golden=True)
    state = with_hero("Mr. Bigglesworth")
    twice = tavern.player_died(tavern.player_died(state, (enchanted,), RULES), (), RULES)
    twice = tavern.player_died(twice, (mk(WEAVER),), RULES)
    turned = next_turn(twice)
    assert len(turned.discover) == 1 and len(turned.discover_queue) == 1  # the empty one: none
    got = turned.discover[0]
    assert (got.attack, got.health, got.golden, got.magnetic, got.spores) == (
        5,
        5,
        True,
        ("BOT_312",),
        1,
    )
    assert not got.triple  # a created copy gives no Triple Reward
    after = act(turned, Choose(0))
    assert [m.card for m in after.discover] == [WEAVER]


# ------------------------------------------------------------ Lord Barov


def test_lord_barov_bets_on_a_player_of_another_pairing():
    state = with_hero("Lord Barov", gold=3)
    pairs = ((0, 1), (2, 3), (4, 5), (6, 7))
    seen = tavern.see_pairings(state, pairs, None, random.Random(2), RULES)
    candidates = seen.hero.extra[0]
    assert len(candidates) == 2 and tuple(sorted(candidates)) in pairs[1:]
    legal = [a for a in tavern.legal_actions(seen, RULES) if isinstance(a, HeroPower)]
    assert legal == [HeroPower(player=p) for p in sorted(candidates)]
    other = next(p for p in range(1, 8) if p not in candidates)
    with pytest.raises(IllegalActionError, match="cannot aim at player"):
        act(seen, HeroPower(player=other))
    bet = act(seen, HeroPower(player=candidates[0]))
    assert bet.gold == 2  # it costs 1
    won = tavern.round_over(bet, (candidates[0], 0), Pool(), RULES)
    assert [c.card for c in won.hand] == [GOLD_COIN] * 3
    lost = tavern.round_over(bet, (candidates[1],), Pool(), RULES)
    assert lost.hand == () and lost.hero.extra[1] == -1
    idle = tavern.round_over(seen, tuple(range(8)), Pool(), RULES)
    assert idle.hand == ()


def test_lord_barov_sees_his_own_pairing_when_every_other_has_the_ghost():
    state = with_hero("Lord Barov", gold=3)
    seen = tavern.see_pairings(state, ((0, 1), (2, 3)), 3, random.Random(0), RULES)
    assert seen.hero.extra[0] == (1,)
    alone = tavern.see_pairings(state, ((0, 3),), 3, random.Random(0), RULES)
    with pytest.raises(IllegalActionError, match="no pairing to bet on"):
        act(alone, HeroPower(player=1))
    with pytest.raises(IllegalActionError, match="no pairing to bet on"):
        act(with_hero("Lord Barov", gold=3), HeroPower(player=1))


def test_with_heroes_the_pairings_are_known_during_the_recruit_phase():
    lobby = Lobby(4, heroes=True)
    for p in range(8):
        lobby.apply(p, ChooseHero(0))
    rng = random.Random(4)
    for _ in range(3):
        turn = lobby.turn
        nexts = {p: lobby.observe(p).next_opponent for p in range(8) if lobby.alive(p)}
        assert all(v is not None for v in nexts.values())
        assert all(nexts[nexts[p]] == p for p in nexts if nexts[p] in nexts)
        while lobby.turn == turn:
            p = lobby.to_act()[0]
            legal = lobby.legal_actions(p)
            lobby.apply(p, legal[rng.randrange(len(legal))])
        fought = [e for e in lobby.log if e["type"] == "pairing"][-1]["pairs"]
        assert sorted(tuple(sorted(x)) for x in fought) == sorted(
            {tuple(sorted((p, q))) for p, q in nexts.items()}
        )
    # Without heroes too, from turn 1 on (no draft)
    plain = Lobby(4)
    nexts = {p: plain.observe(p).next_opponent for p in range(8)}
    assert all(nexts[nexts[p]] == p for p in nexts)
    assert Lobby(4, heroes=True).observe(0).next_opponent is None  # the draft


def test_lord_barov_in_a_lobby_gets_coins_when_his_player_wins():
    barov = HERO["Lord Barov"].id
    paid = 0
    for seed in range(60):
        lobby = Lobby(seed, heroes=True)
        seat = next((p for p in range(8) if barov in lobby.state(p).hero_offers), None)
        if seat is None:
            continue
        for p in range(8):
            offers = lobby.state(p).hero_offers
            lobby.apply(p, ChooseHero(offers.index(barov) if p == seat else 0))
        for p in range(8):
            if p != seat:
                lobby.apply(p, Buy(0))
                lobby.apply(p, Play(0, 0))
        bets = [a for a in lobby.legal_actions(seat) if isinstance(a, HeroPower)]
        assert bets
        lobby.apply(seat, bets[0])
        for p in lobby.to_act():
            lobby.apply(p, EndTurn())
        combat = next(
            e for e in lobby.log if e["type"] == "combat" and bets[0].player in e["players"]
        )
        won = combat["winner"] >= 0 and combat["players"][combat["winner"]] == bets[0].player
        coins = sum(c.card == GOLD_COIN for c in lobby.state(seat).hand)
        assert coins == (3 if won else 0)
        paid += coins
        if paid:
            break
    assert paid == 3


# ------------------------------------------------------------ Tickatus


def test_tickatus_discovers_a_darkmoon_prize_every_4_turns():
    state = tavern.offer_heroes(st(turn=0), (HERO["Tickatus"].id, HERO["Patchwerk"].id))
    state = act(state, ChooseHero(0))
    groups = []
    counters = []
    pool, rng = full_pool(), random.Random(5)
    for turn in range(1, 21):
        state = tavern.start_turn(state, turn, pool, rng, RULES)
        counters.append(tavern.visible_counter(state)[1])
        if state.discover:
            assert all(isinstance(c, SpellCard) for c in state.discover)
            assert len({c.card for c in state.discover}) == 3
            groups.append((turn, {cards()[c.card].prize_turn for c in state.discover}))
            state = act(state, Choose(0))
            assert isinstance(state.hand[-1], SpellCard)
            state = st(**{**state_fields(state), "hand": ()})
    assert counters[:5] == [3, 2, 1, 4, 3]
    assert groups == [(4, {1}), (8, {2}), (12, {3}), (16, {4}), (20, {4})]
    assert tavern.visible_counter(state)[0] == "turns_left"


def state_fields(state) -> dict:
    return {name: getattr(state, name) for name in state.__dataclass_fields__ if name[0] != "_"}


def test_every_darkmoon_prize_of_the_patch_is_a_castable_spell():
    prizes = [c for c in cards() if c.prize_turn]
    assert len(prizes) == 29
    for card in prizes:
        assert card.id in SPELLS and SPELLS[card.id].cost == 0, card.name
    assert {k: len(v) for k, v in heroes_game.PRIZES.items()} == {1: 7, 2: 8, 3: 8, 4: 6}


# ------------------------------------------------------------ the Prizes, turn 1


def test_big_banana():
    state = prize("BGS_Treasures_000", board=[mk(KABOOM)])
    assert stats(act(state, Play(0, None, 0)).board) == [(KABOOM, 4, 4)]


def test_pocket_change():
    after = act(prize("BGS_Treasures_001"), Play(0))
    assert [c.card for c in after.hand] == [GOLD_COIN, GOLD_COIN]


def test_gacha_gift():
    after = act(prize("BGS_Treasures_004", tier=4), Play(0))
    assert len(after.discover) == 3 and all(m.tier == 1 for m in after.discover)


def test_might_of_stormwind():
    state = prize("BGS_Treasures_007", board=[mk(KABOOM), mk(WEAVER)])
    assert stats(act(state, Play(0)).board) == [(KABOOM, 3, 3), (WEAVER, 2, 4)]


def test_the_good_stuff():
    state = prize("BGS_Treasures_013", shop=[mk(WEAVER)], tier=1, gold=5)
    after = act(state, Play(0))
    assert stats(after.shop) == [(WEAVER, 1, 4)]
    rolled = act(after, Refresh(), rng=random.Random(1))
    assert all(m.health == INFO[m.card].health + 1 for m in rolled.shop)
    later = next_turn(after)
    assert all(m.health == INFO[m.card].health + 1 for m in later.shop)
    twice = act(st(**{**state_fields(later), "hand": (SpellCard("BGS_Treasures_013"),)}), Play(0))
    fresh = act(twice, Refresh())
    assert all(m.health == INFO[m.card].health + 2 for m in fresh.shop)


def test_rocking_and_rolling():
    after = act(prize("BGS_Treasures_029", gold=0), Play(0))
    assert after.free_refreshes == 3
    thrice = act(after, Refresh(), Refresh(), Refresh())
    assert thrice.gold == 0 and Refresh() not in tavern.legal_actions(thrice, RULES)


def test_new_recruit():
    state = prize("BGS_Treasures_033", shop=[mk(WEAVER)] * 3, tier=1)
    after = act(state, Play(0))
    assert len(after.shop) == 4 and after.shop[3].tier == 1
    assert len(next_turn(after).shop) == RULES.shop_size(1) + 1
    top = with_prizes(Prizes(recruits=3), tier=6)
    assert len(next_turn(top).shop) == RULES.tavern.max_shop_size  # at most 7


# ------------------------------------------------------------ turn 2


def test_evolving_tavern():
    shop = [mk(WEAVER), mk(KABOOM), mk(TIER_6)]
    state = prize("BGS_Treasures_006", shop=shop, tier=2)
    pool = full_pool()
    before = sum(pool.counts().values())
    after = act(state, Play(0), pool=pool)
    assert [m.tier for m in after.shop] == [2, 3, 6]
    assert after.shop[2] == shop[2]  # a tier-6 minion has no higher tier
    assert sum(pool.counts().values()) == before  # two copies back, two taken


def test_gruul_rules():
    state = prize("BGS_Treasures_009", board=[mk(KABOOM), mk(WEAVER)])
    after = act(state, Play(0, None, 1))
    assert after.board[1].enchants == ("BGS_Treasures_009",)
    ended = act(after, EndTurn())
    assert stats(ended.board) == [(KABOOM, 2, 2), (WEAVER, 3, 5)]
    moved = st(board=(ended.board[1],), hero=ended.hero)
    assert stats(act(moved, EndTurn()).board) == [(WEAVER, 5, 7)]


def test_time_thief():
    golden_weaver = cards().golden(WEAVER).id
    state = prize("BGS_Treasures_010", last_opponent_cards=(KABOOM, golden_weaver))
    after = act(state, Play(0))
    assert sorted(m.card_id for m in after.discover) == sorted([KABOOM, golden_weaver])
    assert all(not m.pool_copies for m in after.discover)
    with pytest.raises(IllegalActionError, match="no last opponent"):
        act(prize("BGS_Treasures_010"), Play(0))


def test_on_the_house():
    after = act(prize("BGS_Treasures_012", tier=3), Play(0))
    assert len(after.discover) == 3 and all(m.tier == 3 for m in after.discover)


def test_the_unlimited_coin():
    state = prize("BGS_Treasures_014", gold=0)
    after = act(state, Play(0))
    assert after.gold == 1 and after.hand == ()
    ended = act(after, EndTurn())
    assert [c.card for c in ended.hand] == ["BGS_Treasures_014"]
    again = next_turn(ended)
    assert act(again, Play(0)).gold == again.gold + 1


def test_the_bouncer():
    after = act(prize("BGS_Treasures_026", board=[mk(KABOOM)]), Play(0, None, 0))
    assert stats(after.board) == [(KABOOM, 7, 7)] and after.board[0].keywords & TAUNT


def test_branns_blessing():
    state = prize("BGS_Treasures_030", hand=[mk(ALLEYCAT)])
    after = act(state, Play(0), Play(0, 0))
    assert len(after.board) == 3  # the Alleycat and two Tabbycats
    later = act(next_turn(act(after, EndTurn())), Buy(0))
    assert hero_powers.battlecries(tavern_turn(later), 1) == 1  # this turn only


def tavern_turn(state):
    from bgsim._core.recruit_turn import Turn

    return Turn(state, Pool(), random.Random(0), RULES)


def test_great_deal():
    state = prize("BGS_Treasures_036", tier=2, upgrade_cost=7)
    ended = act(act(state, Play(0)), EndTurn())
    assert ended.upgrade_cost == 5
    nxt = next_turn(ended)
    assert nxt.upgrade_cost == 4 and act(nxt, EndTurn()).upgrade_cost == 2
    cheap = act(st(**{**state_fields(nxt), "upgrade_cost": 1}), EndTurn())
    assert cheap.upgrade_cost == 0


# ------------------------------------------------------------ turn 3


def test_training_session():
    state = prize("BGS_Treasures_011", gold=4)
    state = st(**{**state_fields(state), "hero": state.hero.changed(prizes=Prizes(discount=1))})
    offered = act(state, Play(0), rng=random.Random(2))
    assert len(offered.hero_offers) == 3 and heroes_game.PRIZE_WALL not in offered.hero_offers
    assert tavern.legal_actions(offered, RULES) == [ChooseHero(i) for i in range(3)]
    picked = act(offered, ChooseHero(1))
    assert picked.hero.power == offered.hero_offers[1] and not picked.ended
    assert picked.hero.hero == HERO["Tickatus"].id
    assert picked.hero.prizes == Prizes(discount=1)  # the Prizes outlive the power
    assert EndTurn() in tavern.legal_actions(picked, RULES)


def test_buy_the_holy_light():
    after = act(prize("BGS_Treasures_015", board=[mk(KABOOM)]), Play(0, None, 0))
    assert after.board[0].keywords & DIVINE_SHIELD


def test_im_still_just_a_rat_in_a_cage():
    after = act(prize("BGS_Treasures_018", board=[mk(KABOOM, 6, 2)]), Play(0, None, 0))
    assert stats(after.board) == [(KABOOM, 12, 2)]


def test_bananas():
    after = act(prize("BGS_Treasures_019", hand=[mk(KABOOM)]), Play(0))
    assert len(after.hand) == RULES.limits.hand_size
    assert [c.card for c in after.hand[1:]] == ["TRL_509t"] * (RULES.limits.hand_size - 1)


def test_top_shelf():
    after = act(prize("BGS_Treasures_020", tier=2), Play(0))
    assert len(after.discover) == 3 and all(m.tier == 6 for m in after.discover)


def test_repeat_customer():
    board = [mk(KABOOM, 3, 3), mk(WEAVER, golden=True)]
    state = prize("BGS_Treasures_034", board=board)
    assert [a.target for a in tavern.legal_actions(state, RULES) if isinstance(a, Play)] == [0]
    after = act(state, Play(0, None, 0))
    assert stats(after.hand) == [(KABOOM, 5, 5)] and after.hand[0].pool_copies == (KABOOM,)
    assert len(after.board) == 1


def test_all_that_glitters():
    state = prize("BGS_Treasures_037", shop=[mk(KABOOM, 3, 4)])
    after = act(state, Play(0))
    shown = after.shop[0]
    assert shown.golden and (shown.attack, shown.health) == (5, 6)
    assert shown.pool_copies == (KABOOM,) and not shown.triple
    assert act(prize("BGS_Treasures_037"), Play(0)).shop == ()  # an empty tavern: nothing


def test_ice_block():
    state = prize("TB_Bacon_Secrets_12", health=5)
    blocked = act(state, Play(0))
    assert blocked.hero.prizes.ice_blocks == 1
    again = st(**{**state_fields(blocked), "hand": (SpellCard("TB_Bacon_Secrets_12"),)})
    with pytest.raises(IllegalActionError, match="already waiting"):
        act(again, Play(0))
    # In combat the Prize is one of the board's Secrets; the engine prevents
    # fatal damage and reveals it, and the result spends it.
    board = blocked.warband()
    assert board.secrets == ("TB_Bacon_Secrets_12",)
    enemy = st(board=[mk(KABOOM, 50, 50)] * 4, tier=6).warband()
    kept = resolve(st(hero=blocked.hero, health=40).warband(), enemy, 1)
    assert kept.damage == 14 and kept.aftermath[0].secrets_used == ()  # not fatal: taken
    fight = resolve(board, enemy, 1)
    assert fight.winner == 1 and fight.damage == 0 and fight.prevented == 14
    used = fight.aftermath[0].secrets_used
    saved = tavern.after_combat(blocked, 0, False, True, (), (), (), Pool(), RULES, 0, None, used)
    assert saved.health == 5 and saved.hero.prizes.ice_blocks == 0
    assert saved.warband().secrets == ()
    assert resolve(saved.warband(), enemy, 1).damage == 14  # spent: the next one hits


# ------------------------------------------------------------ turn 4


def test_raise_the_stakes():
    state = prize("BGS_Treasures_016", board=[mk(KABOOM, 4, 5), mk(WEAVER, golden=True)])
    assert [a.target for a in tavern.legal_actions(state, RULES) if isinstance(a, Play)] == [0]
    after = act(state, Play(0, None, 0))
    golden = after.hand[0]
    assert golden.golden and (golden.attack, golden.health) == (6, 7)
    assert golden.pool_copies == (KABOOM,) and not golden.triple and not after.board[1:]
    replayed = act(after, Play(0, 0))
    assert not any(isinstance(c, SpellCard) for c in replayed.hand)  # no Triple Reward


def test_friends_and_family_discount():
    state = prize("BGS_Treasures_022", shop=[mk(WEAVER)], gold=3)
    after = act(state, Play(0))
    assert tavern.prices(after, RULES)[0] == 2 and act(after, Buy(0)).gold == 1
    later = next_turn(act(after, EndTurn()))
    assert tavern.prices(later, RULES)[0] == 2


def test_open_bar():
    state = prize("BGS_Treasures_023", gold=2, tier=1)
    after = act(state, Play(0))
    five = act(after, *[Refresh()] * 5)
    assert five.gold == 2 and tavern.prices(five, RULES)[1] == 1
    assert act(five, Refresh()).gold == 1
    fresh = next_turn(act(five, EndTurn()))
    assert tavern.prices(fresh, RULES)[1] == 0


def test_fresh_tab():
    state = prize("BGS_Treasures_025", gold=1, turn=7)
    assert act(state, Play(0)).gold == min(3 + 6, 10)
    rich = prize("BGS_Treasures_025", gold=12, turn=7)
    assert act(rich, Play(0)).gold == 12


def test_give_a_dog_a_bone():
    after = act(prize("BGS_Treasures_028", board=[mk(KABOOM)]), Play(0, None, 0))
    m = after.board[0]
    assert (m.attack, m.health) == (12, 12) and m.keywords & DIVINE_SHIELD and m.keywords & WINDFURY


def test_big_winner():
    after = act(prize("BGS_Treasures_032"), Play(0), rng=random.Random(3))
    groups = []
    while after.discover:
        groups.append({cards()[c.card].prize_turn for c in after.discover})
        after = act(after, Choose(0))
    assert groups == [{1}, {2}, {3}] and len(after.hand) == 3


# ------------------------------------------------------------ N'Zoth


def test_nzoth_starts_with_a_fish_that_fights_as_a_1_1():
    state = tavern.offer_heroes(st(turn=0), (HERO["N'Zoth"].id, HERO["Patchwerk"].id))
    chosen = act(state, ChooseHero(0))
    assert stats(chosen.board) == [("TB_BaconShop_HP_105t", 1, 1)]
    assert chosen.board[0].pool_copies == () and INFO["TB_BaconShop_HP_105t"].tribes
    pool = Pool()
    sold = act(st(board=chosen.board), Sell(0), pool=pool)
    assert sold.board == () and not pool.counts()  # the Fish is no pool card
    lone = st(board=[mk(WEAVER, 1, 1)], tier=1).warband()
    result = resolve(chosen.warband(), lone, 1)
    assert result.winner == -1  # 1/1 against 1/1


# ------------------------------------------------------------ Ragnaros


def _fought(state, killed):
    """The state after a won fight in which ``killed`` enemy minions died."""
    first = killed[0] if killed else None
    return tavern.after_combat(state, 0, True, False, (), (), (), Pool(), RULES, len(killed), first)


def test_ragnaros_counts_kills_and_gets_sulfuras():
    state = with_hero("Ragnaros the Firelord", board=[mk(KABOOM), mk(WEAVER), mk(MICRO)])
    assert tavern.visible_counter(state) == ("kills_left", 25)
    state = _fought(state, (WEAVER,) * 20)
    assert tavern.visible_counter(state) == ("kills_left", 5)
    state = _fought(state, (KABOOM,) * 7)
    assert state.hero.power == heroes_game.SULFURAS
    assert state.hero.hero == HERO["Ragnaros the Firelord"].id
    assert tavern.visible_counter(state) is None
    assert cards()[heroes_game.SULFURAS].type == "hero_power"
    ended = act(state, EndTurn())
    assert stats(ended.board) == [(KABOOM, 5, 5), (WEAVER, 1, 3), (MICRO, 4, 5)]
    alone = act(st(board=[mk(KABOOM)], hero=state.hero), EndTurn())
    assert stats(alone.board) == [(KABOOM, 5, 5)]
    assert act(st(hero=state.hero), EndTurn()).board == ()


def test_ragnaros_counts_the_enemy_deaths_of_his_combats_in_a_lobby():
    rag = HERO["Ragnaros the Firelord"].id
    for seed in range(60):
        lobby = Lobby(seed, heroes=True)
        seat = next((p for p in range(8) if rag in lobby.state(p).hero_offers), None)
        if seat is not None:
            break
    for p in range(8):
        offers = lobby.state(p).hero_offers
        lobby.apply(p, ChooseHero(offers.index(rag) if p == seat else 0))
    rng = random.Random(seed)
    while not lobby.done and lobby.turn <= 8 and lobby.alive(seat):
        for p in lobby.to_act():
            turn = lobby.turn
            while lobby.turn == turn and p in lobby.to_act():
                legal = lobby.legal_actions(p)
                buys = [a for a in legal if isinstance(a, Buy | Play)]
                lobby.apply(p, rng.choice(buys or legal))
    kills = 0
    for e in lobby.log:
        if e["type"] == "combat" and seat in e["players"]:
            side = e["players"].index(seat)
            kills += sum(1 for x in e["events"] if x["kind"] == "death" and x["side"] == 1 - side)
    hero = lobby.state(seat).hero
    assert kills > 0
    if kills < 25:
        assert hero.counter == 25 - kills
    else:
        assert hero.power == heroes_game.SULFURAS


# ------------------------------------------------------------ Deathwing


def test_deathwings_aura_shows_in_his_recruit_phase_only():
    lobby = Lobby(2, heroes=True)
    dw = HERO["Deathwing"].id
    seat = next((p for p in range(8) if dw in lobby.state(p).hero_offers), None)
    if seat is None:  # draft him by hand: a state with his hero
        state = with_hero("Deathwing", board=[mk(KABOOM)], shop=[mk(WEAVER)])
    else:
        for p in range(8):
            offers = lobby.state(p).hero_offers
            lobby.apply(p, ChooseHero(offers.index(dw) if p == seat else 0))
        lobby.apply(seat, Buy(0))
        lobby.apply(seat, Play(0, 0))
        state = lobby.state(seat)
    assert tavern.attack_aura(state) == 2
    base = [(m.attack, m.health) for m in state.board]
    view = player_view(state)
    assert [(c["attack"], c["health"]) for c in view["board"]] == [(a + 2, h) for a, h in base]
    assert [c["attack"] for c in view["shop"]] == [m.attack + 2 for m in state.shop]
    assert [(m.attack, m.health) for m in state.board] == base  # stats unchanged
    if seat is not None:
        obs = lobby.observe(seat)
        assert obs.displayed() == [(a + 2, h) for a, h in base]
        assert obs.displayed_shop() == [(m.attack + 2, m.health) for m in obs.shop]
        other = lobby.observe((seat + 1) % 8)
        assert other.displayed_shop() == [(m.attack, m.health) for m in other.shop]
    plain = st(board=[mk(KABOOM)])
    assert tavern.attack_aura(plain) == 0
    assert [c["attack"] for c in player_view(plain)["board"]] == [2]


# ------------------------------------------------------------ whole lobbies


def held(lobby) -> Counter:
    counts = lobby._pool.counts()
    for p in range(lobby.players):
        if lobby.alive(p):
            counts.update(lobby.state(p).pool_copies())
    return counts


@pytest.mark.parametrize("seed", range(6))
def test_random_lobbies_with_these_heroes_finish_and_conserve_the_pool(seed):
    lobby = Lobby(seed, heroes=True)
    start = Counter(starting_copies(lobby.tribes, RULES))
    rng = random.Random(seed)
    drafted = set()
    while not lobby.done:
        p = lobby.to_act()[0]
        state = lobby.state(p)
        legal = lobby.legal_actions(p)
        if state.hero_offers and state.hero is None:
            mine = [i for i, h in enumerate(state.hero_offers) if h in MY_HEROES]
            action = ChooseHero(mine[0]) if mine else legal[0]
            drafted.update(state.hero_offers[i] for i in mine[:1])
        else:
            action = legal[rng.randrange(len(legal))]
        lobby.apply(p, action)
        assert held(lobby) == start
        assert lobby.state(p).gold >= 0 and len(lobby.state(p).hand) <= RULES.limits.hand_size
    assert sorted(lobby.placements.values()) == list(range(1, 9))
    assert drafted  # at least one of this group's heroes played
