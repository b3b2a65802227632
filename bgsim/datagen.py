"""Generate ``data/cards.json`` from HearthSim's ``CardDefs.xml`` (build 77662).

Needs the ``data`` extra (``pip install .[data]``). Runtime code never imports
this module's dependencies; it only reads the committed JSON.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from bgsim.outputs import atomic_write

BUILD = 77662
HEARTHSTONE_DATA_VERSION = "77662.3"

# Tribes in the fixed order used everywhere (card JSON, C bitmask, tavern).
TRIBES = ("beast", "demon", "dragon", "elemental", "mech", "murloc", "pirate")
_RACE_TO_TRIBE = {
    "BEAST": "beast",
    "DEMON": "demon",
    "DRAGON": "dragon",
    "ELEMENTAL": "elemental",
    "MECHANICAL": "mech",
    "MURLOC": "murloc",
    "PIRATE": "pirate",
}

KEYWORDS = (
    "taunt",
    "divine_shield",
    "poisonous",
    "windfury",
    "mega_windfury",
    "reborn",
    "magnetic",
    "deathrattle",
    "battlecry",
    "start_of_combat",
    "overkill",
    "frenzy",
    "charge",
)

# Murloc Tidecaller is listed twice in the pool; the vanilla copy is dropped.
DUPLICATE_POOL_IDS = {"VAN_EX1_509"}

# Tokens and generated cards each pool card can create, as (normal, golden)
# pairs; golden is None where the game has no golden version of that card.
# Checked against the card text by tests/test_cards.py.
CREATED_BY: dict[str, tuple[tuple[str, str | None], ...]] = {
    "CFM_315": (("CFM_315t", "TB_BaconUps_093t"),),  # Alleycat: Tabbycat
    "EX1_506": (("EX1_506a", "TB_BaconUps_003t"),),  # Murloc Tidehunter: Murloc Scout
    "BGS_061": (("BGS_061t", "TB_BaconUps_141t"),),  # Scallywag: Sky Pirate
    "BGS_115": (("BGS_115t", None),),  # Sellemental: Water Droplet
    "EX1_556": (("skele21", "TB_BaconUps_006t"),),  # Harvest Golem: Damaged Golem
    "BGS_014": (("BRM_006t", "TB_BaconUps_030t"),),  # Imprisoner: Imp
    "KAR_005": (("KAR_005a", "TB_BaconUps_004t"),),  # Kindly Grandmother: Big Bad Wolf
    "BRM_006": (("BRM_006t", "TB_BaconUps_030t"),),  # Imp Gang Boss: Imp
    "OG_216": (("OG_216a", "TB_BaconUps_026t"),),  # Infested Wolf: Spider
    "CFM_316": (("CFM_316t", "TB_BaconUps_027t"),),  # Rat Pack: Rat
    "BOT_312": (("BOT_312t", "TB_BaconUps_032t"),),  # Replicating Menace: Microbot
    "BGS_200": (("TB_BaconShop_HP_008a", None),),  # Warden of Old: Gold Coin
    "BOT_537": (("BOT_537t", "TB_BaconUps_039t"),),  # Mechano-Egg: Robosaur
    "DMF_533": (("DMF_533t", "TB_BaconUps_309t"),),  # Ring Matron: Fiery Imp
    "EX1_534": (("EX1_534t", "TB_BaconUps_049t"),),  # Savannah Highmane: Hyena
    "BOT_218": (("BOT_218t", "TB_BaconUps_041t"),),  # Security Rover: Guard Bot
    "TRL_232": (("TRL_232t", "TB_BaconUps_051t"),),  # Ironhide Direhorn: Ironhide Runt
    "LOOT_368": (("CS2_065", "TB_BaconUps_059t"),),  # Voidlord: Voidwalker
    "BGS_069": (("UNG_999t2t1", None),),  # Amalgadon's Living Spores: Plant
}
# Cards the game itself generates: the Triple Reward given for a golden minion.
GAME_GENERATED = ("TB_BaconShop_Triples_01",)

# Cards each draftable hero's power creates (tokens, spells, enchantments, other
# heroes and hero powers), keyed by hero power id, as (normal, golden) pairs like
# CREATED_BY. Sir Finley's, Tickatus's and The Great Akazamzarak's lists are
# computed from tags in build_cards. data/heroes.toml describes each power;
# tests/test_heroes.py checks the two agree.
HERO_CREATED_BY: dict[str, tuple[tuple[str, str | None], ...]] = {
    "TB_BaconShop_HP_044": (("TB_BaconShop_Triples_01", None),),  # A. F. Kay: tier-3 Discovers
    "TB_BaconShop_HP_065": (  # Aranna Starseeker: the hero she becomes, its power
        ("TB_BaconShop_HERO_59t", None),
        ("TB_BaconShop_HP_065t2", None),
        ("TB_BaconShop_HP_065pe", None),
    ),
    "TB_BaconShop_HP_104": (("TB_BaconShop_HP_104e", None),),  # C'Thun
    "TB_BaconShop_HP_042": (("TB_BaconShop_HP_042e", None),),  # Dancin' Deryl
    "TB_BaconShop_HP_061": (("TB_BaconShop_HP_061e", None),),  # Deathwing's aura
    "TB_BaconShop_HP_001": (("TB_BaconShop_HP_001e", None),),  # Edwin VanCleef
    "TB_BaconShop_HP_047": (("TB_BaconShop_HP_047t", None),),  # Elise: Recruitment Map
    "TB_BaconShop_HP_107": (("TB_BaconShop_HP_107e", None),),  # Greybough
    "TB_BaconShop_HP_069": (("TB_BaconShop_HP_069e", None),),  # Illidan
    "TB_BaconShop_HP_066": (("TB_BaconShop_HP_066e", None),),  # Kael'thas
    "TB_BaconShop_HP_038": (  # King Mukla: Bananas and Big Bananas, see heroes.toml
        ("TRL_509t", None),
        ("TRL_509te", None),
        ("BGS_Treasures_000", None),
        ("BGS_Treasures_000e", None),
        ("TB_BaconShop_HP_038e", None),
    ),
    "TB_BaconShop_HP_049": (("TB_BaconShop_HP_008a", None),),  # Lich Baz'hial: Gold Coin
    "TB_BaconShop_HP_081": (("TB_BaconShop_HP_008a", None),),  # Lord Barov: Gold Coins
    "TB_BaconShop_HP_036": (("TB_BaconShop_HP_036e2", None),),  # Lord Jaraxxus
    "TB_BaconShop_HP_068": (  # Maiev Shadowsong: Dormant, then +1 Attack
        ("TB_BaconShop_HP_068e", None),
        ("TB_BaconShop_HP_068e2", None),
        ("TB_BaconShop_HP_068pe", None),
    ),
    "TB_BaconShop_HP_015": (("TB_BaconShop_HP_015e", None),),  # Millificent
    "TB_BaconShop_HP_105": (("TB_BaconShop_HP_105t", "TB_BaconUps_307"),),  # N'Zoth: Fish
    "BG20_HERO_102p": (("BG20_HERO_102pe", None), ("BG20_HERO_102pe2", None)),  # Saurfang
    "TB_BaconShop_HP_040": (("TB_BaconShop_HP_040e", None),),  # Pyramad
    "TB_BaconShop_HP_087": (  # Ragnaros: Sulfuras and its buff
        ("TB_BaconShop_HP_087t", None),
        ("TB_BaconShop_HP_087te", None),
    ),
    "TB_BaconShop_HP_085": (("TB_BaconShop_HP_085e", None),),  # Rakanishu
    "TB_BaconShop_HP_022": (("TB_BaconShop_HP_022e", None),),  # Shudderwock
    "TB_BaconShop_HP_101": (  # Silas: Darkmoon Ticket, Prize
        ("TB_BaconShop_HP_101e", None),
        ("TB_BaconShop_HP_101t2", None),
    ),
    "TB_BaconShop_HP_014": (("TB_BaconShop_HP_014e", None),),  # Sindragosa
    "TB_BaconShop_HP_033": (("TB_BaconShop_HP_033t", None),),  # The Curator: Amalgam
    "TB_BaconShop_HP_024": (("TB_BaconShop_HP_024e2", None),),  # The Lich King
    "TB_BaconShop_HP_041": (  # The Rat King: one power per minion type, and the buff
        ("TB_BaconShop_HP_041a", None),
        ("TB_BaconShop_HP_041b", None),
        ("TB_BaconShop_HP_041c", None),
        ("TB_BaconShop_HP_041d", None),
        ("TB_BaconShop_HP_041e", None),
        ("TB_BaconShop_HP_041f", None),
        ("TB_BaconShop_HP_041g", None),
        ("TB_BaconShop_HP_041h", None),
    ),
    "TB_BaconShop_HP_039": (("TB_BaconShop_HP_039e", None),),  # Yogg-Saron
}
SIR_FINLEY_POWER = "TB_BaconShop_HP_057"
# Hero powers Sir Finley never offers: his own, and those that only act when the
# game is set up (starting Health, starting minions, skipped turns). No source
# lists the exclusions at this build; see data/heroes.toml.
FINLEY_EXCLUDED = frozenset(
    {
        "TB_BaconShop_HP_057",  # Adventure! (Sir Finley)
        "TB_BaconShop_HP_035",  # All Patched Up (Patchwerk)
        "TB_BaconShop_HP_033",  # Menagerist (The Curator)
        "TB_BaconShop_HP_105",  # Avatar of N'Zoth
        "TB_BaconShop_HP_044",  # Procrastinate (A. F. Kay)
    }
)
# Aranna, Unleashed's HERO_POWER tag names dbfId 61916, which build 77662 does
# not have; Spectral Sight (TB_BaconShop_HP_065t2) is the power she shows.
HERO_POWER_OVERRIDES = {"TB_BaconShop_HERO_59t": "TB_BaconShop_HP_065t2"}
TICKATUS_POWER = "TB_BaconShop_HP_106"
AKAZAMZARAK_POWER = "TB_BaconShop_HP_020"
# Minions the Secrets summon: Venomstrike Trap's Cobra, Snake Trap's Snakes; and
# Competitive Spirit's buff.
SECRET_TOKENS = ("EX1_170", "EX1_554t", "TB_Bacon_Secrets_13e")
# Tokens some Darkmoon Prizes create: Pocket Change's Gold Coins,
# B.A.N.A.N.A.S.'s Bananas.
PRIZE_TOKENS = ("TB_BaconShop_HP_008a", "TRL_509t")

_TYPE_NAMES = {4: "minion", 5: "spell", 3: "hero", 10: "hero_power", 6: "enchantment"}

_LEADING_KEYWORD = re.compile(r"^<b>([A-Za-z\- ]+)</b>\.?\s*")


def _plain_text(text: str) -> str:
    text = text.replace("[x]", "")
    text = re.sub(r"</?[bi]>", "", text)
    text = text.replace("_", " ").replace("\n", " ")
    return re.sub(r"\s+", " ", text).strip()


def _keywords(card: Any) -> list[str]:
    """Own keywords from the card's tags, plus leading bold keywords in its text.

    Some cards (Zapp Slywick, Seabreaker Goliath) carry Windfury only in text.
    """
    from hearthstone.enums import GameTag

    tags = card.tags
    found: set[str] = set()
    windfury = tags.get(GameTag.WINDFURY, 0)
    if windfury >= 3 or tags.get(GameTag.MEGA_WINDFURY, 0):
        found.add("mega_windfury")
    elif windfury:
        found.add("windfury")
    simple = {
        GameTag.TAUNT: "taunt",
        GameTag.DIVINE_SHIELD: "divine_shield",
        GameTag.POISONOUS: "poisonous",
        GameTag.REBORN: "reborn",
        GameTag.MAGNETIC: "magnetic",
        GameTag.DEATHRATTLE: "deathrattle",
        GameTag.BATTLECRY: "battlecry",
        GameTag.START_OF_COMBAT: "start_of_combat",
        GameTag.OVERKILL: "overkill",
        GameTag.FRENZY: "frenzy",
        GameTag.CHARGE: "charge",
    }
    for tag, name in simple.items():
        if tags.get(tag, 0):
            found.add(name)
    text = card.description.replace("[x]", "").replace("\n", " ").strip()
    while True:
        match = _LEADING_KEYWORD.match(text)
        if not match:
            break
        word = match.group(1).strip().lower().replace(" ", "_").replace("-", "_")
        if word in KEYWORDS:
            found.add(word)
        text = text[match.end() :]
    if "mega_windfury" in found:
        found.discard("windfury")
    if "deathrattle" in found or "battlecry" in found:
        lead = _plain_text(card.description)
        # "<b>Battlecry and Deathrattle:</b>" is one bold run; keep both.
        if lead.startswith("Battlecry and Deathrattle"):
            found |= {"battlecry", "deathrattle"}
    return [k for k in KEYWORDS if k in found]


def _tribes(card: Any) -> list[str]:
    races = [r.name for r in card.races]
    if "ALL" in races:
        return list(TRIBES)
    return [t for t in TRIBES if any(_RACE_TO_TRIBE.get(r) == t for r in races)]


def _entry(card: Any, *, tier: int, kind: str, golden: bool, **links: str | None) -> dict:
    from hearthstone.enums import CardType

    return {
        "id": card.id,
        "dbfId": card.dbf_id,
        "name": card.name,
        "type": "minion" if card.type == CardType.MINION else "spell",
        "tier": tier,
        "tribes": _tribes(card),
        "attack": card.atk,
        "health": card.health,
        "keywords": _keywords(card),
        "text": _plain_text(card.description),
        "legendary": bool(card.elite),
        "golden": golden,
        "golden_id": links.get("golden_id"),
        "normal_id": links.get("normal_id"),
        "in_pool": kind == "pool" and not golden,
        "kind": kind,
    }


def _hero_card_entry(card: Any, *, kind: str, golden: bool = False, **links: Any) -> dict:
    """An entry for a hero, a hero power or a card a hero power creates.

    Same fields as a pool card's, plus ``cost`` (spells, hero powers) and the
    links passed in (``hero_power``/``draftable`` for heroes, ``hero``/``passive``
    for hero powers, ``prize_turn`` for Darkmoon Prizes).
    """
    from hearthstone.enums import CardType, GameTag

    minion = card.type == CardType.MINION
    tier = card.tags.get(GameTag.TECH_LEVEL, 1) if minion else 0
    keep = {k: v for k, v in links.items() if k in ("golden_id", "normal_id")}
    entry = _entry(card, tier=tier, kind=kind, golden=golden, **keep)
    entry["type"] = _TYPE_NAMES[card.type]
    if card.type in (CardType.SPELL, CardType.HERO_POWER):
        entry["cost"] = card.cost
    prize_turn = card.tags.get(GameTag.BATTLEGROUNDS_DARKMOON_PRIZE_TURN, 0)
    if prize_turn:
        entry["prize_turn"] = prize_turn
    if card.tags.get(GameTag.SECRET, 0):
        entry["secret"] = True
    entry.update({k: v for k, v in links.items() if k not in keep})
    return entry


def _is_passive(power: Any) -> bool:
    """A hero power with nothing to activate: the game hides its cost (HIDE_COST).

    That is every "Passive Hero Power", plus Chenvaala's Avalanche and Ragnaros's
    DIE, INSECTS!, whose texts say "Hero Power" but which only trigger.
    """
    from hearthstone.enums import GameTag

    return bool(power.tags.get(GameTag.HIDE_COST, 0))


def _power_id(hero: Any, by_dbf: dict) -> str:
    from hearthstone.enums import GameTag

    if hero.id in HERO_POWER_OVERRIDES:
        return HERO_POWER_OVERRIDES[hero.id]
    return by_dbf[hero.tags[GameTag.HERO_POWER]].id


def _hero_cards(db: Any, by_dbf: dict, known: set[str]) -> tuple[list[dict], dict]:
    """Entries for the draftable heroes, their powers and what the powers create.

    Returns (entries, created_by) where created_by maps each hero power id to
    (normal, golden) pairs. Ids already in ``known`` (pool cards, tokens) get no
    second entry.
    """
    from hearthstone.enums import CardType, GameTag

    heroes = [c for c in db.values() if c.tags.get(GameTag.BACON_HERO_CAN_BE_DRAFTED)]
    heroes.sort(key=lambda c: (c.name, c.id))
    power_of = {h.id: by_dbf[h.tags[GameTag.HERO_POWER]] for h in heroes}
    created: dict[str, tuple[tuple[str, str | None], ...]] = dict(HERO_CREATED_BY)
    created[SIR_FINLEY_POWER] = tuple(
        (power_of[h.id].id, None) for h in heroes if power_of[h.id].id not in FINLEY_EXCLUDED
    )
    prizes = sorted(
        c.id
        for c in db.values()
        if c.type == CardType.SPELL and c.tags.get(GameTag.BATTLEGROUNDS_DARKMOON_PRIZE_TURN)
    )
    created[TICKATUS_POWER] = tuple((i, None) for i in (*prizes, *PRIZE_TOKENS))
    secrets = sorted(
        c.id
        for c in db.values()
        if c.id.startswith("TB_Bacon_Secrets_")
        and c.type == CardType.SPELL
        and c.tags.get(GameTag.SECRET)
    )
    created[AKAZAMZARAK_POWER] = tuple((i, None) for i in (*secrets, *SECRET_TOKENS))

    entries: list[dict] = []
    owner: dict[str, str] = {}  # hero power id -> hero id
    for hero in heroes:
        power = power_of[hero.id]
        owner[power.id] = hero.id
        entries.append(_hero_card_entry(hero, kind="hero", hero_power=power.id, draftable=True))
    for hero in heroes:
        for made, _ in created.get(power_of[hero.id].id, ()):
            card = db[made]
            if card.type == CardType.HERO:
                owner[_power_id(card, by_dbf)] = card.id
            elif card.type == CardType.HERO_POWER:
                owner.setdefault(card.id, hero.id)
    powers = {power_of[h.id].id for h in heroes}
    out: list[dict] = []
    for hero_entry in entries:
        out.append(hero_entry)
        power = db[hero_entry["hero_power"]]
        out.append(
            _hero_card_entry(
                power,
                kind="hero_power",
                hero=owner[power.id],
                passive=_is_passive(power),
            )
        )
    emitted = known | {h.id for h in heroes} | powers
    extra: list[tuple[str, str | None]] = []
    for pairs in created.values():
        for normal_id, golden_id in pairs:
            if normal_id not in emitted:
                emitted.add(normal_id)
                extra.append((normal_id, golden_id))
    for normal_id, golden_id in sorted(extra):
        card = db[normal_id]
        links: dict[str, Any] = {}
        if card.type == CardType.HERO:
            links = {"hero_power": _power_id(card, by_dbf), "draftable": False}
        elif card.type == CardType.HERO_POWER:
            links = {"hero": owner[card.id], "passive": _is_passive(card)}
        out.append(_hero_card_entry(card, kind="hero_token", golden_id=golden_id, **links))
        if golden_id is not None:
            out.append(
                _hero_card_entry(db[golden_id], kind="hero_token", golden=True, normal_id=normal_id)
            )
    return out, created


def build_cards(xml_path: str | None = None) -> dict:
    """Return the cards document (pool, goldens, tokens, heroes) as a plain dict."""
    from hearthstone import cardxml
    from hearthstone.enums import GameTag

    db, _ = cardxml.load(xml_path, locale="enUS")
    by_dbf = {c.dbf_id: c for c in db.values()}
    pool = [
        c
        for c in db.values()
        if c.tags.get(GameTag.IS_BACON_POOL_MINION) and c.id not in DUPLICATE_POOL_IDS
    ]
    pool.sort(key=lambda c: (c.tags[GameTag.TECH_LEVEL], c.name, c.id))
    entries: list[dict] = []
    for card in pool:
        tier = card.tags[GameTag.TECH_LEVEL]
        golden = by_dbf[card.tags[GameTag.BACON_TRIPLE_UPGRADE_MINION_ID]]
        entries.append(_entry(card, tier=tier, kind="pool", golden=False, golden_id=golden.id))
        entries.append(_entry(golden, tier=tier, kind="pool", golden=True, normal_id=card.id))
    seen: set[str] = set()
    tokens: list[tuple[str, str | None]] = []
    for card in pool:
        for pair in CREATED_BY.get(card.id, ()):
            if pair[0] not in seen:
                seen.add(pair[0])
                tokens.append(pair)
    tokens.extend((card_id, None) for card_id in GAME_GENERATED)
    # Heroes go between the pool and the tokens so that every earlier line of
    # cards.json stays byte-identical.
    known = {e["id"] for e in entries} | {i for pair in tokens for i in pair if i}
    hero_entries, hero_created = _hero_cards(db, by_dbf, known)
    entries.extend(hero_entries)
    for normal_id, golden_id in sorted(tokens):
        normal = db[normal_id]
        tier = normal.tags.get(GameTag.TECH_LEVEL, 1) if normal.type == 4 else 0
        entries.append(_entry(normal, tier=tier, kind="token", golden=False, golden_id=golden_id))
        if golden_id is not None:
            entries.append(
                _entry(db[golden_id], tier=tier, kind="token", golden=True, normal_id=normal_id)
            )
    return {
        "build": BUILD,
        "source": f"CardDefs.xml from hearthstone-data=={HEARTHSTONE_DATA_VERSION}",
        "tribes": list(TRIBES),
        "keywords": list(KEYWORDS),
        "created_by": {k: [list(p) for p in v] for k, v in {**CREATED_BY, **hero_created}.items()},
        "cards": entries,
    }


def render(doc: dict) -> str:
    """Serialise deterministically (one card per line keeps diffs readable)."""
    head = {k: v for k, v in doc.items() if k != "cards"}
    lines = ["{"]
    for key, value in head.items():
        lines.append(f"  {json.dumps(key)}: {json.dumps(value, sort_keys=True)},")
    lines.append('  "cards": [')
    cards = [json.dumps(c, ensure_ascii=False) for c in doc["cards"]]
    lines.append(",\n".join("    " + c for c in cards))
    lines.append("  ]")
    lines.append("}")
    return "\n".join(lines) + "\n"


def installed_build() -> str:
    """The hearthstone-data version installed, or raise with the install hint."""
    try:
        from importlib.metadata import version

        import hearthstone  # noqa: F401

        return version("hearthstone-data")
    except Exception as exc:  # ImportError or PackageNotFoundError
        raise RuntimeError(
            "`bgsim data build` needs the data extra: pip install 'bgsim[data]'"
        ) from exc


def write_cards(out: Path) -> Path:
    found = installed_build()
    if found != HEARTHSTONE_DATA_VERSION:
        raise RuntimeError(
            f"hearthstone-data {found} is installed; cards.json is pinned to "
            f"{HEARTHSTONE_DATA_VERSION} (game build {BUILD})"
        )
    text = render(build_cards())
    with atomic_write(out) as f:
        f.write(text)
    return out
