"""Mission pads (EDU): a level pad whose id is m1…m8 is one. After `mon` the state says which
pad is below and where the drone is from it; `go x y z speed mN` flies to a point of the pad's
frame (x along the pad's heading, y to its left, z up from its top)."""

from __future__ import annotations

import math
import socket
import time

from tests.tello.conftest import serving

LEVEL = """
format_version = 1
name = "Pads"
spawn_pad = "m3"

[ground]
size = [100.0, 100.0]

[[pads]]
id = "m3"
position = [4.0, 2.0]
size = [1.0, 1.0]
yaw_deg = 90.0
role = "start"
"""


def _ask(sock, address, text, timeout=20.0) -> str:
    sock.sendto(text.encode(), address)
    sock.settimeout(timeout)
    while True:
        reply = sock.recv(2048).decode()
        if not reply.startswith("mid:"):  # state datagrams come to the same port here
            return reply


def _state(sock) -> dict:
    sock.settimeout(1.0)
    while True:
        line = sock.recv(2048).decode()
        if line.startswith("mid:"):
            return dict(f.split(":", 1) for f in line.strip().split(";") if ":" in f)


def test_the_pad_below_and_a_go_in_its_frame(tmp_path):
    (tmp_path / "level.toml").write_text(LEVEL)
    with serving(str(tmp_path / "level.toml"), video=False) as (sim, server):
        endpoint = server.endpoints[0]
        sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        sock.bind(("127.0.0.1", 0))
        try:
            assert _ask(sock, endpoint.address, "command") == "ok"
            assert _ask(sock, endpoint.address, f"port {sock.getsockname()[1]} 11111") == "ok"
            assert _state(sock)["mid"] == "-2"  # detection off
            assert _ask(sock, endpoint.address, "go 50 0 100 50 m3") == "error Motor stop"
            assert _ask(sock, endpoint.address, "takeoff") == "ok"
            assert _ask(sock, endpoint.address, "mon") == "ok"
            time.sleep(0.3)
            state = _state(sock)
            assert state["mid"] == "3"
            assert abs(int(state["x"])) <= 5 and abs(int(state["y"])) <= 5  # over its centre (the take-off held it)
            assert 130 <= int(state["z"]) <= 170  # ~1.5 m above its top
            assert _ask(sock, endpoint.address, "go 50 0 100 50 m3") == "ok"
            # the pad's heading is 90°: its x is world +Y; its top is 0.05 m above the ground
            end = endpoint.finished[-1].end_position
            assert math.dist(end, (4.0, 2.5, 1.05)) < 0.05
            assert _ask(sock, endpoint.address, "go 0 0 100 50 m5") == "error"  # not that pad
            assert _ask(sock, endpoint.address, "moff") == "ok"
        finally:
            sock.close()
