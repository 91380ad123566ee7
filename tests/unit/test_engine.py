"""The ECS runtime: fixed-step accumulator, pause cap, declared stage order, plugins, worlds."""

from dataclasses import dataclass

import esper
import pytest

from engine import App, FixedStepClock, Stage
from engine.stages import ORDER


def test_sixty_frames_of_a_sixtieth_give_exactly_240_ticks():
    clock = FixedStepClock(240)
    assert sum(clock.advance(1 / 60) for _ in range(60)) == 240


@pytest.mark.parametrize("fps", [60, 144, 59.94])
def test_an_hour_of_frames_does_not_drift(fps):
    clock = FixedStepClock(240)
    frames = round(3600 * fps)
    total = sum(clock.advance(1 / fps) for _ in range(frames))
    assert abs(total - 3600 * 240 * (frames / fps / 3600)) <= 1
    if fps in (60, 144):
        assert total == 3600 * 240


def test_a_long_pause_is_capped_at_a_quarter_second():
    clock = FixedStepClock(240)
    assert clock.advance(5.0) == 60  # 0.25 s × 240
    assert clock.advance(0.25) == 60


def test_bad_frame_durations_are_refused():
    clock = FixedStepClock(240)
    for bad in (float("nan"), -0.1, float("inf")):
        with pytest.raises(ValueError):
            clock.advance(bad)


def test_stages_are_declared_once_in_frame_order():
    names = [s.name for s in ORDER]
    assert names == ["INPUT", "MENU", "ASSIST", "CONTROL", "DYNAMICS", "COLLISION", "GAMEPLAY", "AUDIO", "RENDER"]
    assert [s for s in Stage if s.fixed] == [Stage.CONTROL, Stage.DYNAMICS, Stage.COLLISION]


class Recorder(esper.Processor):
    def __init__(self, log, name):
        self.log, self.name = log, name

    def process(self, dt):
        self.log.append((self.name, dt))


class RecordPlugin:
    name = "record"

    def __init__(self, log):
        self.log = log

    def build(self, app):
        # added out of order on purpose: the stage decides when each runs
        app.add_system(Recorder(self.log, "render"), Stage.RENDER)
        app.add_system(Recorder(self.log, "dynamics"), Stage.DYNAMICS)
        app.add_system(Recorder(self.log, "input"), Stage.INPUT)
        app.add_system(Recorder(self.log, "control"), Stage.CONTROL)
        app.add_system(Recorder(self.log, "gameplay"), Stage.GAMEPLAY)


def test_frame_runs_stages_in_order_and_fixed_stages_per_tick():
    log = []
    app = App()
    try:
        app.add_plugin(RecordPlugin(log))
        app.update(1 / 60)
        names = [n for n, _ in log]
        assert names == ["input"] + ["control", "dynamics"] * 4 + ["gameplay", "render"]
        assert [dt for n, dt in log if n == "dynamics"] == [1 / 240] * 4
        assert [dt for n, dt in log if n == "render"] == [1 / 60]
        assert [s.name for s, _ in app.systems()] == ["INPUT", "CONTROL", "DYNAMICS", "GAMEPLAY", "RENDER"]
    finally:
        app.close()


def test_each_app_has_its_own_world():
    a, b = App(), App()
    try:
        a.activate()
        esper.create_entity("only in a")
        b.activate()
        assert list(esper.get_component(str)) == []
        a.activate()
        assert len(esper.get_component(str)) == 1
    finally:
        a.close()
        b.close()


@dataclass(frozen=True)
class Ping:
    value: int


class Listener:
    def __init__(self):
        self.got = []

    def on_ping(self, event):
        self.got.append(event.value)


def test_events_and_resources():
    app = App()
    try:
        listener = Listener()
        app.on(Ping, listener.on_ping)
        app.emit(Ping(3))
        assert listener.got == [3]
        with pytest.raises(TypeError):
            app.emit("ping")  # an event is a dataclass instance, never a bare name
        app.insert_resource(listener)
        assert app.resource(Listener) is listener
        with pytest.raises(LookupError):
            app.resource(int)
    finally:
        app.close()


# -- plugins as mods: what each added is known, and a failing mod is taken out whole ---------------
class Fail(esper.Processor):
    def __init__(self):
        self.calls = 0

    def process(self, dt):
        self.calls += 1
        raise RuntimeError("mod bug")


class ModPlugin:
    name = "a-mod"

    def __init__(self):
        self.fail, self.listener = Fail(), Listener()
        self.counter = Recorder([], "mod")

    def build(self, app):
        app.add_system(self.counter, Stage.GAMEPLAY)
        app.add_system(self.fail, Stage.DYNAMICS)
        app.on(Ping, self.listener.on_ping)


def test_a_mod_that_raises_is_taken_out_whole_and_the_game_goes_on():
    log, mod = [], ModPlugin()
    app = App()
    try:
        app.add_plugin(RecordPlugin(log))
        app.add_plugin(mod, mod=True)
        assert app.get_system(Fail) is mod.fail  # found behind its guard
        assert [name for _, name in app.systems()].count("Fail") == 1
        app.update(1 / 60)
        app.update(1 / 60)
        assert mod.fail.calls == 1 and len(mod.counter.log) == 0  # disabled at the first tick's exception
        assert [n for n, _ in log].count("dynamics") == 8  # the game's own systems went on
        app.emit(Ping(1))
        assert mod.listener.got == []
        assert "Fail" not in [name for _, name in app.systems()]
        assert app.mods.problems == ["mod 'a-mod' disabled: system Fail (DYNAMICS) raised RuntimeError: mod bug"]
        assert [r.name for r in app.plugin_records] == ["record", "a-mod"]
        assert len(app.plugin_records[0].systems) == 5
    finally:
        app.close()


def test_the_games_own_systems_are_not_guarded():
    class Boom(esper.Processor):
        def process(self, dt):
            raise RuntimeError("a bug in the game")

    class Game:
        name = "game"

        def build(self, app):
            app.add_system(Boom(), Stage.GAMEPLAY)

    app = App()
    try:
        app.add_plugin(Game())
        assert app.mods is None
        with pytest.raises(RuntimeError):
            app.update(1 / 60)
    finally:
        app.close()


# -- order inside a stage: as added, unless a system says after= / before= ----------------------
class First(Recorder):
    pass


class Second(Recorder):
    pass


class Third(Recorder):
    pass


def test_after_and_before_override_the_order_added():
    log = []
    app = App()
    try:
        app.add_system(Third(log, "third"), Stage.ASSIST, after=Second)
        app.add_system(Second(log, "second"), Stage.ASSIST)
        app.add_system(First(log, "first"), Stage.ASSIST, before=(Second, Third))
        app.add_system(Recorder(log, "plain"), Stage.ASSIST)  # no constraint: where it was added
        assert [name for _, name in app.systems()] == ["First", "Second", "Third", "Recorder"]
        app.update(1 / 60)
        order = [n for n, _ in log]
        assert order.index("first") < order.index("second") < order.index("third")
        assert order == ["first", "second", "third", "plain"]
    finally:
        app.close()


def test_an_ordering_cycle_is_refused_and_leaves_the_stage_as_it_was():
    app = App()
    try:
        app.add_system(First([], "first"), Stage.GAMEPLAY, after=Second)
        with pytest.raises(ValueError, match="cycle"):
            app.add_system(Second([], "second"), Stage.GAMEPLAY, after=First)
        assert [name for _, name in app.systems()] == ["First"]
    finally:
        app.close()


def test_ordering_against_a_system_of_another_stage_or_an_absent_one_changes_nothing():
    log = []
    app = App()
    try:
        app.add_system(First(log, "first"), Stage.GAMEPLAY, after=Third)  # Third is in RENDER
        app.add_system(Second(log, "second"), Stage.GAMEPLAY)
        app.add_system(Third(log, "third"), Stage.RENDER, before=First)
        app.update(1 / 60)
        assert [n for n, _ in log] == ["first", "second", "third"]
        with pytest.raises(TypeError):
            app.add_system(Recorder(log, "bad"), Stage.GAMEPLAY, after="First")  # a type, not a name
    finally:
        app.close()


def test_the_game_declares_its_assist_order():
    from game.simulation import Simulation

    with Simulation(level=None) as sim:
        assist = [name for stage, name in sim.app.systems() if stage is Stage.ASSIST]
        # the pilot's setpoints, then the assists (which may hand back), then the Tello SDK's
        # setpoints (a take-off hands over to them), then the crash rule's motor cut, which
        # must see what they all asked for
        assert assist == ["ApplyManualSetpoints", "RunAssists", "FlySdkCommands", "KeepCrashedMotorsOff"]
