"""The bundled agents' hero knowledge: which hero to draft, and when and where
to use the hero power.

It is data: ``data/hero_policy.toml`` gives every draftable hero's power a
policy kind (when to use it), an aim (which target) and conditions, and its
header states the rule of each kind; ``data/hero_ratings.json`` holds the
measured rating the draft goes by (written by :mod:`agents.hero_rating`). The
heuristic agent (:mod:`agents.heuristic`) acts on it, and through it the MCTS
agent's prior and rollouts; the greedy agent drafts by the same rule and lets
the kinds gate its power.

>>> KNOWLEDGE.policy("TB_BaconShop_HP_038").kind == AFTER_BUYS  # King Mukla
True
>>> KNOWLEDGE.draft(("TB_BaconShop_HERO_34", "TB_BaconShop_HERO_34")) # a tie: the first
0
"""

from __future__ import annotations

import json
import math
import random
import tomllib
from collections.abc import Sequence
from typing import Final

from bgsim import PlayerState
from bgsim.cards import TRIBES, cards
from bgsim.heroes import heroes
from bgsim.resources import data_path
from bgsim.rules import TRIBE_BITS, card_info, power_cost

# When a power is used (data/hero_policy.toml's header says each rule).
PASSIVE, FIRST, BEFORE_BUY, BEFORE_BATTLECRY, AFTER_BUYS, REFRESH = range(6)
KINDS: Final = {
    "passive": PASSIVE,
    "first": FIRST,
    "before_buy": BEFORE_BUY,
    "before_battlecry": BEFORE_BATTLECRY,
    "after_buys": AFTER_BUYS,
    "refresh": REFRESH,
}
# Which target a targeted power takes.
BEST, WEAKEST, STRONGEST = range(3)
AIMS: Final = {"best": BEST, "weakest": WEAKEST, "strongest": STRONGEST}
ANY_MINION: Final = -1  # ``needs``: any friendly minion (else a tribe's bit; 0: nothing)

AVERAGE: Final = 4.5  # the mean placement of eight players
SHRINK: Final = 10.0  # pseudo-games at the average, when the ratings do not say
# The draft's temperature, in places: an offer rated d places worse than the
# best offered is taken exp(-d / T) times as often. 0.3 is about twice a
# rating's standard error (some 230 lobbies a hero, placements' sd 2.3), so
# heroes the measurement cannot tell apart get near-equal odds, and every
# hero is played now and then (an argmax never plays the lowest rated ones).
DRAFT_TEMPERATURE: Final = 0.3

_FIELDS: Final = ("power", "policy", "aim", "needs", "from_turn", "min_health")


class PowerPolicy:
    """How an agent uses one hero power (see ``data/hero_policy.toml``)."""

    __slots__ = ("aim", "from_turn", "kind", "min_health", "needs", "per_game")

    def __init__(
        self,
        kind: int,
        aim: int = BEST,
        needs: int = 0,
        from_turn: int = 0,
        min_health: int = 0,
        per_game: bool = False,
    ) -> None:
        self.kind = kind
        self.aim = aim
        self.needs = needs
        self.from_turn = from_turn
        self.min_health = min_health
        self.per_game = per_game


class HeroKnowledge:
    """The table of ``data/hero_policy.toml`` and the ratings, checked against
    the card data: every row names a draftable hero and its own power."""

    def __init__(self, table: dict, ratings: dict) -> None:
        self.powers: dict[str, PowerPolicy] = {}
        self.hero_of: dict[str, str] = {}  # power id -> hero id
        self.ratings: dict[str, float] = {}
        db = cards()
        drafted = heroes()
        for hero_id, row in table.items():
            where = f"hero policy [{hero_id}]"
            if hero_id not in db or not db[hero_id].draftable:
                raise ValueError(f"{where}: not a draftable hero")
            for key in row:
                if key not in _FIELDS:
                    raise ValueError(f"{where}: unknown field {key!r}")
            power = db.hero_power(hero_id)
            if row.get("power") != power.id:
                raise ValueError(f"{where}: power must be {power.id}, not {row.get('power')!r}")
            try:
                kind = KINDS[row["policy"]]
                aim = AIMS[row.get("aim", "best")]
                needs = _needs(str(row.get("needs", "")))
                from_turn = int(row.get("from_turn", 0))
                min_health = int(row.get("min_health", 0))
            except (KeyError, TypeError, ValueError) as exc:
                raise ValueError(f"{where}: bad value ({exc})") from None
            if (kind == PASSIVE) != power.passive:
                raise ValueError(f"{where}: policy 'passive' exactly for a passive power")
            per_game = drafted[hero_id].power.uses == "per_game"
            self.powers[power.id] = PowerPolicy(kind, aim, needs, from_turn, min_health, per_game)
            self.hero_of[power.id] = hero_id
        shrink = float(ratings.get("shrink", SHRINK))
        for hero_id, (games, mean) in ratings.get("heroes", {}).items():
            n = float(games)
            self.ratings[hero_id] = (n * float(mean) + shrink * AVERAGE) / (n + shrink)

    def policy(self, power_id: str) -> PowerPolicy | None:
        """The policy of a hero power (None for a power no row names)."""
        return self.powers.get(power_id)

    def rating(self, card_id: str) -> float:
        """The expected placement of a hero, or of the hero a power belongs to
        (lower is better; :data:`AVERAGE` when not measured)."""
        hero = self.hero_of.get(card_id, card_id)
        return self.ratings.get(hero, AVERAGE)

    def draft(self, offers: Sequence[str], rng: random.Random | None = None) -> int:
        """The option to take among offered heroes (or hero powers). With
        ``rng``, a draw in which an offer rated ``d`` places worse than the
        best offered weighs ``exp(-d / DRAFT_TEMPERATURE)``; without, the best
        rated, the earlier one on a tie.

        >>> pyramad, patchwerk = "TB_BaconShop_HERO_39", "TB_BaconShop_HERO_34"
        >>> know = HeroKnowledge({}, {"heroes": {pyramad: [990, 4.3], patchwerk: [990, 4.0]}})
        >>> know.draft((pyramad, patchwerk))
        1
        >>> picks = [know.draft((pyramad, patchwerk), random.Random(s)) for s in range(1000)]
        >>> 200 < picks.count(0) < 340  # weighs exp(-0.3 / 0.3) = 0.37 against 1
        True
        """
        ratings = [self.rating(card_id) for card_id in offers]
        best_rating = min(ratings)
        if rng is None:
            return ratings.index(best_rating)
        weights = [math.exp((best_rating - r) / DRAFT_TEMPERATURE) for r in ratings]
        return rng.choices(range(len(offers)), weights)[0]


def power_ready(policy: PowerPolicy, s: PlayerState, turn: int) -> bool:
    """Whether the policy's conditions let the power be used now: not used
    this turn (nor this game, once per game), the turn and Health conditions,
    the gold, the minions it needs. Cheap: the rules have the last word.

    >>> from bgsim import HeroState
    >>> mukla = HeroState("TB_BaconShop_HERO_38", "TB_BaconShop_HP_038")
    >>> policy = KNOWLEDGE.policy(mukla.power)
    >>> power_ready(policy, PlayerState(0, 1, 1, 3, 5, 40, hero=mukla), 1)
    True
    >>> power_ready(policy, PlayerState(0, 1, 1, 0, 5, 40, hero=mukla), 1)  # no gold
    False
    """
    hero = s.hero
    if hero is None or hero.uses or (policy.per_game and hero.spent):
        return False
    if turn < policy.from_turn or s.health <= policy.min_health:
        return False
    if s.gold < power_cost(hero):
        return False
    needs = policy.needs
    if needs == ANY_MINION:
        return len(s.board) > 0
    if needs:
        return any(card_info(m.card).tribes & needs for m in s.board)
    return True


def _needs(text: str) -> int:
    if not text:
        return 0
    if text == "minion":
        return ANY_MINION
    if text not in TRIBES:
        raise ValueError(f"needs must be 'minion' or a minion type, not {text!r}")
    return TRIBE_BITS[text]


def load_knowledge() -> HeroKnowledge:
    """The shipped hero knowledge (``data/hero_policy.toml`` and, when it
    exists, ``data/hero_ratings.json``)."""
    with data_path("hero_policy.toml").open("rb") as f:
        table = tomllib.load(f)
    path = data_path("hero_ratings.json")
    ratings = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    return HeroKnowledge(table, ratings)


KNOWLEDGE: Final = load_knowledge()
