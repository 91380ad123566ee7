"""What helps the player see (pure parts, no GL): display.msaa, the chase camera's ground view,
the ribbons' width, rain's darkened lighting, the landing aid's size and fade."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings as hyp_settings, strategies as st

from game.render import transforms as tf
from game.render.camera import (GROUND_VIEW_DEPTH_M, GROUND_VIEW_FULL_M, GROUND_VIEW_HIGH_M, GROUND_VIEW_LOOK_DOWN,
                                GROUND_VIEW_LOW_M, GROUND_VIEW_NONE_M, GROUND_VIEW_RISE_M, HOVER_VIEW_FULL_M,
                                HOVER_VIEW_NONE_M, ChaseCamera, MapCamera,
                                ground_view_weight)
from game.render.level_model import rgb
from game.render.passes.landing_aid import (FADE_OUT_END_M, RING_GROWTH, RING_RADIUS_M, VISIBLE_UP_TO_M,
                                            aid_alpha, ring_radius_m)
from game.render.rain_light import overcast, rain_lighting
from game.render.ribbon import ribbon_vertices
from game.settings import Settings, load_settings
from world.level import Lighting


# -- display.msaa ------------------------------------------------------------------------------
@pytest.mark.parametrize("value", [0, 2, 4, 8, "auto"])
def test_msaa_accepts_its_values(value):
    s = Settings()
    s.set("display.msaa", value)
    assert s.display.msaa == value


@pytest.mark.parametrize("value", [3, "x", 16, True, 4.0, -2])
def test_msaa_refuses_other_values_naming_the_key(value):
    s = Settings()
    with pytest.raises(ValueError, match=r"display\.msaa: expected samples per pixel: 0 \(off\), 2, 4 or 8"):
        s.set("display.msaa", value)
    assert s.display.msaa == "auto"


@pytest.mark.parametrize("text", ["[display]\nmsaa = 3\n", '[display]\nmsaa = "x"\n'])
def test_a_bad_msaa_in_the_file_is_one_located_line(tmp_path, text):
    path = tmp_path / "settings.toml"
    path.write_text(text)
    s = load_settings(tmp_path)
    assert s.display.msaa == "auto"
    assert len(s.warnings) == 1
    line = s.warnings[0]
    assert "\n" not in line and line.startswith(f"{path}:2: display.msaa: expected ")
    assert "0 (off), 2, 4 or 8" in line


def test_msaa_round_trips_through_the_file(tmp_path):
    s = Settings()
    s.set("display.msaa", 8)
    s.save(tmp_path / "settings.toml")
    assert load_settings(tmp_path).display.msaa == 8


# -- the chase camera's ground view ------------------------------------------------------------
def test_ground_view_weight_follows_the_height():
    assert ground_view_weight(None, False) == 0.0 and ground_view_weight(None, True) == 0.0
    assert ground_view_weight(0.0, False) == 0.0  # resting: the usual view
    assert ground_view_weight(1.0, False, descending=True) == 1.0  # coming down near the surface
    assert ground_view_weight(1.5, False) == 0.0  # hovering where a take-off ends: the usual view
    assert ground_view_weight(10.0, False, descending=True) == 0.0
    assert ground_view_weight(10.0, True) == 1.0  # landing: at any height
    heights = np.linspace(0.0, 6.0, 601)
    # smooth: a smoothstep over a span L climbs at most 1.5 / L per metre
    for descending, spans in ((True, (GROUND_VIEW_FULL_M - GROUND_VIEW_LOW_M, GROUND_VIEW_NONE_M - GROUND_VIEW_HIGH_M)),
                              (False, (GROUND_VIEW_FULL_M - GROUND_VIEW_LOW_M, HOVER_VIEW_NONE_M - HOVER_VIEW_FULL_M))):
        w = np.array([ground_view_weight(h, False, descending) for h in heights])
        assert np.all(np.abs(np.diff(w)) <= 1.5 / min(spans) * 0.01 * (1 + 1e-9))


def _in_frame(view, point, aspect) -> bool:
    clip = view.view_projection @ np.append(point, 1.0)
    if clip[3] <= 0:
        return False
    ndc = clip[:3] / clip[3]
    return bool(abs(ndc[0]) <= 1.0 and abs(ndc[1]) <= 1.0)


@given(st.floats(0.8, 3.0), st.floats(-math.pi, math.pi))
@hyp_settings(max_examples=40, deadline=None)
def test_coming_down_near_the_ground_the_surface_below_and_the_drone_are_both_in_view(height, yaw):
    camera = ChaseCamera()
    drone = np.array((3.0, -2.0, height))
    rotation = tf.rotation_z(yaw)
    camera.sense_ground(height, landing=False, vertical_speed_m_s=-0.5)
    for _ in range(240):  # 4 s at 60 fps: the eased weight has arrived
        camera.update(1 / 60, drone, rotation)
    view = camera.view(16 / 9)
    assert _in_frame(view, drone, 16 / 9)
    assert _in_frame(view, drone - (0.0, 0.0, height), 16 / 9)


@given(st.floats(0.8, 30.0))
@hyp_settings(max_examples=30, deadline=None)
def test_while_landing_the_surface_below_is_in_view_at_any_height(height):
    camera = ChaseCamera()
    drone = np.array((0.0, 0.0, height))
    camera.sense_ground(height, landing=True)
    for _ in range(240):
        camera.update(1 / 60, drone, np.eye(4))
    view = camera.view(16 / 9)
    assert _in_frame(view, drone, 16 / 9)
    assert _in_frame(view, drone - (0.0, 0.0, height), 16 / 9)
    # the full ground view: risen and looking below the drone by the documented amounts
    assert camera.eye[2] - camera.target[2] == pytest.approx(camera.height_m + GROUND_VIEW_RISE_M, rel=1e-3)
    assert camera.target[2] - camera.look_at[2] == pytest.approx(
        GROUND_VIEW_LOOK_DOWN * min(height, GROUND_VIEW_DEPTH_M), rel=1e-3)


def test_ground_view_eases_in_with_its_time_constant():
    camera = ChaseCamera()
    camera.sense_ground(1.0, landing=False, vertical_speed_m_s=-0.5)
    camera.update(0.0, np.zeros(3), np.eye(4))
    assert camera.ground_view == 0.0
    for _ in range(30):  # 0.5 s = one time constant
        camera.update(1 / 60, np.zeros(3), np.eye(4))
    assert camera.ground_view == pytest.approx(1.0 - math.exp(-1.0), rel=1e-6)


# -- ribbons -----------------------------------------------------------------------------------
@given(st.floats(1.0, 60.0), st.floats(1.0, 12.0), st.floats(-0.8, 0.8))
@hyp_settings(max_examples=50, deadline=None)
def test_a_ribbon_across_the_view_is_its_width_in_pixels(distance, width_px, offset):
    """A segment across the line of sight, `distance` ahead: its two edges project `width_px`
    framebuffer pixels apart."""
    fb_w, fb_h = 640, 360
    camera = ChaseCamera()
    camera.update(0.0, np.zeros(3), np.eye(4))
    view = camera.view(fb_w / fb_h)
    forward = -view.view[2, :3]
    side = view.view[0, :3]
    centre = view.eye + forward * distance + side * offset * distance * 0.3
    points = np.stack((centre - side * 0.5, centre + side * 0.5))
    vertices = ribbon_vertices(points, view, fb_h, width_px, (1.0, 1.0, 1.0), 1.0)
    a = tf.project(view.view_projection, vertices[0, 0:3], fb_w, fb_h)
    b = tf.project(view.view_projection, vertices[1, 0:3], fb_w, fb_h)
    assert math.dist(a[:2], b[:2]) == pytest.approx(width_px, rel=0.02)


def test_a_ribbon_on_the_map_is_its_width_in_pixels():
    fb_w, fb_h = 640, 360
    camera = MapCamera()
    camera.update(0.0, np.zeros(3), np.eye(4))
    view = camera.view(fb_w / fb_h)
    vertices = ribbon_vertices(np.array(((-5.0, 0.0, 0.0), (5.0, 0.0, 0.0))), view, fb_h, 4.0, (1, 1, 1), 1.0)
    a = tf.project(view.view_projection, vertices[0, 0:3], fb_w, fb_h)
    b = tf.project(view.view_projection, vertices[1, 0:3], fb_w, fb_h)
    assert math.dist(a[:2], b[:2]) == pytest.approx(4.0, rel=1e-3)


def test_a_ribbon_of_one_point_is_nothing():
    camera = MapCamera()
    assert len(ribbon_vertices(np.zeros((1, 3)), camera.view(1.0), 100, 4.0, (1, 1, 1), 1.0)) == 0


# -- rain --------------------------------------------------------------------------------------
def _brightness(colour: str) -> float:
    return sum(rgb(colour)) / 3.0


def test_dry_weather_leaves_the_lighting_alone():
    lighting = Lighting()
    assert rain_lighting(lighting, 0.0) is lighting


@given(st.floats(0.0, 250.0), st.floats(0.01, 250.0))
@hyp_settings(max_examples=60, deadline=None)
def test_more_rain_is_darker(rain, more):
    lighting = Lighting()
    a, b = rain_lighting(lighting, rain), rain_lighting(lighting, rain + more)
    assert overcast(rain + more) > overcast(rain) or overcast(rain) > 0.999
    assert b.sun_intensity <= a.sun_intensity and b.ambient <= a.ambient
    for key in ("sky_zenith", "sky_horizon", "fog_colour"):
        assert _brightness(getattr(b, key)) <= _brightness(getattr(a, key)) + 1 / 255
    assert b.fog_end <= a.fog_end


def test_the_overcast_weight_is_smooth_and_bounded():
    rates = np.linspace(0.0, 100.0, 10001)
    w = np.array([overcast(r) for r in rates])
    assert w[0] == 0.0 and np.all(w < 1.0) and np.all(np.diff(w) > 0.0)
    assert np.max(np.diff(w)) < 0.002  # no jump between 0.01 mm/h steps


# -- the landing aid ---------------------------------------------------------------------------
def test_landing_aid_fades_in_above_the_surface_and_out_above_twenty_metres():
    assert aid_alpha(0.0) == 0.0  # resting on a pad: no ring
    assert aid_alpha(0.5) == 1.0 and aid_alpha(VISIBLE_UP_TO_M) == 1.0
    assert 0.0 < aid_alpha((VISIBLE_UP_TO_M + FADE_OUT_END_M) / 2) < 1.0
    assert aid_alpha(FADE_OUT_END_M + 1.0) == 0.0


def test_the_ring_grows_with_height():
    assert ring_radius_m(0.0) == RING_RADIUS_M
    assert ring_radius_m(20.0) == pytest.approx(RING_RADIUS_M + 20.0 * RING_GROWTH)
