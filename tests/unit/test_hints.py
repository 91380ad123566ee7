"""The hint bar and the controls overlay's content (game/render/hints.py), from the bindings in force."""

from __future__ import annotations

from game.input.buttons import DEFAULT_GAMEPAD_BUTTONS
from game.input.keyboard import ACTIONS, DEFAULT_KEYS
from game.render.hints import GROUPS, MOVING_M_S, Controls, Situation, controls_table, hint_bar, key_label, next_actions
from game.settings import Settings

DEFAULT = Controls()


def test_motors_off_asks_to_raise_propulsion_with_the_bound_key_then_take_off():
    bar = hint_bar(Situation(motor_power=0.0, contact=True), DEFAULT)
    # the defaults: power_up = PAGEUP and RT; takeoff = T and X (pad button X on controller "x")
    assert bar == "Page Up / RT: raise propulsion · T / X: take off · F1: controls"


def test_rebinding_a_key_or_a_button_in_the_settings_changes_the_hint():
    settings = Settings()
    settings.controls.keys["power_up"] = ("U",)
    settings.controls.gamepad["X"] = "y"  # take-off on the controller's Y
    bar = hint_bar(Situation(motor_power=0.0), Controls.of(settings))
    assert bar.startswith("U / RT: raise propulsion · T / Y: take off")


def test_each_device_names_only_its_own_controls_and_falls_back_when_it_has_none():
    assert DEFAULT.keys_for("power_up", "keyboard") == "Page Up"
    assert DEFAULT.keys_for("power_up", "gamepad") == "RT"
    assert DEFAULT.keys_for("move_forward", "gamepad") == "left stick ↑"
    assert DEFAULT.keys_for("controls", "gamepad") == "F1"  # no button does it: the key is named
    unbound = Controls(keys={**DEFAULT_KEYS, "controls": ()})
    assert unbound.keys_for("controls") == ""
    assert "controls" not in hint_bar(Situation(), unbound)


def test_the_next_useful_action_follows_the_flight():
    assert [a for a, _ in next_actions(Situation(crashed=True))] == ["restart"]
    assert [a for a, _ in next_actions(Situation(mode="landing", motor_power=0.5))] == ["brake"]
    assert [a for a, _ in next_actions(Situation(motor_power=0.5, contact=True))] == ["climb", "takeoff"]
    fast = Situation(motor_power=0.5, contact=False, horizontal_speed=MOVING_M_S + 0.01)
    slow = Situation(motor_power=0.5, contact=False, horizontal_speed=MOVING_M_S)
    assert [a for a, _ in next_actions(fast)] == ["brake", "land"]
    assert [a for a, _ in next_actions(slow)] == ["move_forward", "land"]


def test_the_hint_bar_speaks_french():
    assert hint_bar(Situation(), DEFAULT, "fr").startswith("Page Up / RT : monter la propulsion")


def test_key_labels():
    assert [key_label(k) for k in ("PAGEUP", "LCTRL", "_1", "F1", "ESCAPE", "W")] == \
        ["Page Up", "Left Ctrl", "1", "F1", "Esc", "W"]


def test_the_overlay_lists_every_action_once_with_its_keyboard_and_gamepad_controls():
    grouped = [a for _, actions in GROUPS for a in actions if a in ACTIONS]
    assert sorted(grouped) == sorted(ACTIONS)  # every bindable action, once
    table = dict(controls_table(DEFAULT))
    power = {name: (k, p) for name, k, p in table["Propulsion and height"]}
    assert power["MotorPower +"] == ("Page Up", "RT")
    assert power["descend"] == ("Left Ctrl, Right Ctrl", DEFAULT_GAMEPAD_BUTTONS["A"].upper())


def test_hints_name_the_first_key_the_overlay_every_key():
    assert DEFAULT.keys_for("descend") == "Left Ctrl / A"
    assert DEFAULT.keyboard("descend") == "Left Ctrl, Right Ctrl"
    assert hint_bar(Situation(motor_power=0.5, contact=False), DEFAULT).startswith("↑ / left stick ↑: fly")


def test_the_gamepad_sticks_are_named_in_the_players_language():
    from game.render.hints import ACTIONS

    stick_actions = [a for a, (kind, *_rest) in ACTIONS.items() if kind == "stick"]
    assert stick_actions
    for action in stick_actions:
        english, french = Controls(language="en").pad(action), Controls(language="fr").pad(action)
        assert english.startswith(("left stick", "right stick"))
        assert french.startswith(("stick gauche", "stick droit")) and french[-1] == english[-1]  # the same arrow
