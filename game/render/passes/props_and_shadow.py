"""Every drone's blob shadow, its propellers at their angles and their blur discs.

Each part is one instanced draw per drone model (passes/fleet.py), whatever the number of
drones: a copy per shadow, per propeller and per disc, its matrix and alpha computed for all
drones at once (numpy). The shadow lies on the surface detected under its drone, fading with
height; it shows from every camera. The followed drone's propellers show only where its body
does (the chase camera); the other drones' from every camera. Each propeller turns by its own
ω·dt, in its own direction (game/render/fleet.py keeps the angles), and blurs into a disc as
it speeds up.
"""

from __future__ import annotations

import numpy as np
from pyglet import gl

from game.render import transforms as tf
from game.render.fleet import FleetFrame
from game.render.frame import BLENDED, Frame, Pass
from game.render.passes.fleet import FleetDrawing, in_view, shown_bodies
from game.render.passes.level import DECAL_OFFSET_UNITS
from game.render.mesh import VERTEX_FLOATS, MeshBuilder, circle

BLUR_START_RPM = 2500.0  # below this the blades read as blades
BLUR_FULL_RPM = 9000.0  # above this they read as a disc
SHADOW_ALPHA = 0.55  # on the ground under the drone
SHADOW_FADE_M = 12.0  # height at which it is gone
SHADOW_LIFT_M = 0.002


class PropsAndShadowPass(Pass):
    state = BLENDED

    def __init__(self, drawing: FleetDrawing) -> None:
        self.drawing = drawing
        self.fleet = FleetFrame()  # the last prepared frame's drones

    def prepare(self, frame: Frame) -> None:
        self.fleet = frame.fleet

    @property
    def angles(self) -> list[float]:
        """The followed drone's propeller angles (rad), motor order."""
        fleet = self.fleet
        return fleet.angles[fleet.followed].tolist() if len(fleet) else [0.0, 0.0, 0.0, 0.0]

    def draw(self, frame: Frame) -> None:
        fleet = frame.fleet
        if not (frame.show_drone and len(fleet)):
            return
        program = self.drawing.use(frame)
        program.material(unlit=0.0, two_sided=1.0)
        view_projection = frame.view.view_projection
        rows, models, alphas = shadows(fleet, self.drawing.fleet.models)
        seen = in_view(view_projection, models[:, :3, 3], models[:, 0, 0])
        rows, models, alphas = rows[seen], models[seen], alphas[seen]
        if len(rows):
            gl.glEnable(gl.GL_POLYGON_OFFSET_FILL)  # the shadows lie on a surface
            gl.glPolygonOffset(-1.0, -2.0 * DECAL_OFFSET_UNITS)
            self.drawing.draw("shadow", fleet, rows, models, white(alphas))
            gl.glDisable(gl.GL_POLYGON_OFFSET_FILL)
        shown = shown_bodies(fleet, frame.camera, view_projection)
        if not len(shown):
            return
        motor_frames = np.array([[tf.translation(*c) for c in m.prop_centres_m] for m in self.drawing.fleet.models])
        at_motors = fleet.models[shown][:, None] @ motor_frames[fleet.model_index[shown]]  # (k, 4, 4, 4)
        angles = fleet.angles[shown]
        c, s = np.cos(angles), np.sin(angles)
        spins = np.zeros((*angles.shape, 4, 4))
        spins[..., 0, 0], spins[..., 0, 1], spins[..., 1, 0], spins[..., 1, 1] = c, -s, s, c
        spins[..., 2, 2] = spins[..., 3, 3] = 1.0
        blur = smoothstep_array(BLUR_START_RPM, BLUR_FULL_RPM, fleet.rpm[shown])  # (k, 4)
        each = np.repeat(shown, 4)  # a row per propeller: its drone's
        self.drawing.draw("prop", fleet, each, (at_motors @ spins).reshape(-1, 4, 4),
                          white((1.0 - 0.55 * blur).reshape(-1)))
        spinning = blur.reshape(-1) > 0.0
        self.drawing.draw("blur", fleet, each[spinning], at_motors.reshape(-1, 4, 4)[spinning],
                          white(0.3 * blur.reshape(-1)[spinning]))


def shadows(fleet: FleetFrame, models) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(rows, (k, 4, 4) matrices of the unit soft disc, alphas) of the shadows seen: on the
    surface under each drone that has one, radius half the envelope's larger side growing 12 %
    a metre of height, alpha `SHADOW_ALPHA` fading to nothing at `SHADOW_FADE_M`."""
    support = fleet.support_z
    has = ~np.isnan(support)
    height = np.maximum(0.0, fleet.positions[:, 2] - np.where(has, support, 0.0))
    alpha = SHADOW_ALPHA * np.maximum(0.0, 1.0 - height / SHADOW_FADE_M)
    rows = np.nonzero(has & (alpha > 0.01))[0]
    half = np.array([0.5 * max(m.envelope_m[:2]) for m in models])[fleet.model_index[rows]]
    radius = half * (1.0 + 0.12 * height[rows])
    matrices = np.zeros((len(rows), 4, 4))
    matrices[:, 0, 0] = matrices[:, 1, 1] = radius
    matrices[:, 2, 2] = matrices[:, 3, 3] = 1.0
    matrices[:, :2, 3] = fleet.positions[rows, :2]
    matrices[:, 2, 3] = support[rows] + SHADOW_LIFT_M
    return rows, matrices, alpha[rows]


def white(alphas: np.ndarray) -> np.ndarray:
    """(k, 4) tints: the vertex colours as they are, alpha scaled."""
    tints = np.ones((len(alphas), 4))
    tints[:, 3] = alphas
    return tints


def smoothstep_array(edge0: float, edge1: float, x: np.ndarray) -> np.ndarray:
    t = np.clip((np.asarray(x, dtype=float) - edge0) / (edge1 - edge0), 0.0, 1.0)
    return t * t * (3.0 - 2.0 * t)


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


def shadow_disc() -> MeshBuilder:
    """The blob shadow: `soft_disc` in black (lit or not, it stays black)."""
    data = soft_disc().array().copy()
    data[:, 6:9] = 0.0
    builder = MeshBuilder()
    builder.vertices(data)
    return builder
