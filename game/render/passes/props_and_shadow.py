"""The drone's blob shadow, its propellers at their angles and their blur discs: one batch.

The vertices are placed in world space on the CPU each frame and drawn in one call (a draw
call costs a software renderer more than these few hundred vertices do); each part's
transparency is baked into its vertex alpha. The shadow lies on the surface detected under
the drone, fading with height; it shows from every camera. The propellers show only where
the body does (the chase camera): each turns by its own ω·dt, in its own direction, and
blurs into a disc as it speeds up.
"""

from __future__ import annotations

import math

import numpy as np
from pyglet import gl

from components.flight import Rotors
from components.world import Collider
from game.render import transforms as tf
from game.render.drone_model import DroneModel
from game.render.frame import BLENDED, IDENTITY, LAYOUT, WHITE, Frame, Pass
from game.render.gl import GpuMesh
from game.render.passes.level import DECAL_OFFSET_UNITS
from game.render.mesh import VERTEX_FLOATS, MeshBuilder, circle
from systems.scene import drone_components

BLUR_START_RPM = 2500.0  # below this the blades read as blades
BLUR_FULL_RPM = 9000.0  # above this they read as a disc
SHADOW_ALPHA = 0.55  # on the ground under the drone
SHADOW_FADE_M = 12.0  # height at which it is gone
SHADOW_LIFT_M = 0.002


class PropsAndShadowPass(Pass):
    state = BLENDED

    def __init__(self, app, drone: DroneModel) -> None:
        self.app = app
        self.drone = drone
        self.prop_vertices = drone.prop.array()
        self.blur_vertices = drone.blur.array()
        self.shadow_vertices = soft_disc().array()
        self.shadow_vertices[:, 6:9] = 0.0  # black: lit or not, it stays black
        self.motor_frames = np.array([tf.translation(*centre) for centre in drone.prop_centres_m])
        self.batch = GpuMesh(LAYOUT, capacity=4096, dynamic=True)
        self.angles = [0.0, 0.0, 0.0, 0.0]  # rad, each propeller's
        self.rpm = [0.0, 0.0, 0.0, 0.0]
        self.support_z: float | None = None  # m, the surface under the drone (None: nothing)

    def prepare(self, frame: Frame) -> None:
        rotors, collider = drone_components(self.app, Rotors, Collider)
        tau = 2.0 * math.pi
        for i, omega in enumerate(rotors.speed_rad_s):
            self.angles[i] = (self.angles[i] + self.drone.spin[i] * omega * frame.dt) % tau
            self.rpm[i] = omega * 60.0 / tau
        self.support_z = collider.support_height_m

    def draw(self, frame: Frame) -> None:
        vertices = self.vertices(frame)
        if not len(vertices):
            return
        self.batch.upload(vertices)
        gl.glEnable(gl.GL_POLYGON_OFFSET_FILL)  # the shadow lies on a surface
        gl.glPolygonOffset(-1.0, -2.0 * DECAL_OFFSET_UNITS)
        frame.use(frame.lit)
        frame.lit.material(IDENTITY, WHITE, unlit=0.0, two_sided=1.0)
        self.batch.draw()
        gl.glDisable(gl.GL_POLYGON_OFFSET_FILL)

    def vertices(self, frame: Frame) -> np.ndarray:
        """World-space vertices: the shadow first, then blade and disc per motor."""
        pose = frame.pose
        parts = []
        if frame.show_drone and self.support_z is not None:
            height = max(0.0, float(pose.position[2]) - self.support_z)
            alpha = SHADOW_ALPHA * max(0.0, 1.0 - height / SHADOW_FADE_M)
            if alpha > 0.01:
                radius = 0.5 * max(self.drone.envelope_m[:2]) * (1.0 + 0.12 * height)
                m = tf.translation(pose.position[0], pose.position[1], self.support_z + SHADOW_LIFT_M) \
                    @ tf.scaling(radius, radius, 1.0)
                parts.extend(placed(self.shadow_vertices, m[None], [alpha]))
        if frame.show_drone and frame.camera == "chase":
            at_motors = pose.model @ self.motor_frames  # (4, 4, 4)
            spins = np.array([tf.rotation_z(a) for a in self.angles])
            blur = [smoothstep(BLUR_START_RPM, BLUR_FULL_RPM, rpm) for rpm in self.rpm]
            blades = placed(self.prop_vertices, at_motors @ spins, [1.0 - 0.55 * b for b in blur])
            discs = placed(self.blur_vertices, at_motors, [0.3 * b for b in blur])
            for i in range(len(blades)):
                parts.append(blades[i])
                if blur[i] > 0.0:
                    parts.append(discs[i])
        return np.concatenate(parts) if parts else np.zeros((0, VERTEX_FLOATS), np.float32)

    def delete(self) -> None:
        self.batch.delete()


def smoothstep(edge0: float, edge1: float, x: float) -> float:
    t = min(1.0, max(0.0, (x - edge0) / (edge1 - edge0)))
    return t * t * (3.0 - 2.0 * t)


def placed(data: np.ndarray, matrices: np.ndarray, alphas) -> np.ndarray:
    """Copies of a vertex array, one per 4×4 transform in `matrices` (k, 4, 4): positions
    moved, normals turned by the rotation part, alpha scaled by `alphas[i]`. (k, n, floats)."""
    out = np.empty((len(matrices), *data.shape), np.float32)
    out[:] = data
    rot_t = matrices[:, :3, :3].transpose(0, 2, 1).astype(np.float32)
    out[:, :, 0:3] = np.matmul(data[:, 0:3], rot_t) + matrices[:, None, :3, 3]
    out[:, :, 3:6] = np.matmul(data[:, 3:6], rot_t)
    out[:, :, 9] *= np.asarray(alphas, dtype=np.float32)[:, None]
    return out


def soft_disc() -> MeshBuilder:
    """A unit disc, opaque in the middle and fading to nothing at the rim (the blob shadow)."""
    segments = 24
    ring = circle(1.0, segments)
    nxt = np.roll(np.arange(segments), -1)
    inner = np.column_stack((ring * 0.55, np.zeros(segments)))
    outer = np.column_stack((ring, np.zeros(segments)))
    centre = np.zeros((segments, 3))
    tris = [np.stack((centre, inner, inner[nxt]), axis=1),
            np.stack((inner, outer, outer[nxt]), axis=1), np.stack((inner, outer[nxt], inner[nxt]), axis=1)]
    alphas = [(1.0, 1.0, 1.0), (1.0, 0.0, 0.0), (1.0, 0.0, 1.0)]
    data = []
    for t, a in zip(tris, alphas):
        chunk = np.zeros((segments * 3, VERTEX_FLOATS), np.float32)
        chunk[:, 0:3] = t.reshape(-1, 3)
        chunk[:, 5] = 1.0
        chunk[:, 6:9] = 1.0
        chunk[:, 9] = np.tile(a, segments)
        data.append(chunk)
    builder = MeshBuilder()
    builder.vertices(np.concatenate(data))
    return builder
