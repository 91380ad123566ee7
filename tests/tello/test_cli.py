"""`donify tello`: where it listens and how to connect, said at start; bad arguments in one
line and exit 2."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from game.cli import main
from tests.tello.conftest import Lines, free_port

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("arguments, expected", [
    (["--port", "abc"], "tello: --port: expected a whole number, got 'abc'"),
    (["--port", "70000"], "tello: --port: expected a UDP port 1–65535, got 70000"),
    (["--drones", "two"], "tello: --drones: expected a whole number, got 'two'"),
    (["--drones", "0"], "tello: --drones: expected 1 to 16, got 0"),
    (["--host", "drone.local"], "tello: --host: expected an IPv4 address such as 127.0.0.1, got 'drone.local'"),
    (["--drones", "6", "--level", "street", "--no-video"],
     "tello: --drones: expected at most 5 in level 'The street' (one on each of its start places), got 6"),
    (["--drones", "4", "--level", "field", "--no-video"],
     "tello: --drones: expected at most 3 in level 'The field' (one on each of its start places), got 4"),
])
def test_bad_arguments_are_one_line_and_exit_2(capsys, arguments, expected):
    assert main(["tello", "--headless", *arguments]) == 2
    err = capsys.readouterr().err
    assert err.strip() == f"donify: {expected}"


def test_a_taken_port_is_named_in_one_line(capsys):
    taken = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    taken.bind(("127.0.0.1", 0))
    port = taken.getsockname()[1]
    try:
        assert main(["tello", "--headless", "--no-video", "--port", str(port)]) == 2
    finally:
        taken.close()
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert f"cannot listen on udp 127.0.0.1:{port}: the port is taken" in err


def test_it_says_where_it_listens_and_how_to_connect():
    port = free_port(span=2)
    server = subprocess.Popen([sys.executable, "-m", "game.cli", "tello", "--headless", "--no-video", "--level",
                               "street", "--port", str(port), "--drones", "1"],
                              cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        lines = Lines(server.stdout).wait_for("Ctrl-C", server, 60.0)
        assert (f"donify tello: drone 1 listens on udp 127.0.0.1:{port} — in a script: "
                f"t = Tello('127.0.0.1'); t.address = ('127.0.0.1', {port})\n") in lines
        client = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        client.settimeout(5.0)
        client.sendto(b"battery?", ("127.0.0.1", port))
        assert client.recv(64) == b"100"
        client.close()
    finally:
        server.send_signal(signal.SIGINT)
        try:
            assert server.wait(15) == 0
        finally:
            if server.poll() is None:
                server.kill()
                server.wait()


def test_an_address_this_machine_lacks_is_named_in_one_line(capsys):
    assert main(["tello", "--headless", "--no-video", "--host", "192.0.2.77"]) == 2  # TEST-NET-1: nobody's
    err = capsys.readouterr().err.strip()
    assert err == ("donify: tello: cannot listen on udp 192.0.2.77:8889: "
                   "no interface of this machine has the address 192.0.2.77")
