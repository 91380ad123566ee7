"""The CRASHED banner (docs/model.md#crashes-and-damage): while a crash has ended the flight,
a large CRASHED across the middle of the window and how to start again ("Restart: R / BACK"),
on a shaded band readable over a pale sky. Drawn whether the HUD is shown or not: the
motors will not start again until Restart, and the player must know why."""

from __future__ import annotations

from components.world import Collider
from game.render import hud_text as T
from game.render.frame import SCREEN, Frame, Pass
from game.render.hud import LARGE_PT, SHADE, VALUE, WARN, Hud
from game.render.text import UiLayer
from systems.scene import drone_components

TITLE_SCALE = 2.4  # the banner's size over the HUD's titles


class CrashPass(Pass):
    state = SCREEN

    def __init__(self, app, hud: Hud) -> None:
        self.app = app
        self.hud = hud  # its window size, scale, language and fonts
        self.back = UiLayer(None)
        self.title = UiLayer(None)
        self.line = UiLayer(None)
        self._shown: tuple | None = None  # what the layers were last built for
        self.crashed = False

    def prepare(self, frame: Frame) -> None:
        (collider,) = drone_components(self.app, Collider)
        hud = self.hud
        state = (collider.crashed, hud.language, hud.width, hud.height, hud.scale)
        if state == self._shown:
            return
        self._shown = state
        self.crashed = collider.crashed
        for layer in (self.back, self.title, self.line):
            layer.clear()
        if not self.crashed:
            return
        lang = hud.language
        self.title.font = hud.fonts(round(TITLE_SCALE * LARGE_PT * hud.scale, 1), True)
        self.line.font = self.back.font = hud.large
        title, line = T.label("crashed", lang), T.label("crashed_restart", lang)
        big, small = self.title.font, self.line.font
        band = big.line_height + small.line_height + 4 * hud.pad
        y0 = hud.height * 0.55
        self.back.rect("crash.back", 0, y0, hud.width, band, SHADE)
        self.title.text("crash.title", title, hud.width / 2.0, y0 + band - hud.pad - big.ascent, WARN, align="centre")
        self.line.text("crash.restart", line, hud.width / 2.0, y0 + hud.pad - small.descent, VALUE, align="centre")

    def draw(self, frame: Frame) -> None:
        if not self.crashed:
            return
        shader = frame.use_ui()
        for layer in (self.back, self.title, self.line):
            layer.draw(shader)

    def delete(self) -> None:
        for layer in (self.back, self.title, self.line):
            layer.delete()
