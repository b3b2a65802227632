"""The reinforcement-learning environments (bgsim.envs): PettingZoo's and
Gymnasium's API checks, reproducibility, rewards and placements, masks,
knock-outs, the turn bound, bad input, and the observation encoder."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

import gymnasium
from gymnasium.utils.env_checker import check_env

with warnings.catch_warnings():  # its import of pettingzoo.classic is deprecated there
    warnings.simplefilter("ignore", DeprecationWarning)
    from pettingzoo.test import api_test, parallel_api_test, seed_test

from bgsim import ChooseHero, EndTurn, SpellCard
from bgsim.actions import NUM_ACTIONS, IllegalActionError
from bgsim.envs import GYM_ID, LAYOUT, OBS_SIZE, ObservationEncoder, battlegrounds_v0
from bgsim.envs.bench import aec_game, gym_game, lobby_game, lobby_gym_game
from bgsim.envs.encoding import (
    CARD_FEATURES,
    CARD_IDS,
    PLAYER_FEATURES,
    SELF_FEATURES,
    describe_layout,
    legal_mask,
)
from bgsim.lobby import Lobby
from bgsim.ruleset import load_ruleset

N = 8
MID = (N + 1) / 2


def masked(mask: np.ndarray, rng: np.random.Generator) -> int:
    legal = np.flatnonzero(mask)
    return int(legal[rng.integers(legal.size)])


def play_aec(env, seed: int, policy_seed: int = 0) -> dict:
    """One whole game through an AEC env with a masked-random policy; every
    agent's observations, rewards and the final placements."""
    rng = np.random.default_rng(policy_seed)
    env.reset(seed=seed)
    trace: list = []
    returns = dict.fromkeys(env.possible_agents, 0.0)
    left: list[tuple[str, int]] = []
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        returns[agent] += reward
        if terminated or truncated:
            left.append((agent, env.unwrapped.lobby.turn))
            assert "placement" in info
            env.step(None)
            assert agent not in env.agents
            continue
        trace.append((agent, obs["observation"].tobytes(), reward))
        env.step(masked(obs["action_mask"], rng))
    placements = dict(env.unwrapped.lobby.placements)
    return {"trace": trace, "returns": returns, "left": left, "placements": placements}


def short_rules(max_turns: int):
    rules = load_ruleset()
    return dataclasses.replace(rules, lobby=dataclasses.replace(rules.lobby, max_turns=max_turns))


# ------------------------------------------------------------ API checks


def test_importing_bgsim_imports_neither_gymnasium_nor_pettingzoo():
    code = (
        "import sys, bgsim, bgsim.lobby, bgsim.cli; "
        "print(sorted(m for m in ('gymnasium', 'pettingzoo') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_pettingzoo_api_test_passes_for_the_aec_env():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # dict observations: PettingZoo says they are unusual
        api_test(battlegrounds_v0.env(), num_cycles=300)
        seed_test(battlegrounds_v0.env, num_cycles=300)


def test_pettingzoo_parallel_api_test_passes_and_plays_a_whole_game():
    env = battlegrounds_v0.parallel_env()
    parallel_api_test(env, num_cycles=2000)
    assert env.agents == [] and env.lobby.done


def test_gymnasium_check_env_passes():
    env = gymnasium.make(GYM_ID, opponents="random:7")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no warning either
        check_env(env.unwrapped)
    assert env.observation_space.shape == (OBS_SIZE,)
    assert env.action_space.n == NUM_ACTIONS


def test_gymnasium_make_with_the_module_prefix_needs_no_import_first():
    code = (
        "import gymnasium, sys\n"
        "assert 'bgsim.envs' not in sys.modules\n"
        "env = gymnasium.make('bgsim.envs:bgsim/Battlegrounds-v0', opponents='random:7')\n"
        "obs, info = env.reset(seed=1)\n"
        "print(obs.shape, info['seat'])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split()[0] == f"({OBS_SIZE},)"


# ------------------------------------------------------------ the AEC game


def test_aec_env_plays_the_same_game_as_the_lobby_and_pays_centred_placement_rewards():
    env = battlegrounds_v0.env()
    placements, steps = aec_game(env, 11)
    assert (placements, steps) == lobby_game(11)
    game = play_aec(env, 11, policy_seed=11)  # aec_game's policy: the same game again
    assert tuple(game["placements"][p] for p in range(N)) == placements
    assert sorted(game["placements"].values()) == list(range(1, N + 1))
    for agent, total in game["returns"].items():
        assert total == MID - game["placements"][int(agent.split("_")[1])]
    assert sum(game["returns"].values()) == 0
    # everyone left; a player knocked out in an earlier round placed worse
    assert sorted(a for a, _ in game["left"]) == env.possible_agents
    out = [(turn, game["placements"][int(a.split("_")[1])]) for a, turn in game["left"]]
    for turn_a, place_a in out:
        for turn_b, place_b in out:
            if turn_a < turn_b:
                assert place_a > place_b


def test_aec_observations_are_the_encoders_of_the_lobby_at_every_step():
    # Step by step, knocked-out players' last observations included: what a
    # fresh encoder reads from the lobby (the env's encoder only rewrites what
    # changed since each player's last observation).
    env = battlegrounds_v0.env()
    env.reset(seed=8)
    rng = np.random.default_rng(8)
    for agent in env.agent_iter():
        obs, _reward, terminated, truncated, _info = env.last()
        fresh = ObservationEncoder().encode_lobby(env.lobby, env.possible_agents.index(agent))
        assert np.array_equal(obs["observation"], fresh)
        env.step(None if terminated or truncated else masked(obs["action_mask"], rng))


def test_reset_with_a_seed_reproduces_observations_rewards_and_placements():
    env = battlegrounds_v0.env(reward="shaped")
    first = play_aec(env, 5)
    second = play_aec(env, 5)
    assert first == second
    other = play_aec(env, 6)
    assert other["trace"] != first["trace"]
    # a reset without a seed follows from the last seed given
    env.reset(seed=5)
    env.reset()
    a = env.observe(env.agent_selection)["observation"]
    env.reset(seed=5)
    env.reset()
    assert np.array_equal(a, env.observe(env.agent_selection)["observation"])


def test_shaped_rewards_add_up_to_the_placement_reward_and_sum_to_zero_each_round():
    env = battlegrounds_v0.env(reward="shaped")
    rng = np.random.default_rng(3)
    env.reset(seed=3)
    returns = dict.fromkeys(env.possible_agents, 0.0)
    rounds = 0
    while env.agents:
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        env.step(masked(env.observe(agent)["action_mask"], rng))
        if any(env.rewards.values()):
            rounds += 1
            assert sum(env.rewards.values()) == pytest.approx(0.0, abs=1e-9)
        for a, r in env.rewards.items():
            returns[a] += r
    placements = env.lobby.placements
    assert rounds > 3
    for agent, total in returns.items():
        assert total == pytest.approx(MID - placements[int(agent.split("_")[1])])


def test_masks_agree_with_the_legal_actions_and_only_the_first_recruiting_player_acts():
    env = battlegrounds_v0.env()
    rng = np.random.default_rng(0)
    env.reset(seed=2)
    lobby = env.lobby
    for _ in range(400):
        agent = env.agent_selection
        seat = int(agent.split("_")[1])
        assert seat == lobby.to_act()[0]
        obs = env.observe(agent)
        assert obs["action_mask"].dtype == np.int8
        legal = {a.code for a in lobby.legal_actions(seat)}
        assert set(np.flatnonzero(obs["action_mask"]).tolist()) == legal
        assert np.array_equal(obs["observation"], ObservationEncoder().encode(lobby.observe(seat)))
        env.step(masked(obs["action_mask"], rng))


def test_knocked_out_agents_terminate_and_leave_the_agents_list():
    env = battlegrounds_v0.env()
    rng = np.random.default_rng(1)
    env.reset(seed=8)
    seen_out = []
    while env.agents:
        agent = env.agent_selection
        if env.terminations[agent]:
            seat = int(agent.split("_")[1])
            assert env.infos[agent] == {"placement": env.lobby.placements[seat]}
            with pytest.raises(ValueError, match="only valid action is None"):
                env.step(0)
            env.step(None)
            assert agent not in env.agents and agent not in env.rewards
            seen_out.append(agent)
            continue
        env.step(masked(env.observe(agent)["action_mask"], rng))
    assert sorted(seen_out) == env.possible_agents
    with pytest.raises(RuntimeError, match="game is over"):
        env.step(0)


def test_the_turn_bound_truncates_instead_of_terminating():
    env = battlegrounds_v0.env(ruleset=short_rules(3), heroes=False)
    env.reset(seed=4)
    ended = {}
    while env.agents:
        agent = env.agent_selection
        if env.truncations[agent]:
            assert not env.terminations[agent]
            ended[agent] = env.infos[agent]["placement"]
            env.step(None)
            continue
        env.step(0)  # everyone ends every turn at once: nobody dies in three turns
    assert env.lobby.turn == 3 and sorted(ended.values()) == list(range(1, N + 1))


def test_numpy_integer_actions_are_accepted():
    env = battlegrounds_v0.env(heroes=False)
    env.reset(seed=0)
    for action in (np.int64(0), np.int32(0), np.array(0), np.uint8(0)):
        before = env.agent_selection
        env.step(action)
        assert env.agent_selection != before


@pytest.mark.parametrize(
    ("action", "error", "match"),
    [
        ("x", TypeError, "integer code"),
        (1.0, TypeError, "integer code"),
        (True, TypeError, "integer code"),
        (np.array([0]), TypeError, "integer code"),
        (NUM_ACTIONS, ValueError, "out of range"),
        (-1, ValueError, "out of range"),
        (None, TypeError, "still in the game"),
        (18, IllegalActionError, "player_0: action 18 is illegal"),  # Choose: no Discover
    ],
)
def test_a_bad_action_is_a_clear_error_and_changes_nothing(action, error, match):
    env = battlegrounds_v0.env(heroes=False)
    env.reset(seed=0)
    env.step(4)  # player_0 buys from shop slot 0
    state = env.lobby.state(0)
    obs = env.observe("player_0")["observation"]
    with pytest.raises(error, match=match) as info:
        env.step(action)
    assert "\n" not in str(info.value)
    assert env.agent_selection == "player_0" and env.lobby.state(0) is state
    assert np.array_equal(env.observe("player_0")["observation"], obs)


@pytest.mark.parametrize(
    ("seed", "error"), [("x", TypeError), (1.5, TypeError), (True, TypeError), (-1, ValueError)]
)
def test_a_bad_seed_is_a_clear_error_and_changes_nothing(seed, error):
    env = battlegrounds_v0.env()
    env.reset(seed=1)
    lobby = env.lobby
    with pytest.raises(error, match="seed must be a non-negative integer"):
        env.reset(seed=seed)
    assert env.lobby is lobby
    par = battlegrounds_v0.parallel_env()
    with pytest.raises(error, match="seed"):
        par.reset(seed=seed)
    gym = gymnasium.make(GYM_ID, opponents="random:7")
    with pytest.raises(error, match="seed"):
        gym.reset(seed=seed)


def test_using_the_env_before_reset_and_bad_options_are_clear_errors():
    env = battlegrounds_v0.env()
    with pytest.raises(RuntimeError, match="reset"):
        env.observe("player_0")
    with pytest.raises(ValueError, match="reward must be one of"):
        battlegrounds_v0.env(reward="score")
    with pytest.raises(ValueError, match="render_mode"):
        battlegrounds_v0.parallel_env(render_mode="human")
    text = battlegrounds_v0.env(render_mode="ansi")
    text.reset(seed=0)
    assert "player_0" in text.render() and "shop:" in text.render()


# ------------------------------------------------------------ the parallel game


def test_parallel_env_steps_every_recruiting_player_and_waits_the_others():
    env = battlegrounds_v0.parallel_env(heroes=False)
    obs, infos = env.reset(seed=9)
    assert set(obs) == set(env.agents) == set(infos)
    first = {a: 0 for a in env.agents[:4]}  # half the table ends turn 1
    with pytest.raises(ValueError, match="no action for player_4"):
        env.step(first)
    obs, *_ = env.step({**first, **{a: 4 for a in env.agents[4:]}})  # others buy
    assert env.lobby.turn == 1
    for agent in env.agents[:4]:
        assert np.flatnonzero(obs[agent]["action_mask"]).tolist() == [0]  # waiting
    with pytest.raises(IllegalActionError, match="only action is 0"):
        env.step({a: 1 for a in env.agents})
    with pytest.raises(ValueError, match="no agent 'dealer'"):
        env.step({"dealer": 0})
    obs, *_ = env.step({a: 0 for a in env.agents[4:]})  # the waiting may be left out
    assert env.lobby.turn == 2
    assert all(obs[a]["action_mask"].sum() > 1 for a in env.agents)


def test_parallel_env_reproduces_a_game_and_pays_placement_rewards():
    def play(seed: int):
        env = battlegrounds_v0.parallel_env()
        rng = np.random.default_rng(seed)
        obs, _ = env.reset(seed=seed)
        totals = dict.fromkeys(env.possible_agents, 0.0)
        steps = 0
        while env.agents:
            actions = {a: masked(obs[a]["action_mask"], rng) for a in env.agents}
            obs, rewards, terminations, truncations, infos = env.step(actions)
            steps += 1
            for a, r in rewards.items():
                totals[a] += r
            for a in terminations:
                if terminations[a] or truncations[a]:
                    assert a not in env.agents and "placement" in infos[a]
        return totals, dict(env.lobby.placements), steps

    first = play(21)
    assert first == play(21)
    totals, placements, _ = first
    for agent, total in totals.items():
        assert total == MID - placements[int(agent.split("_")[1])]


def test_parallel_env_applies_end_turns_last_so_an_allowed_buy_stays_legal():
    # Seed 0: seat 5 is offered King Mukla, whose EndTurn hands every other
    # player a Banana. Seat 6 fills its hand to 9 cards, then buys (allowed
    # by its mask) in the step in which seat 5 ends its turn.
    from bgsim import Buy, Freeze, HeroPower, encode

    env = battlegrounds_v0.parallel_env()
    env.reset(seed=0)
    lobby = env.lobby
    mukla, buyer = "player_5", "player_6"
    assert lobby.state(5).hero_offers[1] == "TB_BaconShop_HERO_38"  # King Mukla
    env.step({a: 704 if a == mukla else 703 for a in env.agents})
    for _ in range(200):
        masks = {a: env._observe(a)["action_mask"] for a in env.agents}
        recruiting, a_state, b_state = set(lobby.to_act()), lobby.state(5), lobby.state(6)
        buy = next((encode(Buy(i)) for i in range(7) if masks[buyer][encode(Buy(i))]), None)
        actions = dict.fromkeys(env.agents, 0)
        both = {5, 6} <= recruiting
        if 5 in recruiting and not a_state.hero.uses and masks[mukla][encode(HeroPower())]:
            actions[mukla] = encode(HeroPower())
        elif both and a_state.hero.uses and len(b_state.hand) == 9 and buy is not None:
            actions[mukla], actions[buyer] = 0, buy
            env.step(actions)  # the Buy first, then the EndTurn and its Bananas
            assert lobby.state(5).ended and len(lobby.state(6).hand) == 10
            assert lobby.state(6).hand[-1] == b_state.shop[buy - encode(Buy(0))]
            return
        elif both and a_state.hero.uses:
            actions[mukla] = encode(Freeze())
        if 6 in recruiting and buy is not None and len(b_state.hand) < 9:
            actions[buyer] = buy
        elif both and len(b_state.hand) == 9 and masks[buyer][encode(Freeze())]:
            actions[buyer] = encode(Freeze())
        env.step(actions)
    raise AssertionError("the scenario never came about")


def test_a_parallel_step_refused_midway_takes_no_action(monkeypatch):
    env = battlegrounds_v0.parallel_env(heroes=False)
    env.reset(seed=3)
    lobby = env.lobby
    states = [lobby.state(p) for p in range(N)]
    calls = []
    real = Lobby.apply

    def apply(self, player, action):
        calls.append(player)
        if len(calls) == 3:
            raise IllegalActionError("refused")
        real(self, player, action)

    monkeypatch.setattr(Lobby, "apply", apply)
    with pytest.raises(IllegalActionError, match=r"player_2: action 4 .* no action was taken"):
        env.step(dict.fromkeys(env.agents, 4))  # every player buys from slot 0
    monkeypatch.undo()
    assert env.lobby is lobby  # restored in place: a caller may hold it
    assert [lobby.state(p) for p in range(N)] == states
    assert lobby.log == [{"type": "turn", "turn": 1}]
    env.step(dict.fromkeys(env.agents, 4))
    assert all(len(env.lobby.state(p).hand) == 1 for p in range(N))


# ------------------------------------------------------------ the Gymnasium env


def test_gym_env_plays_the_lobby_game_with_tournament_seeded_opponents():
    env = gymnasium.make(GYM_ID, opponents="random:7")
    (seat, place), steps = gym_game(env, 31)
    assert ((seat, place), steps) == lobby_gym_game(31, seat)
    assert env.unwrapped.seat == seat == gym_game(env, 31)[0][0]


def test_gym_env_is_reproducible_and_ends_with_the_learners_placement():
    def play(seed: int, **options):
        env = gymnasium.make(GYM_ID, **options)
        rng = np.random.default_rng(0)
        obs, info = env.reset(seed=seed)
        trace, total = [obs.tobytes()], 0.0
        while True:
            mask = env.unwrapped.action_masks()
            assert mask.dtype == bool and mask.any()
            obs, reward, terminated, truncated, info = env.step(masked(mask, rng))
            trace.append(obs.tobytes())
            total += reward
            if terminated or truncated:
                return trace, total, info["placement"], env.unwrapped.seat

    first = play(13, opponents="heuristic:7")
    assert first == play(13, opponents="heuristic:7")
    _, total, placement, _ = first
    assert total == MID - placement
    _, shaped_total, shaped_place, _ = play(13, opponents="heuristic:7", reward="shaped")
    assert (shaped_total, shaped_place) == pytest.approx((total, placement))
    seats = {play(s, opponents="random:7")[3] for s in range(6)}
    assert len(seats) > 1  # the seat follows the seed
    assert play(13, opponents="random:7", seat=5)[3] == 5


def test_gym_env_truncates_at_the_turn_bound():
    env = gymnasium.make(GYM_ID, opponents="random:7", ruleset=short_rules(2), seat=0, heroes=False)
    env.reset(seed=0)
    env.step(0)
    _obs, reward, terminated, truncated, info = env.step(0)
    assert (terminated, truncated) == (False, True)
    assert reward == MID - info["placement"]


def test_gym_env_bad_actions_and_options():
    env = gymnasium.make(GYM_ID, opponents="random:7", seat=0)
    obs, _ = env.reset(seed=2)
    state = env.unwrapped.lobby.state(0)
    obs2, reward, terminated, truncated, info = env.step(18)  # Choose: no Discover pending
    assert (reward, terminated, truncated, info) == (-0.05, False, False, {"illegal_action": True})
    assert np.array_equal(obs, obs2) and env.unwrapped.lobby.state(0) is state
    for action, error in (("1", TypeError), (NUM_ACTIONS, ValueError), (2.0, TypeError)):
        with pytest.raises(error, match="action"):
            env.step(action)
    strict = gymnasium.make(GYM_ID, opponents="random:7", illegal_action="raise")
    strict.reset(seed=2)
    with pytest.raises(IllegalActionError, match="action 18 is illegal"):
        strict.step(18)
    obs, *_ = env.step(np.int64(0))
    with pytest.raises(ValueError, match="takes 8 seats; the opponents fill the 7 seats"):
        gymnasium.make(GYM_ID, opponents="random:8")
    with pytest.raises(ValueError, match=r"seat must be 0\.\.7"):
        gymnasium.make(GYM_ID, seat=8)
    with pytest.raises(ValueError, match="illegal_action"):
        gymnasium.make(GYM_ID, illegal_action="ignore")
    with pytest.raises(ValueError, match="budget"):
        gymnasium.make(GYM_ID, opponents="mcts:7", budget="fast")


# ------------------------------------------------------------ the encoder


def test_encoder_layout_and_features():
    assert sum(np.prod(s.shape) for s in LAYOUT.values()) == OBS_SIZE == 2344
    assert describe_layout().splitlines()[-1] == f"total {OBS_SIZE}"
    lobby = Lobby(7)
    obs = lobby.observe(3)
    v = ObservationEncoder().encode(obs)
    assert v.dtype == np.float32 and v.min() >= 0.0 and v.max() <= 1.0
    own = v[LAYOUT["self"].slice]
    assert own[SELF_FEATURES.index("gold")] == pytest.approx(obs.gold / 20)
    assert own[SELF_FEATURES.index("seat_3")] == 1.0
    shop = v[LAYOUT["shop"].slice].reshape(LAYOUT["shop"].shape)
    present = shop[:, CARD_FEATURES.index("present")]
    assert present.tolist() == [1.0] * len(obs.shop) + [0.0] * (7 - len(obs.shop))
    for row, card in zip(shop, obs.shop, strict=False):
        index = round(float(row[CARD_FEATURES.index("card")]) * len(CARD_IDS)) - 1
        assert CARD_IDS[index] == card.card
    players = v[LAYOUT["players"].slice].reshape(LAYOUT["players"].shape)
    assert players[:, 0].tolist() == [1.0] * N  # everyone alive
    mask = legal_mask(lobby.legal_actions(3))
    assert np.array_equal(mask.astype(bool), lobby.action_mask(3))


def test_incremental_encoding_matches_a_fresh_encoder_through_a_game():
    lobby = Lobby(12)
    rng = np.random.default_rng(12)
    incremental = ObservationEncoder()
    steps = 0
    while not lobby.done:
        p = lobby.to_act()[0]
        if steps % 7 == 0:
            for seat in (p, (p + 3) % N):
                fresh = ObservationEncoder().encode(lobby.observe(seat))
                assert np.array_equal(incremental.encode_lobby(lobby, seat), fresh)
        else:
            incremental.encode_lobby(lobby, p)
        lobby.apply(p, masked(lobby.action_mask(p), rng))
        steps += 1
    for seat in range(N):  # the final standings, placements included
        fresh = ObservationEncoder().encode(lobby.observe(seat))
        assert np.array_equal(incremental.encode_lobby(lobby, seat), fresh)


def test_encoders_of_two_rulesets_scale_the_same_standings_by_their_own_numbers():
    rules = load_ruleset()
    longer = dataclasses.replace(rules, lobby=dataclasses.replace(rules.lobby, hero_health=80))
    obs = Lobby(5).observe(0)
    health = LAYOUT["players"].start + PLAYER_FEATURES.index("health")
    for _ in range(2):  # in either order, and again: nothing one encoder kept leaks
        assert ObservationEncoder(rules).encode(obs)[health] == 1.0  # 40 of 40
        assert ObservationEncoder(longer).encode(obs)[health] == 0.5  # 40 of 80


def test_a_refused_encoding_leaves_the_encoder_as_it_was():
    rules = load_ruleset()
    two = dataclasses.replace(rules, lobby=dataclasses.replace(rules.lobby, players=2))
    lobby, other = Lobby(1, heroes=True), Lobby(1, two, heroes=True)
    for game in (lobby, other):
        drive = np.random.default_rng(0)
        for _ in range(40):
            p = game.to_act()[0]
            legal = np.flatnonzero(game.action_mask(p))
            game.apply(p, int(legal[drive.integers(legal.size)]))
    encoder = ObservationEncoder(rules)
    encoder.encode_lobby(lobby, 0)
    for bad in (lambda: encoder.encode(other.observe(0)), lambda: encoder.encode_lobby(other, 0)):
        with pytest.raises(ValueError, match=r"for 8-player lobbies .* not 2-player ones"):
            bad()
    fresh = ObservationEncoder(rules).encode_lobby(lobby, 0)
    assert (encoder.encode_lobby(lobby, 0) == fresh).all()


def test_the_encoder_refuses_what_is_not_a_ruleset_lobby_or_seat_and_takes_numpy_seats():
    encoder, lobby = ObservationEncoder(), Lobby(2)
    with pytest.raises(TypeError, match="ruleset must be a bgsim Ruleset or None, got 'x'"):
        ObservationEncoder("x")
    for bad in (None, lobby.observe(0)):
        with pytest.raises(TypeError, match="encode_lobby takes a Lobby, not"):
            encoder.encode_lobby(bad, 0)
    for seat in (True, 1.0, "1"):
        with pytest.raises(IllegalActionError, match="player must be an integer"):
            encoder.encode_lobby(lobby, seat)
    assert (encoder.encode_lobby(lobby, np.int64(3)) == encoder.encode_lobby(lobby, 3)).all()


def test_the_gym_env_takes_numpy_numbers_for_its_seat_and_penalty():
    numbers = {"seat": np.int64(3), "illegal_penalty": np.int64(1)}
    env = gymnasium.make(GYM_ID, opponents="random:7", **numbers)
    _, info = env.reset(seed=1)
    assert info["seat"] == 3 and type(env.unwrapped.fixed_seat) is int
    assert env.unwrapped.illegal_penalty == 1.0
    for bad in (np.bool_(True), float("nan")):
        with pytest.raises(ValueError, match="illegal_penalty must be a number"):
            gymnasium.make(GYM_ID, opponents="random:7", illegal_penalty=bad)


ENCODE_A_GAME = """
import hashlib, numpy as np
from bgsim import compiled
from bgsim.lobby import Lobby
from bgsim.envs.encoding import ObservationEncoder
encoder, digest = ObservationEncoder(), hashlib.sha1()
lobby, rng = Lobby(4), np.random.default_rng(4)
while not lobby.done:
    p = lobby.to_act()[0]
    digest.update(encoder.encode_lobby(lobby, p).tobytes())
    legal = np.flatnonzero(lobby.action_mask(p))
    lobby.apply(p, int(legal[rng.integers(legal.size)]))
print(compiled.status(), digest.hexdigest())
"""


def test_the_encoder_compiled_and_as_pure_python_gives_the_same_vectors():
    runs = [
        subprocess.run(
            [sys.executable, "-c", ENCODE_A_GAME],
            env={**os.environ, "BGSIM_PURE": pure},
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
        for pure in ("0", "1")
    ]
    assert runs[1][0] == "pure"
    assert runs[0][1] == runs[1][1]


# ------------------------------------------------------------ heroes


def test_the_api_tests_pass_with_heroes():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # dict observations: PettingZoo says they are unusual
        api_test(battlegrounds_v0.env(heroes=True), num_cycles=300)
    env = battlegrounds_v0.parallel_env(heroes=True)
    parallel_api_test(env, num_cycles=2000)
    assert env.agents == [] and env.lobby.done and env.lobby.heroes
    gym = gymnasium.make(GYM_ID, opponents="random:7", heroes=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(gym.unwrapped)
    with pytest.raises(TypeError, match="heroes must be True or False"):
        battlegrounds_v0.env(heroes="yes")


def test_the_draft_is_a_turn_of_its_own_in_every_environment():
    env = battlegrounds_v0.env(heroes=True)
    env.reset(seed=3)
    lobby = env.unwrapped.lobby
    assert lobby.turn == 0
    for k in range(N):
        obs, *_ = env.last()
        assert env.agent_selection == f"player_{k}"
        mask = obs["action_mask"]
        assert np.flatnonzero(mask).tolist() == [703, 704]  # ChooseHero(0), ChooseHero(1)
        env.step(703 + k % 2)
    assert lobby.turn == 1 and env.agent_selection == "player_0"
    assert [i.hero for i in lobby.public_players()] == [
        lobby.log[k]["offers"][k % 2] for k in range(N)
    ]
    par = battlegrounds_v0.parallel_env(heroes=True)
    obs, _ = par.reset(seed=3)
    assert all(np.flatnonzero(o["action_mask"]).tolist() == [703, 704] for o in obs.values())
    par.step({a: 704 for a in par.agents})
    assert par.lobby.turn == 1
    gym = gymnasium.make(GYM_ID, opponents="random:7", seat=2, heroes=True)
    gym.reset(seed=3)
    assert np.flatnonzero(gym.unwrapped.action_masks()).tolist() == [703, 704]
    gym.step(703)
    assert gym.unwrapped.lobby.turn == 1 and gym.unwrapped.lobby.state(2).hero is not None


def test_the_hero_sections_encode_the_draft_the_hero_and_every_players_hero():
    from bgsim.envs.encoding import (
        DRAFT_FEATURES,
        HERO_FEATURES,
        HERO_IDS,
        HEROES_FEATURES,
        POWER_IDS,
    )

    def section(v, name):
        return v[LAYOUT[name].slice].reshape(LAYOUT[name].shape)

    def hero_of(value: float) -> str:
        return HERO_IDS[round(value * len(HERO_IDS)) - 1]

    plain = ObservationEncoder().encode(Lobby(3).observe(0))
    for name in ("hero", "heroes", "draft"):
        assert not section(plain, name).any()  # zeros without heroes
    lobby = Lobby(3, heroes=True)
    v = ObservationEncoder().encode(lobby.observe(1))
    draft = section(v, "draft")
    offers = lobby.state(1).hero_offers
    assert draft[:, DRAFT_FEATURES.index("present")].tolist() == [1, 1, 0, 0]
    assert [hero_of(x) for x in draft[:2, DRAFT_FEATURES.index("hero")]] == list(offers)
    for p in range(N):
        lobby.apply(p, 703)
    v = ObservationEncoder().encode(lobby.observe(1))
    assert not section(v, "draft").any()
    own = section(v, "hero")
    hero = lobby.state(1).hero
    assert own[HERO_FEATURES.index("present")] == 1.0
    assert hero_of(own[HERO_FEATURES.index("hero")]) == hero.hero
    power = own[HERO_FEATURES.index("power")]
    assert POWER_IDS[round(power * len(POWER_IDS)) - 1] == hero.power
    rows = section(v, "heroes")
    public = lobby.public_players()
    for k in range(N):  # row k is seat (1 + k) % 8
        info = public[(1 + k) % N]
        assert hero_of(rows[k, HEROES_FEATURES.index("hero")]) == info.hero
        shown = rows[k, HEROES_FEATURES.index("counter_shown")]
        assert shown == (0.0 if info.counter is None else 1.0)


def test_incremental_encoding_matches_a_fresh_encoder_with_heroes():
    # Every step: the encoder rewrites a zone from its first changed card on,
    # so each kind of action (buy, sell, play, move, roll, power) is checked.
    lobby = Lobby(21, heroes=True)
    rng = np.random.default_rng(21)
    incremental = ObservationEncoder()
    while not lobby.done:
        p = lobby.to_act()[0]
        fresh = ObservationEncoder().encode(lobby.observe(p))
        assert np.array_equal(incremental.encode_lobby(lobby, p), fresh)
        lobby.apply(p, masked(lobby.action_mask(p), rng))
    assert all(lobby.state(p).hero is not None for p in range(N))


def test_every_spell_has_a_card_index():
    from bgsim.cards import cards
    from bgsim.envs.encoding import card_row

    spells = {c.id for c in cards() if c.type == "spell"}
    assert spells <= set(CARD_IDS)
    row = card_row(SpellCard("TRL_509t"))  # King Mukla's Bananas
    assert row[CARD_FEATURES.index("spell")] == 1.0
    index = round(float(row[CARD_FEATURES.index("card")]) * len(CARD_IDS)) - 1
    assert CARD_IDS[index] == "TRL_509t"


def test_the_environments_play_with_heroes_by_default():
    assert battlegrounds_v0.env().heroes and battlegrounds_v0.parallel_env().heroes
    env = gymnasium.make(GYM_ID, opponents="random:7")
    assert env.unwrapped.heroes
    env.reset(seed=3)
    assert env.unwrapped.lobby.heroes and env.unwrapped.lobby.turn == 0  # the draft


def test_stable_baselines_make_vec_env_pattern_works():
    """Stable-Baselines3's make_vec_env asks for render_mode="rgb_array" and,
    on a TypeError, makes the environment without it; the environments'
    refusal is a TypeError as well as a ValueError, so that retry happens."""
    kwargs = {"opponents": "random:7"}
    try:
        with pytest.warns(UserWarning, match="render_mode"):  # Gymnasium's own note
            env = gymnasium.make(GYM_ID, render_mode="rgb_array", **kwargs)
    except TypeError as exc:
        assert isinstance(exc, ValueError) and "render_mode" in str(exc)
        env = gymnasium.make(GYM_ID, **kwargs)
    obs, _ = env.reset(seed=1)
    assert obs.shape == (OBS_SIZE,)
    for make in (battlegrounds_v0.env, battlegrounds_v0.parallel_env):
        with pytest.raises(TypeError, match="render_mode"):
            make(render_mode="rgb_array")


def test_environments_pickle_and_deepcopy_into_independent_equal_games():
    import copy
    import pickle

    for make in (battlegrounds_v0.env, battlegrounds_v0.parallel_env):
        env = make()
        env.reset(seed=5)
        for twin in (pickle.loads(pickle.dumps(env)), copy.deepcopy(env)):
            assert twin.lobby.log == env.lobby.log and twin.lobby is not env.lobby
    for opponents in ("random:7", "heuristic:6,mcts:1"):
        gym = gymnasium.make(GYM_ID, opponents=opponents, budget="20it")
        gym.reset(seed=5)
        for _ in range(12):  # past the opponents' first decisions
            gym.step(int(np.flatnonzero(gym.unwrapped.action_masks())[-1]))
        inner = pickle.loads(pickle.dumps(gym.unwrapped))
        assert (inner.action_masks() == gym.unwrapped.action_masks()).all()
        assert inner.lobby.log == gym.unwrapped.lobby.log


def test_unknown_agents_spaces_are_a_clear_error():
    env = battlegrounds_v0.env()
    for ask in (env.observation_space, env.action_space):
        with pytest.raises(ValueError, match="no agent 'player_9'"):
            ask("player_9")


def test_a_shallow_copy_of_an_environment_plays_its_own_game():
    import copy

    for make in (battlegrounds_v0.env, battlegrounds_v0.parallel_env):
        env = make()
        env.reset(seed=3)
        twin = copy.copy(env)
        if make is battlegrounds_v0.env:
            twin.step(703)
            env.step(703)  # still legal: the twin's draft was its own
        else:
            twin.step(dict.fromkeys(twin.agents, 703))
            env.step(dict.fromkeys(env.agents, 703))
        assert twin.lobby.log == env.lobby.log and twin.lobby is not env.lobby
    gym_env = gymnasium.make(GYM_ID, opponents="random:7", seat=0).unwrapped
    gym_env.reset(seed=1)
    twin = copy.copy(gym_env)
    twin.step(703)
    assert gym_env.lobby.turn == 0 and twin.lobby.turn == 1  # the original still drafts


def test_the_great_akazamzaraks_secrets_are_encoded_when_offered_and_when_held():
    from bgsim import HeroPower
    from bgsim.envs.encoding import CARD_IDS, DRAFT_FEATURES, SECRET_IDS

    lobby, seat = _drafted("TB_BaconShop_HERO_21")  # The Great Akazamzarak
    encoder = ObservationEncoder()
    draft = LAYOUT["draft"]
    card = DRAFT_FEATURES.index("card")
    held: tuple = ()
    while not held:
        _others_end_turn(lobby, seat)
        state = lobby.state(seat)
        if state.hero_offers:  # the Secrets offered: each one's card id, none a hero or power
            rows = encoder.encode_lobby(lobby, seat)[draft.slice].reshape(draft.shape)
            shown = [CARD_IDS[round(float(v) * len(CARD_IDS)) - 1] for v in rows[:, card] if v]
            assert shown == list(state.hero_offers) and set(shown) <= set(SECRET_IDS)
            assert not rows[:, 1:3].any()
            lobby.apply(seat, ChooseHero(0))
            held = (state.hero_offers[0],)
        elif any(isinstance(a, HeroPower) for a in lobby.legal_actions(seat)):
            lobby.apply(
                seat, next(a for a in lobby.legal_actions(seat) if isinstance(a, HeroPower))
            )
        else:
            lobby.apply(seat, EndTurn())
    flags = encoder.encode_lobby(lobby, seat)[LAYOUT["secrets"].slice]
    assert [SECRET_IDS[i] for i in np.flatnonzero(flags)] == list(held)
    assert np.array_equal(
        encoder.encode_lobby(lobby, seat), ObservationEncoder().encode(lobby.observe(seat))
    )


def _drafted(hero_id: str) -> tuple[Lobby, int]:
    """A lobby with heroes in which one seat drafted ``hero_id`` (the others
    their first offer)."""
    seed, seat = next(
        (s, p)
        for s in range(500)
        for p in range(N)
        if hero_id in Lobby(s, heroes=True).state(p).hero_offers
    )
    lobby = Lobby(seed, heroes=True)
    for p in range(N):
        offers = lobby.state(p).hero_offers
        lobby.apply(p, ChooseHero(offers.index(hero_id) if p == seat else 0))
    return lobby, seat


def _others_end_turn(lobby: Lobby, seat: int) -> None:
    for p in lobby.to_act():
        if p != seat:
            lobby.apply(p, EndTurn())


def test_silas_darkmoons_tickets_are_encoded_on_their_shop_slots():
    from bgsim import Buy

    lobby, seat = _drafted("TB_BaconShop_HERO_90")
    encoder = ObservationEncoder()
    tickets = LAYOUT["tickets"].slice
    seen_tickets = bought_tickets = 0
    while bought_tickets < 2 and lobby.turn < 12:
        _others_end_turn(lobby, seat)
        state = lobby.state(seat)
        flags = encoder.encode_lobby(lobby, seat)[tickets]
        assert np.array_equal(flags, ObservationEncoder().encode(lobby.observe(seat))[tickets])
        assert not flags[len(state.shop) :].any()  # no ticket on an empty slot
        seen_tickets += int(flags.sum())
        marked = [i for i in range(len(state.shop)) if flags[i]]
        if marked and state.gold >= 3 and Buy(marked[0]) in lobby.legal_actions(seat):
            count = state.hero.counter
            lobby.apply(seat, Buy(marked[0]))
            after = lobby.state(seat).hero.counter
            assert after == count + 1 or (count == 2 and after == 0)  # a ticket, or a Prize
            bought_tickets += 1
        else:
            lobby.apply(seat, EndTurn())
    assert seen_tickets and bought_tickets == 2


def test_maiev_shadowsongs_dormant_minions_are_encoded_until_they_awaken():
    from bgsim import HeroPower

    lobby, seat = _drafted("TB_BaconShop_HERO_62")
    encoder = ObservationEncoder()
    dormant, wait = LAYOUT["dormant"], LAYOUT["dormant_wait"]
    shop = LAYOUT["shop"]
    while not any(isinstance(a, HeroPower) for a in lobby.legal_actions(seat)):
        _others_end_turn(lobby, seat)
        lobby.apply(seat, EndTurn())
    _others_end_turn(lobby, seat)
    before = encoder.encode_lobby(lobby, seat)
    power = next(a for a in lobby.legal_actions(seat) if isinstance(a, HeroPower))
    target = power.shop
    assert target is not None
    row = before[shop.slice].reshape(shop.shape)[target].copy()
    imprisoned = lobby.state(seat).shop[target]
    lobby.apply(seat, power)
    vector = encoder.encode_lobby(lobby, seat)
    rows = vector[dormant.slice].reshape(dormant.shape)
    assert np.array_equal(rows[0], row) and not rows[1:].any()
    assert vector[wait.slice].tolist() == [0.5, 0.0, 0.0]  # two turns to go
    assert np.array_equal(vector, ObservationEncoder().encode(lobby.observe(seat)))
    turn = lobby.turn
    lobby.apply(seat, EndTurn())
    while lobby.turn == turn or seat not in lobby.to_act():
        _others_end_turn(lobby, seat)
    assert encoder.encode_lobby(lobby, seat)[wait.slice].tolist() == [0.25, 0.0, 0.0]
    lobby.apply(seat, EndTurn())
    while lobby.turn == turn + 1 or seat not in lobby.to_act():
        _others_end_turn(lobby, seat)
    vector = encoder.encode_lobby(lobby, seat)
    assert not vector[dormant.slice].any() and not vector[wait.slice].any()
    assert any(card.card == imprisoned.card for card in lobby.state(seat).hand)  # awake, in hand


def test_a_refused_reset_leaves_the_made_environment_usable():
    env = gymnasium.make(GYM_ID, opponents="random:7")
    with pytest.raises(ValueError, match="seed"):
        env.reset(seed=-1)
    env.reset(seed=1)
    obs, _, terminated, _, _ = env.step(703)
    assert obs.shape == (OBS_SIZE,) and not terminated


def test_lord_barovs_wager_is_encoded_by_player_rows():
    from bgsim import HeroPower

    lobby, seat = _drafted("TB_BaconShop_HERO_72")
    encoder = ObservationEncoder()
    bets = LAYOUT["bets"]
    while True:
        _others_end_turn(lobby, seat)
        targets = [
            a.player
            for a in lobby.legal_actions(seat)
            if isinstance(a, HeroPower) and a.player is not None
        ]
        if targets:
            break
        lobby.apply(seat, EndTurn())
    rows = encoder.encode_lobby(lobby, seat)[bets.slice].reshape(bets.shape)
    may = sorted((int(r) + seat) % N for r in np.flatnonzero(rows[:, 0]))
    assert may == sorted(targets) and not rows[:, 1].any()
    lobby.apply(seat, HeroPower(player=targets[-1]))
    vector = encoder.encode_lobby(lobby, seat)
    rows = vector[bets.slice].reshape(bets.shape)
    assert np.flatnonzero(rows[:, 1]).tolist() == [(targets[-1] - seat) % N]
    assert np.array_equal(vector, ObservationEncoder().encode(lobby.observe(seat)))
    lobby.apply(seat, EndTurn())
    while seat not in lobby.to_act() or lobby.state(seat).ended:
        _others_end_turn(lobby, seat)
    assert not encoder.encode_lobby(lobby, seat)[bets.slice].reshape(bets.shape)[:, 1].any()
