"""GAMEPLAY stage: run the level's tutorial — one step at a time, each completed when its
condition (world/tutorial.py) has held for its `hold_s`.

`TutorialState` (a resource) says which step is shown and whether the tutorial is finished;
the HUD reads it (game/render/passes/tutorial.py). Completing a step emits
`events.TutorialStep`. The values a condition reads (`tutorial_values`) are the telemetry
fields of the same names plus the derived ones listed in `world.tutorial.FIELDS`; telemetry
itself is not extended. A level without `[tutorial]` leaves the state inactive. Restart
keeps the progress (the drone goes back to its pad, the lesson goes on); a level swapped in
(hot reload) with other steps starts its tutorial again.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import esper

from components import events
from components.flight import Battery, Controller, RigidBody, Rotors
from components.world import Collider
from engine.app import App
from engine.stages import Stage
from flight import quat
from systems.assists import AssistState
from systems.scene import drone_components
from world.level import ActiveLevel, Level
from world.level import TutorialStep as StepData
from world.tutorial import Condition, TutorialProgress, parse_condition


@dataclass
class TutorialState:
    """The running tutorial (a resource). `steps` is empty when the level has none."""

    steps: tuple[StepData, ...] = ()
    conditions: list[Condition] = field(default_factory=list)
    progress: TutorialProgress = field(default_factory=TutorialProgress)
    completed: list[int] = field(default_factory=list)  # indices, in the order they were completed
    level_version: int = -1
    finished_at_s: float | None = None  # simulated time the last step was completed

    @property
    def active(self) -> bool:
        return bool(self.steps)

    @property
    def count(self) -> int:
        return len(self.steps)

    @property
    def index(self) -> int:
        """The step shown (0-based); == count once finished."""
        return self.progress.step

    @property
    def finished(self) -> bool:
        return self.active and self.progress.finished(self.count)

    @property
    def current(self) -> StepData | None:
        return self.steps[self.index] if self.active and not self.finished else None

    def load(self, level: Level | None, version: int) -> None:
        tutorial = level.tutorial if level is not None else None
        steps = tuple(tutorial.steps) if tutorial is not None else ()
        self.level_version = version
        if steps == self.steps:
            return
        self.steps = steps
        self.conditions = [parse_condition(s.condition) for s in steps]  # validated with the level
        self.progress = TutorialProgress()
        self.completed = []
        self.finished_at_s = None


def tutorial_values(body: RigidBody, rotors: Rotors, battery: Battery, ctrl: Controller, collider: Collider,
                    assists: AssistState | None, pad_ids: frozenset[str], time_s: float) -> dict[str, object]:
    """field → value for the condition language (world.tutorial.FIELDS), from the drone's state."""
    vx, vy, vz = (float(v) for v in body.velocity)
    roll, pitch, yaw = quat.to_euler(body.quaternion)
    resting = bool(collider.resting and collider.contact)
    touched = collider.contact_id if collider.contact_id is not None else collider.support_id
    return {
        "time": time_s,
        "mode": str(ctrl.mode),
        "armed": bool(rotors.armed),
        "motor_power": float(ctrl.motor_power),
        "roll_deg": math.degrees(roll),
        "pitch_deg": math.degrees(pitch),
        "yaw_deg": math.degrees(yaw),
        "target_altitude": float(ctrl.target_altitude),
        "height_above_ground": collider.height_above_ground_m,
        "contact": bool(collider.contact),
        "battery_fraction": battery.energy_j / battery.capacity_j if battery.capacity_j else 0.0,
        "power_w": float(battery.power_w),
        "damage": float(collider.damage),
        "crashed": bool(collider.crashed),
        "landing_refused": assists.landing_refused if assists is not None else "",
        "mission_status": assists.mission_record.status if assists is not None else "",
        "speed": math.sqrt(vx * vx + vy * vy + vz * vz),
        "horizontal_speed": math.hypot(vx, vy),
        "vertical_speed": vz,
        "height": float(body.position[2]),
        "x": float(body.position[0]),
        "y": float(body.position[1]),
        "landed": resting,
        "landed_on": touched if resting and touched in pad_ids else "",
    }


class RunTutorial(esper.Processor):
    def __init__(self, app: App, state: TutorialState) -> None:
        self.app = app
        self.state = state
        self.active: ActiveLevel | None = None  # swapped in place: one object for the App's life

    def process(self, dt: float) -> None:
        active = self.active
        if active is None:
            active = self.active = self.app.resource(ActiveLevel)
        state = self.state
        if state.level_version != active.version:
            state.load(active.level, active.version)
        if not state.active or state.finished:
            return
        pads = frozenset(p.id for p in active.level.pads) if active.level is not None else frozenset()
        assists = self.app.try_resource(AssistState)
        # the player's drone: the tutorial teaches the pilot
        body, rotors, battery, ctrl, collider = drone_components(self.app, RigidBody, Rotors, Battery, Controller, Collider)
        values = tutorial_values(body, rotors, battery, ctrl, collider, assists, pads, self.app.clock.time_s)
        for done in state.progress.advance(state.conditions, [s.hold_s for s in state.steps], values, dt):
            state.completed.append(done)
            if state.finished:
                state.finished_at_s = self.app.clock.time_s
            self.app.emit(events.TutorialStep(done, state.count, state.finished))


class TutorialPlugin:
    name = "tutorial"

    def build(self, app: App) -> None:
        state = app.try_resource(TutorialState) or app.insert_resource(TutorialState())
        app.add_system(RunTutorial(app, state), Stage.GAMEPLAY)
