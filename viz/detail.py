"""A card's full detail: what the viewer shows for the card under the mouse or
the card the current action touched.

:func:`card_detail` gathers it (name, golden, tier, minion types, stats,
keywords, the card's text from :func:`bgsim.cards.cards`, its golden text for a
golden card; for a hero, its Health and hero power; for a hero power, its cost
and text with its counter filled in); :func:`detail_lines` is that as the lines
drawn; and
:func:`draw_card_detail` draws them in a box beside the card.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pygame

from bgsim.cards import TRIBES, Card, cards
from bgsim.heroes import power_text
from viz.frames import CardView
from viz.theme import (
    BASE_SIZE,
    DIM,
    GOLD,
    KEYWORD_BADGES,
    TEXT,
    get_font,
    wrap_text,
)
from viz.widgets import Painter, draw_chip

DETAIL_WIDTH = 300
_PAD = 12


@dataclass(frozen=True, slots=True)
class CardDetail:
    name: str
    golden: bool
    tier: int
    kind: str  # minion types ("Murloc", "Neutral", "All types"), "Spell", "Hero", "Hero Power"
    attack: int | None  # None for spells
    health: int | None
    printed: tuple[int, int] | None  # the card's own stats when the shown ones differ
    keywords: tuple[str, ...]  # keyword names as people read them, legend order
    text: str  # paragraphs separated by newlines


def keyword_name(key: str) -> str:
    """A keyword as people read it ("divine_shield" -> "Divine Shield")."""
    if key in KEYWORD_BADGES:
        return KEYWORD_BADGES[key][2]
    return key.replace("_", " ").title()


def _data(card: CardView) -> Card | None:
    """The card data entry of a view card: its golden entry when the card is golden."""
    db = cards()
    if card.card not in db:
        return None
    data = db[card.card]
    if card.golden and not data.golden:
        data = db.golden(data) or data
    return data


# Keywords the card texts open with, without a colon ("Divine Shield After a ...").
_LEADING = ("Mega-Windfury", "Divine Shield", "Windfury", "Poisonous", "Magnetic", "Reborn",
            "Charge", "Taunt")  # fmt: skip
_LEAD = re.compile(rf"^({'|'.join(re.escape(k) for k in _LEADING)})\.?(?:\s+|$)")


def text_paragraphs(text: str) -> list[str]:
    """A card text as paragraphs: the bare keywords it opens with go on a first
    line ("Divine Shield After a friendly ..." -> "Divine Shield.", "After a ...")."""
    keys: list[str] = []
    while m := _LEAD.match(text):
        keys.append(m.group(1))
        text = text[m.end() :]
    lead = [". ".join(keys) + "."] if keys else []
    return lead + ([text.strip()] if text.strip() else [])


def _kind(card: CardView, data: Card | None) -> str:
    if data is not None and data.type == "hero":
        return "Hero"
    if data is not None and data.type == "hero_power":
        if data.passive:
            return "Passive Hero Power"
        return f"Hero Power  ·  {data.cost or 0} gold"
    if data is not None and not data.is_minion:
        return "Spell"
    tribes = set(data.tribes if data is not None else card.tribes)
    if not tribes:
        return "Neutral"
    if tribes >= set(TRIBES):
        return "All types"
    return ", ".join(t.capitalize() for t in sorted(tribes))


def card_detail(card: CardView) -> CardDetail:
    """Everything the detail box says about ``card`` (stats as shown on the card)."""
    data = _data(card)
    spell = data is not None and not data.is_minion
    keys = set(card.keywords) | (set(data.keywords) if data is not None else set())
    order = list(KEYWORD_BADGES)
    ranked = sorted(keys, key=lambda k: (order.index(k) if k in order else len(order), k))
    text = data.text if data is not None else ""
    if data is not None and data.type == "hero":
        db = cards()
        power = db[data.hero_power] if data.hero_power and data.hero_power in db else None
        text = f"{card.health or data.health} Health."
        if power is not None:
            cost = "passive" if power.passive else f"{power.cost or 0} gold"
            text += f"\nHero Power: {power.name} ({cost}).\n{power_text(power.text, None)}"
    elif data is not None and data.type == "hero_power":
        text = power_text(text, card.counter)
    else:
        if "@" in text and card.tier > 0:  # Triple Reward's tier is the card's own
            text = text.replace("@", str(card.tier))
        text = "\n".join(text_paragraphs(text))
    printed = None
    if data is not None and not spell and (data.attack, data.health) != (card.attack, card.health):
        printed = (data.attack, data.health)
    return CardDetail(
        name=card.name,
        golden=card.golden,
        tier=card.tier,
        kind=_kind(card, data),
        attack=None if spell else card.attack,
        health=None if spell else card.health,
        printed=printed,
        keywords=tuple(keyword_name(k) for k in ranked),
        text=text,
    )


def detail_lines(card: CardView) -> list[str]:
    """The detail as plain lines: name, golden/tier/types, stats, keywords, text."""
    d = card_detail(card)
    head = [f"Tier {d.tier}" if d.tier > 0 else "", d.kind]
    if d.golden:
        head.insert(0, "Golden")
    lines = [d.name, "  ·  ".join(h for h in head if h)]
    if d.attack is not None:
        stats = f"Attack {d.attack}  ·  Health {d.health}"
        if d.printed is not None:
            stats += f"  (card: {d.printed[0]}/{d.printed[1]})"
        lines.append(stats)
    lines.append("Keywords: " + (", ".join(d.keywords) if d.keywords else "none"))
    lines += d.text.splitlines()
    return lines


def place_box(size: tuple[int, int], near: pygame.Rect, above: bool = False) -> pygame.Rect:
    """A box of ``size`` beside ``near`` (right of it, else left), its top at
    ``near``'s top (its bottom, with ``above``), kept on the screen."""
    w, h = size
    screen_w, screen_h = BASE_SIZE
    x = near.right + 10 if near.right + 10 + w <= screen_w - 4 else near.x - 10 - w
    x = max(4, min(x, screen_w - 4 - w))
    y = max(44, min(near.y - h if above else near.y, screen_h - 4 - h))
    return pygame.Rect(x, y, w, h)


def draw_card_detail(
    p: Painter, card: CardView, near: pygame.Rect, above: bool = False
) -> pygame.Rect:
    """The detail box of ``card`` beside ``near`` (see :func:`place_box`); its rect.
    Texts go to region "detail"."""
    d = card_detail(card)
    lines = detail_lines(card)
    inner = DETAIL_WIDTH - 2 * _PAD
    name_lines = wrap_text(d.name, 26, True, inner, 2)
    text_lines = [
        line for par in d.text.splitlines() for line in wrap_text(par, 20, False, inner, 6)
    ]
    chip_font = get_font(20, True)
    rows: list[list[str]] = [[]]
    for name in d.keywords:
        width = sum(chip_font.size(k)[0] + 16 for k in rows[-1])
        if rows[-1] and width + chip_font.size(name)[0] + 10 > inner:
            rows.append([])
        rows[-1].append(name)
    if not d.keywords:
        rows = []
    height = _PAD + 24 * len(name_lines) + 24 + (24 if d.attack is not None else 0)
    height += 25 * len(rows) + 18 * len(text_lines) + _PAD + 6
    box = place_box((DETAIL_WIDTH, height), near, above)

    p.region = "detail"
    veil = pygame.Surface(box.size, pygame.SRCALPHA)
    pygame.draw.rect(veil, (12, 14, 24, 240), veil.get_rect(), border_radius=10)
    p.surface.blit(veil, box)
    pygame.draw.rect(p.surface, GOLD if d.golden else (150, 156, 180), box, 2, border_radius=10)
    p.occlude(box)
    x, y = box.x + _PAD, box.y + _PAD
    for line in name_lines:
        p.text(line, (x, y), 26, GOLD if d.golden else TEXT, bold=True)
        y += 24
    p.text(lines[1], (x, y + 2), 20, GOLD if d.golden else DIM)
    y += 24
    if d.attack is not None:
        p.text(lines[2], (x, y + 2), 20, TEXT)
        y += 24
    by_name = {v[2]: v[1] for v in KEYWORD_BADGES.values()}
    for row in rows:
        cx = x
        for name in row:
            fill = by_name.get(name, (120, 120, 120))
            chip = draw_chip(p, (cx, y + 11), name, fill, 20, "midleft")
            cx = chip.right + 6
        y += 25
    y += 4
    for line in text_lines:
        p.text(line, (x, y), 20, TEXT)
        y += 18
    return box
