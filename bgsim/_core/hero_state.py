"""A player's hero in the recruit phase: an immutable value in the player's state.

The hero power's behaviour lives in the registry (``bgsim._core.hero_powers``);
what it remembers between actions lives here: how often it was used this turn,
whether a once-per-game power is spent, cost reductions, one counter and
anything else its entry keeps in ``extra``.
"""

from __future__ import annotations

from dataclasses import dataclass

from bgsim._core.minions import MinionCard


@dataclass(frozen=True, slots=True)
class Prizes:
    """What the Darkmoon Prizes a player cast keep doing (Tickatus's), kept
    with the hero so that it outlives a change of hero power (Training
    Session): every field counts the Prizes of one kind cast so far, or
    this turn's uses where it says.

    ``good_stuff``: minions in Bob's Tavern have +1 Health each (The Good
    Stuff); ``recruits``: Bob's Tavern holds one more minion each (New
    Recruit); ``discount``: minions in Bob's Tavern cost 1 less each (Friends
    and Family Discount); ``open_bar``: the first 5 Refreshes each turn are
    free (Open Bar) and ``refreshes`` counts this turn's; ``great_deals``:
    the upgrade costs 2 less at the end of each turn each (Great Deal);
    ``coins``: The Unlimited Coins cast this turn, which come back at its
    end; ``brann``: Battlecries trigger twice this turn (Brann's Blessing);
    ``ice_blocks``: Ice Block Secrets waiting for fatal damage.

    >>> Prizes().changed(recruits=1).recruits
    1
    """

    good_stuff: int = 0
    recruits: int = 0
    discount: int = 0
    open_bar: bool = False
    refreshes: int = 0
    great_deals: int = 0
    coins: int = 0
    brann: bool = False
    ice_blocks: int = 0

    def __reduce__(self) -> tuple:
        # A compiled frozen class unpickles through its __init__.
        return (
            Prizes,
            (
                self.good_stuff,
                self.recruits,
                self.discount,
                self.open_bar,
                self.refreshes,
                self.great_deals,
                self.coins,
                self.brann,
                self.ice_blocks,
            ),
        )

    def changed(
        self,
        good_stuff: int | None = None,
        recruits: int | None = None,
        discount: int | None = None,
        open_bar: bool | None = None,
        refreshes: int | None = None,
        great_deals: int | None = None,
        coins: int | None = None,
        brann: bool | None = None,
        ice_blocks: int | None = None,
    ) -> Prizes:
        """These Prizes with some fields changed."""
        return Prizes(
            self.good_stuff if good_stuff is None else good_stuff,
            self.recruits if recruits is None else recruits,
            self.discount if discount is None else discount,
            self.open_bar if open_bar is None else open_bar,
            self.refreshes if refreshes is None else refreshes,
            self.great_deals if great_deals is None else great_deals,
            self.coins if coins is None else coins,
            self.brann if brann is None else brann,
            self.ice_blocks if ice_blocks is None else ice_blocks,
        )


@dataclass(frozen=True, slots=True)
class HeroState:
    """The hero a player drafted and the state of its hero power.

    ``power`` is the hero power's card id (Sir Finley's becomes the one he
    discovers); ``uses`` counts this turn's uses, ``spent`` marks a used
    once-per-game power, ``discount`` lowers the power's cost (Patches),
    ``counter`` is the power's counter (Captain Eudora's digs left, Ragnaros's
    kills to go...: its registry entry says what it counts and whether other
    players see it) and ``extra`` holds what else the power keeps (Maiev's
    Dormant minions, The Great Akazamzarak's Secrets...). A minion the power
    holds in ``extra`` (directly, or inside a tuple there) is the player's:
    its pool copies count as held (:meth:`pool_copies`). ``prizes`` is what
    the Darkmoon Prizes cast so far keep doing (None if none was cast).

    >>> from bgsim import Lobby
    >>> HeroState("TB_BaconShop_HERO_64", "TB_BaconShop_HP_074", counter=5).counter
    5
    """

    hero: str
    power: str
    uses: int = 0
    spent: bool = False
    discount: int = 0
    counter: int = 0
    extra: tuple = ()
    prizes: Prizes | None = None

    def __reduce__(self) -> tuple:
        # A compiled frozen class unpickles through its __init__.
        return (
            HeroState,
            (
                self.hero,
                self.power,
                self.uses,
                self.spent,
                self.discount,
                self.counter,
                self.extra,
                self.prizes,
            ),
        )

    def changed(
        self,
        uses: int | None = None,
        spent: bool | None = None,
        discount: int | None = None,
        counter: int | None = None,
        extra: tuple | None = None,
        power: str | None = None,
        prizes: Prizes | None = None,
    ) -> HeroState:
        """This hero state with some fields changed.

        >>> HeroState("TB_BaconShop_HERO_64", "TB_BaconShop_HP_074").changed(counter=4).counter
        4
        """
        return HeroState(
            self.hero,
            self.power if power is None else power,
            self.uses if uses is None else uses,
            self.spent if spent is None else spent,
            self.discount if discount is None else discount,
            self.counter if counter is None else counter,
            self.extra if extra is None else extra,
            self.prizes if prizes is None else prizes,
        )

    def pool_copies(self) -> list[str]:
        """The pool copies of the minions the power holds in ``extra``.

        >>> from bgsim.rules import make_minion
        >>> held = make_minion("BOT_606", from_pool=True)
        >>> maiev = HeroState("TB_BaconShop_HERO_62", "TB_BaconShop_HP_068", extra=((held, 7),))
        >>> maiev.pool_copies()
        ['BOT_606']
        """
        out: list[str] = []
        for item in self.extra:
            if isinstance(item, MinionCard):
                out.extend(item.pool_copies)
            elif isinstance(item, tuple):
                for part in item:
                    if isinstance(part, MinionCard):
                        out.extend(part.pool_copies)
        return out
