"""What one player may know: their own tavern, the public standings, and the
other warbands as last seen in combat.

An :class:`Observation` only holds references to immutable values (the
player's :class:`PlayerState`, a standings tuple, last-seen boards), so making
one costs a few attribute reads.
"""

from __future__ import annotations

from dataclasses import dataclass

from bgsim._core.hero_state import HeroState
from bgsim._core.minions import INFO, HandCard, MinionCard
from bgsim._core.player_state import PlayerState
from bgsim._core.pool import starting_copies
from bgsim._core.tavern import attack_aura
from bgsim.ruleset import Ruleset
from combat_c import Board


@dataclass(frozen=True, slots=True)
class PlayerInfo:
    """Public facts about one player: health, tavern tier, whether they are
    still in the game, and their final placement once they are out.

    With heroes, every player's hero and hero power are public, and so is the
    counter on the power's card (``counter``: its name and value) where the
    game shows one.

    >>> from bgsim import Lobby
    >>> info = Lobby(seed=1).observe(0).players[3]
    >>> info.player, info.health, info.tier, info.alive, info.placement, info.hero
    (3, 40, 1, True, None, None)
    """

    player: int
    health: int
    tier: int
    alive: bool
    placement: int | None
    hero: str | None = None
    hero_power: str | None = None
    counter: tuple[str, int] | None = None


@dataclass(frozen=True, slots=True)
class SeenBoard:
    """A warband as the observer saw it in combat on ``turn`` (the board as
    ``combat_c`` takes it: displayed stats, keywords, golden flags).

    >>> from bgsim import Lobby, EndTurn
    >>> lobby = Lobby(seed=1)
    >>> while lobby.turn == 1:
    ...     lobby.apply(lobby.to_act()[0], EndTurn())
    >>> seen = lobby.observe(0).seen
    >>> [s.turn for s in seen if s is not None]
    [1]
    """

    turn: int
    board: Board

    @property
    def spec(self) -> dict:
        """The board as a DESIGN.md board spec (displayed stats)."""
        return self.board.to_spec()


@dataclass(frozen=True, slots=True)
class Observation:
    """Everything one player may know, and nothing more: what an agent gets.

    - ``player``: the observer's seat (0-based); ``turn``: the turn (1, 2, ...).
    - ``state``: the observer's own :class:`PlayerState`: gold, tier, upgrade
      cost, health, shop (with frozen flags), hand, warband, a pending Discover.
    - ``players``: every player's public :class:`PlayerInfo`.
    - ``seen``: per player, their warband as last seen in combat
      (:class:`SeenBoard`, None if never fought).
    - ``tribes``: the lobby's five minion types; ``last_opponent``: the seat
      fought last round (None before the first); ``rules``: the ruleset.
    - ``next_opponent``: the seat the observer fights this round, shown
      during the recruit phase as the game's scoreboard shows it (None in
      the heroes' draft and once the game is over).

    With heroes (``Lobby(seed, heroes=True)``, the command line's and the
    environments' default) the game opens with the draft, turn 0: the legal
    actions are ``ChooseHero(i)``, one per hero id in :attr:`hero_offers`,
    and choosing is the player's whole turn. From turn 1 :attr:`hero` holds
    the hero and its power (``HeroPower`` actions use it). Sir Finley's and
    The Great Akazamzarak's powers offer ``ChooseHero`` options again (hero
    powers, Secrets) in :attr:`hero_offers`.

    >>> from bgsim import Lobby
    >>> obs = Lobby(seed=1).observe(0)
    >>> obs.turn, obs.gold, obs.tier, len(obs.shop), obs.hand
    (1, 3, 1, 3, ())
    """

    player: int
    turn: int
    state: PlayerState
    players: tuple[PlayerInfo, ...]
    seen: tuple[SeenBoard | None, ...]  # per player: their warband when last fought
    tribes: tuple[str, ...]
    last_opponent: int | None
    rules: Ruleset
    next_opponent: int | None = None

    @property
    def shop(self) -> tuple[MinionCard, ...]:
        return self.state.shop

    @property
    def shop_frozen(self) -> tuple[bool, ...]:
        return self.state.shop_frozen

    @property
    def frozen(self) -> bool:
        return self.state.frozen

    @property
    def hand(self) -> tuple[HandCard, ...]:
        return self.state.hand

    @property
    def board(self) -> tuple[MinionCard, ...]:
        """Own warband with base stats (see :meth:`displayed` for auras)."""
        return self.state.board

    @property
    def gold(self) -> int:
        return self.state.gold

    @property
    def tier(self) -> int:
        return self.state.tier

    @property
    def upgrade_cost(self) -> int:
        return self.state.upgrade_cost

    @property
    def health(self) -> int:
        return self.state.health

    @property
    def hero(self) -> HeroState | None:
        """The observer's hero and hero power (None before the draft and in
        a hero-less lobby).

        >>> from bgsim import Lobby, ChooseHero
        >>> lobby = Lobby(seed=1, heroes=True)
        >>> lobby.observe(0).hero is None
        True
        >>> lobby.apply(0, ChooseHero(0))
        >>> lobby.observe(0).hero.hero.startswith("TB_BaconShop_HERO")
        True
        """
        return self.state.hero

    @property
    def hero_offers(self) -> tuple[str, ...]:
        """The card ids on offer to a ``ChooseHero`` action: the heroes of
        the draft (turn 0), or what Sir Finley's or The Great Akazamzarak's
        power discovers; empty otherwise.

        >>> import bgsim
        >>> obs = bgsim.Lobby(seed=1, heroes=True).observe(0)
        >>> obs.turn, len(obs.hero_offers)
        (0, 2)
        >>> [bgsim.cards()[h].type for h in obs.hero_offers]
        ['hero', 'hero']
        """
        return self.state.hero_offers

    @property
    def discover(self) -> tuple[HandCard, ...]:
        """Options of the pending Discover (empty if none)."""
        return self.state.discover

    def warband(self) -> Board:
        """Own warband as ``combat_c`` fights it (see :meth:`PlayerState.warband`)."""
        return self.state.warband()

    def displayed(self) -> list[tuple[int, int]]:
        """Own warband's (attack, health) as shown, aura bonuses included
        (Deathwing's +2 Attack too).

        >>> from bgsim import Lobby
        >>> Lobby(seed=1).observe(0).displayed()
        []
        """
        return self.state.warband().displayed()  # the warband carries its hero's aura

    def displayed_shop(self) -> list[tuple[int, int]]:
        """Bob's Tavern's minions' (attack, health) as shown to the observer
        (Deathwing's +2 Attack included).

        >>> from bgsim import Lobby
        >>> len(Lobby(seed=1).observe(0).displayed_shop())
        3
        """
        bonus = attack_aura(self.state)
        return [(m.attack + bonus, m.health) for m in self.state.shop]

    def known_gone(self) -> dict[str, int]:
        """Copies per pool card the observer knows are out of the pool: its
        own (shop, hand, warband, Discover offer) and those on the warbands
        it has seen (a golden minion holds three).

        >>> from bgsim import Lobby
        >>> sum(Lobby(seed=1).observe(0).known_gone().values())  # the shop's three
        3
        """
        gone: dict[str, int] = {}
        for card in self.state.pool_copies():
            gone[card] = gone.get(card, 0) + 1
        for seen in self.seen:
            if seen is None:
                continue
            for m in seen.board.minions:
                if INFO[m.card].in_pool:
                    gone[m.card] = gone.get(m.card, 0) + (3 if m.golden else 1)
        return gone

    def pool_estimate(self) -> dict[str, int]:
        """The shared pool as far as the observer can tell: the lobby's
        starting copies per card minus :meth:`known_gone`.

        >>> from bgsim import Lobby, cards
        >>> estimate = Lobby(seed=1).observe(0).pool_estimate()
        >>> estimate[cards().by_name("Alleycat").id] <= 16
        True
        """
        copies = starting_copies(self.tribes, self.rules)
        for card, n in self.known_gone().items():
            if card in copies:
                copies[card] = max(0, copies[card] - n)
        return copies
