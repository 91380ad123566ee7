"""`donify bench`: performance figures, each the median of several runs.

Figures are measured through the whole App (every stage), not the dynamics alone, and a
figure with a baseline is measured beside it in the same run. Targets (issues #2, #3):
≥ 200× realtime hovering under the Angle controller, ≥ 150× with the stabilised controller
flying a cruise. Other features append their own figures to `BENCHES`.
"""

from __future__ import annotations

import statistics
import time
from typing import Callable

from components.flight import Controller, Rotors
from flight.control.lab import full_collective_n
from game.simulation import Simulation

FRAME_S = 1.0 / 60.0


def _timed_frames(sim: Simulation, seconds: float) -> tuple[float, int]:
    """Wall-clock seconds to simulate `seconds` in 1/60 s frames, and the sub-steps run."""
    frames = round(seconds / FRAME_S)
    ticks0 = sim.app.clock.ticks
    start = time.perf_counter()
    for _ in range(frames):
        sim.app.update(FRAME_S)
    return time.perf_counter() - start, sim.app.clock.ticks - ticks0


def angle_hover(seconds: float) -> tuple[float, int]:
    sim = Simulation(level=None, position=(0.0, 0.0, 100.0))
    sim.set_mode("angle")
    (rotors,) = sim.components(Rotors)
    v = sim.vehicle
    (ctrl,) = sim.components(Controller)
    ctrl.motor_power = v.weight_n / full_collective_n(v.physics, 1.225)
    rotors.speed_rad_s[:] = [v.hover_motor_speed_rad_s()] * 4
    try:
        return _timed_frames(sim, seconds)
    finally:
        sim.close()


def stabilised_cruise(seconds: float, gusty: bool = False) -> tuple[float, int]:
    """The stabilised controller cruising at 8 m/s (MotorPower 1) in the empty world; with
    `gusty`, in a 5 m/s wind with Dryden gusts (σ 1.5 m/s)."""
    sim = Simulation(level=None, position=(0.0, 0.0, 100.0))
    if gusty:
        sim.set_weather(wind=(3.0, -4.0, 0.0), gusts=1.5)
    sim.pad.rt = 1.0
    sim.run(2.0)  # MotorPower 1
    sim.pad.rt = 0.0
    sim.pad.left = (0.0, 1.0)
    sim.step()
    sim.pad.left = (0.0, 0.0)
    try:
        return _timed_frames(sim, seconds)
    finally:
        sim.close()


def gusty_cruise(seconds: float) -> tuple[float, int]:
    return stabilised_cruise(seconds, gusty=True)


def turbulence_alone(seconds: float) -> tuple[float, int]:
    """The gust system by itself, one call per 1/240 s tick: its cost inside the sub-step."""
    from systems.weather import BlowWind  # noqa: PLC0415
    from world.weather import Weather  # noqa: PLC0415
    sim = Simulation(level=None, position=(0.0, 0.0, 100.0))
    sim.set_weather(wind=(3.0, -4.0, 0.0), gusts=1.5)
    blow = sim.app.get_system(BlowWind)
    tick = sim.app.clock.tick_s
    ticks = round(seconds / tick)
    weather = sim.app.resource(Weather)
    try:
        blow.process(tick)  # configure outside the timing
        start = time.perf_counter()
        for _ in range(ticks):
            blow.process(tick)
        wall = time.perf_counter() - start
        assert weather.wind_now_m_s != list(weather.wind_m_s)
        return wall, ticks
    finally:
        sim.close()


# (label, function(seconds) -> (wall seconds, sub-steps), target realtime factor or None)
BENCHES: list[tuple[str, Callable[[float], tuple[float, int]], float | None]] = [
    ("hover, Angle controller, empty world", angle_hover, 200.0),
    ("cruise 8 m/s, stabilised controller, empty world", stabilised_cruise, 150.0),
    ("same cruise in 5 m/s wind with gusts (sigma 1.5 m/s)", gusty_cruise, 150.0),
    ("gusts alone (Dryden turbulence, per tick)", turbulence_alone, None),
]


# -- levels and collision (issue #4): the COLLISION stage's cost, and the whole sim, in the
# street and in a generated level of 1 000 boxes; target: the whole sim stays ≥ 150× realtime.
def thousand_box_level():
    """A generated level: 1 000 boxes (6 × 6 m, 4–16 m high) on a 100 × 10 grid every 10 m,
    with corridors between the rows; the start pad at the west end of the corridor y = 5 m."""
    from world.level import Level  # noqa: PLC0415
    boxes = [{"id": f"b{i}-{j}", "position": [10.0 * i, 10.0 * j], "size": [6.0, 6.0, 4.0 + (7 * i + 3 * j) % 13]}
             for i in range(100) for j in range(10)]
    return Level.model_validate({"format_version": 1, "name": "1000 boxes", "spawn_pad": "start",
                                 "pads": [{"id": "start", "position": [-10.0, 5.0], "role": "start"}],
                                 "boxes": boxes})


def _level_cruise(level, y_m: float, seconds: float, collision_only: bool) -> tuple[float, int]:
    """Cruise at 3 m along +X then back (the direction flips every 20 s) between the
    buildings; wall time of the whole sim, or of the COLLISION stage alone."""
    from systems.collision import ResolveContacts  # noqa: PLC0415
    sim = Simulation(level=level, position=(0.0, y_m, 3.0))
    contacts = sim.app.get_system(ResolveContacts)
    spent = [0.0]
    if collision_only:
        process = contacts.process

        def timed(dt: float) -> None:
            start = time.perf_counter()
            process(dt)
            spent[0] += time.perf_counter() - start
        contacts.process = timed
    sim.pad.rt = 1.0
    sim.run(2.0)  # MotorPower 1: 8 m/s
    sim.pad.rt = 0.0
    frames = round(seconds / FRAME_S)
    ticks0 = sim.app.clock.ticks
    spent[0] = 0.0
    try:
        start = time.perf_counter()
        for frame in range(frames):
            if frame % 1200 == 0:  # every 20 s: choose the other way along the corridor
                sim.pad.left = (0.0, 1.0) if (frame // 1200) % 2 == 0 else (0.0, -1.0)
            elif frame % 1200 == 1:
                sim.pad.left = (0.0, 0.0)
            sim.app.update(FRAME_S)
        wall = time.perf_counter() - start
        return (spent[0] if collision_only else wall), sim.app.clock.ticks - ticks0
    finally:
        sim.close()


def _street_alone():
    """The street without its traffic: one drone, the figure the targets were set for."""
    from world.level_file import load_level  # noqa: PLC0415
    return load_level("street").model_copy(update={"traffic": []})


def street_cruise(seconds: float) -> tuple[float, int]:
    return _level_cruise(_street_alone(), 0.0, seconds, collision_only=False)


def street_with_traffic(seconds: float) -> tuple[float, int]:
    return _level_cruise("street", 0.0, seconds, collision_only=False)


def street_collision(seconds: float) -> tuple[float, int]:
    return _level_cruise(_street_alone(), 0.0, seconds, collision_only=True)


def boxes_cruise(seconds: float) -> tuple[float, int]:
    return _level_cruise(thousand_box_level(), 5.0, seconds, collision_only=False)


def boxes_collision(seconds: float) -> tuple[float, int]:
    return _level_cruise(thousand_box_level(), 5.0, seconds, collision_only=True)


BENCHES += [
    ("cruise 8 m/s at 3 m, street level (whole sim)", street_cruise, 150.0),
    ("  its COLLISION stage alone (x = sim s / stage s)", street_collision, None),
    ("  the same with the street's traffic (3 AI drones)", street_with_traffic, None),
    ("cruise 8 m/s at 3 m, 1000-box level (whole sim)", boxes_cruise, 150.0),
    ("  its COLLISION stage alone (x = sim s / stage s)", boxes_collision, None),
]


# -- scripted flights (issue #5): `donify fly` writing a JSON telemetry record every frame
def scripted_flight(seconds: float) -> tuple[float, int]:
    from game.fly import bench_scripted_flight  # noqa: PLC0415
    return bench_scripted_flight(seconds)


BENCHES += [("donify fly, street cruise, telemetry JSONL every frame", scripted_flight, None)]


def measure(fn: Callable[[float], tuple[float, int]], runs: int, seconds: float) -> tuple[float, float]:
    """Median µs per sub-step and median realtime factor over `runs` runs."""
    per_step, factors = [], []
    fn(1.0)  # warm-up, not counted: loads the compiled flight code and fills caches
    for _ in range(runs):
        wall, steps = fn(seconds)
        per_step.append(wall / steps * 1e6)
        factors.append(seconds / wall)
    return statistics.median(per_step), statistics.median(factors)


def run_bench(runs: int = 5, seconds: float = 60.0, render: bool = False, out=print) -> int:
    out(f"donify bench: median of {runs} runs, {seconds:g} simulated s each, 1/60 s frames, 1/240 s sub-steps")
    for label, fn, target in BENCHES:
        us, factor = measure(fn, runs, seconds)
        verdict = "" if target is None else f"  (target ≥ {target:g}x: {'met' if factor >= target else 'NOT met'})"
        out(f"  {label:55s} {us:7.1f} µs/sub-step  {factor:7.1f}x realtime{verdict}")
    if render:
        try:
            from game.render_bench import run_render_bench
        except ImportError:
            out("  render: the window is not part of this build")
        else:
            run_render_bench(runs=runs, out=out)
    try:
        from game.startup_bench import run_startup_bench
    except ImportError:
        out("  start-up: the window is not part of this build")
    else:
        run_startup_bench(runs=runs, out=out)
    return 0
