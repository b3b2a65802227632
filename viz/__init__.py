"""Replay viewer (pygame) and tournament plots (plotly): the top layer.

The viewer's modules, from the top: ``app`` (``bgsim watch``) -> ``panels``,
``fight`` and ``detail`` (a card's full detail) -> ``widgets`` -> ``theme``;
``frames`` turns a replay into what they draw, with ``wording`` saying each
action in words.
"""

import os

# Set before any viz module imports pygame, which otherwise prints a banner on import.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
# SDL would turn Ctrl-C into a window-close event; Python's own handler makes
# it the KeyboardInterrupt every command answers with exit code 130.
os.environ.setdefault("SDL_NO_SIGNAL_HANDLERS", "1")
