"""French complete: every string the HUD, the menus, the pause panel and the title screen draw
in French comes from a catalogue with a French entry.

The check reads what is really drawn — the text items of every UI layer of the renderer's
passes, after frames were rendered — splits each string into words and requires every word to
occur in some French entry of the catalogues (game/render/hud_text.py, and the hint bar's in
game/render/hints.py). Numbers, units, compass points and key names pass; text that is level
data (a level's name, description, tutorial step) is the level designer's and passes whole.
An English string shown untranslated has a word no French entry holds: the check fails on it
(`test_the_check_fails_on_an_english_string`).
"""

from __future__ import annotations

import importlib
import pkgutil
import re

import pytest

import game.render
from game.course_flow import Results
from game.render.text import UiLayer
from systems.course import CourseState
from world.level_file import load_level, shipped_levels

WORD = re.compile(r"[A-Za-zÀ-ÿŒœ]+")
UNITS = {"m", "s", "min", "rpm", "N", "V", "W", "kg", "fps", "wp", "vz", "mm", "h", "NE", "E", "SE", "S", "SW",
         "NW", "FR", "RR", "RL", "FL", "RT", "LT", "HUD", "DONIFY", "Donify", "Ryze", "Tello", "English", "Français"}


def french_vocabulary() -> set[str]:
    """Every word of every French entry of the catalogues: module-level dicts of the render
    package mapping a key to an (English, French) pair, and pattern tables of such pairs."""
    words: set[str] = set(UNITS)
    for info in pkgutil.iter_modules(game.render.__path__):
        module = importlib.import_module(f"game.render.{info.name}")
        for value in vars(module).values():
            pairs = value.values() if isinstance(value, dict) else value if isinstance(value, tuple) else ()
            for pair in pairs:
                if isinstance(pair, tuple) and len(pair) == 2 and all(isinstance(p, str) for p in pair):
                    words.update(WORD.findall(pair[1]))
            if isinstance(value, dict):  # key and button names (the bindings shown)
                for v in value.values():
                    if isinstance(v, str) and info.name == "hints":
                        words.update(WORD.findall(v))
    from game.input.keyboard import DEFAULT_KEYS  # noqa: PLC0415
    for names in DEFAULT_KEYS.values():
        words.update(names)
    return {w.lower() for w in words}  # "RÉGLAGES" is "Réglages" in capitals


def level_texts() -> list[str]:
    texts = []
    for name in shipped_levels():
        level = load_level(name)
        texts += [level.name, level.description]
        for course in level.courses:  # the courses' names (title screen, results screen)
            texts += [course.name, course.description]
        for step in getattr(getattr(level, "tutorial", None), "steps", None) or ():
            texts.append(step.text.fr)
    return texts


def untranslated(strings, vocabulary: set[str], level_data: list[str]) -> list[str]:
    """The strings with a word no French entry holds (level data excepted)."""
    bad = []
    for text in strings:
        if any(text.strip() and text.strip(" …") in data for data in level_data):
            continue
        if any(w.lower() not in vocabulary for w in WORD.findall(text)):
            bad.append(text)
    return bad


def drawn_strings(game) -> list[str]:
    """The text of every UI layer the renderer's passes hold (one level of objects deep)."""
    seen, strings = set(), []

    def layers(obj, depth=0):
        if isinstance(obj, UiLayer):
            yield obj
        elif depth < 2 and hasattr(obj, "__dict__"):
            for v in vars(obj).values():
                if isinstance(v, (UiLayer,)) or (hasattr(v, "__dict__") and type(v).__module__.startswith("game.")):
                    yield from layers(v, depth + 1)

    for render_pass in game.renderer.passes:
        for layer in layers(render_pass):
            if id(layer) in seen:
                continue
            seen.add(id(layer))
            strings += [spec[1] for spec, _ in layer.items.values() if spec[0] == "t"]
    return strings


@pytest.fixture(scope="module")
def vocabulary():
    return french_vocabulary()


def test_the_check_fails_on_an_english_string(vocabulary):
    levels = level_texts()
    assert untranslated(["Weather: Calm"], vocabulary, levels) == ["Weather: Calm"]
    assert untranslated(["BATTERY 87 %"], vocabulary, levels) == ["BATTERY 87 %"]
    assert untranslated(["Météo : Calme", "BAT 87 %  12.5 min restant", "CAP 090° E"], vocabulary, levels) == []


def _frames(game, n=3):
    for _ in range(n):
        game.frame(1 / 60)


def test_every_string_drawn_in_french_is_translated(make_game, vocabulary, save_shot):
    levels = level_texts()
    game = make_game(width=1280, height=720, language="fr")
    shown: list[str] = []

    def look(name):
        _frames(game)
        shown.extend(drawn_strings(game))
        save_shot(game.pixels(), f"french_{name}")

    pad = game.sim.pad
    pad.rt = 1.0
    _frames(game, 60)
    pad.rt = 0.0
    look("player_hud")
    game.on_action("hud")
    look("engineering_hud")
    # the messages: a weather preset, the assists' refusals and reports
    game.sim.select("weather:drizzle")
    game.sim.select("air:hot_day")
    game.sim.select("mission")
    _frames(game, 30)
    look("messages")
    game.sim.select("land")  # refused in the air or not: either line is in French
    look("landing")
    # the flight menu, then the pause panel with the controls
    pad.press("LB")
    _frames(game, 1)
    pad.release("LB")
    look("menu")
    pad.press("B")
    _frames(game, 1)
    pad.release("B")
    game.pause.toggle()
    game.pause.show_controls = True
    look("pause")
    game.pause.show_controls = False
    game.pause.close()
    game.on_action("controls")  # F1: every binding, keyboard and gamepad (stick names too)
    look("controls_overlay")
    game.on_action("controls")
    # the title screen and its settings
    game.title.back_to_title()
    look("title")
    game.title.screen.in_settings = True
    look("title_settings")
    game.title.screen.in_settings = False
    # a course: its countdown, the HUD (timer, gate, split and its delta, arrow), the results
    screen = game.title.screen
    screen.index = next(i for i, r in enumerate(screen.rows) if r.kind == "course" and r.course_id == "street-run")
    screen.activate()  # the street is loaded, the course starts (its first tick lists it in the menu)
    look("course_countdown")
    state = game.app.resource(CourseState)
    state.started, state.status, state.splits, state.best = True, "running", (4.2,), (4.0, 8.0)
    look("course_running")
    game.courses.screen.show(Results("street-run", "Street run", 21.5, 22.5, "gold", 21.5, (4.2, 8.5, 21.5),
                                     (4.0, 8.0, 22.0), True))
    look("course_results")
    bad = untranslated(shown, vocabulary, levels)
    assert len(shown) > 50
    assert not bad, f"shown in French but not translated: {sorted(set(bad))}"
