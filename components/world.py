"""How a drone meets the world: its collision envelope, the trail it leaves, where it starts
and where its numbers live."""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass, field

from components.layout import BOTTOM_Z, CONTACT, CONTACT_SOLID, CONTACTS, NORMAL, RESTING, SUPPORT, SUPPORT_Z


GROUND = -1  # Collider.results' solid number of the ground
NOTHING = -2  # … and of no solid


class Collider:
    """Box envelope including the guards, centred on the centre of mass, in body axes; what the
    contacts found this tick; the damage and crash kept until Restart.

    What the contacts found lives in `results` (components/layout.py CONTACTS), a view into the
    drone's FleetStore row that the compiled contacts write every tick (world/collision.py); the
    fields below read it. Solids are numbered there; `solid_ids` (the level's, in that order)
    turns a number back into the id the level file gives ("" the ground).
    """

    __slots__ = ("size_m", "damage", "last_impact_speed_m_s", "impact_speed_m_s", "impact_damage", "crashed",
                 "results", "solid_ids")

    def __init__(self, size_m: tuple[float, float, float] = (0.1752, 0.1697, 0.041), results=None,
                 solid_ids: tuple[str, ...] = ()) -> None:
        self.size_m = size_m
        self.damage = 0.0  # accumulated, 0 = intact; kept until Restart
        self.last_impact_speed_m_s = 0.0
        self.impact_speed_m_s = 0.0  # this tick's impact, normal speed m/s (0: none this tick)
        self.impact_damage = 0.0  # the damage this tick's impact added, 0..1
        self.crashed = False  # an impact or the damage ended the flight: motors stopped until Restart
        if results is None:
            results = CONTACTS.fresh()
        else:
            results[:] = CONTACTS.fresh()
        self.results = results
        self.solid_ids = solid_ids

    @property
    def contact(self) -> bool:
        """Touching something this tick."""
        return self.results.item(CONTACT) != 0.0

    @contact.setter
    def contact(self, value: bool) -> None:
        self.results[CONTACT] = 1.0 if value else 0.0

    @property
    def contact_normal(self) -> tuple[float, float, float]:
        """Out of the surface touched, world (the support's when resting)."""
        return tuple(self.results[NORMAL:NORMAL + 3].tolist())

    @contact_normal.setter
    def contact_normal(self, value) -> None:
        self.results[NORMAL:NORMAL + 3] = value

    @property
    def resting(self) -> bool:
        """Sitting on an upward surface without bouncing (TOUCHDOWN when it begins)."""
        return self.results.item(RESTING) != 0.0

    @resting.setter
    def resting(self, value: bool) -> None:
        self.results[RESTING] = 1.0 if value else 0.0

    @property
    def support_height_m(self) -> float | None:
        """z of the surface under the drone (ground sensing), None over nothing."""
        z = self.results.item(SUPPORT_Z)
        return None if z != z else z

    @support_height_m.setter
    def support_height_m(self, value: float | None) -> None:
        self.results[SUPPORT_Z] = math.nan if value is None else value

    @property
    def height_above_ground_m(self) -> float | None:
        """From the envelope's bottom down to the surface under it, None over nothing."""
        z = self.results.item(SUPPORT_Z)
        return None if z != z else max(0.0, self.results.item(BOTTOM_Z) - z)

    @height_above_ground_m.setter
    def height_above_ground_m(self, value: float | None) -> None:
        """(Set after support_height_m: the envelope's bottom is put that far above it.)"""
        if value is not None:
            self.results[BOTTOM_Z] = self.results.item(SUPPORT_Z) + value

    @property
    def contact_id(self) -> str | None:
        """Id of the solid touched ("" the ground), None: no contact."""
        return self._id(CONTACT_SOLID)

    @contact_id.setter
    def contact_id(self, value: str | None) -> None:
        self.results[CONTACT_SOLID] = self._number(value)

    @property
    def support_id(self) -> str | None:
        """Id of the solid under the drone ("" the ground), None: nothing."""
        return self._id(SUPPORT)

    @support_id.setter
    def support_id(self, value: str | None) -> None:
        self.results[SUPPORT] = self._number(value)

    def _id(self, column: int) -> str | None:
        n = int(self.results.item(column))
        if n == GROUND:
            return ""
        if n == NOTHING or not 0 <= n < len(self.solid_ids):
            return None
        return self.solid_ids[n]

    def _number(self, solid_id: str | None) -> float:
        if solid_id is None:
            return float(NOTHING)
        if solid_id == "":
            return float(GROUND)
        return float(self.solid_ids.index(solid_id))

    def __repr__(self) -> str:
        return (f"Collider(size_m={self.size_m!r}, contact={self.contact}, resting={self.resting}, "
                f"contact_id={self.contact_id!r}, support_id={self.support_id!r}, "
                f"height_above_ground_m={self.height_above_ground_m!r}, damage={self.damage!r}, crashed={self.crashed})")


@dataclass(slots=True)
class Trail:
    """Real positions about every `interval_s` while moving, at most `max_points`."""

    points: deque = field(default_factory=lambda: deque(maxlen=1200))  # (x, y, z) m
    interval_s: float = 0.2
    since_last_s: float = 0.0  # game time since the last point, s (held at interval_s while still)


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
