"""The drone on the map: an arrow along its heading, over everything, sized with the map."""

from __future__ import annotations

import math

import numpy as np

from game.render import transforms as tf
from game.render.camera import MapCamera
from game.render.frame import OVERLAY, Frame, Pass, static_mesh
from game.render.mesh import MeshBuilder

MARKER_COLOUR = (1.0, 0.85, 0.1)
MARKER_TINT = (1.0, 1.0, 1.0, 0.95)
MAP_REFERENCE_HALF_HEIGHT_M = 30.0  # the arrow is 2 m long when the map shows ±30 m


class MapMarkerPass(Pass):
    state = OVERLAY

    def __init__(self, map_camera: MapCamera) -> None:
        self.map_camera = map_camera
        self.arrow = static_mesh(arrow())

    def draw(self, frame: Frame) -> None:
        if frame.camera != "top":
            return
        pose = frame.pose
        scale = self.map_camera.half_height_m / MAP_REFERENCE_HALF_HEIGHT_M
        yaw = math.atan2(pose.rotation[1, 0], pose.rotation[0, 0])
        m = tf.translation(*pose.position) @ tf.rotation_z(yaw) @ tf.scaling(scale, scale, scale)
        frame.use(frame.lit)
        frame.lit.material(tf.gl_matrix(m), MARKER_TINT, unlit=1.0)
        self.arrow.draw()

    def delete(self) -> None:
        self.arrow.delete()


def arrow() -> MeshBuilder:
    """An arrow 2 m long pointing along +X, lying flat."""
    m = MeshBuilder()
    m.flat_polygon(np.array(((1.2, 0.0), (-0.8, 0.7), (-0.8, -0.7))), 0.0, MARKER_COLOUR)
    return m
