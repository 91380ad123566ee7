"""Mods: plugins found in a mods/ folder or the donify.plugins entry points; a broken mod is
reported in one line and skipped, never a crash (strict mode raises)."""

import textwrap

import pytest

import game.plugins as gp
from engine.stages import Stage
from game.simulation import Simulation
from systems.menu import Menu

GOOD = textwrap.dedent('''
    """A mod that counts gameplay frames and adds a menu entry."""
    import esper
    from engine.stages import Stage
    from systems.menu import Menu

    class CountFrames(esper.Processor):
        def __init__(self):
            self.frames = 0

        def process(self, dt):
            self.frames += 1

    class FrameCounter:
        name = "frame-counter"

        def build(self, app):
            self.counter = CountFrames()
            app.add_system(self.counter, Stage.GAMEPLAY)
            app.resource(Menu).add("hello", "Hello")

    plugin = FrameCounter()
''')


def write_mods(tmp_path, **files):
    mods = tmp_path / "mods"
    mods.mkdir()
    for name, text in files.items():
        (mods / f"{name}.py").write_text(text)
    return mods


def test_a_mod_from_the_mods_folder_adds_a_system_and_a_menu_entry(tmp_path):
    plugins, problems = gp.discover_mods(write_mods(tmp_path, counter=GOOD))
    assert problems == [] and [p.name for p in plugins] == ["frame-counter"]
    with Simulation(level=None, plugins=plugins) as sim:
        sim.run(0.5)
        assert plugins[0].counter.frames == 30
        assert "hello" in sim.app.resource(Menu).ids()
        assert (Stage.GAMEPLAY, "CountFrames") in sim.app.systems()
        sim.select("hello")  # a mod's entry is selectable like the game's own


def test_broken_mods_are_reported_and_skipped(tmp_path):
    mods = write_mods(tmp_path, counter=GOOD, syntax="def broken(:\n", noplugin="x = 1\n",
                      badbuild="class P:\n    name = 'bad'\n    def build(self, app):\n        raise RuntimeError('boom')\nplugin = P()\n")
    plugins, problems = gp.discover_mods(mods)
    assert sorted(p.name for p in plugins) == ["bad", "frame-counter"]
    assert len(problems) == 2 and all("\n" not in line and "skipped" in line for line in problems)
    assert any("syntax.py" in line for line in problems) and any("noplugin.py" in line for line in problems)
    with Simulation(level=None, plugins=plugins) as sim:  # the failing build is skipped too
        assert len(sim.mod_problems) == 1 and "boom" in sim.mod_problems[0]
        sim.run(0.1)


def test_strict_mode_raises(tmp_path):
    mods = write_mods(tmp_path, syntax="def broken(:\n")
    with pytest.raises(gp.ModError):
        gp.discover_mods(mods, strict=True)


def test_entry_point_mods(monkeypatch):
    class FakeEntryPoint:
        name, value = "fake", "fake_mod:plugin"

        def load(self):
            return type("P", (), {"name": "fake", "build": lambda self, app: None})

    class Broken(FakeEntryPoint):
        name = "broken"

        def load(self):
            raise ImportError("no module named fake_mod")

    monkeypatch.setattr(gp, "entry_points", lambda group: [FakeEntryPoint(), Broken()] if group == "donify.plugins" else [])
    plugins, problems = gp.discover_mods(None)
    assert [p.name for p in plugins] == ["fake"]
    assert problems == ["mod broken (fake_mod:plugin): skipped: ImportError: no module named fake_mod"]


def test_the_game_itself_is_built_from_plugins():
    names = [p.name for p in gp.default_plugins()]
    assert names[0] == "flight" and {"level", "assists", "trail", "weather"} <= set(names)
