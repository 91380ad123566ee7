"""The player's settings file: key bindings, gamepad, display, audio, camera, language.

It lives in the user's config directory (found with platformdirs: `~/.config/donify/
settings.toml` on Linux), or in `$DONIFY_CONFIG_DIR`, or in the directory a caller passes
(tests use temporary ones). It is TOML, read with tomllib; every setting is optional.

A bad file never stops the game. Each setting that is unknown or invalid falls back to its
default with ONE warning line naming the file, the line, the key and what was expected; a file
that is not TOML at all (or not text) gives one line and all the defaults. Loading never
writes: a broken file stays as the user left it until the game saves (`Settings.save()`),
which writes the whole file atomically (a temporary file in the same directory, then
`os.replace`), so a crash or a full disk mid-write never leaves half a file; the temporary
of a save killed mid-write is removed at the next load or save (game/atomic.py). A settings
file that is a symbolic link (dotfiles kept in a repository) is written through: the link
stays, its target gets the new text. Only a regular file of at most `MAX_SETTINGS_BYTES`
is read; anything else (a named pipe, a device) is one warning line and the defaults.

    settings = load_settings()            # never raises; settings.warnings holds the lines
    settings.audio.master                 # 0..1
    settings.set("controls.keys.climb", ["SPACE", "UP"])   # validated; ValueError if bad
    settings.save()                       # False (and one warning line) if it could not write
"""

from __future__ import annotations

import json
import logging
import math
import os
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Callable

import platformdirs

from components.pilot import BUTTONS
from engine.datafile import DataFileError, TomlSource, describe, read_toml
from game.atomic import atomic_path, remove_stale_temporaries
from game.input.buttons import CONTROLLER_BUTTONS, DEFAULT_GAMEPAD_BUTTONS
from game.input.keyboard import ACTIONS, DEFAULT_KEYS
from game.input.keys import is_key_name, normalise_key_name

log = logging.getLogger("donify.settings")

FILE_NAME = "settings.toml"
CONFIG_DIR_ENV = "DONIFY_CONFIG_DIR"
CAMERA_VIEWS = ("chase", "fpv", "top")
MSAA_SAMPLES = (0, 2, 4, 8)  # display.msaa: multisample anti-aliasing, samples per pixel
# "auto": MSAA_AUTO_SAMPLES on a hardware GL, none on a software renderer (llvmpipe), where the
# render bench measured 4× MSAA at 15 ms a frame against 6 ms without (README, "Anti-aliasing")
MSAA_AUTO_SAMPLES = 4
LANGUAGES = ("en", "fr")
HUD_KINDS = ("player", "engineering")
BACKENDS = ("pyglet", "inputs", "none")
MAX_SETTINGS_BYTES = 1024 * 1024  # the full file is ~3 KB: a megabyte is not a settings file


class Invalid(ValueError):
    """A setting's value is not acceptable; the message says what was expected."""


# -- checks: each returns the normalised value or raises Invalid("what was expected") ------
def boolean(value: Any) -> bool:
    if not isinstance(value, bool):
        raise Invalid("true or false")
    return value


def number(low: float, high: float, unit: str = "") -> Callable[[Any], float]:
    def check(value: Any) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
                or not low <= value <= high:
            raise Invalid(f"a number from {low} to {high}{unit}")
        return float(value)
    return check


def fps_cap(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not (value == 0 or 10 <= value <= 1000):
        raise Invalid("an integer: 0 (no cap) or 10 to 1000 frames per second")
    return value


def window_size(value: Any) -> tuple[int, int]:
    if not isinstance(value, list) or len(value) != 2 or not all(
            isinstance(v, int) and not isinstance(v, bool) and 320 <= v <= 16384 for v in value):
        raise Invalid("[width, height] in pixels, two integers from 320 to 16384")
    return (value[0], value[1])


def msaa_samples(value: Any) -> int | str:
    if value == "auto":
        return value
    if isinstance(value, bool) or not isinstance(value, int) or value not in MSAA_SAMPLES:
        raise Invalid('samples per pixel: 0 (off), 2, 4 or 8, or "auto"')
    return value


def choice(*options: str) -> Callable[[Any], str]:
    def check(value: Any) -> str:
        if value not in options:
            raise Invalid("one of " + ", ".join(f'"{o}"' for o in options))
        return value
    return check


def key_names(value: Any) -> tuple[str, ...]:
    names = [value] if isinstance(value, str) else value
    if not isinstance(names, list) or not all(is_key_name(n) for n in names):
        raise Invalid('a key name or a list of key names (pyglet names such as "W", "UP", "PAGEUP", "LCTRL", "F11")')
    unique: list[str] = []
    for name in map(normalise_key_name, names):
        if name not in unique:
            unique.append(name)
    return tuple(unique)


def controller_button(value: Any) -> str:
    if value not in CONTROLLER_BUTTONS:
        raise Invalid("a controller button: " + ", ".join(f'"{b}"' for b in CONTROLLER_BUTTONS))
    return value


def setting(default: Any, check: Callable[[Any], Any], doc: str) -> Any:
    return field(default=default, metadata={"check": check, "doc": doc})


def table(factory: Callable[[], dict], names: tuple[str, ...], check: Callable[[Any], Any], doc: str) -> Any:
    """A sub-table whose keys are names from `names`, each value checked by `check`."""
    return field(default_factory=factory, metadata={"names": names, "check": check, "doc": doc})


# -- the sections ---------------------------------------------------------------------------
@dataclass
class ControlSettings:
    dead_zone: float = setting(0.15, number(0.0, 0.9), "radial stick dead zone, fraction of full travel (0..0.9)")
    trigger_dead_zone: float = setting(0.05, number(0.0, 0.5), "trigger travel below which RT/LT count as released (0..0.5)")
    keys: dict[str, tuple[str, ...]] = table(lambda: dict(DEFAULT_KEYS), tuple(ACTIONS), key_names,
                                             "action = key name or [key names] (pyglet names); [] unbinds")
    gamepad: dict[str, str] = table(lambda: dict(DEFAULT_GAMEPAD_BUTTONS), BUTTONS, controller_button,
                                    "pad button = the controller button that presses it (Xbox layout names)")


@dataclass
class InputSettings:
    backend: str = setting("pyglet", choice(*BACKENDS),
                           '"pyglet" (hot-plug, Xbox mapping) | "inputs" (fallback for pads pyglet cannot map) | "none"')


@dataclass
class DisplaySettings:
    vsync: bool = setting(True, boolean, "wait for the screen refresh")
    fps_cap: int = setting(0, fps_cap, "frames per second; 0 = no cap")
    fullscreen: bool = setting(False, boolean, "start in fullscreen (F11 toggles)")
    window_size: tuple[int, int] = setting((1280, 720), window_size, "[width, height] of the window, pixels")
    msaa: int | str = setting("auto", msaa_samples,
                              'anti-aliasing samples per pixel: 0 (off), 2, 4, 8, or "auto" (4 on a hardware GL, 0 on a software one); read at start')


@dataclass
class AudioSettings:
    master: float = setting(0.8, number(0.0, 1.0), "volumes from 0 (silent) to 1")
    motors: float = setting(1.0, number(0.0, 1.0), "")
    effects: float = setting(1.0, number(0.0, 1.0), "")
    ui: float = setting(1.0, number(0.0, 1.0), "")


@dataclass
class CameraSettings:
    default_view: str = setting("chase", choice(*CAMERA_VIEWS), 'view at start: "chase" | "fpv" | "top" (C / RB cycles)')


@dataclass
class Settings:
    """Every user setting, with its default. `path` is the file; `warnings` the load's lines."""

    language: str = setting("en", choice(*LANGUAGES), 'HUD language: "en" | "fr"')
    hud: str = setting("player", choice(*HUD_KINDS), 'HUD at start: "player" | "engineering" (H toggles)')
    controls: ControlSettings = field(default_factory=ControlSettings)
    input: InputSettings = field(default_factory=InputSettings)
    display: DisplaySettings = field(default_factory=DisplaySettings)
    audio: AudioSettings = field(default_factory=AudioSettings)
    camera: CameraSettings = field(default_factory=CameraSettings)
    path: Path | None = field(default=None, compare=False, metadata={"internal": True})
    warnings: list[str] = field(default_factory=list, compare=False, metadata={"internal": True})

    def warn(self, line: str) -> None:
        self.warnings.append(line)
        log.warning(line)

    def set(self, key: str, value: Any) -> None:
        """Change one setting by its dotted key ("audio.master", "controls.keys.climb").

        Raises ValueError naming the key and what was expected; the setting is then unchanged.
        """
        target, spec, name = _resolve(self, key.split("."))
        if spec is None:
            raise ValueError(f"{key}: unknown setting")
        try:
            checked = spec.metadata["check"](list(value) if isinstance(value, tuple) else value)
        except Invalid as exc:
            raise ValueError(f"{key}: expected {exc}, got {_got(value)}") from None
        if isinstance(target, dict):
            target[name] = checked
        else:
            setattr(target, name, checked)

    def save(self, path: str | Path | None = None) -> bool:
        """Write every setting to the file, atomically. False (one warning line) on failure."""
        path = Path(path) if path is not None else self.path or settings_path()
        try:
            write_text_atomically(path, to_toml(self))
        except OSError as exc:
            self.warn(f"{path}: settings not saved: {exc.strerror or exc}")
            return False
        self.path = path
        return True


def _sections(obj: Any) -> list[tuple[str, Any]]:
    """The sub-sections of a section (the fields that are not settings themselves)."""
    return [(f.name, getattr(obj, f.name)) for f in fields(obj) if not f.metadata]


def _specs(obj: Any) -> dict[str, Any]:
    return {f.name: f for f in fields(obj) if "check" in f.metadata}


def _resolve(settings: Settings, parts: list[str]):
    """(object or dict holding the setting, its field spec, its name there) for a dotted key;
    (None, None, None) if there is no such setting."""
    obj: Any = settings
    for i, part in enumerate(parts):
        rest = parts[i + 1:]
        specs = _specs(obj)
        if part in specs:
            spec = specs[part]
            if "names" in spec.metadata:  # a table: one more part names the entry
                if len(rest) == 1 and rest[0] in spec.metadata["names"]:
                    return getattr(obj, part), spec, rest[0]
                return None, None, None
            return (obj, spec, part) if not rest else (None, None, None)
        sections = dict(_sections(obj))
        if part not in sections:
            return None, None, None
        obj = sections[part]
    return None, None, None


# -- where the file is ----------------------------------------------------------------------
def config_dir(override: str | Path | None = None) -> Path:
    """The directory of the settings file: the argument, else $DONIFY_CONFIG_DIR, else the
    platform's user config directory for "donify"."""
    if override is not None:
        return Path(override)
    env = os.environ.get(CONFIG_DIR_ENV)
    if env:
        return Path(env)
    return Path(platformdirs.user_config_dir("donify", appauthor=False))


def settings_path(override_dir: str | Path | None = None) -> Path:
    return config_dir(override_dir) / FILE_NAME


# -- reading --------------------------------------------------------------------------------
def load_settings(config_dir: str | Path | None = None) -> Settings:
    """The settings from the file (defaults where it is missing, bad or silent). Never raises."""
    path = settings_path(config_dir)
    settings = Settings(path=path)
    remove_stale_temporaries(_written_path(path))  # left by a save that was killed mid-write
    try:
        if not path.exists() and not path.is_symlink():
            return settings  # first run: all defaults, and nothing written until the game saves
        source = read_toml(path, max_bytes=MAX_SETTINGS_BYTES)
    except OSError as exc:
        settings.warn(f"{path}: cannot read: {exc.strerror or exc}; using the default settings")
        return settings
    except DataFileError as exc:
        settings.warn(f"{exc.lines[0]}; using the default settings")
        return settings
    _apply_table(settings, source.data, (), source, settings)
    return settings


def _got(value: Any) -> str:
    """The bad value as the user wrote it, short."""
    if isinstance(value, list) and len(value) <= 6 and all(isinstance(v, (str, int, float)) for v in value):
        text = _fmt(value)
        if len(text) <= 40:
            return text
    return describe(value)


def _fmt(value: Any) -> str:
    if isinstance(value, (tuple, list)):
        return "[" + ", ".join(_fmt(v) for v in value) + "]"
    return _toml_value(value)


def _apply_table(obj: Any, data: dict, prefix: tuple[str, ...], source: TomlSource, settings: Settings) -> None:
    specs = _specs(obj)
    sections = dict(_sections(obj))
    known = [*specs, *sections]
    for key, raw in data.items():
        where = (*prefix, key)
        dotted = ".".join(where)
        if key in sections:
            if isinstance(raw, dict):
                _apply_table(sections[key], raw, where, source, settings)
            else:
                settings.warn(f"{source.locate(where)}: {dotted}: expected a table of settings ([{dotted}]), "
                              f"got {_got(raw)}; using the defaults")
        elif key in specs and "names" in specs[key].metadata:
            _apply_named_table(getattr(obj, key), specs[key], raw, where, source, settings)
        elif key in specs:
            default = getattr(obj, key)
            try:
                setattr(obj, key, specs[key].metadata["check"](raw))
            except Invalid as exc:
                settings.warn(f"{source.locate(where)}: {dotted}: expected {exc}, got {_got(raw)}; "
                              f"using the default {_fmt(default)}")
        else:
            settings.warn(f"{source.locate(where)}: {dotted}: unknown setting, ignored; expected one of {', '.join(known)}")


def _apply_named_table(target: dict, spec: Any, raw: Any, where: tuple[str, ...], source: TomlSource,
                       settings: Settings) -> None:
    dotted = ".".join(where)
    if not isinstance(raw, dict):
        settings.warn(f"{source.locate(where)}: {dotted}: expected a table ([{dotted}]), got {_got(raw)}; "
                      "using the defaults")
        return
    names, check = spec.metadata["names"], spec.metadata["check"]
    for name, value in raw.items():
        place = (*where, name)
        if name not in names:
            settings.warn(f"{source.locate(place)}: {dotted}.{name}: unknown name, ignored; "
                          f"expected one of {', '.join(names)}")
            continue
        try:
            target[name] = check(value)
        except Invalid as exc:
            settings.warn(f"{source.locate(place)}: {dotted}.{name}: expected {exc}, got {_got(value)}; "
                          f"using the default {_fmt(target[name])}")
    if check is key_names:
        _warn_shared_keys(target, raw, where, source, settings)


def _warn_shared_keys(bindings: dict, raw: dict, where: tuple[str, ...], source: TomlSource, settings: Settings) -> None:
    """A key the file binds to an action that another action also uses: both will act."""
    owners: dict[str, list[str]] = {}
    for action, names in bindings.items():
        for name in names:
            owners.setdefault(name, []).append(action)
    for name, actions in owners.items():
        mine = [a for a in actions if a in raw]
        if len(actions) > 1 and mine:
            settings.warn(f"{source.locate((*where, mine[0]))}: {'.'.join(where)}: key {name} is bound to "
                          f"{' and '.join(actions)}: both act; unbind it from one of them")


# -- writing --------------------------------------------------------------------------------
def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value).replace("\x7f", "\\u007f")  # JSON string escapes are valid TOML
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise TypeError(f"cannot write {type(value).__name__} to TOML")


def _line(name: str, value: Any, doc: str) -> str:
    text = f"{name} = {_toml_value(value)}"
    return f"{text:<36} # {doc}" if doc else text


def to_toml(settings: Settings) -> str:
    """The whole settings file: every setting with its current value and a comment."""
    out = ["# Donify settings. Edit freely: a bad or unknown setting falls back to its default",
           "# with one warning line. The game rewrites this file when you change settings in it.", ""]

    def scalars(obj: Any) -> None:
        for name, spec in _specs(obj).items():
            if "names" not in spec.metadata:
                out.append(_line(name, getattr(obj, name), spec.metadata["doc"]))

    def tables(obj: Any, prefix: str) -> None:
        for name, spec in _specs(obj).items():
            if "names" in spec.metadata:
                out.extend(["", f"[{prefix}.{name}]  # {spec.metadata['doc']}"])
                out.extend(_line(k, v, "") for k, v in getattr(obj, name).items())

    scalars(settings)
    for name, section in _sections(settings):
        out.extend(["", f"[{name}]"])
        scalars(section)
        tables(section, name)
    return "\n".join(out) + "\n"


def write_text_atomically(path: str | Path, text: str) -> None:
    """Replace `path` with `text` in one step: readers see the old file or the new one, never
    a partial one; the permissions the user gave the file are kept, and a symbolic link is
    written through (its target replaced, the link kept). Raises OSError on failure (the old
    file is then untouched)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path = _written_path(path)
    try:
        mode = os.stat(path).st_mode & 0o7777
    except FileNotFoundError:
        mode = None
    with atomic_path(path, mode) as tmp:
        tmp.write_text(text, encoding="utf-8", newline="\n")


def _written_path(path: Path) -> Path:
    """The file a write to `path` must replace: the end of its chain of symbolic links (a
    rename over the link itself would turn it into a plain file), else `path`."""
    return Path(os.path.realpath(path)) if path.is_symlink() else path
