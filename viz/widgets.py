"""Drawing blocks the panels are made of: the :class:`Painter`, icons, chips,
panels and cards (:func:`draw_card`, and rows of them).

The painter remembers where each card was drawn (:class:`DrawnCard`), so the
viewer can tell which card the mouse is over (:func:`card_at`).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

import pygame

from viz.frames import CardView
from viz.theme import (
    CARD_BODY,
    CARD_EDGE,
    DIM,
    FAINT,
    FROST,
    GOLD,
    GOLD_DARK,
    GOLDEN_BODY,
    KEYWORD_BADGES,
    NEUTRAL_ART,
    ORANGE,
    PANEL,
    PANEL_EDGE,
    RED,
    TEXT,
    TRIBE_COLORS,
    fit_text,
    get_font,
    hero_color,
    initials,
    render_text,
    wrap_text,
)

_M = 10  # margin around a card's own surface for its taunt frame and glows


@dataclass(frozen=True, slots=True)
class DrawnCard:
    """A card on screen: its rect, the region it was drawn in and its slot there."""

    rect: pygame.Rect
    card: CardView
    region: str
    slot: int | None = None


class Painter:
    """Draws on a surface and records every text per region (for tests/describe)
    and every card drawn on the screen (:attr:`cards`, in drawing order)."""

    def __init__(
        self,
        surface: pygame.Surface,
        texts: dict[str, list[str]] | None = None,
        region: str = "caption",
    ) -> None:
        self.surface = surface
        self.texts: dict[str, list[str]] = texts if texts is not None else defaultdict(list)
        self.region = region
        self.cards: list[DrawnCard] = []

    def on(self, surface: pygame.Surface) -> Painter:
        """A painter for another surface that records into the same texts (its
        cards are not on the screen, so they are not recorded)."""
        return Painter(surface, self.texts, self.region)

    def occlude(self, rect: pygame.Rect) -> None:
        """Forget the cards under ``rect``: an overlay now hides them."""
        self.cards = [d for d in self.cards if not d.rect.colliderect(rect)]

    def text(
        self,
        text: str,
        pos: tuple[float, float],
        size: int = 20,
        color: tuple[int, ...] = TEXT,
        *,
        bold: bool = False,
        anchor: str = "topleft",
        outline: tuple[int, ...] | None = None,
        width: int | None = None,
    ) -> pygame.Rect:
        """Draw ``text`` with its ``anchor`` at ``pos`` (cut to ``width``); its rect."""
        if width is not None:
            text = fit_text(text, size, bold, width)
        img = render_text(text, size, color, bold)
        rect = img.get_rect(**{anchor: (round(pos[0]), round(pos[1]))})
        if outline is not None:
            shadow = render_text(text, size, outline, bold)
            for dx, dy in ((-2, 0), (2, 0), (0, -2), (0, 2), (-1, -1), (1, 1), (-1, 1), (1, -1)):
                self.surface.blit(shadow, rect.move(dx, dy))
        self.surface.blit(img, rect)
        self.texts[self.region].append(text)
        return rect


# ---------------------------------------------------------------- icons


def draw_star(
    surface: pygame.Surface, center: tuple[float, float], r: float, color: tuple[int, ...]
) -> None:
    cx, cy = center
    points = []
    for i in range(10):
        radius = r if i % 2 == 0 else r * 0.45
        angle = -math.pi / 2 + i * math.pi / 5
        points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    pygame.draw.polygon(surface, color, points)


def draw_burst(
    surface: pygame.Surface, center: tuple[float, float], r: float, color: tuple[int, ...]
) -> None:
    """The jagged splash that carries a damage number."""
    cx, cy = center
    points = []
    for i in range(24):
        radius = r if i % 2 == 0 else r * 0.68
        angle = i * math.pi / 12
        points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    pygame.draw.polygon(surface, color, points)
    pygame.draw.polygon(surface, (90, 10, 10), points, 2)


def draw_snowflake(surface: pygame.Surface, center: tuple[float, float], r: float) -> None:
    cx, cy = center
    for k in range(3):
        angle = k * math.pi / 3
        dx, dy = r * math.cos(angle), r * math.sin(angle)
        pygame.draw.line(surface, (235, 248, 255), (cx - dx, cy - dy), (cx + dx, cy + dy), 2)
        for sign in (-1, 1):
            bx, by = cx + sign * dx * 0.6, cy + sign * dy * 0.6
            for turn in (-0.6, 0.6):
                a2 = angle + (0 if sign > 0 else math.pi) + turn * math.pi / 2
                ex, ey = bx + r * 0.35 * math.cos(a2), by + r * 0.35 * math.sin(a2)
                pygame.draw.line(surface, (235, 248, 255), (bx, by), (ex, ey), 1)


def draw_heart(surface: pygame.Surface, center: tuple[float, float], r: float) -> None:
    cx, cy = center
    pygame.draw.circle(surface, RED, (cx - r * 0.5, cy - r * 0.2), r * 0.55)
    pygame.draw.circle(surface, RED, (cx + r * 0.5, cy - r * 0.2), r * 0.55)
    pygame.draw.polygon(
        surface, RED, [(cx - r * 1.02, cy), (cx + r * 1.02, cy), (cx, cy + r * 1.05)]
    )


def draw_coin(surface: pygame.Surface, center: tuple[float, float], r: float) -> None:
    pygame.draw.circle(surface, GOLD, center, r)
    pygame.draw.circle(surface, GOLD_DARK, center, r, 2)
    pygame.draw.circle(surface, GOLD_DARK, center, r * 0.55, 1)


def draw_up_arrow(
    surface: pygame.Surface, center: tuple[float, float], r: float, color: tuple[int, ...]
) -> None:
    cx, cy = center
    pygame.draw.polygon(
        surface,
        color,
        [
            (cx, cy - r),
            (cx + r, cy),
            (cx + r * 0.4, cy),
            (cx + r * 0.4, cy + r),
            (cx - r * 0.4, cy + r),
            (cx - r * 0.4, cy),
            (cx - r, cy),
        ],
    )


def draw_portrait(
    p: Painter,
    center: tuple[int, int],
    name: str,
    r: int = 34,
    ring: tuple[int, ...] = GOLD,
    faded: bool = False,
) -> pygame.Rect:
    """A hero's portrait, drawn: a framed circle in the colour its name gives,
    a lighter crescent, and the hero's initials. Returns its rect."""
    color = hero_color(name)
    if faded:
        color = (color[0] // 2 + 30, color[1] // 2 + 30, color[2] // 2 + 30)
    cx, cy = center
    pygame.draw.circle(p.surface, (12, 12, 18), center, r + 4)
    pygame.draw.circle(p.surface, color, center, r)
    light = tuple(min(255, c + 50) for c in color)
    pygame.draw.circle(p.surface, light, (cx - r // 3, cy - r // 3), max(2, r // 2))
    pygame.draw.circle(p.surface, color, (cx - r // 5, cy - r // 5), max(2, r // 2))
    pygame.draw.circle(p.surface, ring, center, r + 4, max(2, r // 10))
    p.text(initials(name), center, max(14, r), TEXT, bold=True, anchor="center", outline=(0, 0, 0))
    return pygame.Rect(cx - r - 4, cy - r - 4, 2 * r + 8, 2 * r + 8)


def draw_tier_badge(p: Painter, center: tuple[float, float], tier: int, r: float = 14) -> None:
    """A hexagon with the tavern tier in it."""
    cx, cy = center
    points = [
        (
            cx + r * math.cos(math.pi / 6 + k * math.pi / 3),
            cy + r * math.sin(math.pi / 6 + k * math.pi / 3),
        )
        for k in range(6)
    ]
    pygame.draw.polygon(p.surface, (70, 60, 120), points)
    pygame.draw.polygon(p.surface, GOLD, points, 2)
    p.text(str(tier), center, int(r * 1.5), TEXT, bold=True, anchor="center")


def draw_arrow(
    surface: pygame.Surface,
    start: tuple[float, float],
    end: tuple[float, float],
    color: tuple[int, ...] = ORANGE,
) -> None:
    sx, sy = start
    ex, ey = end
    length = math.hypot(ex - sx, ey - sy)
    if length < 1:
        return
    ux, uy = (ex - sx) / length, (ey - sy) / length
    head = min(26.0, length / 2)
    bx, by = ex - ux * head, ey - uy * head
    wing = (-uy * head * 0.6, ux * head * 0.6)
    tip = [(ex, ey), (bx + wing[0], by + wing[1]), (bx - wing[0], by - wing[1])]
    pygame.draw.line(surface, (40, 20, 0), (sx, sy), (bx, by), 11)
    pygame.draw.line(surface, color, (sx, sy), (bx, by), 7)
    pygame.draw.polygon(surface, color, tip)
    pygame.draw.polygon(surface, (40, 20, 0), tip, 2)


# ---------------------------------------------------------------- panels and chips


def draw_panel(
    p: Painter, rect: pygame.Rect, title: str, color: tuple[int, ...] = PANEL, bottom: bool = False
) -> None:
    """A rounded panel with its title at the top (or at the bottom)."""
    pygame.draw.rect(p.surface, color, rect, border_radius=10)
    pygame.draw.rect(p.surface, PANEL_EDGE, rect, 2, border_radius=10)
    y = rect.bottom - 24 if bottom else rect.y + 7
    p.text(title, (rect.x + 12, y), 20, DIM, bold=True, width=rect.w - 24)


def draw_chip(
    p: Painter,
    pos: tuple[float, float],
    label: str,
    fill: tuple[int, ...],
    size: int = 15,
    anchor: str = "center",
) -> pygame.Rect:
    """A small rounded label placed by its ``anchor`` point; its rect."""
    w, h = get_font(size, True).size(label)
    rect = pygame.Rect(0, 0, w + 10, h)
    setattr(rect, anchor, (round(pos[0]), round(pos[1])))
    pygame.draw.rect(p.surface, fill, rect, border_radius=5)
    pygame.draw.rect(p.surface, (20, 20, 24), rect, 1, border_radius=5)
    dark = sum(fill[:3]) > 420
    p.text(label, rect.center, size, (20, 20, 24) if dark else TEXT, bold=True, anchor="center")
    return rect


# ---------------------------------------------------------------- cards


def _card_surface(
    p: Painter,
    card: CardView,
    size: tuple[int, int],
    *,
    frozen: bool = False,
    dying: bool = False,
    damaged: bool = False,
) -> pygame.Surface:
    """A card drawn on its own transparent surface (size plus a margin of ``_M``)."""
    w, h = size
    small = w < 100
    surf = pygame.Surface((w + 2 * _M, h + 2 * _M), pygame.SRCALPHA)
    cp = p.on(surf)
    body = pygame.Rect(_M, _M, w, h)
    if "taunt" in card.keywords:
        shield = [
            (_M - 7, _M - 3),
            (_M + w + 7, _M - 3),
            (_M + w + 7, _M + h - 22),
            (_M + w // 2, _M + h + 8),
            (_M - 7, _M + h - 22),
        ]
        pygame.draw.polygon(surf, (128, 130, 140), shield)
        pygame.draw.polygon(surf, (60, 60, 70), shield, 2)
    pygame.draw.rect(surf, GOLDEN_BODY if card.golden else CARD_BODY, body, border_radius=10)
    if card.golden:
        pygame.draw.rect(surf, GOLD, body, 4, border_radius=10)
    else:
        pygame.draw.rect(surf, CARD_EDGE, body, 2, border_radius=10)

    stars_y = _M + (9 if small else 11)
    star_r = 4 if small else 5
    gap = star_r * 2 + 2
    tier = max(0, min(card.tier, 6))
    x0 = _M + w / 2 - (tier - 1) * gap / 2
    for k in range(tier):
        draw_star(surf, (x0 + k * gap, stars_y), star_r, GOLD if card.golden else (230, 220, 170))

    name_size = 15 if small else 18
    top = _M + (17 if small else 21)
    for k, line in enumerate(wrap_text(card.name, name_size, True, w - 10, 2)):
        cp.text(
            line,
            (_M + w / 2, top + k * (name_size - 3)),
            name_size,
            TEXT,
            bold=True,
            anchor="midtop",
        )

    art_top = _M + (44 if small else 54)
    art = pygame.Rect(_M + 9, art_top, w - 18, h - (art_top - _M) - (38 if small else 50))
    tribe = card.tribes[0] if card.tribes else None
    pygame.draw.ellipse(surf, TRIBE_COLORS.get(tribe or "", NEUTRAL_ART), art)
    pygame.draw.ellipse(surf, (20, 22, 30), art, 2)
    words = [w for w in card.name.split() if w[:1].isupper() or w[:1].isdigit()]
    initials = "".join(word[0] for word in words[:2])
    if initials and art.h > 20:
        cp.text(
            initials.upper(),
            art.center,
            30 if small else 40,
            (235, 235, 240, 90),
            bold=True,
            anchor="center",
        )

    badges = [k for k in card.keywords if k in KEYWORD_BADGES]
    extra = [k for k in card.keywords if k not in KEYWORD_BADGES]
    chip = 17 if small else 21
    font = get_font(chip, True)
    widths = {kw: font.size(KEYWORD_BADGES[kw][0])[0] + 10 for kw in badges}
    rows: list[list[str]] = [[]]
    for kw in badges:
        if rows[-1] and sum(widths[j] + 2 for j in rows[-1]) + widths[kw] > w - 8:
            rows.append([])
        rows[-1].append(kw)
    y = art.bottom - (3 if small else 5)
    for row in reversed(rows):
        x = _M + w / 2 - (sum(widths[kw] + 2 for kw in row) - 2) / 2
        for kw in row:
            label, fill, _ = KEYWORD_BADGES[kw]
            draw_chip(cp, (x + widths[kw] / 2, y), label, fill, chip)
            x += widths[kw] + 2
        y -= font.get_height() + 1
    if extra:
        draw_chip(cp, (_M + w / 2, art.top + 2), "+" + ",".join(extra), (120, 120, 120), chip)

    if tribe and not small:
        cp.text(tribe.capitalize(), (_M + w / 2, _M + h - 7), 15, DIM, anchor="midbottom")
    r = 13 if small else 17
    stat_size = 24 if small else 30
    atk_c = (_M + r + 2, _M + h - r - 2)
    hp_c = (_M + w - r - 2, _M + h - r - 2)
    pygame.draw.circle(surf, (232, 172, 38), atk_c, r)
    pygame.draw.circle(surf, (60, 40, 0), atk_c, r, 2)
    pygame.draw.circle(surf, (196, 36, 36), hp_c, r)
    pygame.draw.circle(surf, (60, 0, 0), hp_c, r, 2)
    cp.text(str(card.attack), atk_c, stat_size, TEXT, bold=True, anchor="center", outline=(0, 0, 0))
    hp_color = (255, 120, 120) if damaged else TEXT
    cp.text(
        str(max(card.health, 0)),
        hp_c,
        stat_size,
        hp_color,
        bold=True,
        anchor="center",
        outline=(0, 0, 0),
    )

    if "divine_shield" in card.keywords:
        glow = pygame.Surface(surf.get_size(), pygame.SRCALPHA)
        pygame.draw.ellipse(glow, (255, 230, 90, 60), body.inflate(12, 10))
        pygame.draw.ellipse(glow, (255, 236, 120, 220), body.inflate(12, 10), 3)
        surf.blit(glow, (0, 0))
    if frozen:
        tint = pygame.Surface((w, h), pygame.SRCALPHA)
        pygame.draw.rect(tint, (110, 180, 255, 90), tint.get_rect(), border_radius=10)
        surf.blit(tint, body)
        pygame.draw.rect(surf, FROST, body, 3, border_radius=10)
        draw_snowflake(surf, (_M + w - 14, _M + 14), 9)
    if dying:
        pygame.draw.line(surf, RED, body.topleft, body.bottomright, 6)
        pygame.draw.line(surf, RED, body.topright, body.bottomleft, 6)
    return surf


def draw_card(
    p: Painter,
    rect: pygame.Rect,
    card: CardView,
    *,
    frozen: bool = False,
    dying: bool = False,
    damaged: bool = False,
    alpha: int = 255,
    slot: int | None = None,
) -> None:
    """Draw a card filling ``rect`` (its size picks the big or the small layout);
    ``slot`` is its place in its row, recorded with it for hit testing."""
    if alpha <= 0:
        return
    surf = _card_surface(p, card, rect.size, frozen=frozen, dying=dying, damaged=damaged)
    if alpha < 255:
        surf.set_alpha(alpha)
    p.surface.blit(surf, (rect.x - _M, rect.y - _M))
    p.cards.append(DrawnCard(pygame.Rect(rect), card, p.region, slot))


def card_at(drawn: Sequence[DrawnCard], pos: tuple[int, int]) -> DrawnCard | None:
    """The card drawn last (on top) at ``pos``, or None."""
    for d in reversed(drawn):
        if d.rect.collidepoint(pos):
            return d
    return None


def draw_selection(p: Painter, rect: pygame.Rect) -> None:
    """A glow around a selected card."""
    glow = pygame.Surface((rect.w + 28, rect.h + 28), pygame.SRCALPHA)
    for k in range(5):
        pygame.draw.rect(
            glow,
            (*GOLD, 60 + 40 * k),
            glow.get_rect().inflate(-4 * k, -4 * k),
            3,
            border_radius=16,
        )
    p.surface.blit(glow, (rect.x - 14, rect.y - 14))


def row_rects(region: pygame.Rect, n: int, size: tuple[int, int], y: int) -> list[pygame.Rect]:
    """``n`` card rects centred in ``region`` at ``y``, shrunk when they would not fit."""
    if n == 0:
        return []
    w, h = size
    gap = 12
    room = region.w - 24
    if n * w + (n - 1) * gap > room:
        scale = room / (n * w + (n - 1) * gap)
        w, h, gap = int(w * scale), int(h * scale), max(4, int(gap * scale))
    total = n * w + (n - 1) * gap
    x = region.x + (region.w - total) // 2
    return [pygame.Rect(x + k * (w + gap), y, w, h) for k in range(n)]


def draw_card_row(
    p: Painter,
    region: pygame.Rect,
    cards: Sequence[CardView],
    size: tuple[int, int],
    *,
    frozen: bool = False,
    empty: str = "",
) -> None:
    """``cards`` in a row below ``region``'s title, or the ``empty`` text when there are none."""
    y = region.y + 34
    if not cards:
        p.text(empty, region.center, 20, FAINT, anchor="center")
        return
    for k, (rect, card) in enumerate(
        zip(row_rects(region, len(cards), size, y), cards, strict=True)
    ):
        draw_card(p, rect, card, frozen=frozen, slot=k)
