"""The title screen (game/render/title.py), over everything, while it is open."""

from __future__ import annotations

from game.render.frame import SCREEN, Frame, Pass
from game.render.title import TitleView


class TitlePass(Pass):
    state = SCREEN

    def __init__(self, view: TitleView) -> None:
        self.view = view

    def draw(self, frame: Frame) -> None:
        if not self.view.screen.open:
            return
        ui = frame.ui
        frame.use(ui)
        ui["u_projection"] = frame.ui_projection
        ui["u_glyphs"] = 0
        self.view.draw(ui.shader)

    def delete(self) -> None:
        self.view.delete()
