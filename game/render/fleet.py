"""Every drone as the window draws it this frame: where it is, its propellers, its colour.

`Fleet.update(app, alpha, dt, followed)` reads each drone once (systems.scene `drones`, in
creation order; a drone spawned or removed shows or goes on the next frame) and gives a
`FleetFrame`: one model matrix per drone (its pose between its last two ticks, by the clock's
alpha, as `frame.DronePose` does for one drone), its rotor speeds, the propeller angles (each
turned by its own ω·dt in its own direction, kept from frame to frame), the surface under it
and its tint. The maths is vectorised over the drones (`interpolated_models`): a frame costs
a matrix per drone, not a Python loop per part.

Colours: the player's drone is drawn as it is (white shell); every other drone is tinted, its
shell taking a colour of `PALETTE`, given in the order the drones appeared and kept while the
drone lives, so two drones side by side read apart and a drone keeps its colour when another
leaves. The map's arrow and the HUD's "following" tag use the same colour.

A drone of another vehicle than the scene's gets its own model (`models`, built once per
vehicle): the passes draw one batch per model.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import esper
import numpy as np

from components.flight import Airframe, RigidBody, Rotors
from components.layout import POSITION, PREVIOUS_POSITION, PREVIOUS_QUATERNION, QUATERNION
from components.world import Collider
from game.render.drone_model import DroneModel, build_drone
from systems.scene import Player, drones

PLAYER_TINT = (1.0, 1.0, 1.0, 1.0)  # the player's drone: its own colours
PALETTE: tuple[tuple[float, float, float, float], ...] = (  # the others' shells, in order of appearance
    (1.0, 0.50, 0.12, 1.0),  # orange
    (0.20, 0.75, 1.0, 1.0),  # cyan
    (1.0, 0.30, 0.75, 1.0),  # magenta
    (0.35, 0.90, 0.30, 1.0),  # green
    (0.60, 0.45, 1.0, 1.0),  # violet
    (1.0, 0.22, 0.22, 1.0),  # red
)
PALETTE_NAMES = (("orange", "orange"), ("cyan", "cyan"), ("magenta", "magenta"), ("green", "vert"),
                 ("violet", "violet"), ("red", "rouge"))  # en, fr


def rotations_from_quaternions(q: np.ndarray) -> np.ndarray:
    """(N, 3, 3) body → world rotations of (N, 4) unit quaternions (x, y, z, w), the map of
    `transforms.rotation_from_quaternion`, for every row at once."""
    x, y, z, w = q[:, 0], q[:, 1], q[:, 2], q[:, 3]
    r = np.empty((len(q), 3, 3))
    r[:, 0, 0] = 1.0 - 2.0 * (y * y + z * z)
    r[:, 0, 1] = 2.0 * (x * y - z * w)
    r[:, 0, 2] = 2.0 * (x * z + y * w)
    r[:, 1, 0] = 2.0 * (x * y + z * w)
    r[:, 1, 1] = 1.0 - 2.0 * (x * x + z * z)
    r[:, 1, 2] = 2.0 * (y * z - x * w)
    r[:, 2, 0] = 2.0 * (x * z - y * w)
    r[:, 2, 1] = 2.0 * (y * z + x * w)
    r[:, 2, 2] = 1.0 - 2.0 * (x * x + y * y)
    return r


def interpolated_models(previous_position: np.ndarray, position: np.ndarray, previous_quaternion: np.ndarray,
                        quaternion: np.ndarray, alpha: float) -> np.ndarray:
    """(N, 4, 4) model matrices between two ticks: positions linearly, attitudes by a normalised
    linear blend the shorter way round (as `frame.DronePose.interpolate`, for N drones)."""
    pos = previous_position + (position - previous_position) * alpha
    sign = np.where(np.einsum("ij,ij->i", previous_quaternion, quaternion) < 0.0, -1.0, 1.0)[:, None]
    q = previous_quaternion + (sign * quaternion - previous_quaternion) * alpha
    q /= np.linalg.norm(q, axis=1, keepdims=True)
    models = np.zeros((len(pos), 4, 4))
    models[:, :3, :3] = rotations_from_quaternions(q)
    models[:, :3, 3] = pos
    models[:, 3, 3] = 1.0
    return models


@dataclass
class FleetFrame:
    """The drones of one frame, row i for `entities[i]` (creation order, the player's first)."""

    entities: tuple[int, ...] = ()
    models: np.ndarray = field(default_factory=lambda: np.zeros((0, 4, 4)))  # body → world
    rpm: np.ndarray = field(default_factory=lambda: np.zeros((0, 4)))
    angles: np.ndarray = field(default_factory=lambda: np.zeros((0, 4)))  # rad, each propeller's
    support_z: np.ndarray = field(default_factory=lambda: np.zeros(0))  # m, the surface under it; NaN: none
    tints: np.ndarray = field(default_factory=lambda: np.zeros((0, 4)))
    model_index: np.ndarray = field(default_factory=lambda: np.zeros(0, int))  # into `Fleet.models`
    followed: int = 0  # the row of the followed drone
    player: int = 0  # the row of the player's drone

    def __len__(self) -> int:
        return len(self.entities)

    @property
    def positions(self) -> np.ndarray:
        return self.models[:, :3, 3]


class Fleet:
    """What the window keeps of every drone between frames. Args: `model`, the scene vehicle's
    drone model (the renderer's); `vehicle` that vehicle."""

    def __init__(self, model: DroneModel, vehicle) -> None:
        self.models: list[DroneModel] = [model]
        self._model_of_vehicle: dict[int, tuple[object, int]] = {id(vehicle): (vehicle, 0)}
        self.colours: dict[int, int] = {}  # entity → palette index
        self._next_colour = 0
        self.frame = FleetFrame()
        self._spin = np.array([model.spin])  # (models, 4)

    def tint_of(self, entity: int, player: int) -> tuple[float, float, float, float]:
        """The drone's tint: the player's own colours, else its palette colour (given now if new)."""
        if entity == player:
            return PLAYER_TINT
        return PALETTE[self.colour_index(entity)]

    def colour_index(self, entity: int) -> int:
        if entity not in self.colours:
            self.colours[entity] = self._next_colour % len(PALETTE)
            self._next_colour += 1
        return self.colours[entity]

    def _model_index(self, vehicle) -> int:
        known = self._model_of_vehicle.get(id(vehicle))
        if known is None:
            self.models.append(build_drone(vehicle))
            known = self._model_of_vehicle[id(vehicle)] = (vehicle, len(self.models) - 1)
            self._spin = np.array([m.spin for m in self.models])
        return known[1]

    def update(self, app, alpha: float, dt: float, followed: int, entities=None) -> FleetFrame:
        """This frame's drones (see the module docstring); `followed`: the followed drone's entity;
        `entities`: `drones(app)` when the caller has it already."""
        entities = tuple(drones(app) if entities is None else entities)
        player = app.resource(Player).entity
        previous = self.frame
        n = len(entities)
        rows = [(esper.component_for_entity(e, RigidBody).state, esper.component_for_entity(e, Rotors).speed_rad_s,
                 esper.component_for_entity(e, Collider).support_height_m,
                 esper.component_for_entity(e, Airframe).vehicle) for e in entities]
        if n:
            bodies = np.stack([r[0] for r in rows])
            models = interpolated_models(bodies[:, PREVIOUS_POSITION:PREVIOUS_POSITION + 3],
                                         bodies[:, POSITION:POSITION + 3],
                                         bodies[:, PREVIOUS_QUATERNION:PREVIOUS_QUATERNION + 4],
                                         bodies[:, QUATERNION:QUATERNION + 4], alpha)
            speeds = np.stack([r[1] for r in rows]).astype(float)
        else:
            models, speeds = np.zeros((0, 4, 4)), np.zeros((0, 4))
        support = np.array([math.nan if r[2] is None else r[2] for r in rows], dtype=float)
        model_index = np.array([self._model_index(r[3]) for r in rows], dtype=int)
        if entities != previous.entities:  # a drone came or went: carry the angles over by entity
            old = {e: previous.angles[i] for i, e in enumerate(previous.entities)}
            angles = np.array([old.get(e, np.zeros(4)) for e in entities]).reshape(n, 4)
            tints = np.array([self.tint_of(e, player) for e in entities], dtype=float).reshape(n, 4)
            for gone in set(self.colours) - set(entities):
                del self.colours[gone]
        else:
            angles, tints = previous.angles, previous.tints
        spin = self._spin[model_index] if n else np.zeros((0, 4))
        angles = np.mod(angles + spin * speeds * dt, 2.0 * math.pi)
        self.frame = FleetFrame(entities, models, speeds * 60.0 / (2.0 * math.pi), angles, support, tints,
                                model_index, entities.index(followed) if followed in entities else 0,
                                entities.index(player) if player in entities else 0)
        return self.frame
