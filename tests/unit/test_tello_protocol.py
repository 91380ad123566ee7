"""The Tello SDK's text protocol (game/tello/protocol.py): parsing never raises and never
answers rc; replies and the state datagram in the real drone's formats, read back by the
stock DJITelloPy parser."""

from __future__ import annotations

from djitellopy import Tello
from hypothesis import given, settings
from hypothesis import strategies as st

from game.tello import protocol
from game.tello.protocol import SILENT, Command, Reading, parse, read_reply, state_line


def test_commands_and_their_arguments():
    assert parse(b"command") == Command("command")
    assert parse(b"forward 50\r\n") == Command("forward", (50,))
    assert parse(b"cw 360") == Command("cw", (360,))
    assert parse(b"go 100 -50 0 30") == Command("go", (100, -50, 0, 30))
    assert parse(b"go 100 -50 0 30 m3") == Command("go", (100, -50, 0, 30), pad=3)
    assert parse(b"curve 50 50 0 100 0 0 30") == Command("curve", (50, 50, 0, 100, 0, 0, 30))
    assert parse(b"flip l") == Command("flip", ("l",))
    assert parse(b"speed 55.5") == Command("speed", (55.5,))
    assert parse(b"rc -100 0 50 100") == Command("rc", (-100, 0, 50, 100))
    assert parse(b"port 8890 11111") == Command("port", (8890, 11111))
    assert parse(b"battery?") == Command("battery?")


def test_the_real_error_strings():
    # distances 20–500 cm, turns 1–360°, speed 10–100 cm/s: outside is "out of range"
    assert parse(b"up 19") == "out of range"
    assert parse(b"up 501") == "out of range"
    assert parse(b"ccw 0") == "out of range"
    assert parse(b"speed 101") == "out of range"
    assert parse(b"go 10 10 10 50") == "out of range"  # x, y, z all within ±20
    assert parse(b"curve 0 0 0 0 0 0 61") == "out of range"  # a curve's speed is at most 60
    assert parse(b"up") == "error"
    assert parse(b"up fifty") == "error"
    assert parse(b"flip x") == "error"
    assert parse(b"") == "error"
    assert parse(b"dance 3") == "unknown command: dance"
    assert parse(b"\xff\xfe") == "error"  # not UTF-8
    assert parse(b"forward " + b"9" * 2000) == "error"  # longer than any command


def test_rc_emergency_and_reboot_are_never_answered():
    """DJITelloPy sends them without waiting: a reply would be taken as the next command's."""
    assert parse(b"rc 1 2 3") == SILENT
    assert parse(b"rc 1 2 3 101") == SILENT
    assert parse(b"rc a b c d") == SILENT
    assert isinstance(parse(b"emergency"), Command)
    assert parse(b"emergency now") == SILENT


@settings(max_examples=400, deadline=None)
@given(st.one_of(st.binary(max_size=3000), st.text(max_size=300).map(lambda s: s.encode("utf-8")),
                 st.lists(st.sampled_from(["rc", "go", "curve", "up", "cw", "flip", "speed", "m1", "-5", "99999",
                                           "1e9", "nan", "０", "٣", " ", "\t", "port", "jump"]),
                          max_size=9).map(lambda w: " ".join(w).encode("utf-8"))))
def test_fuzzed_datagrams_never_raise_and_rc_is_never_answered(data):
    result = parse(data)
    assert isinstance(result, (Command, str))
    if isinstance(result, str):
        assert result == SILENT or result.isprintable() and len(result) <= 60
    words = data.split()
    if words and words[0].lower() in (b"rc", b"emergency", b"reboot"):
        assert result == SILENT or isinstance(result, Command)
    if isinstance(result, Command) and result.verb == "rc":
        assert len(result.args) == 4 and all(-100 <= a <= 100 for a in result.args)


def test_the_state_datagram_reads_back_through_djitellopy():
    r = Reading(pitch=-3, roll=4, yaw=-170, vgx=12, vgy=-7, vgz=3, templ=60, temph=62, tof=83, h=71, bat=87,
                baro=12.345, time=11, agx=-5.0, agy=7.0, agz=-1001.5, mid=-1, mx=-100, my=-100, mz=-100)
    line = state_line(r)
    assert line.endswith(";\r\n")
    state = Tello.parse_state(line)
    assert state["mid"] == -1 and state["x"] == -100
    for name in ("pitch", "roll", "yaw", "vgx", "vgy", "vgz", "templ", "temph", "tof", "h", "bat", "time"):
        assert state[name] == getattr(r, name), name
        assert type(state[name]) is int
    assert state["baro"] == 12.35  # two decimals, as the drone sends
    assert (state["agx"], state["agy"], state["agz"]) == (-5.0, 7.0, -1001.5)


def test_read_replies_in_the_real_formats():
    r = Reading(bat=87, time=11, h=153, templ=85, temph=88, pitch=0, roll=-1, yaw=0, baro=-102.865509,
                agx=-5.0, agy=7.0, agz=-999.0, tof=88, speed=100.0)
    assert read_reply("battery?", r) == "87"
    assert read_reply("speed?", r) == "100.0"
    assert read_reply("time?", r) == "11s"
    assert read_reply("height?", r) == "15dm"
    assert read_reply("temp?", r) == "85~88C"
    assert read_reply("attitude?", r) == "pitch:0;roll:-1;yaw:0;"
    assert read_reply("acceleration?", r) == "agx:-5.00;agy:7.00;agz:-999.00;"
    assert read_reply("baro?", r) == "-102.865509"
    assert read_reply("tof?", r) == "880mm"
    assert read_reply("sdk?", r) == "30"
    assert len(read_reply("sn?", r)) == 14 == len(protocol.SERIAL_NUMBER)
