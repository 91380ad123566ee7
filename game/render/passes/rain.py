"""Rain (drawn only: world/weather.py): streaks in a box that follows the eye, falling at
`RAIN_FALL_M_S` and drifting with the wind, as many as the rain is heavy.

The drops live in box coordinates: each frame they fall, the box moves with the eye and they
wrap around its sides, so the rain never runs out and never needs new drops. A drop under the
ground is not drawn (the ground may have been painted without the depth test). The map
camera sees no rain.
"""

from __future__ import annotations

import math
import random

import numpy as np
from pyglet import gl

from game.render.frame import BLENDED, IDENTITY, LAYOUT, WHITE, DrawnLevel, Frame, Pass
from game.render.gl import GpuMesh
from game.render.mesh import VERTEX_FLOATS
from world.weather import Weather

RAIN_DROPS_MAX = 1500
RAIN_BOX_M = (16.0, 16.0, 10.0)  # around the camera
RAIN_FALL_M_S = 7.0
STREAK_S = 0.04  # a streak is this long a travel
RAIN_COLOUR = (0.82, 0.86, 0.95, 0.5)


class RainPass(Pass):
    state = BLENDED

    def __init__(self, app) -> None:
        self.app = app
        self.streaks = GpuMesh(LAYOUT, capacity=2 * RAIN_DROPS_MAX, dynamic=True)
        self.rain_level = 0.0  # 0 (dry) … 1 (heavy rain), `Weather.rain_level`
        self.ground_z = 0.0
        self.drops = np.zeros((RAIN_DROPS_MAX, 3))  # m, in the box around the eye
        self.rng = random.Random(0)
        self.box_origin = np.zeros(3)  # the eye when the drops last moved

    def use_level(self, level: DrawnLevel) -> None:
        self.ground_z = level.ground_z

    def prepare(self, frame: Frame) -> None:
        weather = self.app.resource(Weather)
        self.rain_level = weather.rain_level
        if self.rain_level <= 0.0:
            return
        eye = frame.view.eye
        box = np.array(RAIN_BOX_M)
        drops = self.drops
        if not np.any(drops):
            drops[:] = (np.array([[self.rng.random() for _ in range(3)] for _ in range(RAIN_DROPS_MAX)]) - 0.5) * box
        wind = np.array(weather.wind_now_m_s, dtype=float)
        fall = np.array((wind[0], wind[1], -RAIN_FALL_M_S))
        drops += fall * frame.dt - (eye - self.box_origin)  # drops live in a box that follows the eye
        self.box_origin = eye.copy()
        drops[:] = (drops + box / 2.0) % box - box / 2.0  # wrap around the box
        n = int(RAIN_DROPS_MAX * math.sqrt(self.rain_level))  # drizzle must still show
        heads = drops[:n] + eye
        heads = heads[heads[:, 2] > self.ground_z]
        n = len(heads)
        tails = heads - fall * STREAK_S
        verts = np.empty((2 * n, VERTEX_FLOATS), np.float32)
        verts[0::2, 0:3], verts[1::2, 0:3] = heads, tails
        verts[:, 3:6] = (0.0, 0.0, 1.0)
        verts[:, 6:10] = RAIN_COLOUR
        self.streaks.upload(verts)

    def draw(self, frame: Frame) -> None:
        if self.rain_level > 0.0 and frame.camera != "top":
            frame.use(frame.lit)
            frame.lit.material(IDENTITY, WHITE, unlit=1.0)
            self.streaks.draw(gl.GL_LINES)

    def delete(self) -> None:
        self.streaks.delete()
