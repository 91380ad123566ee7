"""Collision geometry: the solids of a level as shapes, the drone's envelope, the broad phase.

`LevelGeometry` is what collision and sensing use (`world.level.compile_level` builds it
from a `Level`): every solid as rows of plain floats (`BoxRow`, `CylinderRow`: what
sensing reads) and as numpy arrays — the same numbers (`box_array`, `cylinder_array`), the
world bounding boxes (`box_lo`…) and the broad-phase grid — built once, with the geometry
(in the worker process, for a hot reload), for numpy and compiled code. Solids are of two
shapes, both standing upright:

- boxes turned about Z (buildings, walls, obstacles, platforms, pads, the pavements);
- vertical cylinders (poles, tree trunks, tree canopies).

The ground is an infinite plane at `ground_z_m` (None in the empty lab world).

Solids are numbered boxes first, then cylinders (`solid_ids` maps a number back to the id).
The broad phase's grid is built here, once per geometry: a uniform grid of square cells
(`grid_cell_m`, from `grid_origin`, `grid_shape` cells along x and y) over the solids'
bounding boxes — in x and y only, heights vary too much for a third axis to pay — as CSR:
`grid_start[c]` is where cell c's entries begin in `grid_solids` (the solids' numbers,
ascending within a cell; cell c = iy · nx + ix). A query looks only at the cells the tick's
path covers, so a level of 1 000 boxes costs about what the street does. Compiled code gets
it all packed into one array (world/collision.py `pack_geometry`).

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
from functools import cached_property
from typing import NamedTuple

import numpy as np


GRID_MIN_CELL_M = 2.0  # the smallest cell side of the broad-phase grid
GRID_MAX_CELLS = 1 << 18  # the cell side grows until the grid has at most this many cells


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
    # the rows as float arrays (boxes: BoxRow's 8 numbers, cylinders: CylinderRow's 5) and the
    # broad-phase grid, in __post_init__
    box_array: np.ndarray = field(default=None, repr=False, compare=False)  # type: ignore[assignment]
    cylinder_array: np.ndarray = field(default=None, repr=False, compare=False)  # type: ignore[assignment]
    grid_cell_m: float = field(default=GRID_MIN_CELL_M, repr=False)
    grid_origin: tuple[float, float] = field(default=(0.0, 0.0), repr=False)  # the grid's south-west corner, m
    grid_shape: tuple[int, int] = field(default=(1, 1), repr=False)  # cells along x, along y
    grid_start: np.ndarray = field(default=None, repr=False, compare=False)  # type: ignore[assignment]  # cells + 1
    grid_solids: np.ndarray = field(default=None, repr=False, compare=False)  # type: ignore[assignment]

    def __post_init__(self) -> None:
        if self.boxes:
            b = np.array([row[:8] for row in self.boxes], dtype=float).reshape(-1, 8)
            c, s = np.abs(b[:, 6]), np.abs(b[:, 7])
            ext = np.stack([c * b[:, 3] + s * b[:, 4], s * b[:, 3] + c * b[:, 4], b[:, 5]], axis=1)
            lo, hi = b[:, 0:3] - ext, b[:, 0:3] + ext
        else:
            b, lo, hi = np.zeros((0, 8)), np.zeros((0, 3)), np.zeros((0, 3))
        object.__setattr__(self, "box_array", b)
        object.__setattr__(self, "box_lo", lo)
        object.__setattr__(self, "box_hi", hi)
        if self.cylinders:
            cy = np.array([row[:5] for row in self.cylinders], dtype=float).reshape(-1, 5)
            lo = np.stack([cy[:, 0] - cy[:, 2], cy[:, 1] - cy[:, 2], cy[:, 3]], axis=1)
            hi = np.stack([cy[:, 0] + cy[:, 2], cy[:, 1] + cy[:, 2], cy[:, 4]], axis=1)
        else:
            cy, lo, hi = np.zeros((0, 5)), np.zeros((0, 3)), np.zeros((0, 3))
        object.__setattr__(self, "cylinder_array", cy)
        object.__setattr__(self, "cyl_lo", lo)
        object.__setattr__(self, "cyl_hi", hi)
        self._grid()

    @cached_property
    def solid_ids(self) -> tuple[str, ...]:
        """The solids' ids by number: the boxes', then the cylinders' (a tree's trunk and canopy
        both carry the tree's id)."""
        return tuple(b.id for b in self.boxes) + tuple(c.id for c in self.cylinders)

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        state.pop("solid_ids", None)  # derived: not carried between processes (level_watch.py)
        return state

    def _grid(self) -> None:
        """Build the broad-phase grid (see the module's docstring)."""
        lo, hi = np.vstack([self.box_lo, self.cyl_lo]), np.vstack([self.box_hi, self.cyl_hi])
        n = len(lo)
        cell, x0, y0, nx, ny = GRID_MIN_CELL_M, 0.0, 0.0, 1, 1
        if n:
            x0, y0 = float(lo[:, 0].min()), float(lo[:, 1].min())
            width, depth = float(hi[:, 0].max()) - x0, float(hi[:, 1].max()) - y0
            # about one solid per cell on average, never below the smallest cell
            cell = max(GRID_MIN_CELL_M, math.sqrt(width * depth / n))
            while True:
                nx, ny = int(width // cell) + 1, int(depth // cell) + 1
                if nx * ny <= GRID_MAX_CELLS:
                    break
                cell *= 1.5
        # each solid's cell range (world/collision.py `_cell_range`: the same floor and clamp)
        ix0 = np.clip(np.floor((lo[:, 0] - x0) / cell), 0, nx - 1).astype(np.int64)
        ix1 = np.clip(np.floor((hi[:, 0] - x0) / cell), 0, nx - 1).astype(np.int64)
        iy0 = np.clip(np.floor((lo[:, 1] - y0) / cell), 0, ny - 1).astype(np.int64)
        iy1 = np.clip(np.floor((hi[:, 1] - y0) / cell), 0, ny - 1).astype(np.int64)
        # every (solid, cell) pair, then sorted by cell: solid numbers ascend within a cell
        wide = ix1 - ix0 + 1
        per_solid = wide * (iy1 - iy0 + 1)
        owner = np.repeat(np.arange(n, dtype=np.int64), per_solid)
        k = np.arange(len(owner), dtype=np.int64) - np.repeat(np.cumsum(per_solid) - per_solid, per_solid)
        cells = (iy0[owner] + k // wide[owner]) * nx + ix0[owner] + k % wide[owner]
        order = np.argsort(cells, kind="stable")
        solids = owner[order]
        start = np.zeros(nx * ny + 1, dtype=np.int64)
        np.cumsum(np.bincount(cells, minlength=nx * ny), out=start[1:])
        object.__setattr__(self, "grid_cell_m", cell)
        object.__setattr__(self, "grid_origin", (x0, y0))
        object.__setattr__(self, "grid_shape", (nx, ny))
        object.__setattr__(self, "grid_start", start)
        object.__setattr__(self, "grid_solids", solids)

    @classmethod
    def empty(cls) -> "LevelGeometry":
        """The empty lab world: no ground, no obstacles."""
        return cls(ground_z_m=None)

    @classmethod
    def flat(cls, ground_z_m: float = 0.0) -> "LevelGeometry":
        """Just a ground plane."""
        return cls(ground_z_m=ground_z_m)

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
