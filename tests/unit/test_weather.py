"""Weather as data and the gust model (docs/model.md#weather; issue #7): ISA density presets, Dryden-style
gusts with the configured mean and intensity over a long run, repeatable for a seed.

Figures: the ISA (ICAO Doc 7488) table and the ideal-gas law for the densities; MIL-F-8785C's
low-altitude σ_w/σ_u; the configured mean wind and σ for the gust statistics. Tolerances are
several standard errors of the estimate over the run length (T = L / V = 1 s, one hour).
"""

import math

import numpy as np
import pytest

from world.turbulence import DrydenTurbulence
from world.weather import (BUILTIN_PRESETS, DENSITY_PRESETS, HEAVY_RAIN_MM_H, Weather, WeatherPreset, isa_density)

TICK = 1.0 / 240.0
R_AIR = 287.05287  # J/(kg K)


def test_isa_density_matches_the_standard_atmosphere_table():
    assert isa_density(0.0) == pytest.approx(1.2250, abs=5e-5)
    assert isa_density(2000.0) == pytest.approx(1.0066, abs=2e-4)  # ICAO table: 1.0066 kg/m³
    assert isa_density(1000.0) == pytest.approx(1.1117, abs=2e-4)
    # a hot day keeps the pressure and warms the air: ρ = p / (R T)
    assert isa_density(0.0, 35.0) == pytest.approx(101325.0 / (R_AIR * 308.15), rel=1e-9)
    assert isa_density(2000.0, 30.0) < isa_density(2000.0)


def test_density_presets_are_sea_level_2000_m_and_hot_day():
    by_id = {p.id: p.density_kg_m3 for p in DENSITY_PRESETS}
    assert by_id["sea_level"] == 1.225
    assert by_id["altitude_2000m"] == pytest.approx(1.0066, abs=2e-4)
    assert by_id["hot_day"] == pytest.approx(101325.0 / (R_AIR * 308.15), rel=1e-9)


@pytest.mark.parametrize("bad", [dict(altitude_m=-1000.0), dict(altitude_m=float("nan")), dict(altitude_m=0.0, temperature_c=200.0)])
def test_isa_density_rejects_out_of_range_input(bad):
    with pytest.raises(ValueError, match="expected"):
        isa_density(**bad)


@pytest.mark.parametrize("kwargs, word", [
    (dict(density_kg_m3=-1.0), "density"), (dict(wind_m_s=(1.0, 2.0)), "wind"),
    (dict(gust_intensity_m_s=-0.5), "gusts"), (dict(rain_mm_h=float("inf")), "rain"),
])
def test_weather_rejects_bad_values_with_a_clear_message(kwargs, word):
    with pytest.raises(ValueError, match=f"{word}: expected"):
        Weather(**kwargs)
    with pytest.raises(ValueError, match=f"{word}: expected"):
        WeatherPreset("x", "X", **kwargs)


def test_rain_is_exposed_for_the_renderer_as_a_level_from_dry_to_heavy():
    assert Weather().rain_level == 0.0
    drizzle = 0.2 * HEAVY_RAIN_MM_H
    assert Weather(rain_mm_h=drizzle).rain_level == pytest.approx(drizzle / HEAVY_RAIN_MM_H)
    assert Weather(rain_mm_h=HEAVY_RAIN_MM_H).rain_level == 1.0
    assert Weather(rain_mm_h=1.6 * HEAVY_RAIN_MM_H).rain_level == 1.0  # beyond heavy: drawn as heavy
    wet = Weather(rain_mm_h=10.0)
    assert f"rain {wet.rain_mm_h:g} mm/h (visual only)" in wet.describe()


def test_applying_a_preset_sets_every_field():
    w = Weather()
    gusty = next(p for p in BUILTIN_PRESETS if p.gust_intensity_m_s > 0)
    w.apply(gusty)
    assert (w.wind_m_s, w.gust_intensity_m_s, w.density_kg_m3, w.rain_mm_h, w.preset_id) == (
        gusty.wind_m_s, gusty.gust_intensity_m_s, gusty.density_kg_m3, gusty.rain_mm_h, gusty.id)
    assert w.wind_now_m_s == list(gusty.wind_m_s)


def run(turbulence, ticks):
    out = [0.0, 0.0, 0.0]
    samples = np.empty((ticks, 3))
    for k in range(ticks):
        turbulence.step_into(out)
        samples[k] = out
    return samples


def test_gusts_have_the_configured_mean_and_intensity_over_a_long_run():
    mean = (6.0 * math.cos(0.5), 6.0 * math.sin(0.5), 0.0)  # 6 m/s, not along an axis
    sigma = 1.5
    height = 10.0
    model = DrydenTurbulence(seed=11, tick_s=TICK, mean_wind_m_s=mean, intensity_m_s=sigma,
                             reference_height_m=height, scale_lengths_m=(6.0, 6.0, 6.0))  # T = L / V = 1 s
    samples = run(model, 240 * 3600)  # one hour
    # the mean wind: within 0.1 σ (the standard error is σ √(2T / D) ≈ 0.024 σ)
    for axis in range(3):
        assert samples[:, axis].mean() == pytest.approx(mean[axis], abs=0.1 * sigma)
    # the intensity along and across the mean wind: σ within 5 % (standard error ≈ 1.2 %)
    gust = samples - np.array(mean)
    along = np.array([math.cos(0.5), math.sin(0.5)])
    across = np.array([-math.sin(0.5), math.cos(0.5)])
    assert (gust[:, :2] @ along).std() == pytest.approx(sigma, rel=0.05)
    assert (gust[:, :2] @ across).std() == pytest.approx(sigma, rel=0.05)
    # vertical: MIL-F-8785C low altitude σ_w = σ_u (0.177 + 0.000823 h[ft])^0.4
    sigma_w = sigma * (0.177 + 0.000823 * height / 0.3048) ** 0.4
    assert gust[:, 2].std() == pytest.approx(sigma_w, rel=0.05)
    # gusts are correlated over about T = 1 s, not white noise
    u = gust[:, :2] @ along
    lag = 240  # 1 s
    correlation = np.corrcoef(u[:-lag], u[lag:])[0, 1]
    assert correlation == pytest.approx(math.exp(-1.0), abs=0.05)  # first-order Dryden: e^(−τ/T)


def test_gusts_repeat_for_a_seed_and_differ_between_seeds():
    def make(seed):
        return DrydenTurbulence(seed=seed, tick_s=TICK, mean_wind_m_s=(4.0, 0.0, 0.0), intensity_m_s=1.0)

    a, b, c = run(make(3), 2000), run(make(3), 2000), run(make(4), 2000)
    assert np.array_equal(a, b)
    assert not np.allclose(a, c)


def test_no_gusts_leave_the_mean_wind():
    model = DrydenTurbulence(seed=0, tick_s=TICK, mean_wind_m_s=(2.0, -1.0, 0.5), intensity_m_s=0.0)
    assert np.all(run(model, 500) == np.array([2.0, -1.0, 0.5]))
