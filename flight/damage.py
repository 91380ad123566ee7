"""Crashes and damage (docs/model.md#crashes-and-damage): when an impact ends the flight, and
what a lighter one does to the rotors. Pure: plain floats in, plain floats out.

- **Crash.** An impact whose speed along the surface normal exceeds the vehicle's
  `crash_impact_speed` (the frame's strength, from the vehicle file), or damage reaching 1,
  ends the flight: the motors stop and stay stopped until Restart (systems/crash.py).
- **Damage.** A lighter impact adds damage (world/collision.py `impact_damage`: grows with the
  kinetic energy above 2 m/s), and the rotor nearest the impact loses that much of its thrust:
  its health hᵢ (1 intact) drops by the damage the impact added, and the dynamics give
  Tᵢ = hᵢ kT ωᵢ² ρ/ρ₀ (flight/dynamics.py). The controller does not know: it commands the
  thrust of an intact rotor, so a damaged drone rolls and yaws towards the hit arm and needs
  more collective to hover. An impact from below or above (the surface more than 60° from the
  rotor plane, a hard landing) is shared by the four rotors. Only Restart repairs.
"""

from __future__ import annotations

import math

from flight import quat

CRASH_IMPACT = "impact"
CRASH_DAMAGE = "damage"
SHARED_BELOW = 0.5  # horizontal share of the impact direction (sin 30°) under which all four rotors share it


def crash_reason(impact_speed_m_s: float, damage: float, crash_impact_speed_m_s: float) -> str:
    """Why this tick ends the flight: "impact" (faster than the frame takes), "damage" (the
    accumulated damage reached 1), or "" (it does not)."""
    if impact_speed_m_s > crash_impact_speed_m_s:
        return CRASH_IMPACT
    if damage >= 1.0:
        return CRASH_DAMAGE
    return ""


def impact_shares(normal_world, quaternion, rotor_x, rotor_y) -> tuple[float, float, float, float]:
    """How an impact's damage is spread over the rotors (0 front-right … 3 front-left; sums to 1).

    The surface lies along −normal from the centre of mass; seen in body axes, the rotor
    whose arm points most that way takes it all (two
    equally near share it). When that direction is mostly vertical in
    body axes (its horizontal part under `SHARED_BELOW`), the four share it equally.
    """
    qx, qy, qz, qw = quaternion
    dx, dy, _ = quat.rotate_components(-qx, -qy, -qz, qw, -normal_world[0], -normal_world[1], -normal_world[2])
    if math.hypot(dx, dy) < SHARED_BELOW:
        return (0.25, 0.25, 0.25, 0.25)
    reach = [rotor_x[i] * dx + rotor_y[i] * dy for i in range(4)]
    best = max(reach)
    nearest = [r >= best - 1e-9 * abs(best) for r in reach]  # a hit square on a side: its two rotors share it
    return tuple((1.0 / sum(nearest)) if near else 0.0 for near in nearest)


def damaged_health(health, shares, added_damage: float) -> tuple[float, float, float, float]:
    """Each rotor's health after an impact that added `added_damage`: hᵢ − shareᵢ · added, ≥ 0."""
    return tuple(max(0.0, float(health[i]) - shares[i] * added_damage) for i in range(4))
