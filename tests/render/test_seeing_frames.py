"""Real frames (headless) of what helps the player see: the landing aid, the chase camera near
the ground, rain's darker sky, the trail's ribbon, the route only while a mission flies, the
loading screen, and the window's multisampling."""

from __future__ import annotations

import math
import os
import subprocess
import sys
import time

import numpy as np
import pytest
from hypothesis import given, settings as hyp_settings, strategies as st
from pyglet import gl

from components.flight import Controller, RigidBody
from components.world import Trail
from game.render.camera import GROUND_VIEW_TAU_S
from game.render.level_model import rgb
from game.render.loading import BAR_COLOUR, LoadingScreen, run_with_loading_screen
from game.render.passes.landing_aid import AID_COLOUR, RING_INNER, RING_MIN_PX, ring_radius_m
from game.render.passes.trail import TRAIL_WIDTH_PX
from game.render import text
from game.render.rain_light import rain_lighting
import game.window as window_module
from game.window import is_software_renderer
from systems.assists import AssistState
from world.level import ActiveLevel

FRAME_S = 1.0 / 60.0
X, Y = 5.0, 0.0  # over the street, clear of the start pad's markings


def hold(game, z: float, frames: int, x: float = X, y: float = Y, vz: float = 0.0) -> None:
    """Keep the drone at (x, y, z) through `frames` frames of the game loop, with a vertical
    velocity of `vz` (the camera reads it: coming down asks for the ground view)."""
    (body,) = game.sim.components(RigidBody)
    for _ in range(frames):
        body.position[:] = (x, y, z)
        body.previous_position[:] = body.position
        body.velocity[:] = (0.0, 0.0, vz)
        game.frame(FRAME_S)


def without_aid(game) -> np.ndarray:
    aid = game.renderer.landing_aid
    aid.enabled = False
    game.draw()
    pixels = game.pixels()
    aid.enabled = True
    game.draw()
    return pixels


def changed(a: np.ndarray, b: np.ndarray, threshold: int = 40) -> np.ndarray:
    return np.abs(a[..., :3].astype(int) - b[..., :3].astype(int)).sum(axis=2) > threshold


def ring_pixels_px(game, centre) -> float:
    """The ring's outer radius on screen, pixels: its centre and a rim point projected."""
    renderer = game.renderer
    radius = renderer.landing_aid.radius_m(renderer.frame, np.asarray(centre, dtype=float))
    c = game.renderer.project(centre)
    r = game.renderer.project(np.asarray(centre) + (radius, 0.0, 0.0))
    return math.dist(c, r)


@pytest.mark.parametrize("height", [1.0, 5.0, 20.0])
def test_the_ring_below_the_drone_is_drawn_on_the_map_at_several_heights(make_game, save_shot, height):
    game = make_game(camera__default_view="top")
    hold(game, height, 10)
    support = game.renderer.landing_aid.support_z
    assert support is not None
    with_aid = game.pixels()
    save_shot(with_aid, f"landing_aid_map_{height:g}m")
    diff = changed(with_aid, without_aid(game))
    centre = (X, Y, support)
    col, row = game.renderer.project(centre)
    outer = ring_pixels_px(game, centre)
    # the map: 30 m from the centre to the top edge on 180 rows → 6 px a metre
    assert outer == pytest.approx(max(ring_radius_m(game.renderer.landing_aid.height_m) * 180 / 30.0, RING_MIN_PX),
                                  rel=0.01)
    ys, xs = np.nonzero(diff)
    # at least a third of the annulus' area shows around the drone's arrow
    assert len(ys) >= math.pi * outer ** 2 * (1 - RING_INNER ** 2) / 3
    assert abs(xs.mean() - col) < 2.0 and abs(ys.mean() - row) < 2.0  # centred below the drone
    assert np.hypot(xs - col, ys - row).max() <= outer + 2.0
    # yellow
    colours = with_aid[ys, xs, :3].astype(float) / 255.0
    assert np.mean(colours[:, 2]) < np.mean(colours[:, 0]) - 0.3 and AID_COLOUR[2] < 0.5


def test_while_landing_from_twenty_metres_the_chase_camera_shows_the_ring(make_game, save_shot):
    game = make_game()
    (ctrl,) = game.sim.components(Controller)
    ctrl.motor_power = 0.5  # flying: an assist ends when the motors are cut
    hold(game, 20.0, 2)
    game.sim.select("land")
    assert game.app.resource(AssistState).landing is not None
    hold(game, 20.0, round(4 * GROUND_VIEW_TAU_S / FRAME_S))
    assert game.app.resource(AssistState).landing is not None
    support = game.renderer.landing_aid.support_z
    with_aid = game.pixels()
    save_shot(with_aid, "landing_aid_chase_20m")
    diff = changed(with_aid, without_aid(game))
    centre = (X, Y, support)
    col, row = game.renderer.project(centre)
    assert 0 <= col < 640 and 0 <= row < 360  # the surface below is in the frame
    drone_col, drone_row = game.renderer.project((X, Y, 20.0))
    assert 0 <= drone_col < 640 and 0 <= drone_row < 360  # and so is the drone
    # the ring's own size at 20 m, 0.62 m seen from ~20.7 m with 312 px of focal length: ≈ 9 px
    assert ring_pixels_px(game, centre) >= 0.9 * ring_radius_m(20.0) * 180 / math.tan(math.radians(30)) / 20.8
    near = diff[int(row) - 12:int(row) + 13, int(col) - 12:int(col) + 13]
    assert near.sum() >= 10


@pytest.mark.parametrize("height", [1.0, 2.0, 3.0])
def test_coming_down_near_the_ground_the_chase_camera_shows_the_surface_below(make_game, save_shot, height):
    game = make_game()
    hold(game, height, round(6 * GROUND_VIEW_TAU_S / FRAME_S), vz=-0.6)
    support = game.renderer.landing_aid.support_z
    below = game.renderer.project((X, Y, support))
    drone = game.renderer.project((X, Y, height))
    save_shot(game.pixels(), f"chase_near_ground_{height:g}m")
    assert below is not None and 0 <= below[0] < 640 and 0 <= below[1] < 360
    assert drone is not None and 0 <= drone[0] < 640 and 0 <= drone[1] < 360
    # and the drop line joins them: half-way down, the frame changes with the aid
    diff = changed(game.pixels(), without_aid(game), threshold=20)
    mid_col, mid_row = game.renderer.project((X, Y, (height + support) / 2.0))
    assert diff[int(mid_row) - 2:int(mid_row) + 3, int(mid_col) - 3:int(mid_col) + 4].any()


def test_resting_on_the_pad_the_chase_view_is_the_usual_one(make_game):
    game = make_game()
    for _ in range(30):
        game.frame(FRAME_S)
    chase = game.renderer.cameras.cameras["chase"]
    assert chase.ground_view == 0.0
    assert game.renderer.landing_aid.alpha == 0.0  # no ring under a drone on its pad


@pytest.mark.parametrize("height", [1.5, 3.0])
def test_hovering_where_a_take_off_ends_the_chase_view_is_the_usual_one(make_game, height):
    """Looking at the ground while hovering or cruising would hide where the drone is going."""
    game = make_game()
    hold(game, height, round(6 * GROUND_VIEW_TAU_S / FRAME_S))
    chase = game.renderer.cameras.cameras["chase"]
    assert chase.ground_view == 0.0
    assert np.allclose(chase.look_at, chase.target)


def _sky_mask(pixels: np.ndarray, lighting) -> np.ndarray:
    """Pixels of the dry frame's sky: near the zenith or horizon colours."""
    rgb_px = pixels[..., :3].astype(float) / 255.0
    near = np.zeros(pixels.shape[:2], bool)
    for colour in (lighting.sky_zenith, lighting.sky_horizon):
        near |= np.abs(rgb_px - np.array(rgb(colour))).max(axis=2) < 0.12
    return near


def test_rain_darkens_the_sky_and_the_light(make_game, save_shot):
    game = make_game()
    hold(game, 25.0, 5)  # above the roofs: sky in the top of the frame
    dry = game.pixels()
    lighting = game.app.resource(ActiveLevel).level.lighting
    sky = _sky_mask(dry, lighting)
    assert sky.sum() > 0.05 * sky.size
    rain = 8.0
    game.sim.set_weather(rain=rain)
    hold(game, 25.0, 3)
    wet = game.pixels()
    save_shot(dry, "rain_dry")
    save_shot(wet, "rain_8mm_h")
    wet_lighting = rain_lighting(lighting, rain)
    # what the lighting says the sky loses, from the horizon and zenith colours
    loss = min(np.mean(rgb(lighting.sky_horizon)) - np.mean(rgb(wet_lighting.sky_horizon)),
               np.mean(rgb(lighting.sky_zenith)) - np.mean(rgb(wet_lighting.sky_zenith))) * 255.0
    assert loss > 10.0
    dry_sky, wet_sky = dry[..., :3][sky].mean(), wet[..., :3][sky].mean()
    assert dry_sky - wet_sky >= 0.5 * loss
    # the lit scene too: the lower half (street and buildings) is darker
    assert wet[180:, :, :3].mean() < dry[180:, :, :3].mean() - 5.0


def test_the_trail_is_a_ribbon_a_few_pixels_wide(make_game, save_shot):
    game = make_game()
    (trail,) = game.sim.components(Trail)
    trail.points.clear()
    # a trail across the view, 6 m ahead of the drone and 0.5 m above it
    trail.points.extend((float(x), float(y), 1.5) for x, y in zip(np.full(41, X + 6.0), np.linspace(-4.0, 4.0, 41)))
    hold(game, 1.0, 1)
    after = game.pixels()
    save_shot(after, "trail_ribbon")
    game.renderer.trail.draw = lambda frame: None  # the same frame without the trail
    game.draw()
    before = game.pixels()
    diff = changed(after, before, threshold=30)
    col, _ = game.renderer.project((X + 6.0, 0.0, 1.5))
    for c in (int(col) - 20, int(col), int(col) + 20):
        rows = np.nonzero(diff[:, c])[0]
        assert len(rows) >= TRAIL_WIDTH_PX - 1, (c, rows)  # not a one-pixel thread
        assert rows.max() - rows.min() <= TRAIL_WIDTH_PX + 2


def _route_changes(game) -> int:
    route = game.renderer.route
    game.draw()
    with_route = game.pixels()
    route.draw = lambda frame: None  # this instance only: the pass skipped
    try:
        game.draw()
        without = game.pixels()
    finally:
        del route.draw
    return int(changed(with_route, without, threshold=20).sum())


def test_the_route_is_drawn_only_while_a_mission_flies(make_game, save_shot):
    game = make_game()
    for _ in range(10):
        game.frame(FRAME_S)
    assert game.renderer.route.points  # the street has a route
    assert _route_changes(game) == 0
    game.sim.select("mission")
    for _ in range(480):  # climbing to the route's 18 m
        game.frame(FRAME_S)
    assert game.app.resource(AssistState).mission is not None
    save_shot(game.pixels(), "route_during_mission")
    assert _route_changes(game) > 50


def test_the_map_shows_the_route_without_a_mission(make_game):
    game = make_game(camera__default_view="top")
    for _ in range(5):
        game.frame(FRAME_S)
    assert _route_changes(game) > 50


# -- the loading screen ------------------------------------------------------------------------
def test_the_loading_screen_shows_the_progress(make_game, save_shot):
    game = make_game()
    screen = LoadingScreen(game.window)
    try:
        screen.update(17, 34, 3.0)
        screen.draw()
        pixels = game.pixels()
    finally:
        screen.delete()
    save_shot(pixels, "loading_screen")
    x, y, width, height = screen.bar_box()
    row = pixels[360 - (y + height // 2), :, :3].astype(int)
    bar = np.all(np.abs(row - np.array(BAR_COLOUR[:3])) <= 8, axis=1)
    cols = np.nonzero(bar)[0]
    assert cols.min() == pytest.approx(x, abs=1)
    assert len(cols) == pytest.approx(width * 17 / 34, abs=2)
    # the title and the line of text are drawn: bright pixels above the bar
    assert (pixels[: 360 - y - 2 * height, :, :3].min(axis=2) > 180).sum() > 100


def test_the_loading_screen_shows_only_when_the_work_takes_time(make_game):
    game = make_game()
    assert run_with_loading_screen(game.window, lambda: None, lambda: (0, 1)) is False
    assert run_with_loading_screen(game.window, lambda: time.sleep(0.6), lambda: (0, 1), flip=False) is True

    def broken():
        raise RuntimeError("compile failed")

    with pytest.raises(RuntimeError, match="compile failed"):
        run_with_loading_screen(game.window, broken, lambda: (0, 1))


# -- multisampling -----------------------------------------------------------------------------
@pytest.mark.parametrize("msaa", [0, 4])
def test_the_window_gets_the_samples_asked_for(make_game, msaa):
    game = make_game(display__msaa=msaa)
    assert (game.window.config.samples or 0) == msaa
    game.frame(FRAME_S)
    assert game.pixels().shape == (360, 640, 4)


def test_auto_msaa_is_off_on_a_software_renderer(make_game):
    game = make_game()
    software = is_software_renderer(gl.gl_info.get_renderer())
    assert (game.window.config.samples or 0) == (0 if software else 4)


WARM_UP_CHECK = """
from game.settings import Settings
from game.window import Game
from flight.jit import DISPATCHERS
settings = Settings()
settings.input.backend = "none"
game = Game("street", settings=settings, width=320, height=240, visible=False, audio=False)
before = {d.py_func.__qualname__ for d in DISPATCHERS if d.signatures}
assert game.warm_up() is True
warmed = {d.py_func.__qualname__ for d in DISPATCHERS if d.signatures}
game.sim.pad.rt = 1.0
for mode in ("manual", "angle", "acro", "manual"):
    game.sim.set_mode(mode)
    for _ in range(10):
        game.frame(1 / 60)
game.sim.select("takeoff")
for _ in range(30):
    game.frame(1 / 60)
after = {d.py_func.__qualname__ for d in DISPATCHERS if d.signatures}
print(len(before), len(warmed), sorted(after - warmed))
game.close()
"""


def test_after_the_warm_up_the_first_frames_load_no_flight_code():
    """In a fresh process (numba loads a function's machine code on its first call, cached or
    not), `Game.warm_up` — run under the loading screen — loads every compiled function the
    flight then calls: flying in each mode and taking off calls no function it left out."""
    env = dict(os.environ, PYGLET_HEADLESS="1")
    out = subprocess.run([sys.executable, "-c", WARM_UP_CHECK], env=env, capture_output=True, text=True,
                         timeout=600, check=True).stdout.split(maxsplit=2)
    before, warmed, missed = int(out[0]), int(out[1]), out[2].strip()
    assert warmed > before
    assert missed == "[]"


def test_closing_the_window_while_loading_quits_cleanly(make_game, monkeypatch):
    game = make_game()

    def slow_warm_up():
        game.window.dispatch_event("on_close")  # the player closes the window meanwhile
        time.sleep(0.5)

    monkeypatch.setattr(window_module, "warm_up", slow_warm_up)
    assert game.warm_up() is False
    assert game.running is False


@given(st.binary(min_size=0, max_size=300), st.sampled_from([("R", "BGRA"), ("L", "RGBA"), ("A", "RGBA"),
                                                             ("RGB", "RGBA"), ("LA", "RGBA"), ("RGBA", "RGBA")]))
@hyp_settings(max_examples=80, deadline=None)
def test_the_fast_glyph_expansion_gives_pyglets_bytes(data, formats):
    """game/render/text.py's numpy glyph expansion (start-up) against pyglet's own loop."""
    src, dst = formats
    data = data[: len(data) // len(src) * len(src)]
    assert text.expand_to_rgba(None, data, src, dst) == text._ORIGINAL_EXPAND(None, data, src, dst)
