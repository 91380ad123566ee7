"""The renderer's pure parts (no GL): one rotation convention, projections, the drone's
shape at the scale of docs/model.md#what-is-modelled, the cameras, the level's meshes, the HUD's words and the pause
panel."""

from __future__ import annotations

import math

import numpy as np
import pytest

from flight import quat
from flight.vehicle import default_vehicle
from game.render import hud_text as T
from game.render import transforms as tf
from game.render.camera import CameraRig, ChaseCamera, FirstPersonCamera, MapCamera, level_raycast
from game.render.drone_model import SHELL_SIZE_M, build_drone
from game.render.level_model import build_level, ground_grid, street_hole
from game.render.pause import ENTRIES, PausePanel
from world.weather import Weather


# -- one rotation convention ---------------------------------------------------------------------
@pytest.mark.parametrize("q", [
    quat.from_axis_angle((0.0, 0.0, 1.0), 0.7),
    quat.from_axis_angle((1.0, 0.0, 0.0), -0.4),
    quat.from_euler(0.3, -0.2, 2.5),
    quat.normalise((0.1, -0.7, 0.3, 0.6)),
])
def test_rotation_matrix_is_the_flight_models_body_to_world(q):
    m = tf.rotation_from_quaternion(q)
    for v in ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0), (0.3, -1.2, 0.8)):
        assert np.allclose(m[:3, :3] @ v, quat.rotate(q, v), atol=1e-12)


def test_positive_yaw_turns_the_nose_counter_clockwise_seen_from_above():
    m = tf.rotation_from_quaternion(quat.from_axis_angle((0.0, 0.0, 1.0), math.pi / 2))
    assert np.allclose(m[:3, :3] @ (1.0, 0.0, 0.0), (0.0, 1.0, 0.0))  # body X (nose) → world +Y


def test_look_at_puts_the_target_at_the_centre_of_the_screen():
    view = tf.look_at((-3.0, 1.0, 2.0), (4.0, -2.0, 0.5))
    proj = tf.perspective(60.0, 16 / 9, 0.1, 100.0)
    x, y, depth = tf.project(proj @ view, (4.0, -2.0, 0.5), 1600, 900)
    assert (x, y) == pytest.approx((800.0, 450.0), abs=1e-6)
    assert 0.0 < depth < 1.0
    assert tf.project(proj @ view, (-10.0, 5.0, 3.0), 1600, 900) is None  # behind the eye


def test_perspective_keeps_the_vertical_field_of_view_whatever_the_aspect():
    for aspect in (4 / 3, 16 / 9, 1.0, 0.5):
        p = tf.perspective(60.0, aspect, 0.1, 100.0)
        assert p[1, 1] == pytest.approx(1.0 / math.tan(math.radians(30.0)))
        assert p[1, 1] / p[0, 0] == pytest.approx(aspect)  # square pixels: no stretch


def test_gl_matrix_is_column_major():
    m = tf.translation(1.0, 2.0, 3.0)
    assert tf.gl_matrix(m)[12:15] == (1.0, 2.0, 3.0)


# -- the drone at true scale (docs/model.md#what-is-modelled) ---------------------------------------------------------
def test_drone_fills_the_guard_envelope_and_no_more():
    v = default_vehicle()
    model = build_drone(v)
    points = model.body.array()[:, 0:3]
    extent = points.max(axis=0) - points.min(axis=0)
    assert extent == pytest.approx((0.1752, 0.1697, 0.041), abs=2e-4)  # the envelope with guards


def test_props_are_three_inch_at_the_motor_axes_and_the_shell_is_smaller_than_the_frame():
    model = build_drone(default_vehicle())
    blades = model.prop.array()[:, 0:2]
    assert 2.0 * np.hypot(blades[:, 0], blades[:, 1]).max() == pytest.approx(0.0762, abs=0.0025)  # 3 in
    centres = [(round(x, 5), round(y, 5)) for x, y, _ in model.prop_centres_m]
    assert centres == [(0.0445, -0.04175), (-0.0445, -0.04175), (-0.0445, 0.04175), (0.0445, 0.04175)]
    assert model.spin == (1.0, -1.0, 1.0, -1.0)  # 0 and 2 counter-clockwise
    assert SHELL_SIZE_M[0] < 0.098 and SHELL_SIZE_M[1] < 0.0925  # smaller than the 98 × 92.5 mm frame
    white = model.body.array()
    shell = white[(white[:, 6:9] > 0.9).all(axis=1)][:, 0:3]
    assert shell[:, 0].max() - shell[:, 0].min() < 0.098
    assert model.camera_position_m[0] > 0.0  # the camera is on the nose (body +X)


# -- cameras -------------------------------------------------------------------------------------
def _pose(yaw: float, position=(0.0, 0.0, 2.0)):
    return np.asarray(position, float), tf.rotation_from_quaternion(quat.from_axis_angle((0.0, 0.0, 1.0), yaw))


def test_chase_camera_sits_behind_the_heading_and_looks_at_the_drone():
    cam = ChaseCamera(distance_m=1.0, height_m=0.3)
    position, rotation = _pose(math.pi / 2)
    cam.update(1 / 60, position, rotation)
    assert cam.eye[1] == pytest.approx(-1.0, abs=1e-9)  # behind a drone heading +Y
    assert cam.eye[2] == pytest.approx(2.0 + 0.02 + 0.3)
    view = cam.view(16 / 9)
    x, y, _ = tf.project(view.view_projection, position + (0.0, 0.0, 0.02), 1600, 900)
    assert (x, y) == pytest.approx((800.0, 450.0), abs=1e-6)


def test_chase_heading_is_smoothed_independently_of_the_frame_rate():
    def heading_after(frame_s: float) -> float:
        cam = ChaseCamera(heading_tau_s=0.25)
        cam.update(frame_s, *_pose(0.0))
        for _ in range(round(0.5 / frame_s)):
            cam.update(frame_s, *_pose(1.0))
        return cam.heading

    # after two time constants, 1 − e⁻² of a 1 rad turn, at 30 fps as at 240 fps
    assert heading_after(1 / 30) == pytest.approx(1.0 - math.exp(-2.0), abs=1e-9)
    assert heading_after(1 / 240) == pytest.approx(1.0 - math.exp(-2.0), abs=1e-9)


def test_chase_camera_comes_in_front_of_a_wall_and_eases_back_out():
    from world.geometry import BoxRow, LevelGeometry

    wall = BoxRow(-0.5, 0.0, 1.0, 0.05, 5.0, 1.0, 1.0, 0.0, "wall", "wall")  # 0.5 m behind the drone
    geometry = LevelGeometry(ground_z_m=0.0, boxes=(wall,))
    cam = ChaseCamera(distance_m=1.0, height_m=0.0, raycast=level_raycast(lambda: geometry))
    position, rotation = _pose(0.0, (0.0, 0.0, 1.0))
    cam.update(1 / 60, position, rotation)
    blocked = cam.eye[0]
    assert -0.45 < blocked < 0.0  # in front of the wall's face at x = −0.45
    clear = LevelGeometry(ground_z_m=0.0)
    cam.raycast = level_raycast(lambda: clear)
    cam.update(1 / 60, position, rotation)
    assert blocked - 0.05 < cam.eye[0] < blocked  # wall gone: easing out, not jumping
    for _ in range(240):
        cam.update(1 / 60, position, rotation)
    assert cam.eye[0] == pytest.approx(-1.0, abs=1e-3)


def test_first_person_camera_is_the_front_camera_fixed_to_the_body():
    cam = FirstPersonCamera(camera_position_m=(0.04, 0.0, 0.01))
    q = quat.from_euler(0.0, math.radians(20.0), 0.0)  # nose down 20°
    cam.update(1 / 60, np.zeros(3), tf.rotation_from_quaternion(q))
    assert np.allclose(cam.forward, quat.rotate(q, (1.0, 0.0, 0.0)))
    assert cam.forward[2] == pytest.approx(-math.sin(math.radians(20.0)))


def test_map_camera_looks_down_with_x_right_and_y_up():
    cam = MapCamera(half_height_m=30.0)
    cam.update(1 / 60, np.array((10.0, 5.0, 2.0)), np.eye(4))
    vp = cam.view(2.0).view_projection
    cx, cy, _ = tf.project(vp, (10.0, 5.0, 0.0), 800, 400)
    ex, _, _ = tf.project(vp, (20.0, 5.0, 0.0), 800, 400)
    _, ny, _ = tf.project(vp, (10.0, 15.0, 0.0), 800, 400)
    assert (cx, cy) == pytest.approx((400.0, 200.0))
    assert ex > cx and ny > cy  # +X to the right, +Y up the screen
    assert ex - cx == pytest.approx(ny - cy)  # square metres stay square


def test_camera_rig_cycles_chase_first_person_map():
    rig = CameraRig(ChaseCamera(), FirstPersonCamera(), MapCamera())
    assert [rig.cycle(), rig.cycle(), rig.cycle()] == ["fpv", "top", "chase"]
    with pytest.raises(ValueError, match="expected one of chase, fpv, top"):
        rig.select("orbit")


# -- the level -----------------------------------------------------------------------------------
def test_street_meshes_come_from_the_level_data():
    from world.level_file import load_level

    level = load_level("street")
    meshes = build_level(level)
    assert set(meshes.pads) == {p.id for p in level.pads}
    start = level.pad("start")
    assert meshes.pads["start"] == pytest.approx((start.position[0], start.position[1], start.top_m))
    assert meshes.route_m == level.route()
    solid = meshes.solid.array()
    top = max(b.top_m for b in level.boxes)
    assert solid[:, 2].max() == pytest.approx(top)  # the tallest building stands as tall as the file says
    from game.render.level_model import PAD_COLOURS, rgb

    colours = {tuple(round(float(v), 3) for v in c) for c in solid[:, 6:9]}
    start_colour, arrival_colour = (tuple(round(v, 3) for v in rgb(PAD_COLOURS[r])) for r in ("start", "arrival"))
    assert start_colour in colours and arrival_colour in colours and start_colour != arrival_colour


def test_the_road_fills_the_grounds_hole_and_only_a_clear_ground_is_painted_first():
    from world.level_file import load_level

    level = load_level("street")
    meshes = build_level(level)
    vertices, indices = meshes.ground
    tris = vertices[indices.reshape(-1, 3), 0:3].astype(float)
    assert np.all(tris[..., 2] == level.ground.height)  # flat: nothing of it stands up
    a, b = tris[:, 1, :2] - tris[:, 0, :2], tris[:, 2, :2] - tris[:, 0, :2]
    area = 0.5 * np.abs(a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0]).sum()
    st = level.street
    pavements = 2.0 * st.pavement_width * st.length_m  # raised boxes, drawn with the solids
    assert area == pytest.approx(level.ground.size[0] * level.ground.size[1] - pavements)
    assert meshes.ground_is_floor

    sunk = level.model_copy(update={"boxes": [*level.boxes, level.boxes[0].model_copy(
        update={"id": "cellar", "position": (-60.0, 60.0, level.ground.height - 1.0)})]})
    assert not build_level(sunk).ground_is_floor  # its hidden part must stay behind the ground


def test_ground_grid_leaves_out_only_what_the_street_covers():
    hole = (50.0, 0.0, 0.0, 50.0, 7.0)  # a street along X: 100 m × 14 m
    vertices, indices = ground_grid((50.0, 0.0), (200.0, 100.0), 0.0, (0.4, 0.5, 0.3), hole)
    tris = vertices[indices.reshape(-1, 3), 0:2].astype(float)
    centres = tris.mean(axis=1)
    inside = (np.abs(centres[:, 0] - 50.0) < 50.0) & (np.abs(centres[:, 1]) < 7.0)
    assert not inside.any()
    a, b = tris[:, 1] - tris[:, 0], tris[:, 2] - tris[:, 0]
    area = 0.5 * np.abs(a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0]).sum()
    assert area == pytest.approx(200.0 * 100.0 - 100.0 * 14.0)  # exactly the street's area is missing


def test_street_hole_spans_road_and_pavements():
    from world.level_file import load_level

    level = load_level("street")
    _, _, _, half_len, half_wid = street_hole(level)
    assert half_len == pytest.approx(level.street.length_m / 2)
    assert half_wid == pytest.approx(level.street.road_width / 2 + level.street.pavement_width)


# -- the HUD's words -----------------------------------------------------------------------------
def test_every_hud_label_exists_in_english_and_french():
    for table in (T.LABELS, T.MODES, T.CAMERAS, T.MENU_ENTRIES, T.MESSAGES, T.ACTIONS):
        for key, pair in table.items():
            assert len(pair) == 2 and all(pair), key
    assert T.label("target_z", "en") == "TARGET Z"
    assert T.label("height", "en") == "HEIGHT ABOVE GROUND"  # the names of docs/model.md#hud
    assert T.label("height", "fr") != T.label("height", "en")


def test_the_rain_note_says_how_hard_it_rains_in_the_huds_language():
    weather = Weather(rain_mm_h=12.5)
    for language in T.LANGUAGES:
        note = T.rain_note(weather.rain_mm_h, language)
        assert note.startswith(T.label("rain_note", language))
        assert note.endswith(f"({weather.rain_mm_h:g} mm/h)")
    assert T.rain_note(weather.rain_mm_h, "fr") != T.rain_note(weather.rain_mm_h, "en")


def test_hud_numbers():
    assert T.signed(-0.004) == "+0.0"
    # compass bearings: north = world +Y (000°), east = world +X (090°)
    assert T.target_velocity_text((0.0, 4.0, 0.0), "en") == "4.0 m/s → 000°"
    assert T.target_velocity_text((6.0, -0.001, 0.0), "en") == "6.0 m/s → 090°"
    assert T.target_velocity_text((-0.001, 6.0, 0.0), "en") == "6.0 m/s → 000°"  # not 360°
    assert T.wind_text((-3.0, 0.0, 0.0), "en") == "3.0 m/s from 090° E"  # blowing towards −X: from +X, east
    assert T.wind_text((0.0, -2.0, 0.0), "fr") == "2.0 m/s de 000° N"  # blowing south: a north wind
    assert T.thousands(16436.4) == "16 436"


# -- the pause panel -----------------------------------------------------------------------------
def test_pause_panel_changes_settings_and_reports_them():
    from components.pilot import Pad
    from game.settings import Settings

    settings, applied, pad = Settings(), [], Pad()
    panel = PausePanel(settings, applied.append)
    panel.toggle()
    panel.read_pad(pad, [])  # the stick must pass through neutral first
    for _ in range(ENTRIES.index("volume")):
        pad.left = (0.0, -1.0)
        panel.read_pad(pad, [])
        pad.left = (0.0, 0.0)
        panel.read_pad(pad, [])
    assert panel.entry == "volume"
    pad.left = (-1.0, 0.0)
    panel.read_pad(pad, [])
    assert settings.audio.master == pytest.approx(0.7)  # 0.8 − one 10 % step
    panel.index = ENTRIES.index("language")
    panel.read_pad(pad, ["A"])
    assert settings.language == "fr"
    assert applied == ["audio.master", "language"]
    panel.read_pad(pad, ["START"])
    assert not panel.open and applied[-1] == "resume"


def test_primitives_face_outwards_with_matching_winding():
    """Back faces are culled when drawing: every triangle must wind counter-clockwise seen from
    the side its normals point to, and closed shapes must point away from their inside."""
    from game.render.mesh import MeshBuilder, rounded_rectangle

    shapes = MeshBuilder()
    shapes.box((0.0, 0.0, 0.5), (2.0, 1.0, 1.0), (1, 1, 1), yaw_rad=0.4)
    shapes.cylinder((0.0, 0.0), 0.5, 0.0, 1.0, (1, 1, 1), segments=12)
    shapes.tube((0.0, 0.0), 0.8, 1.0, 0.0, 0.2, (1, 1, 1), segments=12)
    outline = rounded_rectangle(1.0, 0.8, 0.2)
    shapes.slab(outline, outline * 0.8, 0.0, 0.3, (1, 1, 1), smooth=True)
    data = shapes.array()
    tris = data[:, 0:3].reshape(-1, 3, 3)
    face = np.cross(tris[:, 1] - tris[:, 0], tris[:, 2] - tris[:, 0])
    normals = data[:, 3:6].reshape(-1, 3, 3).mean(axis=1)
    assert ((face * normals).sum(axis=1) > 0).all()
    box = MeshBuilder()
    box.box((3.0, -2.0, 1.0), (1.0, 1.0, 2.0), (1, 1, 1))
    b = box.array()
    assert (((b[:, 0:3] - (3.0, -2.0, 1.0)) * b[:, 3:6]).sum(axis=1) > 0).all()  # away from the centre
