"""How a drone meets the world: its collision envelope, the trail it leaves, where it starts
and where its numbers live."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field


@dataclass(slots=True)
class Collider:
    """Box envelope including the guards, centred on the centre of mass, in body axes."""

    size_m: tuple[float, float, float] = (0.1752, 0.1697, 0.041)
    contact: bool = False  # touching something this tick
    contact_normal: tuple[float, float, float] = (0.0, 0.0, 1.0)
    support_height_m: float | None = None  # z of the surface under the drone (ground sensing)
    height_above_ground_m: float | None = None
    surface_normal: tuple[float, float, float] = (0.0, 0.0, 1.0)
    damage: float = 0.0  # accumulated, 0 = intact; kept until Restart
    last_impact_speed_m_s: float = 0.0
    impact_speed_m_s: float = 0.0  # this tick's impact, normal speed m/s (0: none this tick)
    impact_damage: float = 0.0  # the damage this tick's impact added, 0..1
    crashed: bool = False  # an impact or the damage ended the flight: motors stopped until Restart
    resting: bool = False  # sitting on an upward surface without bouncing (TOUCHDOWN when it begins)
    contact_id: str | None = None  # id of the solid touched ("" the ground), None: no contact
    support_id: str | None = None  # id of the solid under the drone ("" the ground), None: nothing


@dataclass(slots=True)
class Trail:
    """Real positions about every `interval_s` while moving, at most `max_points`."""

    points: deque = field(default_factory=lambda: deque(maxlen=1200))  # (x, y, z) m
    interval_s: float = 0.2
    since_last_s: float = 0.0


@dataclass(slots=True)
class Spawn:
    """Where this drone starts and where Restart puts it back: centre of mass (m, world) and
    heading (rad). None: the scene's spawn (the player's drone: a level reload moves it)."""

    position_m: tuple[float, float, float] | None = None
    yaw_rad: float | None = None


@dataclass(frozen=True, slots=True)
class FleetRow:
    """Which row of the `FleetStore` (components/fleet.py) holds this drone's numbers."""

    block: int
    row: int
