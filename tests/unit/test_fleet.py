"""The drones' rows (components/fleet.py) and the block kernels (flight/fleet.py): a block run
is the one-drone functions run on each row, bit for bit; rows never move."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from components.fleet import FleetStore
from components.flight import RigidBody
from components.layout import (
    ANGULAR_VELOCITY, ARMED, DEPLETED, LAW, LAW_ACRO, LAW_ANGLE, LAW_STABILISED, MOTOR_POWER, QUATERNION, SPEED,
    TARGET_VELOCITY, VELOCITY, LAB, ROTORS, TARGETS, BODY, BATTERY, LOOP_STATE, WRENCH, FORCE,
)
from flight.battery import fill
from flight.control.tick import control_tick
from flight.dynamics import step_dynamics, step_dynamics_with_wrench
from flight.fleet import COLUMN_GROUPS, HAS_WRENCH, column_starts, control_block, dynamics_block
from flight.vehicle import default_vehicle


def _store(rows_per_block: int = 8) -> FleetStore:
    return FleetStore((*COLUMN_GROUPS, ("size", 3)), rows_per_block=rows_per_block)


def test_rows_are_reused_never_moved_and_listed_in_creation_order():
    store = _store(rows_per_block=3)
    made = [store.allocate() for _ in range(5)]
    assert made == [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1)]  # a second block when the first is full
    body = store.view(0, 1, "body")
    body[:] = 7.0
    store.release(0, 0)
    assert list(store.rows(0)) == [1, 2]
    again = store.allocate()
    assert again == (0, 0)  # the freed row is taken again, zeroed
    assert np.all(store.view(0, 0, "body") == 0.0)
    assert list(store.rows(0)) == [1, 2, 0]  # creation order, not row order
    assert np.all(body == 7.0) and body.base is store.blocks[0]  # the other views never moved
    assert store.owner(body) == (0, 1) and store.owner(np.zeros(3)) is None


def test_a_component_lives_in_the_row_it_is_given():
    store = _store()
    block, row = store.allocate()
    body = RigidBody(store.view(block, row, "body"))
    body.position[:] = (1.0, 2.0, 3.0)
    assert tuple(store.blocks[block][row, store.columns["body"]][:3]) == (1.0, 2.0, 3.0)
    with pytest.raises(ValueError, match="contiguous float64"):
        RigidBody(np.zeros(5))


def _random_drone(rng: np.random.Generator, vehicle, law: int) -> dict[str, np.ndarray]:
    """A drone's arrays in a plausible flying state with random perturbations."""
    body, rotors, battery, loops = BODY.fresh(), ROTORS.fresh(), BATTERY.fresh(), LOOP_STATE.fresh()
    targets, lab, wrench = TARGETS.fresh(), LAB.fresh(), WRENCH.fresh()
    q = rng.normal(size=4) * np.array([0.1, 0.1, 1.0, 1.0])
    body[QUATERNION:QUATERNION + 4] = q / np.linalg.norm(q)
    body[VELOCITY:VELOCITY + 3] = rng.normal(size=3) * 3.0
    body[ANGULAR_VELOCITY:ANGULAR_VELOCITY + 3] = rng.normal(size=3)
    rotors[SPEED:SPEED + 4] = vehicle.hover_motor_speed_rad_s() * (1.0 + 0.2 * rng.normal(size=4))
    fill(battery, rotors, vehicle.physics)
    targets[MOTOR_POWER] = rng.uniform(0.0, 1.0)
    targets[TARGET_VELOCITY:TARGET_VELOCITY + 3] = rng.normal(size=3) * 4.0
    targets[LAW] = law
    lab[:] = rng.uniform(-1.0, 1.0, size=lab.size)
    wrench[FORCE:FORCE + 3] = rng.normal(size=3) * 0.2
    return {"body": body, "rotors": rotors, "battery": battery, "loops": loops, "targets": targets, "lab": lab,
            "wrench": wrench, "gains": vehicle.gains.copy(), "physics": vehicle.physics.copy(),
            "flags": np.array([float(rng.integers(0, 2))])}


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 12), ticks=st.integers(1, 30),
       depleted=st.booleans())
def test_a_block_run_is_the_one_drone_functions_run_on_each_row(seed, n, ticks, depleted):
    rng = np.random.default_rng(seed)
    vehicle = default_vehicle()
    store = _store(rows_per_block=16)
    drones = [_random_drone(rng, vehicle, int(rng.choice([LAW_STABILISED, LAW_ANGLE, LAW_ACRO]))) for _ in range(n)]
    if depleted:
        drones[0]["battery"][DEPLETED] = 1.0
    rows = []
    for d in drones:
        b, r = store.allocate()
        rows.append(r)
        for name, array in d.items():
            store.view(b, r, name)[:] = array
    density, dt, wind = 1.1, 1.0 / 240.0, np.array([1.0, -2.0, 0.3])
    cols = column_starts(store.columns)
    for _ in range(ticks):
        control_block(store.blocks[0], store.rows(0), cols, density, dt)
        dynamics_block(store.blocks[0], store.rows(0), cols, density, wind, dt)
        for d in drones:  # the same, one drone at a time with the one-drone functions
            d["rotors"][ARMED] = 1.0 if d["targets"][MOTOR_POWER] > 0.0 and d["battery"][DEPLETED] == 0.0 else 0.0
            control_tick(int(d["targets"][LAW]), d["loops"], d["gains"], d["physics"], d["body"], d["rotors"],
                         d["targets"], d["lab"], density, dt)
            if d["flags"][HAS_WRENCH] > 0.0:
                step_dynamics_with_wrench(d["body"], d["rotors"], d["battery"], d["physics"], density, wind, dt,
                                          d["wrench"])
            else:
                step_dynamics(d["body"], d["rotors"], d["battery"], d["physics"], density, wind, dt)
    for d, r in zip(drones, rows):
        for name, array in d.items():
            assert np.array_equal(store.view(0, r, name), array, equal_nan=True), name
    if depleted:
        assert store.view(0, rows[0], "rotors")[ARMED] == 0.0


def test_the_kernels_skip_rows_not_listed():
    vehicle = default_vehicle()
    store = _store()
    rng = np.random.default_rng(1)
    for _ in range(3):
        b, r = store.allocate()
        for name, array in _random_drone(rng, vehicle, LAW_STABILISED).items():
            store.view(b, r, name)[:] = array
    store.release(0, 1)
    store.blocks[0][1] = 123.0  # a freed row: nobody flies it
    cols = column_starts(store.columns)
    control_block(store.blocks[0], store.rows(0), cols, 1.225, 1.0 / 240.0)
    dynamics_block(store.blocks[0], store.rows(0), cols, 1.225, np.zeros(3), 1.0 / 240.0)
    assert np.all(store.blocks[0][1] == 123.0)
