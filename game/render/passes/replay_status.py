"""While a replay plays in the window (`donify play --replay R`): one line low in the middle,
"REPLAY ×2  12.3 / 60.0 s" (PAUSED, END), on a shaded band, and the playback keys under it.
Drawn whether the HUD is shown or not: the player must know the drone is not theirs."""

from __future__ import annotations

from typing import Callable

from game.render.frame import SCREEN, Frame, Pass
from game.render.hud import SHADE, VALUE, Hud
from game.render.text import UiLayer


class ReplayStatusPass(Pass):
    """Args:
        hud: the HUD (window size, scale, fonts).
        lines: called once per prepared frame: the (status, keys) lines, or None for nothing.
    """

    state = SCREEN

    def __init__(self, hud: Hud, lines: Callable[[], tuple[str, str] | None]) -> None:
        self.hud = hud
        self.lines = lines
        self.layer = UiLayer(None)
        self._shown: tuple | None = None
        self.visible = False

    def prepare(self, frame: Frame) -> None:
        hud = self.hud
        lines = self.lines()
        state = (lines, hud.width, hud.height, hud.scale)
        if state == self._shown:
            return
        self._shown = state
        self.layer.clear()
        self.visible = lines is not None
        if lines is None:
            return
        font = self.layer.font = hud.large
        status, keys = lines
        band = 2 * font.line_height + 3 * hud.pad
        width = max(font.width(status), font.width(keys)) + 4 * hud.pad
        y0 = hud.height * 0.14  # above the hint bar, clear of the course HUD (top centre)
        self.layer.rect("replay.back", (hud.width - width) / 2.0, y0, width, band, SHADE)
        self.layer.text("replay.status", status, hud.width / 2.0, y0 + band - hud.pad - font.ascent, VALUE,
                        align="centre")
        self.layer.text("replay.keys", keys, hud.width / 2.0, y0 + hud.pad - font.descent, VALUE, align="centre")

    def draw(self, frame: Frame) -> None:
        self.prepare(frame)  # a paused replay runs no RENDER stage: the line follows all the same (cached)
        if not self.visible:
            return
        shader = frame.use_ui()
        self.layer.draw(shader)

    def delete(self) -> None:
        self.layer.delete()
