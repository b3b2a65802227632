"""Agents: protocol, determinism, legality, belief and the arena."""

import gc
import random
import re

import pytest
from tavern_helpers import drive_lobby

from agents.arena import Budget, GameTask, Tournament, play_game, run_tournament
from agents.belief import guess_board, guess_boards
from agents.greedy import GreedyAgent
from agents.heuristic import HeuristicAgent
from agents.ismcts import Edge, difference
from agents.mcts import MCTSAgent, budget_part
from agents.random_agent import RandomAgent
from agents.results_db import ResultsDB
from bgsim._core.pool import starting_copies
from bgsim.actions import EndTurn
from bgsim.lobby import Lobby
from bgsim.registry import make_agent, parse_lineup, parse_spec
from bgsim.ruleset import load_ruleset
from bgsim.seeds import derive_seed

RULES = load_ruleset()


def play_turns(lobby, agents, turns):
    """Let the agents play until ``turns`` turns have passed; check legality."""
    while not lobby.done and lobby.turn < turns:
        turn = lobby.turn
        for p in lobby.to_act():
            while not lobby.done and lobby.turn == turn and p in lobby.to_act():
                legal = lobby.legal_actions(p)
                action = agents[p].act(lobby.observe(p), legal)
                assert action in legal, (agents[p].name, action)
                lobby.apply(p, action)


def lobby_after(seed, agent_type, turns):
    """A lobby after ``turns`` turns played by eight ``agent_type`` agents."""
    lobby = Lobby(seed)
    agents = [agent_type() for _ in range(8)]
    for p, a in enumerate(agents):
        a.reset(p, p)
    play_turns(lobby, agents, turns)
    return lobby


def test_registry_builds_agents_with_options():
    agent = make_agent(parse_spec("mcts[c=0.5,runs=4]"), budget=Budget(iterations=50))
    assert isinstance(agent, MCTSAgent) and agent.c == 0.5 and agent.runs == 4
    assert agent.budget == Budget(iterations=50) and agent.name == "mcts[c=0.5,runs=4]"
    with pytest.raises(ValueError, match="no option 'bogus'"):
        make_agent(parse_spec("greedy[bogus=1]"))


@pytest.mark.parametrize("name", ["random", "greedy", "mcts[iterations=30]"])
def test_agents_are_deterministic_for_a_seed(name):
    runs = []
    for _ in range(2):
        lobby = Lobby(11)
        agents = [make_agent(parse_spec(name)) for _ in range(8)]
        for p, a in enumerate(agents):
            a.reset(p, 100 + p)
        play_turns(lobby, agents, 4)
        runs.append([e for e in lobby.log if e["type"] == "action"])
    assert runs[0] == runs[1]


@pytest.mark.parametrize("name", ["random", "greedy", "heuristic", "mcts[iterations=30]"])
def test_bundled_agents_refuse_an_empty_list_of_legal_actions(name):
    agent = make_agent(parse_spec(name))
    agent.reset(0, 1)
    with pytest.raises(ValueError, match="legal_actions is empty"):
        agent.act(Lobby(3).observe(0), [])


def test_mcts_refuses_what_is_not_an_observation():
    agent = make_agent(parse_spec("mcts[iterations=30]"))
    agent.reset(0, 1)
    legal = Lobby(3).legal_actions(0)
    for bad in (None, {"state": None}):
        message = f"must be a bgsim Observation (Lobby.observe), not {type(bad).__name__}"
        with pytest.raises(TypeError, match=re.escape(message)):
            agent.act(bad, legal)


@pytest.mark.parametrize("name", ["heuristic", "greedy", "mcts[iterations=30]"])
def test_bundled_agents_pickle_after_playing_and_play_on_the_same(name):
    import pickle

    lobby = Lobby(4, heroes=True)
    agents = [make_agent(parse_spec(name)) for _ in range(8)]
    for p, a in enumerate(agents):
        a.reset(p, 100 + p)
    play_turns(lobby, agents, 3)
    twin_lobby = lobby.clone()
    twin_agents = pickle.loads(pickle.dumps(agents))
    play_turns(lobby, agents, 5)
    play_turns(twin_lobby, twin_agents, 5)
    assert twin_lobby.log == lobby.log and lobby.turn == 5


def test_greedy_beats_random():
    lineup = tuple(parse_lineup("greedy:1,random:7"))
    places = []
    for g in range(6):
        rec = play_game(GameTask("t", g, derive_seed("greedy-test", g), lineup, None, None, RULES))
        places.append(rec.placements[0])
    assert sum(places) / len(places) <= 2.0


def test_mcts_respects_iteration_budget_and_keys_transpose():
    lobby = lobby_after(3, RandomAgent, 3)
    agent = MCTSAgent(budget=Budget(iterations=90), level="search")  # searches every decision
    agent.reset(0, 1)
    obs = lobby.observe(0)
    action = agent.act(obs, lobby.legal_actions(0))
    assert action in lobby.legal_actions(0)
    # the first decision takes 2 / (n + 1) of the turn, n decisions being left
    fresh = MCTSAgent(budget=Budget(iterations=90), level="search")
    fresh.reset(0, 1)
    fresh._new_turn(obs)
    left = fresh._ctx.decisions_left(fresh._ctx.at(obs.state))
    assert left >= 2
    assert agent.iterations_done == int(90 * 2 / (left + 1))
    same = lobby.turn_model(0).info_key()
    assert same == lobby.clone().turn_model(0).info_key()


def test_mcts_analyse_runs_exactly_the_iterations_asked():
    lobby = lobby_after(3, RandomAgent, 3)
    agent = MCTSAgent(budget=Budget(iterations=5))
    agent.reset(0, 2)
    obs = lobby.observe(0)
    stats = agent.analyse(obs, 40)
    assert sum(visits for visits, _ in stats.values()) == 40
    assert set(stats) <= set(lobby.legal_actions(0))
    assert all(0.0 <= mean <= 1.0 for _, mean in stats.values())
    again = MCTSAgent(budget=Budget(iterations=5))
    again.reset(0, 2)
    assert again.analyse(obs, 40) == stats  # deterministic for a seed
    with pytest.raises(ValueError, match="iterations"):
        agent.analyse(obs, 0)


def test_mcts_search_makes_no_reference_cycles():
    # The search turns the collector off, which is only sound if everything
    # it drops is freed by reference counting (compiled closures once made a
    # cycle per rollout step).
    from agents.bench import mcts_positions

    for obs in mcts_positions(0, turns=(6, 12)):
        agent = MCTSAgent(budget=Budget(iterations=5))
        agent.reset(0, 1)
        gc.collect()
        gc.disable()
        try:
            agent.analyse(obs, 60)
            del agent
            assert gc.collect() == 0
        finally:
            gc.enable()


def test_mcts_search_hands_its_tree_to_the_oldest_generation_unscanned():
    # After a search the young generations are not walked (the tree goes to
    # the oldest generation), and a program's own frozen objects stay frozen.
    obs = Lobby(seed=3).observe(0)
    collections: list[int] = []

    def seen(phase: str, info: dict) -> None:
        if phase == "start":
            collections.append(info["generation"])

    assert gc.isenabled() and gc.get_freeze_count() == 0
    agent = MCTSAgent(budget=Budget(iterations=5))
    agent.reset(0, 1)
    gc.collect()
    gc.callbacks.append(seen)
    try:
        agent.analyse(obs, 300)  # a tree big enough to start a collection
    finally:
        gc.callbacks.remove(seen)
    assert collections == []
    assert gc.isenabled() and gc.get_freeze_count() == 0
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        agent.analyse(obs, 60)
        assert gc.get_freeze_count() == frozen
    finally:
        gc.unfreeze()


def test_value_samples_come_from_lobbies_of_the_asked_kind(monkeypatch):
    import bgsim.lobby
    from agents.value import collect_samples

    kinds = []

    class Recording(Lobby):
        def __init__(self, seed, ruleset=None, heroes=False):
            kinds.append(heroes)
            super().__init__(seed, ruleset, heroes)

    monkeypatch.setattr(bgsim.lobby, "Lobby", Recording)
    x_on = collect_samples(1, seed=2)[0]
    x_off = collect_samples(1, seed=2, heroes=False)[0]
    assert kinds == [True, False]
    assert x_on.shape[1] == x_off.shape[1] and x_on.tolist() != x_off.tolist()


def test_guesses_grow_warbands_by_the_table_of_their_lobbys_kind():
    from agents.belief import Guesser, development

    with_heroes, without = development(heroes=True), development(heroes=False)
    assert "with heroes" in with_heroes.fitted_on and "with heroes" not in without.fitted_on
    # Hero powers grow warbands faster: mid-game minions are bigger in the table.
    assert with_heroes.at(with_heroes.attack, 12) > without.at(without.attack, 12)
    lobby = Lobby(seed=4, heroes=True)
    while lobby.turn == 0:
        p = lobby.to_act()[0]
        lobby.apply(p, lobby.legal_actions(p)[0])
    assert Guesser(lobby.observe(0)).dev == with_heroes
    assert Guesser(Lobby(seed=4).observe(0)).dev == without


def test_mcts_budget_split_follows_the_decisions_left():
    assert budget_part(3) == 0.5  # 2 / (3 + 1)
    assert budget_part(1) == 1.0  # the last one takes the rest
    assert budget_part(9) == 0.2
    lobby = lobby_after(3, RandomAgent, 3)
    agent = MCTSAgent(budget=Budget(iterations=100))
    agent.reset(0, 1)
    obs = lobby.observe(0)
    agent._new_turn(obs)
    start = agent._ctx.at(obs.state)
    before = start.clone()
    left = agent._ctx.decisions_left(start)
    assert left >= 1
    # counted on a copy: the model plays on as before
    for action in start.legal_actions():
        a, b = start.clone(random.Random(1)), before.clone(random.Random(1))
        a.apply_action(action)
        b.apply_action(action)
        assert a.state == b.state
    first = max(1, int(100 * budget_part(left)))
    assert agent._share(start) == (first, None)
    if first < 100:
        assert agent._share(start)[0] == max(1, int((100 - first) * budget_part(left)))
    while agent._share(start)[0]:
        pass
    assert agent._share(start) == (0, None)  # the budget is spent


def test_mcts_never_spends_more_than_its_budget_in_a_turn():
    """Over whole turns (every decision, the arrangement included) the agent
    stays within its iterations, and within its seconds on a clock that moves
    a millisecond each time it is read (the search reads it once per
    iteration, the arrangement once per order it tries)."""

    class Clock:
        now = 0.0

        def __call__(self) -> float:
            self.now += 0.001
            return self.now

    clock = Clock()
    lobby = lobby_after(8, HeuristicAgent, 6)
    by_iterations = MCTSAgent(budget=Budget(iterations=60))
    by_seconds = MCTSAgent(budget=Budget(seconds=0.05))
    by_seconds.clock = clock
    for agent in (by_iterations, by_seconds):
        game = lobby.clone()
        agent.reset(0, 5)
        for _ in range(3):  # turns
            turn, start, done = game.turn, clock.now, agent.iterations_done
            decisions = 0
            while not game.done and game.turn == turn and 0 in game.to_act():
                game.apply(0, agent.act(game.observe(0), game.legal_actions(0)))
                decisions += 1
            assert decisions >= 3
            if agent is by_iterations:
                assert 0 < agent.iterations_done - done <= 60
            else:
                assert 0 < agent.iterations_done - done <= 50
                # a read at each decision and each arrangement may pass the deadline
                assert 0 < clock.now - start <= 0.05 + 0.001 * (decisions + 2)
            for p in game.to_act():  # the others end their turns
                while not game.done and game.turn == turn and p in game.to_act():
                    game.apply(p, EndTurn())


def test_mcts_leaves_the_heuristics_end_of_turn_unsearched():
    lobby = lobby_after(8, HeuristicAgent, 6)
    heuristic = HeuristicAgent()
    # play the heuristic's turn up to the point where it would end it
    while not isinstance(heuristic.act(lobby.observe(0), lobby.legal_actions(0)), EndTurn):
        lobby.apply(0, heuristic.act(lobby.observe(0), lobby.legal_actions(0)))
    obs, legal = lobby.observe(0), lobby.legal_actions(0)
    assert len(legal) > 1
    skipping = MCTSAgent(budget=Budget(iterations=60), arrange=False)
    searching = MCTSAgent(budget=Budget(iterations=60), arrange=False, search_end=True)
    for agent in (skipping, searching):
        agent.reset(0, 4)
    assert skipping.act(obs, legal) == EndTurn() and skipping.iterations_done == 0
    searching.act(obs, legal)
    assert searching.iterations_done == 60  # the last decision searched takes all


def test_mcts_siblings_share_determinizations():
    lobby = lobby_after(5, HeuristicAgent, 5)
    agent = MCTSAgent(budget=Budget(iterations=240))
    agent.reset(0, 3)
    obs = lobby.observe(0)
    agent._new_turn(obs)
    start = agent._ctx.at(obs.state)
    root = agent._search.node(start)
    agent._run(start, root)
    tried = [e for e in root.edges.values() if e.visits >= 2]
    assert len(tried) >= 2
    for e in tried:
        # the k-th try of every root action saw the turn's k-th determinization
        assert sorted(e.samples) == list(range(e.visits))
    # the same index gives the same shop stream, enemies and fight seeds,
    # however the search got there
    assert agent._ctx.determinization(1).random() == agent._ctx.determinization(1).random()
    plan = agent._ctx.fight_plan(1)
    fresh = MCTSAgent(budget=Budget(iterations=240))
    fresh.reset(0, 3)
    fresh._new_turn(obs)
    assert fresh._ctx.fight_plan(1) == plan
    assert fresh._ctx.fight_plan(2) != plan


def test_search_refuses_a_finished_turn_bad_priors_bad_rewards_and_bad_constants():
    from agents.ismcts import Search
    from bgsim import Sell, TurnModel

    start = TurnModel.from_observation(Lobby(5).observe(0), rng=random.Random(0))

    def finish(model):
        while not model.is_turn_over():
            model.apply_action(model.legal_actions()[0])

    def search(expand=lambda m: m.legal_actions(), evaluate=lambda m, k: 0.5, c=0.35):
        return Search(expand, finish, evaluate, lambda k: random.Random(k), c)

    over = start.clone()
    over.apply_action(EndTurn())
    with pytest.raises(ValueError, match="the turn is over"):
        search().run(over, search().node(start), 5)
    with pytest.raises(ValueError, match="the turn is over"):
        search().node(over)
    with pytest.raises(ValueError, match="expand returned no actions"):
        search(expand=lambda m: []).node(start)
    with pytest.raises(ValueError, match=r"expand returned Sell\(5\), which is not legal here"):
        search(expand=lambda m: [Sell(5)]).node(start)
    for reward in (float("nan"), 5.0, -0.1):
        s = search(evaluate=lambda m, k, r=reward: r)
        with pytest.raises(ValueError, match="rewards must lie in"):
            s.run(start, s.node(start), 5)
    for c in (float("nan"), -1.0, float("inf")):
        with pytest.raises(ValueError, match="c must be a finite number 0 or more"):
            search(c=c)
    s = search()
    root = s.node(start)
    assert s.run(start, root, 20) == 20
    with pytest.raises(ValueError, match="confidence must be 0 or more"):
        s.choose(root, float("nan"))


def test_paired_difference_sees_through_shared_noise():
    rng = random.Random(0)
    base, better = Edge(), Edge()
    for k in range(40):
        luck = rng.random()  # the determinization's luck, common to both lines
        for edge, value in ((base, luck * 0.8), (better, luck * 0.8 + 0.05)):
            edge.visits += 1
            edge.total += value
            edge.squares += value * value
            edge.samples[k] = value
    gap, se = difference(base, better)
    assert abs(gap - 0.05) < 1e-9 and gap > 2 * se
    # without common determinizations the same means are within the noise
    for e in (base, better):
        e.samples = {}
    gap, se = difference(base, better)
    assert gap < 2 * se


def test_mcts_arranges_its_warband_before_ending_the_turn():
    lobby = lobby_after(4, HeuristicAgent, 6)
    agent = MCTSAgent(budget=Budget(iterations=60), arrange=True)
    agent.reset(0, 2)
    turn, ended = lobby.turn, False
    while lobby.turn == turn:
        action = agent.act(lobby.observe(0), lobby.legal_actions(0))
        if isinstance(action, EndTurn):
            ended = True
            # the warband stands in the order the arrangement search chose
            assert lobby.state(0).board == agent._order
        lobby.apply(0, action)
        if isinstance(action, EndTurn):
            break
    assert ended and len(agent._order) >= 2


def test_cheat_mode_reads_true_boards_only_through_the_arena():
    agent = make_agent(parse_spec("mcts[cheat,iterations=20]"))
    assert agent.cheat and agent.true_boards is None
    lineup = tuple(parse_lineup("mcts[cheat,iterations=20]:1,random:7"))
    rec = play_game(GameTask("t", 0, 5, lineup, None, None, RULES))
    assert sorted(rec.placements) == list(range(1, 9))


def test_only_a_lineup_that_asks_to_cheat_is_shown_true_boards_and_never_the_lobby():
    from bgsim.registry import AgentSpec, show_true_boards

    class Sneaky:  # claims to cheat without the lineup saying so
        cheat = True
        true_boards = None

    lobby = Lobby(3)
    sneaky = Sneaky()
    show_true_boards(AgentSpec("sneaky"), sneaky, lobby, 0)
    assert sneaky.true_boards is None  # results would not have said [cheat]
    honest = Sneaky()
    show_true_boards(AgentSpec("sneaky", (("cheat", True),)), honest, lobby, 0)
    assert honest.true_boards() == lobby.true_warbands(0)
    # the function holds the boards only: nothing reachable from it is the lobby
    fn = honest.true_boards
    held = [c.cell_contents for c in fn.__closure__ or ()]
    assert not hasattr(fn, "__self__") and not any(isinstance(h, Lobby) for h in held)


def test_cheat_boards_say_which_turn_they_reflect(monkeypatch):
    reads = []
    real = Lobby.true_warbands

    def spy(lobby, me):
        boards = real(lobby, me)
        acting = set(lobby.to_act())
        for p, (_board, as_of) in boards.items():
            reads.append(as_of == (lobby.turn - 1 if p in acting else lobby.turn))
        return boards

    monkeypatch.setattr(Lobby, "true_warbands", spy)
    lineup = tuple(parse_lineup("random:3,mcts[cheat,iterations=8]:1,random:4"))
    play_game(GameTask("t", 0, 6, lineup, None, None, RULES))
    assert reads and all(reads)


def test_belief_uses_public_information_only():
    lobby = Lobby(9)
    agents = [GreedyAgent(runs=4, guesses=1) for _ in range(8)]
    for p, a in enumerate(agents):
        a.reset(p, p)
    play_turns(lobby, agents, 6)
    obs = lobby.observe(2)
    gone = obs.known_gone()
    own = obs.state.pool_copies()
    assert all(gone[c] >= own.count(c) for c in own)
    pool = obs.pool_estimate()
    start = starting_copies(obs.tribes, RULES)
    assert all(pool[c] <= start[c] for c in pool)
    rng = random.Random(1)
    boards = guess_boards(obs, rng)
    assert set(boards) == {p.player for p in obs.players if p.alive and p.player != 2}
    for q, board in boards.items():
        assert board.tier == obs.players[q].tier and len(board.minions) <= 7
        for m in board.minions:
            assert (
                start.get(m.card, 0) > 0
                or not __import__("bgsim._core.minions").minions.INFO[m.card].in_pool
            )
    # A guess for a seen opponent keeps the seen minions' cards when nothing swapped.
    seen_q = next(q for q, s in enumerate(obs.seen) if s is not None and q in boards)
    guesses = [guess_board(obs, seen_q, random.Random(k)) for k in range(20)]
    seen_cards = {m.card for m in obs.seen[seen_q].board.minions}
    assert any(seen_cards <= {m.card for m in g.minions} for g in guesses)


def test_tournament_resumes_and_summarises(tmp_path):
    db_path = tmp_path / "r.db"
    tour = Tournament("random:8", 4, RULES, seed=3)
    with ResultsDB(db_path) as db:
        summary = run_tournament(tour, db, workers=1, progress=False)
        assert summary["random"]["games"] == 32
    played = []
    with ResultsDB(db_path) as db:
        tour = Tournament("random:8", 6, RULES, seed=3)
        run_tournament(tour, db, workers=2, progress=False, on_game=played.append)
        assert len(played) == 2 and db.finished(tour.run) == set(range(6))
        assert len({g.seed for g in db.games([tour.run])}) == 6


def test_a_ruleset_edited_under_the_same_id_is_a_run_of_its_own(tmp_path):
    from bgsim.ruleset import Ruleset

    table = RULES.to_table()
    table["economy"]["buy_cost"] = 0
    free = Ruleset.from_table(table)
    assert free.id == RULES.id
    same = Tournament("random:8", 2, Ruleset.from_table(RULES.to_table()), seed=3)
    assert Tournament("random:8", 2, RULES, seed=3).run == same.run
    assert Tournament("random:8", 2, free, seed=3).run != same.run
    with ResultsDB(tmp_path / "r.db") as db:
        run_tournament(Tournament("random:8", 1, RULES, seed=3), db, workers=1, progress=False)
        edited = Tournament("random:8", 1, free, seed=3)
        assert db.finished(edited.run) == set() and edited.changed_code(db) == []


def test_same_seed_gives_same_lobby_seeds_across_lineups():
    a = Tournament("random:8", 3, RULES, seed=7)
    b = Tournament("greedy:1,random:7", 3, RULES, seed=7)
    assert [t.seed for t in a.tasks(set())] == [t.seed for t in b.tasks(set())]
    assert a.run != b.run


def test_static_policy_gives_the_same_action_with_or_without_the_legal_list():
    from agents.rollout import rollout_action

    def choose(player, state, legal, turn):
        action = rollout_action(state, RULES, legal)
        assert action in legal and rollout_action(state, RULES) == action
        return action

    assert drive_lobby(Lobby(derive_seed("static-policy", 1)), choose, 14) > 300


def test_bench_mcts_command_reports_every_position(capsys):
    import json

    from bgsim.cli import main

    assert main(["bench", "mcts", "--iterations", "5", "--repeat", "2", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert list(result["iterations_per_second"]) == ["turn 3", "turn 6", "turn 9", "turn 12"]
    assert result["repeat"] == 2 and result["total_iterations_per_second"] > 0
    assert main(["bench", "mcts", "--repeat", "0"]) == 2
    assert "--repeat: must be an integer 1..100" in capsys.readouterr().err
