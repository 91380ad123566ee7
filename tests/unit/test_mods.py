"""Mods: plugins found in a mods/ folder or the donify.plugins entry points; a broken mod is
reported in one line and skipped, never a crash (strict mode raises)."""

import textwrap
from pathlib import Path

import pytest

import game.plugins as gp
from engine.stages import Stage
from game.simulation import Simulation
from systems.menu import Menu

GOOD = textwrap.dedent('''
    """A mod that counts gameplay frames and adds a menu entry."""
    import esper
    from engine.stages import Stage
    from systems.menu import Menu, MenuEntry

    class CountFrames(esper.Processor):
        def __init__(self):
            self.frames = 0

        def process(self, dt):
            self.frames += 1

    class FrameCounter:
        name = "frame-counter"
        hellos = 0

        def build(self, app):
            self.counter = CountFrames()
            app.add_system(self.counter, Stage.GAMEPLAY)
            app.resource(Menu).add(MenuEntry("hello", "Hello", self.hello))

        def hello(self):
            self.hellos += 1

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
        assert plugins[0].hellos == 1


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
    assert names[0] == "pilot-input" and {"menu", "modes", "control", "dynamics", "level", "assists", "trail",
                                          "weather"} <= set(names)


# -- the mod's import: nothing it does quits the game, nothing but a regular file is run ----------
@pytest.mark.parametrize("body", ["import sys\nsys.exit(3)\n", "raise KeyboardInterrupt\n", "raise SystemExit\n"])
def test_exit_or_interrupt_at_a_mods_import_is_a_problem_not_an_exit(tmp_path, body):
    plugins, problems = gp.discover_mods(write_mods(tmp_path, counter=GOOD, quits=body))
    assert [p.name for p in plugins] == ["frame-counter"]
    assert len(problems) == 1 and "quits.py" in problems[0] and "skipped" in problems[0]


def test_exit_in_a_mods_build_is_a_problem_not_an_exit(tmp_path):
    mods = write_mods(tmp_path, quits="import sys\nclass P:\n    name = 'quits'\n"
                                      "    def build(self, app):\n        sys.exit(1)\nplugin = P()\n")
    plugins, _ = gp.discover_mods(mods)
    with Simulation(level=None, plugins=plugins) as sim:
        assert len(sim.mod_problems) == 1 and "quits" in sim.mod_problems[0]
        sim.run(0.1)


def test_a_mod_file_that_is_not_a_regular_file_is_refused(tmp_path):
    import os
    mods = write_mods(tmp_path, counter=GOOD)
    os.mkfifo(mods / "fifo.py")  # opening it to read would block the game forever
    plugins, problems = gp.discover_mods(mods)
    assert [p.name for p in plugins] == ["frame-counter"]
    assert len(problems) == 1 and "fifo.py" in problems[0] and "regular file" in problems[0]


def test_a_failed_build_leaves_nothing_of_the_mod_behind(tmp_path):
    mods = write_mods(tmp_path, half=textwrap.dedent('''
        import esper
        from engine.stages import Stage

        class Boom(esper.Processor):
            def process(self, dt):
                raise AssertionError("a system of a mod whose build failed must not run")

        class P:
            name = "half"
            def build(self, app):
                app.add_system(Boom(), Stage.GAMEPLAY)
                raise RuntimeError("build failed after adding a system")

        plugin = P()
    '''))
    plugins, _ = gp.discover_mods(mods)
    with Simulation(level=None, plugins=plugins) as sim:
        assert len(sim.mod_problems) == 1
        assert "Boom" not in [name for _, name in sim.app.systems()]
        sim.run(0.2)


# -- where mods come from ------------------------------------------------------------------------
def test_mods_come_from_the_user_data_folder_and_named_folders_only(tmp_path, monkeypatch):
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    write_mods(cwd, counter=GOOD)  # ./mods of the current folder: never run unless named
    monkeypatch.chdir(cwd)
    monkeypatch.setenv("DONIFY_DATA_DIR", str(tmp_path / "data"))
    assert gp.mod_folders() == [tmp_path / "data" / "mods"]
    assert gp.mod_folders(["mods"]) == [tmp_path / "data" / "mods", Path("mods")]
    monkeypatch.setattr(gp, "entry_points", lambda group: [])
    plugins, problems = gp.find_mods()
    assert plugins == [] and problems == []
    plugins, problems = gp.find_mods(["mods"])
    assert [p.name for p in plugins] == ["frame-counter"] and problems == []


def test_a_named_mods_folder_that_does_not_exist_is_an_error(tmp_path):
    with pytest.raises(ValueError, match="no such folder"):
        gp.find_mods([str(tmp_path / "nowhere")])
