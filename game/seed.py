"""The scene seed: one rule wherever a seed comes from (Simulation, a flight script, --seed).

Every random process of a scene (gusts, turbulence) is drawn from it, so the same seed and
inputs give bit-identical flights.
"""

from __future__ import annotations

SEED_EXPECTED = "a whole number from 0 to 2**63 - 1"


def check_seed(value) -> int:
    """`value` if it is a valid seed, else ValueError naming what was expected."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2**63:
        raise ValueError(f"seed: expected {SEED_EXPECTED}, got {value!r}")
    return value
