"""Every event the game emits: one dataclass per event, its fields the payload. One module, so a
modder finds them all.

Register a handler with `app.on(Impact, handler)`: it is called with the `Impact` instance.
Emit with `app.emit(Message("text"))`. esper keeps weak references to handlers, so pass bound
methods of long-lived objects, never lambdas. A mod may define events of its own the same way
(any dataclass).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ModeChanged:
    """The drone's flight mode changed (a `components.modes.Mode` value, or a mod's mode)."""

    old: str
    new: str
    entity: int | None = None  # the drone (None: the player's)


@dataclass(frozen=True, slots=True)
class Armed:
    """MotorPower left zero: the motors are re-armed from the present state."""

    entity: int | None = None  # the drone (None: the player's)


@dataclass(frozen=True, slots=True)
class Disarmed:
    """The motors stopped. `reason`: "motor_power_zero" | "battery_depleted" | "landed"."""

    reason: str
    entity: int | None = None  # the drone (None: the player's)


@dataclass(frozen=True, slots=True)
class BatteryLow:
    """Once, when the pack falls below 20 % of its energy."""

    fraction: float  # energy left / capacity
    entity: int | None = None  # the drone (None: the player's)


@dataclass(frozen=True, slots=True)
class BatteryDepleted:
    """The pack is empty: the motors are disarmed."""

    entity: int | None = None  # the drone (None: the player's)


@dataclass(frozen=True, slots=True)
class Impact:
    """The envelope hit a surface faster than the resting speed."""

    speed_m_s: float  # normal speed into the surface
    normal: tuple[float, float, float]  # out of the surface, world
    damage: float  # the drone's total damage after this impact, 0..1
    entity: int | None = None  # the drone that hit (None: the player's)


@dataclass(frozen=True, slots=True)
class Crashed:
    """The flight ended: an impact faster than the frame takes, or damage reaching 1. The motors
    are stopped and stay so until Restart (systems/crash.py)."""

    reason: str  # "impact" | "damage" (flight/damage.py)
    speed_m_s: float  # the impact's normal speed
    damage: float  # the drone's total damage, 0..1
    entity: int | None = None  # the drone (None: the player's)


@dataclass(frozen=True, slots=True)
class Touchdown:
    """Resting contact began (not on the spawn pad at start or after Restart)."""

    height_m: float  # world z of the supporting surface
    entity: int | None = None  # the drone (None: the player's)


@dataclass(frozen=True, slots=True)
class MenuOpened:
    pass


@dataclass(frozen=True, slots=True)
class MenuClosed:
    pass


@dataclass(frozen=True, slots=True)
class MenuSelected:
    """A menu entry was chosen (by the pilot or `Simulation.select`); its action has run."""

    entry: str  # the entry's id (see systems/menu.py)


@dataclass(frozen=True, slots=True)
class Reset:
    """Restart: the drone goes back to its spawn pose, full pack, no damage."""

    entity: int | None = None  # the drone restarted (None: the player's)


@dataclass(frozen=True, slots=True)
class DroneSpawned:
    """A drone was made (systems.scene.spawn_drone): a feature adds its per-drone state here."""

    entity: int


@dataclass(frozen=True, slots=True)
class DroneRemoved:
    """A drone is about to leave the world (its components still readable)."""

    entity: int


@dataclass(frozen=True, slots=True)
class Message:
    """A line for the HUD's message area. `text` is English (logs, mods' own lines); `key` and
    `args`, when given, name the line in the HUD's catalogue (game/render/hud_text.py
    MESSAGES), which the HUD then shows in the player's language instead of `text`."""

    text: str
    key: str = ""
    args: tuple = ()


@dataclass(frozen=True, slots=True)
class ControllerConnected:
    name: str  # the gamepad's name as the system reports it


@dataclass(frozen=True, slots=True)
class ControllerDisconnected:
    name: str


@dataclass(frozen=True, slots=True)
class LandingRefused:
    reason: str  # e.g. "slope 32° > 15°", "no surface under the drone"
    entity: int | None = None  # the drone (None: the player's)


@dataclass(frozen=True, slots=True)
class MissionStatus:
    """The mission's status or waypoint changed."""

    status: str  # a `flight.assists.MissionRecord` status
    waypoint_index: int  # index in the route, -1 before the first
    reason: str = ""  # why it was interrupted or refused
    entity: int | None = None  # the drone (None: the player's)


@dataclass(frozen=True, slots=True)
class LevelReloaded:
    """The level file changed on disk and was read again."""

    errors: tuple[str, ...]  # empty: reloaded fine; else one located line each, the last good level kept


@dataclass(frozen=True, slots=True)
class UiClick:
    """A menu cursor move or choice (for the click sound)."""


@dataclass(frozen=True, slots=True)
class TutorialStep:
    """A tutorial step was completed (its condition held for its hold time)."""

    index: int  # the completed step, 0-based
    count: int  # steps in the tutorial
    finished: bool  # it was the last one


@dataclass(frozen=True, slots=True)
class CourseStarted:
    """A course's timer started (gate 0 crossed, or the start pad left, after the countdown)."""

    course_id: str


@dataclass(frozen=True, slots=True)
class GatePassed:
    """The next gate of the running course was passed (systems/course.py)."""

    course_id: str
    index: int  # the passage, counting through the laps: 0 … gates × laps − 1
    time_s: float  # since the start
    delta_s: float | None  # to the best run's split at this gate; None without a best run


@dataclass(frozen=True, slots=True)
class GateMissed:
    """The drone crossed a later gate, or the next gate's plane outside its opening: the
    next gate stays the same (it must be flown back to)."""

    course_id: str
    index: int  # the gate still to pass


@dataclass(frozen=True, slots=True)
class CourseFinished:
    """The course was finished: its time, the best time (this run's if it is the best) and the medal."""

    course_id: str
    time_s: float
    best_s: float
    medal: str  # "gold" | "silver" | "bronze" | "none" (world.course.medal)
