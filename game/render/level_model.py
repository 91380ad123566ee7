"""The level's static geometry, built once from the level data into a few meshes.

Everything the level file describes is drawn from it (world/level.py's `Level`): the ground,
the road with its markings and raised pavements, buildings with rows of windows, walls and
obstacles, the raised platforms, pads with markings (start: a white H in a green square;
arrival: an orange target; others: a blue H), poles with a lamp, trees (trunk and canopy).

Meshes are grouped by how they are drawn, not by what they are, so a whole street costs a
handful of draw calls:

- `ground`: the ground plane, an indexed grid with a soft chequer of vertex shades (height
  and speed read; the per-vertex fog stays smooth over it), and the road, which lies in a
  hole of the grid so no pixel is drawn twice. Seen from above the ground, nothing standing
  on it can be behind it, so when nothing of the level goes below it (`ground_is_floor`) the
  renderer paints it first without the depth test, which a software renderer (llvmpipe)
  does on a cheaper path;
- `solid`: opaque, depth-tested;
- `decals`: thin things lying on a surface (road markings, kerbs, pad markings, windows),
  never on one another, drawn with a polygon offset instead of a z-fighting lift.

Pure numpy; `world.level.pavement_boxes` gives the pavements, so what is drawn is what
collides.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from game.render.mesh import VERTEX_FLOATS, MeshBuilder, circle
from world.level import pavement_boxes
from world.level_checks import STAND_TOLERANCE_M

KIND_COLOURS = {
    "building": "#b0a898", "wall": "#8e8477", "obstacle": "#3f6e57", "platform": "#7b6a58",
    "pole": "#4d5257", "trunk": "#6b4f3a", "canopy": "#3f6f37",
}
PAD_COLOURS = {"start": "#2f7d4f", "arrival": "#d9822b", "other": "#2f5f9e"}
MARKING_WHITE = (0.93, 0.93, 0.90)
ROAD_LINE = (0.88, 0.86, 0.78)
WINDOW = (0.22, 0.27, 0.33)
WINDOW_SPACING_M = 4.0  # along a facade; floors every 3 m
LAMP = (1.0, 0.93, 0.7)


def rgb(colour: str) -> tuple[float, float, float]:
    return tuple(int(colour[i:i + 2], 16) / 255.0 for i in (1, 3, 5))  # type: ignore[return-value]


@dataclass
class LevelMeshes:
    solid: MeshBuilder = field(default_factory=MeshBuilder)
    ground: tuple[np.ndarray, np.ndarray] | None = None  # indexed grid (vertices, indices)
    decals: MeshBuilder = field(default_factory=MeshBuilder)
    route_m: list[tuple[float, float, float]] = field(default_factory=list)  # mission route, world
    pads: dict[str, tuple[float, float, float]] = field(default_factory=dict)  # id → top centre
    ground_is_floor: bool = False  # nothing of `solid` or `decals` lies below the ground's surface


def build_level(level) -> LevelMeshes:
    """Meshes for a `world.level.Level`; None (the empty lab world) gives nothing to draw."""
    out = LevelMeshes()
    if level is None:
        return out
    g = level.ground
    out.ground = ground_grid(g.centre, g.size, g.height, rgb(g.colour), street_hole(level))
    # the solid mesh is drawn in the order it is built: what usually stands in front from
    # street level comes first (poles and trees, then pads and platforms, then buildings, and
    # the low pavements last), so the depth test rejects hidden pixels before shading
    for cyl in level.cylinders:
        _cylinder(out.solid, cyl)
    for pad in level.pads:
        _pad(out, pad)
    for plat in level.platforms:
        colour = rgb(plat.colour or KIND_COLOURS["platform"])
        x, y, z = plat.position
        yaw = math.radians(plat.yaw_deg)
        out.solid.box((x, y, z + plat.size[2] / 2.0), plat.size, colour, yaw, bottom=False)
        # legs' shadows read as a deck: a darker band under the top edge
        out.solid.box((x, y, z + plat.size[2] - 0.15), (plat.size[0] + 0.1, plat.size[1] + 0.1, 0.3),
                      tuple(c * 0.75 for c in colour), yaw)
    for box in level.boxes:
        colour = rgb(box.colour or KIND_COLOURS[box.kind])
        x, y, z = box.position
        yaw = math.radians(box.yaw_deg)
        out.solid.box((x, y, z + box.size[2] / 2.0), box.size, colour, yaw, bottom=False)
        if box.kind == "building":
            _windows(out.decals, box.position, box.size, yaw)
    road = MeshBuilder()
    if level.street is not None:
        _street(out, road, level)
    out.ground = join_indexed(out.ground, road.indexed())
    out.route_m = level.route()
    lowest = min((float(m.array()[:, 2].min()) for m in (out.solid, out.decals) if len(m)), default=math.inf)
    out.ground_is_floor = lowest >= g.height - FLOOR_TOLERANCE_M
    return out


FLOOR_TOLERANCE_M = STAND_TOLERANCE_M  # a pad may sit this far into the ground: invisible


def join_indexed(*meshes: tuple[np.ndarray, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """One indexed mesh (vertices, indices) from several, drawn in the order given."""
    vertices, indices, base = [], [], 0
    for v, i in meshes:
        vertices.append(v)
        indices.append(np.asarray(i, dtype=np.uint32) + np.uint32(base))
        base += len(v)
    return np.concatenate(vertices).astype(np.float32, copy=False), np.concatenate(indices).astype(np.uint32)


GROUND_SPACING_M = 20.0
MAX_GROUND_STEPS = 120  # per side: a huge ground gets a coarser grid, not more vertices


def ground_grid(centre, size, z: float, colour, hole=None) -> tuple[np.ndarray, np.ndarray]:
    """The ground as an indexed grid (vertices, triangle indices): shared vertices are shaded
    once, and a small alternation of vertex brightness (±5 %) gives a soft chequer that makes
    height and speed readable at no cost per pixel.

    `hole`: (centre x, centre y, yaw rad, half length, half width) of an area the ground need not
    cover (the street, drawn over it): cells lying wholly inside are left out, so the software
    renderer does not rasterise ground that the road hides. The hole's bounding box joins the
    grid lines, so for a street along X or Y the cut is exact.
    """
    axes = []
    for axis in (0, 1):
        step = max(GROUND_SPACING_M, size[axis] / MAX_GROUND_STEPS)
        n = max(1, int(math.ceil(size[axis] / step)))
        lo, hi = centre[axis] - size[axis] / 2.0, centre[axis] + size[axis] / 2.0
        lines = np.linspace(lo, hi, n + 1)
        if hole is not None:
            hx, hy, yaw, half_len, half_wid = hole
            c, s = abs(math.cos(yaw)), abs(math.sin(yaw))
            extent = (c * half_len + s * half_wid) if axis == 0 else (s * half_len + c * half_wid)
            mid = hx if axis == 0 else hy
            edges = np.clip([mid - extent, mid + extent], lo, hi)
            lines = np.unique(np.concatenate((lines, edges)))
        axes.append(lines)
    xs, ys = axes
    gx, gy = np.meshgrid(xs, ys, indexing="ij")
    nx, ny = gx.shape
    vertices = np.zeros((nx * ny, VERTEX_FLOATS), np.float32)
    vertices[:, 0] = gx.ravel()
    vertices[:, 1] = gy.ravel()
    vertices[:, 2] = z
    vertices[:, 5] = 1.0
    parity = (np.add.outer(np.arange(nx), np.arange(ny)) % 2).ravel()
    shade = np.where(parity == 1, 1.05, 0.95)[:, None]
    vertices[:, 6:9] = np.clip(np.asarray(colour, dtype=float)[None, :] * shade, 0.0, 1.0)
    vertices[:, 9] = 1.0
    i, j = np.meshgrid(np.arange(nx - 1), np.arange(ny - 1), indexing="ij")
    a = (i * ny + j).ravel()
    b, c, d = a + ny, a + ny + 1, a + 1  # (i+1, j), (i+1, j+1), (i, j+1): counter-clockwise from above
    if hole is not None:
        hx, hy, yaw, half_len, half_wid = hole
        cos, sin = math.cos(yaw), math.sin(yaw)
        px, py = vertices[:, 0] - hx, vertices[:, 1] - hy
        inside = (np.abs(px * cos + py * sin) <= half_len + 1e-6) & (np.abs(-px * sin + py * cos) <= half_wid + 1e-6)
        keep = ~(inside[a] & inside[b] & inside[c] & inside[d])
        a, b, c, d = a[keep], b[keep], c[keep], d[keep]
    indices = np.stack((a, b, c, a, c, d), axis=1).ravel().astype(np.uint32)
    return vertices, indices


def street_hole(level):
    """The street's road and pavements as a `ground_grid` hole, or None."""
    st = level.street
    if st is None or st.length_m <= 0.0:
        return None
    cx, cy = st.centre
    return (cx, cy, math.radians(st.yaw_deg), st.length_m / 2.0, st.road_width / 2.0 + st.pavement_width)


def _street(out: LevelMeshes, road: MeshBuilder, level) -> None:
    st = level.street
    z = level.ground.height
    (cx, cy), yaw = st.centre, math.radians(st.yaw_deg)
    length = st.length_m
    if length <= 0.0:
        return
    # the ground has a hole under the street (`street_hole`), so the road fills it rather than
    # lying over the ground: no pixel is drawn twice
    road.flat_rectangle((cx, cy), (length, st.road_width), z, rgb(st.road_colour), yaw)
    ux, uy = math.cos(yaw), math.sin(yaw)
    nx, ny = -uy, ux
    # edge lines and a dashed centre line (3 m dashes every 6 m)
    for side in (-1.0, 1.0):
        off = side * (st.road_width / 2.0 - 0.3)
        out.decals.flat_rectangle((cx + off * nx, cy + off * ny), (length, 0.12), z, ROAD_LINE, yaw)
    start = np.array(st.start, dtype=float)
    for d in np.arange(1.5, length - 1.5, 6.0):
        centre = start + (d + 1.5) * np.array((ux, uy))
        out.decals.flat_rectangle(centre, (3.0, 0.14), z, ROAD_LINE, yaw)
    colour = rgb(st.pavement_colour)
    for row in pavement_boxes(level):
        out.solid.box((row.cx, row.cy, row.cz), (2 * row.hx, 2 * row.hy, 2 * row.hz), colour,
                      math.atan2(row.s, row.c), bottom=False)
        # a kerb line along the road edge
        kerb = tuple(c * 0.82 for c in colour)
        side = 1.0 if (row.cx - cx) * nx + (row.cy - cy) * ny > 0 else -1.0
        edge = (row.cx - side * (row.hy - 0.1) * nx, row.cy - side * (row.hy - 0.1) * ny)
        out.decals.flat_rectangle(edge, (2 * row.hx, 0.2), row.cz + row.hz, kerb, yaw)


def _windows(layer: MeshBuilder, position, size, yaw: float) -> None:
    """Rows of windows on the four facades, every 3 m of height and 4 m of width."""
    x, y, z = position
    lx, ly, h = size
    c, s = math.cos(yaw), math.sin(yaw)
    floors = np.arange(z + 1.2, z + h - 1.2, 3.0)
    for axis_len, depth, normal in ((lx, ly, (0.0, 1.0)), (lx, ly, (0.0, -1.0)), (ly, lx, (1.0, 0.0)), (ly, lx, (-1.0, 0.0))):
        count = int((axis_len - 1.0) // WINDOW_SPACING_M)
        if count < 1 or len(floors) == 0:
            continue
        nxl, nyl = normal
        tx, ty = -nyl, nxl  # along the facade, counter-clockwise
        offsets = (np.arange(count) - (count - 1) / 2.0) * WINDOW_SPACING_M
        wx, wy = nxl * c - nyl * s, nxl * s + nyl * c  # facade normal in the world
        ax, ay = tx * c - ty * s, tx * s + ty * c  # facade direction in the world
        face = depth / 2.0 + 0.05  # 5 cm proud of the wall, plus a polygon offset when drawn
        corners = []
        for zf in floors:
            for o in offsets:
                bx, by = x + wx * face + ax * o, y + wy * face + ay * o
                half = 0.7
                corners.append(((bx - ax * half, by - ay * half, zf), (bx + ax * half, by + ay * half, zf),
                                (bx + ax * half, by + ay * half, zf + 1.5), (bx - ax * half, by - ay * half, zf + 1.5)))
        layer.quads(np.array(corners), WINDOW)


def _pad(out: LevelMeshes, pad) -> None:
    x, y, z = pad.position
    yaw = math.radians(pad.yaw_deg)
    top = z + pad.height
    colour = rgb(pad.colour or PAD_COLOURS[pad.role])
    out.solid.box((x, y, z + pad.height / 2.0), (pad.size[0], pad.size[1], pad.height), colour, yaw, bottom=False)
    out.pads[pad.id] = (x, y, top)
    size = min(pad.size)
    if pad.role == "arrival":  # a target: white ring, orange, white bull's eye
        _ring(out.decals, (x, y), 0.42 * size, 0.34 * size, top, MARKING_WHITE)
        out.decals.flat_polygon(circle(0.12 * size, 24) + (x, y), top, MARKING_WHITE)
        return
    # an H: two uprights and a bar, in the pad's frame (uprights along the pad's X)
    c, s = math.cos(yaw), math.sin(yaw)

    def local(px: float, py: float) -> tuple[float, float]:
        return (x + px * c - py * s, y + px * s + py * c)

    h, w, t = 0.55 * size, 0.36 * size, 0.09 * size
    for py in (-w / 2.0, w / 2.0):
        out.decals.flat_rectangle(local(0.0, py), (h, t), top, MARKING_WHITE, yaw)
    out.decals.flat_rectangle(local(0.0, 0.0), (t, w), top, MARKING_WHITE, yaw)
    if pad.role == "start":  # a white border says "start"
        for px, py, sx, sy in ((0.0, size * 0.45, size * 0.96, 0.05 * size), (0.0, -size * 0.45, size * 0.96, 0.05 * size),
                               (size * 0.45, 0.0, 0.05 * size, size * 0.96), (-size * 0.45, 0.0, 0.05 * size, size * 0.96)):
            out.decals.flat_rectangle(local(px, py), (sx, sy), top, MARKING_WHITE, yaw)


def _ring(layer: MeshBuilder, centre, outer: float, inner: float, z: float, colour) -> None:
    o = circle(outer, 48) + centre
    i = circle(inner, 48) + centre
    nxt = np.roll(np.arange(48), -1)
    zz = np.full(48, z)
    o3, i3 = np.column_stack((o, zz)), np.column_stack((i, zz))
    layer.quads(np.stack((i3, o3, o3[nxt], i3[nxt]), axis=1), colour)


def _cylinder(solid: MeshBuilder, cyl) -> None:
    x, y, z = cyl.position
    if cyl.kind == "tree":
        trunk = rgb(cyl.colour or KIND_COLOURS["trunk"])
        top = z + cyl.height
        if cyl.canopy_radius > 0.0 and cyl.canopy_base < cyl.height:
            base = z + cyl.canopy_base
            solid.cylinder((x, y), cyl.radius, z, base + 0.2, trunk, segments=8, caps=(False, False))
            leaves = rgb(KIND_COLOURS["canopy"])
            r = cyl.canopy_radius
            ring = circle(r, 12) + (x, y)
            inner = circle(r * 0.6, 12) + (x, y)
            span = top - base
            solid.slab(inner, ring, base, base + 0.25 * span, tuple(v * 0.85 for v in leaves), caps=(True, False),
                       smooth=True)
            solid.slab(ring, ring, base + 0.25 * span, base + 0.7 * span, leaves, caps=(False, False), smooth=True)
            solid.slab(ring, inner, base + 0.7 * span, top, tuple(min(1.0, v * 1.12) for v in leaves), caps=(False, True),
                       smooth=True)
        else:
            solid.cylinder((x, y), cyl.radius, z, top, trunk, segments=8)
        return
    colour = rgb(cyl.colour or KIND_COLOURS["pole"])
    top = z + cyl.height
    solid.cylinder((x, y), cyl.radius, z, top, colour, segments=10)
    # a street lamp's head: an arm towards the road (y → 0) and a lit box
    toward = -1.0 if y > 0 else 1.0
    solid.box((x, y + toward * 0.45, top - 0.05), (0.1, 0.9, 0.08), colour)
    solid.box((x, y + toward * 0.85, top - 0.14), (0.35, 0.22, 0.1), LAMP)


@dataclass
class IndexedMesh:
    """A mesh already indexed (`MeshBuilder.indexed()`'s result); the renderer uploads it as
    it would a builder."""

    vertices: np.ndarray
    indices: np.ndarray

    def indexed(self) -> tuple[np.ndarray, np.ndarray]:
        return self.vertices, self.indices

    def __len__(self) -> int:
        return len(self.indices)


def prepare_level_meshes(level) -> LevelMeshes:
    """`build_level` with its solid and decal meshes already indexed: what a hot reload builds
    in its worker process (seconds of work for a 20 000-box level), so that the frame only
    uploads arrays (`Renderer.use_prepared_meshes`)."""
    meshes = build_level(level)
    meshes.solid = IndexedMesh(*meshes.solid.indexed())
    meshes.decals = IndexedMesh(*meshes.decals.indexed())
    return meshes
