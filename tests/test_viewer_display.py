"""The viewer in a real window on a virtual X display (Xvfb): it follows the
winner, the pointer over a card shows the card's detail, and a screenshot of
the display (``xwd``) is the picture the viewer drew. Skipped without Xvfb."""

from __future__ import annotations

import os
import shutil
import struct
import subprocess

import numpy as np
import pygame
import pytest
from test_viewer import first, make_replay, slot_center

from bgsim.replay import read_replay
from viz.app import Viewer
from viz.frames import build_frames
from viz.theme import BASE_SIZE

pytestmark = pytest.mark.skipif(shutil.which("Xvfb") is None, reason="needs Xvfb")


@pytest.fixture
def display(monkeypatch):
    """A fresh Xvfb server; SDL draws on it through its X11 driver."""
    read, write = os.pipe()
    server = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
        pass_fds=(write,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    with os.fdopen(read) as f:
        number = f.readline().strip()
    if not number:
        server.kill()
        pytest.skip("Xvfb did not start")
    monkeypatch.setenv("DISPLAY", f":{number}")
    monkeypatch.setenv("SDL_VIDEODRIVER", "x11")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    yield f":{number}"
    pygame.display.quit()
    server.terminate()
    server.wait(timeout=10)


def xwd_screenshot(display: str) -> np.ndarray:
    """The whole X screen as an (x, y, rgb) array, read from ``xwd -root``."""
    data = subprocess.run(
        ["xwd", "-root", "-silent", "-display", display], capture_output=True, check=True
    ).stdout
    fields = struct.unpack(">25I", data[:100])
    header, width, height, byte_order = fields[0], fields[4], fields[5], fields[7]
    line, colors = fields[12], fields[19]
    start = header + colors * 12
    raw = np.frombuffer(data[start : start + line * height], dtype=np.uint8)
    px = raw.reshape(height, line)[:, : width * 4].reshape(height, width, 4)
    rgb = px[..., [2, 1, 0]] if byte_order == 0 else px[..., [1, 2, 3]]
    return rgb.transpose(1, 0, 2)


def test_a_real_window_follows_the_winner_and_shows_card_details(display, tmp_path):
    replay = read_replay(make_replay(tmp_path / "game.jsonl"))
    frames = build_frames(replay)
    at = first(frames, lambda f: f.action == "Buy(3)" and f.player == frames.winner)
    pygame.display.init()
    assert pygame.display.get_driver() == "x11"
    screen = pygame.display.set_mode(BASE_SIZE)
    v = Viewer(replay, frames, index=at)
    v.paused = True
    assert v.player == frames.winner

    def point(pos: tuple[int, int]) -> None:
        pygame.mouse.set_pos(pos)  # a real pointer move on the X server
        for _ in range(30):
            v.run(screen, max_ticks=1, fps=60)
            if v.mouse == pos:
                return

    point((1270, 10))  # the caption: no card there
    assert v.hovered is None
    assert "following player 3 (greedy)" in v.texts["footer"][0]
    assert v.texts["detail"][0] == "Dragonspawn Lieutenant"  # the card just bought

    point(slot_center("shop", len(frames[at].tavern.shop), 0))
    assert v.hovered is not None and v.hovered.card == frames[at].tavern.shop[0]
    assert v.texts["detail"][0] == frames[at].tavern.shop[0].name

    drawn = pygame.surfarray.array3d(pygame.display.get_surface())
    pygame.image.save(pygame.display.get_surface(), str(tmp_path / "window.png"))
    if shutil.which("xwd") is not None:
        shot = xwd_screenshot(display)
        assert shot.shape[:2] == BASE_SIZE
        assert (shot == drawn).mean() > 0.99  # the display shows what the viewer drew
