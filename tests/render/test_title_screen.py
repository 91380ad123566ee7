"""The title screen: what `donify` opens on; `play --level` skips it; pause → Back to title.
Real frames, headless."""

from __future__ import annotations

import numpy as np
import pytest

from game.render.pause import ENTRIES as PAUSE_ENTRIES
from game.title import FREE_FLIGHT_LEVEL, TUTORIAL_LEVEL
from world.level_file import load_level, shipped_levels


@pytest.fixture
def make_titled():
    from game.settings import Settings  # noqa: PLC0415
    from game.window import Game  # noqa: PLC0415

    games = []

    def make(title=True, width=1280, height=720, **changes):
        settings = Settings()
        settings.input.backend = "none"
        for key, value in changes.items():
            settings.set(key, value)
        game = Game("street", settings=settings, width=width, height=height, visible=False, audio=False, title=title)
        games.append(game)
        return game

    yield make
    for game in games:
        game.close()


def _strings(view):
    return view.strings()


def _tap(game, button):
    game.sim.pad.press(button)
    game.frame(1 / 60)
    game.sim.pad.release(button)
    game.frame(1 / 60)


def _stick(game, y):
    game.sim.pad.left = (0.0, y)
    game.frame(1 / 60)
    game.sim.pad.left = (0.0, 0.0)
    game.frame(1 / 60)


def test_the_title_screen_lists_the_shipped_levels_and_waits(make_titled, save_shot):
    game = make_titled()
    game.frame(1 / 60)
    game.frame(1 / 60)
    save_shot(game.pixels(), "title_screen")
    screen, view = game.title.screen, game.title.view
    assert screen.open
    shown = _strings(view)
    for name in shipped_levels():  # every level, by the name its file gives it
        assert load_level(name).name in shown
    assert ("Tutorial" in shown) == (TUTORIAL_LEVEL in shipped_levels())
    for label in ("Free flight", "Settings", "Quit", "LEVELS", "COURSES"):
        assert label in shown
    # the selected level's description is shown under its top view
    level = screen.preview_level()
    assert level is not None and any(s and s in level.description for s in shown if s not in (level.name,))
    # the flight waits behind it: no simulated time passes, and the scene is shaded
    t0 = game.sim.time
    pixels = game.pixels().astype(float)
    for _ in range(30):
        game.frame(1 / 60)
    assert game.sim.time == t0
    kinds = [r.kind for r in screen.rows]
    screen.index = kinds.index("free")
    screen.activate()
    game.frame(1 / 60)
    assert not screen.open
    flying = game.pixels().astype(float)
    assert flying[200:500, 600:1200].mean() > pixels[200:500, 600:1200].mean() + 10  # the shade is gone
    for _ in range(30):
        game.frame(1 / 60)
    assert game.sim.time > t0
    assert game.sim.level.name == load_level(FREE_FLIGHT_LEVEL).name


def test_keyboard_or_gamepad_chooses_a_level_and_flies_it(make_titled):
    game = make_titled()
    game.frame(1 / 60)
    screen = game.title.screen
    target = next(i for i, r in enumerate(screen.rows) if r.kind == "level" and r.level_name == "field")
    for _ in range(target - screen.index):
        _stick(game, -1.0)  # down
    assert screen.index == target
    _tap(game, "A")  # Enter / A
    assert not screen.open
    assert game.sim.level.name == load_level("field").name
    spawn = game.sim.level.spawn_position(game.sim.vehicle.envelope_size_m[2])
    position = game.sim.telemetry().position
    assert abs(position[0] - spawn[0]) < 0.5 and abs(position[1] - spawn[1]) < 0.5  # on its spawn pad


def test_the_mouse_chooses_a_row(make_titled):
    game = make_titled()
    game.frame(1 / 60)
    screen, view = game.title.screen, game.title.view
    settings_row = [r.kind for r in screen.rows].index("settings")
    x, y, w, h = view.row_rects[settings_row]
    game.title.on_mouse_motion(x + w / 2, y + h / 2, 0, 0)
    assert screen.index == settings_row
    game.title.on_mouse_press(x + w / 2, y + h / 2, 1, 0)  # pyglet.window.mouse.LEFT
    assert screen.in_settings


def test_the_title_settings_change_the_language_and_the_hud(make_titled, save_shot):
    game = make_titled()
    screen = game.title.screen
    screen.index = [r.kind for r in screen.rows].index("settings")
    _tap(game, "A")
    assert screen.in_settings
    game.sim.pad.left = (1.0, 0.0)  # right on "Language"
    game.frame(1 / 60)
    game.sim.pad.left = (0.0, 0.0)
    game.frame(1 / 60)
    assert game.settings.language == "fr" and game.renderer.language == "fr"
    save_shot(game.pixels(), "title_settings_fr")
    assert "RÉGLAGES" in _strings(game.title.view)
    _stick(game, -1.0)
    _tap(game, "A")  # the HUD row: player → engineering
    assert game.settings.hud == "engineering" and game.renderer.hud_kind == "engineering"
    _tap(game, "B")
    assert not screen.in_settings and screen.open


def test_play_with_a_level_goes_straight_into_it(make_titled):
    game = make_titled(title=False)
    game.frame(1 / 60)
    assert not game.title.open
    t0 = game.sim.time
    for _ in range(10):
        game.frame(1 / 60)
    assert game.sim.time > t0


def test_the_pause_panel_goes_back_to_the_title(make_titled, save_shot):
    game = make_titled(title=False)
    game.frame(1 / 60)
    _tap(game, "START")
    assert game.pause.open
    for _ in range(PAUSE_ENTRIES.index("back_to_title")):
        _stick(game, -1.0)
    assert game.pause.entry == "back_to_title"
    _tap(game, "A")
    assert not game.pause.open and game.title.open
    save_shot(game.pixels(), "back_to_title")
    t0 = game.sim.time
    for _ in range(10):
        game.frame(1 / 60)
    assert game.sim.time == t0  # the flight waits behind the title screen
    assert "Quit" in _strings(game.title.view)


def test_the_top_view_is_north_up(make_titled):
    """North (world +Y) up, east (+X) right: the arrival pad is drawn on the side of the start
    pad the file puts it."""
    game = make_titled()
    screen = game.title.screen
    screen.index = next(i for i, r in enumerate(screen.rows) if r.level_name == "street")
    game.frame(1 / 60)
    level = screen.preview_level()
    pads = {p.role: p for p in level.pads}
    items = game.title.view.small.items
    drawn = {p.role: items[f"map.pad.{i}"][0] for i, p in enumerate(level.pads)}
    start, arrival = drawn["start"], drawn["arrival"]
    dy_world = pads["arrival"].position[1] - pads["start"].position[1]
    dx_world = pads["arrival"].position[0] - pads["start"].position[0]
    assert abs(dx_world) + abs(dy_world) > 10.0
    assert np.sign(arrival[2] - start[2]) == np.sign(dy_world) or dy_world == 0  # y up on the screen
    assert np.sign(arrival[1] - start[1]) == np.sign(dx_world) or dx_world == 0
