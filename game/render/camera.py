"""The three cameras: chase, first person (the drone's front camera), top-down map.

Each camera follows the drone's *interpolated* pose (position and attitude at render time),
keeps whatever smoothing state it needs, and gives a `View`: eye position, view and
projection matrices for a viewport aspect. Pure numpy: no GL, so the maths is testable.

- Chase: behind the drone's heading and a little above, looking at the drone. The heading is
  smoothed with a time constant (frame-rate independent: weight 1 − e^(−dt/τ)), the drone
  itself is tracked exactly so it stays centred. Collision-aware: the segment from the drone
  to the wanted eye is cast against the level; the eye comes in at once when blocked and
  eases back out.
  Landing aid: when the drone is coming down to a surface — the landing assist flies, or it
  descends faster than `DESCENDING_M_S` — the eye rises (up to `GROUND_VIEW_RISE_M` more) and
  the camera looks below the drone (up to `GROUND_VIEW_LOOK_DOWN` of the height, at most
  `GROUND_VIEW_DEPTH_M`), so that the surface under it is in the frame with the drone. The
  weight of this ground view (`ground_view_weight`) rises by a smoothstep from 0 at
  `GROUND_VIEW_LOW_M` above the surface (lower, the usual view already shows it: a drone
  resting on a pad is seen as always) to 1 at `GROUND_VIEW_FULL_M`; descending, it stays 1 up
  to `GROUND_VIEW_HIGH_M` and falls by a smoothstep to 0 at `GROUND_VIEW_NONE_M`; the landing
  assist keeps it at 1 at any height. Hovering or cruising low (the 1.5 m a take-off ends at)
  keeps the usual view — looking at the ground there would hide where the drone is going —
  except skimming under `HOVER_VIEW_NONE_M`. The weight eases to its new value with
  `GROUND_VIEW_TAU_S`. Up to about 3 m above the surface, the point under the drone is then in
  the frame.
- First person: at the front camera's optical centre, fixed to the body (the Tello has no
  mechanical gimbal, docs/model.md#weather), looking along body +X.
- Map: orthographic, looking straight down, world +X to the right and +Y up the screen,
  centred on the drone, widened so that the other drones are in view too (up to 250 m from
  the centre to the top edge).

"The drone" is the followed one (game/render/follow.py): the player's unless the player chose
another; `CameraRig.reset` after a change of drone lets the cameras take the new one at once.
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


def smoothstep(edge0: float, edge1: float, x: float) -> float:
    t = min(1.0, max(0.0, (x - edge0) / (edge1 - edge0)))
    return t * t * (3.0 - 2.0 * t)


GROUND_VIEW_LOW_M = 0.2  # m above the surface: no ground view below this (the surface is in view)
GROUND_VIEW_FULL_M = 0.8  # m: the full ground view from here…
GROUND_VIEW_HIGH_M = 1.5  # m: …to here
GROUND_VIEW_NONE_M = 4.0  # m: none above this (unless landing)
GROUND_VIEW_RISE_M = 0.5  # m the eye rises in the full ground view
GROUND_VIEW_LOOK_DOWN = 0.6  # the look point goes this fraction of the height below the drone…
GROUND_VIEW_DEPTH_M = 2.0  # …of at most this height: the drone stays in the frame
GROUND_VIEW_TAU_S = 0.5  # s, how fast the ground view comes and goes
DESCENDING_M_S = 0.3  # m/s: coming down faster than this near a surface asks for the ground view
HOVER_VIEW_FULL_M = 0.5  # m: not descending, the full ground view only below this…
HOVER_VIEW_NONE_M = 1.0  # m: …and none from here up


def ground_view_weight(height_m: float | None, landing: bool, descending: bool = False) -> float:
    """How much of the ground view the chase camera wants: 1 landing, or coming down low; 0
    high, hovering or cruising above a metre, or when nothing is under the drone."""
    if height_m is None:
        return 0.0
    rise = smoothstep(GROUND_VIEW_LOW_M, GROUND_VIEW_FULL_M, height_m)
    if landing:
        return rise
    if descending:
        return rise * (1.0 - smoothstep(GROUND_VIEW_HIGH_M, GROUND_VIEW_NONE_M, height_m))
    return rise * (1.0 - smoothstep(HOVER_VIEW_FULL_M, HOVER_VIEW_NONE_M, height_m))


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
        self.look_at = np.zeros(3)  # where the camera looks: the drone, or below it (ground view)
        self.height_above_ground_m: float | None = None  # the drone's, told before each update
        self.landing = False  # the landing assist flies
        self.descending = False  # coming down faster than DESCENDING_M_S
        self.ground_view = 0.0  # the ground view's eased weight (see the module docstring)

    def reset(self) -> None:
        self.heading = None
        self.reach = 1.0
        self.ground_view = 0.0

    def sense_ground(self, height_above_ground_m: float | None, landing: bool, vertical_speed_m_s: float = 0.0) -> None:
        """The drone's height above the surface under it (None: nothing under it), whether the
        landing assist flies and its vertical speed (m/s, up +); the next `update` eases the
        ground view towards them."""
        self.height_above_ground_m = height_above_ground_m
        self.landing = landing
        self.descending = vertical_speed_m_s < -DESCENDING_M_S

    def update(self, dt: float, position: np.ndarray, rotation: np.ndarray) -> None:
        wanted = heading_rad(rotation, self.heading if self.heading is not None else 0.0)
        if self.heading is None:
            self.heading = wanted
        else:
            self.heading = _wrap(self.heading + _wrap(wanted - self.heading) * _smoothing(dt, self.heading_tau_s))
        wanted_view = ground_view_weight(self.height_above_ground_m, self.landing, self.descending)
        self.ground_view += (wanted_view - self.ground_view) * _smoothing(max(dt, 0.0), GROUND_VIEW_TAU_S)
        g = self.ground_view
        height = max(0.0, self.height_above_ground_m or 0.0)
        drone = np.asarray(position, dtype=float)
        self.target = drone + (0.0, 0.0, 0.02)
        back = np.array((-math.cos(self.heading) * self.distance_m, -math.sin(self.heading) * self.distance_m,
                         self.height_m + GROUND_VIEW_RISE_M * g))
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
        self.look_at = self.target - (0.0, 0.0, g * GROUND_VIEW_LOOK_DOWN * min(height, GROUND_VIEW_DEPTH_M))

    def view(self, aspect: float) -> View:
        near, far = 0.03, 2000.0
        return View(self.name, self.eye.copy(), tf.look_at(self.eye, self.look_at),
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


def map_half_height_m(base_m: float, offsets, aspect: float, margin_m: float, most_m: float) -> float:
    """The map's half height that keeps every point of `offsets` ((N, 2+) metres from the
    centre) at least `margin_m` inside the frame of width/height `aspect`: never less than
    `base_m`, never more than `most_m` (beyond, the farthest drones are left out)."""
    offsets = np.asarray(offsets, dtype=float)
    if offsets.size == 0:
        return base_m
    offsets = offsets.reshape(len(offsets), -1)
    need = max(float(np.max(np.abs(offsets[:, 1]))), float(np.max(np.abs(offsets[:, 0]))) / max(aspect, 1e-6))
    return min(most_m, max(base_m, need + margin_m))


class MapCamera:
    """Straight down, north (+Y) up, centred on the followed drone, `half_height_m` metres from
    the centre to the top edge: `base_half_height_m` (30 m), or more when other drones (`show_also`)
    lie farther — the map widens so that every drone is in view, at least `MARGIN_M` inside the
    edge, up to `MOST_HALF_HEIGHT_M`; it widens and narrows with a `ZOOM_TAU_S` time constant."""

    name = "top"
    ALTITUDE_M = 300.0
    MARGIN_M = 4.0
    MOST_HALF_HEIGHT_M = 250.0
    ZOOM_TAU_S = 0.4

    def __init__(self, half_height_m: float = 30.0) -> None:
        self.base_half_height_m = half_height_m
        self.half_height_m = half_height_m
        self.centre = np.zeros(3)
        self.others = np.zeros((0, 3))  # m, world: the other drones, kept in view
        self.aspect = 16.0 / 9.0  # the last view's: what the framing assumes

    def reset(self) -> None:
        self.half_height_m = self._wanted()

    def show_also(self, points) -> None:
        """The other drones' positions (N, 3), m, world: the next updates keep them in view."""
        self.others = np.asarray(points, dtype=float).reshape(-1, 3)

    def _wanted(self) -> float:
        return map_half_height_m(self.base_half_height_m, self.others[:, :2] - self.centre[:2], self.aspect,
                                 self.MARGIN_M, max(self.MOST_HALF_HEIGHT_M, self.base_half_height_m))

    def update(self, dt: float, position: np.ndarray, rotation: np.ndarray) -> None:
        self.centre = np.asarray(position, dtype=float).copy()
        wanted = self._wanted()
        if dt <= 0.0:
            self.half_height_m = wanted
        else:
            self.half_height_m += (wanted - self.half_height_m) * _smoothing(dt, self.ZOOM_TAU_S)

    def view(self, aspect: float) -> View:
        self.aspect = aspect
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
