"""Whole fixed ticks of a block of drones in one compiled call.

A fixed tick is, in this order, every drone's control law (flight/fleet.py `control_block`),
its flight model (`dynamics_block`) and its contacts against the level and the other drones
(world/collision.py `resolve_level_contacts`, `resolve_drone_contacts`). The systems of the
fixed stages call those kernels one tick at a time, with Python between them: the wind of the
tick, a course's gates, a mod's CONTROL-stage system, the events of a contact. When none of that
has anything to do for a while — a steady wind, no course running, no mod in the fixed stages —
the ticks of a whole frame are the kernels called again and again with the same arguments, and
these functions do exactly that in one call (systems/fused_ticks.py decides when). They call the
very same kernels in the same order, so a frame's result is bit for bit the one the systems
would have given (tests/unit/test_fused_ticks.py).

A contact event (an impact, a touchdown) needs Python: `fly_ticks` stops after the tick that
had one and says so; the caller announces it and goes on.
"""

from __future__ import annotations

from flight.fleet import control_block, dynamics_block
from flight.jit import njit
from world.collision import resolve_drone_contacts, resolve_level_contacts


@njit
def fly_ticks_in_the_open(block, rows, cols, density_kg_m3, wind_m_s, ticks, dt_s):
    """`ticks` whole ticks of the drones `rows` of `block` where there is nothing to meet (no
    ground, no solid, no other drone): control and dynamics only."""
    for _ in range(ticks):
        control_block(block, rows, cols, density_kg_m3, dt_s)
        dynamics_block(block, rows, cols, density_kg_m3, wind_m_s, dt_s)


@njit
def fly_ticks(block, rows, cols, density_kg_m3, wind_m_s, ticks, dt_s, level, drones,
              body_col, size_col, mass_col, results_col, geometry, params):
    """Up to `ticks` whole ticks of the drones `rows` of `block`, contacts included (`level`:
    against the level's `geometry`; `drones`: between the drones), as the fixed systems run
    them. Returns (ticks run, whether the last one had a contact event): it stops after the
    first tick in which a drone's EVENTS column is not zero."""
    for k in range(ticks):
        control_block(block, rows, cols, density_kg_m3, dt_s)
        dynamics_block(block, rows, cols, density_kg_m3, wind_m_s, dt_s)
        noted = 0
        if level:
            noted = resolve_level_contacts(block, rows, body_col, size_col, results_col, geometry, params, dt_s)
        if drones:
            noted += resolve_drone_contacts(block, rows, body_col, size_col, mass_col, results_col, params, dt_s)
        if noted:
            return k + 1, True
    return ticks, False
