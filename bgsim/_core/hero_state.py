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
    its pool copies count as held (:meth:`pool_copies`).

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

    def changed(
        self,
        uses: int | None = None,
        spent: bool | None = None,
        discount: int | None = None,
        counter: int | None = None,
        extra: tuple | None = None,
        power: str | None = None,
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
