"""The viewer's look: colours, sizes and the screen layout, and text drawn in pygame's font.

Everything is laid out on a base canvas of :data:`BASE_SIZE` (other window sizes
get a scaled copy); :data:`REGIONS` names its parts. Fonts and rendered texts are
cached here, since the same few labels are drawn on every frame.
"""

from __future__ import annotations

import pygame

BASE_SIZE = (1280, 800)

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


def hero_color(name: str) -> tuple[int, int, int]:
    """A hero portrait's colour, made from its name (the same name, the same
    colour; no two heroes need to differ, most do)."""
    h = 0
    for ch in name:
        h = (h * 131 + ord(ch)) % 1_000_003
    hue = (h % 360) / 360
    r, g, b = (int(255 * c) for c in _hsv(hue, 0.55, 0.72))
    return r, g, b


def _hsv(h: float, s: float, v: float) -> tuple[float, float, float]:
    i = int(h * 6) % 6
    f = h * 6 - int(h * 6)
    p, q, t = v * (1 - s), v * (1 - f * s), v * (1 - (1 - f) * s)
    return ((v, t, p), (q, v, p), (p, v, t), (p, q, v), (t, p, v), (v, p, q))[i]


def initials(name: str) -> str:
    """Up to two initials of a name ("Millhouse Manastorm" -> "MM", "C'Thun" -> "C")."""
    words = [w for w in name.replace("-", " ").split() if w[:1].isalpha()]
    return "".join(w[0].upper() for w in words[:2]) or "?"


CARD_SIZE = (124, 178)
SMALL_CARD = (84, 120)

REGIONS: dict[str, pygame.Rect] = {
    "caption": pygame.Rect(0, 0, 1280, 40),
    "shop": pygame.Rect(12, 48, 960, 236),
    "board": pygame.Rect(12, 292, 960, 236),
    "hand": pygame.Rect(12, 536, 960, 160),
    "footer": pygame.Rect(12, 702, 960, 92),
    "standings": pygame.Rect(984, 48, 284, 424),
    "hero": pygame.Rect(984, 480, 284, 312),
    # Fights reuse the tavern's rows: the enemy where the shop is, the log in the hand row.
    "enemy_board": pygame.Rect(12, 48, 960, 236),
    "friendly_board": pygame.Rect(12, 292, 960, 236),
    "log": pygame.Rect(12, 536, 960, 160),
    "result": pygame.Rect(112, 236, 760, 104),
}


_fonts: dict[tuple[int, bool], pygame.font.Font] = {}
_text_cache: dict[tuple[str, int, tuple[int, ...], bool], pygame.Surface] = {}


def get_font(size: int, bold: bool = False) -> pygame.font.Font:
    """pygame's bundled default font at ``size``, made once."""
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


_CONTROLS = {c: "?" for c in (*range(32), 127)}


def render_text(text: str, size: int, color: tuple[int, ...], bold: bool) -> pygame.Surface:
    """``text`` rendered antialiased, from the cache; a fourth ``color`` value is its alpha."""
    key = (text, size, tuple(color), bold)
    img = _text_cache.get(key)
    if img is None:
        if len(_text_cache) > 4000:
            _text_cache.clear()
        # A replay's text may hold control characters (a NUL stops pygame).
        img = get_font(size, bold).render(text.translate(_CONTROLS), True, color[:3])
        if len(color) == 4:
            img.set_alpha(color[3])
        _text_cache[key] = img
    return img


def fit_text(text: str, size: int, bold: bool, width: int) -> str:
    """``text``, cut and ended with "..." when it is wider than ``width`` pixels."""
    font = get_font(size, bold)
    # No glyph is narrower than a pixel, so only the first ``width`` characters
    # can show; the longest prefix that fits is then found by bisection, so a
    # huge text costs a few measurements rather than one per character.
    text = text[: width + 1]
    if font.size(text)[0] <= width:
        return text
    low, high = 0, len(text)  # text[:low] + "..." fits (or low is 0); text[:high] does not
    while high - low > 1:
        mid = (low + high) // 2
        if font.size(text[:mid] + "...")[0] <= width:
            low = mid
        else:
            high = mid
    return text[:low].rstrip() + "..."


def wrap_text(text: str, size: int, bold: bool, width: int, lines: int) -> list[str]:
    """``text`` broken at spaces into at most ``lines`` lines of ``width`` pixels."""
    font = get_font(size, bold)
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
    return [fit_text(line, size, bold, width) for line in out]
