"""Fixtures of the property tests."""

from __future__ import annotations

import pytest

from game.simulation import Simulation


@pytest.fixture(scope="module")
def sim_in():
    """sim_in(name, level): one Simulation per level for the whole module — its examples add
    and remove their own drones in it, rather than paying a world each — closed at the end."""
    sims: dict[str, Simulation] = {}

    def get(name: str, level) -> Simulation:
        if name not in sims:
            sims[name] = Simulation(level)
        return sims[name]

    yield get
    for sim in sims.values():
        sim.close()
