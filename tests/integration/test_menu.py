"""The LB / Tab menu (docs/model.md#menu): setpoints kept while open, time goes on, the fall goes on
at zero power, neutral on close."""

import math

import pytest

from systems.menu import Menu


def armed(make_sim, **kw):
    sim = make_sim(level=None, position=(0.0, 0.0, 50.0), **kw)
    sim.pad.rt = 1.0
    sim.run(1.0)
    sim.pad.rt = 0.0
    return sim


def tap(sim, button):
    sim.pad.press(button)
    sim.step()
    sim.pad.release(button)


def test_menu_lists_the_entries(make_sim):
    ids = make_sim().app.resource(Menu).ids()
    assert ids[:7] == ["manual", "takeoff", "land", "mission", "restart", "angle", "acro"]


def test_setpoints_kept_and_time_goes_on_while_open(make_sim):
    sim = armed(make_sim)
    sim.pad.left = (0.0, 1.0)
    sim.step()
    sim.pad.left = (0.0, 0.0)
    sim.run(3.0)
    before = sim.telemetry()
    tap(sim, "LB")
    assert sim.app.resource(Menu).open
    sim.pad.left = (-1.0, -1.0)  # navigating: none of this may reach the flight
    sim.pad.rt = 1.0
    sim.pad.press("Y")
    sim.run(2.0)
    t = sim.telemetry()
    assert t.time == pytest.approx(before.time + 2.0 + 1 / 60)
    assert t.target_velocity == before.target_velocity
    assert t.motor_power == before.motor_power
    assert t.position[0] > before.position[0] + 7.0  # the cruise went on at 4 m/s
    assert abs(t.position[2] - before.position[2]) < 0.05  # no climb


def test_the_fall_goes_on_at_zero_power(make_sim):
    sim = make_sim(level=None, position=(0.0, 0.0, 50.0))
    tap(sim, "LB")
    sim.run(1.0)
    t = sim.telemetry()
    assert sim.app.resource(Menu).open
    # free fall slowed by drag: terminal speed √(2 m g / (ρ CdA_z)) ≈ 10.8 m/s
    terminal = math.sqrt(2 * 0.087 * 9.80665 / (1.225 * 0.012))
    assert -terminal < t.velocity[2] < -0.7 * terminal and t.position[2] < 46.0


def test_controls_are_neutral_on_close_until_released(make_sim):
    sim = armed(make_sim)
    tap(sim, "LB")
    sim.pad.left = (0.0, -1.0)  # move down the list, and keep the stick there
    sim.step()
    menu = sim.app.resource(Menu)
    assert menu.index == 1
    sim.pad.press("A")  # choose "takeoff"? No: close with LB to test the neutral hand-back
    sim.pad.release("A")
    menu.index = 0
    tap(sim, "LB")  # close
    sim.pad.left = (0.0, -1.0)  # still held after closing
    sim.run(1.0)
    t = sim.telemetry()
    assert not menu.open
    assert t.target_velocity[:2] == (0.0, 0.0)  # the deflection used in the menu never flew
    sim.pad.left = (0.0, 0.0)  # released …
    sim.step()
    sim.pad.left = (0.0, -1.0)  # … then pushed again: now it is a flight input
    sim.step()
    assert math.hypot(*sim.telemetry().target_velocity[:2]) == pytest.approx(4.0)


def test_choosing_an_entry_with_a(make_sim):
    sim = armed(make_sim)
    tap(sim, "LB")
    menu = sim.app.resource(Menu)
    target = menu.ids().index("angle")
    for _ in range(target):
        sim.pad.left = (0.0, -1.0)
        sim.step()
        sim.pad.left = (0.0, 0.0)
        sim.step()
    assert menu.entries[menu.index].id == "angle"
    tap(sim, "A")
    assert not menu.open and sim.telemetry().mode == "angle"
