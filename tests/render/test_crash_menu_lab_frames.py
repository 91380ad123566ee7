"""Real frames (headless) of issue #14's part A: the CRASHED banner after a wall hit, the menu
by groups with its Restart confirmation, and the laboratory modes' note on PROPULSION.

Colours are checked against what the passes are documented to draw (the banner's title in the
HUD's warning red, the note in its yellow); figures (the hover collective) from the model.
"""

from __future__ import annotations

import numpy as np
import pytest

from components.flight import RigidBody
from game.render.hud import WARN, YELLOW
from game.render.passes.crash import CrashPass
from game.render.passes.lab_note import LabNotePass
from systems.menu import Menu
from tests import model

FRAME_S = 1.0 / 60.0


def settle(game, frames: int = 3) -> None:
    for _ in range(frames):
        game.frame(FRAME_S)


def press(game, button: str) -> None:
    game.sim.pad.press(button)
    game.frame(FRAME_S)
    game.sim.pad.release(button)
    game.frame(FRAME_S)


def the_pass(game, kind):
    return next(p for p in game.renderer.passes if isinstance(p, kind))


def coloured(pixels: np.ndarray, colour, tolerance: int = 40) -> int:
    """How many pixels are within `tolerance` (0..255 per channel) of an RGB colour."""
    target = np.array([round(c * 255) for c in colour[:3]])
    return int((np.abs(pixels[..., :3].astype(int) - target).max(axis=-1) <= tolerance).sum())


def layer_texts(*layers) -> list[str]:
    return [spec[1] for layer in layers for spec, _ in layer.items.values() if spec[0] == "t"]


def test_crashed_banner_after_a_wall_hit_and_gone_after_restart(make_game, save_shot):
    game = make_game()
    settle(game)
    before = game.pixels()
    body, = game.sim.components(RigidBody)
    body.position[:] = body.previous_position[:] = (9.0, 7.5, 3.0)
    body.velocity[:] = (0.0, 8.0, 0.0)  # into north-1's face at full cruise speed
    settle(game, 30)
    assert game.sim.telemetry().crashed
    shown = game.pixels()
    save_shot(shown, "crashed")
    banner = the_pass(game, CrashPass)
    assert layer_texts(banner.title, banner.line) == ["CRASHED", "Restart: R / BACK"]
    assert all(ch in banner.title.font.glyphs for ch in "CRASHÉ") and all(ch in banner.line.font.glyphs for ch in "R/")
    # the title, in the warning red, across the middle of the window
    assert coloured(shown, WARN) > coloured(before, WARN) + 400
    press(game, "BACK")  # Restart
    settle(game)
    assert not game.sim.telemetry().crashed
    assert coloured(game.pixels(), WARN) < coloured(before, WARN) + 100 and not layer_texts(banner.title, banner.line)


def test_crashed_banner_in_french(make_game):
    game = make_game(language="fr")
    settle(game)
    body, = game.sim.components(RigidBody)
    body.position[:] = body.previous_position[:] = (9.0, 7.5, 3.0)
    body.velocity[:] = (0.0, 8.0, 0.0)
    settle(game, 30)
    banner = the_pass(game, CrashPass)
    assert layer_texts(banner.title, banner.line) == ["ÉCRASÉ", "Recommencer : R / BACK"]


def test_the_menu_draws_its_groups_then_a_group_then_the_restart_question(make_game, save_shot):
    game = make_game()
    settle(game)
    plain = game.pixels()
    hud = game.renderer.hud
    menu = game.app.resource(Menu)
    press(game, "LB")
    top = layer_texts(hud.overlay)
    save_shot(game.pixels(), "menu_groups")
    assert layer_texts(hud.overlay_titles) == ["MENU"]
    assert {"Manual", "Assists ›", "Restart", "Laboratory ›", "Weather ›", "Air ›"} <= set(top)
    assert "Take off" not in top and not any(t.startswith("Weather: ") for t in top)
    assert np.abs(game.pixels().astype(int) - plain.astype(int)).mean() > 3.0
    menu.index = [r.key for r in menu.rows()].index("assists")
    press(game, "A")
    inside = layer_texts(hud.overlay)
    save_shot(game.pixels(), "menu_assists")
    assert layer_texts(hud.overlay_titles) == ["ASSISTS"] and inside[:3] == ["Take off", "Land", "Mission"]
    press(game, "B")
    menu.index = [r.key for r in menu.rows()].index("restart")
    press(game, "A")
    question = layer_texts(hud.overlay)
    save_shot(game.pixels(), "menu_restart_confirmation")
    assert layer_texts(hud.overlay_titles) == ["RESTART?"] and question[:2] == ["Yes, restart the flight", "Cancel"]


def test_the_menu_groups_in_french(make_game):
    game = make_game(language="fr")
    settle(game)
    press(game, "LB")
    hud = game.renderer.hud
    top = layer_texts(hud.overlay)
    assert {"Manuel", "Assistances ›", "Recommencer", "Laboratoire ›", "Météo ›", "Air ›"} <= set(top)


def hover_percent(density: float) -> float:
    """m g over four rotors at 22 000 rpm, kT ω² ρ/ρ₀ each, in % of that full collective."""
    w = model.MAX_RPM * model.RPM
    return 100.0 * model.MASS * model.G / (4 * model.KT * w * w * density / model.RHO0)


def test_angle_and_acro_say_propulsion_is_the_collective_and_where_hover_is(make_game, save_shot):
    game = make_game()
    settle(game)
    note = the_pass(game, LabNotePass)
    assert note.text is None and not layer_texts(note.layer)
    before = game.pixels()
    game.sim.select("angle")
    settle(game)
    expected = f"PROPULSION = collective · hover ≈ {hover_percent(model.RHO0):.0f} %"
    assert note.text == expected == "PROPULSION = collective · hover ≈ 56 %"
    assert all(ch in game.renderer.hud.large.glyphs for ch in note.text)  # drawn, not '?'
    shown = game.pixels()
    save_shot(shown, "lab_note_angle")
    assert coloured(shown, YELLOW) > coloured(before, YELLOW) + 100
    game.sim.select("acro")
    settle(game)
    assert note.text == expected
    game.sim.select("air:altitude_2000m")  # thinner air: hover needs more collective
    settle(game)
    from world.weather import Weather  # noqa: PLC0415

    density = game.app.resource(Weather).density_kg_m3
    assert density < model.RHO0
    assert note.text == f"PROPULSION = collective · hover ≈ {hover_percent(density):.0f} %"
    game.sim.select("manual")
    settle(game)
    assert note.text is None


def test_the_lab_note_in_french(make_game):
    game = make_game(language="fr")
    settle(game)
    game.sim.select("angle")
    settle(game)
    note = the_pass(game, LabNotePass)
    assert note.text == f"PROPULSION = poussée collective · vol stationnaire ≈ {hover_percent(model.RHO0):.0f} %"
