"""The shared pool of minion copies that every shop of a lobby draws from.

The pool holds the copies of the lobby's minions (the pool cards whose minion
type is one of the lobby's types, neutral minions and Amalgadon) that no player
holds. Shops draw copies uniformly (a card with more copies left is more likely
to show up); discovers and "random Elemental" effects pick among the distinct
cards that still have a copy, uniformly, as the Stone Ground simulator does
(rules-research.md, Q21 and Tavern Tempest). Copies go back when a shop is
refreshed, a minion is sold, a discover option is passed over or a player is
eliminated.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping

from bgsim._core.minions import INFO, TRIBE_BITS
from bgsim.ruleset import Ruleset


class Pool:
    """Copies left per card, stored as one list of copies per tavern tier."""

    __slots__ = ("_tiers",)

    def __init__(self, copies: Mapping[str, int] | None = None, max_tier: int = 6) -> None:
        self._tiers: list[list[str]] = [[] for _ in range(max_tier)]
        for card_id, n in sorted((copies or {}).items()):
            self._tiers[INFO[card_id].tier - 1].extend([card_id] * n)

    @classmethod
    def for_lobby(cls, tribes: Iterable[str], rules: Ruleset) -> Pool:
        """The full starting pool of a lobby with these minion types."""
        return cls(starting_copies(tribes, rules), rules.tavern.max_tier)

    def clone(self) -> Pool:
        other = Pool.__new__(Pool)
        other._tiers = [list(t) for t in self._tiers]
        return other

    def counts(self) -> Counter[str]:
        """Copies left per card."""
        out: Counter[str] = Counter()
        for tier in self._tiers:
            out.update(tier)
        return out

    def count(self, card_id: str) -> int:
        return self._tiers[INFO[card_id].tier - 1].count(card_id)

    def __len__(self) -> int:
        return sum(len(t) for t in self._tiers)

    def draw(self, rng: random.Random, max_tier: int, n: int) -> list[str]:
        """Take up to ``n`` random copies of tiers 1..max_tier (each copy equally likely)."""
        tiers = self._tiers[:max_tier]
        out: list[str] = []
        for _ in range(n):
            total = 0
            for t in tiers:
                total += len(t)
            if not total:
                break
            r = int(rng.random() * total)
            for t in tiers:
                if r < len(t):
                    t[r], t[-1] = t[-1], t[r]
                    out.append(t.pop())
                    break
                r -= len(t)
        return out

    def draw_matching(
        self,
        rng: random.Random,
        min_tier: int,
        max_tier: int,
        n: int,
        keep: Callable[[str], bool] | None = None,
    ) -> list[str]:
        """Take up to ``n`` random copies of tiers min_tier..max_tier that
        ``keep`` accepts, each such copy equally likely (a shop draw limited
        to some cards: Ysera's Dragon, Dinotamer Brann's Battlecries).

        >>> pool = Pool({"BOT_606": 2, "BGS_004": 5})
        >>> pool.draw_matching(random.Random(0), 1, 6, 3, lambda c: c == "BOT_606")
        ['BOT_606', 'BOT_606']
        """
        out: list[str] = []
        for _ in range(n):
            spots: list[tuple[int, int]] = []
            for tier in range(max(min_tier, 1) - 1, min(max_tier, len(self._tiers))):
                for i, card_id in enumerate(self._tiers[tier]):
                    if keep is None or keep(card_id):
                        spots.append((tier, i))
            if not spots:
                break
            tier, i = spots[int(rng.random() * len(spots))]
            row = self._tiers[tier]
            row[i], row[-1] = row[-1], row[i]
            out.append(row.pop())
        return out

    def put(self, card_ids: Iterable[str]) -> None:
        """Return copies (normal ids of pool cards) to the pool."""
        tiers = self._tiers
        for card_id in card_ids:
            tiers[INFO[card_id].tier - 1].append(card_id)

    def take(self, card_id: str) -> bool:
        """Take one copy of a card; False if none is left."""
        tier = self._tiers[INFO[card_id].tier - 1]
        try:
            i = tier.index(card_id)
        except ValueError:
            return False
        tier[i] = tier[-1]
        tier.pop()
        return True

    def pick_distinct(
        self,
        rng: random.Random,
        k: int,
        min_tier: int,
        max_tier: int,
        keep: Callable[[str], bool] | None = None,
    ) -> list[str]:
        """Take one copy each of up to ``k`` different random cards of tiers
        min_tier..max_tier that ``keep`` accepts (uniform over distinct cards)."""
        candidates: list[str] = []
        seen: set[str] = set()
        for tier in self._tiers[min_tier - 1 : max_tier]:
            for card_id in tier:
                if card_id not in seen:
                    seen.add(card_id)
                    if keep is None or keep(card_id):
                        candidates.append(card_id)
        candidates.sort()
        out: list[str] = []
        for _ in range(min(k, len(candidates))):
            card_id = candidates.pop(int(rng.random() * len(candidates)))
            self.take(card_id)
            out.append(card_id)
        return out


def starting_copies(tribes: Iterable[str], rules: Ruleset) -> dict[str, int]:
    """Copies per pool card at the start of a lobby with these minion types."""
    mask = 0
    for t in tribes:
        mask |= TRIBE_BITS[t]
    out = {}
    for info in INFO.values():
        if (
            info.in_pool
            and info.tier <= rules.tavern.max_tier
            and (not info.tribes or info.tribes & mask)
        ):
            out[info.id] = rules.copies(info.tier)
    return out
