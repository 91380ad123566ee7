"""AUDIO stage: play the motors, impacts, the low-battery warning and UI clicks with pyglet.

Only the window adds this (`AudioPlugin(settings)`); the headless Simulation never imports
pyglet nor opens an audio device. pyglet picks its driver when `pyglet.media` is first
imported; on a machine without a sound device that is the silent driver, where everything
below still runs (and does nothing audible). Any failure of the audio back end is logged once
and turns the sound off: it never stops the game.

Each motor has its own looped player over an in-memory WAV (`synth.motor_loop`; never a
queued StaticMemorySource, which crashes — docs/api.md#notes-on-the-stack), whose `pitch` follows that
motor's blade-pass frequency and whose volume follows its rpm: four voices make the mix.
One-shot sounds (impact, warning, click) are synthesised once per kind (impacts per
strength band) and played at the volume of their channel.

Volumes (each 0 … 1): master × motors / effects / ui, read every frame from the settings'
audio section when given (so a change in the settings menu is heard at once), else from the
constructor.
"""

from __future__ import annotations

import io
import logging
from collections import deque
from dataclasses import dataclass
from typing import Any

import esper

from components.flight import Rotors
from engine.app import App
from engine.stages import Stage
from flight.vehicle import RPM_TO_RAD_S
from components import events
from game.audio import synth
from systems.scene import Player, is_player

log = logging.getLogger("donify.audio")

MOTOR_VOICE_GAIN = 0.35  # each of the four voices; their random phases keep the sum below 1
MIN_PITCH = 0.05  # players never get a zero pitch; a motor at rest is paused instead
MIN_IMPACT_SPEED_M_S = 0.3  # slower contacts are resting contacts, not impacts
IMPACT_BANDS = 8  # impact sounds synthesised per strength band, then cached


@dataclass
class Volumes:
    """Linear gains, 0 … 1."""

    master: float = 0.8
    motors: float = 0.7
    effects: float = 0.9
    ui: float = 0.6


def _gain(value: Any, default: float) -> float:
    try:
        v = float(value)
    except (TypeError, ValueError):
        return default
    return min(1.0, max(0.0, v)) if v == v else default


def volumes_from(settings: Any, fallback: Volumes) -> Volumes:
    """The settings' audio volumes (`settings.audio.master` … or a dict), else `fallback`.

    Accepted names per channel: master; motors / motor; effects / sfx; ui."""
    if settings is None:
        return fallback
    audio = settings.get("audio") if isinstance(settings, dict) else getattr(settings, "audio", None)
    if audio is None:
        return fallback

    def read(*names: str, default: float) -> float:
        for name in names:
            value = audio.get(name) if isinstance(audio, dict) else getattr(audio, name, None)
            if value is not None:
                return _gain(value, default)
        return default

    return Volumes(master=read("master", "master_volume", default=fallback.master),
                   motors=read("motors", "motor", "motors_volume", default=fallback.motors),
                   effects=read("effects", "sfx", "effects_volume", default=fallback.effects),
                   ui=read("ui", "ui_volume", default=fallback.ui))


class PlayAudio(esper.Processor):
    """Motor voices follow the rpm each frame; events trigger one-shot sounds."""

    def __init__(self, app: App, media: Any, settings: Any = None, volumes: Volumes | None = None) -> None:
        self.app = app
        self.media = media  # the pyglet.media module
        self.settings = settings
        self.default_volumes = volumes or Volumes()
        self.enabled = True
        self.suspended = False
        self.played: deque[tuple[str, float]] = deque(maxlen=64)  # recent one-shots: (sound, loudness 0 … 1)
        self.motor_pitch = [0.0] * synth.MOTORS  # last pitch and volume set, for the HUD and tests
        self.motor_volume = [0.0] * synth.MOTORS
        self._sources: dict[str, Any] = {}
        self._one_shots: list[Any] = []
        self._motors: list[Any] = []
        self._motors_playing = False
        self._guard(self._open_motors)

    # -- safety ----------------------------------------------------------------------------
    def _guard(self, fn, *args) -> Any:
        if not self.enabled:
            return None
        try:
            return fn(*args)
        except Exception as exc:  # the sound back end must never stop the game
            log.warning("audio off: %s: %s", type(exc).__name__, exc)
            self.enabled = False
            return None

    def volumes(self) -> Volumes:
        return volumes_from(self.settings, self.default_volumes)

    # -- the back end ----------------------------------------------------------------------
    def _load(self, name: str, samples) -> Any:
        source = self._sources.get(name)
        if source is None:
            data = synth.wav_bytes(samples)
            source = self.media.load(f"{name}.wav", file=io.BytesIO(data), streaming=False)
            self._sources[name] = source
        return source

    def _open_motors(self) -> None:
        for i in range(synth.MOTORS):
            player = self.media.Player()
            player.queue(self._load(f"motor{i}", synth.motor_loop(seed=i)))
            player.loop = True
            player.volume = 0.0
            self._motors.append(player)

    def _play(self, name: str, samples_fn, volume: float, strength: float = 1.0) -> None:
        self.played.append((name, volume * strength))
        if volume <= 0.0 or self.suspended:
            return
        source = self._sources.get(name) or self._load(name, samples_fn())
        player = self.media.Player()
        player.queue(source)
        player.volume = volume
        player.play()
        # keep a handful alive until they end; drop the finished ones
        self._one_shots = [p for p in self._one_shots if p.playing][-15:] + [player]

    # -- every frame -----------------------------------------------------------------------
    def process(self, dt: float) -> None:
        if not self.enabled:
            return
        drone = self.app.try_resource(Player)
        if drone is None or not esper.entity_exists(drone.entity):
            return
        rotors = esper.try_component(drone.entity, Rotors)
        if rotors is not None:
            self._guard(self._follow_rpm, rotors.speed_rad_s)

    def _follow_rpm(self, speeds_rad_s) -> None:
        v = self.volumes()
        gain = v.master * v.motors * MOTOR_VOICE_GAIN
        any_spinning = False
        for i, player in enumerate(self._motors):
            rpm = speeds_rad_s[i] / RPM_TO_RAD_S
            loudness = synth.motor_loudness(rpm)
            pitch = max(MIN_PITCH, synth.blade_pass_hz(rpm) / synth.REFERENCE_BLADE_PASS_HZ)
            volume = gain * loudness
            if abs(pitch - self.motor_pitch[i]) > 1e-4:  # skip imperceptible changes: fewer driver calls
                player.pitch = self.motor_pitch[i] = pitch
            if abs(volume - self.motor_volume[i]) > 1e-4:
                player.volume = self.motor_volume[i] = volume
            any_spinning = any_spinning or loudness > 0.0
        want = any_spinning and not self.suspended
        if want != self._motors_playing:
            for player in self._motors:
                if want:
                    player.play()
                else:
                    player.pause()
            self._motors_playing = want

    # -- events (bound methods: esper keeps weak references) --------------------------------
    def on_impact(self, event: events.Impact) -> None:
        if not is_player(self.app, event.entity):
            return  # the player hears their own drone (the motors too)
        speed_m_s = event.speed_m_s
        if speed_m_s < MIN_IMPACT_SPEED_M_S:
            return
        band = max(1, min(IMPACT_BANDS, round(synth.impact_strength(speed_m_s) * IMPACT_BANDS)))
        v = self.volumes()
        volume = v.master * v.effects
        strength = band / IMPACT_BANDS  # the synthesised buffer's peak: louder for a faster impact
        speed_of_band = strength * synth.IMPACT_FULL_SPEED_M_S
        self._guard(self._play, f"impact{band}", lambda: synth.impact_sound(speed_of_band), volume, strength)

    def on_battery_low(self, event: events.BatteryLow) -> None:
        if not is_player(self.app, event.entity):
            return
        v = self.volumes()
        self._guard(self._play, "battery_low", synth.battery_warning, v.master * v.effects)

    def on_ui_click(self, event: events.UiClick) -> None:
        v = self.volumes()
        self._guard(self._play, "ui_click", synth.ui_click, v.master * v.ui)

    # -- for the window --------------------------------------------------------------------
    def suspend(self) -> None:
        """Silence everything (game paused, window minimised)."""
        self.suspended = True
        if self._motors_playing:
            self._guard(self._pause_motors)

    def _pause_motors(self) -> None:
        for player in self._motors:
            player.pause()
        self._motors_playing = False

    def resume(self) -> None:
        self.suspended = False  # the motors restart on the next frame if they spin

    def close(self) -> None:
        """Stop and release every player."""
        for player in self._motors + self._one_shots:
            try:
                player.pause()
                player.delete()
            except Exception:  # closing must not fail either
                pass
        self._motors.clear()
        self._one_shots.clear()
        self._motors_playing = False
        self.enabled = False


class AudioPlugin:
    """The game's sound. Add it to a windowed game only (it imports pyglet).

    Args:
        settings: the game settings (their `audio` section gives the volumes), or None.
        volumes: volumes used when the settings give none.
        drivers: pyglet audio drivers to try, in order (e.g. ("silent",)); None keeps
            pyglet's choice. Only effective before `pyglet.media` is first imported.
    """

    name = "audio"

    def __init__(self, settings: Any = None, volumes: Volumes | None = None, drivers: tuple[str, ...] | None = None) -> None:
        self.settings = settings
        self.volumes = volumes
        self.drivers = drivers
        self.system: PlayAudio | None = None

    def build(self, app: App) -> None:
        try:
            import pyglet  # noqa: PLC0415 (only the window's App pays for pyglet)
            if self.drivers is not None:
                pyglet.options["audio"] = tuple(self.drivers)
            import pyglet.media as media  # noqa: PLC0415
        except Exception as exc:  # no pyglet media: a game without sound, not a crash
            log.warning("audio off: pyglet.media unavailable: %s: %s", type(exc).__name__, exc)
            return
        self.system = PlayAudio(app, media, self.settings, self.volumes)
        app.insert_resource(self.system)
        app.add_system(self.system, Stage.AUDIO)
        app.on(events.Impact, self.system.on_impact)
        app.on(events.BatteryLow, self.system.on_battery_low)
        app.on(events.UiClick, self.system.on_ui_click)
