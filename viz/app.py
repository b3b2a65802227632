"""The pygame replay viewer behind ``bgsim watch FILE``: whole frames, playback, ``main``.

:func:`render_frame` draws one frame; :func:`describe_frame` returns the texts
drawn in each region of :data:`viz.theme.REGIONS`, which the tests use to check
that the right things are on screen. :class:`Viewer` plays a replay in a window.

Keys: Space pause/resume · Left/Right previous/next frame (stepping pauses; the
step's animation still plays) · Up/Down previous/next turn · PageUp/PageDown
previous/next record (skips a fight) · Home/End · Tab / Shift+Tab / 1-8 show a
player · 0 follow the acting player · + / - speed · q, Esc or closing the window
quits.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

import pygame

from bgsim.replay import Replay, ReplayError, read_replay
from viz.fight import draw_combat
from viz.frames import Frame, Frames, build_frames
from viz.panels import (
    draw_caption,
    draw_footer,
    draw_hero,
    draw_log,
    draw_scoreboard,
    draw_standings,
    draw_tavern,
)
from viz.theme import BACKGROUND, BASE_SIZE, REGIONS
from viz.widgets import Painter


def _draw(
    surface: pygame.Surface,
    frames: Frames,
    index: int,
    player: int | None,
    progress: float,
    status: str | None,
) -> dict[str, list[str]]:
    """Draw frame ``index`` on a ``surface`` of :data:`BASE_SIZE`; the texts by region."""
    p = Painter(surface)
    surface.fill(BACKGROUND)
    shown = frames.shown(index, player)
    draw_caption(p, REGIONS["caption"], shown.caption, f"frame {index}  ·  {len(frames)} frames")
    if shown.kind == "tavern":
        draw_tavern(p, shown, frames)
    elif shown.kind == "combat":
        draw_combat(p, shown, frames, progress)
        draw_log(p, shown)
    else:
        draw_scoreboard(p, shown, frames)
    draw_standings(p, shown, frames)
    draw_hero(p, shown, frames)
    following = "following the acting player" if player is None else f"showing player {player + 1}"
    draw_footer(p, status or f"frame {index} · {following}", shown.note)
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


FPS = 30
SPEEDS = (0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0)
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
