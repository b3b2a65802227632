"""The pygame replay viewer behind ``bgsim watch FILE``: whole frames, playback, ``main``.

:func:`render_frame` draws one frame; :func:`describe_frame` returns the texts
drawn in each region of :data:`viz.theme.REGIONS`, which the tests use to check
that the right things are on screen; :func:`card_under` is the card at a point.
:class:`Viewer` plays a replay in a window.

The viewer follows one player (``--player``, else the winner): that player's
turn starts and actions, fights, and the standings between rounds; the other
players' actions are skipped. Keys: Space pause/resume · Left/Right
previous/next frame (stepping pauses; the step's animation still plays) ·
Up/Down previous/next turn · PageUp/PageDown previous/next record (skips a
fight) · Home/End · Tab / Shift+Tab / 1-8 follow another player · 0 every
player's actions · + / - speed · q, Esc or closing the window quits. The mouse
over a card shows its full detail; without it, the card the current action
touched is selected and its detail shows.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import pygame

from bgsim.outputs import OutputError, atomic_write, output_file
from bgsim.replay import Replay, ReplayError, read_replay
from combat_c.guarded import one_line, shown_path
from viz.detail import draw_card_detail
from viz.fight import draw_combat
from viz.frames import Frame, Frames, Shown, build_frames, player_label
from viz.panels import (
    draw_caption,
    draw_draft,
    draw_footer,
    draw_hero,
    draw_log,
    draw_scoreboard,
    draw_standings,
    draw_tavern,
)
from viz.theme import BACKGROUND, BASE_SIZE, REGIONS
from viz.widgets import DrawnCard, Painter, card_at, draw_selection

Point = tuple[int, int]


def following(player: int | None, frames: Frames) -> str:
    """Whom the viewer follows, in words."""
    if player is None:
        return "following every player's actions (Tab or 1-8: follow one player)"
    return f"following {player_label(player, frames.agents)} (Tab or 1-8: switch, 0: everyone)"


def _draw_selection(p: Painter, shown: Shown, hover: Point | None) -> DrawnCard | None:
    """The detail of the card under the mouse (returned), else of the card the
    action touched."""
    if hover is not None and (under := card_at(p.cards, hover)) is not None:
        draw_selection(p, under.rect)
        draw_card_detail(p, under.card, under.rect)
        return under
    frame = shown.frame
    touched = frame.touched
    if touched is None or shown.kind != "tavern" or shown.tavern is not frame.tavern:
        return None
    drawn = next((d for d in p.cards if d.region == touched.zone and d.slot == touched.slot), None)
    if drawn is not None:
        draw_selection(p, drawn.rect)
        draw_card_detail(p, touched.card, drawn.rect)
        return None
    # It left the tavern (sold, cast): over the foot of the standings, the last placed.
    foot = pygame.Rect(REGIONS["standings"].x - 18, REGIONS["standings"].bottom - 6, 0, 0)
    draw_card_detail(p, touched.card, foot, above=True)
    return None


@dataclass(frozen=True, slots=True)
class Drawn:
    """What drawing a frame put on the screen: texts by region and the card under
    the mouse."""

    texts: dict[str, list[str]]
    hovered: DrawnCard | None


def _draw(
    surface: pygame.Surface,
    frames: Frames,
    index: int,
    player: int | None,
    progress: float,
    status: str | None,
    hover: Point | None = None,
) -> Drawn:
    """Draw frame ``index`` on a ``surface`` of :data:`BASE_SIZE`."""
    p = Painter(surface)
    surface.fill(BACKGROUND)
    shown = frames.shown(index, player)
    draw_caption(p, REGIONS["caption"], shown.caption, f"frame {index}  ·  {len(frames)} frames")
    if shown.kind == "tavern":
        draw_tavern(p, shown, frames)
    elif shown.kind == "draft":
        draw_draft(p, shown, frames)
    elif shown.kind == "combat":
        draw_combat(p, shown, frames, progress)
        draw_log(p, shown)
    else:
        draw_scoreboard(p, shown, frames)
    draw_standings(p, shown, frames)
    draw_hero(p, shown, frames)
    draw_footer(p, status or f"frame {index}  ·  {following(player, frames)}", shown.note)
    hovered = _draw_selection(p, shown, hover)
    return Drawn(dict(p.texts), hovered)


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
    hover: Point | None = None,
) -> pygame.Surface:
    """Draw frame ``index`` (``player``: seat 0..n-1 followed, None: the acting one).

    ``progress`` is how far the frame's animation has run; 1.0 is the settled
    picture with every marker of the step on it (what screenshots use).
    ``hover`` is a mouse position on the :data:`BASE_SIZE` canvas.
    """
    surface = pygame.Surface(BASE_SIZE)
    _draw(surface, _frames_of(replay, frames), index, player, progress, None, hover)
    if tuple(size) != BASE_SIZE:
        surface = pygame.transform.smoothscale(surface, size)
    return surface


def describe_frame(
    replay: Replay,
    frames: Sequence[Frame],
    index: int,
    player: int | None = None,
    progress: float = 1.0,
    hover: Point | None = None,
) -> dict[str, list[str]]:
    """The texts :func:`render_frame` draws, by region: the names of :data:`REGIONS`
    plus "discover" (the Discover overlay), "scoreboard" (standings frames),
    "draft" (the heroes' draft) and "detail" (the card detail box)."""
    surface = pygame.Surface(BASE_SIZE)
    return _draw(surface, _frames_of(replay, frames), index, player, progress, None, hover).texts


def card_under(
    replay: Replay,
    frames: Sequence[Frame],
    index: int,
    pos: Point,
    player: int | None = None,
    progress: float = 1.0,
) -> DrawnCard | None:
    """The card :func:`render_frame` draws at ``pos`` (on top), or None."""
    surface = pygame.Surface(BASE_SIZE)
    return _draw(surface, _frames_of(replay, frames), index, player, progress, None, pos).hovered


FPS = 30
SPEEDS = (0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0)
_DWELL = {  # seconds a frame stays at speed 1
    "draft": 1.6,
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


def dwell(frame: Frame) -> float:
    """Seconds ``frame`` stays on screen at speed 1."""
    key = frame.combat.kind if frame.combat is not None else frame.kind
    return _DWELL.get(key, 1.0)


def watch_seconds(frames: Frames, player: int | None) -> float:
    """How long playing the whole replay takes at speed 1 following ``player``
    (None: every player's actions), from its first frame to the end."""
    return sum(dwell(f) for f in frames if frames.involves(f.index, player))


class Viewer:
    """Playback state driven by pygame events (:meth:`handle`) and time (:meth:`tick`).

    ``player`` is the seat followed (None: every player's actions; by default
    the winner); ``index`` the first frame (by default the followed player's first).
    """

    def __init__(
        self,
        replay: Replay,
        frames: Sequence[Frame],
        index: int | None = None,
        player: int | Literal["winner"] | None = "winner",
        speed: float = 1.0,
    ) -> None:
        self.replay = replay
        self.frames = _frames_of(replay, frames)
        self.player = self.frames.winner if player == "winner" else player
        self.index = self.frames.start(self.player) if index is None else index
        self.speed = speed
        self.paused = False
        self.running = True
        self.elapsed = 0.0  # seconds of scaled time spent on the current frame
        self.mouse: Point | None = None  # on the BASE_SIZE canvas
        self.window: tuple[int, int] = BASE_SIZE
        self.texts: dict[str, list[str]] = {}
        self.hovered: DrawnCard | None = None

    def dwell(self) -> float:
        return dwell(self.frames[self.index])

    @property
    def progress(self) -> float:
        """How far the current frame's animation has run (0..1)."""
        return min(1.0, self.elapsed / (0.8 * self.dwell()))

    def go(self, index: int) -> None:
        if index != self.index:
            self.index = index
            self.elapsed = 0.0

    def _canvas(self, pos: tuple[int, int]) -> Point:
        """A window position on the :data:`BASE_SIZE` canvas (the window may be scaled)."""
        w, h = self.window
        return (pos[0] * BASE_SIZE[0] // max(1, w), pos[1] * BASE_SIZE[1] // max(1, h))

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.QUIT:
            self.running = False
            return
        if event.type == pygame.MOUSEMOTION:
            self.mouse = self._canvas(event.pos)
            return
        if event.type == pygame.WINDOWLEAVE:
            self.mouse = None
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
            self.go(frames.start(player))
        elif key == pygame.K_END:
            self.go(len(frames) - 1)
        elif key == pygame.K_TAB:
            order: list[int | None] = [*range(frames.players), None]
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
        return f"{state}  ·  speed {self.speed:g}x  ·  {following(self.player, self.frames)}"

    def draw(self, screen: pygame.Surface) -> None:
        self.window = screen.get_size()
        target = screen if self.window == BASE_SIZE else pygame.Surface(BASE_SIZE)
        drawn = _draw(
            target, self.frames, self.index, self.player, self.progress, self.status(), self.mouse
        )
        self.texts, self.hovered = drawn.texts, drawn.hovered
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


# SDL's video drivers that draw nowhere: a window on them would play unseen.
HEADLESS_DRIVERS = ("dummy", "offscreen")


class UsageError(ValueError):
    """An option that names nothing in the replay (exit code 2, like argparse's)."""


def parse_point(text: str) -> Point:
    """``"X,Y"`` as a point (``--hover``), each coordinate within
    ±1,000,000 pixels.

    >>> parse_point("120,45")
    (120, 45)
    """
    try:
        x, y = (int(v) for v in text.split(","))
    except ValueError:
        raise ValueError(f"expected X,Y in pixels, got {text!r}") from None
    if not (abs(x) <= 1_000_000 and abs(y) <= 1_000_000):
        raise ValueError(f"X and Y must be -1,000,000..1,000,000 pixels, got {text!r}")
    return x, y


def start_frame(
    frames: Frames,
    player: int | None,
    at: int | None = None,
    turn: int | None = None,
    fight: bool = False,
) -> int:
    """The frame to start at: ``at``, else the first of ``turn`` or of the player's
    (first) fight in ``player``'s playback, else the player's first frame.
    Raises :class:`UsageError` when there is no such frame."""
    n = len(frames)
    if at is not None:
        if turn is not None or fight:
            raise UsageError("--at picks a frame itself: leave out --turn and --fight")
        if not 0 <= at < n:
            raise UsageError(f"frame {at} is out of range: the replay has {n} frames (0..{n - 1})")
        return at
    who = "any player" if player is None else f"player {player + 1}"
    if turn is not None:
        turns = frames.turns
        if turn not in turns:
            span = f"{turns[0]}..{turns[-1]}" if turns else "none"
            raise UsageError(f"turn {turn} does not exist: the replay has turns {span}")
    if fight:
        index = frames.first_fight(player, turn)
        if index is None:
            when = f" in turn {turn}" if turn is not None else ""
            raise UsageError(f"{who} has no fight{when}")
        return index
    if turn is not None:
        index = frames.turn_start(turn, player)
        if index is None:
            raise UsageError(f"{who} has no frame in turn {turn}")
        return index
    return frames.start(player)


def _error(message: str, code: int = 1) -> int:
    print(f"bgsim watch: error: {message}", file=sys.stderr)
    return code


def main(
    path: str,
    screenshot: str | None = None,
    at: int | None = None,
    player: int | None = None,
    speed: float = 1.0,
    turn: int | None = None,
    fight: bool = False,
    hover: Point | None = None,
) -> int:
    """``bgsim watch``: open a window on a replay, or save one frame as a PNG.

    ``player`` is the player to follow as numbered on screen (1..n; 0: every
    player's actions; None: the winner). The first frame is ``at``, else the
    first of ``turn``, or with ``fight`` the followed player's first fight (of
    ``turn``). ``hover`` puts the mouse at a point of a screenshot. Returns a
    process exit code: 1 for a replay that cannot be read, 2 for an option that
    names nothing in it; errors are printed, not raised.
    """
    if screenshot is not None:
        os.environ["SDL_VIDEODRIVER"] = "dummy"  # before pygame initialises video
    try:
        replay = read_replay(path)
        frames = build_frames(replay)
    except ReplayError as exc:
        return _error(str(exc))
    if player is not None and not 0 <= player <= replay.players:
        return _error(
            f"player {player} does not exist: choose 1..{replay.players} (0: every player)", 2
        )
    if not speed > 0:
        return _error(f"speed must be positive, got {speed}", 2)
    if hover is not None and screenshot is None:
        return _error("--hover places the mouse on a --screenshot; a window has a real one", 2)
    seat = frames.winner if player is None else None if player == 0 else player - 1
    try:
        index = start_frame(frames, seat, at, turn, fight)
    except UsageError as exc:
        return _error(str(exc), 2)
    if screenshot is not None:
        try:
            target = output_file(screenshot, "screenshot")
            pygame.display.init()
            surface = render_frame(replay, frames, index, seat, hover=hover)
            # pygame picks the format by the name's ending: PNG unless it names another.
            known = target.suffix.lower() in (".jpg", ".jpeg", ".bmp", ".tga")
            with atomic_write(target, "wb") as f:
                pygame.image.save(surface, f, f"x{target.suffix.lower()}" if known else "x.png")
        except OutputError as exc:
            return _error(str(exc), 2)
        except (pygame.error, OSError) as exc:
            return _error(f"cannot write {screenshot}: {exc}")
        shown = frames.shown(index, seat)
        line = f"wrote {shown_path(screenshot)}: frame {index} of {len(frames)} — {shown.caption}"
        print(one_line(line))  # a replay's labels may hold control characters
        return 0
    if (
        sys.platform.startswith("linux")
        and not os.environ.get("SDL_VIDEODRIVER")
        and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    ):
        return _error(
            "no display to open a window on (neither DISPLAY nor WAYLAND_DISPLAY is set); "
            "use --screenshot to render headless"
        )
    try:
        pygame.display.init()
        driver = pygame.display.get_driver()
        if driver in HEADLESS_DRIVERS:
            # A window on a driver that draws nowhere would play unseen until killed.
            pygame.display.quit()
            if os.environ.get("SDL_VIDEODRIVER") == driver:
                return _error(
                    f"SDL_VIDEODRIVER={driver} draws nowhere, so a window would play unseen; "
                    "unset it, or use --screenshot to render headless"
                )
            return _error(
                f"no display to open a window on (SDL found only its {driver!r} driver); "
                "set DISPLAY, or use --screenshot to render headless"
            )
        screen = pygame.display.set_mode(BASE_SIZE, pygame.RESIZABLE)
    except pygame.error as exc:
        return _error(f"cannot open a window ({exc}); use --screenshot to render headless")
    pygame.display.set_caption(f"bgsim — {os.path.basename(path)}")
    viewer = Viewer(replay, frames, index=index, player=seat, speed=speed)
    try:
        viewer.run(screen)
    except KeyboardInterrupt:
        print("bgsim: interrupted", file=sys.stderr)
        return 130  # as every command, whatever it was doing
    finally:
        pygame.display.quit()
    return 0
