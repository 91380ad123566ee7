"""Keyboard → virtual Pad: held keys deflect sticks and triggers fully, opposite keys cancel,
release returns to neutral, key presses are button presses with the shared pad meaning
(preamble / issue #3), and the bindings come from the settings file."""

from __future__ import annotations

import math

import pytest

from components.pilot import Pad
from game.input.keyboard import ACTIONS, DEFAULT_KEYS, KeyboardInput
from game.input.keys import symbol_of
from game.input.padwriter import PadWriter
from game.settings import load_settings


def press(kb: KeyboardInput, *names: str) -> None:
    for name in names:
        kb.on_key_press(symbol_of(name), 0)
    kb.update(1 / 60)


def release(kb: KeyboardInput, *names: str) -> None:
    for name in names:
        kb.on_key_release(symbol_of(name), 0)
    kb.update(1 / 60)


@pytest.fixture
def kb():
    return KeyboardInput(PadWriter(Pad()))


@pytest.mark.parametrize(("key", "stick", "expected"), [
    ("UP", "left", (0.0, 1.0)), ("W", "left", (0.0, 1.0)),
    ("DOWN", "left", (0.0, -1.0)), ("S", "left", (0.0, -1.0)),
    ("LEFT", "left", (-1.0, 0.0)), ("A", "left", (-1.0, 0.0)),
    ("RIGHT", "left", (1.0, 0.0)), ("D", "left", (1.0, 0.0)),
    ("Q", "right", (-1.0, 0.0)), ("E", "right", (1.0, 0.0)),
])
def test_a_held_key_gives_full_stick_and_release_returns_to_neutral(kb, key, stick, expected):
    press(kb, key)
    assert getattr(kb.writer.pad, stick) == expected
    kb.update(1 / 60)  # still held next frame
    assert getattr(kb.writer.pad, stick) == expected
    release(kb, key)
    assert getattr(kb.writer.pad, stick) == (0.0, 0.0)


@pytest.mark.parametrize(("a", "b", "stick"), [("UP", "DOWN", "left"), ("W", "S", "left"), ("LEFT", "RIGHT", "left"),
                                               ("A", "D", "left"), ("Q", "E", "right")])
def test_opposite_keys_cancel(kb, a, b, stick):
    press(kb, a, b)
    assert getattr(kb.writer.pad, stick) == (0.0, 0.0)
    release(kb, b)  # the other one alone deflects again
    assert math.hypot(*getattr(kb.writer.pad, stick)) == 1.0


def test_two_keys_for_one_direction_still_give_full_not_double(kb):
    press(kb, "UP", "W")
    assert kb.writer.pad.left == (0.0, 1.0)


def test_perpendicular_keys_give_a_diagonal_of_length_one(kb):
    press(kb, "UP", "RIGHT")
    x, y = kb.writer.pad.left
    assert math.isclose(math.hypot(x, y), 1.0) and math.isclose(x, y)


@pytest.mark.parametrize(("key", "trigger"), [("PAGEUP", "rt"), ("PAGEDOWN", "lt")])
def test_page_keys_are_full_triggers_while_held(kb, key, trigger):
    press(kb, key)
    assert getattr(kb.writer.pad, trigger) == 1.0
    release(kb, key)
    assert getattr(kb.writer.pad, trigger) == 0.0


# The shared pad meaning (preamble): A descend (Ctrl), B land (L), X take-off (T), Y climb
# (Space), LB menu (Tab), RB camera (C), LS brake (K), START pause (Esc), BACK restart (R).
@pytest.mark.parametrize(("key", "button"), [
    ("LCTRL", "A"), ("RCTRL", "A"), ("L", "B"), ("T", "X"), ("SPACE", "Y"), ("TAB", "LB"),
    ("C", "RB"), ("K", "LS"), ("ESCAPE", "START"), ("R", "BACK"), ("ENTER", "A"),
])
def test_default_keys_press_the_pad_buttons_of_the_shared_meaning(kb, key, button):
    assert kb.on_key_press(symbol_of(key), 0) is True  # handled: pyglet's Esc-closes-window never runs
    assert kb.writer.pad.is_held(button) and kb.writer.pad.presses == [button]
    kb.on_key_release(symbol_of(key), 0)
    assert not kb.writer.pad.is_held(button)


def test_both_ctrl_keys_hold_A_until_the_last_is_released(kb):
    press(kb, "LCTRL", "RCTRL")
    assert kb.writer.pad.presses == ["A"]  # one press edge, not two
    release(kb, "LCTRL")
    assert kb.writer.pad.is_held("A")
    release(kb, "RCTRL")
    assert not kb.writer.pad.is_held("A")


def test_key_repeat_does_not_press_again(kb):
    press(kb, "SPACE", "SPACE")
    assert kb.writer.pad.presses == ["Y"]


def test_window_actions_go_to_the_callback_not_the_pad():
    actions = []
    kb = KeyboardInput(PadWriter(Pad()), on_action=actions.append)
    press(kb, "F11", "F12")
    assert actions == ["fullscreen", "screenshot"]
    assert kb.writer.pad.held == set() and kb.writer.pad.left == (0.0, 0.0)


def test_unbound_keys_are_left_to_other_handlers(kb):
    assert kb.on_key_press(symbol_of("Z"), 0) is None
    assert kb.on_key_release(symbol_of("Z"), 0) is None


def test_modifiers_do_not_change_the_mapping(kb):
    kb.on_key_press(symbol_of("LCTRL"), 0)
    kb.on_key_press(symbol_of("W"), 2)  # MOD_CTRL held: Ctrl+W still moves forward while descending
    kb.update(1 / 60)
    assert kb.writer.pad.left == (0.0, 1.0) and kb.writer.pad.is_held("A")


def test_an_idle_keyboard_never_overwrites_another_device(kb):
    kb.update(1 / 60)
    kb.writer.pad.left = (0.3, -0.4)  # a script or a gamepad wrote the stick
    kb.writer.pad.rt = 0.7
    for _ in range(3):
        kb.update(1 / 60)
    assert kb.writer.pad.left == (0.3, -0.4) and kb.writer.pad.rt == 0.7


def test_focus_loss_releases_everything(kb):
    press(kb, "UP", "SPACE", "PAGEUP")
    kb.release_all()
    assert kb.writer.pad.left == (0.0, 0.0) and kb.writer.pad.rt == 0.0 and kb.writer.pad.held == set()


def test_keyboard_and_gamepad_share_a_button_until_both_let_go():
    pad = Pad()
    writer = PadWriter(pad)
    kb = KeyboardInput(writer)
    gamepad = writer.add("gamepad")
    press(kb, "SPACE")
    writer.press(gamepad, "Y")
    release(kb, "SPACE")
    assert pad.is_held("Y")
    writer.release(gamepad, "Y")
    assert not pad.is_held("Y")


def test_every_action_has_a_default_binding_and_bindings_use_known_actions():
    assert set(DEFAULT_KEYS) == set(ACTIONS)
    with pytest.raises(ValueError, match="unknown action"):
        KeyboardInput(PadWriter(Pad()), {"fly_to_the_moon": ["M"]})
    with pytest.raises(ValueError, match="unknown key name"):
        KeyboardInput(PadWriter(Pad()), {"climb": ["NOT_A_KEY"]})


def test_bindings_remapped_in_the_settings_file(tmp_path):
    (tmp_path / "settings.toml").write_text('[controls.keys]\nclimb = "U"\nyaw_left = ["J", "q"]\nbrake = []\n')
    settings = load_settings(tmp_path)
    assert settings.warnings == []
    kb = KeyboardInput(PadWriter(Pad()), settings.controls.keys)
    press(kb, "U")
    assert kb.writer.pad.is_held("Y")
    release(kb, "U")
    press(kb, "SPACE")  # the old climb key no longer climbs
    assert not kb.writer.pad.is_held("Y")
    press(kb, "J")
    assert kb.writer.pad.right == (-1.0, 0.0)
    release(kb, "J")
    press(kb, "K")  # brake unbound
    assert not kb.writer.pad.is_held("LS")
    press(kb, "UP")  # untouched actions keep their defaults
    assert kb.writer.pad.left == (0.0, 1.0)


def test_page_up_through_the_simulation_raises_motor_power_half_per_second(make_sim):
    # docs/model.md#stabilised-manual-flight: RT / Page Up raises MotorPower at 0.5 per second at full trigger.
    sim = make_sim(level=None, density=0.0, wind=(0.0, 0.0, 0.0), position=(0.0, 0.0, 100.0))
    kb = KeyboardInput(PadWriter(sim.pad))
    kb.on_key_press(symbol_of("PAGEUP"), 0)
    for _ in range(60):
        kb.update(1 / 60)
        sim.step(1 / 60)
    kb.on_key_release(symbol_of("PAGEUP"), 0)
    kb.update(1 / 60)
    sim.step(1 / 60)
    assert sim.telemetry().motor_power == pytest.approx(0.5, abs=0.5 / 60 + 1e-9)
    assert sim.pad.rt == 0.0


def test_the_menu_from_the_keyboard_tab_arrows_enter(make_sim):
    from components.pilot import PilotCommand
    from components import events
    from systems.menu import Menu

    class Heard:
        def __init__(self):
            self.selected = []

        def on_selected(self, event):
            self.selected.append(event.entry)

    sim = make_sim(level=None, density=0.0, wind=(0.0, 0.0, 0.0), position=(0.0, 0.0, 100.0))
    heard = Heard()
    sim.app.on(events.MenuSelected, heard.on_selected)
    menu = sim.app.resource(Menu)
    kb = KeyboardInput(PadWriter(sim.pad))

    def frame():
        kb.update(1 / 60)
        sim.step(1 / 60)

    press(kb, "TAB")
    frame()
    release(kb, "TAB")
    frame()
    assert menu.open and menu.index == 0
    press(kb, "DOWN")
    frame()
    release(kb, "DOWN")
    frame()
    assert menu.index == 1 and menu.rows()[1].key == "assists"  # the menu opens on its groups
    press(kb, "ENTER")  # Enter opens the group …
    frame()
    release(kb, "ENTER")
    frame()
    assert menu.open and menu.group == "assists" and not heard.selected
    press(kb, "LEFT")  # … Left goes back to the groups …
    frame()
    release(kb, "LEFT")
    frame()
    assert menu.open and menu.group is None and menu.index == 1
    press(kb, "RIGHT")  # … Right opens it again, and Enter chooses its first entry
    frame()
    release(kb, "RIGHT")
    frame()
    assert menu.group == "assists"
    press(kb, "ENTER")
    frame()
    assert not menu.open and heard.selected == [menu.rows()[0].key] == ["takeoff"]
    frame()  # Enter still held after choosing: it must not descend (docs/model.md#menu)
    assert "A" not in sim.app.resource(PilotCommand).held
