"""One player's recruit-phase state: an immutable value.

Every action makes a new :class:`PlayerState`; nothing in an old one ever
changes, so an observation can hold a reference instead of a copy and a
search can keep any state it has seen.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from bgsim._core.hero_state import HeroState
from bgsim._core.minions import NATIVE, HandCard, MinionCard, set_frozen
from bgsim.ruleset import Ruleset
from combat_c import Board


@dataclass(frozen=True, slots=True)
class DiscoverSpec:
    """A Discover waiting to be offered: one card of tiers min..max, of
    ``tribe`` (bit mask, 0 = any), never ``exclude`` (a normal card id).
    With ``options`` it offers up to three distinct cards drawn from those
    given cards instead of the pool (created cards: Mr. Bigglesworth's
    minions, Darkmoon Prizes); the tiers are then unused.

    >>> from bgsim.rules import MURLOC
    >>> DiscoverSpec(1, 4, MURLOC, "BGS_020")  # Primalfin Lookout's
    DiscoverSpec(min_tier=1, max_tier=4, tribe=32, exclude='BGS_020', options=())
    """

    min_tier: int
    max_tier: int
    tribe: int = 0
    exclude: str | None = None
    options: tuple[HandCard, ...] = ()

    def __reduce__(self) -> tuple:
        # A compiled frozen class unpickles through its __init__.
        return (
            DiscoverSpec,
            (self.min_tier, self.max_tier, self.tribe, self.exclude, self.options),
        )


@dataclass(frozen=True, slots=True)
class PlayerState:
    """What one player owns and knows about their own tavern.

    ``shop_frozen[i]`` says whether shop slot i is frozen (kept at the next
    refresh of the turn start). ``discover`` holds the options of the Discover
    being offered (empty if none: minions, or spells for a Discover of
    Darkmoon Prizes); ``discover_queue`` the Discovers still to be
    offered after it. ``last_opponent_cards`` are the card ids (golden ids for
    goldens) of the last opponent's warband at the start of that combat, for
    Murozond.

    >>> from bgsim import Lobby
    >>> state = Lobby(seed=1).state(0)
    >>> state.turn, state.gold, state.tier, state.upgrade_cost, state.health
    (1, 3, 1, 5, 40)
    """

    player: int
    turn: int
    tier: int
    gold: int
    upgrade_cost: int
    health: int
    shop: tuple[MinionCard, ...] = ()
    shop_frozen: tuple[bool, ...] = ()
    hand: tuple[HandCard, ...] = ()
    board: tuple[MinionCard, ...] = ()
    discover: tuple[HandCard, ...] = ()
    discover_queue: tuple[DiscoverSpec, ...] = ()
    free_refreshes: int = 0
    nomi_bonus: int = 0
    pirates_bought: int = 0
    elementals_played: int = 0
    actions: int = 0
    ended: bool = False
    won_last_combat: bool = False
    last_opponent_cards: tuple[str, ...] = ()
    hero: HeroState | None = None
    hero_offers: tuple[str, ...] = ()
    _legal: tuple | None = field(default=None, init=False, compare=False, repr=False, hash=False)

    # Written out (the dataclass keeps it) so that mypyc compiles it: the
    # recruit engine builds a state per action, and the generated one would
    # run in Python, one frozen-guard bypass per field (see bgsim._core.minions.NATIVE).
    def __init__(
        self,
        player: int,
        turn: int,
        tier: int,
        gold: int,
        upgrade_cost: int,
        health: int,
        shop: tuple[MinionCard, ...] = (),
        shop_frozen: tuple[bool, ...] = (),
        hand: tuple[HandCard, ...] = (),
        board: tuple[MinionCard, ...] = (),
        discover: tuple[HandCard, ...] = (),
        discover_queue: tuple[DiscoverSpec, ...] = (),
        free_refreshes: int = 0,
        nomi_bonus: int = 0,
        pirates_bought: int = 0,
        elementals_played: int = 0,
        actions: int = 0,
        ended: bool = False,
        won_last_combat: bool = False,
        last_opponent_cards: tuple[str, ...] = (),
        hero: HeroState | None = None,
        hero_offers: tuple[str, ...] = (),
    ) -> None:
        if NATIVE:
            self.player = player  # type: ignore[misc]
            self.turn = turn  # type: ignore[misc]
            self.tier = tier  # type: ignore[misc]
            self.gold = gold  # type: ignore[misc]
            self.upgrade_cost = upgrade_cost  # type: ignore[misc]
            self.health = health  # type: ignore[misc]
            self.shop = shop  # type: ignore[misc]
            self.shop_frozen = shop_frozen  # type: ignore[misc]
            self.hand = hand  # type: ignore[misc]
            self.board = board  # type: ignore[misc]
            self.discover = discover  # type: ignore[misc]
            self.discover_queue = discover_queue  # type: ignore[misc]
            self.free_refreshes = free_refreshes  # type: ignore[misc]
            self.nomi_bonus = nomi_bonus  # type: ignore[misc]
            self.pirates_bought = pirates_bought  # type: ignore[misc]
            self.elementals_played = elementals_played  # type: ignore[misc]
            self.actions = actions  # type: ignore[misc]
            self.ended = ended  # type: ignore[misc]
            self.won_last_combat = won_last_combat  # type: ignore[misc]
            self.last_opponent_cards = last_opponent_cards  # type: ignore[misc]
            self.hero = hero  # type: ignore[misc]
            self.hero_offers = hero_offers  # type: ignore[misc]
            self._legal = None  # type: ignore[misc]
            return
        values = (
            player,
            turn,
            tier,
            gold,
            upgrade_cost,
            health,
            shop,
            shop_frozen,
            hand,
            board,
            discover,
            discover_queue,
            free_refreshes,
            nomi_bonus,
            pirates_bought,
            elementals_played,
            actions,
            ended,
            won_last_combat,
            last_opponent_cards,
            hero,
            hero_offers,
        )
        set_frozen(self, _SLOTS, (*values, None))

    def __reduce__(self) -> tuple:
        # A compiled class unpickles through its __init__.
        return (PlayerState, tuple(getattr(self, name) for name in _SLOTS[:-1]))

    def with_board_and_health(self, board: tuple[MinionCard, ...], health: int) -> PlayerState:
        """This state with another warband (a reordering) and hero health:
        :func:`dataclasses.replace` for the two fields searches change, at a
        fraction of its cost. The caller keeps them valid."""
        return PlayerState(
            self.player,
            self.turn,
            self.tier,
            self.gold,
            self.upgrade_cost,
            health,
            self.shop,
            self.shop_frozen,
            self.hand,
            board,
            self.discover,
            self.discover_queue,
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

    def warband(self, minions: Sequence[MinionCard] | None = None) -> Board:
        """The warband as the combat engine takes it: this player's tier,
        health and minions (``minions``, left to right, in place of the
        warband's own when given: a hoped-for board, an arrangement), and
        with a hero, the hero's fields (its power, whether the power fires in
        the coming combat, the Secrets in play).

        >>> from bgsim import Lobby
        >>> Lobby(seed=1).state(0).warband().minions
        ()
        """
        board = self.board if minions is None else minions
        if self.hero is None:
            return warband(self.tier, self.health, board)
        # Imported here: the registry imports the Turn, which imports this module.
        from bgsim._core.hero_powers import combat_hero

        return warband(self.tier, self.health, board, *combat_hero(self.hero))

    @property
    def frozen(self) -> bool:
        """True when every shop minion is frozen (and there is at least one)."""
        return bool(self.shop_frozen) and all(self.shop_frozen)

    def pool_copies(self) -> list[str]:
        """Every pool copy this player holds (shop, hand, warband, discover
        offer, and minions the hero power holds: Maiev's Dormant ones)."""
        out: list[str] = []
        for group in (self.shop, self.hand, self.board, self.discover):
            for card in group:
                out.extend(card.pool_copies)
        if self.hero is not None and self.hero.extra:
            out.extend(self.hero.pool_copies())
        return out


_SLOTS: Final = tuple(PlayerState.__dataclass_fields__)  # the _legal cache last


def warband(
    tier: int,
    health: int,
    minions: Sequence[MinionCard],
    hero: str | None = None,
    hero_power: str | None = None,
    armed: bool = False,
    secrets: tuple[str, ...] = (),
) -> Board:
    """The one place that turns recruit-phase minions into a combat board.

    The minions are the recruit engine's own values, so the board is built
    without the Python checks (``Board.trusted``; the engine still checks
    every board it is given). A hero at 0 Health or less counts as 1 (it can
    only be a guess or a board of the past)."""
    return Board.trusted(
        tier,
        max(health, 1),
        tuple([m.combat() for m in minions]),
        hero,
        hero_power,
        armed,
        secrets,
    )


def new_player_state(player: int, rules: Ruleset) -> PlayerState:
    """A player before turn 1 starts (no gold, empty shop)."""
    return PlayerState(
        player=player,
        turn=0,
        tier=1,
        gold=0,
        upgrade_cost=rules.upgrade_base_cost(2) if rules.tavern.max_tier > 1 else 0,
        health=rules.lobby.hero_health,
        ended=True,
    )
