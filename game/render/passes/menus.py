"""The flight menu (LB / Tab) and the pause panel (START / Esc), over everything, HUD or not.
The HUD lays them out (game/render/hud.py) and rebuilds only what changed since last frame."""

from __future__ import annotations

from game.render.frame import SCREEN, Frame, Pass
from game.render.hud import Hud
from game.render.pause import PausePanel
from systems.menu import Menu


class MenusPass(Pass):
    state = SCREEN

    def __init__(self, app, hud: Hud) -> None:
        self.app = app
        self.hud = hud
        self.pause: PausePanel | None = None  # the window's, when there is one
        self.bindings: list[tuple[str, str]] = []  # (action, keys) for the pause panel's controls list

    def draw(self, frame: Frame) -> None:
        self.hud.draw_overlays(self.app.resource(Menu), self.pause, self.bindings)
        shader = frame.use_ui()
        self.hud.draw_overlay(shader)
