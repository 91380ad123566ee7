"""What the drone passes share (drone.py, props_and_shadow.py, map_marker.py): the instanced
program (game/render/instanced.py) and one instanced mesh per part per drone model — body,
coarse body, propeller, blur disc, blob shadow, map arrow — made when first drawn. Each part of
every drone is then one draw call per model, whatever the number of drones.

A software renderer's cost is per vertex and per pixel, so a drone out of the camera's view
(`in_view`: its bounding sphere outside one of the frustum's planes) is not drawn at all, and
a drone under `FAR_BELOW_PX` pixels across on the screen (`size_px`) is drawn with its coarse
body (`DroneModel.far_body`: a fifth of the vertices), which at that size reads the same."""

from __future__ import annotations

from typing import Callable

import numpy as np

from game.render.drone_model import DroneModel
from game.render.fleet import Fleet, FleetFrame
from game.render.frame import Frame
from game.render.instanced import FleetProgram, InstancedMesh, instance_rows
from game.render.mesh import MeshBuilder


class FleetDrawing:
    """Args: fleet, the renderer's `Fleet` (its drone models); shapes, part name → a function of
    the drone model giving the part's mesh (a `MeshBuilder`)."""

    def __init__(self, fleet: Fleet, shapes: dict[str, Callable[[DroneModel], MeshBuilder]]) -> None:
        self.fleet = fleet
        self.shapes = dict(shapes)
        self.program: FleetProgram | None = None
        self.meshes: dict[tuple[str, int], InstancedMesh] = {}

    def use(self, frame: Frame) -> FleetProgram:
        """The instanced program, current, with this frame's camera and light."""
        if self.program is None:
            self.program = FleetProgram()
        frame.use(self.program)
        self.program.match(frame.lit)
        return self.program

    def mesh(self, part: str, model_index: int) -> InstancedMesh:
        key = (part, int(model_index))
        if key not in self.meshes:
            self.meshes[key] = InstancedMesh(self.shapes[part](self.fleet.models[int(model_index)]))
        return self.meshes[key]

    def draw(self, part: str, fleet: FleetFrame, which: np.ndarray, models: np.ndarray, tints: np.ndarray) -> None:
        """Copies of `part`, one per selected drone (`which`: their rows in `fleet`) with its
        `models` (k, 4, 4) and `tints` (k, 4), one draw per drone model among them."""
        if not len(which):
            return
        kinds = fleet.model_index[which]
        for kind in np.unique(kinds):
            chosen = kinds == kind
            self.mesh(part, kind).draw(instance_rows(models[chosen], tints[chosen]))

    def delete(self) -> None:
        for mesh in self.meshes.values():
            mesh.delete()
        self.meshes.clear()
        if self.program is not None:
            self.program.delete()
            self.program = None


FAR_BELOW_PX = 28.0  # a drone narrower than this on the screen is drawn with its coarse body


def shown_bodies(fleet: FleetFrame, camera: str, view_projection: np.ndarray | None = None,
                 radius_m: float = 0.15) -> np.ndarray:
    """The rows whose body is seen: every drone, but the followed one only from the chase
    camera (the first-person camera sits inside it; the map shows its arrow), and with a
    `view_projection`, only those within `radius_m` of the view."""
    rows = np.arange(len(fleet))
    if camera != "chase":
        rows = rows[rows != fleet.followed]
    if view_projection is not None and len(rows):
        rows = rows[in_view(view_projection, fleet.positions[rows], radius_m)]
    return rows


def in_view(view_projection: np.ndarray, centres: np.ndarray, radius_m) -> np.ndarray:
    """Which spheres (centres (k, 3), radii) reach into the view: inside all six planes of
    the frustum (read off the view-projection matrix: row 3 ± rows 0, 1, 2)."""
    m = np.asarray(view_projection, dtype=float)
    planes = np.array([m[3] + m[0], m[3] - m[0], m[3] + m[1], m[3] - m[1], m[3] + m[2], m[3] - m[2]])
    planes /= np.linalg.norm(planes[:, :3], axis=1, keepdims=True)
    distances = np.asarray(centres, dtype=float) @ planes[:, :3].T + planes[:, 3]
    return np.all(distances >= -np.asarray(radius_m, dtype=float).reshape(-1, 1), axis=1)


def size_px(view_projection: np.ndarray, centres: np.ndarray, size_m: float, fb_height: int) -> np.ndarray:
    """How many pixels `size_m` spans on the screen at each centre (perspective or
    orthographic: the clip w is the depth or 1)."""
    m = np.asarray(view_projection, dtype=float)
    w = np.asarray(centres, dtype=float) @ m[3, :3] + m[3, 3]
    scale = float(np.linalg.norm(m[1, :3]))  # the projection's vertical scale (the view is a rotation)
    return scale * 0.5 * fb_height * size_m / np.maximum(np.abs(w), 1e-9)
