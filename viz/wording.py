"""Recruit actions in words: ``Buy(0)`` becomes "buys Rockpool Hunter (3 gold)",
``ChooseHero(1)`` "chooses Millhouse Manastorm", ``HeroPower(target=0)`` "uses
Boon of Light on Alleycat (2 gold)".

:func:`describe_action` reads an action record's text (``code`` when the text
cannot be read) and the acting player's tavern views (the replay's VIEW dicts)
before and after it: the cards come from the view before, gold amounts from
the difference between the two. Slots are numbered from 1 for people. It also
says which card the action touched and where that card is afterwards, so the
viewer can select it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bgsim.actions import (
    ACTIONS,
    Action,
    Buy,
    Choose,
    ChooseHero,
    EndTurn,
    Freeze,
    HeroPower,
    IllegalActionError,
    Move,
    Play,
    Refresh,
    Sell,
    Upgrade,
    decode,
)
from bgsim.cards import cards
from bgsim.rules import battlecry_target

View = Mapping[str, Any]
CardDict = Mapping[str, Any]

_CALL = re.compile(r"^\s*(\w+)\s*(?:\((.*)\))?\s*$")
_TYPES: dict[str, type] = {type(a).__name__: type(a) for a in ACTIONS}


@dataclass(frozen=True, slots=True)
class Said:
    """An action in words, and the card it touched.

    ``zone`` and ``slot`` say where ``card`` is in the view after the action
    ("hand", "board", "shop" or "discover"); both are None when it has left
    the tavern (sold, a spell cast). ``card`` is None for actions on no card.
    """

    text: str
    card: CardDict | None = None
    zone: str | None = None
    slot: int | None = None


def parse_action(text: str, code: int | None = None) -> Action | None:
    """The action an action record names: its text (``Play(hand=0, pos=2)``,
    ``Move(1, 3)``, ``Freeze``), else its integer ``code``; None if neither reads."""
    m = _CALL.match(text)
    if m and m.group(1) in _TYPES:
        args: list[int | None] = []
        kwargs: dict[str, int | None] = {}
        try:
            for part in filter(None, (s.strip() for s in (m.group(2) or "").split(","))):
                key, _, value = part.rpartition("=")
                number = None if value.strip() == "None" else int(value)
                if key:
                    kwargs[key.strip()] = number
                else:
                    args.append(number)
            return _TYPES[m.group(1)](*args, **kwargs)
        except (TypeError, ValueError):
            pass
    if code is not None:
        try:
            return decode(code)
        except IllegalActionError:
            return None
    return None


def card_name(card: CardDict | None, fallback: str = "a card") -> str:
    """A view card's name for a sentence ("golden Scallywag")."""
    if card is None:
        return fallback
    return f"golden {card['name']}" if card.get("golden") else str(card["name"])


def _at(view: View | None, zone: str, slot: int | None) -> CardDict | None:
    if view is None or slot is None:
        return None
    row = view.get(zone, ())
    return row[slot] if 0 <= slot < len(row) else None


def _gold(before: View | None, after: View) -> int | None:
    """Gold gained by the action (negative: spent); None without a view before."""
    return None if before is None else int(after["gold"]) - int(before["gold"])


def _cost(before: View | None, after: View) -> str:
    spent = _gold(before, after)
    if spent is None:
        return ""
    return " (free)" if spent >= 0 else f" ({-spent} gold)"


def _find(view: View, zone: str, card: CardDict | None) -> int | None:
    """The last slot of ``zone`` holding ``card``'s card id (new cards go last)."""
    if card is None:
        return None
    row = view.get(zone, ())
    for k in range(len(row) - 1, -1, -1):
        if row[k]["card"] == card["card"]:
            return k
    return None


def _new_golden(before: View | None, after: View) -> tuple[CardDict, int] | None:
    """A golden card that came into the hand with this action (a triple), and its slot."""
    if before is None:
        return None
    had = Counter(c["card"] for c in before.get("hand", ()) if c.get("golden"))
    hand = after.get("hand", ())
    for k, c in enumerate(hand):
        if c.get("golden"):
            if had[c["card"]] > 0:
                had[c["card"]] -= 1
            else:
                return c, k
    return None


def _is_spell(card: CardDict) -> bool:
    db = cards()
    return card["card"] in db and not db[card["card"]].is_minion


def _targets_shop(card: CardDict) -> bool:
    db = cards()
    if card["card"] not in db:
        return False
    return battlecry_target(db.normal(card["card"]).id) == "shop"


def _play(action: Play, before: View | None, after: View) -> Said:
    card = _at(before, "hand", action.hand)
    name = card_name(card, f"the card in hand slot {action.hand + 1}")
    if card is not None and _is_spell(card):
        gained = _gold(before, after)
        extra = f" (+{gained} gold)" if gained is not None and gained > 0 else ""
        if gained is not None and gained < 0:
            extra = f" ({-gained} gold)"
        if action.target is not None:  # a spell aimed at a friendly minion
            target = _at(before, "board", action.target)
            on = card_name(target, f"the minion in slot {action.target + 1}")
            slot = action.target if _at(after, "board", action.target) is not None else None
            placed = _at(after, "board", action.target)
            return Said(
                f"casts {name} on {on}{extra}",
                placed if placed is not None else card,
                "board" if slot is not None else None,
                slot,
            )
        return Said(f"casts {name}{extra}", card)
    if action.pos is None and action.target is not None:  # a Magnetic minion attaches
        mech = _at(before, "board", action.target)
        slot = action.target if _at(after, "board", action.target) is not None else None
        where = "board" if slot is not None else None
        onto = card_name(mech, f"the minion in slot {action.target + 1}")
        return Said(f"plays {name} onto {onto}", card, where, slot)
    pos = action.pos if action.pos is not None else len(before["board"]) if before else 0
    text = f"plays {name} into slot {pos + 1}"
    if action.target is not None and card is not None:
        zone = "shop" if _targets_shop(card) else "board"
        target = _at(before, zone, action.target)
        text += f" and targets {card_name(target, f'slot {action.target + 1}')}"
        if zone == "shop":
            text += " in the tavern"
    placed = _at(after, "board", pos)
    if card is not None and placed is not None and placed["name"] == card["name"]:
        return Said(text, placed, "board", pos)
    slot = _find(after, "board", card)
    return Said(text, card, "board" if slot is not None else None, slot)


def _card_name(card_id: str) -> str:
    db = cards()
    return db[card_id].name if card_id in db else card_id


def _choose_hero(action: ChooseHero, before: View | None, after: View) -> Said:
    hero = after.get("hero")
    if not isinstance(hero, Mapping):
        return Said(f"chooses option {action.option + 1} of the draft")
    had = before.get("hero") if before is not None else None
    if isinstance(had, Mapping) and had.get("hero") == hero.get("hero"):
        return Said(f"chooses the hero power {_card_name(str(hero['power']))}")
    return Said(f"chooses {_card_name(str(hero['hero']))}")


def _hero_power(action: HeroPower, before: View | None, after: View) -> Said:
    hero = (before or {}).get("hero") or after.get("hero")
    name = _card_name(str(hero["power"])) if isinstance(hero, Mapping) else "the hero power"
    cost = _cost(before, after)
    if action.target is not None:
        card = _at(before, "board", action.target)
        on = card_name(card, f"the minion in slot {action.target + 1}")
        placed = _at(after, "board", action.target)
        where = "board" if placed is not None else None
        slot = action.target if placed is not None else None
        return Said(f"uses {name} on {on}{cost}", placed or card, where, slot)
    if action.shop is not None:
        card = _at(before, "shop", action.shop)
        on = card_name(card, f"the minion in shop slot {action.shop + 1}")
        placed = _at(after, "shop", action.shop)
        where = "shop" if placed is not None else None
        slot = action.shop if placed is not None else None
        return Said(f"uses {name} on {on} in the tavern{cost}", placed or card, where, slot)
    if action.player is not None:
        return Said(f"uses {name} on player {action.player + 1}{cost}")
    return Said(f"uses {name}{cost}")


def describe_action(text: str, code: int | None, before: View | None, after: View) -> Said:
    """An action in words, from its record's ``action`` text and ``code`` and the
    acting player's views before (None when unknown) and after it."""
    action = parse_action(text, code)
    said = _describe(action, text, before, after)
    golden = _new_golden(before, after)
    if golden is not None:
        card, slot = golden
        said = Said(f"{said.text}, completing a triple: golden {card['name']}", card, "hand", slot)
    return said


def _describe(action: Action | None, text: str, before: View | None, after: View) -> Said:
    if isinstance(action, EndTurn):
        return Said("ends the turn")
    if isinstance(action, Refresh):
        return Said(f"refreshes{_cost(before, after)}")
    if isinstance(action, Freeze):
        return Said("freezes the tavern" if after["frozen"] else "unfreezes the tavern")
    if isinstance(action, Upgrade):
        return Said(f"upgrades to tier {after['tier']}{_cost(before, after)}")
    if isinstance(action, Buy):
        card = _at(before, "shop", action.slot)
        name = card_name(card, f"the minion in shop slot {action.slot + 1}")
        slot = _find(after, "hand", card)
        return Said(
            f"buys {name}{_cost(before, after)}", card, "hand" if slot is not None else None, slot
        )
    if isinstance(action, Sell):
        card = _at(before, "board", action.slot)
        gained = _gold(before, after)
        gold = "" if gained is None else f" (+{gained} gold)"
        name = card_name(card, f"the minion in slot {action.slot + 1}")
        return Said(f"sells {name}{gold}", card)
    if isinstance(action, Choose):
        card = _at(before, "discover", action.option)
        name = card_name(card, f"option {action.option + 1}")
        slot = _find(after, "hand", card)
        return Said(f"discovers {name}", card, "hand" if slot is not None else None, slot)
    if isinstance(action, Move):
        card = _at(before, "board", action.src)
        name = card_name(card, f"the minion in slot {action.src + 1}")
        moved = _at(after, "board", action.dst)
        return Said(
            f"moves {name} to slot {action.dst + 1}",
            moved or card,
            "board" if moved is not None else None,
            action.dst if moved is not None else None,
        )
    if isinstance(action, Play):
        return _play(action, before, after)
    if isinstance(action, ChooseHero):
        return _choose_hero(action, before, after)
    if isinstance(action, HeroPower):
        return _hero_power(action, before, after)
    return Said(text)
