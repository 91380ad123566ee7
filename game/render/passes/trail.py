"""The drone's trail (systems/trail.py records it): a line strip fading from its oldest point
to its newest, re-uploaded only when a point was added or dropped."""

from __future__ import annotations

import numpy as np
from pyglet import gl

from components.world import Trail
from game.render.frame import BLENDED, IDENTITY, LAYOUT, WHITE, Frame, Pass
from game.render.gl import GpuMesh
from game.render.mesh import line_strip_vertices
from systems.scene import drone_components

TRAIL_COLOUR = (1.0, 0.55, 0.15)


class TrailPass(Pass):
    state = BLENDED

    def __init__(self, app) -> None:
        self.app = app
        self.line = GpuMesh(LAYOUT, capacity=1200, dynamic=True)
        self.uploaded: tuple = ()  # (count, newest, oldest) of the points in `line`

    def prepare(self, frame: Frame) -> None:
        (trail,) = drone_components(self.app, Trail)
        points = trail.points
        key = (len(points), points[-1], points[0]) if points else ()
        if key != self.uploaded:
            self.uploaded = key
            self.line.upload(line_strip_vertices(np.array(points, dtype=float).reshape(-1, 3), TRAIL_COLOUR, None))

    def draw(self, frame: Frame) -> None:
        frame.use(frame.lit)
        frame.lit.material(IDENTITY, WHITE, unlit=1.0)
        self.line.draw(gl.GL_LINE_STRIP)

    def delete(self) -> None:
        self.line.delete()
