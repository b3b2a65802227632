"""A PettingZoo policy as a bgsim agent, so that it can play in tournaments.

A PettingZoo policy here is a function from the observation vector and the
action mask of ``bgsim.envs.battlegrounds_v0`` to an action code (below, an
untrained linear policy). A few lines make it a bgsim agent: an object with
``reset(seat, seed)`` and ``act(observation, legal_actions)`` (the
encoder turns bgsim's observation into the environment's vector,
``legal_mask`` the legal actions into its mask). ``bgsim tournament --agent
linear=rl_policy_agent:PolicyAgent`` then plays it like any bundled agent;
this script runs such a tournament through the command's own entry point.

Run from the repository root (needs the rl extra: pip install -e ".[rl]"):
    python examples/rl_policy_agent.py [--games 4]
"""

import argparse
import sys
import tempfile
from pathlib import Path

import numpy as np

from bgsim.actions import ACTIONS, NUM_ACTIONS
from bgsim.cli import main as bgsim_main
from bgsim.envs import OBS_SIZE, ObservationEncoder, legal_mask

WEIGHTS = np.random.default_rng(0).normal(size=(OBS_SIZE, NUM_ACTIONS)).astype(np.float32)


def policy(observation: np.ndarray, action_mask: np.ndarray) -> int:
    """What a trained network would be: scores for every code, the best legal one."""
    scores = observation @ WEIGHTS
    return int(np.argmax(np.where(action_mask == 1, scores, -np.inf)))


class PolicyAgent:  # the wrapper: a bgsim agent around policy()
    name = "linear-policy"

    def reset(self, seat: int, seed: int) -> None:
        self.encoder = ObservationEncoder()  # the policy itself draws no random numbers

    def act(self, observation, legal_actions):
        return ACTIONS[policy(self.encoder.encode(observation), legal_mask(legal_actions))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        return bgsim_main(
            [
                "tournament",
                "--agent",
                "linear=rl_policy_agent:PolicyAgent",  # this file, importable by name
                "--lineup",
                "linear:1,heuristic:7",
                "--games",
                str(args.games),
                "--db",
                str(Path(tmp) / "results.db"),
            ]
        )


if __name__ == "__main__":
    sys.exit(main())
