"""The tutorial prompt, the hint bar and the controls overlay (F1) in real frames, headless."""

from __future__ import annotations

import numpy as np

from game.input.keys import symbol_of
from game.render.passes.tutorial import DONE_SHOWN_S
from systems.tutorial import TutorialState
from world.level_file import load_level
from world.tutorial import fill

FRAME_S = 1.0 / 60.0


def settle(game, frames: int) -> None:
    for _ in range(frames):
        game.frame(FRAME_S)


def texts(layer) -> dict[str, str]:
    return {key: spec[1] for key, (spec, _) in layer.items.items() if spec[0] == "t"}


def region(game, key: str) -> tuple[slice, slice]:
    """Rows and columns (top row first) of a rectangle of the tutorial pass's layer."""
    x, y, w, h = game.renderer.tutorial.layer.items[key][0][1:5]
    height = game.renderer.frame.fb_height
    return slice(int(height - y - h) + 1, int(height - y) - 1), slice(int(x) + 1, int(x + w) - 1)


def bright_pixels(pixels, rows, cols) -> int:
    return int((pixels[rows, cols, :3].astype(int).min(axis=2) >= 200).sum())  # white text on a dark back


def dark_pixels(pixels, rows, cols) -> int:
    return int((pixels[rows, cols, :3].astype(int).max(axis=2) < 120).sum())


def test_the_tutorial_prompt_shows_step_one_with_the_players_keys(make_game, save_shot):
    game = make_game("first-flight", width=1280, height=720)
    settle(game, 3)
    shown = texts(game.renderer.tutorial.layer)
    steps = load_level("first-flight").tutorial.steps
    assert shown["tutorial.title"] == f"Tutorial · step 1/{len(steps)}"
    body = " ".join(v for k, v in sorted(shown.items()) if k.startswith("tutorial.line."))
    assert body == fill(steps[0].text.en, {"power_up": "Page Up / RT"})  # the default key and trigger
    with_prompt = game.pixels()
    save_shot(with_prompt, "tutorial_prompt")
    rows, cols = region(game, "tutorial.back")
    lines = 1 + len([k for k in shown if k.startswith("tutorial.line.")])
    assert bright_pixels(with_prompt, rows, cols) >= lines * 10 * 5  # ≥ 10 characters of ≥ 5 lit pixels a line
    game.renderer.frame.show_hud = False  # no HUD: no prompt either
    game.draw()
    without = game.pixels()
    game.renderer.frame.show_hud = True
    area = (rows.stop - rows.start) * (cols.stop - cols.start)
    assert dark_pixels(with_prompt, rows, cols) > 0.8 * area  # the see-through dark back behind the text…
    assert dark_pixels(without, rows, cols) < 0.2 * area  # …over pale sky and grass


def test_the_prompt_moves_on_when_the_step_is_done(make_game):
    game = make_game("first-flight")
    settle(game, 2)
    game.sim.pad.rt = 1.0  # MotorPower rises at 0.5 /s: 0.2 after 0.4 s
    settle(game, 40)
    game.sim.pad.rt = 0.0
    settle(game, 1)
    assert texts(game.renderer.tutorial.layer)["tutorial.title"] == "Tutorial · step 2/7"


def test_the_french_prompt(make_game, save_shot):
    game = make_game("first-flight", width=1280, height=720, language="fr")
    settle(game, 3)
    shown = texts(game.renderer.tutorial.layer)
    assert shown["tutorial.title"] == "Tutoriel · étape 1/7"
    assert shown["tutorial.line.0"].startswith("Maintenez Page Up / RT pour monter la propulsion")
    save_shot(game.pixels(), "tutorial_prompt_fr")


def test_the_hint_bar_asks_for_propulsion_while_the_motors_are_off(make_game):
    game = make_game("field")
    settle(game, 2)
    hint = texts(game.renderer.hud.free)["hints"]
    assert hint.startswith("Page Up / RT: raise propulsion · T / X: take off")
    game.sim.pad.rt = 1.0
    settle(game, 30)
    game.sim.pad.rt = 0.0
    settle(game, 1)
    assert texts(game.renderer.hud.free)["hints"].startswith("Space / Y: climb")


def test_f1_shows_the_controls_in_force_and_hides_them_again(make_game, save_shot):
    game = make_game("field", width=1280, height=720, controls__keys__brake=["B"])
    settle(game, 2)
    before = game.pixels()
    f1 = symbol_of("F1")
    game.devices.keyboard.on_key_press(f1, 0)
    game.devices.keyboard.on_key_release(f1, 0)
    settle(game, 1)
    assert game.renderer.tutorial.show_controls
    shown = texts(game.renderer.tutorial.layer)
    rows = {shown[k.replace(".action", ".keys")]: shown[k.replace(".action", ".pad")]
            for k in shown if k.endswith(".action") and shown[k] == "brake"}
    assert rows == {"B": "LS"}  # the rebinding in force, and the stick click of the gamepad
    assert {"Keyboard", "Gamepad", "Propulsion and height", "Moving", "Assists", "Game"} <= set(shown.values())
    after = game.pixels()
    save_shot(after, "controls_overlay")
    r, c = region(game, "controls.back")
    area = (r.stop - r.start) * (c.stop - c.start)
    assert dark_pixels(after, r, c) > 0.7 * area and dark_pixels(before, r, c) < 0.2 * area
    rows_of_text = sum(1 for k in shown if k.endswith(".action"))
    assert bright_pixels(after, r, c) >= rows_of_text * 3 * 10 * 5  # three columns of ≥ 10 lit pixels…
    game.devices.keyboard.on_key_press(f1, 0)
    game.devices.keyboard.on_key_release(f1, 0)
    settle(game, 1)
    assert not game.renderer.tutorial.show_controls and "controls.back" not in game.renderer.tutorial.layer.items


def test_the_texts_name_the_controls_of_the_device_in_use(make_game):
    """Before any input both devices are named; after a key press, the keyboard's keys alone."""
    game = make_game("first-flight")
    settle(game, 2)
    assert texts(game.renderer.hud.free)["hints"].startswith("Page Up / RT: raise propulsion")
    page_up = symbol_of("PAGEUP")
    game.devices.keyboard.on_key_press(page_up, 0)
    settle(game, 2)
    game.devices.keyboard.on_key_release(page_up, 0)
    settle(game, 1)
    assert game.renderer.tutorial.device == "keyboard"
    assert texts(game.renderer.hud.free)["hints"].startswith("Space: climb · T: take off · F1: controls")  # motors on, resting
    # 3 frames of Page Up at 0.5 /s give MotorPower 0.025 < 0.2: still step 1, now naming the key alone
    assert game.sim.telemetry().motor_power < 0.2
    assert texts(game.renderer.tutorial.layer)["tutorial.line.0"].startswith("Hold Page Up to raise")


def test_a_finished_tutorial_says_so_then_clears_the_prompt(make_game):
    game = make_game("first-flight")
    settle(game, 1)
    state = game.app.resource(TutorialState)
    state.progress.step = state.count  # as if the last step had just been completed
    state.finished_at_s = game.app.clock.time_s
    settle(game, 1)
    assert texts(game.renderer.tutorial.layer)["tutorial.title"] == "Tutorial complete: well flown!"
    for _ in range(round(DONE_SHOWN_S * 60)):
        game.sim.step(FRAME_S)  # the simulation alone: no need to draw these frames
    settle(game, 1)
    assert "tutorial.title" not in game.renderer.tutorial.layer.items


def test_the_pause_panel_lists_the_keys_and_buttons_in_force(make_game):
    game = make_game("field", controls__gamepad__LS="rightstick")  # brake on the right stick's click
    settle(game, 1)
    game.pause.toggle()
    game.pause.show_controls = True
    settle(game, 1)
    shown = texts(game.renderer.hud.overlay)
    pairs = {shown[k]: shown[k.replace(".action.", ".keys.")] for k in shown if k.startswith("controls.action.")}
    assert pairs["MotorPower +"] == "Page Up / RT"
    assert pairs["brake"] == "K / RS"
    assert pairs["controls overlay"] == "F1"


def test_the_prompt_never_covers_a_panel_of_either_hud(make_game, save_shot):
    for kind, size in (("player", (1280, 720)), ("engineering", (1280, 720)), ("engineering", (640, 360))):
        game = make_game("first-flight", width=size[0], height=size[1], hud=kind)
        settle(game, 2)
        x, y, w, h = game.renderer.tutorial.layer.items["tutorial.back"][0][1:5]
        panels = game.renderer.tutorial._panels()
        assert panels, kind
        for px, py, pw, ph in panels:
            assert px >= x + w or x >= px + pw or py >= y + h or y >= py + ph, (kind, size, (px, py, pw, ph))
        assert y >= 0
        save_shot(game.pixels(), f"tutorial_prompt_{kind}_{size[0]}")
