"""Shared fixtures. Every Simulation/App gets its own esper world and is closed after use.

PYGLET_HEADLESS is set here, before any test module imports pyglet: pyglet reads it once, at
its first import, and without a display only a headless (EGL) pyglet can open a context. So
`pytest tests/…` works the same with or without `./test.sh`.
"""

from __future__ import annotations

import os

os.environ.setdefault("PYGLET_HEADLESS", "1")

import pytest  # noqa: E402

from game.simulation import Simulation  # noqa: E402


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
