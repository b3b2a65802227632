"""HeuristicAgent: determinism, legality over whole lobbies, the behaviours it
promises on constructed states, and a clear win over random play."""

from __future__ import annotations

import pytest
from tavern_helpers import RULES, act, drive_lobby, mk, st

from agents.arena import GameTask, play_game
from agents.heuristic import CURVES, HeuristicAgent
from agents.random_agent import RandomAgent
from bgsim._core import tavern
from bgsim._core.minions import GOLD_COIN, TRIPLE_REWARD, SpellCard
from bgsim.actions import Buy, Choose, EndTurn, Freeze, Move, Play, Refresh, Sell, Upgrade
from bgsim.lobby import Lobby
from bgsim.observation import Observation, PlayerInfo
from bgsim.registry import LineupError, make_agent, parse_spec
from bgsim.seeds import derive_seed

DRAGONSPAWN = "BGS_039"  # 2/3 Taunt, tier 1
SWABBIE = "BGS_055"  # 2/2, tier 1
SELLEMENTAL = "BGS_115"  # 2/2, tier 1
GAMBLER = "BGS_049"  # 3/3, tier 2
YO_HO_OGRE = "BGS_060"  # 2/6 Taunt, tier 2
HARVEST_GOLEM = "EX1_556"  # Mech
CAVE_HYDRA = "LOOT_078"  # cleave
WARLEADER = "EX1_507"  # murloc aura
ANNOY_O_MODULE = "BOT_911"  # Magnetic
HIGHMANE = "EX1_534"
TABBYCAT = "CFM_315t"  # 1/1 token
FOE_REAPER = "GVG_113"
GHASTCOILER = "BGS_008"
ZAPP = "BGS_022"
MAEXXNA = "FP1_010"
IMP_MAMA = "BGS_044"


def observe(state, turn: int | None = None) -> Observation:
    turn = state.turn if turn is None else turn
    players = tuple(PlayerInfo(p, 40, 1, True, None) for p in range(8))
    return Observation(0, turn, state, players, (None,) * 8, ("beast", "mech"), None, RULES)


def decide(state, agent: HeuristicAgent | None = None):
    agent = agent or HeuristicAgent()
    legal = tavern.legal_actions(state, RULES)
    action = agent.act(observe(state), legal)
    assert action in legal
    return action


def play_lobby(seed: int, agents, salt: int = 0, check_legal: bool = False) -> list:
    """Play a whole lobby; returns (turn, player, action code) for every action.
    ``salt`` changes the agents' seeds (not the lobby's)."""
    lobby = Lobby(seed)
    for seat, agent in enumerate(agents):
        agent.reset(seat, derive_seed(seed, "agent", seat, salt))
    taken = []
    while not lobby.done:
        for player in lobby.to_act():
            while not lobby.done and player in lobby.to_act():
                legal = lobby.legal_actions(player)
                action = agents[player].act(lobby.observe(player), legal)
                if check_legal:
                    assert action in legal, (lobby.turn, player, action)
                taken.append((lobby.turn, player, action.code))
                lobby.apply(player, action)
    return taken


# ------------------------------------------------------------ whole games


def test_deterministic_for_a_seed():
    def agents():
        return [HeuristicAgent(noise=4.0) for _ in range(4)] + [HeuristicAgent() for _ in range(4)]

    first = play_lobby(11, agents())
    assert first == play_lobby(11, agents())
    # The noise comes from the agents' own seeds: other seeds, other choices.
    assert first != play_lobby(11, agents(), salt=1)


def test_only_legal_actions_in_many_lobbies():
    decisions = 0
    for seed in range(24):
        agents = [
            HeuristicAgent(),
            HeuristicAgent(curve="fast"),
            HeuristicAgent(curve="slow", margin=0.0),
            HeuristicAgent(noise=6.0, freeze=0.5),
            HeuristicAgent(),
            RandomAgent(),
            HeuristicAgent(triple=0.0, floor=0.0),
            RandomAgent(),
        ]
        decisions += len(play_lobby(seed, agents, check_legal=True))
    assert decisions > 10000


def test_beats_random_play():
    heuristic = parse_spec("heuristic")
    rnd = parse_spec("random")
    places = []
    for game in range(16):
        seat = game % 8
        seats = tuple(heuristic if s == seat else rnd for s in range(8))
        task = GameTask("test", game, derive_seed("heuristic-test", game), seats, None, None, RULES)
        places.append(play_game(task).placements[seat])
    assert sum(places) / len(places) < 2.5


# ------------------------------------------------------------ behaviours


def test_buys_the_third_copy_for_a_triple():
    state = st(
        board=[mk(DRAGONSPAWN), mk(DRAGONSPAWN)],
        shop=[mk(YO_HO_OGRE), mk(GAMBLER), mk(DRAGONSPAWN)],
        gold=3,
        tier=2,
    )
    assert decide(state) == Buy(2)


def test_levels_on_the_curve_turn_and_not_before():
    shop = [mk(SWABBIE), mk(SELLEMENTAL), mk(DRAGONSPAWN)]
    assert decide(st(shop=shop, gold=4, tier=1, upgrade_cost=4, turn=2)) == Upgrade()
    # Turn 4: tier 3 is due on turn 5, so it buys instead of leveling.
    assert decide(st(shop=shop, gold=6, tier=2, upgrade_cost=5, turn=4)) != Upgrade()
    assert decide(st(shop=shop, gold=7, tier=2, upgrade_cost=4, turn=5)) == Upgrade()


def test_plays_a_gold_coin_at_once():
    state = st(board=[mk(SWABBIE)], hand=[mk(SELLEMENTAL), SpellCard(GOLD_COIN)], gold=0, tier=1)
    assert decide(state) == Play(1)


def test_triple_reward_after_leveling():
    state = st(hand=[SpellCard(TRIPLE_REWARD, 3)], gold=7, tier=2, upgrade_cost=4, turn=5)
    assert decide(state) == Upgrade()
    assert decide(act(state, Upgrade())) == Play(0)


def test_chooses_the_triple_piece_from_a_discover():
    state = st(
        board=[mk(GAMBLER), mk(GAMBLER)],
        discover=(mk(HIGHMANE), mk(GAMBLER), mk(YO_HO_OGRE)),
        tier=3,
    )
    assert decide(state) == Choose(1)


def test_attaches_a_magnetic_module_to_a_mech():
    state = st(
        board=[mk(YO_HO_OGRE), mk(HARVEST_GOLEM), mk(SWABBIE)],
        hand=[mk(ANNOY_O_MODULE)],
        gold=0,
        tier=4,
    )
    assert decide(state) == Play(0, None, 1)


def test_positions_cleave_left_and_aura_right():
    board = [mk(SWABBIE), mk(SELLEMENTAL), mk(GAMBLER)]
    assert decide(st(board=board, hand=[mk(CAVE_HYDRA)], gold=0, tier=4)) == Play(0, 0)
    assert decide(st(board=board, hand=[mk(WARLEADER)], gold=0, tier=2)) == Play(0, 3)


def test_moves_an_aura_right_once_nothing_else_is_left():
    state = st(board=[mk(WARLEADER), mk(SWABBIE), mk(SELLEMENTAL)], gold=0, tier=2)
    assert decide(state) == Move(0, 2)
    assert decide(act(state, Move(0, 2))) == EndTurn()


def strong_board(fifth: str) -> list:
    """Seven strong minions (in role order) with ``fifth`` in slot 4."""
    cards = [FOE_REAPER, FOE_REAPER, GHASTCOILER, ZAPP, fifth, MAEXXNA, IMP_MAMA]
    return [mk(c) for c in cards]


def test_sells_the_weakest_when_the_board_is_full_and_a_better_minion_waits():
    state = st(board=strong_board(TABBYCAT), hand=[mk(HIGHMANE)], gold=0, tier=6)
    assert decide(state) == Sell(4)
    # Savannah Highmane goes left, after the cleave and deathrattle minions already there.
    assert decide(act(state, Sell(4))) == Play(0, 4)


def test_keeps_a_full_board_when_the_hand_is_no_better():
    state = st(board=strong_board(HIGHMANE), hand=[mk(SWABBIE)], gold=0, tier=6)
    assert decide(state) == EndTurn()


def test_refreshes_a_poor_shop_and_freezes_a_good_one_when_out_of_gold():
    poor = st(board=[mk(HIGHMANE)], shop=[mk(TABBYCAT)] * 3, gold=10, tier=4, turn=9)
    assert decide(poor) == Refresh()
    good = st(board=[mk(GAMBLER), mk(GAMBLER)], shop=[mk(SWABBIE), mk(GAMBLER)], gold=2, tier=2)
    assert decide(good) == Freeze()
    assert decide(act(good, Freeze())) == EndTurn()


def test_stops_at_the_recruit_action_limit():
    limit = RULES.recruit.actions_per_turn
    state = st(shop=[mk(SWABBIE)] * 3, gold=10, tier=1, actions=limit - 1)
    assert decide(state) == EndTurn()


# ------------------------------------------------------------ options


def test_options_through_the_registry():
    agent = make_agent(parse_spec("heuristic[curve=2-4-6-8-10,margin=4]"))
    assert agent.name == "heuristic[curve=2-4-6-8-10,margin=4]"
    assert agent.curve == HeuristicAgent(curve="fast").curve
    with pytest.raises(LineupError):
        make_agent(parse_spec("heuristic[depth=3]"))
    for bad in ("sideways", "2-5-7", "5-4-7-10-13"):
        with pytest.raises(ValueError, match="bad curve"):
            HeuristicAgent(curve=bad)
    assert set(CURVES) >= {"standard", "fast", "slow"}


def test_deciding_without_the_legal_list_gives_the_same_action():
    """Searches ask without listing the legal actions (each candidate is then
    checked on its own); the answer must not change."""
    agents = [HeuristicAgent(rules=RULES) for _ in range(8)]

    def choose(player, state, legal, turn):
        action = agents[player].decide(state, turn, legal)
        assert agents[player].decide(state, turn) == action
        return action

    assert drive_lobby(Lobby(derive_seed("heuristic-legal", 0)), choose, 12) > 300
