"""Every shipped level is loaded, validated and flown (MuJoCo Menagerie's model_test style):
one case per folder under levels/, so a new level is checked the day it is added."""

from __future__ import annotations

import logging
import math
import warnings

import pytest

from game.cli import main
from world.level_file import LEVELS_DIR, load_level

LEVEL_DIRS = sorted(p for p in LEVELS_DIR.iterdir() if p.is_dir() and not p.name.startswith((".", "_")))


def test_there_are_levels_to_check():
    assert {p.name for p in LEVEL_DIRS} >= {"street", "field"}


@pytest.mark.parametrize("folder", LEVEL_DIRS, ids=lambda p: p.name)
def test_level_folder_is_complete(folder):
    for name in ("level.toml", "README.md", "CHANGELOG.md"):
        assert (folder / name).is_file(), f"{folder.name}/{name} is missing"
    assert not list(folder.glob("*.py")), "levels are data only"


@pytest.mark.parametrize("folder", LEVEL_DIRS, ids=lambda p: p.name)
def test_level_validates(folder, capsys):
    assert main(["check-level", str(folder / "level.toml")]) == 0
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("folder", LEVEL_DIRS, ids=lambda p: p.name)
def test_level_is_flown_10_s_without_warning(folder, make_sim, caplog):
    level = load_level(folder)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with caplog.at_level(logging.WARNING):
            sim = make_sim(level=folder)
            start = sim.telemetry()
            pad = sim.pad
            pad.rt = 1.0
            sim.run(1.0)           # MotorPower 0.5, armed
            pad.rt = 0.0
            pad.press("Y")
            sim.run(1.5)           # climb at 2 m/s
            pad.release("Y")
            pad.left = (0.0, 1.0)  # forward: 8 × 0.5 = 4 m/s
            sim.step()
            pad.left = (0.0, 0.0)
            sim.run(3.0)
            pad.right = (0.5, 0.0)  # yaw while cruising
            sim.run(1.0)
            pad.right = (0.0, 0.0)
            pad.press("LS")         # brake
            sim.step()
            pad.release("LS")
            sim.run(1.5)
            pad.press("A")          # descend
            sim.run(1.0)
            pad.release("A")
            sim.run(10.0 - sim.time)
    assert sim.time == pytest.approx(10.0, abs=1 / 60)
    assert [r for r in caplog.records if r.levelno >= logging.WARNING] == []
    t = sim.telemetry()
    for value in (*t.position, *t.velocity, *t.quaternion):
        assert math.isfinite(value)
    spawn = level.spawn_position(sim.vehicle.envelope_size_m[2])
    assert start.position == pytest.approx(spawn) and start.yaw_deg == pytest.approx(level.spawn_yaw_deg)
    assert t.position[2] > spawn[2] + 0.5, "it flew (3 m up, 2 m down)"
    assert math.dist(t.position[:2], spawn[:2]) > 5.0


def test_check_level_exit_codes(tmp_path, capsys):
    bad = tmp_path / "level.toml"
    bad.write_text((LEVELS_DIR / "field" / "level.toml").read_text().replace("radius = 0.4", "radius = -0.4"))
    assert main(["check-level", "street", "field"]) == 0
    assert main(["check-level", "street", str(bad)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"{bad}:") and "cylinders.0.radius: expected greater than 0" in err[0]
    with pytest.raises(SystemExit) as info:
        main(["check-level"])
    assert info.value.code == 2
