"""A mutable working copy of one player's state while one action resolves.

:class:`Turn` copies a :class:`PlayerState` into lists, lets the action and the
card effects change it through small primitives (buff, summon slot bookkeeping,
hero damage, hand and shop additions, triples, discovers, shop rolls), and
freezes the result into a new :class:`PlayerState`. The pool and the random
generator are changed in place.
"""

from __future__ import annotations

import random
from functools import partial
from typing import Final, cast

from bgsim._core.hero_state import HeroState
from bgsim._core.minions import (
    ALL_TRIBES,
    INFO,
    MAX_STAT,
    MEGA_WINDFURY,
    MENACE,
    MENACE_GOLDEN,
    TRIBE_BITS,
    WINDFURY,
    HandCard,
    MinionCard,
    pool_minion,
)
from bgsim._core.player_state import DiscoverSpec, PlayerState
from bgsim._core.pool import Pool
from bgsim.ruleset import Ruleset

TRIBE_ORDER: Final = tuple(TRIBE_BITS.values())


_HAS_GOLDEN: Final = frozenset(card for card, info in INFO.items() if info.golden_id)


class Turn:
    """Mutable copy of a :class:`PlayerState` plus the pool, rng and rules."""

    __slots__ = (
        "actions",
        "aim",
        "board",
        "discover",
        "discover_queue",
        "elementals_played",
        "ended",
        "free_refreshes",
        "gold",
        "hand",
        "health",
        "hero",
        "hero_offers",
        "kept",
        "last_opponent_cards",
        "nomi_bonus",
        "pirates_bought",
        "played",
        "player",
        "pool",
        "rng",
        "rules",
        "shop",
        "shop_frozen",
        "tier",
        "turn",
        "upgrade_cost",
        "won_last_combat",
    )

    def __init__(self, s: PlayerState, pool: Pool, rng: random.Random, rules: Ruleset) -> None:
        self.player = s.player
        self.turn = s.turn
        self.tier = s.tier
        self.gold = s.gold
        self.upgrade_cost = s.upgrade_cost
        self.health = s.health
        self.shop = list(s.shop)
        self.shop_frozen = list(s.shop_frozen)
        self.hand: list[HandCard] = list(s.hand)
        self.board = list(s.board)
        self.discover = s.discover
        self.discover_queue = list(s.discover_queue)
        self.free_refreshes = s.free_refreshes
        self.nomi_bonus = s.nomi_bonus
        self.pirates_bought = s.pirates_bought
        self.elementals_played = s.elementals_played
        self.actions = s.actions
        self.ended = s.ended
        self.won_last_combat = s.won_last_combat
        self.last_opponent_cards = s.last_opponent_cards
        self.hero: HeroState | None = s.hero
        self.hero_offers = s.hero_offers
        self.pool = pool
        self.rng: random.Random = rng
        self.rules = rules
        self.played: int | None = None  # warband slot of the minion being played
        self.aim: int | None = None  # warband slot of its Battlecry's target
        self.kept = 0  # frozen minions the last shop roll kept (at the shop's left)

    def freeze(self) -> PlayerState:
        """The turn so far as an immutable :class:`PlayerState`."""
        return PlayerState(
            self.player,
            self.turn,
            self.tier,
            self.gold,
            self.upgrade_cost,
            self.health,
            tuple(self.shop),
            tuple(self.shop_frozen),
            tuple(self.hand),
            tuple(self.board),
            self.discover,
            tuple(self.discover_queue),
            self.free_refreshes,
            self.nomi_bonus,
            self.pirates_bought,
            self.elementals_played,
            self.actions,
            self.ended,
            self.won_last_combat,
            self.last_opponent_cards,
            self.hero,
            self.hero_offers,
        )

    # ------------------------------------------------------------- warband

    def buff(self, i: int, attack: int, health: int) -> None:
        self.board[i] = self.board[i].buffed(attack, health)

    def give(self, i: int, keyword_bits: int) -> None:
        self.board[i] = self.board[i].with_keywords(keyword_bits)

    def insert(self, pos: int, minion: MinionCard) -> int:
        """Put a minion into the warband at ``pos`` (clamped); return its slot."""
        pos = max(0, min(pos, len(self.board)))
        self.board.insert(pos, minion)
        if self.played is not None and pos <= self.played:
            self.played += 1
        if self.aim is not None and pos <= self.aim:
            self.aim += 1
        return pos

    def remove(self, i: int) -> MinionCard:
        minion = self.board.pop(i)
        if self.played is not None:
            if i < self.played:
                self.played -= 1
            elif i == self.played:
                self.played = None
        if self.aim is not None:
            if i < self.aim:
                self.aim -= 1
            elif i == self.aim:
                self.aim = None
        return minion

    def room(self) -> bool:
        return len(self.board) < self.rules.limits.board_size

    def of_tribe(self, bits: int, exclude: int | None = None) -> list[int]:
        """Warband slots of minions of any of these types (Amalgadon is every type)."""
        return [i for i, m in enumerate(self.board) if INFO[m.card].tribes & bits and i != exclude]

    def others(self, exclude: int | None) -> list[int]:
        return [i for i in range(len(self.board)) if i != exclude]

    def pick(self, slots: list[int]) -> int | None:
        """A uniformly random slot of ``slots`` (None if empty)."""
        if not slots:
            return None
        return slots[int(self.rng.random() * len(slots))]

    def one_per_type(self, exclude: int | None = None) -> list[int]:
        """One random friendly minion per minion type, Amalgadon-style minions
        filling types nobody else has, each at most once (rules-research Q26)."""
        singles: dict[int, list[int]] = {}
        fillers: list[int] = []
        for i, m in enumerate(self.board):
            if i == exclude:
                continue
            tribes = INFO[m.card].tribes
            if tribes == ALL_TRIBES:
                fillers.append(i)
            elif tribes:
                for bit in TRIBE_ORDER:
                    if tribes & bit:
                        singles.setdefault(bit, []).append(i)
        out: list[int] = []
        for bit in TRIBE_ORDER:
            slots = singles.get(bit)
            if slots:
                out.append(slots[int(self.rng.random() * len(slots))])
            elif fillers:
                out.append(fillers.pop(int(self.rng.random() * len(fillers))))
        return out

    def type_count(self, exclude: int | None = None) -> int:
        """How many different minion types the warband has (Amalgadon fills gaps)."""
        mask = 0
        fillers = 0
        for i, m in enumerate(self.board):
            if i == exclude:
                continue
            tribes = INFO[m.card].tribes
            if tribes == ALL_TRIBES:
                fillers += 1
            else:
                mask |= tribes
        have = bin(mask).count("1")
        return have + min(fillers, len(TRIBE_ORDER) - have)

    # ---------------------------------------------------------------- hand

    def hand_room(self) -> bool:
        return len(self.hand) < self.rules.limits.hand_size

    def add_to_hand(self, card: HandCard) -> bool:
        """Add a card if the hand has room; a card that does not fit is lost
        (its pool copies go back to the pool)."""
        if self.hand_room():
            self.hand.append(card)
            return True
        self.pool.put(card.pool_copies)
        return False

    # ---------------------------------------------------------------- shop

    def shop_room(self) -> bool:
        return len(self.shop) < self.rules.tavern.max_shop_size

    def shop_minion(self, card_id: str) -> MinionCard:
        """A pool copy as it appears in this player's tavern (Nomi's bonus,
        The Good Stuff's Health)."""
        m = pool_minion(card_id)
        if self.nomi_bonus and INFO[card_id].tribes & TRIBE_BITS["elemental"]:
            m = m.buffed(self.nomi_bonus, self.nomi_bonus)
        hero = self.hero
        if hero is not None and hero.prizes is not None and hero.prizes.good_stuff:
            m = m.buffed(0, hero.prizes.good_stuff)  # The Good Stuff (Darkmoon Prize)
        return m

    def roll_shop(self, keep_frozen: bool, size: int | None = None) -> None:
        """Return the shop to the pool (frozen minions stay, thawed, when
        ``keep_frozen``) and fill it up to ``size`` minions (by default the
        tier's shop size) from the pool."""
        kept: list[MinionCard] = []
        for m, frozen in zip(self.shop, self.shop_frozen, strict=True):
            if keep_frozen and frozen:
                kept.append(m)
            else:
                self.pool.put(m.pool_copies)
        self.kept = len(kept)
        need = (self.rules.shop_size(self.tier) if size is None else size) - len(kept)
        if need > 0:
            kept.extend(self.shop_minion(c) for c in self.pool.draw(self.rng, self.tier, need))
        self.shop = kept
        self.shop_frozen = [False] * len(kept)

    # ------------------------------------------------------------ triples

    def check_triples(self) -> None:
        """Merge any ``triples.copies`` (three) copies of a normal minion in hand + warband into a
        golden card in hand (tokens too; cards without a golden never merge)."""
        need = self.rules.triples.copies
        while True:
            counts: dict[str, int] = {}
            found = None
            # Cards without a golden are counted too (cheaper than asking
            # first); only a card with one is ever merged.
            for m in self.board:
                if not m.golden:
                    card = m.card
                    n = counts[card] = counts.get(card, 0) + 1
                    if n >= need and card in _HAS_GOLDEN:
                        found = card
            for c in self.hand:
                if isinstance(c, MinionCard) and not c.golden:
                    card = c.card
                    n = counts[card] = counts.get(card, 0) + 1
                    if n >= need and card in _HAS_GOLDEN:
                        found = card
            if found is None or not self._merge(found):
                return

    def _merge(self, card_id: str) -> bool:
        limit = self.rules.triples.copies
        slots = [i for i, m in enumerate(self.board) if m.card == card_id and not m.golden]
        hands = [
            i
            for i, m in enumerate(self.hand)
            if isinstance(m, MinionCard) and m.card == card_id and not m.golden
        ]
        take_hand = hands[:limit]
        take_board = slots[: limit - len(take_hand)]
        if not take_hand and not self.hand_room():
            return False
        parts = [cast(MinionCard, self.hand[i]) for i in take_hand]
        parts += [self.board[i] for i in take_board]
        for i in reversed(take_hand):
            del self.hand[i]
        for i in reversed(take_board):
            self.remove(i)
        self.hand.append(golden_of(parts))
        return True

    # ----------------------------------------------------------- discover

    def pick_options(self, cards: tuple[HandCard, ...]) -> tuple[HandCard, ...]:
        """Up to ``limits.discover_choices`` distinct cards of ``cards``, at
        random (a Discover of given cards)."""
        distinct = _distinct(cards)
        k = min(self.rules.limits.discover_choices, len(distinct))
        return tuple(self.rng.sample(distinct, k))

    def queue_discover(self, spec: DiscoverSpec) -> None:
        self.discover_queue.append(spec)
        if not self.discover:
            self.next_discover()

    def next_discover(self) -> None:
        """Offer the next queued Discover that can be offered (a Discover finds
        nothing when the pool has no fitting card or the hand is full)."""
        self.discover = ()
        while self.discover_queue:
            spec = self.discover_queue.pop(0)
            if not self.hand_room():
                continue
            if spec.options:
                self.discover = self.pick_options(spec.options)
                return
            # A partial, not a closure: a compiled closure makes a reference
            # cycle per call, which only the collector reclaims.
            keep = partial(_discoverable, spec)
            picks = self.pool.pick_distinct(
                self.rng, self.rules.limits.discover_choices, spec.min_tier, spec.max_tier, keep
            )
            if picks:
                self.discover = tuple(pool_minion(c) for c in picks)
                return


def _distinct(cards: tuple[HandCard, ...]) -> list[HandCard]:
    out: list[HandCard] = []
    for card in cards:
        if card not in out:
            out.append(card)
    return out


def _discoverable(spec: DiscoverSpec, card_id: str) -> bool:
    """Whether a Discover of ``spec`` may offer ``card_id``."""
    if card_id == spec.exclude:
        return False
    return not spec.tribe or bool(INFO[card_id].tribes & spec.tribe)


def golden_of(parts: list[MinionCard]) -> MinionCard:
    """The golden card three copies merge into: golden base stats plus the
    buffs of all three (each stat never below the golden base), keywords they
    gained, magnetized cards and Living Spores carried over (rules-research
    Q21, Dom Calkosz's May 2021 description)."""
    info = INFO[parts[0].card]
    atk = info.golden_attack + sum(p.attack - info.attack for p in parts)
    hp = info.golden_health + sum(p.health - info.health for p in parts)
    kw = info.golden_keywords
    for p in parts:
        kw |= p.keywords & ~info.keywords
    if kw & MEGA_WINDFURY:
        kw &= ~WINDFURY
    magnets = tuple(x for p in parts for x in p.magnetic if x in (MENACE, MENACE_GOLDEN))
    return MinionCard(
        info.id,
        True,
        min(max(atk, info.golden_attack), MAX_STAT),
        min(max(hp, info.golden_health), MAX_STAT),
        kw,
        magnets,
        sum(p.spores for p in parts),
        tuple(c for p in parts for c in p.pool_copies),
        True,
        tuple(e for p in parts for e in p.enchants),
    )
