"""`donify screenshot [-o OUT.png]`: a picture of the game, made by the game.

It flies a short scripted flight through the real game loop (arm, climb, cruise along the
street, so the drone, its trail and the HUD are all in the frame) in a hidden window, then
saves the last frame as a PNG, atomically. It works without a display: it then draws through
headless EGL (Mesa), as the tests do.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

from game.atomic import check_output_path

CAMERAS = ("chase", "fpv", "top")
HUDS = ("player", "engineering")  # game/settings.py HUD_KINDS


def parse_size(text: str) -> tuple[int, int]:
    """'1280x720' → (1280, 720); ValueError with what was expected."""
    m = re.fullmatch(r"\s*(\d{2,5})\s*[xX×]\s*(\d{2,5})\s*", str(text))
    if not m or not (320 <= int(m.group(1)) <= 7680 and 240 <= int(m.group(2)) <= 4320):
        raise ValueError(f"--size: expected WIDTHxHEIGHT in pixels (320x240 to 7680x4320), got {text!r}")
    return int(m.group(1)), int(m.group(2))


def run_screenshot(output: str, level: str = "street", camera: str = "chase", size: str = "1280x720",
                   seconds: float = 5.0, language: str = "en", out=print, hud: str = "player") -> int:
    if hud not in HUDS:
        raise ValueError(f"--hud: expected one of {', '.join(HUDS)}, got {hud!r}")
    if camera not in CAMERAS:
        raise ValueError(f"--camera: expected one of {', '.join(CAMERAS)}, got {camera!r}")
    if language not in ("en", "fr"):
        raise ValueError(f"--language: expected en or fr, got {language!r}")
    if not 0.0 <= seconds <= 120.0:
        raise ValueError(f"--seconds: expected a number of seconds from 0 to 120, got {seconds!r}")
    path = Path(output)
    if path.suffix.lower() != ".png":
        raise ValueError(f"-o: expected a .png file name, got {output!r}")
    check_output_path(path, "screenshot: -o")  # a missing folder is refused, as fly and plot do
    width, height = parse_size(size)
    if "pyglet" not in sys.modules:
        from game.display import has_display  # noqa: PLC0415

        if not has_display():
            os.environ["PYGLET_HEADLESS"] = "1"
    from game.window import Game  # noqa: PLC0415
    from game.settings import Settings  # noqa: PLC0415
    from game.render.gl import save_png  # noqa: PLC0415

    settings = Settings()  # the defaults, not the player's file: the picture is reproducible
    settings.language = language
    settings.camera.default_view = camera
    settings.input.backend = "none"
    settings.hud = hud
    game = Game(level, settings=settings, width=width, height=height, visible=False, audio=False)
    try:
        fly_for_the_picture(game, seconds)
        game.frame(1 / 60)
        save_png(game.pixels(), path)
    finally:
        game.close()
    out(f"donify: screenshot saved to {path} ({width}x{height}, {camera} camera, {hud} HUD, level {level!r})")
    return 0


def fly_for_the_picture(game, seconds: float) -> None:
    """Arm (MotorPower 0.5), climb 2 m, then cruise forward for `seconds`."""
    pad = game.sim.pad
    frame = 1 / 60
    pad.rt = 1.0
    for _ in range(60):
        game.step(frame)
    pad.rt = 0.0
    pad.press("Y")
    for _ in range(60):
        game.step(frame)
    pad.release("Y")
    pad.left = (0.0, 1.0)
    game.step(frame)
    pad.left = (0.0, 0.0)
    for _ in range(round(seconds * 60)):
        game.step(frame)
