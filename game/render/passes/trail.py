"""The followed drone's trail (systems/trail.py records it): a ribbon `TRAIL_WIDTH_PX` pixels wide facing
the camera (game/render/ribbon.py; a GL line would be a one-pixel thread), fading from its
oldest point to its newest. The points are converted when one was added or dropped; the
ribbon is rebuilt around them each frame, since it faces the moving camera."""

from __future__ import annotations

import numpy as np
from pyglet import gl

from components.world import Trail
from game.render.frame import BLENDED, IDENTITY, LAYOUT, WHITE, Frame, Pass
from game.render.gl import GpuMesh
from game.render.ribbon import ribbon_vertices
from systems.scene import drone_components

TRAIL_COLOUR = (1.0, 0.55, 0.15)
TRAIL_WIDTH_PX = 4.0  # framebuffer pixels, at any distance
TRAIL_ALPHA = (0.15, 0.95)  # oldest point, newest point


class TrailPass(Pass):
    state = BLENDED

    def __init__(self, app) -> None:
        self.app = app
        self.ribbon = GpuMesh(LAYOUT, capacity=2 * 1200, dynamic=True)
        self.uploaded: tuple = ()  # (count, newest, oldest) of the points in `points`
        self.points = np.zeros((0, 3))
        self.alphas = np.zeros(0)
        self.count = 0  # vertices in `ribbon`

    def prepare(self, frame: Frame) -> None:
        (trail,) = drone_components(self.app, Trail, entity=frame.drone)
        points = trail.points
        key = (len(points), points[-1], points[0]) if points else ()
        if key != self.uploaded:
            self.uploaded = key
            self.points = np.array(points, dtype=float).reshape(-1, 3)
            self.alphas = np.linspace(*TRAIL_ALPHA, len(self.points))
        vertices = ribbon_vertices(self.points, frame.view, frame.fb_height, TRAIL_WIDTH_PX, TRAIL_COLOUR, self.alphas)
        self.count = len(vertices)
        if self.count:
            self.ribbon.upload(vertices)

    def draw(self, frame: Frame) -> None:
        if self.count:
            frame.use(frame.lit)
            frame.lit.material(IDENTITY, WHITE, unlit=1.0)
            self.ribbon.draw(gl.GL_TRIANGLE_STRIP, count=self.count)

    def delete(self) -> None:
        self.ribbon.delete()
