"""Ribbons: a polyline drawn as a strip facing the camera, a constant number of pixels wide.

A GL line is one pixel wide on a core profile (wider lines are optional and llvmpipe draws
them one pixel wide): the trail, the landing aid's drop line are drawn instead as a triangle
strip through the points, each point pushed sideways — across both the line and the line of
sight — by half the wanted width converted to metres at that point's distance. Pure numpy:
no GL, so the maths is testable.
"""

from __future__ import annotations

import numpy as np

from game.render.camera import View
from game.render.mesh import VERTEX_FLOATS


def metres_per_pixel(view: View, points: np.ndarray, fb_height: int) -> np.ndarray:
    """(N,) metres one framebuffer pixel covers at each of `points` (N, 3), on `view`'s
    projection: 2·depth / (P[1,1]·rows) in perspective, 2 / (P[1,1]·rows) in orthographic."""
    p = view.projection
    scale = 2.0 / (p[1, 1] * max(1, fb_height))
    if abs(p[3, 2]) < 1e-12:  # orthographic
        return np.full(len(points), scale)
    homogeneous = np.column_stack((points, np.ones(len(points))))
    depth = -(homogeneous @ view.view[2])  # distance along the line of sight
    return np.maximum(depth, view.near_m) * scale


def ribbon_vertices(points: np.ndarray, view: View, fb_height: int, width_px: float, colour, alphas) -> np.ndarray:
    """Vertices of a GL_TRIANGLE_STRIP `width_px` framebuffer pixels wide along (N, 3) `points`
    (N ≥ 2), facing `view`'s eye; `alphas` one per point (or one for all). Unlit: normal +Z."""
    points = np.asarray(points, dtype=float).reshape(-1, 3)
    n = len(points)
    if n < 2:
        return np.zeros((0, VERTEX_FLOATS), np.float32)
    tangent = np.empty_like(points)
    tangent[1:-1] = points[2:] - points[:-2]
    tangent[0] = points[1] - points[0]
    tangent[-1] = points[-1] - points[-2]
    sight = points - view.eye
    side = np.cross(tangent, sight)
    length = np.linalg.norm(side, axis=1)
    # a point seen straight along the line, or a repeated point: any side across the sight
    fallback = np.cross(sight, (0.0, 0.0, 1.0))
    fallback_len = np.linalg.norm(fallback, axis=1)
    fallback[fallback_len < 1e-9] = (1.0, 0.0, 0.0)
    fallback_len[fallback_len < 1e-9] = 1.0
    bad = length < 1e-9
    side[bad] = fallback[bad] / fallback_len[bad, None]
    side[~bad] /= length[~bad, None]
    half = 0.5 * width_px * metres_per_pixel(view, points, fb_height)
    out = np.zeros((2 * n, VERTEX_FLOATS), np.float32)
    out[0::2, 0:3] = points + side * half[:, None]
    out[1::2, 0:3] = points - side * half[:, None]
    out[:, 5] = 1.0
    out[:, 6:9] = colour
    a = np.broadcast_to(np.asarray(alphas, dtype=float), (n,))
    out[0::2, 9] = a
    out[1::2, 9] = a
    return out
