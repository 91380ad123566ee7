"""The ghost: another flight's Tello (the best run, or a replay raced with `--ghost`), drawn
translucent from its recorded pose track (game/replay_window.py `GhostTrack`). It has no
physics and no collisions: only where the track says it was at the run's time."""

from __future__ import annotations

from typing import Callable

import numpy as np
from pyglet import gl

from game.render import transforms as tf
from game.render.drone_model import DroneModel
from game.render.frame import BLENDED, Frame, Pass, static_mesh

GHOST_TINT = (0.55, 0.85, 1.0, 0.45)  # a pale blue, 45 % opaque: the scene shows through


class GhostPass(Pass):
    """Args:
        drone: the drone model (its body mesh, as passes/drone.py draws it).
        pose: called once per prepared frame, gives the ghost's (position, quaternion as RigidBody stores it)
            or None when there is no ghost to draw now.
    """

    state = BLENDED

    def __init__(self, drone: DroneModel, pose: Callable[[], tuple[np.ndarray, np.ndarray] | None]) -> None:
        self.body = static_mesh(drone.body)
        self.pose = pose
        self.model: np.ndarray | None = None

    def prepare(self, frame: Frame) -> None:
        pose = self.pose()
        self.model = None if pose is None else tf.pose(pose[0], pose[1])

    def draw(self, frame: Frame) -> None:
        """Two draws: the body's depth alone, then its colour blended where that depth is
        nearest — each pixel shows the ghost's nearest surface once over the scene (a single
        translucent draw would stack its back and front faces)."""
        if self.model is None:
            return
        frame.use(frame.lit)
        frame.lit.material(tf.gl_matrix(self.model), GHOST_TINT, unlit=0.35)
        gl.glColorMask(gl.GL_FALSE, gl.GL_FALSE, gl.GL_FALSE, gl.GL_FALSE)
        gl.glDepthMask(gl.GL_TRUE)
        self.body.draw()
        gl.glColorMask(gl.GL_TRUE, gl.GL_TRUE, gl.GL_TRUE, gl.GL_TRUE)
        gl.glDepthMask(gl.GL_FALSE)  # BLENDED's, as it was
        gl.glDepthFunc(gl.GL_LEQUAL)
        self.body.draw()
        gl.glDepthFunc(gl.GL_LESS)

    def delete(self) -> None:
        self.body.delete()
