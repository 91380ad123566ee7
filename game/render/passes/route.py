"""The mission route (the level's waypoints in order): a line strip, shown on the map and,
from the other cameras, while the mission flies. It also tells the HUD how far the drone is
from a waypoint."""

from __future__ import annotations

import numpy as np
from pyglet import gl

from components.flight import Controller
from game.render.frame import BLENDED, IDENTITY, LAYOUT, WHITE, DrawnLevel, Frame, Pass
from game.render.gl import GpuMesh
from game.render.mesh import VERTEX_FLOATS, line_strip_vertices
from systems.scene import drone_components

ROUTE_COLOUR = (0.3, 0.9, 1.0)
ROUTE_ALPHA = 0.9


class RoutePass(Pass):
    state = BLENDED

    def __init__(self, app) -> None:
        self.app = app
        self.line = GpuMesh(LAYOUT, dynamic=True)
        self.points: list[tuple[float, float, float]] = []  # m, world, in flying order

    def use_level(self, level: DrawnLevel) -> None:
        self.points = level.meshes.route_m
        self.line.upload(line_strip_vertices(np.array(self.points).reshape(-1, 3), ROUTE_COLOUR, ROUTE_ALPHA)
                         if self.points else np.zeros((0, VERTEX_FLOATS), np.float32))

    def distance_m(self, index: int, position: np.ndarray) -> float | None:
        """From `position` to waypoint `index`; None when the route has no such waypoint."""
        if 0 <= index < len(self.points):
            return float(np.linalg.norm(np.asarray(self.points[index]) - position))
        return None

    def draw(self, frame: Frame) -> None:
        if frame.camera == "top" or self._mission_active():
            frame.use(frame.lit)
            frame.lit.material(IDENTITY, WHITE, unlit=1.0)
            self.line.draw(gl.GL_LINE_STRIP)

    def _mission_active(self) -> bool:
        (ctrl,) = drone_components(self.app, Controller)
        return ctrl.mode == "mission"

    def delete(self) -> None:
        self.line.delete()
