"""A masked-random learner through the Gymnasium environment: 100 games
against seven heuristic agents, and its mean placement. Nothing is trained:
this is the loop a MaskablePPO rollout runs, with a uniform choice among the
legal actions where the policy would be.

Run from the repository root (needs the rl extra: pip install -e ".[rl]"):
    python examples/rl_masked_random.py [--games 100] [--seed 0]
"""

import argparse
from statistics import mean

import gymnasium
import numpy as np

import bgsim.envs  # noqa: F401  (registers bgsim/Battlegrounds-v0)


def play(games: int, seed: int) -> list[int]:
    """The learner's placement in each of ``games`` games (lobby seeds seed, seed+1, ...)."""
    env = gymnasium.make("bgsim/Battlegrounds-v0", opponents="heuristic:7")
    rng = np.random.default_rng(seed)
    places = []
    for game in range(games):
        _obs, info = env.reset(seed=seed + game)
        done = False
        while not done:
            legal = np.flatnonzero(env.unwrapped.action_masks())  # what MaskablePPO reads
            action = rng.choice(legal)  # a numpy integer: the environment takes it as is
            _obs, _reward, terminated, truncated, info = env.step(action)
            done = terminated or truncated
        places.append(info["placement"])
    return places


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    places = play(args.games, args.seed)
    print(
        f"masked-random learner against heuristic:7, {len(places)} games: "
        f"mean placement {mean(places):.2f} (1 best, 8 worst), "
        f"top-4 {sum(p <= 4 for p in places) / len(places):.0%}"
    )


if __name__ == "__main__":
    main()
