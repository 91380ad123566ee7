"""The drones on the map: an arrow along each one's heading, over everything, sized with the
map — the followed drone's the largest and drawn last (on top); the player's yellow, each
other drone's in its colour (game/render/fleet.py). One instanced draw (passes/fleet.py)."""

from __future__ import annotations

import numpy as np

from game.render.camera import MapCamera
from game.render.frame import OVERLAY, Frame, Pass
from game.render.mesh import MeshBuilder
from game.render.passes.fleet import FleetDrawing

MARKER_COLOUR = (1.0, 0.85, 0.1)
MARKER_ALPHA = 0.95
MAP_REFERENCE_HALF_HEIGHT_M = 30.0  # the arrow is 2 m long when the map shows ±30 m
OTHERS_SCALE = 0.7  # the arrows of the drones not followed, relative to the followed one's


class MapMarkerPass(Pass):
    state = OVERLAY

    def __init__(self, map_camera: MapCamera, drawing: FleetDrawing) -> None:
        self.map_camera = map_camera
        self.drawing = drawing

    def draw(self, frame: Frame) -> None:
        fleet = frame.fleet
        if frame.camera != "top" or not (frame.show_drone and len(fleet)):
            return
        n = len(fleet)
        order = np.array([*(i for i in range(n) if i != fleet.followed), fleet.followed])  # the followed on top
        rotation = fleet.models[order, :3, :3]
        yaw = np.arctan2(rotation[:, 1, 0], rotation[:, 0, 0])
        scale = np.full(n, self.map_camera.half_height_m / MAP_REFERENCE_HALF_HEIGHT_M)
        scale[:-1] *= OTHERS_SCALE
        models = np.zeros((n, 4, 4))
        models[:, 0, 0], models[:, 0, 1] = np.cos(yaw) * scale, -np.sin(yaw) * scale
        models[:, 1, 0], models[:, 1, 1] = np.sin(yaw) * scale, np.cos(yaw) * scale
        models[:, 2, 2], models[:, 3, 3] = scale, 1.0
        models[:, :3, 3] = fleet.positions[order]
        tints = fleet.tints[order].copy()
        tints[order == fleet.player, :3] = MARKER_COLOUR
        tints[:, 3] = MARKER_ALPHA
        program = self.drawing.use(frame)
        program.material(unlit=1.0)
        self.drawing.draw("arrow", fleet, order, models, tints)


def arrow() -> MeshBuilder:
    """An arrow 2 m long pointing along +X, lying flat, white (tinted when drawn)."""
    m = MeshBuilder()
    m.flat_polygon(np.array(((1.2, 0.0), (-0.8, 0.7), (-0.8, -0.7))), 0.0, (1.0, 1.0, 1.0))
    return m
