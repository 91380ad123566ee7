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
    ctrl.motor_power = v.weight_n / full_collective_n(v.packed, 1.225)
    rotors.speed_rad_s[:] = [v.hover_motor_speed_rad_s()] * 4
    try:
        return _timed_frames(sim, seconds)
    finally:
        sim.close()


def stabilised_cruise(seconds: float) -> tuple[float, int]:
    sim = Simulation(level=None, position=(0.0, 0.0, 100.0))
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


# (label, function(seconds) -> (wall seconds, sub-steps), target realtime factor or None)
BENCHES: list[tuple[str, Callable[[float], tuple[float, int]], float | None]] = [
    ("hover, Angle controller, empty world", angle_hover, 200.0),
    ("cruise 8 m/s, stabilised controller, empty world", stabilised_cruise, 150.0),
]


def measure(fn: Callable[[float], tuple[float, int]], runs: int, seconds: float) -> tuple[float, float]:
    """Median µs per sub-step and median realtime factor over `runs` runs."""
    per_step, factors = [], []
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
    return 0
