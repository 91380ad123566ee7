"""Whole ticks in one compiled call (systems/fused_ticks.py, world/ticks.py) give the fixed
systems' results bit for bit: the same drones' rows, the same events at the same tick, whatever
the pilots do, the level, the number of drones, the wind and the frame lengths. And they step
aside whenever the systems have work of their own: gusts, a course, a mod's fixed system."""

from __future__ import annotations

import random

import esper
import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from components import events
from components.fleet import FleetStore
from engine.stages import Stage
from game.simulation import Simulation
from systems.course import RunCourse


class EventLog:
    """Every drone event with the tick it came at (a long-lived object: esper keeps handlers weakly)."""

    def __init__(self, sim: Simulation) -> None:
        self.sim = sim
        self.seen: list[tuple] = []
        for kind in (events.Impact, events.Touchdown, events.Crashed, events.Armed, events.Disarmed):
            sim.app.on(kind, self.note)

    def note(self, event) -> None:
        self.seen.append((self.sim.app.clock.ticks, event))


class CountedRunner:
    """The App's runner, counting the ticks it took."""

    def __init__(self, runner) -> None:
        self.runner = runner
        self.ticks = 0

    def run_ticks(self, ticks: int, tick_s: float) -> int:
        done = self.runner.run_ticks(ticks, tick_s)
        self.ticks += done
        return done


def _pair(level, *, extra_drones=(), **kwargs):
    """The same game twice: `fused` with the App's runner (counted), `systems` without one."""
    out = []
    for fused in (True, False):
        sim = Simulation(level, **kwargs)
        for position in extra_drones:
            sim.add_drone(position=position)
        assert sim.app.tick_runner is not None  # the default game installs it
        sim.app.tick_runner = CountedRunner(sim.app.tick_runner) if fused else None
        out.append((sim, EventLog(sim)))
    return out


def _rows(sim: Simulation) -> bytes:
    sim.app.activate()
    return b"".join(block.tobytes() for block in sim.app.resource(FleetStore).blocks)


def _same_flight(pair, segments, frame_seed: int) -> None:
    """Fly both games through `segments` ((seconds, what each drone's pad does, a verb)),
    jittered frames; after every frame the rows and the events must be equal."""
    rngs = [random.Random(frame_seed), random.Random(frame_seed)]
    for seconds, pads, verb in segments:
        for (sim, _), rng in zip(pair, rngs):
            for drone, pad in zip(sim.drones, pads):
                drone.pad.rt, drone.pad.lt = pad["rt"], pad["lt"]
                drone.pad.left, drone.pad.right = pad["left"], pad["right"]
                for button in ("Y", "A"):
                    (drone.pad.press if button in pad["held"] else drone.pad.release)(button)
                if pad["brake"]:
                    drone.pad.press("LS")
                    drone.pad.release("LS")
            if verb == "gusts":
                sim.set_weather(wind=(3.0, -1.0, 0.0), gusts=1.5)
            elif verb == "steady wind":
                sim.set_weather(wind=(4.0, 2.0, 0.0), gusts=0.0)
            elif verb is not None:
                sim.select(verb)
        end = pair[0][0].time + seconds
        while pair[0][0].time < end:
            dt = rngs[0].uniform(1 / 144, 1 / 30)
            rngs[1].uniform(1 / 144, 1 / 30)
            for sim, _ in pair:
                sim.step(dt)
            (fused, fused_log), (systems, systems_log) = pair
            assert fused.app.clock.ticks == systems.app.clock.ticks
            assert _rows(fused) == _rows(systems), f"rows differ at tick {fused.app.clock.ticks}"
            assert fused_log.seen == systems_log.seen


_pads = st.fixed_dictionaries({
    "rt": st.sampled_from([0.0, 0.0, 0.4, 1.0]), "lt": st.sampled_from([0.0, 0.0, 0.7, 1.0]),
    "left": st.sampled_from([(0.0, 0.0), (0.0, 1.0), (-0.8, 0.3), (0.5, -0.5)]),
    "right": st.sampled_from([(0.0, 0.0), (0.6, 0.0), (-1.0, 0.0)]),
    "held": st.sampled_from([(), ("Y",), ("A",)]), "brake": st.booleans(),
})
_verbs = st.sampled_from([None, None, None, "takeoff", "land", "gusts", "steady wind"])


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(level=st.sampled_from([None, "street", "field"]), drones=st.integers(1, 3),
       segments=st.lists(st.tuples(st.sampled_from([0.3, 0.8, 1.5]), st.lists(_pads, min_size=3, max_size=3), _verbs),
                         min_size=2, max_size=5),
       frame_seed=st.integers(0, 2**16))
def test_fused_ticks_fly_exactly_as_the_systems(level, drones, segments, frame_seed):
    start = (0.0, 0.0, 1.0) if level is None else None
    near = [(0.6 * i, 0.3 * i, 1.0) for i in range(1, drones)] if level is None else [None] * (drones - 1)
    pair = _pair(level, position=start, extra_drones=near)
    try:
        _same_flight(pair, [(s, pads, verb) for s, pads, verb in segments], frame_seed)
    finally:
        for sim, _ in pair:
            sim.close()


def test_touchdowns_and_impacts_come_at_the_same_tick_and_most_ticks_are_fused():
    """A street flight that lands on the ground, hits a drone parked beside it and climbs again:
    the contact events stop the compiled run at their tick, the rest is compiled."""
    pair = _pair("street", extra_drones=[None])
    calm = {"rt": 0.0, "lt": 0.0, "left": (0.0, 0.0), "right": (0.0, 0.0), "held": (), "brake": False}
    up = dict(calm, rt=1.0, held=("Y",))
    cruise = dict(calm, left=(0.0, 1.0))
    down = dict(calm, held=("A",))
    try:
        _same_flight(pair, [(1.0, [up, calm], None), (1.5, [cruise, calm], None), (4.0, [down, calm], None),
                            (1.0, [calm, up], None), (2.0, [dict(cruise, left=(1.0, 0.0)), calm], None)], frame_seed=7)
        (fused, log), (systems, _) = pair
        assert any(isinstance(e, events.Touchdown) for _, e in log.seen)  # the run met an event ...
        runner = fused.app.tick_runner
        assert runner.ticks > 0.8 * fused.app.clock.ticks  # ... and most ticks were still compiled
    finally:
        for sim, _ in pair:
            sim.close()


class CountControlTicks(esper.Processor):
    """A mod's CONTROL-stage system: counts its calls; raises from call `raise_after` + 1 on."""

    def __init__(self, raise_after: int | None = None) -> None:
        self.calls, self.raise_after = 0, raise_after

    def process(self, dt: float) -> None:
        self.calls += 1
        if self.raise_after is not None and self.calls > self.raise_after:
            raise ZeroDivisionError("division by zero")


class ControlMod:
    name = "control-ticks"

    def __init__(self, system: esper.Processor) -> None:
        self.system = system

    def build(self, app) -> None:
        app.add_system(self.system, Stage.CONTROL)


def _counted(sim: Simulation) -> CountedRunner:
    sim.app.tick_runner = CountedRunner(sim.app.tick_runner)
    return sim.app.tick_runner


def test_the_fused_ticks_step_aside_for_gusts():
    with Simulation(None, position=(0.0, 0.0, 20.0)) as sim:
        runner = _counted(sim)
        sim.pad.rt = 1.0
        sim.run(0.5)
        assert runner.ticks > 0
        sim.set_weather(wind=(2.0, 0.0, 0.0), gusts=1.0)
        before = runner.ticks
        sim.run(0.5)
        assert runner.ticks == before  # every gusty tick draws its gust in Python
        sim.set_weather(gusts=0.0)
        sim.run(0.5)
        assert runner.ticks > before


def test_a_mods_fixed_system_runs_every_tick_and_the_fused_ticks_step_aside():
    counter = CountControlTicks()
    with Simulation(None, position=(0.0, 0.0, 20.0), plugins=[ControlMod(counter)]) as sim:
        runner = _counted(sim)
        sim.pad.rt = 1.0
        sim.run(1.0)
        assert runner.ticks == 0 and counter.calls == sim.app.clock.ticks == 240


def test_once_a_raising_fixed_mod_is_taken_out_the_ticks_are_compiled_again():
    raiser = CountControlTicks(raise_after=100)
    with Simulation(None, position=(0.0, 0.0, 20.0), plugins=[ControlMod(raiser)]) as sim:
        runner = _counted(sim)
        sim.pad.rt = 1.0
        sim.run(1.0)  # its 101st tick raises: the mod is disabled, its system taken out ...
        assert raiser.calls == 101 and "CountControlTicks" not in [name for _, name in sim.app.systems()]
        assert 0 < runner.ticks < 240 - 100  # ... and the ticks after it are compiled again
        assert runner.ticks + 101 >= 240 - 4  # (the rest of the frame it raised in runs through the systems)


def test_the_fused_ticks_step_aside_while_a_course_runs():
    with Simulation("field") as sim:
        runner = _counted(sim)
        course = sim.app.get_system(RunCourse)
        assert course.idle()
        sim.run(0.5)
        taken = runner.ticks
        assert taken > 0
        sim.select("course:field-hoops")
        assert not course.idle()
        sim.run(1.0)
        assert runner.ticks == taken  # a course counts every tick in Python
