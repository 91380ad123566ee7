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
        shader = frame.use_ui()
        self.view.draw(shader)

    def delete(self) -> None:
        self.view.delete()
