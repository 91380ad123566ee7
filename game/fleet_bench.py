"""`donify bench --drones 1,10,100`: the whole App's cost per drone-tick with many drones.

For each count N, N drones fly the stabilised controller through the whole App (every stage,
1/60 s frames, 1/240 s ticks), each from its own pad:

- **lab**: the empty world, drones on a 10 m grid at 100 m, cruising at 8 m/s (MotorPower 1,
  a stick flick), the direction flipped every 20 s;
- **street**: the street level (without its traffic), drones in lanes between the buildings (y −3 … 3 m, z 2 … 11 m,
  1.5 m apart along x), cruising along the street the same way, so they meet the level's
  solids as a player does and never each other.

Printed per N: µs per drone-tick (wall time / (ticks × N)) and × realtime (simulated s / wall
s), medians of `runs` runs. A run flies `seconds` of game time, again and again until it has
lasted half a second of wall time (one drone's 10 s are ~10 ms: a scheduler's hiccup would be
the figure); it starts after a garbage collection, so the cost of building the world is not
counted, the flight's own garbage is. Targets: one drone ≥ 1 000× realtime (lab); 100 drones in the
street ≥ 10×; the cost per drone-tick at 50 drones no higher than one drone's.
"""

from __future__ import annotations

import gc
import statistics
import time

from game.simulation import Simulation
from world.level_file import load_level

FRAME_S = 1.0 / 60.0
FLIP_FRAMES = 1200  # every 20 s the drones turn back
MIN_WALL_S = 0.5  # a run lasts at least this long (10 simulated s of one drone take ~10 ms: mostly noise)


def _lab(n: int) -> Simulation:
    sim = Simulation(level=None, position=(0.0, 0.0, 100.0))
    for i in range(1, n):
        sim.add_drone(position=(10.0 * (i % 10), 10.0 * (i // 10), 100.0))
    return sim


def _street(n: int) -> Simulation:
    lanes = [(y, z) for z in (2.0, 5.0, 8.0, 11.0) for y in (-3.0, -1.0, 1.0, 3.0)]
    street = load_level("street")
    street = street.model_copy(update={"traffic": []})  # N drones exactly: the level's traffic stays home
    sim = Simulation(street, position=(2.0, lanes[0][0], lanes[0][1]))
    for i in range(1, n):
        y, z = lanes[i % len(lanes)]
        sim.add_drone(position=(2.0 + 1.5 * (i // len(lanes)), y, z))
    return sim


WORLDS = {"lab": _lab, "street": _street}


def _cruise(sim: Simulation, seconds: float, min_wall_s: float = 0.0) -> tuple[float, int, float]:
    """Wall seconds for `seconds` of cruising, repeated until they last `min_wall_s`; the ticks
    run and the simulated seconds."""
    drones = sim.drones
    for d in drones:
        d.pad.rt = 1.0
    sim.run(2.0)  # MotorPower 1: 8 m/s
    for d in drones:
        d.pad.rt = 0.0
    app = sim.app
    frames = max(1, round(seconds / FRAME_S))
    ticks0 = app.clock.ticks
    frame = 0
    gc.collect()  # the garbage of making the world is not the flight's cost (the flight's own still is)
    start = time.perf_counter()
    while True:
        for frame in range(frame, frame + frames):
            phase = frame % FLIP_FRAMES
            if phase < 2:  # a flick chooses the way; neutral keeps it
                stick = ((0.0, 1.0) if (frame // FLIP_FRAMES) % 2 == 0 else (0.0, -1.0)) if phase == 0 else (0.0, 0.0)
                for d in drones:
                    d.pad.left = stick
            app.update(FRAME_S)
        frame += 1
        wall = time.perf_counter() - start
        if wall >= min_wall_s:
            return wall, app.clock.ticks - ticks0, frame * FRAME_S


def measure_fleet(world: str, n: int, runs: int, seconds: float) -> tuple[float, float]:
    """Median µs per drone-tick and median × realtime of `runs` runs of `n` drones in `world`."""
    per_drone_tick, factors = [], []
    for run in range(runs + 1):
        sim = WORLDS[world](n)
        try:
            wall, ticks, simulated = _cruise(sim, seconds, MIN_WALL_S) if run else _cruise(sim, min(seconds, 1.0))
        finally:
            sim.close()
        if run:  # the first run warms the compiled code and the caches: not counted
            per_drone_tick.append(wall / (ticks * n) * 1e6)
            factors.append(simulated / wall)
    return statistics.median(per_drone_tick), statistics.median(factors)


def run_fleet_bench(counts: list[int], runs: int = 5, seconds: float = 10.0, out=print) -> int:
    out(f"donify bench --drones: median of {runs} runs, {seconds:g} simulated s each, 1/60 s frames, "
        f"1/240 s ticks, whole App")
    results: dict[tuple[str, int], tuple[float, float]] = {}
    for world in WORLDS:
        for n in counts:
            us, factor = results[(world, n)] = measure_fleet(world, n, runs, seconds)
            verdict = ""
            if world == "lab" and n == 1:
                verdict = f"  (target ≥ 1000x: {'met' if factor >= 1000 else 'NOT met'})"
            elif world == "street" and n == 100:
                verdict = f"  (target ≥ 10x: {'met' if factor >= 10 else 'NOT met'})"
            out(f"  {world:6s} {n:4d} drone{'s' if n > 1 else ' '}  {us:7.2f} µs per drone-tick  {factor:8.1f}x realtime{verdict}")
    for world in WORLDS:
        if (world, 1) in results and (world, 50) in results:
            one, fifty = results[(world, 1)][0], results[(world, 50)][0]
            out(f"  {world}: per drone-tick at 50 drones {fifty:.2f} µs vs one drone {one:.2f} µs "
                f"(target: no higher: {'met' if fifty <= one else 'NOT met'})")
    return 0
