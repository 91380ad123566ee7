"""The three cameras: chase, first person (the drone's front camera), top-down map.

Each camera follows the drone's *interpolated* pose (position and attitude at render time),
keeps whatever smoothing state it needs, and gives a `View`: eye position, view and
projection matrices for a viewport aspect. Pure numpy: no GL, so the maths is testable.

- Chase: behind the drone's heading and a little above, looking at the drone. The heading is
  smoothed with a time constant (frame-rate independent: weight 1 − e^(−dt/τ)), the drone
  itself is tracked exactly so it stays centred. Collision-aware: the segment from the drone
  to the wanted eye is cast against the level; the eye comes in at once when blocked and
  eases back out.
- First person: at the front camera's optical centre, fixed to the body (the Tello has no
  mechanical gimbal, docs/model.md#weather), looking along body +X.
- Map: orthographic, looking straight down, world +X to the right and +Y up the screen,
  centred on the drone.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Protocol

import numpy as np

from game.render import transforms as tf
from world.sensing import sweep_envelope

#: segment cast (start, end) → fraction of the way to the first obstacle hit, or None
RayCast = Callable[[np.ndarray, np.ndarray], "float | None"]

CAMERA_NAMES = ("chase", "fpv", "top")  # the settings' names (game/settings.py CAMERA_VIEWS)


@dataclass
class View:
    name: str
    eye: np.ndarray  # m, world
    view: np.ndarray  # 4×4 world → view
    projection: np.ndarray  # 4×4 view → clip
    near_m: float
    far_m: float

    @property
    def view_projection(self) -> np.ndarray:
        return self.projection @ self.view


class Camera(Protocol):
    name: str

    def update(self, dt: float, position: np.ndarray, rotation: np.ndarray) -> None: ...

    def view(self, aspect: float) -> View: ...

    def reset(self) -> None: ...


def _smoothing(dt: float, tau_s: float) -> float:
    return 1.0 - math.exp(-dt / tau_s) if tau_s > 0.0 else 1.0


def _wrap(angle: float) -> float:
    return (angle + math.pi) % (2.0 * math.pi) - math.pi


def heading_rad(rotation: np.ndarray, fallback: float) -> float:
    """Yaw of body +X projected on the ground; `fallback` when the nose points up or down."""
    fx, fy = rotation[0, 0], rotation[1, 0]
    if fx * fx + fy * fy < 0.04:
        return fallback
    return math.atan2(fy, fx)


class ChaseCamera:
    """Args:
        distance_m: wanted distance behind the drone, along its heading.
        height_m: eye height above the drone.
        fov_y_deg: vertical field of view.
        heading_tau_s: time constant of the heading smoothing.
        raycast: obstacle test for the eye segment (None: no collision).
    """

    name = "chase"
    MIN_DISTANCE_M = 0.15  # never inside the drone's guards
    MARGIN_M = 0.08  # kept between the eye and what blocks it
    EASE_OUT_TAU_S = 0.4  # how fast the eye goes back after an obstacle

    def __init__(self, distance_m: float = 0.7, height_m: float = 0.22, fov_y_deg: float = 60.0,
                 heading_tau_s: float = 0.35, raycast: RayCast | None = None) -> None:
        self.distance_m = distance_m
        self.height_m = height_m
        self.fov_y_deg = fov_y_deg
        self.heading_tau_s = heading_tau_s
        self.raycast = raycast
        self.heading: float | None = None
        self.reach = 1.0  # fraction of the wanted distance available after collisions
        self.target = np.zeros(3)
        self.eye = np.zeros(3)

    def reset(self) -> None:
        self.heading = None
        self.reach = 1.0

    def update(self, dt: float, position: np.ndarray, rotation: np.ndarray) -> None:
        wanted = heading_rad(rotation, self.heading if self.heading is not None else 0.0)
        if self.heading is None:
            self.heading = wanted
        else:
            self.heading = _wrap(self.heading + _wrap(wanted - self.heading) * _smoothing(dt, self.heading_tau_s))
        self.target = np.asarray(position, dtype=float) + (0.0, 0.0, 0.02)
        back = np.array((-math.cos(self.heading) * self.distance_m, -math.sin(self.heading) * self.distance_m,
                         self.height_m))
        reach = 1.0
        if self.raycast is not None:
            hit = self.raycast(self.target, self.target + back)
            if hit is not None:
                length = float(np.linalg.norm(back))
                reach = max((hit * length - self.MARGIN_M) / length, self.MIN_DISTANCE_M / length)
        if reach < self.reach or dt <= 0.0:
            self.reach = reach  # blocked: come in at once
        else:
            self.reach += (reach - self.reach) * _smoothing(dt, self.EASE_OUT_TAU_S)
        self.eye = self.target + back * self.reach

    def view(self, aspect: float) -> View:
        near, far = 0.03, 2000.0
        return View(self.name, self.eye.copy(), tf.look_at(self.eye, self.target),
                    tf.perspective(self.fov_y_deg, aspect, near, far), near, far)


class FirstPersonCamera:
    """The front camera. `camera_position_m` in the body frame (X forward, Y left, Z up).

    The default field of view: the Tello's 82.6° diagonal at 4:3 is about 53° vertically.
    """

    name = "fpv"

    def __init__(self, camera_position_m=(0.038, 0.0, 0.0), fov_y_deg: float = 53.0) -> None:
        self.offset = np.asarray(camera_position_m, dtype=float)
        self.fov_y_deg = fov_y_deg
        self.eye = np.zeros(3)
        self.forward = np.array((1.0, 0.0, 0.0))
        self.up = np.array((0.0, 0.0, 1.0))

    def reset(self) -> None:
        pass

    def update(self, dt: float, position: np.ndarray, rotation: np.ndarray) -> None:
        r = rotation[:3, :3]
        self.eye = np.asarray(position, dtype=float) + r @ self.offset
        self.forward = r[:, 0].copy()
        self.up = r[:, 2].copy()

    def view(self, aspect: float) -> View:
        near, far = 0.01, 2000.0
        return View(self.name, self.eye.copy(), tf.look_at(self.eye, self.eye + self.forward, self.up),
                    tf.perspective(self.fov_y_deg, aspect, near, far), near, far)


class MapCamera:
    """Straight down, north (+Y) up, `half_height_m` metres from the centre to the top edge."""

    name = "top"
    ALTITUDE_M = 300.0

    def __init__(self, half_height_m: float = 30.0) -> None:
        self.half_height_m = half_height_m
        self.centre = np.zeros(3)

    def reset(self) -> None:
        pass

    def update(self, dt: float, position: np.ndarray, rotation: np.ndarray) -> None:
        self.centre = np.asarray(position, dtype=float).copy()

    def view(self, aspect: float) -> View:
        eye = self.centre + (0.0, 0.0, self.ALTITUDE_M)
        near, far = 1.0, self.ALTITUDE_M + 200.0
        return View(self.name, eye, tf.look_at(eye, self.centre, (0.0, 1.0, 0.0)),
                    tf.orthographic(self.half_height_m * aspect, self.half_height_m, near, far), near, far)


class CameraRig:
    """The three cameras and which one is active; `cycle()` is what RB / C does."""

    def __init__(self, chase: ChaseCamera, first_person: FirstPersonCamera, top: MapCamera,
                 active: str = "chase") -> None:
        self.cameras: dict[str, Camera] = {"chase": chase, "fpv": first_person, "top": top}
        self.active = active if active in self.cameras else "chase"

    @property
    def current(self) -> Camera:
        return self.cameras[self.active]

    def cycle(self) -> str:
        names = list(self.cameras)
        self.active = names[(names.index(self.active) + 1) % len(names)]
        return self.active

    def select(self, name: str) -> None:
        if name not in self.cameras:
            raise ValueError(f"unknown camera {name!r}: expected one of {', '.join(self.cameras)}")
        self.active = name

    def update(self, dt: float, position: np.ndarray, rotation: np.ndarray) -> None:
        for camera in self.cameras.values():  # all follow, so switching never jumps
            camera.update(dt, position, rotation)

    def reset(self) -> None:
        for camera in self.cameras.values():
            camera.reset()


# -- the chase camera's obstacle test ----------------------------------------------------------
CAMERA_BOX_M = (0.06, 0.06, 0.06)  # the eye's own small box: keeps the near plane out of walls


def level_raycast(geometry_source: Callable[[], object]) -> RayCast:
    """A `RayCast` over the current level's collision geometry, through the level's own swept
    query (`world.sensing.sweep_envelope`, with a 6 cm box for the eye). `geometry_source`
    gives the `LevelGeometry` each time, so a reloaded level is seen; None: nothing to hit."""
    def cast(start: np.ndarray, end: np.ndarray) -> float | None:
        geometry = geometry_source()
        if geometry is None:
            return None
        hit = sweep_envelope(geometry, tuple(start), tuple(end), size_m=CAMERA_BOX_M)
        return None if hit is None else hit.fraction

    return cast
