"""The level: ground and road, decals, solids — three meshes rebuilt when the level changes.

Built by level_model.py; `LevelPass` uploads them and draws the decals and the solids, then
the ground. When nothing of the level lies under the ground (`ground_first`, the shipped
levels) and the eye is above it, `GroundFirstPass` paints the ground before anything else
and without the depth test instead: seen from above, nothing standing on it can be behind it,
so everything drawn later may cover it, and a software renderer (llvmpipe) draws a surface
without the depth test on a cheaper path.
"""

from __future__ import annotations

from pyglet import gl

from game.render.camera import View
from game.render.frame import IDENTITY, LAYOUT, OPAQUE, UNDERLAY, WHITE, DrawnLevel, Frame, Pass, static_mesh
from game.render.gl import GpuMesh

DECAL_OFFSET_UNITS = 4.0  # polygon offset pulling markings and windows in front of their surface


class LevelPass(Pass):
    """Decals (polygon offset, no lift), solids, and the ground unless it was painted first —
    roughly front to back, so the depth test rejects hidden pixels before they are shaded."""

    state = OPAQUE

    def __init__(self) -> None:
        self.solid: GpuMesh | None = None
        self.decals: GpuMesh | None = None
        self.ground: GpuMesh | None = None
        self.ground_first = False  # nothing of the level lies under its ground
        self.ground_z = 0.0  # m, the ground's surface

    def use_level(self, level: DrawnLevel) -> None:
        self.delete()
        meshes = level.meshes
        self.solid = static_mesh(meshes.solid)
        if meshes.ground is not None:
            self.ground = GpuMesh(LAYOUT)
            self.ground.upload(meshes.ground[0])
            self.ground.upload_indices(meshes.ground[1])
        self.decals = static_mesh(meshes.decals)
        self.ground_first = meshes.ground_is_floor
        self.ground_z = level.ground_z

    def paints_ground_first(self, view: View) -> bool:
        """The ground can go first, under everything: nothing lies under it and the eye is above."""
        return self.ground is not None and self.ground_first and view.eye[2] > self.ground_z

    def draw(self, frame: Frame) -> None:
        frame.use(frame.lit)
        frame.lit.material(IDENTITY, WHITE, unlit=0.0)
        if self.decals is not None:
            # pulled towards the eye: the surface under them fails the depth test there
            gl.glEnable(gl.GL_POLYGON_OFFSET_FILL)
            gl.glPolygonOffset(-1.0, -DECAL_OFFSET_UNITS)
            self.decals.draw()
            gl.glDisable(gl.GL_POLYGON_OFFSET_FILL)
        if self.solid is not None:
            self.solid.draw()
        if self.ground is not None and not self.paints_ground_first(frame.view):
            self.ground.draw()

    def delete(self) -> None:
        for mesh in (self.solid, self.decals, self.ground):
            if mesh is not None:
                mesh.delete()
        self.solid = self.decals = self.ground = None


class GroundFirstPass(Pass):
    """The level's ground, first and without the depth test, when `LevelPass` says it can be."""

    state = UNDERLAY

    def __init__(self, level: LevelPass) -> None:
        self.level = level

    def draw(self, frame: Frame) -> None:
        if self.level.ground is not None and self.level.paints_ground_first(frame.view):
            frame.use(frame.lit)
            frame.lit.material(IDENTITY, WHITE, unlit=0.0)
            self.level.ground.draw()
