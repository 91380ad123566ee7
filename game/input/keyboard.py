"""The keyboard as a gamepad: held keys move the virtual Pad's sticks and triggers, pressed
keys press its buttons, a few keys are window actions (fullscreen, screenshot).

A binding maps an *action* to key names (pyglet's, see game/input/keys.py). Each action does
one thing to the Pad, the same thing its gamepad control does (the shared pad meaning):

| action | Pad | default keys |
|---|---|---|
| move_forward / move_back / move_left / move_right | left stick up / down / left / right | arrows, W S A D |
| yaw_left / yaw_right | right stick x −1 / +1 | Q / E |
| power_up / power_down | RT / LT (MotorPower up / down) | Page Up / Page Down |
| climb / descend | Y / A | Space / Left or Right Ctrl |
| confirm | A (chooses the menu entry; out of the menu it is the descend button) | Enter |
| brake, takeoff, land | LS, X, B | K, T, L |
| menu, camera, pause, restart | LB, RB, START, BACK | Tab, C, Esc, R |
| follow_next: the cameras and the HUD follow the next drone (game/render/follow.py) | RS | F |
| fullscreen, screenshot, hud | window actions, passed to `on_action(name)` | F11, F12, H |
| controls | window action: the controls overlay (the bindings in force) | F1 |
| save_replay | window action: save the flight so far as a replay (game/replay_window.py) | F9 |
| replay_pause, replay_slower, replay_faster, replay_restart | window actions while a replay plays | P, −, =, Backspace |

A held key gives full deflection; opposite keys cancel; two perpendicular keys give a
diagonal of length 1 (like a round physical stick); a page key gives a full trigger.
The window forwards its key events (`on_key_press`, `on_key_release`) and calls `update(dt)`
each frame before the app update. Everything here works without a window: symbols are plain
integers.
"""

from __future__ import annotations

import math
from typing import Callable, Mapping, Sequence

from game.input.keys import symbol_of
from game.input.padwriter import DeviceState, PadWriter

# action → (kind, target): "stick" (stick name, x, y), "trigger" name, "button" name, "window" name
ACTIONS: dict[str, tuple] = {
    "move_forward": ("stick", "left", 0.0, 1.0),
    "move_back": ("stick", "left", 0.0, -1.0),
    "move_left": ("stick", "left", -1.0, 0.0),
    "move_right": ("stick", "left", 1.0, 0.0),
    "yaw_left": ("stick", "right", -1.0, 0.0),
    "yaw_right": ("stick", "right", 1.0, 0.0),
    "power_up": ("trigger", "rt"),
    "power_down": ("trigger", "lt"),
    "climb": ("button", "Y"),
    "descend": ("button", "A"),
    "confirm": ("button", "A"),
    "brake": ("button", "LS"),
    "takeoff": ("button", "X"),
    "land": ("button", "B"),
    "menu": ("button", "LB"),
    "camera": ("button", "RB"),
    "follow_next": ("button", "RS"),  # the right stick's click: no flight meaning, the window reads it
    "pause": ("button", "START"),
    "restart": ("button", "BACK"),
    "fullscreen": ("window", "fullscreen"),
    "screenshot": ("window", "screenshot"),
    "hud": ("window", "hud"),
    "controls": ("window", "controls"),
    "save_replay": ("window", "save_replay"),
    "replay_pause": ("window", "replay_pause"),
    "replay_slower": ("window", "replay_slower"),
    "replay_faster": ("window", "replay_faster"),
    "replay_restart": ("window", "replay_restart"),
}

DEFAULT_KEYS: dict[str, tuple[str, ...]] = {
    "move_forward": ("UP", "W"),
    "move_back": ("DOWN", "S"),
    "move_left": ("LEFT", "A"),
    "move_right": ("RIGHT", "D"),
    "yaw_left": ("Q",),
    "yaw_right": ("E",),
    "power_up": ("PAGEUP",),
    "power_down": ("PAGEDOWN",),
    "climb": ("SPACE",),
    "descend": ("LCTRL", "RCTRL"),
    "confirm": ("ENTER",),
    "brake": ("K",),
    "takeoff": ("T",),
    "land": ("L",),
    "menu": ("TAB",),
    "camera": ("C",),
    "follow_next": ("F",),
    "pause": ("ESCAPE",),
    "restart": ("R",),
    "fullscreen": ("F11",),
    "screenshot": ("F12",),
    "hud": ("H",),
    "controls": ("F1",),
    "save_replay": ("F9",),
    "replay_pause": ("P",),
    "replay_slower": ("MINUS",),
    "replay_faster": ("EQUAL",),
    "replay_restart": ("BACKSPACE",),
}

EVENT_HANDLED = True  # pyglet.event.EVENT_HANDLED: stops pyglet's default Esc-closes-window


class KeyboardInput:
    """Args:
        writer: the PadWriter every device writes the Pad through.
        bindings: action → key names (default `DEFAULT_KEYS`); e.g. `Settings.controls.keys`.
            An action left out is unbound; unknown actions or key names raise ValueError
            (the settings loader has already replaced bad entries by their defaults).
        on_action: called with a window action's name ("fullscreen", "screenshot") on its key press.
    """

    def __init__(self, writer: PadWriter, bindings: Mapping[str, Sequence[str]] | None = None,
                 on_action: Callable[[str], None] | None = None) -> None:
        self.on_action = on_action
        self.writer = writer
        self.device: DeviceState = self.writer.add("keyboard")
        self.actions_of: dict[int, tuple[str, ...]] = {}
        for action, names in (DEFAULT_KEYS if bindings is None else bindings).items():
            if action not in ACTIONS:
                raise ValueError(f"unknown action {action!r}: expected one of {', '.join(ACTIONS)}")
            for name in (names,) if isinstance(names, str) else names:
                try:
                    symbol = symbol_of(name)
                except (KeyError, AttributeError):
                    raise ValueError(f"{action}: unknown key name {name!r}") from None
                if action not in self.actions_of.get(symbol, ()):
                    self.actions_of[symbol] = (*self.actions_of.get(symbol, ()), action)
        self.keys_down: set[int] = set()

    # -- window events -------------------------------------------------------------------
    def on_key_press(self, symbol: int, modifiers: int) -> bool | None:
        """Modifiers are ignored: Ctrl is itself a flight key, so Ctrl+W must still move."""
        actions = self.actions_of.get(symbol)
        if not actions:
            return None  # not ours: let other handlers see it
        if symbol in self.keys_down:
            return EVENT_HANDLED
        self.keys_down.add(symbol)
        for action in actions:
            kind, *target = ACTIONS[action]
            if kind == "button":
                self.writer.press(self.device, target[0])
            elif kind == "window" and self.on_action is not None:
                self.on_action(target[0])
        return EVENT_HANDLED

    def on_key_release(self, symbol: int, modifiers: int) -> bool | None:
        actions = self.actions_of.get(symbol)
        if not actions:
            return None
        self.keys_down.discard(symbol)
        still_held = self._buttons_held()
        for action in actions:
            kind, *target = ACTIONS[action]
            if kind == "button" and target[0] not in still_held:  # Left and Right Ctrl both give A
                self.writer.release(self.device, target[0])
        return EVENT_HANDLED

    def release_all(self) -> None:
        """Forget every held key (the window lost focus: its key releases will never come)."""
        self.keys_down.clear()
        for button in list(self.device.held):
            self.writer.release(self.device, button)
        self.update(0.0)

    # -- each frame ----------------------------------------------------------------------
    def update(self, dt: float) -> None:
        """Write the sticks and triggers the held keys ask for (only what changed)."""
        device = self.device
        sticks = {"left": [0.0, 0.0], "right": [0.0, 0.0]}
        triggers = {"lt": 0.0, "rt": 0.0}
        for action in self.held_actions():
            kind, *target = ACTIONS[action]
            if kind == "stick":
                stick, x, y = target
                sticks[stick][0] += x
                sticks[stick][1] += y
            elif kind == "trigger":
                triggers[target[0]] = 1.0
        for stick, (x, y) in sticks.items():
            x, y = max(-1.0, min(1.0, x)), max(-1.0, min(1.0, y))  # two keys for one direction
            n = math.hypot(x, y)
            setattr(device, stick, (x / n, y / n) if n > 1.0 else (x, y))
        device.lt, device.rt = triggers["lt"], triggers["rt"]
        self.writer.sync(device)

    def held_actions(self) -> set[str]:
        return {action for symbol in self.keys_down for action in self.actions_of.get(symbol, ())}

    def _buttons_held(self) -> set[str]:
        return {ACTIONS[a][1] for a in self.held_actions() if ACTIONS[a][0] == "button"}

