"""What to press, in the player's device terms: the hint bar, the tutorial's `{action}`
placeholders and the controls overlay (F1), all from the bindings in force.

Pure (no GL): `Controls` holds the settings' keyboard bindings (action → key names) and
gamepad map (Pad button → controller button); `Controls.keys_for(action, device)` gives
"Page Up / RT", "Page Up" or "RT" for device "both", "keyboard" or "gamepad".

The hint bar (`hint_bar`) shows the next useful action, first match wins:

| situation | hint |
|---|---|
| crashed (telemetry `crashed`) | restart |
| an assist flies (take-off, landing, mission) | brake (takes over and stops) |
| motors off (MotorPower 0) | raise propulsion; take off |
| resting on a surface with the motors on | climb; take off |
| flying at more than 0.5 m/s horizontally | brake; land |
| flying, slower | fly (left stick / move keys); land |

then always "F1: controls" (the overlay) when it is bound. An action with no key and no
button in force is left out rather than shown unbound.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Mapping, Sequence

from game.input.buttons import DEFAULT_GAMEPAD_BUTTONS
from game.input.keyboard import ACTIONS, DEFAULT_KEYS
from game.render import hud_text as T

MOVING_M_S = 0.5  # above this horizontal speed the next useful action in flight is the brake

KEY_LABELS = {
    "PAGEUP": "Page Up", "PAGEDOWN": "Page Down", "SPACE": "Space", "LCTRL": "Left Ctrl", "RCTRL": "Right Ctrl",
    "LSHIFT": "Left Shift", "RSHIFT": "Right Shift", "ENTER": "Enter", "RETURN": "Enter", "ESCAPE": "Esc",
    "TAB": "Tab", "UP": "↑", "DOWN": "↓", "LEFT": "←", "RIGHT": "→", "BACKSPACE": "Backspace", "DELETE": "Delete",
    "HOME": "Home", "END": "End", "INSERT": "Insert", "MINUS": "−", "EQUAL": "=",
}
CONTROLLER_LABELS = {"a": "A", "b": "B", "x": "X", "y": "Y", "leftshoulder": "LB", "rightshoulder": "RB",
                     "leftstick": "LS", "rightstick": "RS", "start": "START", "back": "BACK", "guide": "GUIDE"}
STICK_NAMES = {"left": ("left stick", "stick gauche"), "right": ("right stick", "stick droit")}  # EN, FR
STICK_ARROWS = {(0.0, 1.0): "↑", (0.0, -1.0): "↓", (-1.0, 0.0): "←", (1.0, 0.0): "→"}


def stick_label(stick: str, x: float, y: float, language: str = "en") -> str:
    """How the gamepad does a stick action: "left stick ↑" ("stick gauche ↑" in French)."""
    arrow = STICK_ARROWS.get((x, y))
    if stick not in STICK_NAMES or arrow is None:
        return ""
    return f"{STICK_NAMES[stick][1 if language == 'fr' else 0]} {arrow}"

#: the controls overlay's groups, in order: (group label key, actions)
GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("group_power", ("power_up", "power_down", "climb", "descend")),
    ("group_move", ("move_forward", "move_back", "move_left", "move_right", "yaw_left", "yaw_right", "brake")),
    ("group_assists", ("takeoff", "land", "restart")),
    ("group_game", ("menu", "confirm", "camera", "follow_next", "pause", "hud", "controls", "fullscreen",
                    "screenshot")),
    ("group_replay", ("save_replay", "replay_pause", "replay_slower", "replay_faster", "replay_restart")),
)

TEXTS = {  # label key → (en, fr)
    "group_power": ("Propulsion and height", "Propulsion et hauteur"),
    "group_move": ("Moving", "Déplacement"),
    "group_assists": ("Assists", "Assistances"),
    "group_game": ("Game", "Jeu"),
    "group_replay": ("Replays", "Replays"),
    "raise_propulsion": ("raise propulsion", "monter la propulsion"),
    "take_off": ("take off", "décoller"),
    "climb": ("climb", "monter"),
    "brake": ("brake", "freiner"),
    "take_over": ("brake (take over)", "freiner (reprendre la main)"),
    "land": ("land", "atterrir"),
    "fly": ("fly", "avancer"),
    "restart": ("restart", "recommencer"),
    "controls": ("controls", "commandes"),
    "keyboard": ("Keyboard", "Clavier"),
    "gamepad": ("Gamepad", "Manette"),
    "controls_title": ("CONTROLS", "COMMANDES"),
    "controls_close": ("F1: close", "F1 : fermer"),
    "tutorial_step": ("Tutorial · step {0}/{1}", "Tutoriel · étape {0}/{1}"),
    "tutorial_done": ("Tutorial complete: well flown!", "Tutoriel terminé : bien piloté !"),
}


def text(key: str, language: str) -> str:
    return TEXTS[key][1 if language == "fr" else 0]


def key_label(name: str) -> str:
    """A pyglet key name as a player reads it: "PAGEUP" → "Page Up", "_1" → "1"."""
    if name in KEY_LABELS:
        return KEY_LABELS[name]
    if name.startswith("_") and name[1:].isdigit():
        return name[1:]
    return name if len(name) <= 3 else name.capitalize()


@dataclass(frozen=True)
class Controls:
    """The bindings in force: `keys` action → key names, `gamepad` Pad button → controller button."""

    keys: Mapping[str, Sequence[str]] = field(default_factory=lambda: dict(DEFAULT_KEYS))
    gamepad: Mapping[str, str] = field(default_factory=lambda: dict(DEFAULT_GAMEPAD_BUTTONS))
    language: str = "en"  # of the stick names ("left stick" / "stick gauche")

    @classmethod
    def of(cls, settings) -> Controls:
        """From a `game.settings.Settings` (its `controls.keys`, `controls.gamepad`, `language`)."""
        return cls(dict(settings.controls.keys), dict(settings.controls.gamepad), settings.language)

    def keyboard(self, action: str, first_only: bool = False) -> str:
        """The keys bound to `action` ("Left Ctrl, Right Ctrl"; the first alone with
        `first_only`), "" if none."""
        names = self.keys.get(action, ())
        names = (names,) if isinstance(names, str) else tuple(names)
        return ", ".join(key_label(n) for n in (names[:1] if first_only else names))

    def pad(self, action: str) -> str:
        """How the gamepad does `action` ("RT", "X", "left stick ↑"), "" if it cannot."""
        kind, *target = ACTIONS.get(action, ("", ""))
        if kind == "trigger":
            return target[0].upper()
        if kind == "stick":
            return stick_label(target[0], target[1], target[2], self.language)
        if kind == "button":
            controller = self.gamepad.get(target[0])
            return CONTROLLER_LABELS.get(controller, controller.upper()) if controller else ""
        return ""

    def keys_for(self, action: str, device: str = "both") -> str:
        """"Page Up / RT" (device "both"), "Page Up" ("keyboard") or "RT" ("gamepad"): the
        first key bound and the gamepad's control; falls back on the other device when this one
        has nothing for it; "" if neither has."""
        k, p = self.keyboard(action, first_only=True), self.pad(action)
        if device == "keyboard":
            return k or p
        if device == "gamepad":
            return p or k
        return " / ".join(s for s in (k, p) if s)

    def placeholders(self, device: str = "both") -> dict[str, str]:
        """action → its keys, for a tutorial step's `{action}` placeholders."""
        return {action: self.keys_for(action, device) or action for action in ACTIONS}


@dataclass(frozen=True)
class Situation:
    """What the hint bar needs to know about the flight."""

    mode: str = "manual"
    motor_power: float = 0.0
    contact: bool = True
    horizontal_speed: float = 0.0
    crashed: bool = False

    @classmethod
    def of(cls, telemetry) -> Situation:
        v = telemetry.velocity
        return cls(mode=str(telemetry.mode), motor_power=float(telemetry.motor_power), contact=bool(telemetry.contact),
                   horizontal_speed=math.hypot(v[0], v[1]), crashed=bool(telemetry.crashed))


def next_actions(s: Situation) -> list[tuple[str, str]]:
    """(action, hint text key) pairs for the situation, most useful first (the table above)."""
    if s.crashed:
        return [("restart", "restart")]
    if s.mode in ("takeoff", "landing", "mission"):
        return [("brake", "take_over")]
    if s.motor_power <= 0.0:
        return [("power_up", "raise_propulsion"), ("takeoff", "take_off")]
    if s.contact:
        return [("climb", "climb"), ("takeoff", "take_off")]
    if s.horizontal_speed > MOVING_M_S:
        return [("brake", "brake"), ("land", "land")]
    return [("move_forward", "fly"), ("land", "land")]


def hint_bar(s: Situation, controls: Controls, language: str = "en", device: str = "both") -> str:
    """"Page Up / RT: raise propulsion · T / X: take off · F1: controls" for the situation."""
    parts = []
    for action, key in [*next_actions(s), ("controls", "controls")]:
        keys = controls.keys_for(action, device)
        if keys:
            parts.append(f"{keys}{' :' if language == 'fr' else ':'} {text(key, language)}")
    return " · ".join(parts)


def controls_table(controls: Controls, language: str = "en") -> list[tuple[str, list[tuple[str, str, str]]]]:
    """The overlay's content: (group title, [(action name, keys, gamepad)]) in the GROUPS order;
    an action unknown to the game (a group naming one another engineer removed) is skipped."""
    out = []
    for group, actions in GROUPS:
        rows = [(T.action_name(a, language), controls.keyboard(a) or "—", controls.pad(a) or "—")
                for a in actions if a in ACTIONS]
        out.append((text(group, language), rows))
    return out
