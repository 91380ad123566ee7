"""4×4 transforms for the renderer, in one convention, with numpy.

Matrices are row-major numpy arrays acting on column vectors: `p_world = M @ (x, y, z, 1)`.
OpenGL reads uniform matrices column by column, so `gl_matrix(M)` hands GL the transpose,
flattened. The attitude quaternion is Donify's (x, y, z, w), body → world
(`flight.quat.rotate`); `rotation_from_quaternion` builds the matrix of that same map. (pyrr's
`Matrix44.from_quaternion` builds the inverse rotation — pyrr issue #97 — so it is not used.)

World frame: X, Y horizontal, Z up. A camera looks along its −Z axis in view space, as in
OpenGL; `look_at` takes world Z as "up" unless told otherwise.
"""

from __future__ import annotations

import math

import numpy as np


def identity() -> np.ndarray:
    return np.eye(4)


def translation(x: float, y: float, z: float) -> np.ndarray:
    m = np.eye(4)
    m[:3, 3] = (x, y, z)
    return m


def scaling(sx: float, sy: float, sz: float) -> np.ndarray:
    return np.diag((float(sx), float(sy), float(sz), 1.0))


def rotation_z(angle_rad: float) -> np.ndarray:
    """Counter-clockwise about +Z seen from above (positive yaw)."""
    c, s = math.cos(angle_rad), math.sin(angle_rad)
    m = np.eye(4)
    m[0, 0], m[0, 1], m[1, 0], m[1, 1] = c, -s, s, c
    return m


def rotation_y(angle_rad: float) -> np.ndarray:
    c, s = math.cos(angle_rad), math.sin(angle_rad)
    m = np.eye(4)
    m[0, 0], m[0, 2], m[2, 0], m[2, 2] = c, s, -s, c
    return m


def rotation_x(angle_rad: float) -> np.ndarray:
    c, s = math.cos(angle_rad), math.sin(angle_rad)
    m = np.eye(4)
    m[1, 1], m[1, 2], m[2, 1], m[2, 2] = c, -s, s, c
    return m


def rotation_from_quaternion(q) -> np.ndarray:
    """The 4×4 rotation mapping body vectors to world vectors for q = (x, y, z, w)."""
    x, y, z, w = (float(v) for v in q)
    n = x * x + y * y + z * z + w * w
    s = 2.0 / n if n > 0.0 else 0.0
    m = np.eye(4)
    m[0, 0] = 1.0 - s * (y * y + z * z)
    m[0, 1] = s * (x * y - z * w)
    m[0, 2] = s * (x * z + y * w)
    m[1, 0] = s * (x * y + z * w)
    m[1, 1] = 1.0 - s * (x * x + z * z)
    m[1, 2] = s * (y * z - x * w)
    m[2, 0] = s * (x * z - y * w)
    m[2, 1] = s * (y * z + x * w)
    m[2, 2] = 1.0 - s * (x * x + y * y)
    return m


def pose(position, q) -> np.ndarray:
    """Model matrix of a body at `position` (m, world) with attitude q (body → world)."""
    m = rotation_from_quaternion(q)
    m[:3, 3] = position
    return m


def perspective(fov_y_deg: float, aspect: float, near_m: float, far_m: float) -> np.ndarray:
    """OpenGL perspective projection: vertical field of view, width/height aspect."""
    f = 1.0 / math.tan(math.radians(fov_y_deg) / 2.0)
    m = np.zeros((4, 4))
    m[0, 0] = f / aspect
    m[1, 1] = f
    m[2, 2] = (far_m + near_m) / (near_m - far_m)
    m[2, 3] = 2.0 * far_m * near_m / (near_m - far_m)
    m[3, 2] = -1.0
    return m


def orthographic(half_width: float, half_height: float, near_m: float, far_m: float) -> np.ndarray:
    m = np.eye(4)
    m[0, 0] = 1.0 / half_width
    m[1, 1] = 1.0 / half_height
    m[2, 2] = -2.0 / (far_m - near_m)
    m[2, 3] = -(far_m + near_m) / (far_m - near_m)
    return m


def ortho_2d(width: float, height: float) -> np.ndarray:
    """Pixels → clip space, origin at the bottom-left corner (the HUD's projection); z is kept."""
    m = np.eye(4)
    m[0, 0] = 2.0 / width
    m[1, 1] = 2.0 / height
    m[0, 3] = -1.0
    m[1, 3] = -1.0
    return m


def _cross(a, b) -> tuple[float, float, float]:
    # plain floats: numpy's cross costs about 30 µs a call on 3-vectors, and a frame makes a few
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def _unit(v) -> tuple[float, float, float]:
    n = math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2])
    return (v[0] / n, v[1] / n, v[2] / n)


def look_at(eye, target, up=(0.0, 0.0, 1.0)) -> np.ndarray:
    """View matrix of a camera at `eye` looking at `target`; `up` need not be orthogonal."""
    ex, ey, ez = (float(v) for v in eye)
    forward = _unit((float(target[0]) - ex, float(target[1]) - ey, float(target[2]) - ez))
    side = _cross(forward, tuple(float(v) for v in up))
    if math.sqrt(side[0] ** 2 + side[1] ** 2 + side[2] ** 2) < 1e-9:
        # looking straight along `up`: any side vector will do
        side = _cross(forward, (0.0, 1.0, 0.0) if abs(forward[1]) < 0.9 else (1.0, 0.0, 0.0))
    side = _unit(side)
    true_up = _cross(side, forward)
    m = np.eye(4)
    m[0, :3], m[1, :3], m[2, :3] = side, true_up, (-forward[0], -forward[1], -forward[2])
    m[:3, 3] = -m[:3, :3] @ (ex, ey, ez)
    return m


def gl_matrix(m: np.ndarray) -> tuple[float, ...]:
    """Column-major flat tuple, what a GLSL `mat4` uniform expects."""
    return tuple(np.asarray(m, dtype=float).T.ravel().tolist())


def transform_points(m: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Apply a 4×4 affine transform to an (N, 3) array of points."""
    points = np.asarray(points, dtype=float)
    return points @ m[:3, :3].T + m[:3, 3]


def project(view_proj: np.ndarray, point, width: int, height: int) -> tuple[float, float, float] | None:
    """World point → (x px from the left, y px from the bottom, depth in [0, 1]); None behind."""
    clip = view_proj @ np.array((*point, 1.0), dtype=float)
    if clip[3] <= 1e-9:
        return None
    ndc = clip[:3] / clip[3]
    return ((ndc[0] + 1.0) * 0.5 * width, (ndc[1] + 1.0) * 0.5 * height, (ndc[2] + 1.0) * 0.5)

