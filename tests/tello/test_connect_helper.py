"""The third way: `use_donify()` before the first `Tello()`, then the script unchanged — DJITelloPy
sends from a free port to Donify's endpoint, which answers that port."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.tello.conftest import serving

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import sys
from game.tello.connect import use_donify
use_donify(port=int(sys.argv[1]))

from djitellopy import Tello     # from here on, the script as written for a real Tello
tello = Tello()
tello.connect()
print(tello.get_battery())
tello.send_keepalive()           # a control command: its "ok" reaches the free port
print(tello.query_battery())
"""


def test_use_donify_then_an_unchanged_script():
    with serving("street", video=False) as (_sim, server):
        port = server.endpoints[0].address[1]
        client = subprocess.run([sys.executable, "-c", SCRIPT, str(port)], cwd=ROOT, capture_output=True, text=True,
                                timeout=60)
        assert client.returncode == 0, client.stderr[-2000:]
        assert client.stdout.split() == ["100", "100"]  # from the state, then from a read command
        assert server.endpoints[0].received == 3  # command, keepalive, battery?


def test_use_donify_after_a_tello_says_so():
    script = ("from djitellopy import tello as t\nt.threads_initialized = True\n"
              "from game.tello.connect import use_donify\n"
              "try:\n    use_donify()\nexcept RuntimeError as e:\n    print(e)\n")
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert "call it before the first Tello()" in out.stdout
