"""docs/model.md's figures, written down once for the tests (from the docs, not from the code)."""

import math

MASS = 0.087  # kg
G = 9.80665  # m/s²
KT = 7.2e-8  # N/(rad/s)²
RHO0 = 1.225  # kg/m³
ARM_X, ARM_Y = 0.0445, 0.04175  # m
INERTIA = (6.0e-5, 8.0e-5, 1.20e-4)  # kg·m²
CDA = (0.0065, 0.0065, 0.012)  # m²
REACTION = 0.004  # m
TAU_UP, TAU_DOWN = 0.035, 0.050  # s
AERO_H = 0.002  # m
MAX_RPM = 22000.0
PROP_D = 0.0762  # m
ENERGY_WH = 4.18
RPM = 2 * math.pi / 60
HOVER_OMEGA = math.sqrt(MASS * G / (4 * KT))  # ≈ 1721 rad/s (docs/model.md#battery-and-power)
