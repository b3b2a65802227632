"""The bundled agents with heroes: the draft rule, the hero power policies of
data/hero_policy.toml, spells from hero powers, MCTS and greedy with heroes,
the belief model's use of every player's hero, and the lobby bench with heroes."""

from __future__ import annotations

import dataclasses
import math
import random
import tomllib
from collections import Counter

import pytest
from tavern_helpers import RULES, mk, st

from agents.belief import HERO_LEAN, STARTING_MINIONS, Guesser
from agents.greedy import GreedyAgent
from agents.hero_policy import (
    AFTER_BUYS,
    AVERAGE,
    DRAFT_TEMPERATURE,
    FIRST,
    KINDS,
    KNOWLEDGE,
    PASSIVE,
    HeroKnowledge,
    power_ready,
)
from agents.heuristic import HeuristicAgent
from agents.mcts import MCTSAgent
from agents.random_agent import RandomAgent
from bgsim import (
    ACTIONS,
    Budget,
    Buy,
    ChooseHero,
    EndTurn,
    HeroPower,
    Lobby,
    Observation,
    PlayerInfo,
    Refresh,
    SpellCard,
)
from bgsim._core import hero_powers
from bgsim._core.minions import DIVINE_SHIELD
from bgsim._core.power_effects import PowerEffects
from bgsim.cards import cards
from bgsim.heroes import heroes
from bgsim.resources import data_path
from bgsim.rules import power_actions

HERO = {h.name: h for h in heroes().values()}


def with_hero(name: str, **state):
    info = HERO[name]
    return st(hero=hero_powers.new_hero(info.id, info.power.id), **state)


def heuristic() -> HeuristicAgent:
    agent = HeuristicAgent(rules=RULES)
    agent.reset(0, 0)
    return agent


def decide(state, turn: int = 5, legal=None):
    return heuristic().decide(state, turn, legal)


# ------------------------------------------------------------ the data


def test_every_draftable_hero_has_a_policy_row_naming_its_power():
    with data_path("hero_policy.toml").open("rb") as f:
        table = tomllib.load(f)
    assert set(table) == set(heroes())
    for hero_id, row in table.items():
        info = heroes()[hero_id]
        assert row["power"] == info.power.id
        assert row["policy"] in KINDS
        assert (row["policy"] == "passive") == info.power.passive, info.name
        assert KNOWLEDGE.policy(info.power.id) is not None


def test_a_bad_row_is_refused_with_its_hero_named():
    row = {"power": "TB_BaconShop_HP_040", "policy": "sometimes"}
    with pytest.raises(ValueError, match=r"TB_BaconShop_HERO_39.*bad value"):
        HeroKnowledge({"TB_BaconShop_HERO_39": row}, {})
    with pytest.raises(ValueError, match="power must be TB_BaconShop_HP_040"):
        HeroKnowledge({"TB_BaconShop_HERO_39": {"power": "X", "policy": "after_buys"}}, {})
    with pytest.raises(ValueError, match="passive"):
        HeroKnowledge({"TB_BaconShop_HERO_39": {**row, "policy": "passive"}}, {})


def test_the_draft_takes_the_best_rated_offer_and_shrinks_small_samples():
    pyramad, patchwerk = HERO["Pyramad"].id, HERO["Patchwerk"].id
    ratings = {"heroes": {pyramad: [200, 5.5], patchwerk: [200, 3.0]}}
    know = HeroKnowledge({}, ratings)
    assert know.draft((pyramad, patchwerk)) == 1
    assert know.draft((patchwerk, pyramad)) == 0
    # a hero power offered (Sir Finley) counts as its hero
    table = {patchwerk: {"power": HERO["Patchwerk"].power.id, "policy": "passive"}}
    know = HeroKnowledge(table, ratings)
    assert know.rating(HERO["Patchwerk"].power.id) == know.rating(patchwerk) < AVERAGE
    # one game at 1.0 is shrunk most of the way back to the average
    few = HeroKnowledge({}, {"heroes": {pyramad: [1, 1.0]}})
    assert AVERAGE - 0.5 < few.rating(pyramad) < AVERAGE
    assert few.rating("unmeasured") == AVERAGE


def test_the_draw_weighs_each_offer_by_its_rating_gap():
    pyramad, patchwerk = HERO["Pyramad"].id, HERO["Patchwerk"].id
    know = HeroKnowledge({}, {"heroes": {pyramad: [10**6, 4.6], patchwerk: [10**6, 4.0]}})
    picks = Counter(know.draft((pyramad, patchwerk), random.Random(s)) for s in range(4000))
    share = picks[0] / 4000  # exp(-0.6 / T) against 1
    expected = math.exp(-0.6 / DRAFT_TEMPERATURE) / (1 + math.exp(-0.6 / DRAFT_TEMPERATURE))
    assert abs(share - expected) < 0.03, share
    # equal ratings: a fair coin; a hopeless offer: never
    coin = sum(know.draft((patchwerk, patchwerk), random.Random(s)) for s in range(4000))
    assert 1800 < coin < 2200
    far = HeroKnowledge({}, {"heroes": {pyramad: [10**6, 8.0], patchwerk: [10**6, 1.0]}})
    assert all(far.draft((pyramad, patchwerk), random.Random(s)) == 1 for s in range(500))


# ------------------------------------------------------------ random agents


def test_random_agents_pick_heroes_and_powers_uniformly_among_the_legal_actions():
    legal = [EndTurn(), Buy(0), HeroPower(target=0), HeroPower(target=1)]
    agent = RandomAgent()
    agent.reset(0, 7)
    counts = Counter(repr(agent.act(None, legal)) for _ in range(4000))
    assert set(counts) == {repr(a) for a in legal}
    assert all(850 < n < 1150 for n in counts.values()), counts
    drafts = Counter()
    for seed in range(400):
        agent.reset(0, seed)
        drafts[agent.act(None, [ChooseHero(0), ChooseHero(1)])] += 1
    assert 160 < drafts[ChooseHero(0)] < 240


# ------------------------------------------------------------ heuristic: the draft


def gap(offers: tuple[str, ...]) -> float:
    ratings = [KNOWLEDGE.rating(h) for h in offers]
    return max(ratings) - min(ratings)


def test_the_heuristic_drafts_by_the_rating_or_the_first_offer():
    # a seat whose offers differ by 0.3 to 1 place: the draw's odds show
    lobby, seat = next(
        (lob, p)
        for seed in range(1, 50)
        for lob in [Lobby(seed, heroes=True)]
        for p in range(8)
        if 0.3 < gap(lob.observe(p).state.hero_offers) < 1.0
    )
    obs = lobby.observe(seat)
    offers = obs.state.hero_offers
    agent = HeuristicAgent()
    agent.reset(seat, 11)
    choice = agent.act(obs, lobby.legal_actions(seat))
    agent.reset(seat, 11)
    assert agent.act(obs, lobby.legal_actions(seat)) == choice  # the seed decides the draw
    picks = Counter()
    for seed in range(300):
        agent.reset(seat, seed)
        picks[agent.act(obs, lobby.legal_actions(seat))] += 1
    # the best rated offer is the usual pick, and not the only one
    assert picks.most_common(1)[0][0] == ChooseHero(KNOWLEDGE.draft(offers))
    assert len(picks) > 1
    first = HeuristicAgent(draft="first")
    assert first.act(obs, lobby.legal_actions(seat)) == ChooseHero(0)
    best = HeuristicAgent(draft="best")
    for seed in range(20):  # no draw: the best rated offer whatever the seed
        best.reset(seat, seed)
        assert best.act(obs, lobby.legal_actions(seat)) == ChooseHero(KNOWLEDGE.draft(offers))
    with pytest.raises(ValueError, match="draft must be one of"):
        HeuristicAgent(draft="worst")


# ------------------------------------------------------------ heuristic: powers


def test_after_buys_a_power_spends_the_gold_left_and_needs_its_minions():
    board = [mk("BGS_004"), mk("BOT_606")]
    # Pyramad: 1 gold left, nothing affordable: the power
    assert decide(with_hero("Pyramad", board=board, gold=1, tier=1)) == HeroPower()
    # no minion to give Health to: not used
    assert decide(with_hero("Pyramad", gold=1, tier=1)) != HeroPower()
    # Lord Jaraxxus with no Demon on the warband: not used
    assert decide(with_hero("Lord Jaraxxus", board=board, gold=1, tier=1)) != HeroPower()
    demons = [mk("BRM_006")]  # Imp Gang Boss, a Demon
    assert decide(with_hero("Lord Jaraxxus", board=demons, gold=1, tier=1)) == HeroPower()
    # with gold for a good buy the buy comes first
    shop = [mk("BGS_004", 6, 6)]
    state = with_hero("Pyramad", board=board, shop=shop, gold=4, tier=1, turn=2)
    assert decide(state, turn=2) == Buy(0)


def test_a_targeted_power_goes_to_the_valid_minion_the_agent_values_most():
    weak, strong = mk("BGS_004"), mk("BOT_606", 9, 9)
    state = with_hero("Rakanishu", board=[weak, strong], gold=2, tier=1)
    assert decide(state) == HeroPower(target=1)
    shielded = mk("BOT_606", 9, 9, keywords=DIVINE_SHIELD)
    george = with_hero("George the Fallen", board=[weak, shielded], gold=2, tier=1)
    assert power_actions(george, RULES) == [HeroPower(target=0)]
    assert decide(george) == HeroPower(target=0)


def test_a_first_power_comes_before_buying_while_health_allows():
    shop = [mk("BGS_004")]
    rich = with_hero("Lich Baz'hial", shop=shop, gold=3, tier=1, health=40)
    assert decide(rich, turn=2) == HeroPower()
    low = with_hero("Lich Baz'hial", shop=shop, gold=3, tier=1, health=12)
    assert decide(low, turn=2) != HeroPower()
    # its Gold Coin is cast at once
    after = with_hero(
        "Lich Baz'hial", shop=shop, gold=3, tier=1, hand=[SpellCard("TB_BaconShop_HP_008a")]
    )
    assert decide(after, turn=2) == ACTIONS[63]  # Play(hand=0)


def test_a_refresh_power_takes_the_place_of_a_refresh():
    junk = [mk("BGS_004", 1, 1)]
    state = with_hero(
        "Tess Greymane",
        shop=junk,
        gold=5,
        tier=1,
        upgrade_cost=9,
        last_opponent_cards=("BOT_606",),
    )
    plain = st(shop=junk, gold=5, tier=1, upgrade_cost=9)
    assert decide(plain, turn=2) == Refresh()
    assert decide(state, turn=2) == HeroPower()
    no_opponent = with_hero("Tess Greymane", shop=junk, gold=5, tier=1, upgrade_cost=9)
    assert decide(no_opponent, turn=2) == Refresh()


def test_a_passive_power_changes_what_the_agent_can_afford():
    shop = [mk("BOT_606")]
    millhouse = with_hero("Millhouse Manastorm", shop=shop, gold=2, tier=1)
    assert decide(millhouse, turn=3) == Buy(0)  # his minions cost 2
    assert decide(st(shop=shop, gold=2, tier=1), turn=3) != Buy(0)


def test_power_ready_checks_the_policy_conditions():
    reno = HERO["Reno Jackson"]
    policy = KNOWLEDGE.policy(reno.power.id)
    assert policy is not None and policy.per_game and policy.from_turn > 1
    state = with_hero("Reno Jackson", board=[mk("BOT_606")], gold=0)
    assert power_ready(policy, state, policy.from_turn)
    assert not power_ready(policy, state, policy.from_turn - 1)
    spent = st(board=[mk("BOT_606")], hero=state.hero.changed(spent=True))
    assert not power_ready(policy, spent, policy.from_turn)


@pytest.fixture
def saurfang_power(monkeypatch):
    """A stand-in effect for Overlord Saurfang's power (its kind is before_buy),
    registered only for the test, so the policy can be exercised whatever
    the state of that hero's implementation."""
    power = HERO["Overlord Saurfang"].power.id

    def use(t, kind, index):
        t.gold += 0

    monkeypatch.setitem(hero_powers.POWERS, power, PowerEffects(use=use))
    return power


def test_a_before_buy_power_is_used_right_before_a_buy(saurfang_power):
    shop = [mk("BOT_606", 6, 6)]
    state = with_hero("Overlord Saurfang", shop=shop, gold=4, tier=1)
    assert power_actions(state, RULES) == [HeroPower()]
    assert decide(state, turn=3) == HeroPower()
    used = st(shop=shop, gold=3, tier=1, hero=state.hero.changed(uses=1))
    assert decide(used, turn=3) == Buy(0)
    poor = with_hero("Overlord Saurfang", shop=shop, gold=3, tier=1)  # not both
    assert decide(poor, turn=3) == Buy(0)


def test_a_player_aimed_power_bets_on_the_strongest(monkeypatch):
    power = HERO["Lord Barov"].power.id
    monkeypatch.setitem(
        hero_powers.POWERS, power, PowerEffects(target="player", use=lambda t, k, i: None)
    )
    agent = heuristic()
    agent.standings = tuple(PlayerInfo(p, 40 - p, 3 if p == 5 else 2, True, None) for p in range(8))
    state = with_hero("Lord Barov", gold=1, tier=1)
    assert agent.decide(state, 5) == HeroPower(player=5)


def test_bananas_go_to_the_minion_the_agent_values_most():
    board = [mk("BGS_004"), mk("BOT_606", 8, 8)]
    state = st(board=board, hand=[SpellCard("TRL_509t")], gold=0, tier=1)
    assert decide(state) == ACTIONS[63 + 2]  # Play(hand=0, target=1)


def test_heuristic_lobbies_with_heroes_use_the_active_powers():
    uses = Counter()
    for seed in range(3):
        lobby = Lobby(seed, heroes=True)
        agents = [HeuristicAgent() for _ in range(8)]
        for p, a in enumerate(agents):
            a.reset(p, seed)
        while not lobby.done:
            p = lobby.to_act()[0]
            lobby.apply(p, agents[p].act(lobby.observe(p), lobby.legal_actions(p)))
        assert sorted(lobby.placements.values()) == list(range(1, 9))
        chosen = {i.player: i.hero_power for i in lobby.public_players()}
        for e in lobby.log:
            if e["type"] == "action" and e["text"].startswith("HeroPower"):
                uses[chosen[e["player"]]] += 1
    assert uses  # some implemented active power was used


# ------------------------------------------------------------ greedy and MCTS


def test_greedy_drafts_by_the_rule_and_uses_its_power_by_its_policy():
    lobby = Lobby(5, heroes=True)
    obs = lobby.observe(1)
    agent = GreedyAgent(runs=4, guesses=1)
    agent.reset(1, 1)
    offers = obs.state.hero_offers
    choice = agent.act(obs, lobby.legal_actions(1))
    agent.reset(1, 1)
    assert agent.act(obs, lobby.legal_actions(1)) == choice
    assert choice == ChooseHero(KNOWLEDGE.draft(offers, random.Random(1)))
    state = with_hero("Rakanishu", board=[mk("BOT_606")], gold=2, tier=1)
    real = Lobby(2).observe(0)
    fake = Observation(0, 5, state, real.players, real.seen, real.tribes, None, RULES)
    legal = [EndTurn(), *power_actions(state, RULES)]
    assert agent.act(fake, legal) == HeroPower(target=0)
    poor = with_hero("Lich Baz'hial", gold=0, health=10)  # below the policy's min_health
    fake = Observation(0, 5, poor, real.players, real.seen, real.tribes, None, RULES)
    assert agent.act(fake, [EndTurn(), HeroPower()]) == EndTurn()


def test_mcts_drafts_the_best_rated_offer_unsearched_or_by_the_heuristics_rule():
    lobby, seat = next(
        (lob, p)
        for seed in range(1, 50)
        for lob in [Lobby(seed, heroes=True)]
        for p in range(8)
        if 0.3 < gap(lob.observe(p).state.hero_offers) < 1.0
    )
    obs, legal = lobby.observe(seat), lobby.legal_actions(seat)
    best = ChooseHero(KNOWLEDGE.draft(obs.state.hero_offers))
    picks = Counter()
    for seed in range(40):
        agent = MCTSAgent(budget=Budget(iterations=30))
        agent.reset(seat, seed)
        picks[agent.act(obs, legal)] += 1
        assert agent.iterations_done == 0  # not searched
    assert picks == {best: 40}
    drawn = Counter()
    for seed in range(40):
        agent, rule = MCTSAgent(draft="rating"), HeuristicAgent()
        agent.reset(seat, seed)
        rule.reset(seat, seed)
        choice = agent.act(obs, legal)
        assert choice == rule.act(obs, legal)  # the heuristic's draw, seed for seed
        drawn[choice] += 1
    assert len(drawn) == 2
    with pytest.raises(ValueError, match="draft must be one of"):
        MCTSAgent(draft="worst")


def test_mcts_leaves_the_hero_power_to_the_heuristic_unless_told_to_search_it():
    from agents.mcts import TurnContext, unsearched

    lobby = Lobby(5, heroes=True)
    for p in range(8):
        lobby.apply(p, ChooseHero(0))
    # Pyramad's power comes after the buys: with a good buy in the shop the
    # heuristic buys first, and the power is legal.
    board, shop = [mk("BGS_004"), mk("BOT_606")], [mk("BGS_004", 6, 6)]
    state = with_hero("Pyramad", board=board, shop=shop, gold=4, tier=1, turn=2)
    real = lobby.observe(0)
    fake = Observation(0, 2, state, real.players, real.seen, real.tribes, None, RULES)
    for power, branches in (("heuristic", False), ("search", True)):
        agent = MCTSAgent(budget=Budget(iterations=30), power=power)
        agent.reset(0, 0)
        ctx = TurnContext(agent, fake)
        actions = ctx.expand(ctx.at(state))
        assert actions[0] == Buy(0)
        assert (HeroPower() in actions) is branches
        assert unsearched(HeroPower(), "heuristic", False, power) is not branches
    with pytest.raises(ValueError, match="power must be one of"):
        MCTSAgent(power="never")


def test_mcts_fights_the_opponent_the_pairings_show():
    from agents.mcts import TurnContext

    lobby = Lobby(5, heroes=True)
    for p in range(8):
        lobby.apply(p, ChooseHero(0))
    obs = lobby.observe(0)
    nxt = obs.next_opponent
    assert nxt is not None and nxt != 0
    agent = MCTSAgent(budget=Budget(iterations=10))
    agent.reset(0, 0)
    ctx = TurnContext(agent, obs)
    assert ctx.likely == [nxt]
    assert sorted(ctx.later) == sorted(set(range(1, 8)) - {nxt})
    rng = random.Random(1)
    assert [b.hero for b in ctx.enemies(rng, 0)] == [obs.players[nxt].hero]
    assert {b.hero for _ in range(20) for b in ctx.enemies(rng, 1)} <= {
        obs.players[p].hero for p in ctx.later
    }
    # Without heroes too the pairings are drawn as the turn starts.
    plain = Lobby(5).observe(0)
    ctx = TurnContext(agent, plain)
    assert plain.next_opponent not in (None, 0) and ctx.likely == [plain.next_opponent]
    # Without a pairing shown (the draft): any living player but the last opponent.
    shown = dataclasses.replace(plain, next_opponent=None)
    ctx = TurnContext(agent, shown)
    assert ctx.likely == ctx.later == list(range(1, 8))


def test_mcts_plays_a_lobby_with_heroes():
    lobby = Lobby(11, heroes=True)
    agents = [MCTSAgent(budget=Budget(iterations=8))] + [HeuristicAgent() for _ in range(7)]
    for p, a in enumerate(agents):
        a.reset(p, p)
    while not lobby.done and lobby.turn <= 4:
        p = lobby.to_act()[0]
        lobby.apply(p, agents[p].act(lobby.observe(p), lobby.legal_actions(p)))
    assert lobby.turn > 4 and lobby.state(0).hero is not None


# ------------------------------------------------------------ belief


def _obs_with_heroes(heroes_by_seat: dict[int, str]) -> Observation:
    real = Lobby(3).observe(0)
    players = tuple(
        PlayerInfo(
            p.player,
            p.health,
            p.tier,
            p.alive,
            p.placement,
            heroes_by_seat.get(p.player),
            HERO_BY_ID[heroes_by_seat[p.player]].power.id if p.player in heroes_by_seat else None,
        )
        for p in real.players
    )
    return Observation(0, 3, real.state, players, real.seen, real.tribes, None, real.rules)


HERO_BY_ID = heroes()


def test_the_belief_model_knows_every_opponents_hero():
    obs = _obs_with_heroes({2: HERO["The Curator"].id, 4: HERO["Patchwerk"].id})
    guesser = Guesser(obs)
    assert guesser.hero(2) == (HERO["The Curator"].id, HERO["The Curator"].power.id)
    assert guesser.hero(5) == (None, None)
    # a never-seen Curator has his Amalgam
    amalgam = STARTING_MINIONS[HERO["The Curator"].power.id][0]
    for k in range(10):
        board = guesser.guess(2, random.Random(k))
        assert amalgam in [m.card for m in board.minions]
    board = Guesser(_obs_with_heroes({})).guess(2, random.Random(0))
    assert amalgam not in [m.card for m in board.minions]


def test_a_type_tied_heros_guesses_lean_to_its_type():
    jaraxxus = HERO["Lord Jaraxxus"]
    assert jaraxxus.tribe == "demon"
    obs = _obs_with_heroes({3: jaraxxus.id})
    if "demon" not in obs.tribes:
        pytest.skip("the lobby has no Demons")
    guesser = Guesser(obs)
    db = cards()

    def demons(player: int) -> int:
        n = 0
        for k in range(300):
            board = guesser.guess(player, random.Random(k), turn=6)
            n += sum("demon" in db[m.card].tribes for m in board.minions)
        return n

    assert demons(3) > 1.3 * demons(4)  # seat 4 has no hero
    assert HERO_LEAN > 1


def test_without_heroes_the_guesses_are_unchanged():
    obs = Lobby(3).observe(0)
    a = Guesser(obs).guess(4, random.Random(1), turn=7)
    b = Guesser(obs).guess(4, random.Random(1), turn=7)
    assert a == b


# ------------------------------------------------------------ bench


def test_the_lobby_bench_plays_with_heroes():
    from agents.bench import bench_lobby

    r = bench_lobby(1, heroes=True)
    assert r["heroes"] is True and r["lobbies"] == 1 and r["lobbies_per_second"] > 0


def test_policy_kinds_cover_every_active_power():
    kinds = Counter()
    for info in heroes().values():
        policy = KNOWLEDGE.policy(info.power.id)
        assert policy is not None
        kinds[policy.kind] += 1
        if info.power.passive:
            assert policy.kind == PASSIVE
    assert kinds[AFTER_BUYS] and kinds[FIRST]


def test_the_search_tells_states_apart_by_hero_and_offers():
    # A search merges states with equal keys and replays a node's actions
    # unchecked: a power used, a counter moved or other offers are another
    # decision point (offers of two Secrets, then of three, crashed a search).
    from dataclasses import replace

    from bgsim._core.turn_model import info_key

    state = with_hero("The Great Akazamzarak", gold=5, tier=2)
    used = replace(state, hero=state.hero.changed(uses=1))
    offered = replace(state, hero_offers=("TB_Bacon_Secrets_01", "TB_Bacon_Secrets_02"))
    more = replace(offered, hero_offers=(*offered.hero_offers, "TB_Bacon_Secrets_04"))
    keys = {info_key(s, 20) for s in (state, used, offered, more)}
    assert len(keys) == 4
