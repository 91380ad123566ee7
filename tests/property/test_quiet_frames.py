"""Manual flight skips a frame that repeats the last one (flight/control/manual.py): the same
command objects, no trigger, no press, the setpoints as it left them. Skipping must change
nothing, ever: the same random flights — every button, menu entries, Restart, any frame
length, and outside writes to the setpoints or the manual state as a mod or a crash would do
them — flown with the skip and without give the same telemetry and setpoints, bit for bit,
every frame."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import HealthCheck, given, note, settings, strategies as st

from components.flight import Controller, RigidBody
from flight.control.manual import ManualFlight
from game.simulation import Simulation
from systems.menu import Menu
from tests.property.test_random_flights import LEVELS, _apply, spawns, step

# what a mod, a crash stop or an assist hand-back may do to the setpoints between two frames
outside = st.one_of(
    st.tuples(st.just("write_velocity"), st.tuples(st.floats(-8, 8), st.floats(-8, 8))),
    st.tuples(st.just("motor_power"), st.sampled_from([0.0, 0.3, 1.0])),
    st.tuples(st.just("yaw_rate"), st.floats(-2, 2)),
    st.tuples(st.just("hold_position"), st.sampled_from([None, (1.0, 2.0)])),
    st.tuples(st.just("clear"), st.none()),
    st.tuples(st.just("resume"), st.none()),
)
outside_step = st.tuples(outside, st.lists(st.sampled_from([1 / 60, 1 / 144, 0.03]), min_size=1, max_size=20))
flight_step = st.one_of(step, outside_step, outside_step)  # outside writes twice as likely as a pad action


def _outside(sim: Simulation, act) -> bool:
    kind, arg = act
    (ctrl,) = sim.components(Controller)
    if kind == "write_velocity":
        ctrl.target_velocity[0], ctrl.target_velocity[1] = arg
    elif kind == "motor_power":
        ctrl.motor_power = arg
    elif kind == "yaw_rate":
        ctrl.target_yaw_rate = arg
    elif kind == "hold_position":
        ctrl.hold_position = arg
    elif kind == "clear":
        ctrl.loops.manual.clear()
    elif kind == "resume":
        (body,) = sim.components(RigidBody)
        ctrl.loops.manual.resume(ctrl, body)
    else:
        return False
    return True


@contextlib.contextmanager
def full_updates():
    """ManualFlight never notes a settled frame: every update in full."""
    real = ManualFlight._settle

    def never(self, ctrl, cmd):
        self._settled = None

    ManualFlight._settle = never
    try:
        yield
    finally:
        ManualFlight._settle = real


def _fly(level_name, spawn, arm_s, stick, steps) -> list[dict]:
    sim = Simulation(level_name, position=spawn)  # level None: the empty lab world
    try:
        sim.pad.rt = 1.0
        sim.run(arm_s)
        sim.pad.rt = 0.0
        sim.pad.left = stick  # most flights cruise: the skipped frames are a held stick's
        menu_ids = sim.app.resource(Menu).ids()
        log = []
        for act, frames in steps:
            if not _outside(sim, act):
                _apply(sim, menu_ids, act)
            for dt in frames:
                sim.step(dt)
                (ctrl,) = sim.components(Controller)  # and every setpoint, the hover point too
                log.append({**sim.telemetry().as_dict(), "targets": ctrl.targets.tobytes()})
        return log
    finally:
        sim.close()


@settings(max_examples=60, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_skipping_a_repeated_frame_changes_nothing(data):
    level_name = data.draw(st.sampled_from(sorted(LEVELS)), label="level")
    spawn = data.draw(spawns(level_name), label="spawn")
    arm_s = data.draw(st.sampled_from([0.0, 1.0, 2.0]), label="arm_s")
    stick = data.draw(st.sampled_from([(0.0, 1.0), (-0.7, 0.7), (0.0, 0.0)]), label="stick")
    steps = data.draw(st.lists(flight_step, min_size=1, max_size=20), label="steps")
    with_skip = _fly(level_name, spawn, arm_s, stick, steps)
    with full_updates():
        in_full = _fly(level_name, spawn, arm_s, stick, steps)
    assert len(with_skip) == len(in_full)
    for frame, (a, b) in enumerate(zip(with_skip, in_full)):
        if a != b:
            note(f"frame {frame}: " + ", ".join(f"{k}: {a[k]!r} vs {b[k]!r}" for k in a if a[k] != b[k]))
        assert a == b, frame


@pytest.mark.parametrize("stop", ["brake", "clear"])
def test_braking_to_a_hover_point_is_the_same_with_the_skip(stop):
    """LS (or the manual state cleared, as an SDK hand-back does) in a cruise: no direction,
    the drone still fast; the hover point is taken once it has slowed, frames later, however
    quiet the command."""
    cruise = (("left", (0.0, 1.0)), [1 / 60] * 120)  # on the way to 8 m/s
    release = (("left", (0.0, 0.0)), [1 / 60])  # neutral keeps the direction
    steps = [cruise, release, (("tap", "LS") if stop == "brake" else ("clear", None), [1 / 60] * 240)]
    with_skip = _fly(None, (0.0, 0.0, 50.0), 2.0, (0.0, 0.0), steps)
    with full_updates():
        in_full = _fly(None, (0.0, 0.0, 50.0), 2.0, (0.0, 0.0), steps)
    assert with_skip == in_full
    assert with_skip[119]["velocity"][0] > 5.0 and abs(with_skip[-1]["velocity"][0]) < 0.1  # cruised, then stopped
    assert with_skip[-1]["targets"] != with_skip[122]["targets"]  # the hover point was taken meanwhile


def test_the_skip_happens_in_a_cruise():
    """Not a test that cannot fail: in a steady cruise the update is in fact skipped."""
    calls = []
    real = ManualFlight._update

    def counting(self, *args):
        calls.append(1)
        return real(self, *args)

    sim = Simulation(level=None, position=(0.0, 0.0, 50.0))
    try:
        ManualFlight._update = counting
        sim.pad.rt = 1.0
        sim.run(1.0)
        sim.pad.rt = 0.0
        sim.pad.left = (0.0, 1.0)
        sim.run(1.0)  # the stick held: a direction chosen, then the same frame again and again
        before = len(calls)
        sim.run(2.0)
        cruising = len(calls) - before
        assert cruising <= 1  # 120 frames, at most the first in full
        sim.pad.left = (0.0, 0.0)
        sim.step()
        assert len(calls) - before - cruising == 1  # a new command: in full again
    finally:
        ManualFlight._update = real
        sim.close()

