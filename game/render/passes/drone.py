"""Every drone's body (drone_model.py's shell, arms, motors and guards), in one instanced draw
per drone model (passes/fleet.py): the player's in its own colours, the others tinted
(game/render/fleet.py). The followed drone's body is seen only from the chase camera (the
first-person camera sits inside it and the map shows an arrow instead); the others' from
every camera. Out of view, a drone is not drawn; a few pixels wide, it is drawn with its coarse
body (passes/fleet.py). Their propellers are drawn with the blended things (props_and_shadow.py)."""

from __future__ import annotations

import numpy as np

from game.render.frame import OPAQUE, Frame, Pass
from game.render.passes.fleet import FAR_BELOW_PX, FleetDrawing, shown_bodies, size_px


class DronePass(Pass):
    state = OPAQUE

    def __init__(self, drawing: FleetDrawing) -> None:
        self.drawing = drawing

    def draw(self, frame: Frame) -> None:
        fleet = frame.fleet
        if not (frame.show_drone and len(fleet)):
            return
        view_projection = frame.view.view_projection
        rows = shown_bodies(fleet, frame.camera, view_projection)
        if not len(rows):
            return
        program = self.drawing.use(frame)
        program.material(unlit=0.0)
        sizes = np.array([max(m.envelope_m[:2]) for m in self.drawing.fleet.models])[fleet.model_index[rows]]
        far = size_px(view_projection, fleet.positions[rows], 1.0, frame.fb_height) * sizes < FAR_BELOW_PX
        for part, chosen in (("body", rows[~far]), ("far_body", rows[far])):
            self.drawing.draw(part, fleet, chosen, fleet.models[chosen], fleet.tints[chosen])
