"""Rendering tests: real frames of the game loop, drawn headless through EGL (Mesa llvmpipe).

PYGLET_HEADLESS is set by tests/conftest.py, before pyglet is first imported.
Frames are driven by a fake clock (`game.frame(1 / 60)`), never by wall time. Screenshots go
to tests/render/output/ (git-ignored) for inspection.
"""

from __future__ import annotations

from pathlib import Path

import pytest

OUTPUT = Path(__file__).resolve().parent / "output"


@pytest.fixture
def make_game():
    """Games at a small size with the default settings, no gamepads, no sound; closed after."""
    from game.settings import Settings  # noqa: PLC0415
    from game.window import Game  # noqa: PLC0415

    games = []

    def make(level="street", width: int = 640, height: int = 360, **settings_changes):
        settings = Settings()
        settings.input.backend = "none"
        for key, value in settings_changes.items():
            settings.set(key.replace("__", "."), value)
        game = Game(level, settings=settings, width=width, height=height, visible=False, audio=False)
        games.append(game)
        return game

    yield make
    for game in games:
        game.close()


@pytest.fixture
def save_shot():
    """save_shot(pixels, name): write a PNG under tests/render/output/ for a human to look at."""
    from game.render.gl import save_png  # noqa: PLC0415

    def save(pixels, name: str) -> Path:
        path = OUTPUT / f"{name}.png"
        save_png(pixels, path)
        return path

    return save
