"""The drone's body (drone_model.py's shell, arms, motors and guards), seen only from the
chase camera: the first-person camera sits inside it and the map shows an arrow instead.
Its propellers are drawn with the blended things (props_and_shadow.py)."""

from __future__ import annotations

from game.render import transforms as tf
from game.render.drone_model import DroneModel
from game.render.frame import OPAQUE, WHITE, Frame, Pass, static_mesh


class DronePass(Pass):
    state = OPAQUE

    def __init__(self, drone: DroneModel) -> None:
        self.body = static_mesh(drone.body)

    def draw(self, frame: Frame) -> None:
        if frame.show_drone and frame.camera == "chase":
            frame.use(frame.lit)
            frame.lit.material(tf.gl_matrix(frame.pose.model), WHITE, unlit=0.0)
            self.body.draw()

    def delete(self) -> None:
        self.body.delete()
