"""Procedural sounds, in pure numpy: the motors, impacts, the low-battery warning, UI clicks.

Every sound is a float32 mono buffer in [-1, 1] at `SAMPLE_RATE_HZ`, and `wav_bytes` turns one
into an in-memory 16-bit WAV (what pyglet loads; docs/api.md#notes-on-the-stack).

**Motors.** A two-blade propeller pushes the air twice a turn, so the tone's fundamental is
the blade-pass frequency f = rpm / 60 × 2 blades, with decreasing harmonics 2f, 3f, 4f and a
little band-limited air noise. Loudness grows with rpm (∝ rpm^1.5, full at 22 000 rpm) and is
exactly zero at zero rpm. `motor_mix` renders the four motors at their own rpm; `motor_loop`
renders one motor at the reference rpm over a whole number of periods, so it loops without
a click and a player's pitch (f / `REFERENCE_BLADE_PASS_HZ`) moves it to any rpm.

**Impacts.** A low thump and a noise crack whose loudness, length and brightness grow with
the impact speed (full at `IMPACT_FULL_SPEED_M_S`).
"""

from __future__ import annotations

import io
import wave

import numpy as np

SAMPLE_RATE_HZ = 44_100
BLADES = 2
HARMONICS = ((1, 1.0), (2, 0.45), (3, 0.25), (4, 0.12))  # (multiple of the blade-pass frequency, amplitude)
AIR_NOISE = 0.06  # broadband air noise, relative to the fundamental
LOUDEST_RPM = 22_000.0  # full motor loudness (max motor speed, docs/model.md#parameters)
REFERENCE_BLADE_PASS_HZ = 550.0  # the motor loop's pitch (16 500 rpm, near hover)
LOOP_S = 0.1  # 55 periods of 550 Hz: every harmonic loops seamlessly
IMPACT_FULL_SPEED_M_S = 6.0  # an impact this fast or faster is at full loudness
MOTORS = 4


def blade_pass_hz(rpm: float) -> float:
    """Fundamental of a two-blade propeller's tone, Hz."""
    return rpm / 60.0 * BLADES


def rpm_for_blade_pass(freq_hz: float) -> float:
    return freq_hz * 60.0 / BLADES


def motor_loudness(rpm: float) -> float:
    """Relative loudness of one motor, 0 at rest, 1 at `LOUDEST_RPM` and above."""
    if rpm <= 0.0:
        return 0.0
    return min(1.0, (rpm / LOUDEST_RPM) ** 1.5)


def _band_noise(n: int, sample_rate: int, rng: np.random.Generator, low_hz: float = 150.0, high_hz: float = 5000.0) -> np.ndarray:
    """Unit-RMS noise limited to [low, high] Hz, periodic over its n samples (loop-safe)."""
    spectrum = np.zeros(n // 2 + 1, dtype=complex)
    freqs = np.fft.rfftfreq(n, 1.0 / sample_rate)
    band = (freqs >= low_hz) & (freqs <= high_hz)
    spectrum[band] = np.exp(2j * np.pi * rng.random(int(band.sum())))
    noise = np.fft.irfft(spectrum, n)
    rms = float(np.sqrt(np.mean(noise * noise)))
    return noise / rms if rms > 0.0 else noise


def motor_voice(rpm: float, n_samples: int, sample_rate: int = SAMPLE_RATE_HZ, rng: np.random.Generator | None = None,
                loudness: float | None = None) -> np.ndarray:
    """One motor at `rpm`: blade-pass tone, harmonics and air noise, scaled by loudness."""
    gain = motor_loudness(rpm) if loudness is None else loudness
    if gain <= 0.0 or rpm <= 0.0 or n_samples <= 0:
        return np.zeros(max(0, n_samples), dtype=np.float32)
    rng = rng or np.random.default_rng(0)
    t = np.arange(n_samples) / sample_rate
    f = blade_pass_hz(rpm)
    out = np.zeros(n_samples)
    for multiple, amplitude in HARMONICS:
        if multiple * f < 0.5 * sample_rate:  # nothing above Nyquist
            out += amplitude * np.sin(2.0 * np.pi * multiple * f * t + rng.random() * 2.0 * np.pi)
    out += AIR_NOISE * _band_noise(n_samples, sample_rate, rng)
    peak = sum(a for _, a in HARMONICS) + 3.0 * AIR_NOISE  # fixed headroom: loudness stays meaningful
    return (gain * out / peak).astype(np.float32)


def motor_mix(rpms, seconds: float, sample_rate: int = SAMPLE_RATE_HZ, seed: int = 0) -> np.ndarray:
    """The four motors at their own rpm, mixed (each at a quarter of full scale)."""
    n = int(round(seconds * sample_rate))
    rng = np.random.default_rng(seed)
    out = np.zeros(n, dtype=np.float32)
    for rpm in rpms:
        out += motor_voice(float(rpm), n, sample_rate, rng) / MOTORS
    return out


def motor_loop(seed: int = 0, sample_rate: int = SAMPLE_RATE_HZ) -> np.ndarray:
    """One motor at the reference rpm and full loudness, a seamless loop of `LOOP_S`."""
    n = int(round(LOOP_S * sample_rate))
    return motor_voice(rpm_for_blade_pass(REFERENCE_BLADE_PASS_HZ), n, sample_rate, np.random.default_rng(seed), loudness=1.0)


def impact_strength(speed_m_s: float) -> float:
    """0 … 1: how hard an impact at this speed sounds."""
    return min(1.0, max(0.0, speed_m_s / IMPACT_FULL_SPEED_M_S))


def impact_sound(speed_m_s: float, sample_rate: int = SAMPLE_RATE_HZ, seed: int = 0) -> np.ndarray:
    """A thump and a crack, louder, longer and brighter for a faster impact."""
    g = impact_strength(speed_m_s)
    if g <= 0.0:
        return np.zeros(0, dtype=np.float32)
    rng = np.random.default_rng(seed)
    n = int((0.08 + 0.25 * g) * sample_rate)
    t = np.arange(n) / sample_rate
    thump_hz = 70.0 + 60.0 * np.exp(-t / 0.03)  # falling pitch: a body hitting something
    thump = np.sin(2.0 * np.pi * np.cumsum(thump_hz) / sample_rate) * np.exp(-t / (0.04 + 0.06 * g))
    crack = _band_noise(n, sample_rate, rng, 300.0, 2000.0 + 8000.0 * g) * np.exp(-t / (0.01 + 0.03 * g))
    out = 0.6 * thump + 0.4 * g * crack
    return (g * out / max(1e-9, float(np.max(np.abs(out))))).astype(np.float32)


def _envelope(n: int, sample_rate: int, attack_s: float, release_s: float) -> np.ndarray:
    env = np.ones(n)
    a, r = max(1, int(attack_s * sample_rate)), max(1, int(release_s * sample_rate))
    env[:a] = np.linspace(0.0, 1.0, a)
    env[-r:] *= np.linspace(1.0, 0.0, r)
    return env


def battery_warning(sample_rate: int = SAMPLE_RATE_HZ) -> np.ndarray:
    """Three short 1.2 kHz beeps."""
    beep_n, gap_n = int(0.09 * sample_rate), int(0.06 * sample_rate)
    t = np.arange(beep_n) / sample_rate
    beep = 0.7 * np.sin(2.0 * np.pi * 1200.0 * t) * _envelope(beep_n, sample_rate, 0.005, 0.02)
    gap = np.zeros(gap_n)
    return np.concatenate([beep, gap, beep, gap, beep]).astype(np.float32)


def ui_click(sample_rate: int = SAMPLE_RATE_HZ) -> np.ndarray:
    """A short, soft tick."""
    n = int(0.025 * sample_rate)
    t = np.arange(n) / sample_rate
    return (0.5 * np.sin(2.0 * np.pi * 2200.0 * t) * np.exp(-t / 0.004) * _envelope(n, sample_rate, 0.001, 0.005)).astype(np.float32)


def wav_bytes(samples: np.ndarray, sample_rate: int = SAMPLE_RATE_HZ) -> bytes:
    """A mono 16-bit WAV file, in memory."""
    pcm = (np.clip(samples, -1.0, 1.0) * 32767.0).astype("<i2")
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(sample_rate)
        w.writeframes(pcm.tobytes())
    return buffer.getvalue()


def dominant_frequency_hz(samples: np.ndarray, sample_rate: int = SAMPLE_RATE_HZ) -> float:
    """Frequency of the largest FFT peak (Hann window, parabolic interpolation), Hz."""
    n = len(samples)
    spectrum = np.abs(np.fft.rfft(samples * np.hanning(n)))
    k = int(np.argmax(spectrum[1:])) + 1
    if 1 <= k < len(spectrum) - 1:
        a, b, c = np.log(spectrum[k - 1:k + 2] + 1e-30)
        k = k + 0.5 * (a - c) / (a - 2 * b + c)
    return float(k * sample_rate / n)
