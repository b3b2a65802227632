"""HeuristicAgent: a sensible human-like curve player, the bar other agents are measured against.

It reads only its observation and decides one action at a time from static card
knowledge and simple scores (no combat simulation), in this order each time:

1. a pending Discover: take the best-valued option;
2. Gold Coins at once; level if the curve (by turn, health and upgrade cost) says so;
   then a Triple Reward (after leveling, since its tier is fixed when it is played);
3. play the hand: enablers first (Brann, Wrath Weaver, Mama Bear, Nomi...), minions that
   buff others last; battlecries aim at the best target, Magnetic cards attach to the best
   Mech; with a full warband, sell the weakest minion for a clearly better one;
4. buy the best-valued shop minion (triples and pairs first), sell the weakest to make
   room or gold for a clearly better one, refresh while nothing is worth buying, freeze
   a shop worth buying when the gold has run out;
5. arrange the warband (cleave and summoning deathrattles left, taunts toward the middle,
   auras right) with the fewest moves, then end the turn.

A card's value is its stats, its keywords, a hand-tuned bonus for its text that grows
with the friendly minions it works with (Battlecry parts only while unplayed), a bonus
for sharing minion types with the warband, and a large bonus for the third copy of a card
(pairs are kept). Every decision is stateless (derived from the observation), makes
progress (spends gold or actions) and stops at the recruit action limit.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar, Final, cast

from bgsim.actions import (
    ACTIONS,
    BUY_BASE,
    CHOOSE_BASE,
    END_TURN,
    FREEZE,
    REFRESH,
    SELL_BASE,
    UPGRADE,
    move_code,
    play_code,
)
from bgsim.cards import TRIBES
from bgsim.minions import (
    DIVINE_SHIELD,
    GOLD_COIN,
    INFO,
    MEGA_WINDFURY,
    POISONOUS,
    REBORN,
    TAUNT,
    TRIBE_BITS,
    TRIPLE_REWARD,
    WINDFURY,
    MinionCard,
    SpellCard,
    pool_minion,
)
from bgsim.observation import Observation
from bgsim.player_state import PlayerState
from bgsim.recruit_effects import EFFECTS, SHOP
from bgsim.ruleset import load_ruleset
from bgsim.tavern import attach_targets, battlecry_targets, why_illegal

_RULES: Final = load_ruleset()
_BUY_COST: Final = _RULES.economy.buy_cost
_SELL_VALUE: Final = _RULES.economy.sell_value
_REFRESH_COST: Final = _RULES.economy.refresh_cost
_BOARD: Final = _RULES.limits.board_size
_HAND: Final = _RULES.limits.hand_size
_ACTIONS_PER_TURN: Final = _RULES.recruit.actions_per_turn
_MAX_TIER: Final = _RULES.tavern.max_tier
_HERO_HEALTH: Final = _RULES.lobby.hero_health

# ------------------------------------------------------------ card knowledge

# Counters a text bonus may scale with, counted over the warband and hand.
BEAST_N, DEMON_N, DRAGON_N, ELEM_N, MECH_N, MURLOC_N, PIRATE_N = range(7)
DR_N: Final = 7  # minions with a Deathrattle (attached Menaces included)
BC_N: Final = 8  # Battlecry minions in hand (for Brann and Kalecgos)
TAUNT_N: Final = 9
SHIELD_N: Final = 10
GOLDEN_N: Final = 11
SUMMON_N: Final = 12  # minions whose Deathrattle or Battlecry summons
TYPES_N: Final = 13  # distinct minion types on the warband
HURT_N: Final = 14  # hero damage taken (Annihilan Battlemaster)
EARLY_N: Final = 15  # 1 in the first turns (economy cards), else 0
ONE: Final = 16  # the constant 1 (a flat bonus)
N_COUNTERS: Final = 17

_TRIBE_INDEX: Final = [(TRIBE_BITS[t], i) for i, t in enumerate(TRIBES)]
_ALL_TRIBES: Final = sum(TRIBE_BITS.values())


def _f(x: float) -> tuple[int, float, bool]:
    return (ONE, x, False)


def _per(counter: int, x: float) -> tuple[int, float, bool]:
    return (counter, x, False)


def _bc(counter: int, x: float) -> tuple[int, float, bool]:
    """A Battlecry part: counts only while the card is unplayed."""
    return (counter, x, True)


# What a card's text is worth in stat points, per friendly minion it works with.
# Golden cards get twice the bonus.
TEXT: Final[dict[str, tuple[tuple[int, float, bool], ...]]] = {
    # tier 1
    "CFM_315": (_bc(ONE, 2),),  # Alleycat: a Cat
    "BGS_055": (_bc(EARLY_N, 3),),  # Deck Swabbie: cheaper upgrade
    "YOD_026": (_f(1.5),),  # Fiendish Servant
    "BGS_027": (_f(2),),  # Micro Machine
    "ULD_217": (_f(2),),  # Micro Mummy
    "EX1_509": (_per(MURLOC_N, 1),),  # Murloc Tidecaller
    "EX1_506": (_bc(ONE, 2),),  # Murloc Tidehunter: a Scout
    "BGS_019": (_per(DRAGON_N, 1.5), _f(1)),  # Red Whelp
    "BGS_116": (_bc(EARLY_N, 2),),  # Refreshing Anomaly
    "UNG_073": (_bc(MURLOC_N, 0.7),),  # Rockpool Hunter
    "BGS_061": (_f(2),),  # Scallywag
    "EX1_531": (_per(BEAST_N, 1),),  # Scavenging Hyena
    "BGS_115": (_per(EARLY_N, 2),),  # Sellemental
    "BGS_004": (_per(DEMON_N, 2),),  # Wrath Weaver
    # tier 2
    "BGS_049": (_per(EARLY_N, 2),),  # Freedealing Gambler
    "BGS_045": (_f(3),),  # Glyph Guardian
    "EX1_556": (_f(3),),  # Harvest Golem
    "BGS_014": (_f(2),),  # Imprisoner
    "BOT_606": (_f(4),),  # Kaboom Bot
    "KAR_005": (_f(5),),  # Kindly Grandmother
    "BGS_082": (_bc(TYPES_N, 2),),  # Menagerie Mug
    "GVG_048": (_bc(MECH_N, 2),),  # Metaltooth Leaper
    "BGS_127": (_per(ELEM_N, 1),),  # Molten Rock
    "EX1_507": (_per(MURLOC_N, 2),),  # Murloc Warleader
    "BGS_001": (_bc(DEMON_N, 1.5),),  # Nathrezim Overseer
    "EX1_062": (_per(MURLOC_N, 1),),  # Old Murk-Eye
    "BGS_017": (_per(BEAST_N, 1.5),),  # Pack Leader
    "BGS_120": (_per(ELEM_N, 1),),  # Party Elemental
    "BGS_075": (_per(DR_N, 1.5),),  # Rabid Saurolisk
    "OG_221": (_f(3),),  # Selfless Hero
    "NEW1_027": (_per(PIRATE_N, 2),),  # Southsea Captain
    "OG_256": (_f(4),),  # Spawn of N'Zoth
    "BGS_037": (_f(1),),  # Steward of Time
    "BGS_201": (_f(1),),  # Tormented Ritualist
    "FP1_024": (_f(1),),  # Unstable Ghoul
    "BGS_035": (_per(DRAGON_N, 1),),  # Waxrider Togwaggle
    "BGS_060": (_f(2),),  # Yo-Ho-Ogre
    # tier 3
    "BGS_128": (_bc(ELEM_N, 2),),  # Arcane Assistant
    "BGS_110": (_per(TAUNT_N, 2),),  # Arm of the Empire
    "BAR_073": (_f(4),),  # Barrens Blacksmith
    "BGS_053": (_bc(PIRATE_N, 3),),  # Bloodsail Cannoneer
    "BGS_034": (_f(1),),  # Bronze Warden
    "EX1_103": (_bc(MURLOC_N, 2),),  # Coldlight Seer
    "CFM_610": (_bc(DEMON_N, 2),),  # Crystalweaver
    "BGS_071": (_per(MECH_N, 1.5), _f(2)),  # Deflect-o-Bot
    "BT_010": (_bc(MURLOC_N, 2),),  # Felfin Navigator
    "BGS_033": (_f(3),),  # Hangry Dragon
    "DS1_070": (_bc(BEAST_N, 2),),  # Houndmaster
    "BRM_006": (_f(4),),  # Imp Gang Boss
    "OG_216": (_f(3),),  # Infested Wolf
    "GVG_027": (_per(MECH_N, 2),),  # Iron Sensei
    "DAL_575": (_per(SUMMON_N, 3),),  # Khadgar
    "BGS_078": (_per(DR_N, 2),),  # Monstrous Macaw
    "CFM_316": (_f(3),),  # Rat Pack
    "BOT_312": (_f(4),),  # Replicating Menace
    "BGS_081": (_per(PIRATE_N, 1),),  # Salty Looter
    "GVG_055": (_bc(MECH_N, 1.5),),  # Screwjank Clunker
    "BGS_059": (_bc(DEMON_N, 1.5),),  # Soul Devourer
    "BGS_002": (_per(DEMON_N, 2),),  # Soul Juggler
    "BGS_048": (_bc(PIRATE_N, 1),),  # Southsea Strongarm
    "BGS_122": (_bc(ELEM_N, 1.5),),  # Stasis Elemental
    "BGS_038": (_bc(DRAGON_N, 1.5),),  # Twilight Emissary
    "BGS_200": (_f(2),),  # Warden of Old
    # tier 4
    "BOT_911": (_per(MECH_N, 0.5),),  # Annoy-o-Module
    "BGS_204": (_per(DEMON_N, 1.5),),  # Bigfernal
    "ICC_858": (_per(SHIELD_N, 2),),  # Bolvar, Fireblood
    "LOOT_078": (_f(5),),  # Cave Hydra
    "BGS_111": (_per(TAUNT_N, 1.5),),  # Champion of Y'Shaarj
    "ICC_029": (_f(6),),  # Cobalt Scalebane
    "EX1_093": (_bc(ONE, 4),),  # Defender of Argus
    "BGS_067": (_per(SHIELD_N, 2),),  # Drakonid Enforcer
    "BGS_066": (_per(GOLDEN_N, 4), _f(2)),  # Goldgrubber
    "BGS_032": (_f(3),),  # Herald of Flame
    "GVG_106": (_per(MECH_N, 2),),  # Junkbot
    "BGS_105": (_per(ELEM_N, 1), _f(1)),  # Majordomo Executus
    "BOT_537": (_f(12),),  # Mechano-Egg
    "BGS_083": (_bc(TYPES_N, 4),),  # Menagerie Jug
    "BGS_020": (_bc(MURLOC_N, 3),),  # Primalfin Lookout
    "BGS_112": (_per(TAUNT_N, 1.5),),  # Qiraji Harbinger
    "DMF_533": (_f(8),),  # Ring Matron
    "BGS_056": (_per(PIRATE_N, 2),),  # Ripsnarl Captain
    "EX1_534": (_f(7),),  # Savannah Highmane
    "BOT_218": (_f(6),),  # Security Rover
    "EX1_185": (_per(DEMON_N, 1),),  # Siegebreaker
    "DAL_077": (_bc(MURLOC_N, 3),),  # Toxfin
    "CFM_816": (_bc(BEAST_N, 2),),  # Virmen Sensei
    "BGS_126": (_f(2),),  # Wildfire Elemental
    # tier 5
    "BGS_010": (_bc(HURT_N, 1),),  # Annihilan Battlemaster
    "FP1_031": (_per(DR_N, 4),),  # Baron Rivendare
    "LOE_077": (_per(BC_N, 2), _f(3)),  # Brann Bronzebeard
    "BGS_072": (_per(PIRATE_N, 1),),  # Cap'n Hoggarr
    "BGS_113": (_bc(ONE, 4),),  # Faceless Taverngoer
    "TRL_232": (_f(4),),  # Ironhide Direhorn
    "BGS_030": (_bc(MURLOC_N, 4), _per(MURLOC_N, 2)),  # King Bagurgle
    "BGS_009": (_per(TYPES_N, 3),),  # Lightfang Enforcer
    "GVG_021": (_per(DEMON_N, 4),),  # Mal'Ganis
    "BGS_021": (_per(BEAST_N, 4),),  # Mama Bear
    "BGS_043": (_bc(ONE, 8),),  # Murozond
    "BGS_202": (_per(TYPES_N, 2), _f(2)),  # Mythrax the Unraveler
    "BGS_046": (_f(3),),  # Nat Pagle
    "BGS_104": (_per(ELEM_N, 2),),  # Nomi
    "BGS_036": (_per(DRAGON_N, 2),),  # Razorgore
    "BGS_080": (_per(PIRATE_N, 2),),  # Seabreaker Goliath
    "BGS_006": (_f(10),),  # Sneed's Old Shredder
    "ICC_807": (_bc(TAUNT_N, 4),),  # Strongshell Scavenger
    "BGS_123": (_bc(ONE, 8),),  # Tavern Tempest
    "LOOT_368": (_f(9),),  # Voidlord
    # tier 6
    "BGS_069": (_bc(TYPES_N, 3),),  # Amalgadon
    "BGS_047": (_per(PIRATE_N, 4),),  # Dread Admiral Eliza
    "GVG_113": (_f(8),),  # Foe Reaper 4000
    "BGS_121": (_f(10),),  # Gentle Djinni
    "BGS_008": (_f(14),),  # Ghastcoiler
    "BGS_018": (_per(BEAST_N, 5),),  # Goldrinn
    "BGS_044": (_f(10),),  # Imp Mama
    "BGS_041": (_per(DRAGON_N, 2), _per(BC_N, 1), _f(2)),  # Kalecgos
    "BGS_012": (_per(MECH_N, 3),),  # Kangor's Apprentice
    "BGS_124": (_per(ELEM_N, 2),),  # Lieutenant Garr
    "BGS_100": (_per(ELEM_N, 3),),  # Lil' Rag
    "BGS_040": (_per(DRAGON_N, 3),),  # Nadina the Red
    "BGS_079": (_f(10),),  # The Tide Razor
    "BGS_022": (_f(6),),  # Zapp Slywick
}


def _ids(text: str) -> list[str]:
    return text.split()


# Cards whose effect summons (Khadgar doubles them).
_SUMMONERS: Final = frozenset(
    _ids(
        "CFM_315 EX1_506 BGS_061 EX1_556 BGS_014 KAR_005 OG_216 CFM_316 BOT_312 DMF_533 EX1_534 "
        "BOT_537 LOOT_368 BGS_006 BGS_008 BGS_079 BGS_121 BGS_012 BRM_006 BOT_218 BGS_044"
    )
)

# Play order: enablers (their trigger wants the others played after them) first, minions
# that buff the others last. Keys are (card, the counter that must be in hand for it to matter).
_ENABLERS: Final[dict[str, int]] = {
    "BGS_004": DEMON_N,  # Wrath Weaver
    "BGS_017": BEAST_N,  # Pack Leader
    "BGS_021": BEAST_N,  # Mama Bear
    "LOE_077": BC_N,  # Brann
    "BGS_041": BC_N,  # Kalecgos
    "BGS_104": ELEM_N,  # Nomi
    "BGS_100": ELEM_N,  # Lil' Rag
    "BGS_127": ELEM_N,  # Molten Rock
    "BGS_120": ELEM_N,  # Party Elemental
    "BGS_124": ELEM_N,  # Lieutenant Garr
    "BGS_075": DR_N,  # Rabid Saurolisk
    "BGS_081": PIRATE_N,  # Salty Looter
    "BGS_204": DEMON_N,  # Bigfernal
    "EX1_509": MURLOC_N,  # Murloc Tidecaller
}
_BUFFERS: Final = frozenset(
    _ids(
        "BGS_082 GVG_048 BGS_128 BGS_053 EX1_103 CFM_610 BT_010 BGS_083 BGS_030 ICC_807 BGS_069 "
        "EX1_093"
    )
)

# Warband order, left (0) to right (4).
_LEFT, _EARLY, _MID, _TAUNT, _RIGHT = range(5)
_ROLE: Final[dict[str, int]] = {}
for _cards, _slot in (
    # cleave, lowest-attack hunters, attack-order tricks, and deathrattles whose
    # summons take their place or that should trigger early
    (
        "LOOT_078 GVG_113 BGS_022 BGS_019 BGS_045 BGS_078 EX1_556 KAR_005 CFM_316 OG_216 "
        "EX1_534 BOT_537 BOT_606 BGS_061 OG_256 OG_221 YOD_026 BGS_018 BGS_008 BGS_079 "
        "BGS_006 BGS_040 BGS_200 BOT_312",
        _LEFT,
    ),
    ("BGS_126 BGS_032 BGS_046 TRL_232 BGS_080 BGS_119 BGS_034", _EARLY),
    # auras and triggers that must survive
    (
        "EX1_507 GVG_021 NEW1_027 EX1_185 FP1_031 DAL_575 BGS_021 BGS_017 BGS_041 EX1_062 "
        "EX1_531 BGS_002 GVG_106 ICC_858 BGS_067 BGS_111 BGS_110 BGS_112 BGS_035 BGS_056 "
        "BGS_047 BGS_012 BGS_071",
        _RIGHT,
    ),
):
    for _id in _ids(_cards):
        _ROLE[_id] = _slot

_TOXFIN: Final = "DAL_077"
_HOUNDMASTER: Final = "DS1_070"
_SOUL_DEVOURER: Final = "BGS_059"
_ANNOY: Final = "BOT_911"
_GAMBLER: Final = "BGS_049"

# Leveling curves: the turns on which to reach tiers 2, 3, 4, 5 and 6. A curve option is
# one of these names or such turns joined by dashes ("2-4-7-9-12").
CURVES: Final[dict[str, str]] = {
    "standard": "2-5-7-10-13",
    "fast": "2-4-6-8-10",
    "slow": "3-5-8-11-14",
}


def _curve(spec: str) -> tuple[int, ...]:
    """The target tier for each turn (index = turn, the last entry repeats)."""
    text = CURVES.get(spec, spec)
    try:
        turns = [int(t) for t in text.split("-")]
    except ValueError:
        turns = []
    if len(turns) != _MAX_TIER - 1 or turns != sorted(turns) or turns[0] < 1:
        raise ValueError(
            f"bad curve {spec!r}: use {', '.join(CURVES)} or {_MAX_TIER - 1} rising turns "
            "joined by dashes (the turns to reach tiers 2..6)"
        )
    return tuple(1 + sum(turn >= t for t in turns) for turn in range(turns[-1] + 1))


class _Facts:
    """What a minion brings, whatever the warband: worked out once per minion
    (the searches ask about the same minions over and over)."""

    __slots__ = (
        "all_tribes",
        "base",
        "copy",
        "golden_id",
        "own",
        "played",
        "poisonous",
        "terms",
        "tier",
        "tribe_index",
        "tribes",
        "unplayed",
    )

    def __init__(self, m: MinionCard) -> None:
        info = INFO[m.card]
        kw = m.keywords
        a = m.attack
        v = float(a + m.health)
        if kw & DIVINE_SHIELD:
            v += a + 4
        if kw & TAUNT:
            v += 1
        if kw & POISONOUS:
            v += 4  # and the turn number (see _worth)
        if kw & WINDFURY:
            v += 0.6 * a
        if kw & MEGA_WINDFURY:
            v += 1.5 * a
        if kw & REBORN:
            v += 0.6 * (info.golden_attack if m.golden else info.attack) + 1
        if m.magnetic:
            v += 4 * len(m.magnetic)
        self.base = v
        self.poisonous = bool(kw & POISONOUS)
        self.tier = info.tier
        self.tribes = info.tribes
        self.all_tribes = info.tribes == _ALL_TRIBES
        self.tribe_index = tuple(i for bit, i in _TRIBE_INDEX if info.tribes & bit)
        self.terms = TEXT.get(m.card)
        self.golden_id = bool(info.golden_id)
        # Counters this minion adds to, so that as a member it does not count itself.
        own = list(self.tribe_index)
        if info.deathrattle or m.magnetic:
            own.append(DR_N)
        if kw & TAUNT:
            own.append(TAUNT_N)
        if kw & DIVINE_SHIELD:
            own.append(SHIELD_N)
        if m.card in _SUMMONERS:
            own.append(SUMMON_N)
        self.own = frozenset(own)
        # Counters it adds to on the warband and in the hand.
        played = [*own, GOLDEN_N] if m.golden else own
        self.played = tuple(played)
        self.unplayed = (*played, BC_N) if info.battlecry else self.played
        self.copy = not m.golden and self.golden_id


_FACTS: Final[dict[MinionCard, _Facts]] = {}


def _facts(m: MinionCard) -> _Facts:
    f = _FACTS.get(m)
    if f is None:
        if len(_FACTS) >= 20_000:
            _FACTS.clear()
        f = _FACTS[m] = _Facts(m)
    return f


class _Ctx:
    """Counts over the warband and hand that card values depend on."""

    __slots__ = ("copies", "counts", "move", "scale", "scored", "shop_values", "turn", "weakest")

    def __init__(self, state: PlayerState, turn: int) -> None:
        counts = [0.0] * N_COUNTERS
        copies: dict[str, int] = {}
        board = state.board
        types = 0
        for m in board:
            f = _facts(m)
            for i in f.played:
                counts[i] += 1
            if f.copy:
                copies[m.card] = copies.get(m.card, 0) + 1
            types |= f.tribes
        for c in state.hand:
            if type(c) is not MinionCard:
                continue
            f = _facts(c)
            for i in f.unplayed:
                counts[i] += 1
            if f.copy:
                copies[c.card] = copies.get(c.card, 0) + 1
        counts[TYPES_N] = min(bin(types).count("1"), 7)
        counts[HURT_N] = max(_HERO_HEALTH - state.health, 0)
        counts[EARLY_N] = 1.0 if turn <= 5 else 0.0
        counts[ONE] = 1.0
        self.counts = counts
        self.copies = copies
        self.turn = turn
        # Text bonuses are in early-game stat points; later warbands are bigger.
        self.scale = 1.0 + 0.08 * max(turn - 4, 0)
        # Worked out once per context (see HeuristicAgent._context): the
        # warband's weakest minion, the next arranging Move, the hand's minions
        # in playing order and the values of the shop minions seen.
        self.weakest: tuple[int | None, float] | None = None
        self.move: tuple[Any, int] | None = None
        self.scored: list[tuple[float, float, int, MinionCard]] | None = None
        self.shop_values: dict[MinionCard, float] = {}


def _role(m: MinionCard) -> int:
    role = _ROLE.get(m.card)
    if role is not None:
        return role
    kw = m.keywords
    if kw & TAUNT:
        return _TAUNT
    if kw & (DIVINE_SHIELD | WINDFURY | MEGA_WINDFURY):
        return _EARLY
    return _MID


# Tunable numbers (each also an option, e.g. ``heuristic[margin=4]``, for A/B runs).
PARAMS: Final[dict[str, float]] = {
    "synergy": 1.0,  # value per friendly minion sharing a type
    "triple": 20.0,  # value of the copy that completes a triple
    "pair": 3.0,  # value of a copy that makes a pair
    "margin": 3.0,  # how much better a minion must be to replace one
    "floor": 1.3,  # buy (when a refresh is affordable) above this x a tier-below minion
    "freeze": 1.3,  # freeze when out of gold a shop minion above this x a tier minion
    "rich": 6.0,  # level off the curve when this much gold is left after the upgrade
    "low": 12.0,  # at or below this health, level one tier later (from tier 4)
    "tierw": 0.8,  # value per tavern tier of a card
    "text": 1.0,  # scale of the card text bonuses
    "noise": 0.0,  # uniform noise added to card values (drawn from the seed)
}


class HeuristicAgent:
    """A sensible human-like player (see the module doc). Deterministic for a seed.

    Options exist for A/B tuning runs (the defaults are the tuned player): ``curve``
    (a name in :data:`CURVES` or turns like ``2-5-7-10-13``) and the numbers in
    :data:`PARAMS`, e.g. ``heuristic[curve=fast,margin=4]``.
    """

    name = "heuristic"
    OPTIONS: ClassVar[tuple[str, ...]] = ("curve", *PARAMS)

    def __init__(self, curve: str = "standard", **params: float) -> None:
        unknown = sorted(set(params) - set(PARAMS))
        if unknown:
            raise ValueError(f"unknown option {unknown[0]!r}; choose from {', '.join(PARAMS)}")
        self.curve = _curve(str(curve))
        values = {**PARAMS, **params}
        self.synergy = float(values["synergy"])
        self.triple = float(values["triple"])
        self.pair = float(values["pair"])
        self.margin = float(values["margin"])
        self.floor = float(values["floor"])
        self.freeze = float(values["freeze"])
        self.rich = float(values["rich"])
        self.low = float(values["low"])
        self.tierw = float(values["tierw"])
        self.noise = float(values["noise"])
        self.text = float(values["text"])
        self._rng = random.Random(0)
        self._contexts: dict[tuple, _Ctx] = {}

    def reset(self, seat: int, seed: int) -> None:
        self._rng = random.Random(seed)

    # ------------------------------------------------------------ protocol

    def act(self, observation: Observation, legal_actions: Sequence[Any]) -> Any:
        return self.decide(observation.state, observation.turn, legal_actions)

    def decide(self, s: PlayerState, turn: int, legal_actions: Sequence[Any] | None = None) -> Any:
        """The action for own state ``s`` on ``turn``: all the agent reads of
        its observation (searches call this for states they imagine). Without
        ``legal_actions`` each candidate is checked on its own, which is
        cheaper than listing every legal action of a state seen once."""
        if legal_actions is not None and len(legal_actions) == 1:
            return legal_actions[0]
        ctx = self._context(s, turn)
        if s.discover:
            values = [self._value(m, ctx, member=False, played=False) for m in s.discover]
            return ACTIONS[CHOOSE_BASE + values.index(max(values))]
        for action in self._plan(turn, s, ctx):
            if legal_actions is None:
                if why_illegal(s, action, _RULES) is None:
                    return action
            elif _legal(action, legal_actions):
                return action
        # EndTurn is always legal here (no Discover is pending) and comes first
        return END_TURN if legal_actions is None else legal_actions[0]

    # ------------------------------------------------------------ values

    def _context(self, s: PlayerState, turn: int) -> _Ctx:
        """The counts for this warband, hand, health and turn. A search asks the
        agent about many states that share them (a refresh changes only the
        shop), so contexts are kept with the weakest minion and next Move
        worked out in them; with ``noise`` every decision draws afresh."""
        if self.noise:
            return _Ctx(s, turn)
        key = (s.board, s.hand, s.health, turn)
        ctx = self._contexts.get(key)
        if ctx is None:
            if len(self._contexts) >= 4096:
                self._contexts.clear()
            ctx = self._contexts[key] = _Ctx(s, turn)
        return ctx

    def warband_value(self, state: Any, turn: int) -> float:
        """What the agent's card knowledge says the warband and hand are worth."""
        ctx = _Ctx(state, turn)
        total = 0.0
        for m in state.board:
            total += self._value(m, ctx, member=True, played=True)
        for m in state.hand:
            if type(m) is MinionCard:
                total += self._value(m, ctx, member=True, played=False)
        return total

    def _value(self, m: MinionCard, ctx: _Ctx, member: bool, played: bool) -> float:
        """What ``m`` is worth to this warband. ``member``: it is already counted in
        ``ctx`` (warband or hand); ``played``: its Battlecry is spent."""
        f = _FACTS.get(m) or _facts(m)
        v = f.base
        if f.poisonous:
            v += ctx.turn
        counts = ctx.counts
        terms = f.terms
        if terms:
            bonus = 0.0
            own = f.own
            for counter, per, bc in terms:
                if bc and played:
                    continue
                n = counts[counter]
                if member and counter in own:
                    n -= 1
                bonus += per * n
            v += bonus * self.text * ctx.scale * (2 if m.golden else 1)
        v += self.tierw * f.tier
        if f.tribes and self.synergy:
            if f.all_tribes:
                v += self.synergy * min(max(counts[:7]), 5)
            else:
                synergy = self.synergy
                less = 1 if member else 0
                for i in f.tribe_index:
                    n = counts[i] - less
                    v += synergy * (n if n < 5 else 5)
        if m.golden:
            if m.triple and not played:
                v += 8  # playing it gives a Triple Reward
        elif f.golden_id:
            copies = ctx.copies.get(m.card, 0) - (1 if member else 0)
            if copies >= 2:
                v += self.triple
            elif copies == 1:
                v += self.pair
        if self.noise:
            v += self._rng.uniform(0, self.noise)
        return v

    # ------------------------------------------------------------ planning

    def _plan(self, turn: int, s: PlayerState, ctx: _Ctx):
        """Candidate actions, best first; the first legal one is taken."""
        board = s.board
        hand = s.hand
        gold = s.gold
        actions_left = _ACTIONS_PER_TURN - s.actions
        if ctx.move is None:
            ctx.move = _next_move(board)
        move, moves_needed = ctx.move
        if move is not None and actions_left <= moves_needed + 1:
            yield move
        if actions_left <= 1:
            yield END_TURN
            return
        spare = actions_left - moves_needed  # actions left once the warband is arranged
        margin = self.margin * ctx.scale

        # Spells: coins at once; a Triple Reward after leveling.
        reward: int | None = None
        for i, card in enumerate(hand):
            if type(card) is SpellCard:
                if card.card == GOLD_COIN:
                    yield ACTIONS[play_code(i, None, None)]
                elif card.card == TRIPLE_REWARD and reward is None:
                    reward = i
        if self._want_upgrade(turn, s, ctx):
            yield UPGRADE
        if reward is not None:
            yield ACTIONS[play_code(reward, None, None)]

        # The warband's weakest minion (the one to sell).
        if ctx.weakest is None:
            ctx.weakest = self._weakest(board, ctx)
        weakest, weakest_value = ctx.weakest
        full = len(board) >= _BOARD

        # Play the hand.
        scored = ctx.scored
        if scored is None:
            scored = ctx.scored = self._hand_order(hand, ctx)
        if scored:
            for _order, v, i, c in scored:
                attach = attach_targets(s, c)
                if attach:
                    yield ACTIONS[play_code(i, None, self._best_mech(board, c, attach, ctx))]
                    continue
                if not full:
                    yield ACTIONS[play_code(i, _position(board, c), self._target(s, c, ctx))]
                    continue
                if weakest is not None and ((c.golden and c.triple) or v > weakest_value + margin):
                    yield ACTIONS[SELL_BASE + weakest]
        hand_minions = len(scored)

        # Buy.
        room = len(board) + hand_minions < _BOARD
        hand_room = len(hand) < _HAND
        shop = s.shop
        best: int | None = None
        best_value = -1e9
        shop_values = ctx.shop_values
        for j, m in enumerate(shop):
            known = shop_values.get(m)
            if known is None:
                known = self._value(m, ctx, False, False)
                if not self.noise:  # a noisy value is drawn afresh every time
                    shop_values[m] = known
            if known > best_value:
                best, best_value = j, known
        triple = best is not None and ctx.copies.get(shop[best].card, 0) >= 2
        if room:
            floor = 0.0 if gold < _BUY_COST + _REFRESH_COST else self._floor(s.tier, ctx)
            worth = best is not None and best_value >= floor
        else:
            worth = best is not None and (triple or best_value > weakest_value + margin)
        if worth and best is not None and hand_room and spare >= 3:
            if gold >= _BUY_COST:
                yield ACTIONS[BUY_BASE + best]
            elif (
                full
                and weakest is not None
                and gold + _sell_gold(board[weakest]) >= _BUY_COST
                and not (hand_minions and hand_minions + len(board) > _BOARD)
            ):
                yield ACTIONS[SELL_BASE + weakest]

        # Refresh while nothing is worth buying; freeze a good shop when out of gold.
        can_roll = s.free_refreshes > 0 or gold >= _REFRESH_COST
        keep = worth and (triple or best_value >= self.freeze * _REF[s.tier] * ctx.scale)
        if not worth and can_roll and hand_room and spare >= 4:
            yield REFRESH
        if gold < _BUY_COST and keep and not s.frozen:
            yield FREEZE
        if gold < _BUY_COST and not keep and can_roll and hand_room and spare >= 2:
            yield REFRESH
        if move is not None:
            yield move
        yield END_TURN

    def _hand_order(
        self, hand: Sequence[Any], ctx: _Ctx
    ) -> list[tuple[float, float, int, MinionCard]]:
        """The hand's minions as (order, value, index, card), in the order to
        play them: enablers first, buffers last, a triple's golden before all."""
        minions = [(i, c) for i, c in enumerate(hand) if type(c) is MinionCard]
        scored = []
        for i, c in minions:
            v = self._value(c, ctx, True, False)
            order = v
            enabler = _ENABLERS.get(c.card)
            if enabler is not None and ctx.counts[enabler] - (enabler in _facts(c).own) > 0:
                order += 100
            elif c.card in _BUFFERS and len(minions) > 1:
                order -= 100
            if c.golden and c.triple:
                order += 200
            scored.append((order, v, i, c))
        scored.sort(key=lambda x: (-x[0], x[2]))
        return scored

    def _weakest(self, board: Sequence[MinionCard], ctx: _Ctx) -> tuple[int | None, float]:
        """The warband minion to sell first and its value."""
        if not board:
            return None, 0.0
        values = [self._value(m, ctx, True, True) for m in board]
        weakest = min(range(len(board)), key=lambda i: values[i] - _sell_gold(board[i]))
        return weakest, values[weakest]

    def _floor(self, tier: int, ctx: _Ctx) -> float:
        """The least a shop minion must be worth to buy when a refresh is affordable."""
        return self.floor * _REF[max(tier - 1, 1)] * ctx.scale

    def _want_upgrade(self, turn: int, s: PlayerState, ctx: _Ctx) -> bool:
        tier = s.tier
        cost = s.upgrade_cost
        if tier >= _MAX_TIER or s.gold < cost:
            return False
        curve = self.curve
        target = curve[min(turn, len(curve) - 1)]
        if s.health <= self.low and tier >= 4:
            target -= 1
        if tier < target:
            return True
        # Cheap or rich: level and still buy.
        return cost <= s.gold - self.rich or cost == 0

    def _target(self, s: PlayerState, card: MinionCard, ctx: _Ctx) -> int | None:
        targets = battlecry_targets(s, card)
        if targets[0] is None:
            return None
        slots = cast(tuple[int, ...], targets)  # battlecry_targets gives (None,) or slots
        fx = EFFECTS[card.card]
        if fx.target == SHOP:
            shop = s.shop
            return max(slots, key=lambda j: self._value(shop[j], ctx, False, True))
        board = s.board
        cid = card.card
        # Lambdas, not named closures: a compiled named closure makes a
        # reference cycle per call, which only the collector reclaims.
        return max(slots, key=lambda i: self._target_score(board[i], cid, ctx))

    def _target_score(self, m: MinionCard, cid: str, ctx: _Ctx) -> float:
        """How much Battlecry ``cid`` gains by targeting ``m``."""
        v = self._value(m, ctx, True, True)
        if cid == _SOUL_DEVOURER:
            return -(v - m.attack - m.health)
        if cid == _TOXFIN:
            return (
                v + (0 if m.keywords & POISONOUS else 20) + (5 if m.keywords & DIVINE_SHIELD else 0)
            )
        if cid == _HOUNDMASTER:
            return v + (0 if m.keywords & TAUNT else 3)
        return v

    def _best_mech(
        self, board: Sequence[MinionCard], card: MinionCard, slots: Sequence[int], ctx: _Ctx
    ) -> int:
        annoy = card.card == _ANNOY
        return max(
            slots,
            key=lambda i: (
                self._value(board[i], ctx, True, True)
                + (6 if annoy and not board[i].keywords & DIVINE_SHIELD else 0)
            ),
        )


def _sell_gold(m: MinionCard) -> int:
    if m.card == _GAMBLER:
        return 6 if m.golden else 3
    return _SELL_VALUE


def _position(board: Sequence[MinionCard], card: MinionCard) -> int:
    """Where ``card`` goes so the roles stay in order (after its equals)."""
    role = _role(card)
    return sum(1 for m in board if _role(m) <= role)


def arranged(board: Sequence[MinionCard]) -> tuple[MinionCard, ...]:
    """The warband in the order the agent's Moves lead to (roles left to right,
    equal roles keeping their order)."""
    return tuple(sorted(board, key=_role))


def _next_move(board: Sequence[MinionCard]) -> tuple[Any, int]:
    """The next Move towards a warband in role order, and how many moves the whole
    reordering takes ((None, 0) if the order is fine). Minions of the same role keep
    their order; each move puts a minion outside a longest in-order run into its
    place in that run, so the run grows every time and moves never cycle."""
    roles = tuple([_role(m) for m in board])
    found = _MOVES_BY_ROLES.get(roles)
    if found is None:
        found = _MOVES_BY_ROLES[roles] = _move_for_roles(roles)
    return found


# The answer depends on the roles alone, of which there are few sequences.
_MOVES_BY_ROLES: Final[dict[tuple[int, ...], tuple[Any, int]]] = {}


def _move_for_roles(roles: tuple[int, ...]) -> tuple[Any, int]:
    n = len(roles)
    length = [1] * n
    prev = [-1] * n
    for i in range(n):
        for j in range(i):
            if roles[j] <= roles[i] and length[j] + 1 > length[i]:
                length[i] = length[j] + 1
                prev[i] = j
    if not n or max(length) == n:
        return None, 0
    run = set()
    k = length.index(max(length))
    while k != -1:
        run.add(k)
        k = prev[k]
    src = next(i for i in range(n) if i not in run)
    dst = 0
    for pos, i in enumerate(i for i in range(n) if i != src):
        if i in run and roles[i] <= roles[src]:
            dst = pos + 1
    return ACTIONS[move_code(src, dst)], n - len(run)


def _legal(action: Any, legal: Sequence[Any]) -> bool:
    for a in legal:
        if a is action:
            return True
    return action in legal


def _reference_values() -> dict[int, float]:
    """Mean plain value (stats, keywords, tier) of the pool cards of each tier."""
    agent = HeuristicAgent(synergy=0.0, triple=0.0)
    ctx = _Ctx(PlayerState(0, 5, 1, 0, 0, _HERO_HEALTH), 5)
    out = {}
    for tier in range(1, _MAX_TIER + 1):
        vals = [
            agent._value(pool_minion(c.id), ctx, False, False)
            for c in INFO.values()
            if c.in_pool and c.tier == tier
        ]
        out[tier] = sum(vals) / len(vals)
    return out


_REF: Final = _reference_values()
