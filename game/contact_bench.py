"""The compiled contacts' own figures (issue #16): one call per tick over many drones.

Each function has the shape of `game.bench.BENCHES`' (seconds simulated → wall seconds spent in
the timed calls, ticks), so `donify bench` can list them (`contact_benches()`; this module
imports nothing of game.bench, so game.bench may import it); run alone:
`.venv/bin/python -m game.contact_bench`. The drones fly straight at 8 m/s at 3 m (moved by
the bench, not by the dynamics), so only the contacts are timed.
"""

from __future__ import annotations

import statistics
import time
from typing import Callable

import numpy as np

from components.layout import BODY_SIZE, POSITION, PREVIOUS_POSITION, QUATERNION, VELOCITY
from world.collision import (
    CONTACT_WIDTH, ContactParams, pack_geometry, resolve_drone_contacts, resolve_level_contacts, warm_up_contacts,
)
from world.geometry import BoxRow, LevelGeometry
from world.level import compile_level
from world.level_file import load_level

TICK_S = 1.0 / 240.0
SIZE_COL, MASS_COL, OUT_COL = BODY_SIZE, BODY_SIZE + 3, BODY_SIZE + 4
WIDTH = OUT_COL + CONTACT_WIDTH


def _fleet(n: int, x: tuple[float, float], y: tuple[float, float], z: tuple[float, float]) -> np.ndarray:
    rng = np.random.default_rng(16)
    block = np.zeros((n, WIDTH))
    block[:, QUATERNION + 3] = 1.0
    block[:, SIZE_COL:SIZE_COL + 3] = (0.1752, 0.1697, 0.041)  # the Tello's envelope
    block[:, MASS_COL] = 0.087
    block[:, POSITION] = rng.uniform(*x, n)
    block[:, POSITION + 1] = rng.uniform(*y, n)
    block[:, POSITION + 2] = rng.uniform(*z, n)
    heading = rng.uniform(0.0, 2.0 * np.pi, n)
    block[:, VELOCITY], block[:, VELOCITY + 1] = 8.0 * np.cos(heading), 8.0 * np.sin(heading)
    return block


def _timed(block: np.ndarray, seconds: float, call: Callable[[np.ndarray, np.ndarray], int]) -> tuple[float, int]:
    rows = np.arange(len(block), dtype=np.int64)
    ticks = round(seconds / TICK_S)
    warm_up_contacts()
    spent = 0.0
    for _ in range(ticks):
        block[:, PREVIOUS_POSITION:PREVIOUS_POSITION + 3] = block[:, POSITION:POSITION + 3]
        block[:, POSITION:POSITION + 3] += block[:, VELOCITY:VELOCITY + 3] * TICK_S
        start = time.perf_counter()
        call(block, rows)
        spent += time.perf_counter() - start
    return spent, ticks


def level_contacts(geometry: LevelGeometry, drones: int, x, y) -> Callable[[float], tuple[float, int]]:
    packed, params = pack_geometry(geometry), ContactParams().packed()

    def bench(seconds: float) -> tuple[float, int]:
        return _timed(_fleet(drones, x, y, (3.0, 3.0)), seconds, lambda block, rows: resolve_level_contacts(
            block, rows, 0, SIZE_COL, OUT_COL, packed, params, TICK_S))
    return bench


def drone_contacts(drones: int, side_m: float) -> Callable[[float], tuple[float, int]]:
    params = ContactParams().packed()

    def bench(seconds: float) -> tuple[float, int]:
        return _timed(_fleet(drones, (0.0, side_m), (0.0, side_m), (0.0, side_m)), seconds,
                      lambda block, rows: resolve_drone_contacts(block, rows, 0, SIZE_COL, MASS_COL, OUT_COL, params,
                                                                 TICK_S))
    return bench


def _street() -> LevelGeometry:
    return compile_level(load_level("street"))


def _thousand_boxes() -> LevelGeometry:
    """The 1 000 boxes of game.bench's `thousand_box_level` (6 × 6 m, 4–16 m high, every 10 m
    on a 100 × 10 grid), straight as geometry."""
    boxes = []
    for i in range(100):
        for j in range(10):
            h = 4.0 + (7 * i + 3 * j) % 13
            boxes.append(BoxRow(10.0 * i, 10.0 * j, 0.5 * h, 3.0, 3.0, 0.5 * h, 1.0, 0.0, f"b{i}-{j}", "building"))
    return LevelGeometry(ground_z_m=0.0, boxes=tuple(boxes))


def contact_benches() -> list[tuple[str, Callable[[float], tuple[float, int]], float | None]]:
    """(label, function, target) rows for `donify bench`: µs per tick is µs per call."""
    street, boxes, empty = _street(), _thousand_boxes(), LevelGeometry.empty()
    return [
        ("level contacts, street, 1 drone per call", level_contacts(street, 1, (0.0, 180.0), (-5.0, 5.0)), None),
        ("level contacts, street, 100 drones per call", level_contacts(street, 100, (0.0, 180.0), (-5.0, 5.0)), None),
        ("level contacts, 1000-box level, 100 drones", level_contacts(boxes, 100, (0.0, 990.0), (4.0, 6.0)), None),
        ("level contacts, empty lab world, 100 drones", level_contacts(empty, 100, (0.0, 180.0), (-5.0, 5.0)), None),
        ("drone-drone, 100 drones in a 10 m cube", drone_contacts(100, 10.0), None),
        ("drone-drone, 300 drones in a 10 m cube", drone_contacts(300, 10.0), None),
    ]


def run(runs: int = 5, seconds: float = 10.0, out=print) -> None:
    """Print each figure: the median over `runs` runs of µs per call."""
    for label, fn, _target in contact_benches():
        per_call = []
        for _ in range(runs):
            wall, ticks = fn(seconds)
            per_call.append(wall / ticks * 1e6)
        out(f"  {label:48s} {statistics.median(per_call):7.2f} µs per call (per tick)")


if __name__ == "__main__":
    run()
