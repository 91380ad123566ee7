"""The headless demo flight: take off, climb, cruise along the street, yaw, brake, land.

What `donify` runs where there is no display. It flies through the same headless
`Simulation` as the tests, with scripted pad input.
"""

from __future__ import annotations

import math

from game.simulation import Simulation


def run_demo(level: str = "street", out=print, plugins=(), strict_mods: bool = False) -> int:
    sim = Simulation(level=level, plugins=plugins, strict_mods=strict_mods)
    pad = sim.pad
    samples = []

    def fly(seconds: float) -> None:
        for _ in range(round(seconds * 60)):
            sim.step()
            samples.append(sim.telemetry())

    def tap(button: str) -> None:
        pad.press(button)
        fly(1 / 60)
        pad.release(button)

    tap("X")              # take-off assist: arms and climbs to 1.5 m above the pad
    fly(4.0)
    pad.rt = 1.0          # MotorPower 0.2 → 0.5: the cruise setting (8 × 0.5 = 4 m/s)
    fly(0.6)
    pad.rt = 0.0
    pad.press("Y")        # climb at 2 m/s
    fly(1.5)
    pad.release("Y")      # hold the altitude reached
    fly(1.0)
    pad.left = (0.0, 1.0)  # choose "forward", down the street
    fly(0.2)
    pad.left = (0.0, 0.0)  # neutral keeps the cruise
    fly(6.0)
    pad.right = (0.6, 0.0)  # yaw right: the travel direction stays in the world frame
    fly(1.5)
    pad.right = (0.0, 0.0)
    tap("LS")             # brake to a hover
    fly(3.0)
    tap("B")              # landing assist: descends at ≤ 0.7 m/s, cuts the motors on contact
    fly(12.0)

    first, last = samples[0], samples[-1]
    distance = sum(math.dist(a.position, b.position) for a, b in zip(samples, samples[1:]))
    max_speed = max(math.hypot(*s.velocity[:2]) for s in samples)
    max_alt = max(s.position[2] for s in samples)
    energy = (first.battery_energy_wh - last.battery_energy_wh)
    out(f"Donify demo flight — level {level!r}, {last.time:.1f} s simulated")
    out(f"  distance flown     {distance:8.1f} m")
    cruise = max(math.hypot(*s.target_velocity[:2]) for s in samples)
    out(f"  max horiz. speed   {max_speed:8.2f} m/s (cruise asked: 8 m/s x MotorPower = {cruise:.1f} m/s)")
    out(f"  max altitude       {max_alt:8.2f} m")
    out(f"  final position     ({last.position[0]:.2f}, {last.position[1]:.2f}, {last.position[2]:.2f}) m, heading {last.yaw_deg:.0f} deg")
    out(f"  landed             {'yes, motors cut' if last.contact and not last.armed else 'no'} (mode {last.mode})")
    out(f"  energy used        {energy * 1000:8.1f} mWh ({(1 - last.battery_fraction) * 100:.2f} % of the pack)")
    sim.close()
    return 0
