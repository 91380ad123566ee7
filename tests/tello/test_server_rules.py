"""The server's reply rules with raw UDP datagrams (no client library): one reply per command,
none for rc, nothing while a command runs but `stop`/`emergency`, never a crash; the idle
landing and `keepalive`; the flip refused below half a pack. (Fuzzed datagrams:
test_server_fuzz.py.)"""

from __future__ import annotations

import math
import os
import socket
import time

import pytest

from components.flight import Battery
from tests.tello.conftest import serving


class Client:
    """A bare SDK client: commands from one socket, state on another (moved there by `port`)."""

    def __init__(self, address) -> None:
        self.address = address
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(("127.0.0.1", 0))
        self.state = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.state.bind(("127.0.0.1", 0))
        self.state.setblocking(False)

    def send(self, text) -> None:
        self.sock.sendto(text if isinstance(text, bytes) else text.encode(), self.address)

    def replies(self, seconds: float, expect: int | None = None, settle: float = 0.4) -> list[str]:
        """Every reply arriving within `seconds`; with `expect`, returns `settle` s after that
        many came (what arrives meanwhile is in the list too)."""
        out, end = [], time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            if expect is not None and len(out) >= expect:
                end = min(end, time.monotonic() + settle)
                expect = None
                continue
            self.sock.settimeout(left)
            try:
                out.append(self.sock.recv(2048).decode())
            except socket.timeout:
                break
        return out

    def ask(self, text, timeout: float = 20.0) -> str:
        self.send(text)
        self.sock.settimeout(timeout)
        return self.sock.recv(2048).decode()

    def latest_state(self) -> dict:
        line = None
        while True:
            try:
                line = self.state.recv(2048).decode()
            except BlockingIOError:
                break
        assert line is not None, "no state datagram"
        return dict(f.split(":", 1) for f in line.strip().split(";") if ":" in f)

    def close(self) -> None:
        self.sock.close()
        self.state.close()


IDLE_S = 2.5  # the idle landing, shortened from 15 s (the waits below stay under it)


@pytest.fixture(scope="module")
def served():
    with serving("street", video=False, idle_landing_s=IDLE_S) as (sim, server):
        client = Client(server.endpoints[0].address)
        assert client.ask("command") == "ok"
        assert client.ask(f"port {client.state.getsockname()[1]} 11111") == "ok"
        yield sim, server, client
        client.close()


def test_only_the_command_in_progress_is_answered(served):
    _, server, client = served
    client.send("takeoff")
    time.sleep(0.2)
    client.send("battery?")  # arrives while taking off: dropped, no reply of its own
    client.send("rc 0 50 0 0")  # ignored while a command runs
    assert client.replies(10.0, expect=1) == ["ok"]
    # DJITelloPy's retry: the same move sent again while it runs gets the one reply
    client.send("forward 100")
    client.send("forward 100")
    assert client.replies(10.0, expect=1) == ["ok"]
    record = server.endpoints[0].finished[-1]
    assert abs(math.dist(record.end_position, record.start_position) - 1.0) < 0.05  # flown once, not twice


def test_stop_ends_a_move_with_one_reply_and_hovers(served):
    _, server, client = served
    client.send("speed 50")
    assert client.replies(2.0, expect=1) == ["ok"]
    client.send("back 300")
    time.sleep(1.0)
    client.send("stop")
    assert client.replies(3.0, expect=1, settle=1.2) == ["ok"]  # one reply for the pair, nothing later
    time.sleep(0.3)
    state = client.latest_state()
    assert abs(int(state["vgx"])) < 15 and abs(int(state["vgy"])) < 15
    assert client.ask("speed 100") == "ok"


def test_rc_and_garbage_never_desynchronise_the_replies(served):
    _, _, client = served
    for sticks in ("0 0 0 0", "1 2 3", "200 0 0 0", "a b c d", "0 0 0 0 0"):
        client.send(f"rc {sticks}")
    assert client.replies(0.5) == []
    junk = [os.urandom(n) for n in (1, 7, 50, 400, 1500)] + ["élan 3".encode(), "🚁 up 50".encode(), b"up   ", b"\x00"]
    for datagram in junk:
        client.send(datagram)
    replies = client.replies(3.0, expect=len(junk))
    assert len(replies) == len(junk)  # one answer each, all errors
    assert all(r == "error" or r.startswith("unknown command: ") or r == "out of range" for r in replies), replies
    assert client.ask("battery?").isdigit()  # the next command gets its own answer


def test_flip_is_refused_below_half_a_pack(served):
    sim, _, client = served
    battery = sim.components(Battery)[0]
    full = battery.energy_j
    battery.energy_j = 0.45 * battery.capacity_j
    try:
        assert client.ask("flip l") == "error"
    finally:
        battery.energy_j = full


def test_keepalive_holds_then_silence_lands(served):
    sim, _, client = served
    for _ in range(3):  # keepalives for longer than the idle landing's delay
        assert client.ask("keepalive") == "ok"
        time.sleep(0.8 * IDLE_S)
    assert int(client.latest_state()["h"]) > 100  # still flying
    # then nothing: after IDLE_S the landing assist, at most 0.7 m/s from ~1.5 m, slower near
    # the ground, ends with the motors cut on the ground
    deadline = time.monotonic() + IDLE_S + 8.0
    while sim.telemetry().motor_power > 0.0 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert sim.telemetry().motor_power == 0.0
    time.sleep(0.2)
    assert int(client.latest_state()["tof"]) < 20  # on the street
    assert client.ask("up 50") == "error Motor stop"


