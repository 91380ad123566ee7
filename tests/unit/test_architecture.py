"""The house rules (docs/api.md#house-rules) that code can check: the flight model, the controllers
and the world are pure (no esper, no pyglet); engine and components never import pyglet; the
headless Simulation never imports pyglet."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def modules(package: str) -> list[str]:
    return sorted(".".join(p.relative_to(ROOT).with_suffix("").parts)
                  for p in (ROOT / package).rglob("*.py") if p.name != "__init__.py")


def imported_after(names: list[str]) -> set[str]:
    code = "import sys\n" + "".join(f"import {n}\n" for n in names) + \
        "print(' '.join(sorted({m.split('.')[0] for m in sys.modules})))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    return set(out.stdout.split())


@pytest.mark.parametrize("package", ["flight", "world"])
def test_pure_packages_import_neither_esper_nor_pyglet(package):
    loaded = imported_after(modules(package))
    assert "esper" not in loaded and "pyglet" not in loaded


def test_engine_and_components_never_import_pyglet():
    assert "pyglet" not in imported_after(modules("engine") + modules("components"))


def test_the_headless_simulation_never_imports_pyglet():
    code = ("import sys\nfrom game.simulation import Simulation\nsim = Simulation()\nsim.run(1.0)\n"
            "sim.select('takeoff')\nsim.run(1.0)\nprint('pyglet' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == "False"


def test_levels_hold_data_only():
    assert not list((ROOT / "levels").rglob("*.py"))
