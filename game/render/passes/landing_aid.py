"""The landing aid: a ring on the surface directly below the followed drone and a drop line from the
drone down to it, so that the player sees where the drone would land and how high it is.

Where: the collider's sensed support (`Collider.support_height_m`: the ground, a pad, a
platform's top, whatever surface lies under the drone), nothing when nothing is under it.
The ring's radius grows with the height above that surface — `RING_RADIUS_M` +
`RING_GROWTH` × height, 0.62 m at 20 m — and is never under `RING_MIN_PX` pixels on screen
(the map shows it around the drone's arrow, whatever the zoom); both fade in over the
first `FADE_IN_M` above the surface (a drone resting on a pad needs no ring) and fade out
between `VISIBLE_UP_TO_M` and `FADE_OUT_END_M`. The drop line is a ribbon `DROP_WIDTH_PX`
pixels wide facing the camera (game/render/ribbon.py). Drawn from every camera; on the map it
is the drone's footprint.
"""

from __future__ import annotations

import numpy as np
from pyglet import gl

from components.world import Collider
from game.render import transforms as tf
from game.render.frame import BLENDED, IDENTITY, LAYOUT, WHITE, Frame, Pass
from game.render.gl import GpuMesh
from game.render.mesh import VERTEX_FLOATS, circle
from game.render.passes.level import DECAL_OFFSET_UNITS
from game.render.ribbon import metres_per_pixel, ribbon_vertices
from systems.scene import drone_components

AID_COLOUR = (1.0, 0.92, 0.25)  # yellow: reads on asphalt, grass, the deck and a pale pad
RING_RADIUS_M = 0.12  # m, at the surface
RING_GROWTH = 0.025  # m of radius per metre of height
RING_INNER = 0.7  # the ring's inner radius, a fraction of its outer one
RING_MIN_PX = 8.0  # the ring's outer radius is at least this many framebuffer pixels
FADE_IN_M = (0.1, 0.3)  # m above the surface: invisible below the first, whole above the second
VISIBLE_UP_TO_M = 20.0  # m: whole up to this height…
FADE_OUT_END_M = 25.0  # …gone above this
RING_ALPHA = 0.85
DROP_ALPHA = 0.6
DROP_WIDTH_PX = 2.0
SURFACE_LIFT_M = 0.003  # the ring lies just above the surface


def ring_radius_m(height_m: float) -> float:
    return RING_RADIUS_M + RING_GROWTH * max(0.0, height_m)


def aid_alpha(height_m: float) -> float:
    """0…1: how visible the aid is at `height_m` above the surface under the drone."""
    low, high = FADE_IN_M
    fade_in = min(1.0, max(0.0, (height_m - low) / (high - low)))
    fade_out = min(1.0, max(0.0, (FADE_OUT_END_M - height_m) / (FADE_OUT_END_M - VISIBLE_UP_TO_M)))
    return fade_in * fade_out


def unit_ring(segments: int = 48) -> np.ndarray:
    """Triangles of a flat ring of outer radius 1 facing +Z, white: tinted when drawn."""
    outer = np.column_stack((circle(1.0, segments), np.zeros(segments)))
    inner = outer * RING_INNER
    nxt = np.roll(np.arange(segments), -1)
    tris = np.concatenate((np.stack((inner, outer, outer[nxt]), axis=1),
                           np.stack((inner, outer[nxt], inner[nxt]), axis=1))).reshape(-1, 3)
    data = np.zeros((len(tris), VERTEX_FLOATS), np.float32)
    data[:, 0:3] = tris
    data[:, 5] = 1.0
    data[:, 6:10] = 1.0
    return data


class LandingAidPass(Pass):
    state = BLENDED

    def __init__(self, app) -> None:
        self.app = app
        self.ring = GpuMesh(LAYOUT)
        self.ring.upload(unit_ring())
        self.drop = GpuMesh(LAYOUT, capacity=4, dynamic=True)
        self.enabled = True  # tests compare frames with and without it
        self.support_z: float | None = None  # m, the surface under the drone
        self.height_m = 0.0  # m, from the drone's bottom to that surface
        self.alpha = 0.0
        self.drop_count = 0

    def prepare(self, frame: Frame) -> None:
        (collider,) = drone_components(self.app, Collider, entity=frame.drone)
        self.support_z = collider.support_height_m
        self.alpha = 0.0
        if self.support_z is None:
            return
        bottom_z = float(frame.pose.position[2]) - 0.5 * collider.size_m[2]
        self.height_m = max(0.0, bottom_z - self.support_z)
        self.alpha = aid_alpha(self.height_m)
        if self.alpha <= 0.0:
            return
        x, y = float(frame.pose.position[0]), float(frame.pose.position[1])
        line = np.array(((x, y, bottom_z), (x, y, self.support_z + SURFACE_LIFT_M)))
        vertices = ribbon_vertices(line, frame.view, frame.fb_height, DROP_WIDTH_PX, AID_COLOUR,
                                   DROP_ALPHA * self.alpha)
        self.drop_count = len(vertices)
        self.drop.upload(vertices)

    def draw(self, frame: Frame) -> None:
        if not self.enabled or self.alpha <= 0.0 or self.support_z is None:
            return
        pose = frame.pose
        centre = np.array((float(pose.position[0]), float(pose.position[1]), self.support_z + SURFACE_LIFT_M))
        radius = self.radius_m(frame, centre)
        model = tf.translation(*centre) \
            @ tf.scaling(radius, radius, 1.0)
        lit = frame.lit
        frame.use(lit)
        gl.glEnable(gl.GL_POLYGON_OFFSET_FILL)  # the ring lies on a surface
        gl.glPolygonOffset(-1.0, -2.0 * DECAL_OFFSET_UNITS)
        lit.material(tf.gl_matrix(model), (*AID_COLOUR, RING_ALPHA * self.alpha), unlit=1.0)
        self.ring.draw()
        gl.glDisable(gl.GL_POLYGON_OFFSET_FILL)
        if self.drop_count and frame.camera != "top":  # seen from above, the line is a dot
            lit.material(IDENTITY, WHITE, unlit=1.0)
            self.drop.draw(gl.GL_TRIANGLE_STRIP, count=self.drop_count)

    def radius_m(self, frame: Frame, centre: np.ndarray) -> float:
        """The ring's outer radius this frame: `ring_radius_m`, or `RING_MIN_PX` on screen."""
        pixel_m = float(metres_per_pixel(frame.view, centre[None], frame.fb_height)[0])
        return max(ring_radius_m(self.height_m), RING_MIN_PX * pixel_m)

    def delete(self) -> None:
        self.ring.delete()
        self.drop.delete()
