"""Simulate eight-player lobbies from Python and compare the agents.

Run from the repository root:  python examples/simulate_lobbies.py
"""

from collections import defaultdict
from statistics import mean

import bgsim
from bgsim.registry import make_agent, parse_lineup

LINEUP = parse_lineup("mcts:1,heuristic:3,greedy:2,random:2")  # one spec per seat
BUDGET = bgsim.Budget(iterations=200)  # MCTS search per turn; Budget(seconds=0.1) also works


def play(seed: int) -> dict[int, int]:
    """Play one lobby to the end and return {seat: placement}."""
    lobby = bgsim.Lobby(seed)
    agents = [make_agent(spec, budget=BUDGET) for spec in LINEUP]
    for seat, agent in enumerate(agents):
        agent.reset(seat, seed * 8 + seat)
    while not lobby.done:
        player = lobby.to_act()[0]  # players still recruiting this turn
        observation = lobby.observe(player)  # own tavern + public facts only
        action = agents[player].act(observation, lobby.legal_actions(player))
        lobby.apply(player, action)  # the last EndTurn of a turn runs the fights
    print(f"lobby {seed}: {lobby.turn} turns, tribes {', '.join(lobby.tribes)}")
    return lobby.placements


places = defaultdict(list)
for seed in range(4):
    for seat, place in play(seed).items():
        places[LINEUP[seat].label].append(place)

print("\nagent      mean placement")
for label, got in sorted(places.items(), key=lambda item: mean(item[1])):
    print(f"{label:10s} {mean(got):.2f}  {sorted(got)}")
