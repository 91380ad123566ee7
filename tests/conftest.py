"""Shared fixtures. Every Simulation/App gets its own esper world and is closed after use."""

from __future__ import annotations

import pytest

from game.simulation import Simulation


@pytest.fixture
def make_sim():
    sims: list[Simulation] = []

    def make(*args, **kwargs) -> Simulation:
        sim = Simulation(*args, **kwargs)
        sims.append(sim)
        return sim

    yield make
    for sim in sims:
        sim.close()


@pytest.fixture(autouse=True)
def _user_config_dir(tmp_path_factory, monkeypatch):
    """No test reads or writes the real user's settings file ($DONIFY_CONFIG_DIR → a temp dir)."""
    monkeypatch.setenv("DONIFY_CONFIG_DIR", str(tmp_path_factory.mktemp("config")))
