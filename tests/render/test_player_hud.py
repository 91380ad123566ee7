"""The player HUD (the default) and the engineering HUD (H), messages: real frames, headless."""

from __future__ import annotations

import numpy as np
import pytest

from components import events
from game.render.hud import HUD_PANEL
from game.render.player_hud import PANEL

SCREEN_AREA_LIMIT = 0.08  # the player HUD's panels together: at most 8 % of the screen


def _area(rects):
    return sum(w * h for _, _, w, h in rects)


def _overlap(a, b) -> bool:
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    return ax < bx + bw and bx < ax + aw and ay < by + bh and by < ay + ah


def _fly(game, seconds: float = 1.5) -> None:
    pad = game.sim.pad
    pad.rt = 1.0
    for _ in range(60):
        game.frame(1 / 60)
    pad.rt = 0.0
    pad.press("Y")
    for _ in range(round(seconds * 60)):
        game.frame(1 / 60)
    pad.release("Y")


def test_the_player_hud_covers_at_most_8_percent_of_a_1280x720_screen(make_game):
    game = make_game(width=1280, height=720)
    player = game.renderer.player_hud.panel_rects()
    engineering = game.renderer.hud.panel_rects()
    screen = 1280 * 720
    assert len(player) == 3
    for i, a in enumerate(player):  # no panel hides another, all on the screen
        assert 0 <= a[0] and a[0] + a[2] <= 1280 and 0 <= a[1] and a[1] + a[3] <= 720
        assert not any(_overlap(a, b) for b in player[i + 1:])
    assert _area(player) / screen <= SCREEN_AREA_LIMIT
    assert _area(player) < _area(engineering) / 2  # the engineering HUD is the big one


def test_the_player_hud_is_the_default_and_see_through(make_game, save_shot):
    game = make_game(width=1280, height=720)
    assert game.renderer.hud_kind == "player" and game.settings.hud == "player"
    _fly(game)
    game.frame(1 / 60)
    with_hud = game.pixels().astype(float)
    save_shot(game.pixels(), "player_hud")
    game.renderer.frame.show_hud = False
    game.draw()
    scene = game.pixels().astype(float)
    # a backing pixel of each panel (inside its padding, no text): the panel's colour over the
    # scene with its alpha, so the scene shows through
    alpha = PANEL[3]
    assert 0.0 < alpha < 1.0
    for x, y, w, h in game.renderer.player_hud.panel_rects():
        col, row = int(x + 3), int(720 - (y + h) + 3)  # top-left corner, rows from the top
        expected = np.array(PANEL[:3]) * 255 * alpha + scene[row, col, :3] * (1 - alpha)
        assert np.abs(with_hud[row, col, :3] - expected).max() <= 3.0, (x, y)


def test_h_toggles_the_engineering_hud(make_game, save_shot):
    game = make_game(width=1280, height=720)
    _fly(game, 0.5)
    game.on_action("hud")  # H
    game.frame(1 / 60)
    assert game.renderer.hud_kind == "engineering"
    assert game.renderer.hud.messages[-1][0] == "HUD: engineering"  # says which
    pixels = game.pixels()
    save_shot(pixels, "engineering_hud")
    x, y, w, h = game.renderer.hud.panel_rects()[0]
    col, row = int(x + 2), int(720 - (y + h) + 2)
    # the engineering panels are opaque: exactly their colour
    assert np.abs(pixels[row, col, :3].astype(float) - np.array(HUD_PANEL[:3]) * 255).max() <= 1.0
    game.on_action("hud")
    game.frame(1 / 60)
    assert game.renderer.hud_kind == "player"
    again = game.pixels()
    assert np.abs(again[row, col, :3].astype(float) - np.array(HUD_PANEL[:3]) * 255).max() > 1.0


def test_the_hud_setting_chooses_the_hud_at_start(make_game):
    game = make_game(hud="engineering")
    assert game.renderer.hud_kind == "engineering" and game.renderer.hud.visible
    assert not game.renderer.player_hud.visible


@pytest.mark.parametrize("size", [(1280, 720), (640, 360)])
@pytest.mark.parametrize("kind", ["player", "engineering"])
def test_messages_have_a_backing_and_never_cover_a_panel(make_game, size, kind):
    game = make_game(width=size[0], height=size[1], hud=kind)
    hud = game.renderer.hud
    for text in ("Niveau rechargé avec 1 erreur(s) : levels/street/level.toml:27: expected a number",
                 "Batterie faible : 19 %", "Manette connectée : Xbox Wireless Controller"):
        hud.message(text)
    game.frame(1 / 60)
    panels = game.renderer.player_hud.panel_rects() if kind == "player" else hud.panel_rects()
    assert len(hud.message_rects) == 3
    for i, rect in enumerate(hud.message_rects):
        assert not any(_overlap(rect, p) for p in panels), (rect, panels)
        assert f"message.back.{i}" in hud.free.items  # the shaded backing


def test_a_message_is_shown_once_in_the_huds_language(make_game):
    game = make_game(level="field", language="fr")
    hud = game.renderer.hud
    hud.messages.clear()
    game.app.emit(events.LandingRefused("no surface under the drone"))
    game.frame(1 / 60)
    assert [m[0] for m in hud.messages] == ["Atterrissage refusé : aucune surface sous le drone"]
    hud.messages.clear()
    game.sim.select("weather:breeze")
    game.frame(1 / 60)
    lines = [m[0] for m in hud.messages]
    assert len(lines) == 1 and lines[0].startswith("Météo : Petite brise"), lines


@pytest.mark.parametrize("language, line", [
    ("en", "Mission refused: this level has no mission route"),
    ("fr", "Mission refusée : ce niveau n'a pas de route de mission"),
])
def test_an_assists_refusal_reaches_the_hud_once(make_game, language, line):
    game = make_game(level="first-flight", language=language)  # a level without a mission route
    hud = game.renderer.hud
    game.frame(1 / 60)
    hud.messages.clear()
    game.sim.select("mission")
    game.frame(1 / 60)
    assert [m[0] for m in hud.messages] == [line]


def test_screenshot_command_chooses_the_hud(tmp_path, capsys):
    from PIL import Image  # noqa: PLC0415

    from game.cli import main  # noqa: PLC0415
    from game.render.hud import HUD_PANEL as OPAQUE  # noqa: PLC0415

    pictures = {}
    for kind in ("player", "engineering"):
        out = tmp_path / f"{kind}.png"
        assert main(["screenshot", "-o", str(out), "--size", "640x360", "--seconds", "0.2", "--hud", kind]) == 0
        assert f"{kind} HUD" in capsys.readouterr().out
        pictures[kind] = np.asarray(Image.open(out).convert("RGB")).astype(float)
    # the engineering HUD's FLIGHT panel is opaque at the bottom left; the player HUD's is see-through
    corner = (360 - 8, 8)  # (row, column): inside the bottom-left panel's padding (6 px margin, 4 px pad)
    assert np.abs(pictures["engineering"][corner] - np.array(OPAQUE[:3]) * 255).max() <= 1.0
    assert np.abs(pictures["player"][corner] - np.array(OPAQUE[:3]) * 255).max() > 1.0
    assert main(["screenshot", "-o", str(tmp_path / "x.png"), "--hud", "cockpit"]) == 2
    assert capsys.readouterr().err.strip().splitlines() == [
        "donify: --hud: expected one of player, engineering, got 'cockpit'"]
