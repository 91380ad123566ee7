"""An independent referee for "the drone is never inside a solid".

Built from the level *data* (boxes, platforms, pads, the street's pavements, poles, trunks,
canopies) and the vehicle's envelope, with textbook geometry that shares nothing with the
collision code: the separating-axis theorem for the envelope against each box, and sample
points for cylinders. Tests use it to check, after every frame, how deep the guard-inclusive
envelope sits in anything.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Solid:
    id: str
    kind: str  # "box" | "cylinder"
    centre: tuple[float, float, float]  # box: centre of volume; cylinder: axis x, y and bottom z
    half: tuple[float, float, float]  # box: half sizes; cylinder: (radius, height, 0)
    yaw_rad: float = 0.0

    @property
    def top_m(self) -> float:
        return self.centre[2] + self.half[2] if self.kind == "box" else self.centre[2] + self.half[1]


def level_solids(level) -> list[Solid]:
    out = []
    for b in level.boxes:
        out.append(Solid(b.id, "box", (b.position[0], b.position[1], b.position[2] + b.size[2] / 2),
                         (b.size[0] / 2, b.size[1] / 2, b.size[2] / 2), math.radians(b.yaw_deg)))
    for p in level.platforms:
        out.append(Solid(p.id, "box", (p.position[0], p.position[1], p.position[2] + p.size[2] / 2),
                         (p.size[0] / 2, p.size[1] / 2, p.size[2] / 2), math.radians(p.yaw_deg)))
    for p in level.pads:
        out.append(Solid(p.id, "box", (p.position[0], p.position[1], p.position[2] + p.height / 2),
                         (p.size[0] / 2, p.size[1] / 2, p.height / 2), math.radians(p.yaw_deg)))
    st = level.street
    if st is not None and st.pavement_width > 0 and st.kerb_height > 0:
        dx, dy = st.end[0] - st.start[0], st.end[1] - st.start[1]
        length = math.hypot(dx, dy)
        if length > 0:
            yaw = math.atan2(dy, dx)
            nx, ny = -dy / length, dx / length
            off = st.road_width / 2 + st.pavement_width / 2
            cx, cy = (st.start[0] + st.end[0]) / 2, (st.start[1] + st.end[1]) / 2
            for side, sign in (("left", 1), ("right", -1)):
                out.append(Solid(f"pavement-{side}", "box",
                                 (cx + sign * off * nx, cy + sign * off * ny, level.ground.height + st.kerb_height / 2),
                                 (length / 2, st.pavement_width / 2, st.kerb_height / 2), yaw))
    for c in level.cylinders:
        out.append(Solid(c.id, "cylinder", tuple(c.position), (c.radius, c.height, 0.0)))
        if c.kind == "tree" and c.canopy_radius > 0 and c.canopy_base < c.height:
            out.append(Solid(c.id + "/canopy", "cylinder", (c.position[0], c.position[1], c.position[2] + c.canopy_base),
                             (c.canopy_radius, c.height - c.canopy_base, 0.0)))
    return out


def rotation(q) -> np.ndarray:
    x, y, z, w = q
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
        [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
        [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
    ])


def _box_depth(p, R, half, s: Solid) -> float:
    """Penetration depth of the envelope box into box s (separating axes), ≤ 0 when apart."""
    c, si = math.cos(s.yaw_rad), math.sin(s.yaw_rad)
    A = R.T  # rows: the envelope's axes in world
    B = np.array([[c, si, 0.0], [-si, c, 0.0], [0.0, 0.0, 1.0]])  # rows: the box's axes
    cross = np.cross(A[:, None, :], B[None, :, :]).reshape(9, 3)
    norms = np.linalg.norm(cross, axis=1)
    axes = np.vstack([A, B, cross[norms > 1e-9] / norms[norms > 1e-9, None]])
    d = np.asarray(s.centre) - p
    ra = np.abs(axes @ A.T) @ np.asarray(half)
    rb = np.abs(axes @ B.T) @ np.asarray(s.half)
    return float(np.min(ra + rb - np.abs(axes @ d)))


_GRID = np.array([(i, j, k) for i in np.linspace(-1, 1, 7) for j in np.linspace(-1, 1, 7) for k in np.linspace(-1, 1, 3)])


def _cylinder_depth(p, R, half, s: Solid) -> float:
    """How deep sample points of the envelope (a 7×7×3 grid) lie in cylinder s; ≤ 0 when apart.
    Points of the cylinder's axis inside the envelope count too (a pole through the middle)."""
    r, h = s.half[0], s.half[1]
    cx, cy, z0 = s.centre
    pts = p + (_GRID * np.asarray(half)) @ R.T
    radial = r - np.hypot(pts[:, 0] - cx, pts[:, 1] - cy)
    vertical = np.minimum(pts[:, 2] - z0, z0 + h - pts[:, 2])
    depth = float(np.max(np.minimum(radial, vertical)))
    zs = np.linspace(z0, z0 + h, max(2, int(h / 0.005) + 1))
    local = (np.stack([np.full_like(zs, cx), np.full_like(zs, cy), zs], axis=1) - p) @ R  # body frame
    inside = np.all(np.abs(local) < np.asarray(half), axis=1)
    if inside.any():
        depth = max(depth, float(np.max(np.min(np.asarray(half) - np.abs(local[inside]), axis=1))) + r)
    return depth


class Referee:
    """How deep the envelope sits in the level: `depth(position, quaternion)` → (m, what)."""

    def __init__(self, level, size_m, ground_z: float | None = 0.0) -> None:
        self.solids = level_solids(level) if level is not None else []
        self.half = (0.5 * size_m[0], 0.5 * size_m[1], 0.5 * size_m[2])
        self.reach = math.sqrt(sum(h * h for h in self.half))
        self.ground_z = ground_z
        # bounding spheres of every solid, for a quick numpy rejection
        centres, radii = [], []
        for s in self.solids:
            if s.kind == "box":
                centres.append(s.centre)
                radii.append(math.hypot(*s.half))
            else:
                centres.append((s.centre[0], s.centre[1], s.centre[2] + s.half[1] / 2))
                radii.append(math.hypot(s.half[0], s.half[1] / 2))
        self.centres = np.array(centres, dtype=float).reshape(-1, 3)
        self.radii = np.array(radii, dtype=float)

    def depth(self, position, quaternion) -> tuple[float, str]:
        p = np.asarray(position, dtype=float)
        R = rotation(quaternion)
        half = self.half
        worst, what = -math.inf, ""
        if self.ground_z is not None:
            bottom = p[2] - sum(h * abs(R[2, i]) for i, h in enumerate(half))
            worst, what = self.ground_z - bottom, "ground"
        if len(self.radii):
            near = np.flatnonzero(np.linalg.norm(self.centres - p, axis=1) < self.radii + self.reach)
            for i in near.tolist():
                s = self.solids[i]
                d = _box_depth(p, R, half, s) if s.kind == "box" else _cylinder_depth(p, R, half, s)
                if d > worst:
                    worst, what = d, s.id
        return worst, what


def top_surfaces(level):
    """(id, x, y, top z) of a landing spot on each solid's top large enough for the drone."""
    out = []
    for s in level_solids(level):
        if s.kind == "box" and min(s.half[0], s.half[1]) > 0.12:
            out.append((s.id, s.centre[0], s.centre[1], s.top_m))
        elif s.kind == "cylinder" and s.half[0] > 0.12:
            out.append((s.id, s.centre[0], s.centre[1], s.top_m))
    return out


def envelopes_depth(p1, q1, p2, q2, size_m) -> float:
    """How deep two drones' envelopes (boxes of full sizes `size_m`, body axes) overlap, by the
    separating-axis theorem (15 axes); ≤ 0 when apart."""
    half = np.asarray(size_m, dtype=float) / 2.0
    A, B = rotation(q1).T, rotation(q2).T  # rows: each envelope's axes in world
    cross = np.cross(A[:, None, :], B[None, :, :]).reshape(9, 3)
    norms = np.linalg.norm(cross, axis=1)
    axes = np.vstack([A, B, cross[norms > 1e-9] / norms[norms > 1e-9, None]])
    d = np.asarray(p2, dtype=float) - np.asarray(p1, dtype=float)
    ra = np.abs(axes @ A.T) @ half
    rb = np.abs(axes @ B.T) @ half
    return float(np.min(ra + rb - np.abs(axes @ d)))
