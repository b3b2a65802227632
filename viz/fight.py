"""A fight step on screen: both boards laid out, the attack animated (lunge, hit,
boards settling), its consequences marked on the cards, and the result banner."""

from __future__ import annotations

import math
from collections.abc import Sequence

import pygame

from viz.frames import CombatStep, Fighter, Frames, Shown, player_label
from viz.theme import CARD_SIZE, DIM, FAINT, GOLD, GREEN, RED, REGIONS, TEXT
from viz.widgets import (
    Painter,
    draw_arrow,
    draw_burst,
    draw_card,
    draw_chip,
    draw_panel,
    draw_up_arrow,
    row_rects,
)

# An attack frame's animation, as parts of its progress 0..1:
_LUNGE_END = 0.35  # attacker moves to its target and back
_HIT_END = 0.6  # damage, shields, poison appear; afterwards the boards settle


def _ease(t: float) -> float:
    """Smoothstep: ``t`` clamped to 0..1, starting and ending slowly."""
    t = max(0.0, min(1.0, t))
    return t * t * (3 - 2 * t)


def _fight_layout(
    sides: Sequence[Sequence[Fighter]], friendly: int, size: tuple[int, int] = CARD_SIZE
) -> dict[int, pygame.Rect]:
    """Each fighter's rect by its ``eid``: the two rows face each other across the
    middle of the screen."""
    out: dict[int, pygame.Rect] = {}
    for side, row in enumerate(sides):
        if side == friendly:
            region = REGIONS["friendly_board"]
            y = region.y + 14  # the title is at the bottom: the middle stays clear
        else:
            region = REGIONS["enemy_board"]
            y = region.bottom - size[1] - 10
        rects = row_rects(region, len(row), size, y)
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
    """The step's marks on one card: NEW, a popped shield, triggers, buff, poison, damage."""
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
        draw_up_arrow(p.surface, (rect.right - 10, rect.y + 48), 9, GREEN)
    if f.poisoned:
        draw_chip(p, (rect.centerx, rect.y + 64), "POISON", (70, 180, 70), 18)
    if f.damage > 0:
        r = 16 + 12 * _ease(t_hit)
        center = (rect.centerx, rect.centery + 8)
        draw_burst(p.surface, center, r, RED)
        p.text(
            f"-{f.damage}",
            center,
            int(18 + 12 * _ease(t_hit)),
            TEXT,
            bold=True,
            anchor="center",
            outline=(60, 0, 0),
        )


def draw_combat(p: Painter, shown: Shown, frames: Frames, progress: float) -> None:
    """A fight frame's two boards; ``progress`` runs the attack: lunge, hit, boards settling."""
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
        draw_panel(p, REGIONS[name], title, color, bottom=side == friendly)
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
        draw_arrow(p.surface, a.center, b.center)
    for side, f, rect, alpha in entries:
        p.region = "friendly_board" if side == friendly else "enemy_board"
        _annotate(p, f, rect, t_hit, alpha)

    gap_y = (REGIONS["enemy_board"].bottom + REGIONS["friendly_board"].y) // 2
    mid_x = REGIONS["enemy_board"].centerx
    if step.kind == "start" and step.first is not None:
        p.region = "result"
        who = player_label(step.players[step.first], frames.agents)
        draw_chip(p, (mid_x, gap_y), f"FIGHT!  {who} attacks first", (70, 60, 120), 24)
    elif step.kind == "result":
        _draw_result(p, step, frames)


def _draw_result(p: Painter, step: CombatStep, frames: Frames) -> None:
    p.region = "result"
    rect = REGIONS["result"]
    veil = pygame.Surface(rect.size, pygame.SRCALPHA)
    pygame.draw.rect(veil, (8, 8, 14, 230), veil.get_rect(), border_radius=14)
    p.surface.blit(veil, rect)
    p.occlude(rect)
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
