"""The window with many drones (issue #16): every drone drawn where it is, in its own colour;
the cameras and the HUD follow one drone, F (or the right stick's click) steps through them;
a drone removed leaves the picture. Real frames, headless EGL, like the other render tests;
the vectorised maths beside them without a context.

The field level is used: it brings no traffic of its own, so the drones in the picture are
exactly the ones a test puts there.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from components.flight import RigidBody
from game.input.keys import symbol_of
from game.render import transforms as tf
from game.render.camera import ChaseCamera, MapCamera, map_half_height_m
from game.render.fleet import PALETTE, interpolated_models
from game.render.follow import Followed, follow, follow_next, followed_entity
from game.render.frame import DronePose
from game.render.hints import GROUPS, Controls
from game.render.instanced import INSTANCE_FLOATS, instance_rows
from game.render.passes.fleet import FAR_BELOW_PX, in_view, size_px
from game.simulation import Simulation
from systems.scene import drones, remove_drone, spawn_drone

FRAME_S = 1.0 / 60.0


# -- helpers -------------------------------------------------------------------------------------
def _ahead(game, distance_m: float, side_m: float) -> tuple[float, float, float]:
    """A point resting on the ground `distance_m` ahead of the player's drone and `side_m` to its
    left (its heading at the spawn)."""
    t = game.sim.telemetry()
    yaw = math.radians(t.yaw_deg)
    ground = game.sim.level.ground.height
    x = t.position[0] + distance_m * math.cos(yaw) - side_m * math.sin(yaw)
    y = t.position[1] + distance_m * math.sin(yaw) + side_m * math.cos(yaw)
    return (x, y, ground + 0.5 * game.sim.vehicle.envelope_size_m[2])


def _with_drones(make_game, places):
    """The field with the player's drone and one more per (distance, side) in `places`; the HUD
    hidden (the drones' pixels alone change between frames)."""
    game = make_game("field")
    others = [spawn_drone(game.app, game.sim.config, _ahead(game, d, s), math.radians(game.sim.telemetry().yaw_deg))
              for d, s in places]
    game.renderer.frame.show_hud = False
    for _ in range(5):
        game.frame(FRAME_S)
    return game, others


def _drone_mask(game) -> tuple[np.ndarray, np.ndarray]:
    """(frame, mask of the pixels the drones bring to it): the same frame drawn again without
    any drone tells them from the scene."""
    game.draw()
    with_drones = game.pixels()
    game.renderer.frame.show_drone = False
    game.draw()
    without = game.pixels()
    game.renderer.frame.show_drone = True
    game.draw()
    changed = np.abs(with_drones[..., :3].astype(int) - without[..., :3].astype(int)).max(axis=2) > 24
    return with_drones, changed


def _size_px(game, position) -> float:
    """The drone's envelope (its larger side) in pixels at `position`, seen by the chase camera:
    focal length (rows / 2 / tan(fov / 2)) × size / distance."""
    chase = game.renderer.cameras.cameras["chase"]
    focal = game.renderer.frame.fb_height / 2.0 / math.tan(math.radians(chase.fov_y_deg / 2.0))
    size = max(game.sim.vehicle.envelope_size_m[:2])
    return focal * size / float(np.linalg.norm(np.asarray(position) - chase.eye))


def _around(mask: np.ndarray, centre, radius: float) -> np.ndarray:
    """The part of `mask` within `radius` pixels of `centre` (column, row)."""
    rows, cols = np.mgrid[0:mask.shape[0], 0:mask.shape[1]]
    return mask & ((cols - centre[0]) ** 2 + (rows - centre[1]) ** 2 <= radius ** 2)


def _hue_order(tint) -> tuple[int, int, int]:
    """The channels from strongest to weakest: what a white shell lit under the tint keeps."""
    return tuple(int(i) for i in np.argsort(-np.asarray(tint[:3])))


def _position(game, entity) -> np.ndarray:
    return np.array(game.renderer.fleet.frame.positions[game.renderer.fleet.frame.entities.index(entity)])


# -- frames ----------------------------------------------------------------------------------------
def test_every_drone_is_drawn_where_it_is_in_its_own_colour(make_game, save_shot):
    game, others = _with_drones(make_game, [(2.0, 0.8), (2.5, -0.9), (3.5, 0.0)])
    frame, mask = _drone_mask(game)
    save_shot(frame, "many_drones_chase")
    renderer = game.renderer
    fleet = renderer.fleet.frame
    assert fleet.entities == tuple(drones(game.app)) and len(fleet) == 4
    for entity in others:
        position = _position(game, entity)
        centre = renderer.project(position)
        size = _size_px(game, position)
        near = _around(mask, centre, 0.75 * size)
        # the body seen from behind and a little above covers a good part of its envelope's box
        assert near.sum() >= 0.15 * size * size, entity
        # its bright pixels (the shell, the guards) keep the order of its tint's channels
        tint = fleet.tints[fleet.entities.index(entity)]
        pixels = frame[near][:, :3].astype(float)
        bright = pixels[pixels.max(axis=1) >= 100]
        assert len(bright) >= 10
        assert _hue_order(bright.mean(axis=0)) == _hue_order(tint), (entity, bright.mean(axis=0), tint)
    # three drones, three different colours of the palette; the player's in its own colours
    tints = [tuple(fleet.tints[fleet.entities.index(e)]) for e in others]
    assert len(set(tints)) == 3 and all(t in PALETTE for t in tints)
    assert tuple(fleet.tints[fleet.player]) == (1.0, 1.0, 1.0, 1.0)
    # nothing else changed: the pixels the drones bring all lie around one of the four drones
    # (the player's below the frame's centre, with its shadow)
    everything = np.zeros_like(mask)
    for entity in drones(game.app):
        position = _position(game, entity)
        everything |= _around(mask, renderer.project(position), 1.5 * _size_px(game, position))
    assert mask[~everything].sum() <= 0.02 * mask.sum()


def test_the_next_drone_key_moves_the_cameras_and_the_hud_to_it(make_game, save_shot):
    game, others = _with_drones(make_game, [(3.0, 1.5), (6.0, -2.0)])
    renderer = game.renderer
    player = game.sim.drones[0].entity
    keyboard = game.devices.keyboard
    f = symbol_of(Controls.of(game.settings).keys["follow_next"][0])

    def next_drone():
        keyboard.on_key_press(f, 0)
        game.frame(FRAME_S)
        keyboard.on_key_release(f, 0)
        game.frame(FRAME_S)

    assert renderer.followed == player and renderer.hud.follow_tag == ""
    for expected, place in ((others[0], 2), (others[1], 3)):
        next_drone()
        assert renderer.followed == expected == game.app.resource(Followed).entity
        frame, mask = _drone_mask(game)
        save_shot(frame, f"many_drones_following_{place}")
        # the chase camera looks at that drone now: it is drawn at the centre of the frame
        position = _position(game, expected)
        chase = renderer.cameras.cameras["chase"]
        assert np.allclose(chase.target[:2], position[:2], atol=1e-6)
        column, row = renderer.project(position)
        h, w = mask.shape
        assert abs(column - w / 2.0) < 2.0 and abs(row - h / 2.0) < 0.1 * h
        assert _around(mask, (column, row), 0.75 * _size_px(game, position)).sum() >= 20
        # the HUD names it, reads its telemetry, and its trail and landing aid are the ones drawn
        assert renderer.hud.follow_tag.startswith(f"FOLLOWING DRONE {place}/3")
        assert renderer.followed_telemetry() == game.sim.drones[place - 1].telemetry()
        assert renderer.frame.drone == expected
    # the pad still flies the player's drone
    game.sim.pad.rt = 1.0
    for _ in range(10):
        game.frame(FRAME_S)
    game.sim.pad.rt = 0.0
    assert game.sim.telemetry().motor_power > 0.0
    assert game.sim.drones[2].telemetry().motor_power == 0.0
    next_drone()  # after the last: the player's again, and no tag
    assert renderer.followed == player and renderer.hud.follow_tag == "" and renderer.frame.drone is None
    chase = renderer.cameras.cameras["chase"]
    assert np.allclose(chase.target[:2], game.sim.telemetry().position[:2], atol=0.01)


def test_a_removed_drone_leaves_the_picture_and_the_cameras_come_back(make_game, save_shot):
    game, others = _with_drones(make_game, [(2.5, 0.8), (2.5, -0.8)])
    renderer = game.renderer
    gone, kept = others
    follow(game.app, gone)
    game.frame(FRAME_S)
    assert renderer.followed == gone
    gone_at = _position(game, gone)
    kept_at = _position(game, kept)
    renderer.select_camera("chase")
    follow(game.app, None)  # look at both from the player's drone
    game.frame(FRAME_S)
    _, before = _drone_mask(game)
    gone_px, kept_px = renderer.project(gone_at), renderer.project(kept_at)
    fleet = renderer.fleet.frame
    kept_tint = tuple(fleet.tints[fleet.entities.index(kept)])
    radius = 0.75 * _size_px(game, gone_at)
    assert _around(before, gone_px, radius).sum() >= 20 and _around(before, kept_px, radius).sum() >= 20
    follow(game.app, gone)
    game.frame(FRAME_S)
    remove_drone(game.app, gone)
    game.frame(FRAME_S)
    # the followed drone left: the cameras and the HUD are back on the player's drone
    assert renderer.followed == game.sim.drones[0].entity and renderer.hud.follow_tag == ""
    fleet = renderer.fleet.frame
    assert gone not in fleet.entities and len(fleet) == 2
    assert tuple(fleet.tints[fleet.entities.index(kept)]) == kept_tint  # a drone keeps its colour
    frame, after = _drone_mask(game)
    save_shot(frame, "many_drones_removed")
    assert _around(after, gone_px, radius).sum() == 0
    assert _around(after, kept_px, radius).sum() >= 20


def test_the_map_shows_every_drone_and_widens_to_keep_them_in_view(make_game, save_shot):
    game = make_game("field")
    t = game.sim.telemetry()
    ground = game.sim.level.ground.height + 0.5 * game.sim.vehicle.envelope_size_m[2]
    far = (t.position[0] + 10.0, t.position[1] + 45.0, ground)  # farther than the map's usual ±30 m
    near = (t.position[0] - 12.0, t.position[1] - 6.0, ground)
    others = [spawn_drone(game.app, game.sim.config, p, 0.0) for p in (far, near)]
    game.renderer.frame.show_hud = False
    game.renderer.select_camera("top")
    for _ in range(90):  # the zoom eases over ZOOM_TAU_S
        game.frame(FRAME_S)
    top = game.renderer.cameras.cameras["top"]
    aspect = game.renderer.aspect
    wanted = map_half_height_m(top.base_half_height_m, np.array([far, near])[:, :2] - np.array(t.position[:2]),
                               aspect, MapCamera.MARGIN_M, MapCamera.MOST_HALF_HEIGHT_M)
    assert wanted == pytest.approx(45.0 + MapCamera.MARGIN_M)  # the far drone's 45 m north sets it
    assert top.half_height_m == pytest.approx(wanted, rel=0.01)
    frame, mask = _drone_mask(game)
    save_shot(frame, "many_drones_map")
    fleet = game.renderer.fleet.frame
    h, w = mask.shape
    for entity in (game.sim.drones[0].entity, *others):
        column, row = game.renderer.project(_position(game, entity))
        assert 0 <= column < w and 0 <= row < h  # in view
        near_px = _around(mask, (column, row), 6.0)
        assert near_px.sum() >= 10
        colour = frame[near_px][:, :3].astype(float).mean(axis=0)
        i = fleet.entities.index(entity)
        expected = (1.0, 0.85, 0.1) if i == fleet.player else fleet.tints[i][:3]  # the player's arrow: yellow
        assert _hue_order(colour) == _hue_order(expected)


def test_the_next_drone_action_is_bound_listed_and_rebindable(make_game):
    controls = Controls()
    assert controls.keyboard("follow_next") == "F" and controls.pad("follow_next") == "RS"
    assert any("follow_next" in actions for _, actions in GROUPS)  # the F1 overlay and the pause list
    game = make_game("field", controls__keys__follow_next=["N"])
    other = spawn_drone(game.app, game.sim.config, _ahead(game, 3.0, 0.0), 0.0)
    game.frame(FRAME_S)
    keyboard = game.devices.keyboard
    keyboard.on_key_press(symbol_of("F"), 0)  # F is not bound any more
    game.frame(FRAME_S)
    assert game.renderer.followed == game.sim.drones[0].entity
    keyboard.on_key_release(symbol_of("F"), 0)
    keyboard.on_key_press(symbol_of("N"), 0)
    game.frame(FRAME_S)
    assert game.renderer.followed == other
    keyboard.on_key_release(symbol_of("N"), 0)
    game.sim.pad.press("RS")  # the gamepad's right stick click does the same
    game.frame(FRAME_S)
    game.sim.pad.release("RS")
    game.frame(FRAME_S)
    assert game.renderer.followed == game.sim.drones[0].entity


# -- without a context --------------------------------------------------------------------------
def test_following_steps_through_the_drones_in_creation_order_headless():
    with Simulation("field") as sim:
        app = sim.app
        made = [sim.drones[0].entity] + [sim.add_drone(position=(5.0 * i, 4.0, 0.05)).entity for i in (1, 2, 3)]
        assert followed_entity(app) == made[0]  # the player's by default
        seen = [follow_next(app) for _ in range(4)]
        assert seen == [*made[1:], made[0]]
        assert follow_next(app, -1) == made[3]  # backwards, wrapping round
        follow(app, made[2])
        sim.remove_drone(sim.drones[2])
        assert followed_entity(app) == made[0]  # it left: the player's again
        with pytest.raises(ValueError, match="not a drone"):
            follow(app, 10_000)


unit = st.floats(-1.0, 1.0, allow_nan=False)
quaternions = st.tuples(unit, unit, unit, unit).filter(lambda q: 0.1 < math.hypot(*q)).map(
    lambda q: np.array(q) / math.hypot(*q))
points = st.tuples(*[st.floats(-500.0, 500.0, allow_nan=False)] * 3).map(np.array)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(points, points, quaternions, quaternions), min_size=1, max_size=6),
       st.floats(0.0, 1.0))
def test_the_fleets_poses_are_each_drones_own_interpolation(rows, alpha):
    """N drones at once give, row by row, what `DronePose.interpolate` gives for each alone."""
    prev_p, pos, prev_q, q = (np.array([r[i] for r in rows]) for i in range(4))
    models = interpolated_models(prev_p, pos, prev_q, q, alpha)
    for i in range(len(rows)):
        body = RigidBody()
        body.previous_position[:], body.position[:] = prev_p[i], pos[i]
        body.previous_quaternion[:], body.quaternion[:] = prev_q[i], q[i]
        pose = DronePose()
        pose.interpolate(body, alpha)
        assert np.allclose(models[i], pose.model, atol=1e-9)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.floats(-400.0, 400.0), st.floats(-400.0, 400.0)), max_size=8),
       st.floats(0.5, 3.0), st.floats(5.0, 40.0))
def test_the_map_keeps_every_drone_inside_its_frame_up_to_its_widest(offsets, aspect, base):
    margin, most = MapCamera.MARGIN_M, MapCamera.MOST_HALF_HEIGHT_M
    half = map_half_height_m(base, np.array(offsets).reshape(-1, 2), aspect, margin, most)
    assert base <= half <= most or (half == base and base > most)
    for x, y in offsets:
        inside = abs(y) + margin <= half + 1e-9 and abs(x) + margin * aspect <= half * aspect + 1e-9
        too_far = max(abs(y), abs(x) / aspect) + margin > most
        assert inside or too_far


def test_instance_rows_are_the_matrices_columns_then_the_tint():
    """GLSL reads a matrix attribute column by column: row k holds M[:, 0], M[:, 1], M[:, 2],
    M[:, 3], then the tint."""
    m = tf.translation(1.0, 2.0, 3.0) @ tf.rotation_z(0.3) @ tf.scaling(2.0, 2.0, 1.0)
    rows = instance_rows(np.array([m, np.eye(4)]), np.array([(0.1, 0.2, 0.3, 0.4), (1.0, 1.0, 1.0, 1.0)]))
    assert rows.shape == (2, INSTANCE_FLOATS) and rows.dtype == np.float32
    for j in range(4):
        assert np.allclose(rows[0, 4 * j:4 * j + 4], m[:, j])
    assert np.allclose(rows[0, 12:15], (1.0, 2.0, 3.0))  # the translation is the last column
    assert np.allclose(rows[0, 16:], (0.1, 0.2, 0.3, 0.4))



def test_only_drones_in_the_cameras_view_are_drawn_and_small_ones_coarsely():
    """The frustum test and the on-screen size the drone passes use, against the chase
    camera's own geometry: a 60° vertical field of view on 360 rows is a focal length of
    180 / tan 30° ≈ 312 px."""
    chase = ChaseCamera()
    chase.update(0.0, np.zeros(3), np.eye(4))  # behind the drone at the origin, looking along +X
    view = chase.view(16.0 / 9.0)
    vp = view.view_projection
    ahead, behind = (5.0, 0.0, 0.0), (-3.0, 0.0, 0.0)
    # just outside the left edge of the frame at 5 m ahead: tan(half the horizontal fov) × depth
    half_w = math.tan(math.atan(math.tan(math.radians(30.0)) * 16.0 / 9.0))
    depth = float(np.linalg.norm(np.array(ahead) - chase.eye) * 0.999)
    beside = (5.0, half_w * depth + 0.3, 0.0)
    assert in_view(vp, np.array([ahead, behind, beside]), 0.15).tolist() == [True, False, False]
    assert in_view(vp, np.array([beside]), 0.6).tolist() == [True]  # a sphere reaching into it
    focal = 180.0 / math.tan(math.radians(30.0))
    distance = float(-(view.view @ np.array((*ahead, 1.0)))[2])  # the depth along the camera's axis
    assert size_px(vp, np.array([ahead]), 0.175, 360)[0] == pytest.approx(focal * 0.175 / distance, rel=1e-6)
    assert focal * 0.175 / distance < FAR_BELOW_PX  # 5 m away a drone is drawn coarse…
    assert size_px(vp, np.array([(0.0, 0.0, 0.0)]), 0.175, 360)[0] > FAR_BELOW_PX  # …the followed one in full
