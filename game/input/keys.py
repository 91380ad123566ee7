"""Key names ↔ pyglet key symbols, without a window or a GL context.

Bindings are written with pyglet's key names (`pyglet.window.key`): letters "W", "A"…,
"UP", "DOWN", "LEFT", "RIGHT", "PAGEUP", "PAGEDOWN", "SPACE", "LCTRL", "RCTRL", "TAB",
"ENTER", "ESCAPE", "F1"…"F12", digits "_1" (also accepted as "1"), and so on.

Importing `pyglet.window.key` the usual way first runs the `pyglet.window` package, which
creates a hidden GL "shadow window" and fails where there is no display. The key table
itself is a plain module of integer constants, so when `pyglet.window` is not loaded yet we
load that one file on its own: the settings can be validated and the keyboard mapping tested
with no display and no GL context. Once the game window has imported pyglet.window, its own
`key` module is used; the constants are the same integers either way.
"""

from __future__ import annotations

import importlib.util
import sys
from functools import lru_cache
from pathlib import Path
from types import ModuleType


@lru_cache(maxsize=1)
def key_module() -> ModuleType:
    """pyglet's key-constant module (`pyglet.window.key`), loaded without opening a window."""
    loaded = sys.modules.get("pyglet.window.key")
    if loaded is not None:
        return loaded
    import pyglet  # the top-level package opens nothing

    path = Path(pyglet.__file__).parent / "window" / "key.py"
    spec = importlib.util.spec_from_file_location("donify_pyglet_window_key", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@lru_cache(maxsize=1)
def key_symbols() -> dict[str, int]:
    """Every pyglet key name → its symbol (synonyms such as ENTER/RETURN both listed)."""
    return {name: value for name, value in vars(key_module()).items() if _is_key_constant(name, value)}


def _is_key_constant(name: str, value: object) -> bool:
    if not isinstance(value, int) or isinstance(value, bool):
        return False
    if name.startswith("_"):
        return name[1:].isdigit()  # digits: _0 … _9
    return name.isupper() and not name.startswith("MOD_")  # modifier masks are not keys


def normalise_key_name(text: str) -> str:
    """The canonical spelling of a key name: upper case, a lone digit as pyglet's "_1"."""
    name = text.strip().upper()
    return f"_{name}" if name.isdigit() and len(name) == 1 else name


def symbol_of(name: str) -> int:
    """The pyglet symbol of a key name; KeyError if pyglet has no such key."""
    return key_symbols()[normalise_key_name(name)]


def is_key_name(name: str) -> bool:
    return isinstance(name, str) and normalise_key_name(name) in key_symbols()


def name_of(symbol: int) -> str:
    """pyglet's name for a symbol ("PAGEUP"), for messages and the controls panel."""
    return key_module().symbol_string(symbol)
