"""Generate ``data/cards.json`` from HearthSim's ``CardDefs.xml`` (build 77662).

Needs the ``data`` extra (``pip install .[data]``). Runtime code never imports
this module's dependencies; it only reads the committed JSON.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

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


def build_cards(xml_path: str | None = None) -> dict:
    """Return the cards document (pool, goldens, tokens) as a plain dict."""
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
        "created_by": {k: [list(p) for p in v] for k, v in CREATED_BY.items()},
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
    out.write_text(render(build_cards()), encoding="utf-8")
    return out
