"""Guess the hidden enemy warbands from public information only.

An agent sees other warbands only as they were when it last fought them. A
guess starts from that board and develops it for every turn since it was
seen; an opponent never seen gets a plausible board for its turn and tier.
Everything used is public: the last seen board and how many turns ago, the
opponent's tavern tier and health, the lobby's minion types, and the copies
the observer knows are gone (its own cards and the cards seen in combat).

How warbands develop (size and mean minion stats per turn) is fitted to real
games of the agents (``bgsim belief --fit`` writes ``data/belief.json``);
``bgsim belief`` measures how far the guesses' combat odds are from the true
boards' odds.
"""

from __future__ import annotations

import json
import random
from bisect import bisect
from dataclasses import dataclass
from functools import cache
from itertools import accumulate
from pathlib import Path

from bgsim.minions import INFO
from bgsim.observation import Observation
from bgsim.pool import Pool, starting_copies
from bgsim.resources import data_path
from bgsim.ruleset import Ruleset, load_ruleset
from combat_c import Board, Minion


@dataclass(frozen=True)
class Development:
    """Mean warband size and mean minion attack/health by turn (1, 2, ...)."""

    size: tuple[float, ...]
    attack: tuple[float, ...]
    health: tuple[float, ...]
    fitted_on: str = ""
    replace_chance: float = 0.3  # a full board swaps its weakest minion per turn
    top_tier_weight: float = 3.0  # new minions lean to the opponent's highest tiers
    spread: float = 0.35  # relative spread of guessed stats around the mean

    def at(self, table: tuple[float, ...], turn: int) -> float:
        if turn < 1:
            return 0.0
        return table[min(turn, len(table)) - 1]

    @classmethod
    def load(cls, path: str | Path | None = None) -> Development:
        doc = json.loads(Path(path or data_path("belief.json")).read_text(encoding="utf-8"))
        return cls(tuple(doc["size"]), tuple(doc["attack"]), tuple(doc["health"]), doc["fitted_on"])

    def to_json(self) -> str:
        rows = [f' "fitted_on": {json.dumps(self.fitted_on)}']
        for key in ("size", "attack", "health"):
            rows.append(f' "{key}": {json.dumps([round(x, 3) for x in getattr(self, key)])}')
        return "{\n" + ",\n".join(rows) + "\n}\n"


@cache
def development() -> Development:
    return Development.load()


def known_gone(obs: Observation) -> dict[str, int]:
    """Copies the observer knows are out of the pool: its own, and those on
    the boards it has seen (a golden minion holds three)."""
    gone: dict[str, int] = {}
    for card in obs.state.pool_copies():
        gone[card] = gone.get(card, 0) + 1
    for seen in obs.seen:
        if seen is None:
            continue
        for m in seen.board.minions:
            if INFO[m.card].in_pool:
                gone[m.card] = gone.get(m.card, 0) + (3 if m.golden else 1)
    return gone


def estimate_pool(obs: Observation, rules: Ruleset | None = None) -> Pool:
    """The pool as far as the observer can tell: the lobby's starting copies
    minus the copies it knows are gone."""
    rules = rules or load_ruleset()
    copies = starting_copies(obs.tribes, rules)
    for card, n in known_gone(obs).items():
        if card in copies:
            copies[card] = max(0, copies[card] - n)
    return Pool(copies, rules.tavern.max_tier)


def _size(m: Minion) -> int:
    return m.attack + m.health


@cache
def _fresh(card: str) -> Minion:
    return Minion.of(card)


class Guesser:
    """Guesses warbands for one observation; reuse it for many guesses (the
    pool estimate and the candidate minions per tier are worked out once)."""

    def __init__(
        self, obs: Observation, rules: Ruleset | None = None, dev: Development | None = None
    ) -> None:
        self.obs = obs
        self.dev = dev or development()
        self.counts = dict(estimate_pool(obs, rules).counts())
        self._by_tier: dict[int, tuple[list[str], list[float]]] = {}
        self._means: dict[tuple[int, int], tuple[float, ...]] = {}

    def _growth(self, then: int, now: int) -> tuple[float, ...]:
        """Mean attack and health gain from turn ``then`` to ``now``, and the
        mean size, attack and health at ``now``."""
        key = (then, now)
        cached = self._means.get(key)
        if cached is None:
            dev = self.dev
            cached = self._means[key] = (
                max(dev.at(dev.attack, now) - dev.at(dev.attack, then), 0.0),
                max(dev.at(dev.health, now) - dev.at(dev.health, then), 0.0),
                dev.at(dev.size, now),
                dev.at(dev.attack, now),
                dev.at(dev.health, now),
            )
        return cached

    def _candidates(self, tier: int) -> tuple[list[str], list[float]]:
        cached = self._by_tier.get(tier)
        if cached is None:
            cards = sorted(c for c, n in self.counts.items() if n and INFO[c].tier <= tier)
            w = self.dev.top_tier_weight
            weights = [self.counts[c] * w ** (INFO[c].tier - tier) for c in cards]
            cached = self._by_tier[tier] = (cards, list(accumulate(weights)))
        return cached

    def guess(self, player: int, rng: random.Random, turn: int | None = None) -> Board:
        """One guess of ``player``'s warband now (or at a later ``turn``)."""
        obs = self.obs
        seen = obs.seen[player]
        now = obs.turn if turn is None else turn
        minions: list[Minion] = list(seen.board.minions) if seen is not None else []
        then = seen.turn if seen is not None else 0
        return self.develop(player, minions, then, now, rng)

    def develop(
        self, player: int, minions: list[Minion], then: int, now: int, rng: random.Random
    ) -> Board:
        """``player``'s warband at turn ``now``, grown from ``minions`` as they
        stood at turn ``then`` the way the field's warbands grow."""
        dev = self.dev
        info = self.obs.players[player]
        gain_atk, gain_hp, mean_size, mean_atk, mean_hp = self._growth(then, now)
        # rng.random() stands in for rng.uniform and rng.choices below, with the
        # same draws and values: a search makes many guesses.
        draw = rng.random
        # Growth of the minions seen: the field's mean gain since then, with noise.
        if minions and (gain_atk or gain_hp):
            minions = [
                m.with_stats(
                    m.attack + round(gain_atk * (0.5 + draw())),
                    m.health + round(gain_hp * (0.5 + draw())),
                )
                for m in minions
            ]
        cards, cum = self._candidates(info.tier)
        if cards:
            want = round(mean_size + (-0.5 + draw()))
            extra = max(0, min(7, want) - len(minions))
            swaps = sum(draw() < dev.replace_chance for _ in range(max(now - then, 0)))
            swaps = min(swaps, len(minions))
            lo, hi = 1 - dev.spread, 1 + dev.spread
            span = hi - lo
            total = cum[-1] + 0.0
            last = len(cum) - 1
            new = []
            for _ in range(extra + swaps):
                m = _fresh(cards[bisect(cum, draw() * total, 0, last)])
                atk = round(max(m.attack, mean_atk * (lo + span * draw())))
                hp = round(max(m.health, mean_hp * (lo + span * draw())))
                new.append(m.with_stats(atk, hp))
            for m in new[extra:]:  # swaps replace the weakest seen minions
                weakest = min(
                    range(len(minions)), key=lambda i: minions[i].attack + minions[i].health
                )
                minions[weakest] = m
            minions.extend(new[:extra])
        return Board.trusted(info.tier, max(info.health, 1), tuple(minions[:7]))


def guess_board(
    obs: Observation, player: int, rng: random.Random, rules: Ruleset | None = None
) -> Board:
    """One guess of ``player``'s warband now."""
    return Guesser(obs, rules).guess(player, rng)


def guess_boards(
    obs: Observation, rng: random.Random, rules: Ruleset | None = None
) -> dict[int, Board]:
    """A fresh guess of every living opponent's warband."""
    guesser = Guesser(obs, rules)
    return {
        p.player: guesser.guess(p.player, rng)
        for p in obs.players
        if p.player != obs.player and p.alive
    }
