"""A display that is named but unusable: `DISPLAY` pointing at no X server (a stale `ssh -X`,
WSL without X, a container), or only `WAYLAND_DISPLAY`. `donify play` says so in one line and
flies the headless demo; `donify screenshot` draws headless through EGL. Neither may show
pyglet's NoSuchDisplayException traceback (pyglet opens the display on import).

The commands run in a subprocess with PYGLET_HEADLESS unset, as a user would start them.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from game.display import NO_DISPLAY, display_problem

ROOT = Path(__file__).resolve().parents[2]


def no_x_server_at(display: str) -> bool:
    return not Path(f"/tmp/.X11-unix/X{display.lstrip(':').split('.')[0]}").exists()


NO_SERVER = next(f":{n}" for n in range(99, 1000) if no_x_server_at(f":{n}"))  # a display nobody serves


def user_env(**changes) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYGLET_HEADLESS", "DISPLAY", "WAYLAND_DISPLAY")}
    env.update(changes)
    return env


def donify(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "game.cli", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=600)


def test_what_counts_as_no_display():
    assert display_problem({}) == NO_DISPLAY
    assert display_problem({"PYGLET_HEADLESS": "1", "DISPLAY": ":0"}) == NO_DISPLAY
    wayland = display_problem({"WAYLAND_DISPLAY": "wayland-0"})
    assert wayland is not None and "Wayland" in wayland


def test_a_display_with_no_server_behind_it_is_found_unusable_quickly():
    import time

    start = time.monotonic()
    assert display_problem({"DISPLAY": NO_SERVER}) == f"cannot connect to the X display '{NO_SERVER}'"
    assert time.monotonic() - start < 2.0


def test_play_says_so_in_one_line_and_flies_the_demo():
    run = donify("play", env=user_env(DISPLAY=NO_SERVER))
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stdout + run.stderr
    assert "NoSuchDisplayException" not in run.stdout + run.stderr
    out = run.stdout.splitlines()
    assert out[0] == (f"donify: cannot connect to the X display '{NO_SERVER}': "
                      "running the headless demo flight instead of the window")
    assert out[1].startswith("Donify demo flight — level 'street'")
    assert any(line.strip().startswith("landed") for line in out)


def test_play_with_only_a_wayland_display_flies_the_demo():
    run = donify("play", env=user_env(WAYLAND_DISPLAY="wayland-0"))
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stdout + run.stderr
    out = run.stdout.splitlines()
    assert "Wayland" in out[0] and out[0].endswith("running the headless demo flight instead of the window")
    assert out[1].startswith("Donify demo flight")


def test_screenshot_draws_headless(tmp_path):
    from PIL import Image

    target = tmp_path / "x.png"
    run = donify("screenshot", "-o", str(target), "--size", "320x240", "--seconds", "0.5",
                 env=user_env(DISPLAY=NO_SERVER))
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stdout + run.stderr
    assert run.stdout.strip().splitlines()[-1].startswith(f"donify: screenshot saved to {target}")
    pixels = np.asarray(Image.open(target))
    assert pixels.shape[:2] == (240, 320) and pixels[..., :3].std() > 10.0  # a picture, not a blank
