"""The player HUD (game/render/player_hud.py): its see-through panels and readouts, blended over
the scene every frame (a few hundred glyph quads), while it is the HUD in use."""

from __future__ import annotations

from game.render.frame import SCREEN, Frame, Pass
from game.render.player_hud import PlayerHud


class PlayerHudPass(Pass):
    state = SCREEN

    def __init__(self, hud: PlayerHud) -> None:
        self.hud = hud

    def draw(self, frame: Frame) -> None:
        if not (frame.show_hud and self.hud.visible):
            return
        shader = frame.use_ui()
        self.hud.draw(shader)

    def delete(self) -> None:
        self.hud.delete()
