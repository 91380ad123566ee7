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


def move_to(sim, key):
    """Down the rows the menu shows until the cursor is on `key`."""
    menu = sim.app.resource(Menu)
    for _ in range(len(menu.rows())):
        if menu.rows()[menu.index].key == key:
            return
        sim.pad.left = (0.0, -1.0)
        sim.step()
        sim.pad.left = (0.0, 0.0)
        sim.step()
    assert menu.rows()[menu.index].key == key


def test_choosing_an_entry_with_a(make_sim):
    sim = armed(make_sim)
    tap(sim, "LB")
    menu = sim.app.resource(Menu)
    move_to(sim, "laboratory")
    tap(sim, "A")  # opens the group
    assert menu.open and menu.group == "laboratory"
    move_to(sim, "angle")
    tap(sim, "A")
    assert not menu.open and sim.telemetry().mode == "angle"


def test_the_menu_opens_on_its_groups(make_sim):
    """Not one list of 15: the groups (a group of one entry shows that entry), each opening on
    its own entries; B goes back to the groups, B again closes."""
    sim = make_sim()
    menu = sim.app.resource(Menu)
    tap(sim, "LB")
    top = [(r.kind, r.key) for r in menu.rows()]
    assert top == [("entry", "manual"), ("group", "assists"), ("entry", "restart"), ("group", "laboratory"),
                   ("group", "weather"), ("group", "air"), ("entry", "course:street-run")]  # its one course
    assert len(menu.entries) > 2 * len(top)  # the street's weather and air presets make the long list
    for kind, key in top:
        if kind == "group":
            menu.index = top.index((kind, key))
            tap(sim, "A")
            assert [r.key for r in menu.rows()] == [e.id for e in menu.entries if e.group == key]
            tap(sim, "B")
            assert menu.open and menu.group is None and menu.index == top.index((kind, key))
    tap(sim, "B")
    assert not menu.open


def test_lb_closes_from_inside_a_group_and_the_menu_reopens_on_the_groups(make_sim):
    sim = make_sim()
    menu = sim.app.resource(Menu)
    tap(sim, "LB")
    move_to(sim, "weather")
    tap(sim, "A")
    assert menu.group == "weather"
    tap(sim, "LB")
    assert not menu.open
    tap(sim, "LB")
    assert menu.open and menu.group is None and menu.index == 0


def test_restart_from_the_menu_asks_for_confirmation(make_sim):
    sim = armed(make_sim)
    menu = sim.app.resource(Menu)
    tap(sim, "LB")
    move_to(sim, "restart")
    tap(sim, "A")  # asks: nothing restarted yet
    assert menu.open and menu.confirming == "restart"
    assert [(r.kind, r.key) for r in menu.rows()] == [("confirm", "restart"), ("cancel", "")]
    assert sim.telemetry().armed and sim.telemetry().motor_power > 0.0
    move_to(sim, "")  # Cancel: back to the groups, still flying
    tap(sim, "A")
    assert menu.open and menu.confirming is None and sim.telemetry().armed
    assert menu.rows()[menu.index].key == "restart"
    tap(sim, "A")
    tap(sim, "B")  # B cancels too
    assert menu.open and menu.confirming is None and sim.telemetry().armed
    tap(sim, "A")
    tap(sim, "A")  # confirmed
    t = sim.telemetry()
    # back on the spawn point, then the rest of that frame's fall at MotorPower 0: ½ g (1/60 s)²
    assert not menu.open and not t.armed and t.motor_power == 0.0
    assert t.position == pytest.approx((0.0, 0.0, 50.0 - 0.5 * 9.80665 / 60 ** 2), abs=1e-4)


def test_the_back_button_and_select_restart_at_once(make_sim):
    for restart in (lambda sim: tap(sim, "BACK"), lambda sim: sim.select("restart")):
        sim = armed(make_sim)
        restart(sim)
        t = sim.telemetry()
        assert not sim.app.resource(Menu).open and not t.armed and t.motor_power == 0.0
        assert t.position == pytest.approx((0.0, 0.0, 50.0), abs=0.5 * 9.80665 / 60 ** 2 + 1e-6)


def test_select_still_takes_every_entry_id(make_sim):
    sim = make_sim()
    menu = sim.app.resource(Menu)
    for entry_id in menu.ids():
        sim.select(entry_id)
        assert not menu.open
