"""The game window: `donify play` — a Tello you can see and fly in the street.

The loop owns a headless `Simulation` (the same App the tests drive) and adds what only a
window needs: the RENDER-stage plugin (and the audio plugin when there is one), the keyboard
and gamepads writing the Pad through one PadWriter, the pause panel and the window's own keys
(F11, F12).

One frame (`Game.frame(dt)`): read the devices into the Pad → peek the Pad's presses for the
camera (RB / C), the followed drone (RS / F) and pause (START / Esc) → unless paused, `App.update(dt)`: the simulation runs
as many fixed 1/240 s ticks as the elapsed time allows (independent of the frame rate), and the
RENDER stage interpolates between the last two ticks → draw. Frame pacing comes from pyglet's
clock (a frame-rate cap from the settings, or as fast as v-sync lets).

Hot reload: the window watches the file of the level it flies (`BackgroundLevelWatcher`,
a `stat` every 0.25 s). A save is parsed, checked, compiled and turned into render meshes in
a worker process, then handed back over a few frames and applied between two frames: a good
file swaps the level (the drone stays where it is; Restart uses the new spawn pad), a broken
one keeps the last good level and the HUD shows its first located error line.

Tests drive the same loop with a fake clock: `game.frame(1 / 60)` then `game.pixels()`.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path

import platformdirs
import pyglet

import game.render  # noqa: F401 (sets pyglet's GL options before pyglet.gl is imported)
from game.demo import run_demo
from game.input.devices import InputDevices, apply_input_settings
from game.input.keyboard import ACTIONS
from game.input.padwriter import PadWriter
from game.levels import apply_reload
from game.render import hud_text
from game.render.gl import save_png
from game.render.hints import GROUPS, Controls
from game.render.level_model import prepare_level_meshes
from game.render.loading import run_with_loading_screen
from game.render.pause import PausePanel
from game.render.plugin import RenderPlugin
from game.render.renderer import Renderer
from game.best_times import default_path as default_best_times
from game.course_flow import CourseFlow
from game.replay_playback import window_start
from game.replay_window import WindowReplays
from game.settings import MSAA_AUTO_SAMPLES, Settings, load_settings
from game.simulation import Simulation
from game.startup import compile_progress, warm_up
from game.title_flow import TitleFlow
from world.level import ActiveLevel
from world.level_watch import BackgroundLevelWatcher

log = logging.getLogger("donify.window")

CAPTION = "Donify — Ryze Tello (reconstructed) in the street"
MIN_SIZE = (320, 240)


def _gl_configs(msaa: int = 0):
    """The GL configurations to try, best first: 8-bit RGBA, a 24-bit depth buffer and no
    stencil (left to itself EGL picked 16-bit colour with a stencil: slower on llvmpipe, which
    converts every pixel, and with banding) with `msaa` samples per pixel (display.msaa), then
    the same without multisampling, then whatever GL 3.3 core gives."""
    exact = dict(double_buffer=True, red_size=8, green_size=8, blue_size=8, alpha_size=8, depth_size=24,
                 stencil_size=0, major_version=3, minor_version=3, forward_compatible=True)
    if msaa > 0:
        yield pyglet.gl.Config(sample_buffers=1, samples=msaa, **exact)
    yield pyglet.gl.Config(**exact)
    yield pyglet.gl.Config(double_buffer=True, depth_size=24, major_version=3, minor_version=3, forward_compatible=True)


def _open_window(width: int, height: int, msaa: int = 0, **options) -> pyglet.window.Window:
    for config in _gl_configs(msaa):
        try:
            return pyglet.window.Window(width, height, caption=CAPTION, resizable=True, config=config, **options)
        except pyglet.window.NoSuchConfigException:
            continue
    return pyglet.window.Window(width, height, caption=CAPTION, resizable=True, **options)


SOFTWARE_RENDERERS = ("llvmpipe", "softpipe", "swrast", "swiftshader", "software")


def is_software_renderer(name: str) -> bool:
    """A GL_RENDERER string of a CPU rasteriser (Mesa's llvmpipe, SwiftShader…)."""
    return any(word in name.lower() for word in SOFTWARE_RENDERERS)


def _open_game_window(width: int, height: int, msaa: int | str, visible: bool, **options) -> pyglet.window.Window:
    """The window with display.msaa's multisampling. "auto": opened without it (hidden), and
    opened again with `MSAA_AUTO_SAMPLES` when the GL is not a software renderer (on llvmpipe
    4× MSAA costs 2.5 times the frame: README, "Anti-aliasing")."""
    if msaa != "auto":
        return _open_window(width, height, msaa=int(msaa), visible=visible, **options)
    window = _open_window(width, height, msaa=0, visible=False, **options)
    if not is_software_renderer(pyglet.gl.gl_info.get_renderer()):
        window.close()
        window = _open_window(width, height, msaa=MSAA_AUTO_SAMPLES, visible=False, **options)
    if visible:
        window.set_visible(True)
    return window


class Game:
    """The game loop around one Simulation, with its window.

    Args:
        level: level name or path (as `Simulation`).
        settings: the player's `game.settings.Settings` (default: loaded from the user's file).
        width, height: window size (default: the settings' window size).
        visible: show the window (tests and the screenshot command draw into a hidden one).
        fullscreen: override the settings' fullscreen flag.
        audio: add the sound (the AUDIO-stage plugin) when this build has it.
        plugins: extra plugins for the App (mods).
        simulation: the Simulation's other arguments (seed, weather, spawn, vehicle: a replay's).
        playback, ghost: a replay to play instead of the devices, a ghost to draw
            (game/replay_window.py).
        user_data: keep best times and course replays in the user data folder (`donify play`).
    """

    def __init__(self, level: str | Path | None = "street", *, settings=None, width: int | None = None,
                 height: int | None = None, visible: bool = True, fullscreen: bool | None = None,
                 audio: bool = True, plugins=(), strict_mods: bool = False, title: bool = False,
                 simulation: dict | None = None, playback=None, ghost=None, user_data: bool = False) -> None:
        self.settings = settings if settings is not None else load_settings()
        display = self.settings.display
        w, h = (width or display.window_size[0]), (height or display.window_size[1])
        full = display.fullscreen if fullscreen is None else fullscreen
        keep = user_data and playback is None  # a replay playing back keeps nothing
        self.sim = Simulation(level=level, plugins=plugins, strict_mods=strict_mods,
                              best_times=default_best_times() if keep else None, **(simulation or {}))
        self.app = self.sim.app
        try:
            self.window = _open_game_window(w, h, display.msaa, visible, vsync=display.vsync, fullscreen=full)
        except BaseException:
            self.sim.close()
            raise
        self.window.set_minimum_size(*MIN_SIZE)
        self.window.switch_to()
        fb_w, fb_h = self.window.get_framebuffer_size()
        try:
            self.renderer = Renderer(self.app, self.window.width, self.window.height, self.sim.telemetry,
                                     camera=self.settings.camera.default_view, language=self.settings.language)
        except BaseException:
            self.window.close()
            self.sim.close()
            raise
        self.renderer.resize(self.window.width, self.window.height, fb_w, fb_h)
        self.app.add_plugin(RenderPlugin(self.renderer))
        self.audio = self._add_audio() if audio else None
        self.pause = PausePanel(self.settings, self._apply_setting)
        self.renderer.menus.pause = self.pause
        self.renderer.menus.bindings = _bindings_table(self.settings)
        self.renderer.tutorial.controls = Controls.of(self.settings)  # hint bar, tutorial, F1
        controls = self.settings.controls
        self.pad_writer = PadWriter(self.sim.pad, controls.dead_zone, controls.trigger_dead_zone)
        self.devices = InputDevices(self.pad_writer, self.settings, emit=self.app.emit, on_action=self.on_action)
        apply_input_settings(self.app, self.settings)
        self.window.push_handlers(on_key_press=self._swallow_escape)  # below the keyboard: Esc never closes
        self.window.push_handlers(self.devices.keyboard)
        self.window.push_handlers(on_resize=self.on_resize, on_draw=self.on_draw, on_close=self.on_close,
                                  on_deactivate=self.on_deactivate)
        self.devices.start()
        self.level_watcher = self._watch_level()
        self._clock_s = 0.0  # the frames' time, for the level watcher's polling
        self._retired = None
        self.running = True
        self.frame_times: list[float] = []
        self._scheduled = None
        # mods that failed to build (later mod reports reach the HUD as MESSAGE events)
        for line in [*self.settings.warnings, *self.sim.mod_problems]:
            self.renderer.hud.message(line)
        self.renderer.set_hud(self.settings.hud)  # H toggles
        self.title = TitleFlow(self, open_at_start=title)  # game/title_flow.py
        self.replays = WindowReplays(self, playback, ghost, keep)  # records the flight; F9; --replay, --ghost
        self.courses = CourseFlow(self)  # game/course_flow.py: gates, course HUD, results screen
        for line in self.sim.best_times.problems if self.sim.best_times is not None else ():
            self.renderer.hud.message(line)

    def warm_up(self) -> bool:
        """Before the first frame: load or compile the flight code (game/startup.py), with the
        loading screen (game/render/loading.py) while it compiles. False if the window was
        closed meanwhile (the game has then quit)."""
        closed = []

        def on_close():
            closed.append(True)
            return pyglet.event.EVENT_HANDLED

        def swallow(*_args):
            return pyglet.event.EVENT_HANDLED

        # The warm-up's Simulation is esper's current world on the worker thread: no handler
        # of the game (resize → HUD refresh → telemetry, keys) may run until it is done.
        quiet = dict(on_close=on_close, on_resize=swallow, on_draw=swallow, on_key_press=swallow,
                     on_key_release=swallow, on_deactivate=swallow)
        self.window.push_handlers(**quiet)
        try:
            run_with_loading_screen(self.window, warm_up, compile_progress, self.settings.language)
        finally:
            self.window.remove_handlers(**quiet)
        if closed:
            self.quit()
            return False
        self.on_resize(self.window.width, self.window.height)  # a resize swallowed meanwhile
        return True

    def _add_audio(self):
        """The sound's AUDIO-stage system (it reads the volumes from the settings as they
        change), or None when this build or this machine has none: the game stays silent."""
        try:
            from game.audio import AudioPlugin  # noqa: PLC0415
        except ImportError:
            return None
        plugin = AudioPlugin(settings=self.settings)
        try:
            self.app.add_plugin(plugin)
        except Exception as exc:  # noqa: BLE001 (no sound is never a reason not to fly)
            log.warning("audio off: %s: %s", type(exc).__name__, exc)
            return None
        return plugin.system

    # -- one frame -------------------------------------------------------------------------
    def frame(self, dt: float) -> None:
        """Input, simulation (unless paused) and the RENDER stage's preparation; then draw."""
        self.step(dt)
        self.draw()

    def step(self, dt: float) -> None:
        self._clock_s += dt
        self._reload_level()  # paused too: editing the level while paused is natural
        self.devices.poll(dt)
        last = self.pad_writer.last_used  # the tutorial and the hint bar name this device's controls
        self.renderer.tutorial.device = "both" if last is None else "keyboard" if last is self.devices.keyboard.device \
            else "gamepad"
        pad = self.sim.pad
        presses = list(pad.presses)
        if self.title.step(presses):  # the title screen is open: the flight waits
            return
        if self.courses.step(presses):  # the results screen is open: the flight waits
            return
        if self.pause.open:
            pad.presses.clear()  # the paused simulation must not see them later
            self.pause.read_pad(pad, presses)
            return
        if "START" in presses:
            pad.presses.clear()
            self.pause.toggle()
            if self.audio is not None:
                self.audio.suspend()
            return
        if "RB" in presses:
            self.renderer.cycle_camera()
        if "RS" in presses:  # F / the right stick's click: follow the next drone (the pad flies the player's)
            self.renderer.follow_next()
        if dt > 0.0:
            self.replays.step(dt)  # the sim's frame (a replay playing back: its recorded frames)

    def draw(self) -> None:
        self.window.switch_to()
        self.renderer.draw()

    # -- hot reload ------------------------------------------------------------------------
    def _watch_level(self) -> BackgroundLevelWatcher | None:
        """A watcher on the flown level's file (none for a level built in code or the lab)."""
        level = self.app.resource(ActiveLevel).level
        if level is None or not level.source:
            return None
        return BackgroundLevelWatcher(level.source, prepare=prepare_level_meshes)

    def _reload_level(self) -> None:
        self._retired = None  # the level replaced a frame ago: freed now (see below)
        if self.level_watcher is None:
            return
        result = self.level_watcher.poll(self._clock_s)
        if result is None:
            return
        if result.ok:
            # Freeing a big level (20 000 boxes: ~10 ms) is kept out of the frame that uploads
            # its successor's meshes: the old one lives until the next frame.
            active = self.app.resource(ActiveLevel)
            self._retired = (active.level, active.geometry)
            if result.prepared is not None:
                self.renderer.use_prepared_meshes(result.level, result.prepared)
        apply_reload(self.app, result)  # LEVEL_RELOADED: the HUD says so, with the first error

    def pixels(self):
        """The last drawn frame as a (height, width, 4) RGBA array, top row first."""
        self.window.switch_to()
        return self.renderer.pixels()

    # -- window events ---------------------------------------------------------------------
    def on_resize(self, width: int, height: int):
        fb_w, fb_h = self.window.get_framebuffer_size()
        self.resize(width, height, fb_w, fb_h)
        return pyglet.event.EVENT_HANDLED

    def resize(self, width: int, height: int, fb_width: int | None = None, fb_height: int | None = None) -> None:
        self.window.switch_to()
        self.renderer.resize(width, height, fb_width, fb_height)

    def on_draw(self):
        self.renderer.draw()
        return pyglet.event.EVENT_HANDLED

    @staticmethod
    def _swallow_escape(symbol: int, modifiers: int):
        """pyglet closes a window on Esc by default; here Esc is a game key (pause)."""
        if symbol == pyglet.window.key.ESCAPE:
            return pyglet.event.EVENT_HANDLED
        return None

    def on_deactivate(self):
        self.devices.keyboard.release_all()

    def on_close(self):
        self.quit()
        return pyglet.event.EVENT_HANDLED

    def on_action(self, action: str) -> None:
        """The keyboard's window actions: F11 fullscreen, F12 screenshot, F1 the controls overlay."""
        if action == "fullscreen":
            self.settings.set("display.fullscreen", not self.window.fullscreen)
            self._apply_setting("display.fullscreen")
        elif action == "controls":
            self.renderer.tutorial.show_controls = not self.renderer.tutorial.show_controls
        elif action == "hud":
            self.renderer.toggle_hud()
        elif action == "screenshot":
            try:
                self.save_screenshot()
            except OSError as exc:  # a full disk or a read-only folder: say so, keep flying
                self.renderer.hud.message(f"screenshot not saved: {exc.strerror or exc}")
        else:
            self.replays.on_action(action)  # F9 and the playback keys

    def save_screenshot(self, path: str | Path | None = None) -> Path:
        if path is None:
            folder = Path(platformdirs.user_pictures_dir()) / "Donify"
            path = folder / time.strftime("donify-%Y%m%d-%H%M%S.png")
        path = Path(path)
        self.draw()
        save_png(self.pixels(), path)
        self.renderer.hud.message(hud_text.message("screenshot", self.renderer.language, path))
        return path

    def _apply_setting(self, key: str) -> None:
        s = self.settings
        if key == "camera.default_view":
            self.renderer.select_camera(s.camera.default_view)
        elif key == "language":
            self.renderer.set_language(s.language)
            self.renderer.tutorial.controls = Controls.of(s)  # the stick names are in the language too
        elif key == "display.vsync":
            self.window.set_vsync(s.display.vsync)
        elif key == "display.fps_cap":
            if self._scheduled is not None:
                self._schedule()
        elif key == "display.fullscreen":
            try:
                self.window.set_fullscreen(s.display.fullscreen)
            except Exception as exc:  # noqa: BLE001 (some window systems refuse: say so, keep playing)
                self.renderer.hud.message(f"fullscreen: {exc}")
        elif key == "resume":
            self.devices.keyboard.release_all()
            self.sim.pad.neutral()  # what was held to navigate the panel must not reach the flight
            if self.audio is not None:
                self.audio.resume()
        elif key == "hud":
            self.renderer.set_hud(s.hud)
        elif key == "back_to_title":
            self.title.back_to_title()
        elif key == "quit":
            self.quit()

    # -- running ---------------------------------------------------------------------------
    def _tick(self, dt: float) -> None:
        if not self.running:
            return
        start = time.perf_counter()
        self.step(dt)
        if self.running:
            self.window.draw(dt)  # switch_to, on_draw, flip
            self.frame_times.append(time.perf_counter() - start)
            del self.frame_times[:-240]

    def _schedule(self) -> None:
        if self._scheduled is not None:
            pyglet.clock.unschedule(self._tick)
        cap = self.settings.display.fps_cap
        if cap > 0:
            pyglet.clock.schedule_interval(self._tick, 1.0 / cap)
        else:
            pyglet.clock.schedule(self._tick)
        self._scheduled = cap

    def run(self) -> int:
        """The event loop, until the window is closed or Quit is chosen."""
        self._schedule()
        try:
            pyglet.app.run(None)
        finally:
            self.quit()
        return 0

    def quit(self) -> None:
        if not self.running:
            return
        self.running = False
        if self._scheduled is not None:
            pyglet.clock.unschedule(self._tick)
            self._scheduled = None
        if self.pause.changed and self.settings.path is not None:
            self.settings.save()
        try:
            self.devices.stop()
            if self.audio is not None:
                self.audio.close()
        finally:
            self.close()
            pyglet.app.exit()

    def close(self) -> None:
        """Free the GL objects, the window and the simulation (tests call it directly)."""
        self.running = False
        if self.level_watcher is not None:
            self.level_watcher.close()
            self.level_watcher = None
        if self.audio is not None:
            self.audio.close()
        if self.renderer is not None:
            try:
                self.window.switch_to()
                self.renderer.delete()
            except Exception:  # noqa: BLE001 (the context may already be gone)
                pass
            self.renderer = None
        try:
            self.window.close()
        except Exception:  # noqa: BLE001
            pass
        self.sim.close()


def _bindings_table(settings: Settings) -> list[tuple[str, str]]:
    """(action, "keys / gamepad") for the pause panel's controls list, from the settings'
    bindings, in the controls overlay's groups (game/render/hints.py)."""
    controls = Controls.of(settings)
    return [(action, " / ".join(s for s in (controls.keyboard(action), controls.pad(action)) if s) or "—")
            for _, actions in GROUPS for action in actions if action in ACTIONS]


def play(level: str = "street", plugins=(), strict_mods: bool = False, title: bool = False,
         replay: str | None = None, ghost: str | None = None) -> int:
    """`donify play`: open the window and fly; one line and the headless demo without a display.

    `title`: open on the title screen (`donify`, `donify play` without --level), `level` behind it.
    `plugins` are mods (game.plugins.discover_mods); one whose build fails is reported and
    skipped unless `strict_mods`. `replay`: play that replay file back (its level); `ghost`:
    race that replay file's drone (its level unless `level` is given and title is off). Both are
    read and checked before the window opens (DataFileError: one line).
    """
    start = None
    if replay is not None or ghost is not None:
        start = window_start(None if title else level, replay, ghost, plugins)
        level, title = start.level, False
    playback = None if start is None else start.playback
    while True:
        playback = None if playback is None else playback.fresh()  # a restart keeps the speed
        try:
            window_game = Game(level, plugins=plugins, strict_mods=strict_mods, title=title,
                               simulation=None if start is None else start.simulation, playback=playback,
                               ghost=None if start is None else start.ghost, user_data=True)
        except (pyglet.window.NoSuchDisplayException, pyglet.gl.ContextException, pyglet.window.NoSuchConfigException,
                OSError) as exc:
            print(f"donify: cannot open the game window ({type(exc).__name__}: {exc}): running the headless demo flight")
            return run_demo(level)
        if not window_game.warm_up():
            return 0
        code = window_game.run()
        if playback is None or not playback.restart_requested:  # replay restart: the game made again
            return code
