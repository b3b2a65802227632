"""Whole lobbies: determinism, clones, pool conservation, limits, completion,
observations and the event log."""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter

import pytest
from tavern_helpers import play_random_lobby

from bgsim._core.pool import starting_copies
from bgsim.actions import ACTIONS, Buy, EndTurn, IllegalActionError, Move, Play
from bgsim.cards import TRIBES
from bgsim.lobby import Lobby
from bgsim.observation import Observation, SeenBoard
from bgsim.ruleset import load_ruleset

RULES = load_ruleset()
WEIGHTS = {
    "EndTurn": 0.3,
    "Buy": 4,
    "Sell": 0.7,
    "Play": 4,
    "Move": 0.5,
    "Refresh": 1,
    "Freeze": 0.3,
    "Upgrade": 0.7,
    "Choose": 1,
}


def kind_policy(legal, rng):
    """Pick an action kind (weighted towards buying and playing), then an
    action of that kind: reaches triples, discovers and full warbands far
    more often than uniform play."""
    by_kind: dict[str, list] = {}
    for a in legal:
        by_kind.setdefault(type(a).__name__, []).append(a)
    kinds = list(by_kind)
    group = by_kind[rng.choices(kinds, [WEIGHTS[k] for k in kinds])[0]]
    return group[int(rng.random() * len(group))]


def run(lobby, rng, policy=kind_policy, max_turn=None, check=None):
    """Play until the game ends (or ``max_turn`` is over)."""
    while not lobby.done and (max_turn is None or lobby.turn <= max_turn):
        turn = lobby.turn
        for p in lobby.to_act():
            while lobby.turn == turn and not lobby.state(p).ended:
                lobby.apply(p, policy(lobby.legal_actions(p), rng))
                if check:
                    check(lobby, p)
    return lobby


def held(lobby) -> Counter:
    counts = lobby._pool.counts()
    for p in range(lobby.players):
        if lobby.alive(p):
            counts.update(lobby.state(p).pool_copies())
    return counts


def check_invariants(lobby, p):
    s = lobby.state(p)
    assert s.gold >= 0
    assert len(s.hand) <= RULES.limits.hand_size
    assert len(s.board) <= RULES.limits.board_size
    assert len(s.shop) <= RULES.tavern.max_shop_size


# ------------------------------------------------------------ conservation


def test_pool_conservation_and_limits_in_many_lobbies():
    stats = Counter()
    for seed in range(200):
        lobby = Lobby(seed)
        start = Counter(starting_copies(lobby.tribes, RULES))

        def check(lobby, p, start=start):
            check_invariants(lobby, p)
            assert held(lobby) == start
            s = lobby.state(p)
            stats["golden"] += any(getattr(m, "triple", False) for m in s.hand + s.board)
            stats["discover"] += bool(s.discover)
            stats["full board"] += len(s.board) == RULES.limits.board_size

        run(lobby, random.Random(seed), max_turn=4 + seed % 5, check=check)
    assert stats["golden"] > 50 and stats["discover"] > 5 and stats["full board"] > 50


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_full_lobbies_conserve_and_finish(seed):
    lobby = Lobby(seed)
    start = Counter(starting_copies(lobby.tribes, RULES))

    def check(lobby, p):
        check_invariants(lobby, p)
        assert held(lobby) == start

    run(lobby, random.Random(seed), check=check)
    assert sorted(lobby.placements.values()) == list(range(1, 9))
    assert lobby.to_act() == [] and lobby.legal_actions(0) == []


# ------------------------------------------------------------ completion


def test_every_lobby_finishes_with_placements_one_to_eight():
    for seed in range(30):
        lobby, _ = play_random_lobby(seed)
        assert lobby.done
        assert sorted(lobby.placements.values()) == list(range(1, 9))
        winner = min(lobby.placements, key=lobby.placements.get)
        assert lobby.alive(winner) and lobby.state(winner).health > 0
        assert sum(lobby.alive(p) for p in range(8)) == 1


def test_odd_player_counts_use_the_ghost():
    rules = dataclasses.replace(RULES, lobby=dataclasses.replace(RULES.lobby, players=5))
    ghost_fights = 0
    for seed in range(10):
        lobby = run(Lobby(seed, rules), random.Random(seed))
        assert sorted(lobby.placements.values()) == [1, 2, 3, 4, 5]
        log = lobby.log
        dead_at = {e["player"]: e["turn"] for e in log if e["type"] == "elimination"}
        for e in log:
            if e["type"] == "combat" and e["ghost"]:
                ghost_fights += 1
                assert e["players"][1] in dead_at and dead_at[e["players"][1]] < e["turn"]
            if e["type"] == "damage":
                assert e["player"] not in dead_at or dead_at[e["player"]] >= e["turn"]
    assert ghost_fights > 10


def test_turn_limit_ranks_the_living_by_health():
    rules = dataclasses.replace(RULES, lobby=dataclasses.replace(RULES.lobby, max_turns=3))
    lobby = run(Lobby(21, rules), random.Random(21))
    assert lobby.done and lobby.turn == 3
    assert sorted(lobby.placements.values()) == list(range(1, 9))
    ranked = sorted(range(8), key=lambda p: lobby.placements[p])
    healths = [lobby.state(p).health for p in ranked]
    assert healths == sorted(healths, reverse=True)


def test_ghost_takes_no_damage_and_a_win_against_it_counts():
    wins = 0
    for seed in range(40):
        lobby = Lobby(seed)
        rng = random.Random(seed)
        while not lobby.done and wins < 3:
            turn, before = lobby.turn, len(lobby._log)
            run(lobby, rng, max_turn=turn)
            new = lobby.log[before:]
            for e in new:
                if e["type"] == "combat" and e["ghost"]:
                    living, ghost = e["players"]
                    assert not any(d["type"] == "damage" and d["player"] == ghost for d in new)
                    if e["winner"] == 0 and not lobby.done:
                        assert lobby.state(living).won_last_combat
                        wins += 1
        if wins >= 3:
            break
    assert wins >= 3


def test_same_round_knockouts_ordered_by_health_then_seat():
    lobby = Lobby(5)
    boards = {p: lobby.state(p).warband() for p in range(8)}
    for p, health in ((1, -4), (2, 0), (6, -4)):
        lobby._states[p] = dataclasses.replace(lobby._states[p], health=health)
    lobby._eliminate(list(range(8)), boards)
    first, second = sorted((1, 6), key=lambda p: lobby._seat_rank[p])
    assert lobby.placements == {2: 6, first: 7, second: 8}
    assert lobby._ghost[0] == 2


# ------------------------------------------------------------ determinism and clones


def _play_scripted(seed, actions_seed):
    lobby = run(Lobby(seed), random.Random(actions_seed))
    return lobby.log, dict(lobby.placements)


def test_same_seed_and_actions_same_game():
    log_a, places_a = _play_scripted(7, 99)
    log_b, places_b = _play_scripted(7, 99)
    assert log_a == log_b and places_a == places_b
    log_c, _ = _play_scripted(8, 99)
    assert log_c != log_a


def test_lobby_setup_comes_from_the_seed():
    a, b = Lobby(3), Lobby(3)
    assert a.tribes == b.tribes and len(a.tribes) == 5 and set(a.tribes) <= set(TRIBES)
    assert [a.state(p).shop for p in range(8)] == [b.state(p).shop for p in range(8)]
    assert {Lobby(s).tribes for s in range(20)} != {a.tribes}


def _snapshot(lobby):
    return (
        [lobby.state(p) for p in range(lobby.players)],
        lobby._pool.counts(),
        len(lobby._log),
        lobby.turn,
        dict(lobby.placements),
        [r.getstate() for r in lobby._rngs],
        lobby._rng.getstate(),
    )


def test_clone_is_independent():
    lobby = run(Lobby(11), random.Random(1), max_turn=4)
    snap = _snapshot(lobby)
    clone = lobby.clone()
    run(clone, random.Random(2))
    assert clone.done and _snapshot(lobby) == snap
    # and a clone replays exactly like the original
    twin_a, twin_b = lobby.clone(), lobby.clone()
    run(twin_a, random.Random(3))
    run(twin_b, random.Random(3))
    assert twin_a.log == twin_b.log and twin_a.placements == twin_b.placements


def test_illegal_action_changes_nothing():
    lobby = run(Lobby(4), random.Random(4), max_turn=3)
    p = lobby.to_act()[0]
    snap = _snapshot(lobby)
    legal = set(lobby.legal_actions(p))
    for action in (Buy(6), Move(5, 6), Play(9, 0), "EndTurn"):
        assert action not in legal
        with pytest.raises(IllegalActionError):
            lobby.apply(p, action)
    with pytest.raises(IllegalActionError, match="no player"):
        lobby.apply(8, EndTurn())
    with pytest.raises(IllegalActionError, match="action code"):
        lobby.apply(p, 9999)
    assert _snapshot(lobby) == snap
    lobby.apply(p, 0)  # EndTurn by its code
    with pytest.raises(IllegalActionError, match="already ended"):
        lobby.apply(p, EndTurn())


def test_lobby_legal_actions_and_mask_agree():
    lobby = Lobby(6)
    rng = random.Random(6)
    for _ in range(300):
        if lobby.done:
            break
        p = lobby.to_act()[0]
        legal = lobby.legal_actions(p)
        mask = lobby.action_mask(p)
        assert mask.shape == (len(ACTIONS),) and mask.dtype == bool
        assert {int(c) for c in mask.nonzero()[0]} == {a.code for a in legal}
        lobby.apply(p, kind_policy(legal, rng))


# ------------------------------------------------------------ observations and log


def test_observation_shows_own_tavern_and_last_seen_boards():
    lobby = Lobby(2)
    obs = lobby.observe(3)
    assert isinstance(obs, Observation) and obs.state is lobby.state(3)
    assert obs.shop == lobby.state(3).shop and obs.gold == 3 and obs.tier == 1
    assert obs.seen == (None,) * 8 and obs.last_opponent is None and obs.tribes == lobby.tribes
    assert [i.health for i in obs.players] == [40] * 8
    run(lobby, random.Random(2), max_turn=3)
    obs = lobby.observe(3)
    opp = obs.last_opponent
    assert opp is not None
    seen = obs.seen[opp]
    assert isinstance(seen, SeenBoard) and seen.turn == 3
    fights = [e for e in lobby.log if e["type"] == "combat" and 3 in e["players"]]
    last = fights[-1]
    assert seen.spec == last["boards"][1 - last["players"].index(3)]
    assert all(s is None or s.turn <= 3 for s in obs.seen)
    assert obs.players[opp].health == lobby.state(opp).health
    assert obs.displayed() == [(a, h) for a, h in lobby.state(3).warband().displayed()]
    assert not hasattr(obs, "pool")


def test_log_is_plain_data():
    lobby, _ = play_random_lobby(12)
    log = lobby.log
    assert json.loads(json.dumps(log)) == log
    kinds = Counter(e["type"] for e in log)
    assert kinds["end"] == 1 and kinds["elimination"] == 7 and kinds["combat"] > 10
    actions = [e for e in log if e["type"] == "action"]
    assert all(repr(ACTIONS[e["action"]]) == e["text"] for e in actions)
    combat = next(e for e in log if e["type"] == "combat")
    assert {"events", "boards", "winner", "damage", "seed", "aftermath"} <= set(combat)
    assert combat["events"][0]["kind"] == "start"


def test_to_act_and_turn_loop():
    lobby = Lobby(9)
    assert lobby.to_act() == list(range(8)) and lobby.turn == 1
    for p in range(7):
        lobby.apply(p, EndTurn())
    assert lobby.to_act() == [7] and lobby.turn == 1
    lobby.apply(7, EndTurn())
    assert lobby.turn == 2 and lobby.to_act() == list(range(8))
    assert all(lobby.state(p).gold == 4 for p in range(8))
    pairing = next(e for e in lobby.log if e["type"] == "pairing")
    assert sorted(p for pair in pairing["pairs"] for p in pair) == list(range(8))


# ------------------------------------------------------------ copies and pickles


def _mid_game(seed: int) -> Lobby:
    """A lobby with heroes, past two combat rounds (its warbands seen have
    been fought with), every player taking the last legal action."""
    lobby = Lobby(seed, heroes=True)
    while lobby.turn < 3:
        p = lobby.to_act()[0]
        lobby.apply(p, lobby.legal_actions(p)[-1])
    return lobby


def _play_on(lobby: Lobby, steps: int) -> list:
    for _ in range(steps):
        if lobby.done:
            break
        p = lobby.to_act()[0]
        lobby.apply(p, lobby.legal_actions(p)[len(lobby.legal_actions(p)) // 2])
    return lobby.log


@pytest.mark.parametrize("how", ["copy", "deepcopy", "pickle", "clone"])
def test_a_copied_or_pickled_lobby_plays_on_alone_and_the_same(how):
    import copy
    import pickle

    make = {
        "copy": copy.copy,
        "deepcopy": copy.deepcopy,
        "pickle": lambda x: pickle.loads(pickle.dumps(x)),
        "clone": Lobby.clone,
    }[how]
    lobby = _mid_game(4)
    twin = make(lobby)
    before = lobby.log
    assert _play_on(twin, 300) == _play_on(lobby, 300)
    assert lobby.log != before  # each played its own game
    copied = make(_mid_game(4))
    assert copied.observe(3) == _mid_game(4).observe(3)


def test_observations_and_turn_models_pickle_and_copy():
    import copy
    import pickle

    lobby = _mid_game(6)
    obs = lobby.observe(2)
    assert pickle.loads(pickle.dumps(obs)) == obs == copy.deepcopy(obs)
    model = lobby.turn_model(2)
    for twin in (pickle.loads(pickle.dumps(model)), copy.deepcopy(model), copy.copy(model)):
        actions = twin.legal_actions()
        assert actions == model.legal_actions()
        twin.apply_action(actions[-1])
        assert twin.state != model.state  # independent of the original
    mine = lobby.turn_model(2)
    mine.apply_action(model.legal_actions()[-1])
    other = lobby.turn_model(2)
    other.apply_action(model.legal_actions()[-1])
    assert mine.state == other.state


def test_turn_model_edges():
    import random

    from bgsim.actions import encode

    model = Lobby(3, heroes=False).turn_model(0)
    trusted = model.clone()
    trusted.apply_action(encode(Buy(0)), check=False)  # a code, unchecked: still a Buy
    model.apply_action(Buy(0))
    assert trusted.state == model.state and len(model.state.hand) == 1
    with pytest.raises(ValueError, match="damage must be 0 or more, got -100"):
        model.next_turn(damage=-100)
    with pytest.raises(TypeError, match=r"rng must be a random\.Random, not str"):
        model.clone(rng="x")
    assert model.clone(rng=random.Random(1)).state == model.state
    before = model.state
    with pytest.raises(IllegalActionError, match="the turn is not over"):
        model.next_turn()
    with pytest.raises(IllegalActionError, match=r"outside the action space 0\.\.729"):
        model.apply_action(9999, check=False)
    with pytest.raises(ValueError, match="a warband holds at most 7 minions, got 8"):
        model.warband([model.state.hand[0]] * 8)
    with pytest.raises(ValueError, match="turns_ahead must be 0 or more, got -1"):
        model.guess_warband(1, random.Random(0), turns_ahead=-1)
    assert model.state is before


def test_every_value_a_long_game_holds_pickles():
    # Hero states, spells in hand, queued Discovers, Prizes...: pickling each
    # player's state and observation turn by turn over whole games.
    import pickle

    for seed in (1, 2, 3):
        lobby = Lobby(seed, heroes=True)
        rng = random.Random(seed)
        while not lobby.done:
            p = lobby.to_act()[0]
            state = lobby.state(p)
            assert pickle.loads(pickle.dumps(state)) == state
            lobby.apply(p, rng.choice(lobby.legal_actions(p)))
        assert pickle.loads(pickle.dumps(lobby)).log == lobby.log


def test_a_turn_model_guessing_with_the_guesser_pickles():
    import copy
    import pickle

    from agents.belief import Guesser
    from bgsim import TurnModel

    model = TurnModel.from_observation(_mid_game(2).observe(1), guess=Guesser)
    for twin in (pickle.loads(pickle.dumps(model)), copy.deepcopy(model)):
        a, b = twin.clone(rng=random.Random(5)), model.clone(rng=random.Random(5))
        assert [a.guess_warband(p, random.Random(p)) for p in range(2, 8)] == [
            b.guess_warband(p, random.Random(p)) for p in range(2, 8)
        ]


def test_nobody_sees_another_players_hero_pick_until_the_draft_is_over():
    from bgsim.actions import ChooseHero

    lobby = Lobby(7, heroes=True)
    picked = []
    while lobby.turn == 0:
        p = lobby.to_act()[0]
        for other in lobby.observe(p).players:
            assert other.hero is None and other.health == lobby.rules.lobby.hero_health
        lobby.apply(p, ChooseHero(0))
        picked.append(p)
    assert sorted(picked) == list(range(8))
    seen = lobby.observe(5).players
    assert all(info.hero == lobby.state(info.player).hero.hero for info in seen)
