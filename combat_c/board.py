"""Boards: the DESIGN.md board spec and its parsed, validated form.

A spec lists minions with the stats a player reads off the screen, aura bonuses
of their own board included. The parsed :class:`Board` keeps base stats (auras
taken out) so the engine can let auras follow the board as it changes.

A side may name its hero (``hero``, a hero card id), the hero power it has
when that is not the hero's own (``hero_power``: Sir Finley's Discover), whether
an activated power fires in this fight (``hero_power_armed``: Y'Shaarj,
Arch-Villain Rafaam) and its Secrets in play (``secrets``, in the order they
came into play). Deathwing's +2 Attack is part of his own minions' figures,
like his board's other auras; the engine adds it to the opponent's minions
as the fight starts.

Old Murk-Eye shows +1 Attack (+2 golden) for every other Murloc on both boards,
so a spec's figure for it includes that bonus too. It depends on the opponent:
a parsed board keeps the figure and remembers that it includes the bonus
(``Board.shown_murk_eye``), and ``simulate``/``resolve``, which know both
boards, take the bonus off before the engine adds it back. Boards that the
lobby builds itself (:meth:`Board.trusted`) carry Murk-Eye without the bonus.
"""

from __future__ import annotations

import difflib
import numbers
import operator
import re
import struct
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, partial
from pathlib import Path
from typing import Any, TypeVar, cast

from combat_c._lib import (
    CARD_IDS,
    CARDS,
    HERO_POWERS,
    HEROES,
    KEYWORD_BITS,
    SECRET_CODES,
    SECRET_NAMES,
    CardEntry,
    ffi,
    lib,
)
from combat_c.guarded import InputError, loads, read_json
from combat_c.guarded import shown as _shown

MAX_MINIONS = 7
MAX_STAT = 1_000_000_000
# The game sets no limit on Magnetic attachments or Living Spores. The engine
# takes the first four Menaces and four Spores: their deathrattles summon three
# Microbots or two Plants each, so four fill any board and the rest could
# summon nothing (see BG_MAX_MAGNETS in api.h).
ENGINE_MAGNETS = lib.BG_MAX_MAGNETS
OLD_MURK_EYE = "EX1_062"
AMALGADON = "BGS_069"  # the one minion with Living Spores (from its Adapt)
MAGNETIC_CARDS = ("BOT_312", "BOT_911")  # Replicating Menace, Annoy-o-Module
KEYWORDS = ("taunt", "divine_shield", "poisonous", "windfury", "mega_windfury", "reborn")
_MINION_KEYS = {"card", "attack", "health", "golden", "magnetic", "living_spores", *KEYWORDS}
_BOARD_KEYS = {"tier", "health", "minions", "hero", "hero_power", "hero_power_armed", "secrets"}

# Hero powers with a part in combat, by card id (api.h BG_HERO_*).
COMBAT_POWERS: dict[str, int] = {
    "TB_BaconShop_HP_086": lib.BG_HERO_ALAKIR,  # Al'Akir: Swatting Insects
    "TB_BaconShop_HP_069": lib.BG_HERO_ILLIDAN,  # Illidan Stormrage: Wingmen
    "TB_BaconShop_HP_061": lib.BG_HERO_DEATHWING,  # Deathwing: ALL Will Burn!
    "TB_BaconShop_HP_107": lib.BG_HERO_GREYBOUGH,  # Greybough: Sprout It Out!
    "TB_BaconShop_HP_103": lib.BG_HERO_YSHAARJ,  # Y'Shaarj: Embrace Your Rage
    "TB_BaconShop_HP_053": lib.BG_HERO_RAFAAM,  # Arch-Villain Rafaam: I'll Take That!
}
# Activated powers whose combat part fires only when used for this fight.
ARMED_POWERS = frozenset({"TB_BaconShop_HP_103", "TB_BaconShop_HP_053"})
POWER_OF_CODE = {code: power for power, code in COMBAT_POWERS.items()}
SECRETS: dict[str, int] = {card: code for code, card in enumerate(SECRET_CODES) if card}
_HERO_NAMES = {card: entry.name for card, entry in HEROES.items()}
MAX_SECRETS = lib.BG_MAX_SECRETS
PRESTIDIGITATION = "TB_BaconShop_HP_020"  # The Great Akazamzarak: Discover a Secret
PRIZE_WALL = "TB_BaconShop_HP_106"  # Tickatus: Darkmoon Prizes, Ice Block among them
ICE_BLOCK = "TB_Bacon_Secrets_12"
# Heroes that can hold Darkmoon Prizes whatever their power: Tickatus (his
# Prizes outlive a Training Session) and Sir Finley (he may Discover Prize Wall).
PRIZE_HEROES = frozenset({"TB_BaconShop_HERO_94", "TB_BaconShop_HERO_40"})
# The heroes who can hold another hero's power: Sir Finley (his Adventure!
# Discovers one) and Tickatus (a Darkmoon Prize, Training Session, swaps his).
FOREIGN_POWER_HEROES = PRIZE_HEROES
# Powers whose holder fights differently: with a combat part, or Secrets.
_FIGHTING_POWERS = frozenset(COMBAT_POWERS) | {PRESTIDIGITATION, PRIZE_WALL}


class BoardSpecError(ValueError):
    """A board spec or parsed board that the engine must not see.

    ``field`` names the offending part, e.g. ``minions[2].attack``.
    """

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"{field}: {problem}" if field else problem)
        self.field = field
        self.problem = problem


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _not_int(value: object) -> str:
    """What a spec's integer field says of a value that is not an int."""
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return f"must be a Python int (int(x) converts it), got {_shown(value, 60)}"
    return f"must be an integer, got {_shown(value, 60)}"


def card_index(card_id: object, where: str) -> tuple[int, bool]:
    """(engine index, golden) of a card id; golden ids imply golden."""
    if not isinstance(card_id, str):
        raise BoardSpecError(where, f"card id must be a string, got {_shown(card_id, 60)}")
    try:
        index, golden = CARD_IDS[card_id]
    except KeyError:
        raise BoardSpecError(where, f"unknown card id {_shown(card_id, 60)}") from None
    if CARDS[index].is_spell:
        raise BoardSpecError(where, f"{card_id} is not a minion")
    return index, golden


def may_hold(hero: str, power: str, secret: str) -> bool:
    """Whether a hero with this power can have this Secret in play: any of
    them with Prestidigitation (The Great Akazamzarak's power, which Sir Finley
    may Discover); Ice Block, a Darkmoon Prize too, with Prize Wall or on a
    hero that can hold Prizes whatever his power (Tickatus, Sir Finley).

    >>> may_hold("TB_BaconShop_HERO_94", "TB_BaconShop_HP_106", "TB_Bacon_Secrets_12")
    True
    """
    if power == PRESTIDIGITATION:
        return True
    return secret == ICE_BLOCK and (power == PRIZE_WALL or hero in PRIZE_HEROES)


def check_hero(
    hero: object, hero_power: object, armed: object, secrets: tuple[object, ...]
) -> str | None:
    """Check a side's hero fields; returns its hero power (the hero's own
    when ``hero_power`` is None), None without a hero. Raises
    :class:`BoardSpecError` naming the field."""
    if not isinstance(armed, bool):
        raise BoardSpecError("hero_power_armed", f"must be true or false, got {_shown(armed, 60)}")
    if hero is None:
        if hero_power is not None:
            raise BoardSpecError("hero_power", "a hero power needs a hero")
        if armed:
            raise BoardSpecError("hero_power_armed", "an armed hero power needs a hero")
        if secrets:
            raise BoardSpecError("secrets", "Secrets need a hero that can have them")
        return None
    if not isinstance(hero, str) or hero not in HEROES:
        raise BoardSpecError("hero", f"unknown hero {_shown(hero, 60)}")
    entry = HEROES[hero]
    power = entry.power if hero_power is None else hero_power
    if not isinstance(power, str) or power not in HERO_POWERS:
        raise BoardSpecError("hero_power", f"unknown hero power {_shown(power, 60)}")
    if (
        power != entry.power
        and hero not in FOREIGN_POWER_HEROES
        and (power in _FIGHTING_POWERS or entry.power in _FIGHTING_POWERS)
    ):
        # Other heroes' powers change at this patch only within their own
        # line (Sulfuras, Aranna's, the Rat King's).
        raise BoardSpecError(
            "hero_power",
            f"{entry.name} cannot hold {HERO_POWERS[power]} ({power}): only Sir Finley "
            "Mrrgglton and Tickatus (Training Session) hold another hero's power "
            "(leave hero_power out for the hero's own)",
        )
    if armed and power not in ARMED_POWERS:
        raise BoardSpecError(
            "hero_power_armed",
            f"{HERO_POWERS[power]} ({power}) is not a power used for the next combat "
            "(only Y'Shaarj's and Arch-Villain Rafaam's are)",
        )
    if len(secrets) > MAX_SECRETS:
        raise BoardSpecError("secrets", f"at most {MAX_SECRETS} in play, got {len(secrets)}")
    for k, secret in enumerate(secrets):
        where = f"secrets[{k}]"
        if not isinstance(secret, str) or secret not in SECRETS:
            raise BoardSpecError(where, f"unknown Secret {_shown(secret, 60)}")
        if secret in secrets[:k]:
            raise BoardSpecError(
                where, f"{SECRET_NAMES[secret]} is in play twice (one copy at a time)"
            )
        if not may_hold(hero, power, secret):
            raise BoardSpecError(
                where,
                f"{entry.name} with {HERO_POWERS[power]} cannot have {SECRET_NAMES[secret]}",
            )
    return power


def named_id(value: object, names: Mapping[str, str], what: str, where: str) -> object:
    """A spec's hero, hero power or Secret: an id (``names``' keys) as it is,
    or the name of one in any case (``"Deathwing"``, ``"ice block"``); any
    other value is left for the checks to refuse.

    >>> named_id("Ice Block", SECRET_NAMES, "Secret", "secrets[0]")
    'TB_Bacon_Secrets_12'
    >>> named_id("Ice Blok", SECRET_NAMES, "Secret", "secrets[0]")
    Traceback (most recent call last):
    ...
    combat_c.board.BoardSpecError: secrets[0]: unknown Secret 'Ice Blok'; did you mean Ice Block? \
(a name or an id, as bgsim heroes lists them)
    """
    if not isinstance(value, str) or value in names:
        return value
    folded = _fold(value)
    ids = [key for key, name in names.items() if _fold(name) == folded]
    if len(ids) == 1:
        return ids[0]
    if ids:
        raise BoardSpecError(
            where, f"{_shown(value, 60)} names {len(ids)} {what}s ({', '.join(ids)}); give the id"
        )
    shown_names = {_fold(name): name for name in names.values()}
    close = difflib.get_close_matches(folded, list(shown_names), n=3, cutoff=0.75)
    hint = f"; did you mean {', '.join(shown_names[c] for c in close)}?" if close else ""
    raise BoardSpecError(
        where,
        f"unknown {what} {_shown(value, 60)}{hint} (a name or an id, as bgsim heroes lists them)",
    )


def name_index(entries: Iterable[CardEntry]) -> dict[str, tuple[str, ...]]:
    """Minion names, folded to lower case and single spaces, to the ids of
    the cards that bear them (several when cards share a name); spells are
    left out.

    >>> name_index(CARDS)["kaboom bot"]
    ('BOT_606',)
    """
    out: dict[str, tuple[str, ...]] = {}
    for entry in entries:
        if not entry.is_spell:
            key = _fold(entry.name)
            out[key] = (*out.get(key, ()), entry.id)
    return out


def _fold(name: str) -> str:
    return " ".join(name.split()).casefold()


GOLDEN_SUFFIX = " (golden)"  # how bgsim's outputs name a golden minion


@cache
def _names() -> dict[str, tuple[str, ...]]:
    return name_index(CARDS)


def card_id_of(card: object, where: str, names: Mapping[str, tuple[str, ...]] | None = None) -> str:
    """The card id a spec's ``card`` stands for: a card id as it is, or the
    name of a pool minion or token (any case), e.g. ``"Kaboom Bot"``. A name
    that several cards share, or no card has, is a :class:`BoardSpecError`
    that lists the ids, or the names it is close to.

    >>> card_id_of("Kaboom Bot", "card"), card_id_of("BOT_606", "card")
    ('BOT_606', 'BOT_606')
    >>> card_id_of("Kabom Bot", "minions[0].card")
    Traceback (most recent call last):
    ...
    combat_c.board.BoardSpecError: minions[0].card: unknown card 'Kabom Bot' (neither a card id \
nor the name of a minion); did you mean Kaboom Bot?
    """
    if not isinstance(card, str) or card in CARD_IDS:
        return cast(str, card)  # card_index checks it
    index = _names() if names is None else names
    folded = _fold(card)
    found = index.get(folded)
    if found is None:
        # The leading words of one name only ("Goldrinn", "Nat Pagle") stand for it.
        starts = [n for n in index if n.startswith((folded + " ", folded + ","))]
        if len(starts) == 1:
            found = index[starts[0]]
    if found is None:
        names_shown = {_fold(e.name): e.name for e in CARDS if not e.is_spell}
        words = [n for n in index if re.search(rf"\b{re.escape(folded)}", n)]
        close = (starts or words)[:3] or difflib.get_close_matches(
            folded, list(index), n=3, cutoff=0.75
        )
        hint = f"; did you mean {', '.join(names_shown.get(c, c) for c in close)}?" if close else ""
        raise BoardSpecError(
            where,
            f"unknown card {_shown(card, 60)} (neither a card id nor the name of a minion){hint}",
        )
    if len(found) > 1:
        raise BoardSpecError(
            where,
            f"{_shown(card, 60)} is the name of {len(found)} cards ({', '.join(found)}); "
            "give the id",
        )
    return found[0]


@dataclass(frozen=True, slots=True)
class Minion:
    """A minion with BASE stats (no aura). ``card`` is the normal card id."""

    card: str
    attack: int
    health: int
    golden: bool = False
    taunt: bool = False
    divine_shield: bool = False
    poisonous: bool = False
    windfury: bool = False
    mega_windfury: bool = False
    reborn: bool = False
    magnetic: tuple[str, ...] = ()
    living_spores: int = 0
    # The engine's bg_minion_in for this minion, packed once (see _pack).
    _packed: bytes | None = field(default=None, init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        index, golden = card_index(self.card, "card")
        if golden:
            raise BoardSpecError("card", f"use the normal id with golden=True, not {self.card}")
        if self.golden and CARDS[index].golden_id is None:
            raise BoardSpecError("golden", f"{_named(self.card)} has no golden version")
        for name in ("attack", "health"):
            value = getattr(self, name)
            if not _is_int(value):
                raise BoardSpecError(name, _not_int(value))
        if not 0 <= self.attack <= MAX_STAT:
            raise BoardSpecError("attack", f"must be 0..{MAX_STAT}, got {_shown(self.attack)}")
        if not 1 <= self.health <= MAX_STAT:
            raise BoardSpecError("health", f"must be 1..{MAX_STAT}, got {_shown(self.health)}")
        for name in ("golden", *KEYWORDS):
            if not isinstance(getattr(self, name), bool):
                raise BoardSpecError(
                    name, f"must be true or false, got {_shown(getattr(self, name), 60)}"
                )
        if not isinstance(self.magnetic, tuple):
            raise BoardSpecError(
                "magnetic", f"must be a tuple of card ids, got {_shown(self.magnetic, 60)}"
            )
        for k, magnet in enumerate(self.magnetic):
            m_index, _ = card_index(magnet, f"magnetic[{k}]")
            if CARDS[m_index].id not in MAGNETIC_CARDS:
                raise BoardSpecError(f"magnetic[{k}]", f"{magnet} is not a Magnetic card")
        if "mech" not in CARDS[index].tribes and self.magnetic:
            raise BoardSpecError("magnetic", f"{_named(self.card)} is not a Mech")
        if not _is_int(self.living_spores):
            raise BoardSpecError("living_spores", _not_int(self.living_spores))
        if not 0 <= self.living_spores <= MAX_STAT:
            raise BoardSpecError(
                "living_spores", f"must be 0..{MAX_STAT}, got {_shown(self.living_spores)}"
            )

    @classmethod
    def of(cls, card: str, golden: bool = False, **changes: Any) -> Minion:
        """A fresh minion of this card (golden id or ``golden=True``) with its own
        stats and keywords; ``changes`` override any field. ``card`` may be
        a minion's name.

        >>> Minion.of("Kaboom Bot", golden=True).attack
        4
        """
        index, is_golden = card_index(card_id_of(card, "card"), "card")
        entry = CARDS[index]
        golden = golden or is_golden
        attack, health = entry.stats(golden)
        bits = entry.keyword_bits(golden)
        values: dict[str, Any] = {k: bool(bits & KEYWORD_BITS[k]) for k in KEYWORDS}
        values.update(attack=attack, health=health)
        values.update(changes)
        m = cls(card=entry.id, golden=golden, **values)
        _minion_bytes(m)  # packed now, so its with_stats copies start packed
        return m

    @classmethod
    def trusted(
        cls,
        card: str,
        attack: int,
        health: int,
        golden: bool,
        taunt: bool,
        divine_shield: bool,
        poisonous: bool,
        windfury: bool,
        mega_windfury: bool,
        reborn: bool,
        magnetic: tuple[str, ...],
        living_spores: int,
        packed: bytes | None = None,
    ) -> Minion:
        """A minion from values the caller already keeps valid (the recruit
        engine's own minions), built without the checks, which cost more
        than a fight: searches build thousands. The engine still checks every
        board it is given (``bg_check_board``), so nothing invalid reaches it.
        ``packed`` is its ``bg_minion_in`` when the caller has it."""
        m = _Unguarded()
        m.card = card
        m.attack = attack
        m.health = health
        m.golden = golden
        m.taunt = taunt
        m.divine_shield = divine_shield
        m.poisonous = poisonous
        m.windfury = windfury
        m.mega_windfury = mega_windfury
        m.reborn = reborn
        m.magnetic = magnetic
        m.living_spores = living_spores
        m._packed = packed
        return _unchecked(cls, m)

    def with_stats(self, attack: int, health: int) -> Minion:
        """This minion with other base stats (clamped to the legal range). Only
        the stats are checked again, which keeps searches that build many
        boards cheap.

        >>> m = Minion.of("CFM_315").with_stats(5, -3)  # Health below 1 is 1
        >>> m.attack, m.health
        (5, 1)
        """
        try:
            attack = min(max(operator.index(attack), 0), MAX_STAT)
            health = min(max(operator.index(health), 1), MAX_STAT)
        except TypeError:
            raise TypeError(
                f"stats must be integers, got attack {_shown(attack, 30)} "
                f"and health {_shown(health, 30)}"
            ) from None
        data = self._packed
        if data is not None:
            data = data[:_STATS_AT] + _STATS.pack(attack, health) + data[_STATS_END:]
        return Minion.trusted(
            self.card,
            attack,
            health,
            self.golden,
            self.taunt,
            self.divine_shield,
            self.poisonous,
            self.windfury,
            self.mega_windfury,
            self.reborn,
            self.magnetic,
            self.living_spores,
            data,
        )

    @property
    def name(self) -> str:
        return CARDS[CARD_IDS[self.card][0]].name

    @property
    def tier(self) -> int:
        return CARDS[CARD_IDS[self.card][0]].tier

    @property
    def tribes(self) -> frozenset[str]:
        return CARDS[CARD_IDS[self.card][0]].tribes

    @property
    def card_id(self) -> str:
        """The id as the game shows it: the golden id for a golden minion."""
        entry = CARDS[CARD_IDS[self.card][0]]
        return entry.golden_id if self.golden and entry.golden_id else entry.id


class _Unguarded:
    """:class:`Minion`'s memory layout without the frozen guard: filled and
    relabelled by :meth:`Minion.trusted`, several times faster than setting a
    frozen instance's fields (belief guesses make many)."""

    __slots__ = Minion.__slots__
    card: str
    attack: int
    health: int
    golden: bool
    taunt: bool
    divine_shield: bool
    poisonous: bool
    windfury: bool
    mega_windfury: bool
    reborn: bool
    magnetic: tuple[str, ...]
    living_spores: int
    _packed: bytes | None


_T = TypeVar("_T")


def _listed(value: object, name: str, what: str) -> tuple:
    """A board's list field as a tuple; text is refused whole rather than
    read as a list of its characters."""
    if isinstance(value, tuple):
        return value
    if isinstance(value, str | bytes | Mapping) or not isinstance(value, Iterable):
        raise BoardSpecError(name, f"must be a list of {what}, got {_shown(value, 60)}")
    return tuple(value)


def _check_board(board: object, name: str) -> None:
    if not isinstance(board, Board):
        raise TypeError(f"{name} must be a Board, got {_shown(board, 60)}")


def _unchecked(cls: type[_T], twin: object) -> _T:
    """The one unchecked constructor: ``twin``, a slotted twin of ``cls`` the
    caller filled with values it keeps valid, relabelled as a ``cls`` past its
    checks and its frozen guard. :meth:`Minion.trusted` and
    :meth:`Board.trusted` build through it; the engine still checks every
    board it is given."""
    twin.__class__ = cls
    return cast(_T, twin)


@dataclass(frozen=True, slots=True)
class Board:
    """A warband for combat: tavern tier, hero health, minions left to right."""

    tier: int
    health: int
    minions: tuple[Minion, ...] = ()
    # Slots of Old Murk-Eyes whose attack, as a spec gave it, includes the
    # bonus for the Murlocs on both boards (see the module docstring).
    shown_murk_eye: tuple[int, ...] = ()
    # The side's hero card id (None: a fight without heroes), its hero power
    # (the hero's own when omitted), whether an activated power fires in this
    # fight, and its Secrets in play in the order they came.
    hero: str | None = None
    hero_power: str | None = None
    hero_power_armed: bool = False
    secrets: tuple[str, ...] = ()
    _packed: Any = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not _is_int(self.tier):
            raise BoardSpecError("tier", _not_int(self.tier))
        if not 1 <= self.tier <= 6:
            raise BoardSpecError("tier", f"must be 1..6, got {_shown(self.tier, 60)}")
        if not _is_int(self.health):
            raise BoardSpecError("health", _not_int(self.health))
        if not -MAX_STAT <= self.health <= MAX_STAT:
            raise BoardSpecError(
                "health",
                f"must be an integer {-MAX_STAT}..{MAX_STAT}, got {_shown(self.health, 60)}",
            )
        object.__setattr__(self, "minions", _listed(self.minions, "minions", "Minions"))
        if len(self.minions) > MAX_MINIONS:
            raise BoardSpecError("minions", f"at most {MAX_MINIONS}, got {len(self.minions)}")
        for i, m in enumerate(self.minions):
            if not isinstance(m, Minion):
                raise BoardSpecError(f"minions[{i}]", f"expected a Minion, got {_shown(m, 60)}")
        shown_slots = _listed(self.shown_murk_eye, "shown_murk_eye", "minion slots")
        object.__setattr__(self, "shown_murk_eye", shown_slots)
        for i in self.shown_murk_eye:
            if not (_is_int(i) and 0 <= i < len(self.minions)):
                raise BoardSpecError("shown_murk_eye", f"no minion at slot {_shown(i, 60)}")
            if self.minions[i].card != OLD_MURK_EYE:
                raise BoardSpecError("shown_murk_eye", f"minions[{i}] is not Old Murk-Eye")
        secrets = _listed(self.secrets, "secrets", "Secret card ids")
        object.__setattr__(self, "secrets", secrets)
        power = check_hero(self.hero, self.hero_power, self.hero_power_armed, self.secrets)
        object.__setattr__(self, "hero_power", power)

    @classmethod
    def trusted(
        cls,
        tier: int,
        health: int,
        minions: tuple[Minion, ...],
        hero: str | None = None,
        hero_power: str | None = None,
        hero_power_armed: bool = False,
        secrets: tuple[str, ...] = (),
    ) -> Board:
        """A board from values the caller already keeps valid (tier 1..6, at
        most seven :class:`Minion` objects; a known hero with its power, a
        Secret list it may hold), built without the checks, for searches; the
        engine still checks the packed board."""
        b = _UnguardedBoard()
        b.tier = tier
        b.health = health
        b.minions = minions
        b.shown_murk_eye = ()
        b.hero = hero
        b.hero_power = hero_power
        b.hero_power_armed = hero_power_armed
        b.secrets = secrets
        b._packed = None
        return _unchecked(cls, b)

    def __reduce__(self) -> tuple:
        # The fields only: the packed copy for the engine is per process.
        return (
            Board,
            (
                self.tier,
                self.health,
                self.minions,
                self.shown_murk_eye,
                self.hero,
                self.hero_power,
                self.hero_power_armed,
                self.secrets,
            ),
        )

    def with_hero(
        self,
        hero: str | None = None,
        hero_power: str | None = None,
        hero_power_armed: bool = False,
        secrets: tuple[str, ...] = (),
    ) -> Board:
        """This board with other hero fields (checked; ``with_hero()`` takes
        the hero away).

        >>> b = Board(2, 30).with_hero("TB_BaconShop_HERO_52")
        >>> b.hero_power, b.with_hero().hero
        ('TB_BaconShop_HP_061', None)
        """
        return Board(
            self.tier,
            self.health,
            self.minions,
            self.shown_murk_eye,
            hero,
            hero_power,
            hero_power_armed,
            secrets,
        )

    @property
    def hero_codes(self) -> tuple[int, int, tuple[int, ...]]:
        """What the engine is told of the hero: its power's combat code
        (``BG_HERO_*``), the armed flag and the Secrets' codes."""
        power = COMBAT_POWERS.get(self.hero_power or "", 0) if self.hero else 0
        return power, int(self.hero_power_armed), tuple(SECRETS[s] for s in self.secrets)

    @property
    def packed(self) -> Any:
        """The engine's ``bg_board_in`` for this board (built once)."""
        if self._packed is None:
            hero = self.hero_codes if self.hero is not None else None
            object.__setattr__(self, "_packed", _pack(self.tier, self.health, self.minions, hero))
        return self._packed

    def auras(self) -> list[tuple[int, int]]:
        """(attack, health) each minion gets from auras on this board."""
        return _auras(self.packed, len(self.minions))

    def displayed(self) -> list[tuple[int, int]]:
        """Stats as shown: base plus this board's auras."""
        return [
            (m.attack + a, m.health + h)
            for m, (a, h) in zip(self.minions, self.auras(), strict=True)
        ]

    def murk_eye_bonus(self, opponent: Board) -> list[int]:
        """The Attack each minion shows for Old Murk-Eye's count of the other
        Murlocs on this board and ``opponent`` as the fight starts (0 for
        every other minion).

        >>> Board(1, 40).murk_eye_bonus(Board(1, 40))
        []
        """
        _check_board(opponent, "opponent")
        murlocs = _murlocs(self) + _murlocs(opponent)
        return [
            (2 if m.golden else 1) * (murlocs - 1) if m.card == OLD_MURK_EYE else 0
            for m in self.minions
        ]

    def to_spec(self, opponent: Board | None = None) -> dict:
        """This board as a DESIGN.md board spec (displayed stats). Old
        Murk-Eye's figure includes its battlefield bonus when this board was
        parsed from a spec, or when ``opponent`` is given; without either it
        shows its Attack on this board alone, with no Murlocs counted.

        >>> Board(2, 30).to_spec()
        {'tier': 2, 'health': 30, 'minions': []}
        """
        if opponent is not None:
            _check_board(opponent, "opponent")
        out = []
        shown = self.displayed()
        if opponent is not None and not self.shown_murk_eye:
            bonus = self.murk_eye_bonus(opponent)
            shown = [(atk + extra, hp) for (atk, hp), extra in zip(shown, bonus, strict=True)]
        for m, (atk, hp) in zip(self.minions, shown, strict=True):
            spec: dict[str, Any] = {"card": m.card_id, "attack": atk, "health": hp}
            spec["golden"] = m.golden
            for k in KEYWORDS:
                spec[k] = getattr(m, k)
            spec["magnetic"] = list(m.magnetic)
            if m.living_spores:
                spec["living_spores"] = m.living_spores
            out.append(spec)
        board: dict[str, Any] = {"tier": self.tier, "health": self.health, "minions": out}
        if self.hero is not None:
            board["hero"] = self.hero
            if self.hero_power != HEROES[self.hero].power:
                board["hero_power"] = self.hero_power
            if self.hero_power_armed:
                board["hero_power_armed"] = True
            if self.secrets:
                board["secrets"] = list(self.secrets)
        return board

    @classmethod
    def from_spec(cls, spec: Mapping | str | Path) -> Board:
        return parse_board(spec)


def _murlocs(board: Board) -> int:
    return sum(1 for m in board.minions if "murloc" in CARDS[CARD_IDS[m.card][0]].tribes)


def fight_boards(a: Board, b: Board) -> tuple[Board, Board]:
    """The two boards as the engine takes them: an Old Murk-Eye whose spec
    figure includes its battlefield bonus loses it here, since the engine
    adds it when the fight starts."""
    if not (a.shown_murk_eye or b.shown_murk_eye):
        return a, b
    return _without_bonus(a, b, "a"), _without_bonus(b, a, "b")


def _without_bonus(board: Board, opponent: Board, name: str) -> Board:
    if not board.shown_murk_eye:
        return board
    bonus = board.murk_eye_bonus(opponent)
    minions = list(board.minions)
    for i in board.shown_murk_eye:
        m = minions[i]
        if m.attack < bonus[i]:
            raise BoardSpecError(
                f"minions[{i}].attack",
                f"board {name}'s Old Murk-Eye shows {m.attack} Attack, below the "
                f"+{bonus[i]} it has for the other Murlocs on the battlefield",
            )
        minions[i] = m.with_stats(m.attack - bonus[i], m.health)
    return Board(
        board.tier,
        board.health,
        tuple(minions),
        (),
        board.hero,
        board.hero_power,
        board.hero_power_armed,
        board.secrets,
    )


class _UnguardedBoard:
    """:class:`Board`'s memory layout without the frozen guard (see
    :meth:`Board.trusted`)."""

    __slots__ = Board.__slots__
    tier: int
    health: int
    minions: tuple[Minion, ...]
    shown_murk_eye: tuple[int, ...]
    hero: str | None
    hero_power: str | None
    hero_power_armed: bool
    secrets: tuple[str, ...]
    _packed: Any


def _minion_bytes(m: Minion) -> bytes:
    """``m`` as the engine's ``bg_minion_in``, packed once per minion (and
    passed on to its :meth:`~Minion.with_stats` copies with the new stats):
    boards in a search share most of their minions."""
    data = m._packed
    if data is None:
        menaces = [CARD_IDS[x] for x in m.magnetic if CARDS[CARD_IDS[x][0]].id == "BOT_312"]
        menaces = menaces[:ENGINE_MAGNETS]
        data = _MINION.pack(
            CARD_IDS[m.card][0],
            m.golden,
            sum(bit for k, bit in KEYWORD_BITS.items() if getattr(m, k)),
            m.attack,
            m.health,
            len(menaces),
            bytes(golden for _, golden in menaces),
            min(m.living_spores, ENGINE_MAGNETS),
        )
        object.__setattr__(m, "_packed", data)
    return data


# bg_minion_in, field by field (checked against the C layout below).
_MINION = struct.Struct(
    f"=HBBiiB{ENGINE_MAGNETS}sB{ffi.sizeof('bg_minion_in') - 14 - ENGINE_MAGNETS}x"
)
assert _MINION.size == ffi.sizeof("bg_minion_in")
assert [
    ffi.offsetof("bg_minion_in", f) for f in ("golden", "kw", "atk", "n_magnets", "spores")
] == [
    2,
    3,
    4,
    12,
    13 + ENGINE_MAGNETS,
]


_STATS = struct.Struct("=ii")
_STATS_AT = ffi.offsetof("bg_minion_in", "atk")
_STATS_END = ffi.offsetof("bg_minion_in", "hp") + 4
assert _STATS.size == _STATS_END - _STATS_AT


_HEADER = struct.Struct("=iii")
_MINIONS_AT = ffi.offsetof("bg_board_in", "m")


_BOARD_BYTES = ffi.sizeof("bg_board_in")


def _pack(
    tier: int,
    health: int,
    minions: Sequence[Minion],
    hero: tuple[int, int, tuple[int, ...]] | None = None,
) -> Any:
    """The engine's ``bg_board_in``, with the side's hero codes when it has
    a hero. Trusted boards skip the Python checks, so the sizes are checked
    here before anything is copied into C memory: no Python call can write
    past the struct."""
    if len(minions) > MAX_MINIONS:
        raise BoardSpecError("minions", f"at most {MAX_MINIONS}, got {len(minions)}")
    try:
        data = _HEADER.pack(tier, health, len(minions)).ljust(_MINIONS_AT, b"\0") + b"".join(
            [_minion_bytes(m) for m in minions]
        )
    except (struct.error, KeyError, AttributeError, TypeError) as exc:
        raise BoardSpecError("", f"cannot pack the board for the engine ({exc})") from None
    if len(data) != _MINIONS_AT + len(minions) * _MINION.size or len(data) > _BOARD_BYTES:
        raise BoardSpecError("", "cannot pack the board for the engine (a minion's bytes are off)")
    board = ffi.new("bg_board_in *")
    ffi.memmove(board, data, len(data))
    if hero is not None:
        board.hero, board.armed, codes = hero
        board.n_secrets = len(codes)
        for k, code in enumerate(codes[:MAX_SECRETS]):
            board.secret[k] = code
    err = lib.bg_check_board(board)
    if err:  # the Python checks above make this unreachable; keep C safe anyway
        raise BoardSpecError("", f"the engine rejected the board (code {err})")
    return board


def _auras(packed: Any, n: int) -> list[tuple[int, int]]:
    atk = ffi.new("int32_t[7]")
    hp = ffi.new("int32_t[7]")
    lib.bg_board_auras(packed, atk, hp)
    return [(atk[i], hp[i]) for i in range(n)]


def _load_json(spec: str | Path) -> Any:
    if isinstance(spec, Path) or (isinstance(spec, str) and not spec.lstrip().startswith("{")):
        reader: Any = read_json
    else:
        reader = partial(loads, where="board spec")
    try:
        return reader(spec)
    except InputError as exc:
        raise BoardSpecError("", str(exc)) from None


def _named(card_id: str) -> str:
    """A card as an error names it: its name and id."""
    return f"{CARDS[CARD_IDS[card_id][0]].name} ({card_id})" if card_id in CARD_IDS else card_id


def _unknown_field(name: str, known: Iterable[str]) -> str:
    close = difflib.get_close_matches(name, sorted(known), n=1, cutoff=0.75)
    return "unknown field" + (f"; did you mean {close[0]}?" if close else "")


def _key(name: str) -> str:
    """A field name as an error names it: as it is when it prints on one
    short line, else cut short like any echoed value."""
    return name if name.isprintable() and len(name) <= 60 else _shown(name, 60)


def _flag(raw: Mapping, key: str, default: bool, where: str) -> bool:
    value = raw.get(key, default)
    if not isinstance(value, bool):
        raise BoardSpecError(f"{where}.{key}", f"must be true or false, got {_shown(value, 60)}")
    return value


def _parse_minion(raw: Any, where: str) -> tuple[Minion, int | None, int | None]:
    if not isinstance(raw, Mapping):
        raise BoardSpecError(where, f"must be an object, got {_shown(raw, 60)}")
    for name in raw:
        if not isinstance(name, str):
            raise BoardSpecError(f"{where}.{_shown(name, 60)}", "a field name must be text")
    unknown = sorted(set(raw) - _MINION_KEYS)
    if unknown:
        problem = _unknown_field(unknown[0], _MINION_KEYS)
        raise BoardSpecError(f"{where}.{_key(unknown[0])}", problem)
    if "card" not in raw:
        raise BoardSpecError(f"{where}.card", "missing")
    card = raw["card"]
    named_golden = isinstance(card, str) and _fold(card).endswith(GOLDEN_SUFFIX)
    if named_golden:  # "Cave Hydra (golden)", as bgsim prints a golden minion
        card = card.rstrip()[: -len(GOLDEN_SUFFIX)]
    index, golden = card_index(card_id_of(card, f"{where}.card"), f"{where}.card")
    golden = golden or named_golden
    if golden and not _flag(raw, "golden", True, where):
        raise BoardSpecError(
            f"{where}.golden", f"false contradicts the golden card {_shown(raw['card'], 60)}"
        )
    golden = _flag(raw, "golden", golden, where)
    entry = CARDS[index]
    if golden and entry.golden_id is None:
        raise BoardSpecError(f"{where}.golden", f"{_named(entry.id)} has no golden version")
    bits = entry.keyword_bits(golden)
    kws = {k: _flag(raw, k, bool(bits & KEYWORD_BITS[k]), where) for k in KEYWORDS}
    if "windfury" in raw and not raw["windfury"] and "mega_windfury" not in raw:
        kws["mega_windfury"] = False
    if kws["mega_windfury"]:
        kws["windfury"] = False
    magnetic = raw.get("magnetic", [])
    if not isinstance(magnetic, list):
        raise BoardSpecError(
            f"{where}.magnetic", f"must be a list of card ids, got {_shown(magnetic, 60)}"
        )
    magnetic = [card_id_of(m, f"{where}.magnetic[{k}]") for k, m in enumerate(magnetic)]
    stats = {}
    for key in ("attack", "health"):
        value = raw.get(key)
        if value is not None and not _is_int(value):
            raise BoardSpecError(f"{where}.{key}", _not_int(value))
        stats[key] = value
    spores = raw.get("living_spores", 0)
    if _is_int(spores) and spores > 0 and entry.id != AMALGADON:
        raise BoardSpecError(
            f"{where}.living_spores", "only Amalgadon can have them (they come from its Adapt)"
        )
    default_atk, default_hp = entry.stats(golden)
    try:
        minion = Minion(
            card=entry.id,
            golden=golden,
            attack=default_atk,
            health=default_hp,
            magnetic=tuple(magnetic),
            living_spores=raw.get("living_spores", 0),
            **kws,
        )
    except BoardSpecError as exc:
        raise BoardSpecError(f"{where}.{exc.field}", exc.problem) from None
    return minion, stats["attack"], stats["health"]


def parse_board(spec: Mapping | str | Path) -> Board:
    """Validate a board spec (a dict, JSON text or a path) into a :class:`Board`.

    Raises :class:`BoardSpecError` naming the field on any problem.
    """
    if isinstance(spec, Board):
        return spec
    if isinstance(spec, str | Path):
        spec = _load_json(spec)
    if not isinstance(spec, Mapping):
        raise BoardSpecError("", f"a board spec must be an object, got {type(spec).__name__}")
    for name in spec:
        if not isinstance(name, str):
            raise BoardSpecError(_shown(name, 60), "a field name must be text")
    unknown = sorted(set(spec) - _BOARD_KEYS)
    if unknown:
        raise BoardSpecError(_key(unknown[0]), _unknown_field(unknown[0], _BOARD_KEYS))
    raw_minions = spec.get("minions", [])
    if not isinstance(raw_minions, list):
        raise BoardSpecError("minions", f"must be a list, got {_shown(raw_minions, 60)}")
    if len(raw_minions) > MAX_MINIONS:
        raise BoardSpecError("minions", f"at most {MAX_MINIONS}, got {len(raw_minions)}")
    if "tier" not in spec:
        raise BoardSpecError("tier", "missing")
    secrets = spec.get("secrets", [])
    if not isinstance(secrets, list):
        raise BoardSpecError(
            "secrets", f"must be a list of Secret card ids, got {_shown(secrets, 60)}"
        )
    hero = (
        named_id(spec.get("hero"), _HERO_NAMES, "hero", "hero"),
        named_id(spec.get("hero_power"), HERO_POWERS, "hero power", "hero_power"),
        spec.get("hero_power_armed", False),
    )
    secrets = [named_id(x, SECRET_NAMES, "Secret", f"secrets[{k}]") for k, x in enumerate(secrets)]
    power = check_hero(*hero, tuple(secrets))
    health = spec.get("health", 40)  # 0 or less: a knocked-out player's ghost
    parsed = [_parse_minion(m, f"minions[{i}]") for i, m in enumerate(raw_minions)]
    # Auras depend only on which cards are present, so the card defaults give them.
    shell = Board(
        spec["tier"],
        health,
        tuple(p[0] for p in parsed),
        (),
        cast(str | None, hero[0]),  # check_hero passed: an id or None
        power,
        hero[2],
        tuple(secrets),
    )
    minions = []
    shown = tuple(
        i for i, (m, atk, _) in enumerate(parsed) if m.card == OLD_MURK_EYE and atk is not None
    )
    for i, ((minion, atk, hp), (aura_atk, aura_hp)) in enumerate(
        zip(parsed, shell.auras(), strict=True)
    ):
        base_atk = minion.attack if atk is None else atk - aura_atk
        base_hp = minion.health if hp is None else hp - aura_hp
        if atk is not None and base_atk < 0:
            problem = (
                f"{_shown(atk)} is below the +{aura_atk} its auras give"
                if aura_atk
                else f"must be 0 or more, got {_shown(atk)}"
            )
            raise BoardSpecError(f"minions[{i}].attack", problem)
        if hp is not None and base_hp < 1:
            if aura_hp:
                problem = f"{_shown(hp)} leaves no health under the +{aura_hp} its auras give"
            else:
                problem = f"must be at least 1, got {_shown(hp)}"
            raise BoardSpecError(f"minions[{i}].health", problem)
        try:
            minions.append(_replace_stats(minion, base_atk, base_hp))
        except BoardSpecError as exc:
            raise BoardSpecError(f"minions[{i}].{exc.field}", exc.problem) from None
    return Board(
        shell.tier,
        shell.health,
        tuple(minions),
        shown,
        shell.hero,
        shell.hero_power,
        shell.hero_power_armed,
        shell.secrets,
    )


def _replace_stats(m: Minion, attack: int, health: int) -> Minion:
    from dataclasses import replace

    return replace(m, attack=attack, health=health)
