"""Real frames of the game loop, drawn headless (EGL, Mesa) and read back.

Each test builds its own Game (its own Simulation, App, window and GL objects), drives it
with a fake clock — `game.frame(1 / 60)` is one frame of 1/60 s of game time — and looks at
the pixels. Screenshots are saved under tests/render/output/ for a human to inspect.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from components.flight import RigidBody
from game.render.drone_model import SHELL_SIZE_M
from world.level_file import shipped_levels

FRAME_S = 1.0 / 60.0


def settle(game, frames: int = 20) -> None:
    for _ in range(frames):
        game.frame(FRAME_S)


def press(game, button: str) -> None:
    """One press of a pad button through the game loop (pressed for a frame, then released)."""
    game.sim.pad.press(button)
    game.frame(FRAME_S)
    game.sim.pad.release(button)
    game.frame(FRAME_S)


def white(px: np.ndarray) -> np.ndarray:
    """Pixels a lit white shell gives: bright and without colour (R, G, B ≥ 175, spread ≤ 25)."""
    rgb = px[..., :3].astype(int)
    return (rgb.min(axis=2) >= 175) & (rgb.max(axis=2) - rgb.min(axis=2) <= 25)


def centre_box(shape, fraction: float = 0.15) -> tuple[slice, slice]:
    h, w = shape[:2]
    return (slice(int(h * (0.5 - fraction)), int(h * (0.5 + fraction))),
            slice(int(w * (0.5 - fraction)), int(w * (0.5 + fraction))))


def shell_pixels(game) -> tuple[np.ndarray, np.ndarray]:
    """(frame, mask of the white pixels the drone brings to it): the same frame drawn again
    without the drone tells the shell from white paint on the ground."""
    game.frame(FRAME_S)
    with_drone = game.pixels()
    game.renderer.frame.show_drone = False
    game.draw()
    without = game.pixels()
    game.renderer.frame.show_drone = True
    return with_drone, white(with_drone) & ~white(without)


def test_drone_is_visible_in_the_chase_view(make_game, save_shot):
    game = make_game()
    settle(game)
    with_drone, mask = shell_pixels(game)
    save_shot(with_drone, "chase_view")
    rows, cols = centre_box(with_drone.shape)
    shell = mask[rows, cols]
    # The shell's back (58 mm wide, ≈ 27 mm tall) seen by the chase camera (0.7 m behind, 0.22 m
    # up: ≈ 0.73 m away) with a 60° vertical field of view on 360 rows (focal ≈ 312 px) covers
    # ≈ 25 × 12 px: at least half of that must read white, inside the central 30 % of the frame.
    chase = game.renderer.cameras.cameras["chase"]
    focal_px = 180.0 / math.tan(math.radians(chase.fov_y_deg / 2.0))
    distance_m = math.hypot(chase.distance_m, chase.height_m)
    back_px = (SHELL_SIZE_M[1] * focal_px / distance_m) * (0.0275 * focal_px / distance_m)
    assert shell.sum() >= 0.5 * back_px
    ys, xs = np.nonzero(shell)
    centre_row, centre_col = ys.mean() + rows.start, xs.mean() + cols.start
    assert abs(centre_row - 180) < 0.1 * 360 and abs(centre_col - 320) < 0.1 * 640


def _flight_panel(game) -> tuple[slice, slice]:
    """Rows and columns (top row first) of the HUD's FLIGHT panel."""
    x, y, w, h = game.renderer.hud.panels.items["flight.panel"][0][1:5]
    height = game.renderer.frame.fb_height
    return slice(int(height - y - h) + 1, int(height - y) - 1), slice(int(x) + 1, int(x + w) - 1)


def test_hud_shows_text_in_its_region(make_game, save_shot):
    game = make_game(hud="engineering")  # the engineering HUD: its FLIGHT panel
    settle(game, 5)
    before = game.pixels()
    rows, cols = _flight_panel(game)
    panel = before[rows, cols, :3].astype(int)
    text = panel.max(axis=2) >= 150  # the panel is opaque dark: bright pixels are its text
    # eight labelled readouts (PROPULSION … V SPEED), each ≥ 10 characters of ≥ 5 lit pixels
    assert text.sum() >= 8 * 10 * 5
    lit_rows = text.any(axis=1).astype(int)
    lines = int((np.diff(np.concatenate(([0], lit_rows))) == 1).sum())  # runs of rows holding text
    assert lines >= 8  # eight lines of text, not one blob
    game.sim.pad.rt = 1.0  # MotorPower rises: the PROPULSION readout must change
    settle(game, 30)
    game.sim.pad.rt = 0.0
    after = game.pixels()
    save_shot(after, "hud")
    assert np.abs(after[rows, cols].astype(int) - before[rows, cols].astype(int)).max() > 100
    assert game.sim.telemetry().motor_power == pytest.approx(0.5 * 31 * FRAME_S, rel=0.05)  # 0.5 /s (docs/model.md)


def _prop_discs_mask(renderer, shape) -> np.ndarray:
    """Pixels inside the projected discs swept by the four propellers (each disc's outline,
    projected, is a convex polygon: a pixel is inside when it is on the inner side of every
    edge, with a 2 px margin)."""
    mask = np.zeros(shape[:2], bool)
    radius = renderer.vehicle.prop_diameter_m / 2.0
    for centre in renderer.drone.prop_centres_m:
        ring = np.array([renderer.project((renderer.frame.pose.model @ np.array(
            (centre[0] + radius * math.cos(a), centre[1] + radius * math.sin(a), centre[2], 1.0)))[:3])
            for a in np.linspace(0.0, 2.0 * math.pi, 48, endpoint=False)])
        x0, y0 = np.floor(ring.min(axis=0)).astype(int) - 3
        x1, y1 = np.ceil(ring.max(axis=0)).astype(int) + 3
        x0, y0 = max(x0, 0), max(y0, 0)
        ys, xs = np.mgrid[y0:min(y1, shape[0]), x0:min(x1, shape[1])]
        (ax, ay), (bx, by) = ring[1] - ring[0], ring[2] - ring[0]
        sign = 1.0 if ax * by - ay * bx > 0 else -1.0  # which way the outline winds on screen
        inside = np.ones(xs.shape, bool)
        for (px, py), (qx, qy) in zip(ring, np.roll(ring, -1, axis=0)):
            inside &= sign * ((qx - px) * (ys - py) - (qy - py) * (xs - px)) >= -2.0 * math.hypot(qx - px, qy - py)
        mask[ys[inside], xs[inside]] = True
    return mask


def test_props_turn_between_frames_when_armed(make_game, save_shot):
    game = make_game()
    chase = game.renderer.cameras.cameras["chase"]
    chase.distance_m, chase.height_m = 0.45, 0.2  # a closer chase: the discs are bigger
    game.renderer.frame.show_hud = False  # the readouts change at their own pace
    settle(game)
    a = game.pixels()
    game.frame(FRAME_S)
    b = game.pixels()
    assert (np.abs(a.astype(int) - b.astype(int)).max(axis=2) > 8).sum() == 0  # disarmed: nothing moves
    game.sim.pad.rt = 1.0
    game.frame(FRAME_S)
    game.sim.pad.rt = 0.0
    changed_frames = 0
    for _ in range(3):
        angles = list(game.renderer.props.angles)
        a = game.pixels()
        game.frame(FRAME_S)
        b = game.pixels()
        # each prop turned by its own ω·dt, in its own direction
        rpm = game.sim.telemetry().rpm
        assert min(rpm) > 1000.0
        assert all(abs(x - y) > 1e-3 for x, y in zip(angles, game.renderer.props.angles))
        diff = np.abs(a.astype(int) - b.astype(int)).max(axis=2) > 8
        discs = _prop_discs_mask(game.renderer, diff.shape)
        if diff[discs].sum() >= 20 and diff[discs].sum() > diff[~discs].sum():
            changed_frames += 1
    save_shot(b, "props_armed")
    assert changed_frames >= 2  # the change is in the propeller discs, frame after frame


def test_first_person_view_differs_from_the_chase_view(make_game, save_shot):
    game = make_game()
    settle(game, 5)
    chase = game.pixels()
    press(game, "RB")  # the camera button cycles chase → first person
    assert game.renderer.cameras.active == "fpv"
    fpv = game.pixels()
    save_shot(fpv, "first_person_view")
    rows, cols = slice(100, 260), slice(0, 640)  # between the HUD panels
    difference = np.abs(chase[rows, cols].astype(int) - fpv[rows, cols].astype(int)).mean()
    assert difference > 20.0
    texts = [spec[1] for spec, _ in game.renderer.hud.text.items.values() if spec[0] == "t"]
    assert "FIRST PERSON" in texts  # the HUD says which camera, from the next frame on
    game.renderer.frame.show_drone = False
    game.frame(FRAME_S)
    assert np.array_equal(game.pixels()[rows, cols], fpv[rows, cols])  # its own camera does not see the drone
    game.renderer.frame.show_drone = True
    press(game, "RB")
    assert game.renderer.cameras.active == "top"
    save_shot(game.pixels(), "map_view")
    press(game, "RB")
    assert game.renderer.cameras.active == "chase"


@pytest.mark.parametrize("level", shipped_levels())
def test_painting_the_ground_first_changes_no_pixel(make_game, level):
    """The ground is drawn first and without the depth test (seen from above, whatever stands
    on it is in front of it): every camera must see exactly what the depth-tested ground
    drawn last gives, on the pad and in flight, with rain falling to the ground."""
    from world.weather import Weather

    game = make_game(level)
    game.app.resource(Weather).rain_mm_h = 4.0

    def compare(moment: str) -> None:
        for _ in game.renderer.cameras.cameras:
            game.renderer.level.ground_first = True
            game.draw()
            first = game.pixels()
            game.renderer.level.ground_first = False
            game.draw()
            last = game.pixels()
            game.renderer.level.ground_first = True
            camera = game.renderer.cameras.active
            assert np.array_equal(first, last), f"{moment}, {camera} camera"
            game.renderer.cycle_camera()

    settle(game, 5)
    assert game.renderer.level.ground_first  # the shipped levels have nothing under their ground
    compare("on the pad")
    press(game, "X")  # take-off
    settle(game, 90)
    assert game.renderer.frame.pose.position[2] > 1.0
    compare("in flight")


def test_resize_keeps_the_aspect(make_game, save_shot):
    game = make_game()
    settle(game)

    def shell_box():
        px, mask = shell_pixels(game)
        ys, xs = np.nonzero(mask)
        return px, (xs.max() - xs.min() + 1), (ys.max() - ys.min() + 1)

    _, w0, h0 = shell_box()
    game.resize(400, 360)  # narrower: the headless surface stays 640 × 360, the viewport follows
    settle(game, 3)
    px, w1, h1 = shell_box()
    assert px.shape[:2] == (360, 400)
    save_shot(px, "resized_400x360")
    assert game.renderer.aspect == pytest.approx(400 / 360)
    # same height of window: the same vertical field of view gives the same size in pixels;
    # a stretched image would be 400/640 as wide
    assert w1 / h1 == pytest.approx(w0 / h0, rel=0.15)
    assert w1 == pytest.approx(w0, rel=0.15)
    hud = game.renderer.hud
    assert hud.width == 400 and max(item[0][1] + item[0][3] for key, item in hud.panels.items.items()) <= 400


def test_flight_menu_and_pause_panel_draw(make_game, save_shot):
    game = make_game()
    settle(game, 3)
    plain = game.pixels()
    press(game, "LB")  # Tab / LB opens the flight menu
    from systems.menu import Menu

    menu = game.app.resource(Menu)
    assert menu.open
    shown = game.pixels()
    save_shot(shown, "flight_menu")
    rows, cols = centre_box(shown.shape, 0.2)
    assert np.abs(shown[rows, cols].astype(int) - plain[rows, cols].astype(int)).mean() > 15.0
    texts = [spec[1] for spec, _ in game.renderer.hud.overlay.items.values() if spec[0] == "t"]
    assert "Restart" in texts and "Manual" in texts
    press(game, "LB")
    assert not menu.open
    time_before = game.sim.time
    press(game, "START")  # Esc / START: pause
    assert game.pause.open
    paused = game.pixels()
    save_shot(paused, "pause_panel")
    settle(game, 10)
    assert game.sim.time == time_before  # paused from the frame START was pressed in
    assert np.abs(paused[rows, cols].astype(int) - plain[rows, cols].astype(int)).mean() > 15.0
    press(game, "START")
    assert not game.pause.open
    settle(game, 2)
    assert game.sim.time > time_before


def test_french_hud_labels(make_game):
    game = make_game(language="fr")
    settle(game, 2)
    texts = [spec[1] for spec, _ in game.renderer.hud.text.items.values() if spec[0] == "t"]
    assert "HAUTEUR SOL" in texts and "CIBLE Z" in texts and "PROPULSION" in texts


def test_messages_from_game_events(make_game):
    from components import events

    game = make_game()
    settle(game, 2)
    game.app.emit(events.ControllerConnected("Xbox Wireless Controller"))
    game.app.emit(events.LevelReloaded(["level.toml:12: boxes.0.size: expected 3 numbers, got 2"]))
    game.frame(FRAME_S)
    lines = [m[0] for m in game.renderer.hud.messages]
    assert lines[0] == "Controller connected: Xbox Wireless Controller"
    assert lines[1].startswith("Level reloaded with 1 error(s): level.toml:12")
    titles = [spec[1] for spec, _ in game.renderer.hud.titles.items.values() if spec[0] == "t"]
    assert set(lines) <= set(titles)
    for _ in range(round(4.5 / FRAME_S)):  # a message stays 4 s (of game time: no need to draw them)
        game.step(FRAME_S)
    game.frame(FRAME_S)
    assert not game.renderer.hud.messages


def test_rendering_interpolates_between_fixed_ticks(make_game):
    game = make_game()
    game.sim.pad.rt = 1.0
    settle(game, 40)
    game.sim.pad.press("Y")  # climbing: the position changes every tick
    settle(game, 10)
    game.frame(1.0 / 100.0)  # 2.4 ticks: 2 run, 0.4 pending
    (body,) = game.sim.components(RigidBody)
    alpha = game.app.clock.alpha
    assert 0.0 < alpha < 1.0
    expected = [p + (c - p) * alpha for p, c in zip(body.previous_position, body.position)]
    assert game.renderer.frame.pose.position == pytest.approx(expected)


def test_the_attitude_is_interpolated_too(make_game):
    from flight import quat

    game = make_game()
    game.sim.pad.rt = 1.0
    settle(game, 40)
    game.sim.pad.right = (1.0, 0.0)  # yawing at full stick: the attitude changes every tick
    settle(game, 30)
    game.frame(1.0 / 100.0)
    (body,) = game.sim.components(RigidBody)
    alpha = game.app.clock.alpha
    q0, q1 = tuple(body.previous_quaternion), tuple(body.quaternion)
    assert q0 != q1 and 0.0 < alpha < 1.0
    # the blend of two attitudes 1/240 s apart: between them, and at alpha of the way
    yaw0, yaw1 = quat.to_euler(q0)[2], quat.to_euler(q1)[2]
    forward = game.renderer.frame.pose.rotation[:3, :3] @ [1.0, 0.0, 0.0]
    yaw_drawn = math.atan2(forward[1], forward[0])
    assert yaw_drawn == pytest.approx(yaw0 + (yaw1 - yaw0) * alpha, abs=1e-4)


def test_simulation_does_not_depend_on_the_frame_rate(make_game):
    """The same 1 s of play at 30 fps and at 144 fps ends in the same simulated state."""
    states = []
    for fps in (30, 144):
        game = make_game()
        game.sim.pad.rt = 1.0
        for _ in range(fps):
            game.step(1.0 / fps)
        states.append((game.app.clock.ticks, tuple(game.sim.telemetry().position)))
    assert states[0][0] == states[1][0] == 240
    assert states[0][1] == pytest.approx(states[1][1], abs=1e-9)


def test_rain_is_drawn_and_the_hud_says_it_is_visual_only(make_game, save_shot):
    from world.weather import Weather

    game = make_game()
    weather = game.app.resource(Weather)
    weather.rain_mm_h = 8.0
    settle(game, 10)
    assert game.renderer.rain.streaks.count > 0  # streaks around the camera
    save_shot(game.pixels(), "rain")
    texts = [spec[1] for spec, _ in game.renderer.hud.free.items.values() if spec[0] == "t"]
    assert any(t.startswith("Rain: visual only") and f"({weather.rain_mm_h:g} mm/h)" in t for t in texts)
    game.app.resource(Weather).rain_mm_h = 0.0
    settle(game, 4)
    texts = [spec[1] for spec, _ in game.renderer.hud.free.items.values() if spec[0] == "t"]
    assert not any(t.startswith("Rain") for t in texts)


def test_a_reloaded_level_is_drawn_anew(make_game):
    from world.level import ActiveLevel
    from world.level_file import load_level

    game = make_game()
    settle(game, 2)
    street_route = list(game.renderer.route.points)
    before = game.pixels()
    field = load_level("field")
    game.app.resource(ActiveLevel).swap(field)  # what a hot reload does
    settle(game, 2)
    assert game.renderer.route.points == field.route() != street_route
    assert np.abs(game.pixels().astype(int) - before.astype(int)).mean() > 5.0


def test_screenshot_saves_the_frame_as_png(make_game, tmp_path):
    import struct

    game = make_game(width=640, height=360)
    settle(game, 2)
    path = game.save_screenshot(tmp_path / "shots" / "frame.png")
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", data[16:24]) == (640, 360)  # IHDR: width, height
    assert game.renderer.hud.messages[-1][0] == f"Screenshot saved: {path}"


def test_screenshot_command(tmp_path, capsys):
    from game.cli import main

    out = tmp_path / "docs" / "screenshot.png"
    out.parent.mkdir()  # an existing folder: a missing one is refused (tests/integration/test_first_run_cli.py)
    assert main(["screenshot", "-o", str(out), "--size", "480x270", "--seconds", "0.5"]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    capsys.readouterr()
    assert main(["screenshot", "-o", str(out), "--size", "12x5"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["donify: --size: expected WIDTHxHEIGHT in pixels (320x240 to 7680x4320), got '12x5'"]


def test_the_hud_speaks_of_the_players_drone_not_of_the_others(make_game):
    from components import events
    from systems.scene import Player

    game = make_game()
    settle(game, 2)
    other = game.sim.add_drone(position=(3.0, -2.0, 0.0205))
    player = game.app.resource(Player).entity
    for event in (events.BatteryLow(0.15, other.entity), events.BatteryDepleted(other.entity),
                  events.LandingRefused("no surface under the drone", other.entity),
                  events.Impact(6.0, (1.0, 0.0, 0.0), 0.3, other.entity)):
        game.app.emit(event)
    game.frame(FRAME_S)
    assert not game.renderer.hud.messages  # nothing said of a drone the player does not fly
    game.app.emit(events.BatteryLow(0.15, player))
    game.frame(FRAME_S)
    lines = [m[0] for m in game.renderer.hud.messages]
    assert len(lines) == 1 and "15" in lines[0]  # the player's own low battery is said
