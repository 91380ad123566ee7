"""The tutorial level "first-flight" flown to its end by its example script, the way a
player follows it: every step reached in order, then the tutorial finished."""

from __future__ import annotations

import math
from pathlib import Path

from components import events
from components.flight import Battery, Controller, RigidBody, Rotors
from components.world import Collider
from game.telemetry import FIELD_NAMES
from game.script import ScriptPlayer, load_script
from game.simulation import Simulation
from systems.assists import AssistState
from systems.tutorial import TutorialState, tutorial_values
from world.tutorial import FIELDS

ROOT = Path(__file__).resolve().parents[2]
FRAME_S = 1 / 60


class Recorder:
    def __init__(self) -> None:
        self.steps: list[events.TutorialStep] = []

    def on_step(self, event: events.TutorialStep) -> None:
        self.steps.append(event)


def test_the_example_flies_the_tutorial_to_its_end_step_by_step():
    script = load_script(ROOT / "examples" / "first_flight.toml")
    assert script.level == "first-flight"
    player = ScriptPlayer(script)
    recorder = Recorder()
    with Simulation(level=script.level, seed=script.header.seed) as sim:
        sim.app.on(events.TutorialStep, recorder.on_step)
        state = sim.app.resource(TutorialState)
        count = len(sim.level.tutorial.steps)
        assert state.count == 0 or state.count == count  # loaded at the first tick
        seen = []
        for frame in range(round(script.seconds / FRAME_S)):
            player.apply(sim, frame * FRAME_S)
            sim.step()
            if not seen or seen[-1] != state.index:
                seen.append(state.index)
        tm = sim.telemetry()
    assert seen == list(range(count + 1))  # 0, 1, …, count: one step at a time, none skipped
    assert [e.index for e in recorder.steps] == list(range(count))
    assert [e.finished for e in recorder.steps] == [False] * (count - 1) + [True]
    assert state.finished and state.completed == list(range(count))
    # the last step's condition, checked on telemetry: resting on the arrival pad, motors cut by the landing
    arrival = sim.level.pad("arrival")
    assert abs(tm.position[0] - arrival.position[0]) <= arrival.size[0] / 2
    assert abs(tm.position[1] - arrival.position[1]) <= arrival.size[1] / 2
    assert tm.contact and tm.motor_power == 0.0


def test_a_level_without_a_tutorial_has_none_running():
    with Simulation(level="field") as sim:
        sim.step()
        state = sim.app.resource(TutorialState)
        assert not state.active and not state.finished and state.current is None


def test_the_condition_fields_are_telemetrys_values_and_the_documented_derived_ones():
    with Simulation(level="first-flight") as sim:
        sim.pad.rt = 1.0
        for _ in range(60):
            sim.step()
        sim.pad.rt = 0.0
        sim.pad.press("Y")
        for _ in range(60):
            sim.step()
        tm = sim.telemetry()
        values = tutorial_values(*sim.components(RigidBody, Rotors, Battery, Controller, Collider),
                                 sim.app.resource(AssistState), frozenset(p.id for p in sim.level.pads), sim.time)
    assert set(values) == set(FIELDS)
    for name in set(FIELDS) & set(FIELD_NAMES):
        assert values[name] == tm.as_dict()[name], name  # the same value, not a look-alike
    vx, vy, vz = tm.velocity
    assert values["speed"] == math.sqrt(vx * vx + vy * vy + vz * vz) and values["horizontal_speed"] == math.hypot(vx, vy)
    assert values["vertical_speed"] == vz > 0.5  # climbing with Y
    assert (values["x"], values["y"], values["height"]) == tm.position
    assert values["mission_status"] == tm.mission.status and values["landed_on"] == "" and not values["landed"]
