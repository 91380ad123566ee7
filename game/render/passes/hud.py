"""The HUD (game/render/hud.py lays it out and writes it): its readout panels, then the text
around them (key hints, the rain note, messages).

The panels go first, opaque at the nearest depth: the scene behind them then fails the depth
test instead of being shaded and covered. Panels and their readouts are drawn into a texture
only when they change (at most `REFRESH_HZ`); each frame copies it with one quad per panel,
each pixel fetching its own texel (shaders/panels.*) — hundreds of glyph quads a frame cost a
software renderer more than the whole street. The text outside the panels is drawn last,
over the scene.
"""

from __future__ import annotations

from pyglet import gl

from game.render.frame import OPAQUE, SCREEN, Frame, Pass, Program
from game.render.gl import RenderTarget
from game.render.hud import Hud
from game.render.text import UiLayer


class HudPanelsPass(Pass):
    """The readout panels, copied from their cache at the nearest depth (redrawn when changed)."""

    state = OPAQUE

    def __init__(self, hud: Hud) -> None:
        self.hud = hud
        self.program = Program("panels")
        self.cache: RenderTarget | None = None  # the panels with their readouts
        self.cache_valid = False
        self.quads = UiLayer(None)  # one per panel, textured from the cache
        self.rects: list[tuple[float, float, float, float]] = []  # what `quads` holds

    def draw(self, frame: Frame) -> None:
        if not (frame.show_hud and self.hud.visible):  # hidden while the player HUD is in use
            return
        size = (frame.fb_width, frame.fb_height)
        if self.cache is None or (self.cache.width, self.cache.height) != size:
            if self.cache is not None:
                self.cache.delete()
            self.cache = RenderTarget(*size)
            self.quads.texture = self.cache
            self.cache_valid = False
        if self.hud.panels_changed or not self.cache_valid:
            self._redraw_cache(frame)
        gl.glDepthFunc(gl.GL_ALWAYS)  # at the nearest depth, whatever was drawn before
        frame.use(self.program)
        self.program["u_projection"] = frame.ui_projection
        self.program["u_panels"] = 0
        self.quads.draw(self.program.shader)
        gl.glDepthFunc(gl.GL_LESS)

    def _redraw_cache(self, frame: Frame) -> None:
        shader = frame.use_ui()
        self.cache.bind()
        gl.glClearColor(0.0, 0.0, 0.0, 0.0)
        gl.glClear(gl.GL_COLOR_BUFFER_BIT)
        gl.glDisable(gl.GL_DEPTH_TEST)
        gl.glEnable(gl.GL_BLEND)
        gl.glBlendFunc(gl.GL_SRC_ALPHA, gl.GL_ONE_MINUS_SRC_ALPHA)
        self.hud.draw_panels(shader)
        self.cache.finish()
        gl.glViewport(0, 0, frame.fb_width, frame.fb_height)
        gl.glEnable(gl.GL_DEPTH_TEST)  # back to this pass's state
        gl.glDisable(gl.GL_BLEND)
        rects = self.hud.panel_rects()
        if rects != self.rects:  # the layout changed: new quads to copy through
            self.rects = rects
            self.quads.clear()
            for i, (x, y, pw, ph) in enumerate(rects):
                self.quads.rect(f"panel.{i}", x, y, pw, ph, (1.0, 1.0, 1.0, 1.0))
        self.cache_valid = True

    def delete(self) -> None:
        self.quads.delete()
        if self.cache is not None:
            self.cache.delete()
            self.cache = None
        self.program.delete()


class HudTextPass(Pass):
    """What lies outside the panels: key hints, the rain note, messages."""

    state = SCREEN

    def __init__(self, hud: Hud) -> None:
        self.hud = hud

    def draw(self, frame: Frame) -> None:
        shader = frame.use_ui()
        if frame.show_hud:
            self.hud.draw(shader)
