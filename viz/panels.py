"""The screen's panels outside fights: caption, tavern (shop, warband, hand, Discover),
hero, lobby, standings, scoreboard, combat log and footer."""

from __future__ import annotations

import re
from collections.abc import Sequence

import pygame

from bgsim.cards import cards
from viz.frames import (
    Frame,
    Frames,
    HeroView,
    Shown,
    Standing,
    hero_card,
    player_label,
    power_card,
)
from viz.theme import (
    CAPTION_BG,
    CARD_SIZE,
    DIM,
    FAINT,
    FROST,
    GOLD,
    GOLDEN_BODY,
    GREEN,
    KEYWORD_BADGES,
    NEUTRAL_ART,
    ORANGE,
    PANEL,
    PANEL_EDGE,
    RED,
    REGIONS,
    SEAT_COLORS,
    SMALL_CARD,
    TEXT,
    TRIBE_COLORS,
    get_font,
    wrap_text,
)
from viz.widgets import (
    DrawnCard,
    Painter,
    draw_card,
    draw_card_row,
    draw_chip,
    draw_coin,
    draw_heart,
    draw_panel,
    draw_portrait,
    draw_snowflake,
    draw_star,
    draw_tier_badge,
    draw_up_arrow,
    row_rects,
)


def draw_caption(p: Painter, rect: pygame.Rect, caption: str, right: str) -> None:
    """The top bar: the frame's caption, and ``right`` at its right end."""
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


def draw_tavern(p: Painter, shown: Shown, frames: Frames) -> None:
    """The shown player's shop, warband and hand, and a Discover choice over them."""
    tv = shown.tavern
    player = shown.perspective
    who = player_label(player, frames.agents) if player is not None else "nobody"
    p.region = "shop"
    rect = REGIONS["shop"]
    if tv is None:
        for name, title in (("shop", "TAVERN"), ("board", "WARBAND"), ("hand", "HAND")):
            p.region = name
            draw_panel(p, REGIONS[name], title)
            p.text(
                f"{who} has not played a turn yet", REGIONS[name].center, 22, FAINT, anchor="center"
            )
        return
    title = f"TAVERN  tier {tv.tier}  ·  {len(tv.shop)} for sale"
    draw_panel(p, rect, title, (30, 40, 62) if tv.frozen else PANEL)
    if tv.frozen:
        draw_snowflake(p.surface, (rect.right - 100, rect.y + 17), 10)
        p.text("FROZEN", (rect.right - 84, rect.y + 8), 22, FROST, bold=True)
    draw_card_row(p, rect, tv.shop, CARD_SIZE, frozen=tv.frozen, empty="the shop is empty")

    p.region = "board"
    rect = REGIONS["board"]
    draw_panel(p, rect, f"WARBAND  {len(tv.board)}/7")
    draw_card_row(p, rect, tv.board, CARD_SIZE, empty="no minions on the board")

    p.region = "hand"
    rect = REGIONS["hand"]
    draw_panel(p, rect, f"HAND  {len(tv.hand)}/10")
    draw_card_row(p, rect, tv.hand, SMALL_CARD, empty="empty hand")

    if tv.discover:
        p.region = "discover"
        area = REGIONS["board"].inflate(-40, -20)
        veil = pygame.Surface(area.size, pygame.SRCALPHA)
        pygame.draw.rect(veil, (8, 8, 16, 225), veil.get_rect(), border_radius=12)
        p.surface.blit(veil, area)
        pygame.draw.rect(p.surface, GOLD, area, 2, border_radius=12)
        p.occlude(area)
        p.text("DISCOVER  choose one", (area.x + 14, area.y + 6), 22, GOLD, bold=True)
        size = (CARD_SIZE[0] * 10 // 11, CARD_SIZE[1] * 10 // 11)
        rects = row_rects(area, len(tv.discover), size, area.y + 30)
        for k, (r, card) in enumerate(zip(rects, tv.discover, strict=True)):
            draw_card(p, r, card, slot=k)


def _portrait(p: Painter, center: tuple[int, int], player: int | None, r: int = 34) -> None:
    color = SEAT_COLORS[player % len(SEAT_COLORS)] if player is not None else FAINT
    pygame.draw.circle(p.surface, (12, 12, 18), center, r + 4)
    pygame.draw.circle(p.surface, color, center, r)
    pygame.draw.circle(p.surface, GOLD, center, r + 4, 3)
    label = f"P{player + 1}" if player is not None else "?"
    p.text(label, center, 34, TEXT, bold=True, anchor="center", outline=(0, 0, 0))


def _hero_head(
    p: Painter, rect: pygame.Rect, player: int | None, frames: Frames, hero: str | None = None
) -> int:
    draw_panel(p, rect, "HERO")
    if hero is None:
        _portrait(p, (rect.x + 52, rect.y + 76), player)
        if player is not None:
            p.text(f"player {player + 1}", (rect.x + 100, rect.y + 50), 28, TEXT, bold=True)
            p.text(frames.agents[player], (rect.x + 100, rect.y + 78), 22, DIM, width=rect.w - 110)
        return rect.y + 128
    card = hero_card(hero)
    ring = SEAT_COLORS[player % len(SEAT_COLORS)] if player is not None else GOLD
    drawn = draw_portrait(p, (rect.x + 50, rect.y + 72), card.name, 32, ring)
    p.cards.append(DrawnCard(drawn, card, p.region))
    p.text(card.name, (rect.x + 94, rect.y + 46), 26, TEXT, bold=True, width=rect.w - 104)
    if player is not None:
        who = f"player {player + 1} · {frames.agents[player]}"
        p.text(who, (rect.x + 94, rect.y + 74), 20, DIM, width=rect.w - 104)
    return rect.y + 116


def _power_box(p: Painter, rect: pygame.Rect, hero: HeroView) -> None:
    """The hero power: name, cost, whether it is available, used or spent, its counter."""
    pygame.draw.rect(p.surface, (22, 26, 40), rect, border_radius=8)
    edge = GOLD if hero.status == "available" else PANEL_EDGE
    pygame.draw.rect(p.surface, edge, rect, 2, border_radius=8)
    p.cards.append(DrawnCard(pygame.Rect(rect), power_card(hero), p.region))
    x = rect.x + 8
    if not hero.passive:
        draw_coin(p.surface, (rect.right - 16, rect.y + 14), 11)
        p.text(
            str(hero.cost),
            (rect.right - 16, rect.y + 14),
            20,
            (40, 30, 0),
            bold=True,
            anchor="center",
        )
    p.text(hero.power_name, (x, rect.y + 4), 22, TEXT, bold=True, width=rect.w - 44)
    color = {"available": GREEN, "used": DIM, "spent": FAINT, "passive": DIM}[hero.status]
    status = hero.status + (" (once per game)" if hero.per_game and not hero.spent else "")
    line = p.text(status, (x, rect.y + 28), 20, color, bold=True)
    if hero.counter:
        p.text(f"counter {hero.counter}", (line.right + 12, rect.y + 28), 20, ORANGE, bold=True)


def _stat_line(
    p: Painter, x: int, y: int, icon: str, label: str, value: str, color: tuple[int, ...] = TEXT
) -> None:
    center = (x + 12, y + 12)
    if icon == "health":
        draw_heart(p.surface, center, 11)
    elif icon == "gold":
        draw_coin(p.surface, center, 11)
    elif icon == "upgrade":
        draw_up_arrow(p.surface, center, 11, GREEN)
    elif icon == "tier":
        draw_tier_badge(p, center, int(value) if value.isdigit() else 0, 12)
    p.text(label, (x + 32, y + 3), 22, DIM)
    p.text(value, (x + 150, y + 12), 30, color, bold=True, anchor="midleft")


def draw_hero(p: Painter, shown: Shown, frames: Frames) -> None:
    """The shown player's hero and numbers, or the lobby when nobody is in focus."""
    p.region = "hero"
    rect = REGIONS["hero"]
    frame = shown.frame
    player = shown.perspective
    if player is None:
        _draw_lobby(p, rect, frame, frames)
        return
    hero = frame.standings[player].hero if player < len(frame.standings) else None
    tv = shown.tavern
    if tv is not None and tv.hero is not None:
        hero = tv.hero.hero
    y = _hero_head(p, rect, player, frames, hero)
    x = rect.x + 16
    if shown.kind in ("tavern", "draft") and tv is not None and tv.hero is not None:
        _stat_line(p, x, y, "health", "Health", str(tv.health), RED if tv.health <= 10 else TEXT)
        _stat_line(p, x, y + 32, "gold", "Gold", str(tv.gold), GOLD)
        _stat_line(p, x, y + 64, "tier", "Tavern tier", str(tv.tier))
        upgrade = "max" if tv.tier >= 6 else f"{tv.upgrade_cost} gold"
        _stat_line(p, x, y + 96, "upgrade", "Upgrade", upgrade, GREEN)
        box = pygame.Rect(rect.x + 8, y + 130, rect.w - 16, rect.bottom - y - 138)
        _power_box(p, box, tv.hero)
        if frame.turn is not None:
            p.text(
                f"turn {frame.turn}", (rect.right - 14, rect.y + 8), 20, FAINT, anchor="topright"
            )
    elif shown.kind == "tavern" and tv is not None:
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
    else:
        standing = frame.standings[player]
        _stat_line(p, x, y, "health", "Health", str(standing.health))
        _stat_line(p, x, y + 40, "tier", "Tavern tier", str(standing.tier))
        state = "alive" if standing.alive and standing.placement is None else _place(standing)
        p.text(state, (x, y + 90), 24, TEXT if standing.alive else FAINT, bold=True)


def _draw_lobby(p: Painter, rect: pygame.Rect, frame: Frame, frames: Frames) -> None:
    """The hero panel when no player is in focus: what the lobby is."""
    draw_panel(p, rect, "LOBBY")
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
            chip = draw_chip(
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
        draw_star(p.surface, (x + 10, y + 24), 10, GOLD)
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


def draw_standings(p: Painter, shown: Shown, frames: Frames) -> None:
    """One row per player, alive ones by health; the focus and its foe outlined."""
    p.region = "standings"
    rect = REGIONS["standings"]
    draw_panel(p, rect, "STANDINGS")
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
        agent = frames.agents[s.player] if s.player < len(frames.agents) else "?"
        if s.hero is None:
            pygame.draw.rect(p.surface, color if not out else (70, 70, 76), chip, border_radius=6)
            p.text(str(s.player + 1), chip.center, 24, TEXT, bold=True, anchor="center")
        else:  # the hero's portrait, ringed in the seat's colour
            card = hero_card(s.hero, s.health)
            r = chip.h // 2 - 2
            drawn = draw_portrait(p, chip.center, card.name, r, color, faded=out)
            p.cards.append(DrawnCard(drawn, card, p.region, s.player))
            agent = f"{s.player + 1} {agent}"
        name_color = FAINT if out else TEXT
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
        draw_tier_badge(p, (row.right - 24, row.centery), s.tier, 13)
        if s.placement == 1:
            draw_star(p.surface, (row.right - 100, row.centery), 10, GOLD)


def draw_scoreboard(p: Painter, shown: Shown, frames: Frames) -> None:
    """Standings and end frames: the placements, with each health change since the
    previous standings."""
    frame = shown.frame
    prev = None
    for i in range(frame.index - 1, -1, -1):
        if frames[i].kind == "standings":
            prev = frames[i].standings
            break
    area = REGIONS["shop"].union(REGIONS["hand"])
    p.region = "scoreboard"
    title = "FINAL PLACEMENTS" if frame.kind == "end" else f"STANDINGS AFTER TURN {frame.turn}"
    draw_panel(p, area, title)
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
        r = min(24, row.h // 2 - 4)
        label = player_label(s.player, frames.agents)
        if s.hero is None:
            _portrait(p, (row.x + 110, row.centery), s.player, r)
        else:
            card = hero_card(s.hero, s.health)
            ring = SEAT_COLORS[s.player % len(SEAT_COLORS)]
            drawn = draw_portrait(p, (row.x + 110, row.centery), card.name, r, ring, faded=out)
            p.cards.append(DrawnCard(drawn, card, p.region, s.player))
            label += f" · {card.name}"
        p.text(
            label,
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
        draw_tier_badge(p, (row.right - 40, row.centery), s.tier, 16)


def draw_draft(p: Painter, shown: Shown, frames: Frames) -> None:
    """A draft frame: the heroes (or hero powers) offered to the player, the
    chosen one framed in gold once taken."""
    frame = shown.frame
    area = REGIONS["shop"].union(REGIONS["hand"])
    p.region = "draft"
    player = frame.player
    who = player_label(player, frames.agents) if player is not None else "?"
    verb = "chooses" if frame.chosen is None else "chose"
    draw_panel(p, area, f"HERO DRAFT  ·  {who} {verb} one of {len(frame.offers)}")
    if not frame.offers:
        p.text("no offers recorded", area.center, 22, FAINT, anchor="center")
        return
    n = len(frame.offers)
    w = min(230, (area.w - 40 - 20 * (n - 1)) // n)
    h = area.h - 70
    x0 = area.centerx - (n * w + (n - 1) * 20) // 2
    for k, card_id in enumerate(frame.offers):
        box = pygame.Rect(x0 + k * (w + 20), area.y + 44, w, h)
        chosen = frame.chosen == k
        faded = frame.chosen is not None and not chosen
        pygame.draw.rect(
            p.surface, (40, 46, 68) if not faded else (30, 32, 42), box, border_radius=12
        )
        pygame.draw.rect(
            p.surface, GOLD if chosen else PANEL_EDGE, box, 4 if chosen else 2, border_radius=12
        )
        _draw_offer(p, box, card_id, faded, k)
        if chosen:
            draw_chip(p, (box.centerx, box.y + 2), "CHOSEN", GOLD, 22)


def _draw_offer(p: Painter, box: pygame.Rect, card_id: str, faded: bool, slot: int) -> None:
    """One offer of a draft: portrait, name, Health, the hero power and its text."""
    db = cards()
    card = None
    if card_id in db:
        card = db[card_id]
    name = card.name if card is not None else card_id
    power = None
    if card is not None and card.type == "hero" and card.hero_power in db:
        power = db[card.hero_power or ""]
    elif card is not None and card.type == "hero_power":
        power = card
    color = FAINT if faded else TEXT
    shown = hero_card(card_id, card.health if card is not None else 0)
    drawn = draw_portrait(p, (box.centerx, box.y + 70), name, 48, GOLD, faded=faded)
    p.cards.append(DrawnCard(drawn, shown, p.region, slot))
    y = box.y + 128
    for line in wrap_text(name, 28, True, box.w - 20, 2):
        p.text(line, (box.centerx, y), 28, color, bold=True, anchor="midtop")
        y += 26
    if card is not None and card.type == "hero":
        p.text(f"{card.health} Health", (box.centerx, y + 2), 20, DIM, anchor="midtop")
        y += 26
    if power is not None:
        cost = "passive" if power.passive else f"{power.cost or 0} gold"
        p.text(
            f"{power.name}  ({cost})",
            (box.centerx, y + 4),
            22,
            GOLD if not faded else FAINT,
            bold=True,
            anchor="midtop",
            width=box.w - 16,
        )
        y += 30
        text = power.text.replace("Passive Hero Power ", "").replace("Hero Power ", "")
        for line in wrap_text(_plain(text), 20, False, box.w - 24, 7):
            p.text(line, (box.x + 12, y), 20, DIM if not faded else FAINT)
            y += 19


def _plain(text: str) -> str:
    """A card text without its markup ('$2' spell damage, '|4(a, b)' plurals, '@')."""
    text = text.replace("$", "")
    text = re.sub(r"\|4\(([^,]*),\s*([^)]*)\)", r"\2", text)
    return text.replace("@", "X")


def draw_log(p: Painter, shown: Shown) -> None:
    """The fight step's log, in two columns when one is too short."""
    step = shown.frame.combat
    assert step is not None
    p.region = "log"
    rect = REGIONS["log"]
    draw_panel(p, rect, "COMBAT LOG")
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


# The keys as the footer lists them.
KEYS_HELP = (
    "Space pause  ·  Left/Right step  ·  Up/Down turn  ·  PgUp/PgDn record  ·  "
    "Tab/1-8 follow a player  ·  0 every player  ·  mouse: card details  ·  +/- speed  ·  q quit"
)


def draw_footer(p: Painter, status: str, note: str | None) -> None:
    """The status line (whom the viewer follows), the keys and the keyword legend:
    every badge a card can carry, and the golden frame."""
    p.region = "footer"
    rect = REGIONS["footer"]
    pygame.draw.rect(p.surface, (22, 26, 38), rect, border_radius=8)
    line = status + (f"   |   now: {note}" if note else "")
    p.text(line, (rect.x + 10, rect.y + 4), 20, TEXT, width=rect.w - 20)
    p.text(KEYS_HELP, (rect.x + 10, rect.y + 24), 18, DIM, width=rect.w - 20)
    x, y = rect.x + 10, rect.y + 52
    for label, fill, name in KEYWORD_BADGES.values():
        chip_w = get_font(19, True).size(label)[0] + 10
        name_w = get_font(18).size(name)[0]
        if x + chip_w + 4 + name_w > rect.right - 10:
            x, y = rect.x + 10, y + 21
        chip = draw_chip(p, (x, y), label, fill, 19, anchor="midleft")
        r = p.text(name, (chip.right + 4, y), 18, DIM, anchor="midleft")
        x = r.right + 12
    swatch = pygame.Rect(x, y - 8, 22, 16)
    pygame.draw.rect(p.surface, GOLDEN_BODY, swatch, border_radius=4)
    pygame.draw.rect(p.surface, GOLD, swatch, 2, border_radius=4)
    p.text("Golden", (swatch.right + 4, y), 18, DIM, anchor="midleft")
