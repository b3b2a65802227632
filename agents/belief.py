"""Guess the hidden enemy warbands from public information only.

An agent sees other warbands only as they were when it last fought them. A
guess starts from that board and develops it for every turn since it was
seen; an opponent never seen gets a plausible board for its turn and tier.
Everything used is public: the last seen board and how many turns ago, the
opponent's tavern tier and health, the lobby's minion types, and the copies
the observer knows are gone (its own cards and the cards seen in combat).

Every player's hero is public too, and a guess uses it where it changes the
warband: a hero offered only in lobbies with a minion type (Lord Jaraxxus
with Demons, Millificent Manastorm with Mechs...) has a power that pays for
that type, so new minions of it are drawn :data:`HERO_LEAN` times as often; a
never-seen Curator starts from the Amalgam his power gives him. The guesser
keeps every player's hero and hero power (:meth:`Guesser.hero`) for what the
heroes do in combat.

How warbands develop (size and mean minion stats per turn) is fitted to real
games of the agents, one table for lobbies with heroes (``bgsim belief --fit``
wrote ``data/belief_heroes.json``: hero powers grow warbands some 10-15%
faster by mid-game) and one for the hero-less variant (``data/belief.json``,
``--heroes off``); a guess reads the table of its lobby's kind. ``bgsim
belief`` measures how far the guesses' combat odds are from the true boards'
odds.
"""

from __future__ import annotations

import json
import random
from bisect import bisect
from dataclasses import dataclass
from functools import cache
from itertools import accumulate
from pathlib import Path

from bgsim import Observation, cards
from bgsim.heroes import heroes
from bgsim.resources import data_path
from bgsim.rules import TRIBE_BITS
from combat_c import Board, Minion
from combat_c.guarded import InputError, numbers, read_json

MAX_SIZE = 7  # a warband's minions
MAX_STAT = 1_000_000  # the largest mean attack or health a belief table may hold
HERO_LEAN = 2.0  # weight of the minion type a type-tied hero's power pays for
# Minions a hero starts the game with, by hero power (The Curator's Amalgam).
STARTING_MINIONS: dict[str, tuple[str, ...]] = {"TB_BaconShop_HP_033": ("TB_BaconShop_HP_033t",)}


@cache
def _hero_types() -> dict[str, int]:
    """The minion type bit each type-tied hero leans to, by hero id."""
    return {h.id: TRIBE_BITS[h.tribe] for h in heroes().values() if h.tribe is not None}


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

    def __reduce__(self) -> tuple:
        # A compiled frozen class unpickles through its __init__.
        return (
            Development,
            (
                self.size,
                self.attack,
                self.health,
                self.fitted_on,
                self.replace_chance,
                self.top_tier_weight,
                self.spread,
            ),
        )

    def at(self, table: tuple[float, ...], turn: int) -> float:
        if turn < 1:
            return 0.0
        return table[min(turn, len(table)) - 1]

    @classmethod
    def load(cls, path: str | Path | None = None) -> Development:
        """The table in ``path`` (default: the shipped one), read through the
        guarded reader and checked; a problem is an ``InputError`` (a
        ``ValueError``) naming the file and the field."""
        source = Path(path or data_path("belief.json"))
        doc = read_json(source)
        if not isinstance(doc, dict) or not isinstance(doc.get("fitted_on", ""), str):
            raise InputError(f"{source}: not a belief table (an object with size, attack, health)")
        tables = {}
        for key, high in (("size", MAX_SIZE), ("attack", MAX_STAT), ("health", MAX_STAT)):
            tables[key] = numbers(doc.get(key), f"{source}: {key}", 0, high)
        return cls(tables["size"], tables["attack"], tables["health"], doc.get("fitted_on", ""))

    def to_json(self) -> str:
        rows = [f' "fitted_on": {json.dumps(self.fitted_on)}']
        for key in ("size", "attack", "health"):
            rows.append(f' "{key}": {json.dumps([round(x, 3) for x in getattr(self, key)])}')
        return "{\n" + ",\n".join(rows) + "\n}\n"


@cache
def development(heroes: bool = False) -> Development:
    """The shipped table for lobbies with heroes (``data/belief_heroes.json``)
    or without (``data/belief.json``), read once.

    >>> development(heroes=True).fitted_on
    '200 games of heuristic:8 with heroes, seed 0'
    """
    return Development.load(data_path("belief_heroes.json" if heroes else "belief.json"))


def load_development(path: str | Path) -> Development:
    """A table that ``bgsim belief --fit --out PATH`` wrote (the ``belief=PATH``
    option of the agents that guess boards); a file that cannot be read or
    is no such table raises ``ValueError`` in one line.

    >>> load_development("no/such/file.json")
    Traceback (most recent call last):
    ...
    ValueError: belief=no/such/file.json: cannot read it (No such file or directory)
    """
    try:
        dev = Development.load(path)
    except InputError as exc:
        text = str(exc).removeprefix(f"{path}: ")
        if text.startswith("cannot read"):
            raise ValueError(f"belief={path}: cannot read it{text[len('cannot read') :]}") from None
        raise ValueError(f"belief={path}: not a bgsim belief table ({text})") from None
    if not dev.size or not len(dev.size) == len(dev.attack) == len(dev.health):
        raise ValueError(f"belief={path}: not a bgsim belief table (empty or uneven tables)")
    return dev


def _size(m: Minion) -> int:
    return m.attack + m.health


@cache
def _fresh(card: str) -> Minion:
    return Minion.of(card)


class Guesser:
    """Guesses warbands for one observation; reuse it for many guesses (the
    pool estimate and the candidate minions per tier are worked out once).
    A ``bgsim.Guess``: ``TurnModel.from_observation(obs, guess=Guesser)``.

    >>> import random
    >>> from bgsim import Lobby
    >>> obs = Lobby(seed=1).observe(0)
    >>> board = Guesser(obs).warband(5, random.Random(0), turn=6)
    >>> board.tier, 0 < len(board.minions) <= 7
    (1, True)
    """

    def __init__(self, obs: Observation, dev: Development | None = None) -> None:
        self.obs = obs
        # A lobby with heroes shows every player's hero from turn 1 on.
        self.dev = dev or development(obs.players[obs.player].hero is not None)
        self.counts = {card: n for card, n in obs.pool_estimate().items() if n}
        types = _hero_types()
        self._lean = [types.get(p.hero, 0) if p.hero else 0 for p in obs.players]
        self._by_tier: dict[tuple[int, int], tuple[list[str], list[float]]] = {}
        self._means: dict[tuple[int, int], tuple[float, ...]] = {}

    def __reduce__(self) -> tuple:
        # A compiled class unpickles through its __init__ (the rest is cache).
        return (Guesser, (self.obs, self.dev))

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

    def hero(self, player: int) -> tuple[str | None, str | None]:
        """``player``'s hero and hero power (None, None without heroes).

        >>> from bgsim import Lobby
        >>> Guesser(Lobby(seed=1).observe(0)).hero(3)
        (None, None)
        """
        info = self.obs.players[player]
        return info.hero, info.hero_power

    def _candidates(self, tier: int, lean: int = 0) -> tuple[list[str], list[float]]:
        key = (tier, lean)
        cached = self._by_tier.get(key)
        if cached is None:
            db = cards()
            found = sorted(c for c, n in self.counts.items() if n and db[c].tier <= tier)
            w = self.dev.top_tier_weight
            weights = [self.counts[c] * w ** (db[c].tier - tier) for c in found]
            if lean:
                info = [db[c] for c in found]
                weights = [
                    x * HERO_LEAN if any(TRIBE_BITS[t] & lean for t in card.tribes) else x
                    for x, card in zip(weights, info, strict=True)
                ]
            cached = self._by_tier[key] = (found, list(accumulate(weights)))
        return cached

    def warband(self, player: int, rng: random.Random, turn: int) -> Board:
        """One guess of ``player``'s warband as it will fight on ``turn`` (the
        ``bgsim.Guess`` protocol)."""
        return self.guess(player, rng, turn)

    def guess(self, player: int, rng: random.Random, turn: int | None = None) -> Board:
        """One guess of ``player``'s warband now (or at a later ``turn``)."""
        obs = self.obs
        seen = obs.seen[player]
        now = obs.turn if turn is None else turn
        minions: list[Minion] = list(seen.board.minions) if seen is not None else []
        then = seen.turn if seen is not None else 0
        board = self.develop(player, minions, then, now, rng)
        power = obs.players[player].hero_power
        if seen is None and power is not None and power in STARTING_MINIONS:
            board = self._with_starting(board, STARTING_MINIONS[power], now)
        return board

    def _with_starting(self, board: Board, cards: tuple[str, ...], now: int) -> Board:
        """A never-seen player's guess with the minions their hero started
        with, grown like the field's minions since turn 0; each takes the
        place of the weakest guessed minion when the warband is full."""
        gain_atk, gain_hp = self._growth(0, now)[:2]
        minions = list(board.minions)
        for card in cards:
            m = _fresh(card)
            grown = m.with_stats(m.attack + round(gain_atk), m.health + round(gain_hp))
            if len(minions) >= 7:
                weakest = min(range(len(minions)), key=lambda i: _size(minions[i]))
                minions.pop(weakest)
            minions.insert(0, grown)
        return Board.trusted(board.tier, board.health, tuple(minions), board.hero, board.hero_power)

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
        found, cum = self._candidates(info.tier, self._lean[player])
        if found:
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
                m = _fresh(found[bisect(cum, draw() * total, 0, last)])
                atk = round(max(m.attack, mean_atk * (lo + span * draw())))
                hp = round(max(m.health, mean_hp * (lo + span * draw())))
                new.append(m.with_stats(atk, hp))
            for m in new[extra:]:  # swaps replace the weakest seen minions
                weakest = min(
                    range(len(minions)), key=lambda i: minions[i].attack + minions[i].health
                )
                minions[weakest] = m
            minions.extend(new[:extra])
        # The hero and power are public; whether the power fires and the
        # Secrets in play are not, so a guess has neither.
        return Board.trusted(
            info.tier, max(info.health, 1), tuple(minions[:7]), info.hero, info.hero_power
        )


def guess_board(obs: Observation, player: int, rng: random.Random) -> Board:
    """One guess of ``player``'s warband now."""
    return Guesser(obs).guess(player, rng)


def guess_boards(
    obs: Observation, rng: random.Random, dev: Development | None = None
) -> dict[int, Board]:
    """A fresh guess of every living opponent's warband (by ``dev``, else the
    shipped table)."""
    guesser = Guesser(obs, dev)
    return {
        p.player: guesser.guess(p.player, rng)
        for p in obs.players
        if p.player != obs.player and p.alive
    }
