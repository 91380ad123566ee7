"""Gusts: a seeded, deterministic Dryden-style turbulence model (docs/model.md#weather, experimental).

The Dryden model (MIL-F-8785C) shapes white noise into gust velocities with the spectra of
atmospheric turbulence. With a time constant T = L / V (scale length over the speed at which
the frozen turbulence is carried past):

* along the mean wind, u:  H_u(s) = σ_u √(2T/π) / (1 + T s)            (first order)
* across it, v, and vertical, w:  H(s) = σ √(T/π) (1 + √3 T s) / (1 + T s)²  (second order)

Low-altitude scales (MIL-F-8785C, h in feet, applied at a reference height h):
L_w = h, L_u = L_v = h / (0.177 + 0.000823 h)^1.2, σ_w = σ_u (0.177 + 0.000823 h)^0.4.

Choices of this simulator, stated because a quadrotor is not the airliner the standard was
written for:

* The turbulence is carried past by the mean wind, so V = |mean wind|, not the drone's
  airspeed; below 1 m/s it is held at 1 m/s so calm air still has finite-length gusts.
  Gusts therefore do not depend on how the drone flies, and are generated in blocks.
* Each filter is discretised at the tick: the first-order one exactly (an AR(1) process),
  the second-order one as (√3 F + (1 − √3) F²) with F the same discrete first-order lag,
  whose output gain is set from its exact discrete stationary variance. So the configured
  σ is the long-run standard deviation, exactly, and the mean gust is zero.
* `intensity_m_s` is σ_u = σ_v; σ_w follows from the reference height.

Noise comes from numpy's PCG64 seeded from the scene seed, drawn in blocks of whole ticks:
the same seed gives the same gusts whatever the frame lengths.
"""

from __future__ import annotations

import math

import numpy as np

FEET_PER_M = 1.0 / 0.3048
MIN_ADVECTION_SPEED_M_S = 1.0
DEFAULT_REFERENCE_HEIGHT_M = 10.0
_STREAM = 0x57494E44  # "WIND": keeps these draws apart from any other use of the scene seed
SQRT3 = math.sqrt(3.0)


def low_altitude_scales(height_m: float) -> tuple[float, float, float, float]:
    """(L_u, L_v, L_w in m, σ_w / σ_u) at `height_m` (MIL-F-8785C low altitude, h ≥ 3 m)."""
    h = max(3.0, float(height_m))
    c = 0.177 + 0.000823 * h * FEET_PER_M
    l_uv = h / c ** 1.2  # the formula is homogeneous in h: the same in metres as in feet
    return l_uv, l_uv, h, c ** 0.4


def _second_order_gain(a: float) -> tuple[float, float, float, float]:
    """Gain k giving unit stationary variance to k (√3 y₁ + (1 − √3) y₂), with y₁ = F(n),
    y₂ = F(y₁), F: y ← a y + (1 − a) x; and the stationary covariance (p₁₁, p₁₂, p₂₂) of
    (y₁, y₂), from P = Φ P Φᵀ + Γ Γᵀ with Φ = [[a, 0], [1 − a, a]], Γ = (1 − a, 0)."""
    b = 1.0 - a
    one_a2 = 1.0 - a * a
    p11 = b * b / one_a2
    p12 = a * b * p11 / one_a2
    p22 = (b * b * p11 + 2.0 * a * b * p12) / one_a2
    c1, c2 = SQRT3, 1.0 - SQRT3
    var = c1 * c1 * p11 + 2.0 * c1 * c2 * p12 + c2 * c2 * p22
    return 1.0 / math.sqrt(var), p11, p12, p22


def _correlated_pair(cov, n1: float, n2: float) -> tuple[float, float]:
    """Two unit normals → a pair with covariance (p₁₁, p₁₂, p₂₂) (Cholesky)."""
    p11, p12, p22 = cov
    y1 = math.sqrt(p11) * n1
    return y1, p12 / p11 * y1 + math.sqrt(max(0.0, p22 - p12 * p12 / p11)) * n2


class DrydenTurbulence:
    """Gust velocities, world frame, one tick at a time.

    Args:
        seed: the scene seed (any integer).
        tick_s: the fixed tick, s.
        mean_wind_m_s: mean wind (x, y, z), world m/s: sets the u direction and V.
        intensity_m_s: σ_u = σ_v, m/s (0: no gusts).
        reference_height_m: height for the low-altitude scale lengths and σ_w.
        scale_lengths_m: (L_u, L_v, L_w) in m, overriding the low-altitude ones.
        block_ticks: noise drawn per block.
    """

    def __init__(self, seed: int, tick_s: float, mean_wind_m_s=(0.0, 0.0, 0.0), intensity_m_s: float = 0.0,
                 reference_height_m: float = DEFAULT_REFERENCE_HEIGHT_M, scale_lengths_m=None,
                 block_ticks: int = 240) -> None:
        self.tick_s = float(tick_s)
        self._rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence([int(seed) % 2 ** 64, _STREAM])))
        self._block = int(block_ticks)
        self._noise: list[float] = []
        self._i = 0
        l_u, l_v, l_w, w_ratio = low_altitude_scales(reference_height_m)
        if scale_lengths_m is not None:
            l_u, l_v, l_w = (float(x) for x in scale_lengths_m)
        self.scale_lengths_m = (l_u, l_v, l_w)
        self.vertical_ratio = w_ratio
        # filter states: u (unit variance), v and w (two lags each)
        self.u = 0.0
        self.v1 = self.v2 = self.w1 = self.w2 = 0.0
        self._p = ((1.0, 0.0, 1.0), (1.0, 0.0, 1.0))  # stationary covariances of (v1, v2), (w1, w2)
        self._started = False
        self.configure(mean_wind_m_s, intensity_m_s)

    def configure(self, mean_wind_m_s, intensity_m_s: float) -> None:
        """New mean wind and intensity. The filter states carry over (rescaled), so a change
        of weather does not restart the turbulence."""
        wx, wy, wz = (float(w) for w in mean_wind_m_s)
        self.mean_wind_m_s = (wx, wy, wz)
        self.intensity_m_s = float(intensity_m_s)
        speed = max(MIN_ADVECTION_SPEED_M_S, math.sqrt(wx * wx + wy * wy + wz * wz))
        horizontal = math.hypot(wx, wy)
        # u along the horizontal mean wind (world X in calm air), v to its left, w up
        self._cos, self._sin = (wx / horizontal, wy / horizontal) if horizontal > 1e-9 else (1.0, 0.0)
        dt = self.tick_s
        l_u, l_v, l_w = self.scale_lengths_m
        self.time_constants_s = (l_u / speed, l_v / speed, l_w / speed)
        a_u = math.exp(-dt * speed / l_u)
        a_v = math.exp(-dt * speed / l_v)
        a_w = math.exp(-dt * speed / l_w)
        k_v, *p_v = _second_order_gain(a_v)
        k_w, *p_w = _second_order_gain(a_w)
        if self._started:  # keep each state at the same number of standard deviations
            (ov1, _, ov2), (ow1, _, ow2) = self._p
            self.v1 *= math.sqrt(p_v[0] / ov1)
            self.v2 *= math.sqrt(p_v[2] / ov2)
            self.w1 *= math.sqrt(p_w[0] / ow1)
            self.w2 *= math.sqrt(p_w[2] / ow2)
        self._p = (tuple(p_v), tuple(p_w))
        sigma = self.intensity_m_s
        sigma_w = sigma * self.vertical_ratio
        self._coef = (
            a_u, math.sqrt(1.0 - a_u * a_u), sigma,  # u: AR(1) at unit variance, then × σ_u
            a_v, 1.0 - a_v, sigma * k_v * SQRT3, sigma * k_v * (1.0 - SQRT3),
            a_w, 1.0 - a_w, sigma_w * k_w * SQRT3, sigma_w * k_w * (1.0 - SQRT3),
        )

    def start_stationary(self) -> None:
        """Draw the filter states from their stationary distribution (no warm-up ramp)."""
        n = self._rng.standard_normal(5).tolist()
        self.u = n[0]
        self.v1, self.v2 = _correlated_pair(self._p[0], n[1], n[2])
        self.w1, self.w2 = _correlated_pair(self._p[1], n[3], n[4])
        self._started = True

    def _refill(self) -> None:
        self._noise = self._rng.standard_normal(3 * self._block).tolist()
        self._i = 0

    def step_into(self, out: list[float]) -> None:
        """Advance one tick and write mean wind + gust (world m/s) into `out` in place."""
        if not self._started:
            self.start_stationary()
        i = self._i
        if i >= len(self._noise):
            self._refill()
            i = 0
        noise = self._noise
        a_u, g_u, s_u, a_v, b_v, c_v1, c_v2, a_w, b_w, c_w1, c_w2 = self._coef
        u = self.u = a_u * self.u + g_u * noise[i]
        v2 = self.v2 = a_v * self.v2 + b_v * self.v1
        v1 = self.v1 = a_v * self.v1 + b_v * noise[i + 1]
        w2 = self.w2 = a_w * self.w2 + b_w * self.w1
        w1 = self.w1 = a_w * self.w1 + b_w * noise[i + 2]
        self._i = i + 3
        gu = s_u * u
        gv = c_v1 * v1 + c_v2 * v2
        mean = self.mean_wind_m_s
        out[0] = mean[0] + self._cos * gu - self._sin * gv
        out[1] = mean[1] + self._sin * gu + self._cos * gv
        out[2] = mean[2] + c_w1 * w1 + c_w2 * w2
