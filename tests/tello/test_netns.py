"""The network-namespace recipe: `scripts/tello-netns.sh up` runs Donify as 192.168.10.1 and an
UNMODIFIED DJITelloPy script (default host, ports 8889/8890 of its own) flies it.

It needs root (CI runs as root): without it, the test checks instead that the script refuses
in one line. The client runs in its own process, since DJITelloPy binds *:8889 and *:8890 for
its process's lifetime (this module runs before the ones that fly DJITelloPy in-process).
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

from tests.tello.conftest import Lines

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "tello-netns.sh"
NAMESPACE = "donify-test"

UNMODIFIED = """
from djitellopy import Tello
tello = Tello()
tello.connect()
print("battery", tello.get_battery(), flush=True)
tello.takeoff()
print("height", tello.get_height(), flush=True)
tello.land()
print("landed", flush=True)
"""


def _script(*args, **kwargs):
    env = dict(os.environ, DONIFY_NETNS=NAMESPACE, DONIFY=f"{sys.executable} -m game.cli", PYTHONPATH=str(ROOT))
    return subprocess.run(["sh", str(SCRIPT), *args], env=env, capture_output=True, text=True, timeout=60, **kwargs)


def _root_with_netns() -> bool:
    """Root, the ip command, and the right to make a namespace (a container may refuse it)."""
    if os.geteuid() != 0 or shutil.which("ip") is None:
        return False
    probe = "donify-probe"
    if subprocess.run(["ip", "netns", "add", probe], capture_output=True).returncode != 0:
        return False
    subprocess.run(["ip", "netns", "del", probe], capture_output=True)
    return True


def test_the_script_refuses_bad_usage_in_one_line():
    result = _script("sideways")
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1 and "expected 'up' or 'down'" in result.stderr
    if os.geteuid() != 0:
        result = _script("up")
        assert result.returncode == 2 and "needs root" in result.stderr


def test_an_unmodified_script_flies_donify_in_the_namespace():
    if not _root_with_netns():
        result = _script("up")  # what a user without root sees: one line, no namespace
        assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1
        return
    env = dict(os.environ, DONIFY_NETNS=NAMESPACE, DONIFY=f"{sys.executable} -m game.cli", PYTHONPATH=str(ROOT))
    env.pop("SUDO_USER", None)
    donify = subprocess.Popen(["sh", str(SCRIPT), "up", "--headless", "--no-video"], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
    try:
        Lines(donify.stdout).wait_for("listens on udp 192.168.10.1:8889", donify, 90.0)
        client = subprocess.run([sys.executable, "-c", UNMODIFIED], capture_output=True, text=True, timeout=90,
                                cwd="/")
        assert client.returncode == 0, client.stderr[-2000:]
        lines = client.stdout.splitlines()
        assert lines[0] == "battery 100"
        assert 120 <= int(lines[1].split()[1]) <= 170  # ~1.5 m after the take-off
        assert lines[2] == "landed"
    finally:
        donify.send_signal(signal.SIGINT)
        try:
            donify.wait(10)
        except subprocess.TimeoutExpired:
            donify.kill()
            donify.wait()
        down = _script("down")
        assert down.returncode == 0, down.stderr
    assert NAMESPACE not in subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
