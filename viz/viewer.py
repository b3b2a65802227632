"""The pygame replay viewer behind ``bgsim watch FILE``.

Everything is drawn with pygame primitives and pygame's built-in font, at a base
size of 1280x800 (other window sizes get a scaled copy). :data:`REGIONS` names
the parts of the layout; :func:`describe_frame` returns the texts drawn in each
region, which the tests use to check that the right things are on screen.

Keys: Space pause/resume · Left/Right previous/next frame (stepping pauses; the
step's animation still plays) · Up/Down previous/next turn · PageUp/PageDown
previous/next record (skips a fight) · Home/End · Tab / Shift+Tab / 1-8 show a
player · 0 follow the acting player · + / - speed · q, Esc or closing the window
quits.
"""

from __future__ import annotations

import math
import os
import sys
from collections import defaultdict
from collections.abc import Sequence

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame

from bgsim.replay import Replay, ReplayError, read_replay
from viz.frames import (
    CardView,
    CombatStep,
    Fighter,
    Frame,
    Frames,
    Shown,
    Standing,
    build_frames,
    player_label,
)

BASE_SIZE = (1280, 800)
FPS = 30
SPEEDS = (0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0)

BACKGROUND = (16, 20, 30)
PANEL = (28, 34, 50)
PANEL_EDGE = (58, 68, 94)
CAPTION_BG = (10, 12, 20)
TEXT = (232, 234, 242)
DIM = (140, 146, 166)
FAINT = (90, 96, 114)
GOLD = (244, 198, 64)
GOLD_DARK = (120, 90, 24)
RED = (222, 58, 58)
GREEN = (84, 204, 112)
ORANGE = (255, 146, 44)
FROST = (132, 196, 255)
CARD_BODY = (50, 56, 78)
CARD_EDGE = (124, 132, 156)
GOLDEN_BODY = (92, 72, 30)

SEAT_COLORS = (
    (214, 76, 76),
    (76, 140, 224),
    (86, 190, 104),
    (222, 170, 60),
    (168, 96, 214),
    (60, 190, 190),
    (226, 120, 180),
    (150, 150, 150),
)
TRIBE_COLORS = {
    "beast": (132, 96, 52),
    "demon": (112, 52, 140),
    "dragon": (168, 46, 46),
    "elemental": (196, 112, 40),
    "mech": (92, 112, 132),
    "murloc": (40, 136, 128),
    "pirate": (44, 70, 130),
    "all": (150, 120, 40),
}
NEUTRAL_ART = (78, 84, 100)
# Keyword badges: short label, fill colour, name for the legend.
KEYWORD_BADGES = {
    "taunt": ("T", (150, 150, 160), "Taunt"),
    "divine_shield": ("DS", (236, 206, 70), "Divine Shield"),
    "poisonous": ("P", (70, 180, 70), "Poisonous"),
    "windfury": ("W", (110, 200, 230), "Windfury"),
    "mega_windfury": ("MW", (40, 150, 230), "Mega-Windfury"),
    "reborn": ("R", (150, 220, 255), "Reborn"),
    "deathrattle": ("DR", (150, 90, 200), "Deathrattle"),
    "magnetic": ("M", (200, 120, 60), "Magnetic"),
    "start_of_combat": ("SC", (230, 120, 120), "Start of Combat"),
    "overkill": ("OK", (220, 80, 60), "Overkill"),
    "frenzy": ("F", (210, 60, 110), "Frenzy"),
    "battlecry": ("B", (190, 170, 120), "Battlecry"),
    "charge": ("C", (230, 150, 60), "Charge"),
}

CARD_SIZE = (124, 178)
SMALL_CARD = (84, 120)
_M = 10  # margin around a card's own surface for its taunt frame and glows

REGIONS: dict[str, pygame.Rect] = {
    "caption": pygame.Rect(0, 0, 1280, 40),
    "shop": pygame.Rect(12, 48, 960, 236),
    "board": pygame.Rect(12, 292, 960, 236),
    "hand": pygame.Rect(12, 536, 960, 168),
    "footer": pygame.Rect(12, 712, 960, 80),
    "standings": pygame.Rect(984, 48, 284, 424),
    "hero": pygame.Rect(984, 480, 284, 312),
    # Fights reuse the tavern's rows: the enemy where the shop is, the log in the hand row.
    "enemy_board": pygame.Rect(12, 48, 960, 236),
    "friendly_board": pygame.Rect(12, 292, 960, 236),
    "log": pygame.Rect(12, 536, 960, 168),
    "result": pygame.Rect(112, 236, 760, 104),
}


# ---------------------------------------------------------------- text and shapes

_fonts: dict[tuple[int, bool], pygame.font.Font] = {}
_text_cache: dict[tuple[str, int, tuple[int, ...], bool], pygame.Surface] = {}


def _font(size: int, bold: bool = False) -> pygame.font.Font:
    if not pygame.font.get_init():  # first use, or pygame.quit() dropped every font
        pygame.font.init()
        _fonts.clear()
        _text_cache.clear()
    key = (size, bold)
    if key not in _fonts:
        font = pygame.font.Font(None, size)  # pygame's bundled default font
        font.set_bold(bold)
        _fonts[key] = font
    return _fonts[key]


def _render(text: str, size: int, color: tuple[int, ...], bold: bool) -> pygame.Surface:
    key = (text, size, tuple(color), bold)
    img = _text_cache.get(key)
    if img is None:
        if len(_text_cache) > 4000:
            _text_cache.clear()
        img = _font(size, bold).render(text, True, color[:3])
        if len(color) == 4:
            img.set_alpha(color[3])
        _text_cache[key] = img
    return img


def _fit(text: str, size: int, bold: bool, width: int) -> str:
    font = _font(size, bold)
    if font.size(text)[0] <= width:
        return text
    while text and font.size(text + "...")[0] > width:
        text = text[:-1]
    return text.rstrip() + "..."


def _wrap(text: str, size: int, bold: bool, width: int, lines: int) -> list[str]:
    font = _font(size, bold)
    out: list[str] = []
    current = ""
    for word in text.split():
        trial = f"{current} {word}".strip()
        if font.size(trial)[0] <= width or not current:
            current = trial
        else:
            out.append(current)
            current = word
    if current:
        out.append(current)
    if len(out) > lines:
        out = [*out[: lines - 1], " ".join(out[lines - 1 :])]
    return [_fit(line, size, bold, width) for line in out]


class Painter:
    """Draws on a surface and records every text per region (for tests/describe)."""

    def __init__(
        self,
        surface: pygame.Surface,
        texts: dict[str, list[str]] | None = None,
        region: str = "caption",
    ) -> None:
        self.surface = surface
        self.texts: dict[str, list[str]] = texts if texts is not None else defaultdict(list)
        self.region = region

    def on(self, surface: pygame.Surface) -> Painter:
        """A painter for another surface that records into the same texts."""
        return Painter(surface, self.texts, self.region)

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
        if width is not None:
            text = _fit(text, size, bold, width)
        img = _render(text, size, color, bold)
        rect = img.get_rect(**{anchor: (round(pos[0]), round(pos[1]))})
        if outline is not None:
            shadow = _render(text, size, outline, bold)
            for dx, dy in ((-2, 0), (2, 0), (0, -2), (0, 2), (-1, -1), (1, 1), (-1, 1), (1, -1)):
                self.surface.blit(shadow, rect.move(dx, dy))
        self.surface.blit(img, rect)
        self.texts[self.region].append(text)
        return rect


def _star(surface: pygame.Surface, center: tuple[float, float], r: float, color: tuple) -> None:
    cx, cy = center
    points = []
    for i in range(10):
        radius = r if i % 2 == 0 else r * 0.45
        angle = -math.pi / 2 + i * math.pi / 5
        points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    pygame.draw.polygon(surface, color, points)


def _burst(surface: pygame.Surface, center: tuple[float, float], r: float, color: tuple) -> None:
    cx, cy = center
    points = []
    for i in range(24):
        radius = r if i % 2 == 0 else r * 0.68
        angle = i * math.pi / 12
        points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    pygame.draw.polygon(surface, color, points)
    pygame.draw.polygon(surface, (90, 10, 10), points, 2)


def _snowflake(surface: pygame.Surface, center: tuple[float, float], r: float) -> None:
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


def _heart(surface: pygame.Surface, center: tuple[float, float], r: float) -> None:
    cx, cy = center
    pygame.draw.circle(surface, RED, (cx - r * 0.5, cy - r * 0.2), r * 0.55)
    pygame.draw.circle(surface, RED, (cx + r * 0.5, cy - r * 0.2), r * 0.55)
    pygame.draw.polygon(
        surface, RED, [(cx - r * 1.02, cy), (cx + r * 1.02, cy), (cx, cy + r * 1.05)]
    )


def _coin(surface: pygame.Surface, center: tuple[float, float], r: float) -> None:
    pygame.draw.circle(surface, GOLD, center, r)
    pygame.draw.circle(surface, GOLD_DARK, center, r, 2)
    pygame.draw.circle(surface, GOLD_DARK, center, r * 0.55, 1)


def _up_arrow(surface: pygame.Surface, center: tuple[float, float], r: float, color: tuple) -> None:
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


def _tier_badge(p: Painter, center: tuple[float, float], tier: int, r: float = 14) -> None:
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


def _arrow(
    surface: pygame.Surface,
    start: tuple[float, float],
    end: tuple[float, float],
    color: tuple = ORANGE,
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


def _panel(
    p: Painter, rect: pygame.Rect, title: str, color: tuple = PANEL, bottom: bool = False
) -> None:
    """A rounded panel with its title at the top (or at the bottom)."""
    pygame.draw.rect(p.surface, color, rect, border_radius=10)
    pygame.draw.rect(p.surface, PANEL_EDGE, rect, 2, border_radius=10)
    y = rect.bottom - 24 if bottom else rect.y + 7
    p.text(title, (rect.x + 12, y), 20, DIM, bold=True, width=rect.w - 24)


def _chip(
    p: Painter, pos: tuple[float, float], label: str, fill: tuple, size: int = 15, anchor="center"
) -> pygame.Rect:
    w, h = _font(size, True).size(label)
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
        _star(surf, (x0 + k * gap, stars_y), star_r, GOLD if card.golden else (230, 220, 170))

    name_size = 15 if small else 18
    top = _M + (17 if small else 21)
    for k, line in enumerate(_wrap(card.name, name_size, True, w - 10, 2)):
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
    font = _font(chip, True)
    widths = {k: font.size(KEYWORD_BADGES[k][0])[0] + 10 for k in badges}
    rows: list[list[str]] = [[]]
    for k in badges:
        if rows[-1] and sum(widths[j] + 2 for j in rows[-1]) + widths[k] > w - 8:
            rows.append([])
        rows[-1].append(k)
    y = art.bottom - (3 if small else 5)
    for row in reversed(rows):
        x = _M + w / 2 - (sum(widths[k] + 2 for k in row) - 2) / 2
        for k in row:
            label, fill, _ = KEYWORD_BADGES[k]
            _chip(cp, (x + widths[k] / 2, y), label, fill, chip)
            x += widths[k] + 2
        y -= font.get_height() + 1
    if extra:
        _chip(cp, (_M + w / 2, art.top + 2), "+" + ",".join(extra), (120, 120, 120), chip)

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
        _snowflake(surf, (_M + w - 14, _M + 14), 9)
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
) -> None:
    """Draw a card filling ``rect`` (its size picks the big or the small layout)."""
    if alpha <= 0:
        return
    surf = _card_surface(p, card, rect.size, frozen=frozen, dying=dying, damaged=damaged)
    if alpha < 255:
        surf.set_alpha(alpha)
    p.surface.blit(surf, (rect.x - _M, rect.y - _M))


def _row(region: pygame.Rect, n: int, size: tuple[int, int], y: int) -> list[pygame.Rect]:
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


def _card_row(
    p: Painter,
    region: pygame.Rect,
    cards: Sequence[CardView],
    size: tuple[int, int],
    *,
    frozen: bool = False,
    empty: str = "",
) -> None:
    y = region.y + 34
    if not cards:
        p.text(empty, region.center, 20, FAINT, anchor="center")
        return
    for rect, card in zip(_row(region, len(cards), size, y), cards, strict=True):
        draw_card(p, rect, card, frozen=frozen)


# ---------------------------------------------------------------- sections


def _draw_caption(p: Painter, rect: pygame.Rect, caption: str, right: str) -> None:
    p.region = "caption"
    pygame.draw.rect(p.surface, CAPTION_BG, rect)
    pygame.draw.line(p.surface, PANEL_EDGE, rect.bottomleft, rect.bottomright, 2)
    r = p.text(right, (rect.right - 14, rect.centery), 20, DIM, anchor="midright")
    p.text(
        caption,
        (rect.x + 14, rect.centery),
        26,
        TEXT,
        bold=True,
        anchor="midleft",
        width=r.x - rect.x - 40,
    )


def _draw_tavern(p: Painter, shown: Shown, frames: Frames) -> None:
    tv = shown.tavern
    player = shown.perspective
    who = player_label(player, frames.agents) if player is not None else "nobody"
    p.region = "shop"
    rect = REGIONS["shop"]
    if tv is None:
        for name, title in (("shop", "TAVERN"), ("board", "WARBAND"), ("hand", "HAND")):
            p.region = name
            _panel(p, REGIONS[name], title)
            p.text(
                f"{who} has not played a turn yet", REGIONS[name].center, 22, FAINT, anchor="center"
            )
        return
    title = f"TAVERN  tier {tv.tier}  ·  {len(tv.shop)} for sale"
    _panel(p, rect, title, (30, 40, 62) if tv.frozen else PANEL)
    if tv.frozen:
        _snowflake(p.surface, (rect.right - 100, rect.y + 17), 10)
        p.text("FROZEN", (rect.right - 84, rect.y + 8), 22, FROST, bold=True)
    _card_row(p, rect, tv.shop, CARD_SIZE, frozen=tv.frozen, empty="the shop is empty")

    p.region = "board"
    rect = REGIONS["board"]
    _panel(p, rect, f"WARBAND  {len(tv.board)}/7")
    _card_row(p, rect, tv.board, CARD_SIZE, empty="no minions on the board")

    p.region = "hand"
    rect = REGIONS["hand"]
    _panel(p, rect, f"HAND  {len(tv.hand)}/10")
    _card_row(p, rect, tv.hand, SMALL_CARD, empty="empty hand")

    if tv.discover:
        p.region = "discover"
        area = REGIONS["board"].inflate(-40, -20)
        veil = pygame.Surface(area.size, pygame.SRCALPHA)
        pygame.draw.rect(veil, (8, 8, 16, 225), veil.get_rect(), border_radius=12)
        p.surface.blit(veil, area)
        pygame.draw.rect(p.surface, GOLD, area, 2, border_radius=12)
        p.text("DISCOVER  choose one", (area.x + 14, area.y + 6), 22, GOLD, bold=True)
        size = (CARD_SIZE[0] * 10 // 11, CARD_SIZE[1] * 10 // 11)
        for r, card in zip(
            _row(area, len(tv.discover), size, area.y + 30), tv.discover, strict=True
        ):
            draw_card(p, r, card)


def _portrait(p: Painter, center: tuple[int, int], player: int | None, r: int = 34) -> None:
    color = SEAT_COLORS[player % len(SEAT_COLORS)] if player is not None else FAINT
    pygame.draw.circle(p.surface, (12, 12, 18), center, r + 4)
    pygame.draw.circle(p.surface, color, center, r)
    pygame.draw.circle(p.surface, GOLD, center, r + 4, 3)
    label = f"P{player + 1}" if player is not None else "?"
    p.text(label, center, 34, TEXT, bold=True, anchor="center", outline=(0, 0, 0))


def _hero_head(p: Painter, rect: pygame.Rect, player: int | None, frames: Frames) -> int:
    _panel(p, rect, "HERO")
    _portrait(p, (rect.x + 52, rect.y + 76), player)
    if player is not None:
        p.text(f"player {player + 1}", (rect.x + 100, rect.y + 50), 28, TEXT, bold=True)
        p.text(frames.agents[player], (rect.x + 100, rect.y + 78), 22, DIM, width=rect.w - 110)
    return rect.y + 128


def _stat_line(p: Painter, x: int, y: int, icon: str, label: str, value: str, color=TEXT) -> None:
    center = (x + 12, y + 12)
    if icon == "health":
        _heart(p.surface, center, 11)
    elif icon == "gold":
        _coin(p.surface, center, 11)
    elif icon == "upgrade":
        _up_arrow(p.surface, center, 11, GREEN)
    elif icon == "tier":
        _tier_badge(p, center, int(value) if value.isdigit() else 0, 12)
    p.text(label, (x + 32, y + 3), 22, DIM)
    p.text(value, (x + 150, y + 12), 30, color, bold=True, anchor="midleft")


def _draw_hero(p: Painter, shown: Shown, frames: Frames) -> None:
    p.region = "hero"
    rect = REGIONS["hero"]
    frame = shown.frame
    player = shown.perspective
    if player is None:
        _draw_lobby(p, rect, frame, frames)
        return
    y = _hero_head(p, rect, player, frames)
    x = rect.x + 16
    standing = frame.standings[player] if player is not None else None
    if shown.kind == "tavern" and shown.tavern is not None:
        tv = shown.tavern
        _stat_line(p, x, y, "health", "Health", str(tv.health), RED if tv.health <= 10 else TEXT)
        _stat_line(p, x, y + 40, "gold", "Gold", str(tv.gold), GOLD)
        _stat_line(p, x, y + 80, "tier", "Tavern tier", str(tv.tier))
        upgrade = "max" if tv.tier >= 6 else f"{tv.upgrade_cost} gold"
        _stat_line(p, x, y + 120, "upgrade", "Upgrade", upgrade, GREEN)
        if frame.turn is not None:
            p.text(
                f"turn {frame.turn}",
                (rect.right - 14, rect.bottom - 12),
                20,
                FAINT,
                anchor="bottomright",
            )
    elif shown.kind == "combat" and frame.combat is not None:
        step = frame.combat
        side = step.players.index(player) if player in step.players else 0
        health = step.heroes[side]
        _stat_line(p, x, y, "health", "Health", str(health), RED if health <= 10 else TEXT)
        _stat_line(p, x, y + 40, "tier", "Tavern tier", str(step.tiers[side]))
        other = step.players[1 - side]
        p.text("in combat against", (x, y + 88), 20, DIM)
        foe = player_label(other, frames.agents) + (" (ghost)" if step.ghost else "")
        p.text(foe, (x, y + 110), 22, ORANGE, bold=True, width=rect.w - 32)
        if step.kind == "result" and step.damage is not None and step.winner is not None:
            if step.winner == -1:
                p.text("tie: no damage", (x, y + 140), 22, DIM)
            elif step.winner == side:
                p.text(f"won: {step.damage} damage dealt", (x, y + 140), 22, GREEN, bold=True)
            else:
                after = health - step.damage
                p.text(f"lost: {health} -> {after} health", (x, y + 140), 22, RED, bold=True)
    elif standing is not None:
        _stat_line(p, x, y, "health", "Health", str(standing.health))
        _stat_line(p, x, y + 40, "tier", "Tavern tier", str(standing.tier))
        state = "alive" if standing.alive and standing.placement is None else _place(standing)
        p.text(state, (x, y + 90), 24, TEXT if standing.alive else FAINT, bold=True)


def _draw_lobby(p: Painter, rect: pygame.Rect, frame: Frame, frames: Frames) -> None:
    """The hero panel when no player is in focus: what the lobby is."""
    _panel(p, rect, "LOBBY")
    x, y = rect.x + 16, rect.y + 40
    alive = sum(s.alive for s in frame.standings)
    p.text(f"{alive} of {frames.players} alive", (x, y), 30, TEXT, bold=True)
    if frame.turn is not None:
        p.text(f"turn {frame.turn}", (rect.right - 16, y + 4), 24, DIM, anchor="topright")
    header = frames.header
    y += 44
    tribes = header.get("tribes")
    if isinstance(tribes, list) and tribes:
        p.text("minion types", (x, y), 20, FAINT)
        for k, tribe in enumerate(tribes):
            chip = _chip(
                p,
                (x + (k % 3) * 84, y + 24 + (k // 3) * 26),
                str(tribe).capitalize(),
                TRIBE_COLORS.get(str(tribe), NEUTRAL_ART),
                18,
                anchor="topleft",
            )
        y = chip.bottom + 16
    for label in ("seed", "ruleset"):
        if label in header:
            p.text(f"{label}  {header[label]}", (x, y), 20, DIM, width=rect.w - 32)
            y += 24
    winner = next((s for s in frame.standings if s.placement == 1), None)
    if winner is not None:
        _star(p.surface, (x + 10, y + 24), 10, GOLD)
        p.text(
            f"winner: {player_label(winner.player, frames.agents)}",
            (x + 26, y + 14),
            22,
            GOLD,
            bold=True,
            width=rect.w - 48,
        )


def _place(standing: Standing) -> str:
    place = standing.placement
    if place is None:
        return "out" if not standing.alive else "alive"
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(place, "th")
    return f"{place}{suffix}"


def _standing_order(standings: Sequence[Standing]) -> list[Standing]:
    alive = sorted(
        (s for s in standings if s.alive and s.placement is None),
        key=lambda s: (-s.health, -s.tier, s.player),
    )
    done = sorted(
        (s for s in standings if not (s.alive and s.placement is None)),
        key=lambda s: (s.placement or 99, s.player),
    )
    return alive + done


def _draw_standings(p: Painter, shown: Shown, frames: Frames) -> None:
    p.region = "standings"
    rect = REGIONS["standings"]
    _panel(p, rect, "STANDINGS")
    frame = shown.frame
    focus = shown.perspective
    foes: set[int] = set()
    if frame.combat is not None:
        foes = set(frame.combat.players) - {focus}
    rows = _standing_order(frame.standings)
    row_h = min(48, (rect.h - 40) // max(1, len(rows)))
    for k, s in enumerate(rows):
        row = pygame.Rect(rect.x + 8, rect.y + 34 + k * row_h, rect.w - 16, row_h - 4)
        out = not s.alive or (s.placement is not None and s.placement != 1)
        fill = (44, 52, 74) if s.player == focus else (34, 40, 58)
        pygame.draw.rect(p.surface, fill, row, border_radius=7)
        if s.player == focus:
            pygame.draw.rect(p.surface, GOLD, row, 3, border_radius=7)
        elif s.player in foes:
            pygame.draw.rect(p.surface, ORANGE, row, 2, border_radius=7)
        color = SEAT_COLORS[s.player % len(SEAT_COLORS)]
        chip = pygame.Rect(row.x + 5, row.y + 5, row.h - 10, row.h - 10)
        pygame.draw.rect(p.surface, color if not out else (70, 70, 76), chip, border_radius=6)
        p.text(str(s.player + 1), chip.center, 24, TEXT, bold=True, anchor="center")
        name_color = FAINT if out else TEXT
        agent = frames.agents[s.player] if s.player < len(frames.agents) else "?"
        p.text(agent, (chip.right + 8, row.y + 4), 20, name_color, bold=True, width=110)
        if out:
            p.text(f"{_place(s)} place", (chip.right + 8, row.y + 22), 18, FAINT)
        else:
            bar = pygame.Rect(chip.right + 8, row.y + 24, 104, 10)
            pygame.draw.rect(p.surface, (60, 20, 24), bar, border_radius=4)
            share = max(0.0, min(1.0, s.health / 40))
            fill_bar = bar.copy()
            fill_bar.w = max(2, int(bar.w * share))
            green = (int(220 - 160 * share), int(60 + 150 * share), 70)
            pygame.draw.rect(p.surface, green, fill_bar, border_radius=4)
        health_color = FAINT if out else (RED if s.health <= 10 else TEXT)
        p.text(
            str(s.health),
            (row.right - 58, row.centery),
            26,
            health_color,
            bold=True,
            anchor="midright",
        )
        _tier_badge(p, (row.right - 24, row.centery), s.tier, 13)
        if s.placement == 1:
            _star(p.surface, (row.right - 100, row.centery), 10, GOLD)


def _draw_scoreboard(p: Painter, shown: Shown, frames: Frames) -> None:
    frame = shown.frame
    prev = None
    for i in range(frame.index - 1, -1, -1):
        if frames[i].kind == "standings":
            prev = frames[i].standings
            break
    area = REGIONS["shop"].union(REGIONS["hand"])
    p.region = "scoreboard"
    title = "FINAL PLACEMENTS" if frame.kind == "end" else f"STANDINGS AFTER TURN {frame.turn}"
    _panel(p, area, title)
    rows = _standing_order(frame.standings)
    row_h = min(70, (area.h - 60) // max(1, len(rows)))
    for k, s in enumerate(rows):
        y = area.y + 44 + k * row_h
        row = pygame.Rect(area.x + 20, y, area.w - 40, row_h - 8)
        out = not s.alive or (s.placement is not None and s.placement != 1)
        pygame.draw.rect(p.surface, (36, 42, 62) if not out else (30, 32, 40), row, border_radius=8)
        if s.player == shown.perspective:
            pygame.draw.rect(p.surface, GOLD, row, 3, border_radius=8)
        rank = _place(s) if s.placement is not None else f"#{k + 1}"
        color = FAINT if out else TEXT
        p.text(
            rank,
            (row.x + 16, row.centery),
            30,
            GOLD if s.placement == 1 else color,
            bold=True,
            anchor="midleft",
        )
        _portrait(p, (row.x + 110, row.centery), s.player, min(24, row.h // 2 - 4))
        p.text(
            player_label(s.player, frames.agents),
            (row.x + 150, row.centery),
            26,
            color,
            bold=True,
            anchor="midleft",
            width=330,
        )
        p.text(f"{s.health} health", (row.x + 520, row.centery), 26, color, anchor="midleft")
        if prev is not None and prev[s.player].health != s.health:
            delta = s.health - prev[s.player].health
            p.text(
                f"{delta:+d}",
                (row.x + 660, row.centery),
                26,
                RED if delta < 0 else GREEN,
                bold=True,
                anchor="midleft",
            )
        _tier_badge(p, (row.right - 40, row.centery), s.tier, 16)


# ---------------------------------------------------------------- fights

_LUNGE_END = 0.35  # attacker moves to its target and back
_HIT_END = 0.6  # damage, shields, poison appear; afterwards the boards settle


def _ease(t: float) -> float:
    t = max(0.0, min(1.0, t))
    return t * t * (3 - 2 * t)


def _fight_layout(
    sides: Sequence[Sequence[Fighter]], friendly: int, size: tuple[int, int] = CARD_SIZE
) -> dict[int, pygame.Rect]:
    out: dict[int, pygame.Rect] = {}
    for side, row in enumerate(sides):
        if side == friendly:
            region = REGIONS["friendly_board"]
            y = region.y + 14  # the title is at the bottom: the middle stays clear
        else:
            region = REGIONS["enemy_board"]
            y = region.bottom - size[1] - 10
        rects = _row(region, len(row), size, y)
        if rects and side != friendly:
            y = region.bottom - rects[0].h - 10  # keep a shrunk enemy row at the bottom
            rects = [r.move(0, y - r.y) for r in rects]
        for f, r in zip(row, rects, strict=True):
            out[f.eid] = r
    return out


def _lerp_rect(a: pygame.Rect, b: pygame.Rect, t: float) -> pygame.Rect:
    return pygame.Rect(
        round(a.x + (b.x - a.x) * t),
        round(a.y + (b.y - a.y) * t),
        round(a.w + (b.w - a.w) * t),
        round(a.h + (b.h - a.h) * t),
    )


def _annotate(p: Painter, f: Fighter, rect: pygame.Rect, t_hit: float, alpha: int) -> None:
    if f.status == "summoned" and alpha > 0:
        p.text(
            "NEW",
            (rect.centerx, rect.y - 2),
            20,
            GREEN,
            bold=True,
            anchor="midbottom",
            outline=(0, 0, 0),
        )
    if t_hit <= 0:
        return
    if f.shield_popped:
        center = rect.center
        radius = int(rect.w * 0.62)
        for k in range(8):
            start = k * math.pi / 4 + 0.15
            pygame.draw.arc(
                p.surface,
                (255, 236, 120),
                pygame.Rect(0, 0, 2 * radius, 2 * radius).move(
                    center[0] - radius, center[1] - radius
                ),
                start,
                start + 0.5,
                4,
            )
        p.text(
            "POP",
            (rect.centerx, rect.y + 36),
            22,
            (255, 236, 120),
            bold=True,
            anchor="center",
            outline=(60, 40, 0),
        )
    for k, label in enumerate(f.triggers):
        p.text(
            label,
            (rect.centerx, rect.bottom + 2 + 16 * k),
            17,
            (214, 170, 255),
            bold=True,
            anchor="midtop",
            outline=(20, 0, 30),
        )
    if f.buffed:
        _up_arrow(p.surface, (rect.right - 10, rect.y + 48), 9, GREEN)
    if f.poisoned:
        _chip(p, (rect.centerx, rect.y + 64), "POISON", (70, 180, 70), 18)
    if f.damage > 0:
        r = 16 + 12 * _ease(t_hit)
        center = (rect.centerx, rect.centery + 8)
        _burst(p.surface, center, r, RED)
        p.text(
            f"-{f.damage}",
            center,
            int(18 + 12 * _ease(t_hit)),
            TEXT,
            bold=True,
            anchor="center",
            outline=(60, 0, 0),
        )


def _draw_combat(p: Painter, shown: Shown, frames: Frames, progress: float) -> None:
    frame = shown.frame
    step = frame.combat
    assert step is not None
    friendly = step.players.index(shown.perspective) if shown.perspective in step.players else 0
    for side in (0, 1):
        name = "friendly_board" if side == friendly else "enemy_board"
        p.region = name
        player = step.players[side]
        title = f"{player_label(player, frames.agents)}  ·  tier {step.tiers[side]}"
        title += f"  ·  hero {step.heroes[side]}"
        if step.ghost and side == 1:
            title += "  ·  GHOST"
        color = (44, 30, 36) if side != friendly else (28, 40, 50)
        _panel(p, REGIONS[name], title, color, bottom=side == friendly)
        if not step.after[side] and not step.before[side]:
            p.text("no minions", REGIONS[name].center, 22, FAINT, anchor="center")

    static = step.kind in ("start", "result")
    t_lunge = 1.0 if static else min(1.0, progress / _LUNGE_END)
    t_hit = 1.0 if static else _ease((progress - _LUNGE_END) / (_HIT_END - _LUNGE_END))
    t_move = 1.0 if static else _ease((progress - _HIT_END) / (1 - _HIT_END))
    before = _fight_layout(step.before, friendly)
    after = _fight_layout(step.after, friendly)
    drawn: dict[int, pygame.Rect] = {}
    late: list[tuple[Fighter, pygame.Rect, int]] = []
    if not static and progress < _LUNGE_END:
        for side in (0, 1):
            p.region = "friendly_board" if side == friendly else "enemy_board"
            for f in step.before[side]:
                rect = before[f.eid]
                if f.eid == step.attacker and step.kind == "attack" and step.target in before:
                    goal = before[step.target]
                    reach = math.sin(math.pi * t_lunge) * 0.72
                    rect = rect.move(
                        round((goal.x - rect.x) * reach), round((goal.y - rect.y) * reach)
                    )
                    late.append((f, rect, side))
                    continue
                draw_card(p, rect, f.card)
                drawn[f.eid] = rect
        for f, rect, side in late:
            p.region = "friendly_board" if side == friendly else "enemy_board"
            draw_card(p, rect, f.card)
            drawn[f.eid] = rect
        return

    entries: list[tuple[int, Fighter, pygame.Rect, int]] = []
    for side in (0, 1):
        for f in step.after[side]:
            if f.eid in before:
                rect = _lerp_rect(before[f.eid], after[f.eid], t_move)
                alpha = 255
            else:
                rect, alpha = after[f.eid], int(255 * t_move)
            if f.status == "dying":
                alpha = int(255 - 175 * t_move)
            entries.append((side, f, rect, alpha))
    for side, f, rect, alpha in entries:
        p.region = "friendly_board" if side == friendly else "enemy_board"
        if f.status == "summoned" and alpha > 0:
            glow = pygame.Surface((rect.w + 24, rect.h + 24), pygame.SRCALPHA)
            for k in range(6):
                pygame.draw.rect(
                    glow,
                    (90, 230, 120, int(alpha * (0.12 + 0.1 * k))),
                    glow.get_rect().inflate(-4 * k, -4 * k),
                    3,
                    border_radius=14,
                )
            p.surface.blit(glow, (rect.x - 12, rect.y - 12))
        draw_card(p, rect, f.card, dying=f.status == "dying", damaged=f.damage > 0, alpha=alpha)
        drawn[f.eid] = rect
    if step.attacker in drawn and step.target in drawn and step.kind != "result":
        a, b = drawn[step.attacker], drawn[step.target]
        _arrow(p.surface, a.center, b.center)
    for side, f, rect, alpha in entries:
        p.region = "friendly_board" if side == friendly else "enemy_board"
        _annotate(p, f, rect, t_hit, alpha)

    gap_y = (REGIONS["enemy_board"].bottom + REGIONS["friendly_board"].y) // 2
    mid_x = REGIONS["enemy_board"].centerx
    if step.kind == "start" and step.first is not None:
        p.region = "result"
        who = player_label(step.players[step.first], frames.agents)
        _chip(p, (mid_x, gap_y), f"FIGHT!  {who} attacks first", (70, 60, 120), 24)
    elif step.kind == "result":
        _draw_result(p, step, frames)


def _draw_result(p: Painter, step: CombatStep, frames: Frames) -> None:
    p.region = "result"
    rect = REGIONS["result"]
    veil = pygame.Surface(rect.size, pygame.SRCALPHA)
    pygame.draw.rect(veil, (8, 8, 14, 230), veil.get_rect(), border_radius=14)
    p.surface.blit(veil, rect)
    winner = step.winner if step.winner is not None else -1
    edge = GOLD if winner >= 0 else DIM
    pygame.draw.rect(p.surface, edge, rect, 4, border_radius=14)
    damage = step.damage or 0
    if winner < 0:
        p.text("TIE", (rect.centerx, rect.y + 30), 52, TEXT, bold=True, anchor="center")
        p.text("no damage", (rect.centerx, rect.y + 74), 28, DIM, anchor="center")
        return
    champ = step.players[winner]
    loser = step.players[1 - winner]
    p.text(
        f"PLAYER {champ + 1} WINS",
        (rect.centerx, rect.y + 30),
        52,
        GOLD,
        bold=True,
        anchor="center",
        outline=(40, 24, 0),
    )
    health = step.heroes[1 - winner]
    if step.ghost and winner == 0:
        line = f"{damage} damage to the ghost of player {loser + 1} (a ghost takes none)"
    else:
        line = f"{damage} damage to player {loser + 1}  ({health} -> {health - damage} health)"
    p.text(line, (rect.centerx, rect.y + 76), 28, (255, 140, 140), bold=True, anchor="center")


def _draw_log(p: Painter, shown: Shown) -> None:
    step = shown.frame.combat
    assert step is not None
    p.region = "log"
    rect = REGIONS["log"]
    _panel(p, rect, "COMBAT LOG")
    lines = list(step.log)
    room = (rect.h - 36) // 19
    columns = 1 if len(lines) <= room else 2
    if len(lines) > columns * room:
        cut = columns * room - 1
        lines = [*lines[:cut], f"... and {len(lines) - cut} more"]
    col_w = (rect.w - 24) // columns
    for k, line in enumerate(lines):
        indent = 14 if line.startswith(" ") else 0
        x = rect.x + 16 + (k // room) * col_w + indent
        y = rect.y + 34 + 19 * (k % room)
        color = DIM if indent else TEXT
        p.text(line.strip(), (x, y), 20, color, width=col_w - indent - 12)


# ---------------------------------------------------------------- footer and frame


def _draw_footer(p: Painter, status: str, note: str | None) -> None:
    p.region = "footer"
    rect = REGIONS["footer"]
    pygame.draw.rect(p.surface, (22, 26, 38), rect, border_radius=8)
    line = status + (f"   |   now: {note}" if note else "")
    p.text(line, (rect.x + 10, rect.y + 6), 20, TEXT, width=rect.w - 20)
    keys = (
        "Space pause  ·  Left/Right step  ·  Up/Down turn  ·  PgUp/PgDn record  ·  "
        "Tab/1-8 player  ·  0 follow  ·  +/- speed  ·  q quit"
    )
    p.text(keys, (rect.x + 10, rect.y + 30), 18, DIM, width=rect.w - 20)
    x = rect.x + 10
    for key in (
        "taunt",
        "divine_shield",
        "poisonous",
        "windfury",
        "mega_windfury",
        "reborn",
        "deathrattle",
        "magnetic",
        "start_of_combat",
    ):
        label, fill, name = KEYWORD_BADGES[key]
        chip = _chip(p, (x, rect.y + 62), label, fill, 19, anchor="midleft")
        r = p.text(name, (chip.right + 4, rect.y + 62), 18, DIM, anchor="midleft")
        x = r.right + 10


def _draw(
    surface: pygame.Surface,
    frames: Frames,
    index: int,
    player: int | None,
    progress: float,
    status: str | None,
) -> dict[str, list[str]]:
    p = Painter(surface)
    surface.fill(BACKGROUND)
    shown = frames.shown(index, player)
    _draw_caption(p, REGIONS["caption"], shown.caption, f"frame {index}  ·  {len(frames)} frames")
    if shown.kind == "tavern":
        _draw_tavern(p, shown, frames)
    elif shown.kind == "combat":
        _draw_combat(p, shown, frames, progress)
        _draw_log(p, shown)
    else:
        _draw_scoreboard(p, shown, frames)
    _draw_standings(p, shown, frames)
    _draw_hero(p, shown, frames)
    following = "following the acting player" if player is None else f"showing player {player + 1}"
    _draw_footer(p, status or f"frame {index} · {following}", shown.note)
    return dict(p.texts)


def _frames_of(replay: Replay, frames: Sequence[Frame]) -> Frames:
    if isinstance(frames, Frames):
        return frames
    return Frames(frames, replay.players, replay.agents, replay.header)


def render_frame(
    replay: Replay,
    frames: Sequence[Frame],
    index: int,
    player: int | None = None,
    size: tuple[int, int] = BASE_SIZE,
    progress: float = 1.0,
) -> pygame.Surface:
    """Draw frame ``index`` (``player``: seat 0..n-1 to show, None: the acting one).

    ``progress`` is how far the frame's animation has run; 1.0 is the settled
    picture with every marker of the step on it (what screenshots use).
    """
    surface = pygame.Surface(BASE_SIZE)
    _draw(surface, _frames_of(replay, frames), index, player, progress, None)
    if tuple(size) != BASE_SIZE:
        surface = pygame.transform.smoothscale(surface, size)
    return surface


def describe_frame(
    replay: Replay,
    frames: Sequence[Frame],
    index: int,
    player: int | None = None,
    progress: float = 1.0,
) -> dict[str, list[str]]:
    """The texts :func:`render_frame` draws, by region: the names of :data:`REGIONS`
    plus "discover" (the Discover overlay) and "scoreboard" (standings frames)."""
    return _draw(
        pygame.Surface(BASE_SIZE), _frames_of(replay, frames), index, player, progress, None
    )


# ---------------------------------------------------------------- interactive viewer

_DWELL = {  # seconds a frame stays at speed 1
    "recruit": 1.2,
    "action": 0.8,
    "start": 1.4,
    "start_of_combat": 1.1,
    "attack": 1.0,
    "result": 2.4,
    "standings": 2.2,
    "end": 4.0,
}
_NUMBER_KEYS = {getattr(pygame, f"K_{k}"): k for k in range(1, 10)}
_NUMBER_KEYS |= {getattr(pygame, f"K_KP{k}"): k for k in range(1, 10)}


class Viewer:
    """Playback state driven by pygame events (:meth:`handle`) and time (:meth:`tick`)."""

    def __init__(
        self,
        replay: Replay,
        frames: Sequence[Frame],
        index: int = 0,
        player: int | None = None,
        speed: float = 1.0,
    ) -> None:
        self.replay = replay
        self.frames = _frames_of(replay, frames)
        self.index = index
        self.player = player
        self.speed = speed
        self.paused = False
        self.running = True
        self.elapsed = 0.0  # seconds of scaled time spent on the current frame
        self.texts: dict[str, list[str]] = {}

    def dwell(self) -> float:
        f = self.frames[self.index]
        key = f.combat.kind if f.combat is not None else f.kind
        return _DWELL.get(key, 1.0)

    @property
    def progress(self) -> float:
        """How far the current frame's animation has run (0..1)."""
        return min(1.0, self.elapsed / (0.8 * self.dwell()))

    def go(self, index: int) -> None:
        if index != self.index:
            self.index = index
            self.elapsed = 0.0

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.QUIT:
            self.running = False
            return
        if event.type != pygame.KEYDOWN:
            return
        key = event.key
        mods = getattr(event, "mod", 0)
        char = getattr(event, "unicode", "")
        frames, player = self.frames, self.player
        if key in (pygame.K_q, pygame.K_ESCAPE):
            self.running = False
        elif key == pygame.K_SPACE:
            self.paused = not self.paused
            if not self.paused and self.elapsed >= self.dwell():
                self._advance()
        elif key in (pygame.K_RIGHT, pygame.K_LEFT):
            self.paused = True
            self.go(frames.step(self.index, 1 if key == pygame.K_RIGHT else -1, player))
        elif key in (pygame.K_DOWN, pygame.K_UP):
            self.paused = True
            self.go(frames.jump_turn(self.index, 1 if key == pygame.K_DOWN else -1, player))
        elif key in (pygame.K_PAGEDOWN, pygame.K_PAGEUP):
            self.paused = True
            self.go(frames.jump_record(self.index, 1 if key == pygame.K_PAGEDOWN else -1, player))
        elif key == pygame.K_HOME:
            self.go(0)
        elif key == pygame.K_END:
            self.go(len(frames) - 1)
        elif key == pygame.K_TAB:
            order: list[int | None] = [None, *range(frames.players)]
            step = -1 if mods & pygame.KMOD_SHIFT else 1
            self.player = order[(order.index(self.player) + step) % len(order)]
        elif key in _NUMBER_KEYS:
            if _NUMBER_KEYS[key] <= frames.players:
                self.player = _NUMBER_KEYS[key] - 1
        elif key in (pygame.K_0, pygame.K_KP0, pygame.K_BACKQUOTE):
            self.player = None
        elif char == "+" or key in (pygame.K_PLUS, pygame.K_KP_PLUS, pygame.K_EQUALS):
            self.speed = next((s for s in SPEEDS if s > self.speed), SPEEDS[-1])
        elif char == "-" or key in (pygame.K_MINUS, pygame.K_KP_MINUS):
            self.speed = next((s for s in reversed(SPEEDS) if s < self.speed), SPEEDS[0])

    def _advance(self) -> None:
        nxt = self.frames.step(self.index, 1, self.player)
        if nxt == self.index:
            self.paused = True  # the end of the replay (for this player)
        else:
            self.go(nxt)

    def tick(self, dt: float) -> None:
        """Advance the clock by ``dt`` real seconds (scaled by the speed)."""
        self.elapsed += dt * self.speed
        if not self.paused and self.elapsed >= self.dwell():
            self._advance()

    def status(self) -> str:
        state = "paused" if self.paused else "playing"
        who = (
            "following the acting player"
            if self.player is None
            else (f"showing player {self.player + 1}")
        )
        return f"{state}  ·  speed {self.speed:g}x  ·  {who}"

    def draw(self, screen: pygame.Surface) -> None:
        target = screen if screen.get_size() == BASE_SIZE else pygame.Surface(BASE_SIZE)
        self.texts = _draw(
            target, self.frames, self.index, self.player, self.progress, self.status()
        )
        if target is not screen:
            screen.blit(pygame.transform.smoothscale(target, screen.get_size()), (0, 0))

    def run(self, screen: pygame.Surface, max_ticks: int | None = None, fps: int = FPS) -> None:
        """The interactive loop: events, draw, flip, clock; ``max_ticks`` bounds it."""
        clock = pygame.time.Clock()
        ticks = 0
        while self.running and (max_ticks is None or ticks < max_ticks):
            for event in pygame.event.get():
                self.handle(event)
            if not self.running:
                break
            self.draw(pygame.display.get_surface() or screen)  # follows window resizes
            pygame.display.flip()
            self.tick(clock.tick(fps) / 1000)
            ticks += 1


def _error(message: str) -> int:
    print(f"bgsim watch: error: {message}", file=sys.stderr)
    return 1


def main(
    path: str,
    screenshot: str | None = None,
    at: int = 0,
    player: int | None = None,
    speed: float = 1.0,
) -> int:
    """``bgsim watch``: open a window on a replay, or save frame ``at`` as a PNG.

    ``player`` is the player to show as numbered on screen (1..n; None follows
    the acting player). Returns a process exit code; errors are printed, not raised.
    """
    if screenshot is not None:
        os.environ["SDL_VIDEODRIVER"] = "dummy"  # before pygame initialises video
    try:
        replay = read_replay(path)
        frames = build_frames(replay)
    except ReplayError as exc:
        return _error(str(exc))
    n = len(frames)
    if not 0 <= at < n:
        return _error(f"frame {at} is out of range: {path} has {n} frames (0..{n - 1})")
    if player is not None and not 1 <= player <= replay.players:
        return _error(f"player {player} does not exist: choose 1..{replay.players}")
    if not speed > 0:
        return _error(f"speed must be positive, got {speed}")
    seat = None if player is None else player - 1
    if screenshot is not None:
        try:
            pygame.display.init()
            surface = render_frame(replay, frames, at, seat)
            pygame.image.save(surface, screenshot)
        except (pygame.error, OSError) as exc:
            return _error(f"cannot write {screenshot}: {exc}")
        print(f"wrote {screenshot}: frame {at} of {n} — {frames.shown(at, seat).caption}")
        return 0
    try:
        pygame.display.init()
        screen = pygame.display.set_mode(BASE_SIZE, pygame.RESIZABLE)
    except pygame.error as exc:
        return _error(f"cannot open a window ({exc}); use --screenshot to render headless")
    pygame.display.set_caption(f"bgsim — {os.path.basename(path)}")
    viewer = Viewer(replay, frames, index=at, player=seat, speed=speed)
    try:
        viewer.run(screen)
    except KeyboardInterrupt:
        pass
    finally:
        pygame.display.quit()
    return 0
