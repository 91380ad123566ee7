"""The stick dead zone: radial (not per axis), rescaled so full deflection stays 1, applied
once — in the INPUT stage — whatever device wrote the Pad."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from components.pilot import Pad, PilotCommand
from game.input.devices import apply_input_settings
from game.input.padwriter import PadWriter
from game.settings import Settings
from systems.pilot_input import radial_dead_zone

DZ = 0.15


@pytest.mark.parametrize("stick", [(0.0, 0.0), (0.1, 0.0), (0.0, -0.15), (0.1, 0.1), (-0.106, 0.106)])
def test_inside_the_dead_zone_is_exactly_neutral(stick):
    assert radial_dead_zone(*stick, DZ) == (0.0, 0.0)


def test_radial_not_square():
    # 0.12 on each axis is inside a per-axis zone of 0.15 but outside a radial one (|s| ≈ 0.17)
    x, y = radial_dead_zone(0.12, 0.12, DZ)
    assert x > 0.0 and y > 0.0


@given(st.floats(-math.pi, math.pi), st.floats(0.0, 1.0))
def test_direction_kept_and_magnitude_rescaled_from_edge_to_full(angle, magnitude):
    x, y = magnitude * math.cos(angle), magnitude * math.sin(angle)
    ox, oy = radial_dead_zone(x, y, DZ)
    expected = max(0.0, (magnitude - DZ) / (1.0 - DZ))
    assert math.hypot(ox, oy) == pytest.approx(expected, abs=1e-9)
    if expected > 1e-9:
        n = math.hypot(ox, oy)
        assert (ox / n, oy / n) == pytest.approx((math.cos(angle), math.sin(angle)), abs=1e-6)


def test_full_deflection_stays_one():
    assert radial_dead_zone(0.0, 1.0, DZ) == pytest.approx((0.0, 1.0))
    x, y = radial_dead_zone(math.sqrt(0.5), -math.sqrt(0.5), DZ)
    assert math.hypot(x, y) == pytest.approx(1.0)


def lab(make_sim):
    return make_sim(level=None, density=0.0, wind=(0.0, 0.0, 0.0), position=(0.0, 0.0, 100.0))


def test_the_input_stage_applies_it_to_the_pad(make_sim):
    sim = lab(make_sim)
    command = sim.app.resource(PilotCommand)
    sim.pad.left = (0.1, 0.05)
    sim.pad.right = (0.5, 0.0)
    sim.step()
    assert command.left == (0.0, 0.0)
    assert command.right == pytest.approx(((0.5 - DZ) / (1 - DZ), 0.0))


def test_the_settings_dead_zone_replaces_the_vehicle_one(make_sim):
    sim = lab(make_sim)
    settings = Settings()
    settings.set("controls.dead_zone", 0.3)
    apply_input_settings(sim.app, settings)
    command = sim.app.resource(PilotCommand)
    sim.pad.left = (0.25, 0.0)
    sim.step()
    assert command.left == (0.0, 0.0)
    sim.pad.left = (0.65, 0.0)
    sim.step()
    assert command.left == pytest.approx(((0.65 - 0.3) / 0.7, 0.0))


def test_a_device_writes_raw_values_so_the_dead_zone_is_applied_once(make_sim):
    sim = lab(make_sim)
    writer = PadWriter(sim.pad, dead_zone=DZ)
    gamepad = writer.add("gamepad")
    gamepad.left = (0.5, 0.0)
    writer.sync(gamepad)
    assert sim.pad.left == (0.5, 0.0)  # raw on the Pad, not rescaled by the device
    sim.step()
    assert sim.app.resource(PilotCommand).left == pytest.approx(((0.5 - DZ) / (1 - DZ), 0.0))


def test_a_resting_stick_writes_neutral_once_then_stays_silent():
    pad = Pad()
    writer = PadWriter(pad, dead_zone=DZ)
    gamepad = writer.add("gamepad")
    gamepad.left = (0.6, 0.0)
    writer.sync(gamepad)
    gamepad.left = (0.04, -0.03)  # back to centre, with jitter
    writer.sync(gamepad)
    assert pad.left == (0.0, 0.0)
    pad.left = (0.0, 1.0)  # the keyboard now holds "forward"
    for jitter in ((0.02, 0.01), (-0.03, 0.02), (0.01, -0.05)):
        gamepad.left = jitter
        writer.sync(gamepad)
    assert pad.left == (0.0, 1.0)


def test_a_resting_trigger_does_not_creep():
    pad = Pad()
    settings = Settings()
    writer = PadWriter(pad, settings.controls.dead_zone, settings.controls.trigger_dead_zone)
    gamepad = writer.add("gamepad")
    gamepad.rt = settings.controls.trigger_dead_zone / 2
    writer.sync(gamepad)
    assert pad.rt == 0.0
    gamepad.rt = 0.6
    writer.sync(gamepad)
    assert pad.rt == 0.6
