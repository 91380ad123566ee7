"""The game's sound (issue #7): the motor tone follows the rpm, silence at rest, impacts,
the low-battery warning and UI clicks, volumes from the settings — on pyglet's silent driver.

Figures: the blade-pass frequency rpm / 60 × 2 blades (2 % by FFT, as the issue asks).
Everything runs on a machine with no sound device; the driver check runs in a fresh
interpreter so the driver choice cannot depend on what other tests imported first.
"""

import io
import os
import subprocess
import sys
import wave
from pathlib import Path

import numpy as np
import pytest

from components import events
from components.flight import Rotors
from flight.vehicle import RPM_TO_RAD_S
from components import events
from game.audio import synth
from game.audio.system import AudioPlugin, PlayAudio, Volumes, volumes_from

ROOT = Path(__file__).resolve().parents[2]


def blade_pass(rpm):
    return rpm / 60.0 * 2


@pytest.mark.parametrize("rpm", [4000.0, 9000.0, 16436.0, 22000.0])
def test_motor_buffer_dominant_frequency_is_the_blade_pass_frequency(rpm):
    buffer = synth.motor_mix([rpm] * 4, seconds=0.5)
    assert synth.dominant_frequency_hz(buffer) == pytest.approx(blade_pass(rpm), rel=0.02)
    # an independent look: the FFT bin of the largest peak, no interpolation
    spectrum = np.abs(np.fft.rfft(buffer))
    peak_hz = np.argmax(spectrum) * synth.SAMPLE_RATE_HZ / len(buffer)
    assert peak_hz == pytest.approx(blade_pass(rpm), rel=0.02)


def test_motor_mix_peaks_at_the_loudest_motors_blade_pass_and_holds_each_motor():
    rpms = [14000.0, 15000.0, 17000.0, 19000.0]
    buffer = synth.motor_mix(rpms, seconds=1.0)
    assert synth.dominant_frequency_hz(buffer) == pytest.approx(blade_pass(19000.0), rel=0.02)
    spectrum = np.abs(np.fft.rfft(buffer))
    freqs = np.fft.rfftfreq(len(buffer), 1.0 / synth.SAMPLE_RATE_HZ)
    floor = np.median(spectrum)
    for rpm in rpms:  # every motor's tone is in the mix
        near = np.abs(freqs - blade_pass(rpm)) < 2.0
        assert spectrum[near].max() > 50 * floor


def test_motors_at_rest_are_silent():
    assert not np.any(synth.motor_mix([0.0] * 4, seconds=0.2))
    quiet = np.abs(synth.motor_mix([3000.0] * 4, 0.2)).max()
    loud = np.abs(synth.motor_mix([20000.0] * 4, 0.2)).max()
    assert 0.0 < quiet < loud <= 1.0


def test_motor_loop_is_seamless_at_the_reference_pitch():
    loop = synth.motor_loop()
    assert len(loop) == round(synth.LOOP_S * synth.SAMPLE_RATE_HZ)
    three = np.tile(loop, 3)
    assert synth.dominant_frequency_hz(three) == pytest.approx(synth.REFERENCE_BLADE_PASS_HZ, rel=0.005)
    # the jump across the loop point is no larger than a step inside the loop
    steps = np.abs(np.diff(three))
    assert abs(float(loop[0]) - float(loop[-1])) <= steps.max()


def test_impact_sound_grows_with_impact_speed():
    rms = [float(np.sqrt(np.mean(synth.impact_sound(v) ** 2))) for v in (0.5, 2.0, 4.0, 6.0)]
    assert rms == sorted(rms) and rms[0] > 0.0
    assert len(synth.impact_sound(0.0)) == 0
    assert len(synth.impact_sound(5.0)) > len(synth.impact_sound(1.0))  # a harder hit rings longer


def test_wav_bytes_are_a_mono_16_bit_wav():
    data = synth.wav_bytes(synth.ui_click())
    with wave.open(io.BytesIO(data)) as w:
        assert (w.getnchannels(), w.getsampwidth(), w.getframerate()) == (1, 2, synth.SAMPLE_RATE_HZ)
        assert w.getnframes() == len(synth.ui_click())


@pytest.fixture
def audio_sim(make_sim):
    plugins = []

    def make(**kw):
        plugin = AudioPlugin(drivers=("silent",), **kw)
        plugins.append(plugin)
        sim = make_sim(level=None, position=(0.0, 0.0, 50.0), plugins=[plugin])
        assert sim.mod_problems == []
        return sim, plugin.system

    yield make
    for plugin in plugins:
        if plugin.system is not None:
            plugin.system.close()


def decoded_loop_hz(motor: int) -> float:
    """Dominant frequency of the WAV a motor player loops, read back from its bytes."""
    data = synth.wav_bytes(synth.motor_loop(seed=motor))
    with wave.open(io.BytesIO(data)) as w:
        pcm = np.frombuffer(w.readframes(w.getnframes()), dtype="<i2").astype(float)
    return synth.dominant_frequency_hz(np.tile(pcm, 4))


def test_motor_players_pitch_follows_each_motors_rpm(audio_sim):
    sim, audio = audio_sim()
    assert audio is not None and audio.enabled
    (rotors,) = sim.components(Rotors)
    for rpms in ([16436.0] * 4, [5000.0, 9000.0, 14000.0, 21000.0]):
        rotors.speed_rad_s[:] = [r * RPM_TO_RAD_S for r in rpms]
        audio.process(1 / 60)
        for i, rpm in enumerate(rpms):
            heard = decoded_loop_hz(i) * audio.motor_pitch[i]
            assert heard == pytest.approx(blade_pass(rpm), rel=0.02)
            assert audio._motors[i].pitch == pytest.approx(audio.motor_pitch[i])
        assert all(v > 0.0 for v in audio.motor_volume)
        assert audio._motors_playing


def test_motor_sound_follows_a_real_flight_and_stops_at_rest(audio_sim):
    sim, audio = audio_sim()
    sim.run(0.5)
    assert audio.motor_volume == [0.0] * 4 and not audio._motors_playing  # MotorPower 0: props still
    sim.pad.rt = 1.0
    sim.run(1.0)
    sim.pad.rt = 0.0
    sim.run(2.0)
    rpm = sum(sim.telemetry().rpm) / 4
    assert audio._motors_playing
    assert synth.REFERENCE_BLADE_PASS_HZ * audio.motor_pitch[0] == pytest.approx(blade_pass(rpm), rel=0.02)
    sim.pad.lt = 1.0  # MotorPower back to 0: the props spin down, the sound fades out
    sim.run(2.0)
    sim.run(2.0)
    assert audio.motor_volume == pytest.approx([0.0] * 4, abs=1e-3)


def test_an_impact_event_produces_the_impact_sound_scaled_by_speed(audio_sim):
    sim, audio = audio_sim()
    sim.app.emit(events.Impact(1.5, (0.0, 0.0, 1.0), 0.05))
    sim.app.emit(events.Impact(5.0, (0.0, 0.0, 1.0), 0.3))
    sim.app.emit(events.Impact(0.1, (0.0, 0.0, 1.0), 0.0))  # a resting contact: no sound
    played = list(audio.played)
    assert [name.startswith("impact") for name, _ in played] == [True, True]
    assert 0.0 < played[0][1] < played[1][1]
    assert audio.enabled


def test_battery_low_and_ui_click_play_on_their_channels(audio_sim):
    sim, audio = audio_sim(volumes=Volumes(master=1.0, motors=1.0, effects=0.5, ui=0.25))
    sim.app.emit(events.BatteryLow(0.19))
    sim.app.emit(events.UiClick())
    assert list(audio.played) == [("battery_low", 0.5), ("ui_click", 0.25)]
    assert len(synth.battery_warning()) > 0 and np.abs(synth.ui_click()).max() > 0


def test_volumes_come_from_the_settings_audio_section(audio_sim):
    class Audio:
        master, motors, effects, ui = 0.5, 0.4, 0.3, 0.2

    class Settings:
        audio = Audio()

    v = volumes_from(Settings(), Volumes())
    assert (v.master, v.motors, v.effects, v.ui) == (0.5, 0.4, 0.3, 0.2)
    assert volumes_from({"audio": {"master": 2.0, "ui": "loud"}}, Volumes(ui=0.6)).master == 1.0  # clamped
    assert volumes_from({"audio": {"ui": "loud"}}, Volumes(ui=0.6)).ui == 0.6  # unusable: the fallback
    from game.settings import Settings as GameSettings
    game_settings = GameSettings()
    game_settings.audio.master = 0.0  # the settings menu muting the game is heard at once
    sim, audio = audio_sim(settings=game_settings)
    sim.app.emit(events.UiClick())
    assert audio.played[-1] == ("ui_click", 0.0)


def test_a_failing_sound_back_end_turns_sound_off_without_failing(make_sim):
    class BrokenMedia:
        @staticmethod
        def load(*args, **kwargs):
            raise OSError("no device")

        class Player:
            def __init__(self):
                raise OSError("no device")

    sim = make_sim(level=None, position=(0.0, 0.0, 50.0))
    audio = PlayAudio(sim.app, BrokenMedia)
    assert not audio.enabled
    audio.process(1 / 60)
    audio.on_impact(events.Impact(3.0, (0.0, 0.0, 1.0), 0.0))
    audio.on_ui_click(events.UiClick())


def test_the_audio_system_runs_on_the_silent_driver():
    code = (
        "import pyglet\n"
        "from game.simulation import Simulation\n"
        "from game.audio import AudioPlugin\n"
        "from components import events\n"
        "plugin = AudioPlugin(drivers=('silent',))\n"
        "sim = Simulation(level=None, position=(0.0, 0.0, 20.0), plugins=[plugin])\n"
        "import pyglet.media\n"
        "print(type(pyglet.media.get_audio_driver()).__name__)\n"
        "sim.pad.rt = 1.0\nsim.run(1.0)\nsim.pad.rt = 0.0\nsim.run(1.0)\n"
        "sim.app.emit(events.Impact(4.0, (0.0, 0.0, 1.0), 0.2))\n"
        "sim.app.emit(events.BatteryLow(0.19))\nsim.app.emit(events.UiClick())\n"
        "sim.run(0.5)\n"
        "print(plugin.system.enabled, plugin.system._motors_playing, [n for n, _ in plugin.system.played])\n"
        "plugin.system.close()\nsim.close()\n"
    )
    env = dict(os.environ, PYGLET_HEADLESS="1")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    driver, state = out.stdout.strip().splitlines()
    assert driver == "SilentDriver"
    assert state == "True True ['impact5', 'battery_low', 'ui_click']"
