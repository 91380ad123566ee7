"""The stock DJITelloPy flies Donify over the Tello SDK on loopback, with the one documented
line (`t.address = ("127.0.0.1", port)`). One server for the module, in real time; the tests
run in file order, as a script would: connect, read, take off, move, turn, land, emergency.

Each move is checked against the target computed here from the pose the drone had when the
command arrived (the body frame of that moment: x forward, y left, z up), within the SDK's
5 cm. The server's records (`Endpoint.finished`) give the pose at the start and at the reply.
"""

from __future__ import annotations

import logging
import math
import time

import pytest
from djitellopy import Tello, TelloException

from flight.sdk_moves import ARRIVED_M
from tests.tello.conftest import serving

Tello.LOGGER.setLevel(logging.WARNING)


@pytest.fixture(scope="module")
def drone():
    with serving("street", video=True) as (sim, server):
        endpoint = server.endpoints[0]
        tello = Tello("127.0.0.1")
        tello.address = endpoint.address  # the one line
        tello.connect()
        yield tello, endpoint
        tello.end()


def _last(endpoint, verb):
    record = endpoint.finished[-1]
    assert record.verb == verb
    return record


def _expected(record, forward=0.0, left=0.0, up=0.0):
    h = record.start_heading
    x, y, z = record.start_position
    return (x + forward * math.cos(h) - left * math.sin(h), y + forward * math.sin(h) + left * math.cos(h), z + up)


def test_connect_gives_state_at_once_and_the_battery(drone):
    tello, _ = drone
    assert tello.get_current_state()  # connect() itself waited at most 1 s for it
    assert tello.get_battery() == 100  # a full pack
    assert tello.query_battery() == 100
    assert tello.get_height() == 0 and tello.get_flight_time() == 0


def test_state_arrives_at_10_hz(drone, monkeypatch):
    tello, _ = drone
    seen = []
    original = Tello.parse_state
    monkeypatch.setattr(Tello, "parse_state", staticmethod(lambda text: seen.append(time.monotonic()) or original(text)))
    time.sleep(2.0)
    rate = (len(seen) - 1) / (seen[-1] - seen[0])
    assert 8.0 <= rate <= 12.0, rate


def test_takeoff_answers_once_flying(drone):
    tello, endpoint = drone
    tello.takeoff()
    record = _last(endpoint, "takeoff")
    # the take-off assist aims 1.5 m above the support (the centre of mass), settled within 10 cm
    assert 120 <= tello.get_height() <= 170
    assert tello.get_state_field("tof") > 100
    assert record.reply == "ok"


@pytest.mark.parametrize("command, forward, left, up", [
    ("up 40", 0.0, 0.0, 0.40), ("down 30", 0.0, 0.0, -0.30), ("forward 50", 0.50, 0.0, 0.0),
    ("back 30", -0.30, 0.0, 0.0), ("left 40", 0.0, 0.40, 0.0), ("right 40", 0.0, -0.40, 0.0),
])
def test_each_move_ends_within_5_cm_of_its_target(drone, command, forward, left, up):
    tello, endpoint = drone
    tello.send_control_command(command)
    record = _last(endpoint, command.split()[0])
    error = math.dist(record.end_position, _expected(record, forward, left, up))
    print(f"{command}: position error {error * 100:.1f} cm, first motion after {record.latency_s * 1000:.0f} ms, "
          f"answered after {record.duration_s:.2f} s")
    assert error < ARRIVED_M
    # the first motion within a few tenths of a second: the carrot ramps at 1 m/s² and the tilt
    # follows an acceleration in about 1/attitude_gain = 0.14 s
    assert record.latency_s is not None and record.latency_s < 0.5


def test_speed_sets_the_moves_speed(drone):
    tello, endpoint = drone
    tello.set_speed(25)
    assert tello.send_read_command("speed?") == "25.0"
    tello.move_forward(50)
    record = _last(endpoint, "forward")
    # at 0.25 m/s with a 1 m/s² ramp the 0.5 m take at least d/v + v/a = 2.25 s
    assert record.duration_s > 0.5 / 0.25 + 0.25 - 0.05
    assert math.dist(record.end_position, _expected(record, forward=0.5)) < ARRIVED_M
    tello.set_speed(100)


@pytest.mark.parametrize("command, turn_deg", [("cw 90", -90.0), ("ccw 45", 45.0)])
def test_turns_in_place(drone, command, turn_deg):
    tello, endpoint = drone
    yaw_before = tello.get_yaw()
    tello.send_control_command(command)
    record = _last(endpoint, command.split()[0])
    turned = math.degrees(math.remainder(record.end_heading - record.start_heading, 2 * math.pi))
    print(f"{command}: heading error {abs(turned - turn_deg):.1f}°, first motion after {record.latency_s * 1000:.0f} ms")
    assert abs(turned - turn_deg) < 3.0
    assert math.dist(record.end_position, record.start_position) < 0.10  # in place
    time.sleep(0.25)  # a fresh state datagram: yaw is clockwise in the SDK
    assert abs(math.remainder(tello.get_yaw() - yaw_before + turn_deg, 360.0)) < 4.0


def test_go_flies_the_body_frame_offset(drone):
    tello, endpoint = drone
    tello.go_xyz_speed(60, -40, 20, 60)
    record = _last(endpoint, "go")
    error = math.dist(record.end_position, _expected(record, 0.6, -0.4, 0.2))
    print(f"go 60 -40 20 60: position error {error * 100:.1f} cm, first motion after {record.latency_s * 1000:.0f} ms")
    assert error < ARRIVED_M


def test_curve_follows_the_arc_to_its_end(drone):
    tello, endpoint = drone
    tello.curve_xyz_speed(50, 50, 0, 100, 0, 0, 60)
    record = _last(endpoint, "curve")
    error = math.dist(record.end_position, _expected(record, 1.0, 0.0, 0.0))
    print(f"curve 50 50 0 100 0 0 60: position error {error * 100:.1f} cm, first motion after {record.latency_s * 1000:.0f} ms")
    assert error < ARRIVED_M
    with pytest.raises(TelloException):  # three points on a line: no arc
        tello.curve_xyz_speed(50, 0, 0, 100, 0, 0, 40)


def test_a_retry_while_moving_gets_the_one_reply_and_the_queue_stays_in_step(drone):
    """DJITelloPy resends a command it got no answer for in time (7 s; 2 s here, so the 2 m
    move at 1 m/s — about 3.5 s — outlasts one wait): the resent copy is dropped, the move's
    single reply answers it, and the next command gets its own answer."""
    tello, endpoint = drone
    sent_before = endpoint.received
    assert tello.send_control_command("back 200", timeout=2) is True
    assert endpoint.received - sent_before == 2  # the command and its retry
    record = _last(endpoint, "back")
    assert math.dist(record.end_position, _expected(record, forward=-2.0)) < ARRIVED_M  # flown once
    assert tello.send_read_command("speed?") == "100.0"  # not a late "ok"
    assert tello.get_own_udp_object()["responses"] == []


def test_rc_for_a_second_is_never_answered(drone):
    tello, endpoint = drone
    responses = tello.get_own_udp_object()["responses"]
    start = time.monotonic()
    speeds = []
    while time.monotonic() - start < 1.0:
        tello.send_rc_control(0, 30, 0, 0)  # forward at 30 % of 8 m/s
        time.sleep(0.1)
        speeds.append(tello.get_speed_x())
    tello.send_rc_control(0, 0, 0, 0)
    time.sleep(0.3)
    assert responses == []  # no stray reply waits in the queue …
    assert tello.query_battery() <= 100  # … so the next command gets its own answer
    assert max(speeds) > 100  # cm/s forward: it flew


def test_queries_answer_in_the_real_formats(drone):
    tello, _ = drone
    import re

    formats = {"speed?": r"\d+\.\d", "time?": r"\d+s", "height?": r"\d+dm", "temp?": r"\d+~\d+C",
               "attitude?": r"pitch:-?\d+;roll:-?\d+;yaw:-?\d+;", "baro?": r"-?\d+\.\d+",
               "acceleration?": r"agx:-?\d+\.\d\d;agy:-?\d+\.\d\d;agz:-?\d+\.\d\d;", "tof?": r"\d+mm",
               "wifi?": r"\d+", "sdk?": r"\d+", "sn?": r"[0-9A-Z]{14}", "battery?": r"\d+"}
    for command, pattern in formats.items():
        reply = tello.send_read_command(command)
        assert re.fullmatch(pattern, reply), (command, reply)
    assert set(tello.query_attitude()) == {"pitch", "roll", "yaw"}
    assert 1.2 < tello.query_distance_tof() / 100 < 3.0  # m above the street, from the tof sensor
    agz = float(tello.send_read_command("acceleration?").split("agz:")[1].rstrip(";"))
    assert abs(agz + 1000.0) < 30.0  # hovering: 1 g up, in 0.001 g, z down


def test_unknown_and_invalid_commands_get_the_real_errors(drone):
    tello, _ = drone
    assert tello.send_command_with_return("dance") == "unknown command: dance"
    assert tello.send_command_with_return("forward 900") == "out of range"
    assert tello.send_command_with_return("flip q") == "error"
    assert tello.query_battery() <= 100  # still in step


def test_flip_under_the_rate_controller(drone):
    tello, endpoint = drone
    tello.move_up(60)
    tello.flip_forward()
    record = _last(endpoint, "flip")
    assert record.reply == "ok"
    assert abs(record.end_position[2] - record.start_position[2]) < 0.3


def test_streamon_sends_frames_djitellopy_decodes(drone):
    tello, _ = drone
    tello.streamon()
    reader = tello.get_frame_read()
    start = time.monotonic()
    frames = []
    while time.monotonic() - start < 6.0 and len(frames) < 2:
        frame = reader.frame
        if frame is not None and frame.any() and (not frames or (frame != frames[-1]).any()):
            frames.append(frame.copy())
        time.sleep(0.05)
    reader.stop()
    tello.streamoff()
    assert frames and frames[0].shape == (720, 960, 3)


def test_land_answers_on_the_ground(drone):
    tello, endpoint = drone
    tello.land()
    assert _last(endpoint, "land").reply == "ok"
    time.sleep(0.25)
    assert tello.get_state_field("tof") < 20  # on the street: the sensor reads ~10 cm
    with pytest.raises(TelloException):  # motors off: moves are refused
        tello.move_up(50)


def test_emergency_cuts_the_motors_at_once(drone):
    tello, endpoint = drone
    tello.takeoff()
    assert tello.get_height() > 100
    tello.emergency()  # no reply is waited for, none comes
    # falling freely from ~1.5 m takes √(2 × 1.5 / 9.81) ≈ 0.55 s; the landing assist, descending
    # at most 0.7 m/s, would need more than 2 s: down within 1.2 s is the motors cut
    time.sleep(1.2)
    assert tello.get_height() < 20
    assert tello.get_own_udp_object()["responses"] == []
    assert tello.send_command_with_return("up 50") == "error Motor stop"
