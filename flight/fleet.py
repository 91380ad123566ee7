"""The fixed tick over many drones: one compiled call runs every drone of a block.

The drones' arrays are rows of a block (components/fleet.py `FleetStore`): row r holds one
drone's body, rotors, battery, controller loops and setpoints, its vehicle's physics and gains,
side by side. `cols` gives where each table starts in a row (its entries are indexed by the
`COL_*` constants below). The kernels slice each row into the very arrays the one-drone
functions take (flight/control/tick.py `control_tick`, flight/dynamics.py `step_dynamics`) and
call them: the flight model and the laws are the same code for one drone and for a hundred;
only the Python around them is paid once per block instead of once per drone.
"""

from __future__ import annotations

import numpy as np

from components.layout import (
    ARMED, BATTERY_SIZE, BODY_SIZE, DEPLETED, GAINS_SIZE, LAB_SIZE, LAW, LOOP_STATE_SIZE, MOTOR_POWER, PHYSICS_SIZE,
    ROTORS_SIZE, TARGETS_SIZE, WRENCH_SIZE,
)
from flight.control.tick import control_tick
from flight.dynamics import step_dynamics, step_dynamics_with_wrench
from flight.jit import njit

# where each table starts in a row: the entries of `cols`
COL_BODY, COL_ROTORS, COL_BATTERY, COL_WRENCH, COL_LOOPS, COL_TARGETS, COL_LAB, COL_GAINS, COL_PHYSICS, COL_FLAGS = range(10)
COLUMN_GROUPS = (  # (group name, width), in `cols` order: the store's groups the kernels read
    ("body", BODY_SIZE), ("rotors", ROTORS_SIZE), ("battery", BATTERY_SIZE), ("wrench", WRENCH_SIZE),
    ("loops", LOOP_STATE_SIZE), ("targets", TARGETS_SIZE), ("lab", LAB_SIZE), ("gains", GAINS_SIZE),
    ("physics", PHYSICS_SIZE), ("flags", 1),
)
HAS_WRENCH = 0  # in the flags group: 1 when the wrench columns hold an ExternalWrench to apply


def column_starts(columns: dict[str, slice]) -> np.ndarray:
    """`cols` for the kernels from a store's column groups."""
    return np.array([columns[name].start for name, _ in COLUMN_GROUPS], dtype=np.int64)


@njit
def control_block(block, rows, cols, density_kg_m3, dt_s):
    """CONTROL for every drone in `rows`: arm from MotorPower and the pack, then its law's tick."""
    for k in range(rows.shape[0]):
        row = block[rows[k]]
        rotors = row[cols[COL_ROTORS]:cols[COL_ROTORS] + ROTORS_SIZE]
        targets = row[cols[COL_TARGETS]:cols[COL_TARGETS] + TARGETS_SIZE]
        battery = row[cols[COL_BATTERY]:cols[COL_BATTERY] + BATTERY_SIZE]
        rotors[ARMED] = 1.0 if targets[MOTOR_POWER] > 0.0 and battery[DEPLETED] == 0.0 else 0.0
        control_tick(int(targets[LAW]), row[cols[COL_LOOPS]:cols[COL_LOOPS] + LOOP_STATE_SIZE],
                     row[cols[COL_GAINS]:cols[COL_GAINS] + GAINS_SIZE],
                     row[cols[COL_PHYSICS]:cols[COL_PHYSICS] + PHYSICS_SIZE],
                     row[cols[COL_BODY]:cols[COL_BODY] + BODY_SIZE], rotors, targets,
                     row[cols[COL_LAB]:cols[COL_LAB] + LAB_SIZE], density_kg_m3, dt_s)


@njit
def dynamics_block(block, rows, cols, density_kg_m3, wind_m_s, dt_s):
    """DYNAMICS for every drone in `rows`: battery, motors and rigid body over one sub-step,
    with its ExternalWrench where it has one."""
    for k in range(rows.shape[0]):
        row = block[rows[k]]
        body = row[cols[COL_BODY]:cols[COL_BODY] + BODY_SIZE]
        rotors = row[cols[COL_ROTORS]:cols[COL_ROTORS] + ROTORS_SIZE]
        battery = row[cols[COL_BATTERY]:cols[COL_BATTERY] + BATTERY_SIZE]
        physics = row[cols[COL_PHYSICS]:cols[COL_PHYSICS] + PHYSICS_SIZE]
        if row[cols[COL_FLAGS] + HAS_WRENCH] > 0.0:
            step_dynamics_with_wrench(body, rotors, battery, physics, density_kg_m3, wind_m_s, dt_s,
                                      row[cols[COL_WRENCH]:cols[COL_WRENCH] + WRENCH_SIZE])
        else:
            step_dynamics(body, rotors, battery, physics, density_kg_m3, wind_m_s, dt_s)
