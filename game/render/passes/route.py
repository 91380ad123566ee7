"""The mission route (the level's waypoints in order): a ribbon `ROUTE_WIDTH_PX` pixels wide
facing the camera (game/render/ribbon.py), drawn from the chase and first-person cameras only
while the mission flies — otherwise it would be a line across the sky of every free flight —
and always on the map, where it is the level's plan. It also tells the HUD how far the drone
is from a waypoint."""

from __future__ import annotations

import numpy as np
from pyglet import gl

from components.flight import Controller
from game.render.frame import BLENDED, IDENTITY, LAYOUT, WHITE, DrawnLevel, Frame, Pass
from game.render.gl import GpuMesh
from game.render.ribbon import ribbon_vertices
from systems.scene import drone_components

ROUTE_COLOUR = (0.3, 0.9, 1.0)
ROUTE_ALPHA = 0.9
ROUTE_WIDTH_PX = 3.0


class RoutePass(Pass):
    state = BLENDED

    def __init__(self, app) -> None:
        self.app = app
        self.line = GpuMesh(LAYOUT, dynamic=True)
        self.points: list[tuple[float, float, float]] = []  # m, world, in flying order
        self.shown = False  # drawn this frame

    def use_level(self, level: DrawnLevel) -> None:
        self.points = level.meshes.route_m

    def prepare(self, frame: Frame) -> None:
        self.shown = len(self.points) >= 2 and (frame.camera == "top" or self._mission_active(frame))
        if self.shown:
            self.line.upload(ribbon_vertices(np.array(self.points, dtype=float), frame.view, frame.fb_height,
                                             ROUTE_WIDTH_PX, ROUTE_COLOUR, ROUTE_ALPHA))

    def distance_m(self, index: int, position: np.ndarray) -> float | None:
        """From `position` to waypoint `index`; None when the route has no such waypoint."""
        if 0 <= index < len(self.points):
            return float(np.linalg.norm(np.asarray(self.points[index]) - position))
        return None

    def draw(self, frame: Frame) -> None:
        if self.shown and (frame.camera == "top" or self._mission_active(frame)):
            frame.use(frame.lit)
            frame.lit.material(IDENTITY, WHITE, unlit=1.0)
            self.line.draw(gl.GL_TRIANGLE_STRIP)

    def _mission_active(self, frame: Frame) -> bool:
        """The followed drone flies the mission."""
        (ctrl,) = drone_components(self.app, Controller, entity=frame.drone)
        return ctrl.mode == "mission"

    def delete(self) -> None:
        self.line.delete()
