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


@pytest.fixture(scope="session", autouse=True)
def _flight_code_compiled():
    """Compile (or load from the cache) every compiled flight function once, before any test:
    the command line says "compiling the flight code…" on stderr the first time one compiles
    in a process, and which test that would fall on depends on the order the tests run in and
    on the machine's cache. The tests of that notice use functions of their own."""
    from pathlib import Path  # noqa: PLC0415

    from game.plugins import discover_mods  # noqa: PLC0415
    from game.startup import warm_up  # noqa: PLC0415

    warm_up()  # every flight mode
    # and what mods bring: the guard around their code, a physics mod's wrench (the tether)
    plugins, _ = discover_mods(Path(__file__).resolve().parents[1] / "examples" / "mods", entry_point_mods=False)
    with Simulation(level="street", plugins=plugins) as sim:
        sim.pad.rt = 1.0
        sim.run(0.5)


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
