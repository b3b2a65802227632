"""Test-wide settings: property tests draw their examples from a fixed seed
(``derandomize``) and keep no example database, so every run of the suite
tests the same cases, as every other bgsim test does; and the ``headless``
fixture for tests that open the viewer."""

import pytest
from hypothesis import settings

settings.register_profile("bgsim", derandomize=True, database=None)
settings.load_profile("bgsim")


@pytest.fixture
def headless(monkeypatch):
    """pygame without a window or sound device; its display is closed after."""
    import pygame

    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    yield
    pygame.display.quit()
