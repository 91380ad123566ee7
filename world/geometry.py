"""Collision geometry: the solids of a level as shapes, the drone's envelope, the broad phase.

`LevelGeometry` is what collision and sensing use (`world.level.compile_level` builds it
from a `Level`): every solid as numpy arrays (for the broad phase over all of them at once)
and as rows of plain floats (for the narrow phase on a few candidates, where numpy's
per-call cost would dominate). Solids are of two shapes, both standing upright:

- boxes turned about Z (buildings, walls, obstacles, platforms, pads, the pavements);
- vertical cylinders (poles, tree trunks, tree canopies).

The ground is an infinite plane at `ground_z_m` (None in the empty lab world).

The drone's envelope is its guard-inclusive box (vehicle file `envelope_size`), centred on
the centre of mass in body axes. Against an upright solid it is handled as the solid grown
by the envelope's extent along the solid's own axes (`extent_along`): exact for the
vertical direction — so resting on a top face is exact — and a close, slightly conservative
bound sideways when the drone is tilted.

Shapes only: nothing here knows the level format.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np


class BoxRow(NamedTuple):
    """A box turned by yaw about Z, as plain floats: centre of volume, half sizes, cos/sin yaw."""

    cx: float
    cy: float
    cz: float
    hx: float
    hy: float
    hz: float
    c: float
    s: float
    id: str
    kind: str  # "building" | "wall" | "obstacle" | "platform" | "pad" | "pavement"


class CylinderRow(NamedTuple):
    """A vertical cylinder as plain floats: axis x, y, radius, bottom and top z."""

    x: float
    y: float
    r: float
    z0: float
    z1: float
    id: str
    kind: str  # "pole" | "tree" | "canopy"


@dataclass(frozen=True)
class LevelGeometry:
    """Every solid of a level, ready for collision and sensing."""

    ground_z_m: float | None  # None: no ground (the empty lab world)
    boxes: tuple[BoxRow, ...] = ()
    cylinders: tuple[CylinderRow, ...] = ()
    restitution: float = 0.2
    friction: float = 0.6
    # broad-phase arrays (world AABBs), filled in __post_init__
    box_lo: np.ndarray = field(default=None, repr=False)  # type: ignore[assignment]
    box_hi: np.ndarray = field(default=None, repr=False)  # type: ignore[assignment]
    cyl_lo: np.ndarray = field(default=None, repr=False)  # type: ignore[assignment]
    cyl_hi: np.ndarray = field(default=None, repr=False)  # type: ignore[assignment]

    def __post_init__(self) -> None:
        if self.boxes:
            b = np.array([row[:8] for row in self.boxes], dtype=float)
            c, s = np.abs(b[:, 6]), np.abs(b[:, 7])
            ext = np.stack([c * b[:, 3] + s * b[:, 4], s * b[:, 3] + c * b[:, 4], b[:, 5]], axis=1)
            lo, hi = b[:, 0:3] - ext, b[:, 0:3] + ext
        else:
            lo = hi = np.zeros((0, 3))
        object.__setattr__(self, "box_lo", lo)
        object.__setattr__(self, "box_hi", hi)
        if self.cylinders:
            cy = np.array([row[:5] for row in self.cylinders], dtype=float)
            lo = np.stack([cy[:, 0] - cy[:, 2], cy[:, 1] - cy[:, 2], cy[:, 3]], axis=1)
            hi = np.stack([cy[:, 0] + cy[:, 2], cy[:, 1] + cy[:, 2], cy[:, 4]], axis=1)
        else:
            lo = hi = np.zeros((0, 3))
        object.__setattr__(self, "cyl_lo", lo)
        object.__setattr__(self, "cyl_hi", hi)

    @classmethod
    def empty(cls) -> "LevelGeometry":
        """The empty lab world: no ground, no obstacles."""
        return cls(ground_z_m=None)

    @classmethod
    def flat(cls, ground_z_m: float = 0.0) -> "LevelGeometry":
        """Just a ground plane."""
        return cls(ground_z_m=ground_z_m)

    def candidate_indices(self, lo_xy: tuple[float, float], hi_xy: tuple[float, float], top_z: float):
        """Indices of the boxes and of the cylinders whose bounding box meets the column
        [lo_xy, hi_xy] × (−∞, top_z] (the numpy broad phase)."""
        boxes = cylinders = np.zeros(0, dtype=np.intp)
        if self.boxes:
            lo, hi = self.box_lo, self.box_hi
            boxes = np.flatnonzero((lo[:, 0] <= hi_xy[0]) & (hi[:, 0] >= lo_xy[0]) & (lo[:, 1] <= hi_xy[1])
                                   & (hi[:, 1] >= lo_xy[1]) & (lo[:, 2] <= top_z))
        if self.cylinders:
            lo, hi = self.cyl_lo, self.cyl_hi
            cylinders = np.flatnonzero((lo[:, 0] <= hi_xy[0]) & (hi[:, 0] >= lo_xy[0]) & (lo[:, 1] <= hi_xy[1])
                                       & (hi[:, 1] >= lo_xy[1]) & (lo[:, 2] <= top_z))
        return boxes, cylinders

    def candidates(self, lo_xy: tuple[float, float], hi_xy: tuple[float, float],
                   top_z: float) -> tuple[list[BoxRow], list[CylinderRow]]:
        """Solids whose bounding box meets the column [lo_xy, hi_xy] × (−∞, top_z]."""
        boxes: list[BoxRow] = []
        cylinders: list[CylinderRow] = []
        if self.boxes:
            lo, hi = self.box_lo, self.box_hi
            hit = ((lo[:, 0] <= hi_xy[0]) & (hi[:, 0] >= lo_xy[0]) & (lo[:, 1] <= hi_xy[1])
                   & (hi[:, 1] >= lo_xy[1]) & (lo[:, 2] <= top_z))
            boxes = [self.boxes[i] for i in np.flatnonzero(hit)]
        if self.cylinders:
            lo, hi = self.cyl_lo, self.cyl_hi
            hit = ((lo[:, 0] <= hi_xy[0]) & (hi[:, 0] >= lo_xy[0]) & (lo[:, 1] <= hi_xy[1])
                   & (hi[:, 1] >= lo_xy[1]) & (lo[:, 2] <= top_z))
            cylinders = [self.cylinders[i] for i in np.flatnonzero(hit)]
        return boxes, cylinders

    def candidates_in(self, lo: tuple[float, float, float], hi: tuple[float, float, float]
                      ) -> tuple[list[BoxRow], list[CylinderRow]]:
        """Solids whose bounding box meets the box [lo, hi]."""
        boxes, cylinders = self.candidates((lo[0], lo[1]), (hi[0], hi[1]), hi[2])
        return ([b for b in boxes if b.cz + b.hz >= lo[2]],
                [c for c in cylinders if c.z1 >= lo[2]])


# -- the drone's envelope --------------------------------------------------------------------
class Envelope(NamedTuple):
    """The guard-inclusive box in world axes: its three half-axis vectors (body X, Y, Z axes
    scaled by half the envelope's length, width and height) — from one rotation per tick."""

    ax: tuple[float, float, float]
    ay: tuple[float, float, float]
    az: tuple[float, float, float]

    @property
    def vertical_half_m(self) -> float:
        """Half the envelope's world-Z extent: centre of mass to its lowest point."""
        return abs(self.ax[2]) + abs(self.ay[2]) + abs(self.az[2])

    @property
    def bounding_radius_m(self) -> float:
        """Radius of the sphere around the envelope (rotation-independent broad-phase margin)."""
        return math.sqrt(sum(a * a for a in self.ax) + sum(a * a for a in self.ay) + sum(a * a for a in self.az))

    def extent_along(self, ux: float, uy: float, uz: float = 0.0) -> float:
        """Half the envelope's extent along the unit direction u (its support distance)."""
        ax, ay, az = self.ax, self.ay, self.az
        return (abs(ux * ax[0] + uy * ax[1] + uz * ax[2]) + abs(ux * ay[0] + uy * ay[1] + uz * ay[2])
                + abs(ux * az[0] + uy * az[1] + uz * az[2]))


def envelope(q, size_m) -> Envelope:
    """The envelope of full sizes `size_m` (body X, Y, Z) at attitude q = (x, y, z, w)."""
    x, y, z, w = q
    hx, hy, hz = 0.5 * size_m[0], 0.5 * size_m[1], 0.5 * size_m[2]
    xx, yy, zz = x * x, y * y, z * z
    xy, xz, yz, wx, wy, wz = x * y, x * z, y * z, w * x, w * y, w * z
    # columns of the body → world rotation matrix, scaled by the half sizes
    return Envelope(
        (hx * (1.0 - 2.0 * (yy + zz)), hx * 2.0 * (xy + wz), hx * 2.0 * (xz - wy)),
        (hy * 2.0 * (xy - wz), hy * (1.0 - 2.0 * (xx + zz)), hy * 2.0 * (yz + wx)),
        (hz * 2.0 * (xz + wy), hz * 2.0 * (yz - wx), hz * (1.0 - 2.0 * (xx + yy))),
    )
