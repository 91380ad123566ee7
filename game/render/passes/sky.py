"""The sky: a cap above `SKY_CAP_START_DEG`, centred on the eye inside the far plane.

Drawn after the opaque scene with the depth test, so it gets only the pixels nothing covered;
below its rim the frame's clear colour — the level's horizon colour, which the Renderer
clears to — is the sky, so a software renderer never rasterises sky behind the street. The
map camera looks straight down and sees no sky. In rain the cap is rebuilt from the darkened
lighting (game/render/rain_light.py) whenever the rain rate changes.
"""

from __future__ import annotations

import math

import numpy as np

from game.render import transforms as tf
from game.render.frame import BACKDROP, LAYOUT, NO_FOG, WHITE, DrawnLevel, Frame, Pass
from game.render.gl import GpuMesh
from game.render.level_model import rgb
from game.render.mesh import VERTEX_FLOATS, MeshBuilder
from game.render.rain_light import rain_lighting
from world.level import Lighting
from world.weather import Weather

SKY_CAP_START_DEG = 12.0  # below this the clear colour (the horizon's) is the sky
SKY_RADIUS_OF_FAR = 0.8  # the cap's radius, a fraction of the far plane's distance


class SkyPass(Pass):
    state = BACKDROP  # seen from inside: its front faces are culled

    def __init__(self, app=None) -> None:
        self.app = app  # for the weather's rain (None: always the level's dry sky)
        self.dome = GpuMesh(LAYOUT)
        self.lighting: Lighting | None = None  # the level's
        self.rain_mm_h: float | None = None  # the rain the dome was built for

    def use_level(self, level: DrawnLevel) -> None:
        self.lighting = level.lighting
        self.rain_mm_h = None
        self._build(0.0)

    def prepare(self, frame: Frame) -> None:
        rain = self.app.resource(Weather).rain_mm_h if self.app is not None else 0.0
        if rain != self.rain_mm_h and self.lighting is not None:
            self._build(rain)

    def _build(self, rain_mm_h: float) -> None:
        self.rain_mm_h = rain_mm_h
        self.dome.upload(sky_dome(rain_lighting(self.lighting, rain_mm_h)).array())

    def draw(self, frame: Frame) -> None:
        if frame.camera == "top":
            return
        view = frame.view
        radius = SKY_RADIUS_OF_FAR * view.far_m
        m = tf.translation(*view.eye) @ tf.scaling(radius, radius, radius)
        lit = frame.lit
        frame.use(lit)
        lit["u_fog_range"] = NO_FOG  # the dome's colours already hold the haze
        lit.material(tf.gl_matrix(m), WHITE, unlit=1.0)
        self.dome.draw()
        lit["u_fog_range"] = lit.fog_range

    def delete(self) -> None:
        self.dome.delete()


def sky_dome(lighting: Lighting) -> MeshBuilder:
    """The sky above `SKY_CAP_START_DEG`, a unit cap seen from inside: the horizon colour at its
    rim (the frame is cleared to that colour, so the seam is invisible), the zenith colour
    overhead and a warm glow towards the sun — all in the vertex colours."""
    zenith, horizon = np.array(rgb(lighting.sky_zenith)), np.array(rgb(lighting.sky_horizon))
    sun = np.array(lighting.sun_direction)
    sun_colour = np.array(rgb(lighting.sun_colour))
    rings = np.radians([SKY_CAP_START_DEG, 18.0, 28.0, 42.0, 60.0, 78.0, 90.0])
    segments = 24
    az = np.linspace(0.0, 2.0 * math.pi, segments + 1)
    grid = np.stack([np.stack((np.cos(e) * np.cos(az), np.cos(e) * np.sin(az), np.full_like(az, np.sin(e))), -1)
                     for e in rings])  # (rings, segments + 1, 3)
    low = math.sin(rings[0])
    t = np.clip((grid[..., 2] - low) / (1.0 - low), 0.0, 1.0) ** 0.6
    colour = (1.0 - t)[..., None] * horizon + t[..., None] * zenith
    glow = np.clip(grid @ sun, 0.0, 1.0) ** 8 * (t > 0.0)
    colour = np.clip(colour + 0.25 * glow[..., None] * sun_colour, 0.0, 1.0)
    a, b = grid[:-1, :-1], grid[:-1, 1:]
    c, d = grid[1:, 1:], grid[1:, :-1]
    ca, cb, cc, cd = colour[:-1, :-1], colour[:-1, 1:], colour[1:, 1:], colour[1:, :-1]
    pos = np.stack((a, b, c, a, c, d), axis=2).reshape(-1, 3)
    col = np.stack((ca, cb, cc, ca, cc, cd), axis=2).reshape(-1, 3)
    data = np.zeros((len(pos), VERTEX_FLOATS), np.float32)
    data[:, 0:3] = pos
    data[:, 3:6] = -pos  # facing the centre
    data[:, 6:9] = col
    data[:, 9] = 1.0
    dome = MeshBuilder()
    dome.vertices(data)
    return dome
