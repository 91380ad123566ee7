"""An App's world and its event handlers live as long as the App, and no longer.

A script that forgets `close()`, a batch that drops one Simulation for the next, a handler
whose object is gone: none of them may print "Exception ignored … KeyError" tracebacks, leak
the world's entities, or carry one App's events to another's handlers.
"""

from __future__ import annotations

import gc
import subprocess
import sys
import textwrap
from pathlib import Path

import esper
from hypothesis import given, settings, strategies as st

from engine import App
from tests.unit.test_engine import Listener, Ping

ROOT = Path(__file__).resolve().parents[2]


class Unraisable:
    """Collects what Python could not raise (exceptions in weakref callbacks, in __del__)."""

    def __enter__(self):
        self.seen, self._hook = [], sys.unraisablehook
        sys.unraisablehook = lambda info: self.seen.append(f"{info.exc_type.__name__}: {info.exc_value} in {info.object!r}")
        return self.seen

    def __exit__(self, *exc):
        sys.unraisablehook = self._hook


def test_an_app_dropped_without_close_gives_its_world_back_quietly():
    with Unraisable() as seen:
        app = App()
        listener = Listener()
        app.on(Ping, listener.on_ping)
        esper.create_entity("the dropped app's")
        name = app.world_name
        other = App()  # another world current when the first one goes
        del app, listener
        gc.collect()
        assert name not in esper.list_worlds()
        other.close()
        gc.collect()
    assert seen == []


def test_a_handler_whose_object_is_gone_is_forgotten_quietly_whatever_world_is_current():
    with Unraisable() as seen:
        a, b = App(), App()
        gone, kept = Listener(), Listener()
        a.on(Ping, gone.on_ping)
        a.on(Ping, kept.on_ping)
        b.activate()
        del gone
        gc.collect()
        a.emit(Ping(1))
        assert kept.got == [1]
        a.close()
        b.close()
    assert seen == []


def test_a_script_that_never_closes_its_simulations_exits_quietly():
    script = textwrap.dedent("""
        from game.simulation import Simulation
        sim = Simulation()
        lab = Simulation(level=None, position=(0.0, 0.0, 100.0))
        sim.pad.rt = 1.0
        sim.run(0.5)
        lab.run(0.5)
        for seed in range(3):  # a batch that drops each Simulation for the next
            one = Simulation(level=None, seed=seed, position=(0.0, 0.0, 100.0))
            one.run(0.1)
        del one
        import esper, gc
        gc.collect()
        print("flown", len(esper.list_worlds()), "worlds")
    """)
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env={**__import__("os").environ, "PYGLET_HEADLESS": "1"})
    assert done.returncode == 0, done.stderr
    # the default world, sim's and lab's: the three dropped ones are gone
    assert done.stdout.split()[-3:] == ["flown", "3", "worlds"], done.stdout
    assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr, done.stderr


OPS = st.lists(st.tuples(st.sampled_from(["make", "listen", "forget", "emit", "close", "drop"]),
                         st.integers(0, 3), st.integers(0, 5)), max_size=40)


@settings(max_examples=60, deadline=None)
@given(OPS)
def test_events_reach_exactly_their_own_apps_live_handlers(ops):
    """Any order of making, closing and dropping Apps, of adding handlers and losing their
    objects: an event reaches each live handler of its App once, nothing else, and nothing
    is printed."""
    apps: list[App | None] = []
    listeners: list[list[Listener]] = []
    with Unraisable() as seen:
        try:
            for op, which, value in ops:
                if op == "make" or not apps:
                    apps.append(App())
                    listeners.append([])
                    continue
                i = which % len(apps)
                app = apps[i]
                if app is None:
                    continue
                if op == "listen":
                    listener = Listener()
                    app.on(Ping, listener.on_ping)
                    listeners[i].append(listener)
                elif op == "forget" and listeners[i]:
                    listeners[i].pop(value % len(listeners[i]))
                    gc.collect()
                elif op == "emit":
                    before = {id(x): list(x.got) for ls in listeners for x in ls}
                    app.emit(Ping(value))
                    for j, ls in enumerate(listeners):
                        for x in ls:
                            assert x.got == before[id(x)] + ([value] if j == i else [])
                elif op in ("close", "drop"):
                    name = app.world_name
                    if op == "close":
                        app.close()
                    apps[i] = app = None
                    gc.collect()
                    assert name not in esper.list_worlds()
        finally:
            for app in apps:
                if app is not None:
                    app.close()
            gc.collect()
    assert seen == []
