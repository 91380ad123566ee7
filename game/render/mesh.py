"""Procedural triangle meshes: primitives collected into one array per vertex list.

A `MeshBuilder` gathers triangles as rows of `VERTEX_FLOATS` float32 values — position (m),
normal, colour RGBA — ready to upload as one interleaved vertex buffer. Static geometry (the
level, the drone's body) is built once into a few builders and uploaded once: pyglet 2.1's
instancing draws nothing, and few large vertex lists are what a software renderer likes.

Pure numpy: no GL here, so shapes can be checked without a context.
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np

VERTEX_FLOATS = 10  # position xyz, normal xyz, colour rgba
Colour = Sequence[float]  # (r, g, b) or (r, g, b, a) in [0, 1]


def _rgba(colour: Colour) -> tuple[float, float, float, float]:
    c = tuple(float(v) for v in colour)
    return c if len(c) == 4 else (*c, 1.0)  # type: ignore[return-value]


def rounded_rectangle(size_x: float, size_y: float, radius: float, corner_segments: int = 4) -> np.ndarray:
    """Outline (N, 2) of a rectangle centred on the origin with rounded corners, counter-clockwise."""
    hx, hy = size_x / 2.0, size_y / 2.0
    r = min(radius, hx, hy)
    points = []
    for cx, cy, start in ((hx - r, hy - r, 0.0), (-hx + r, hy - r, 90.0), (-hx + r, -hy + r, 180.0), (hx - r, -hy + r, 270.0)):
        for i in range(corner_segments + 1):
            a = math.radians(start + 90.0 * i / corner_segments)
            points.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return np.array(points)


def line_strip_vertices(points: np.ndarray, colour: Colour, alpha: float | None) -> np.ndarray:
    """Vertices of a line strip through (N, 3) points, unlit; alpha None fades it from old
    (the first point, nearly transparent) to new (nearly opaque)."""
    n = len(points)
    out = np.zeros((n, VERTEX_FLOATS), np.float32)
    out[:, 0:3] = points
    out[:, 5] = 1.0
    out[:, 6:9] = colour
    out[:, 9] = np.linspace(0.15, 0.95, n) if alpha is None and n else (alpha or 1.0)
    return out


def circle(radius: float, segments: int) -> np.ndarray:
    a = np.linspace(0.0, 2.0 * math.pi, segments, endpoint=False)
    return np.stack((radius * np.cos(a), radius * np.sin(a)), axis=1)


class MeshBuilder:
    """Collects triangles; `array()` gives the (N, 10) float32 vertex array."""

    def __init__(self) -> None:
        self._chunks: list[np.ndarray] = []

    # -- low level ---------------------------------------------------------------------------
    def triangles(self, positions: np.ndarray, normals: np.ndarray, colour: Colour) -> None:
        """Append triangles: (3k, 3) positions and normals, one colour."""
        positions = np.asarray(positions, dtype=np.float32).reshape(-1, 3)
        normals = np.asarray(normals, dtype=np.float32).reshape(-1, 3)
        chunk = np.empty((len(positions), VERTEX_FLOATS), dtype=np.float32)
        chunk[:, 0:3] = positions
        chunk[:, 3:6] = normals
        chunk[:, 6:10] = _rgba(colour)
        self._chunks.append(chunk)

    def vertices(self, data: np.ndarray) -> None:
        """Append ready-made triangle vertices, (3k, VERTEX_FLOATS): for per-vertex colours."""
        self._chunks.append(np.asarray(data, dtype=np.float32).reshape(-1, VERTEX_FLOATS))

    def flat_triangles(self, positions: np.ndarray, colour: Colour) -> None:
        """Triangles with their face normals (counter-clockwise seen from outside)."""
        p = np.asarray(positions, dtype=float).reshape(-1, 3, 3)
        n = np.cross(p[:, 1] - p[:, 0], p[:, 2] - p[:, 0])
        length = np.linalg.norm(n, axis=1, keepdims=True)
        n = np.divide(n, length, out=np.zeros_like(n), where=length > 0)
        self.triangles(p.reshape(-1, 3), np.repeat(n, 3, axis=0), colour)

    def quads(self, corners: np.ndarray, colour: Colour) -> None:
        """(k, 4, 3) quads, corners counter-clockwise seen from the front."""
        c = np.asarray(corners, dtype=float).reshape(-1, 4, 3)
        tris = np.concatenate((c[:, [0, 1, 2]], c[:, [0, 2, 3]]), axis=1)
        self.flat_triangles(tris.reshape(-1, 3), colour)

    def extend(self, other: "MeshBuilder", matrix: np.ndarray | None = None) -> None:
        """Append another builder's triangles, transformed by a 4×4 rigid `matrix`."""
        data = other.array()
        if matrix is not None and len(data):
            data = data.copy()
            rot = matrix[:3, :3]
            data[:, 0:3] = data[:, 0:3] @ rot.T + matrix[:3, 3]
            data[:, 3:6] = data[:, 3:6] @ rot.T
        self._chunks.append(data.astype(np.float32, copy=False))

    def array(self) -> np.ndarray:
        if not self._chunks:
            return np.zeros((0, VERTEX_FLOATS), dtype=np.float32)
        if len(self._chunks) > 1:
            self._chunks = [np.concatenate(self._chunks)]
        return self._chunks[0]

    def indexed(self) -> tuple[np.ndarray, np.ndarray]:
        """(unique vertices, uint32 triangle indices): identical vertices (same position,
        normal and colour — the corners two triangles of a face share) are stored and shaded
        once."""
        data = self.array()
        if not len(data):
            return data, np.zeros(0, np.uint32)
        unique, inverse = np.unique(data, axis=0, return_inverse=True)
        return np.ascontiguousarray(unique, dtype=np.float32), inverse.reshape(-1).astype(np.uint32)

    def __len__(self) -> int:
        return sum(len(c) for c in self._chunks)

    # -- primitives ----------------------------------------------------------------------------
    def box(self, centre, size, colour: Colour, yaw_rad: float = 0.0, bottom: bool = True) -> None:
        """An axis-aligned box (turned by `yaw_rad` about Z) centred on `centre`."""
        hx, hy, hz = (s / 2.0 for s in size)
        c, s = math.cos(yaw_rad), math.sin(yaw_rad)
        corner = np.array([[x, y, z] for z in (-hz, hz) for y in (-hy, hy) for x in (-hx, hx)])
        rot = np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])
        v = corner @ rot.T + np.asarray(centre, dtype=float)
        # corners: index = x + 2 y + 4 z (each 0 for −, 1 for +)
        faces = [(1, 3, 7, 5), (2, 0, 4, 6), (3, 2, 6, 7), (0, 1, 5, 4), (4, 5, 7, 6)]
        if bottom:
            faces.append((0, 2, 3, 1))
        self.quads(v[np.array(faces)], colour)

    def slab(self, outline_bottom: np.ndarray, outline_top: np.ndarray, z0: float, z1: float,
             colour: Colour, caps: tuple[bool, bool] = (True, True), smooth: bool = False) -> None:
        """A prism band between two convex outlines with the same number of points (a
        chamfer when the top outline is inset), with optional bottom and top caps. `smooth`
        shades the band round (each corner's normal the mean of its two faces'), which also
        lets neighbouring faces share their corners once indexed."""
        b = np.column_stack((outline_bottom, np.full(len(outline_bottom), z0)))
        t = np.column_stack((outline_top, np.full(len(outline_top), z1)))
        nxt = np.roll(np.arange(len(b)), -1)
        if smooth:
            self._smooth_band(b, t, colour)
        else:
            self.quads(np.stack((b, b[nxt], t[nxt], t), axis=1), colour)
        centre_b, centre_t = b.mean(axis=0), t.mean(axis=0)
        if caps[0]:
            self.flat_triangles(np.stack((np.broadcast_to(centre_b, b.shape), b[nxt], b), axis=1), colour)
        if caps[1]:
            self.flat_triangles(np.stack((np.broadcast_to(centre_t, t.shape), t, t[nxt]), axis=1), colour)

    def _smooth_band(self, b: np.ndarray, t: np.ndarray, colour: Colour) -> None:
        """The side band between rings b (bottom) and t (top) with per-corner averaged normals."""
        nxt = np.roll(np.arange(len(b)), -1)
        prv = np.roll(np.arange(len(b)), 1)
        face = np.cross(b[nxt] - b, t - b)  # face i spans corners i → i+1, outward
        face /= np.linalg.norm(face, axis=1, keepdims=True)
        corner = face + face[prv]
        corner /= np.linalg.norm(corner, axis=1, keepdims=True)
        pos = np.stack((b, b[nxt], t[nxt], b, t[nxt], t), axis=1).reshape(-1, 3)
        nor = np.stack((corner, corner[nxt], corner[nxt], corner, corner[nxt], corner), axis=1).reshape(-1, 3)
        self.triangles(pos, nor, colour)

    def cylinder(self, centre_xy, radius: float, z0: float, z1: float, colour: Colour, segments: int = 16,
                 caps: tuple[bool, bool] = (True, True), smooth: bool = True) -> None:
        ring = circle(radius, segments) + np.asarray(centre_xy, dtype=float)
        if not smooth:
            self.slab(ring, ring, z0, z1, colour, caps)
            return
        cx, cy = centre_xy
        nxt = np.roll(np.arange(segments), -1)
        b = np.column_stack((ring, np.full(segments, z0)))
        t = np.column_stack((ring, np.full(segments, z1)))
        n = np.column_stack(((ring - (cx, cy)) / radius, np.zeros(segments)))
        pos = np.stack((b, b[nxt], t[nxt], b, t[nxt], t), axis=1).reshape(-1, 3)
        nor = np.stack((n, n[nxt], n[nxt], n, n[nxt], n), axis=1).reshape(-1, 3)
        self.triangles(pos, nor, colour)
        if caps[0]:
            centre_b = np.broadcast_to(np.array((cx, cy, z0)), b.shape)
            self.flat_triangles(np.stack((centre_b, b[nxt], b), axis=1), colour)
        if caps[1]:
            centre_t = np.broadcast_to(np.array((cx, cy, z1)), t.shape)
            self.flat_triangles(np.stack((centre_t, t, t[nxt]), axis=1), colour)

    def tube(self, centre_xy, inner_radius: float, outer_radius: float, z0: float, z1: float, colour: Colour,
             segments: int = 32) -> None:
        """A ring band (a propeller guard): outer and inner walls, top and bottom annuli."""
        cx, cy = centre_xy
        outer = circle(outer_radius, segments) + (cx, cy)
        inner = circle(inner_radius, segments) + (cx, cy)
        nxt = np.roll(np.arange(segments), -1)

        def z(points, height):
            return np.column_stack((points, np.full(len(points), height)))

        ob, ot, ib, it = z(outer, z0), z(outer, z1), z(inner, z0), z(inner, z1)
        self._smooth_band(ob, ot, colour)  # outer wall, facing out
        self._smooth_band(ib[::-1], it[::-1], colour)  # inner wall, facing the axis: walked the other way round
        self.quads(np.stack((ot, ot[nxt], it[nxt], it), axis=1), colour)  # top
        self.quads(np.stack((ob[nxt], ob, ib, ib[nxt]), axis=1), colour)  # bottom

    def disc(self, centre, radius: float, colour: Colour, segments: int = 32, up: bool = True) -> None:
        """A flat disc facing +Z (or −Z) at `centre`."""
        ring = circle(radius, segments)
        nxt = np.roll(np.arange(segments), -1)
        c = np.asarray(centre, dtype=float)
        p = np.column_stack((ring, np.zeros(segments))) + c
        mid = np.broadcast_to(c, p.shape)
        tris = np.stack((mid, p, p[nxt]) if up else (mid, p[nxt], p), axis=1)
        self.flat_triangles(tris.reshape(-1, 3), colour)

    def flat_rectangle(self, centre_xy, size_xy, z: float, colour: Colour, yaw_rad: float = 0.0) -> None:
        """A horizontal rectangle facing up (road, pavement top, markings)."""
        hx, hy = size_xy[0] / 2.0, size_xy[1] / 2.0
        c, s = math.cos(yaw_rad), math.sin(yaw_rad)
        local = np.array(((-hx, -hy), (hx, -hy), (hx, hy), (-hx, hy)))
        world = local @ np.array(((c, s), (-s, c))) + np.asarray(centre_xy, dtype=float)
        self.quads(np.column_stack((world, np.full(4, z)))[None], colour)

    def flat_polygon(self, points_xy: np.ndarray, z: float, colour: Colour) -> None:
        """A convex polygon on a horizontal plane, counter-clockwise, facing up."""
        p = np.column_stack((np.asarray(points_xy, dtype=float), np.full(len(points_xy), z)))
        idx = np.arange(1, len(p) - 1)
        self.flat_triangles(np.stack((np.broadcast_to(p[0], (len(idx), 3)), p[idx], p[idx + 1]), axis=1), colour)

