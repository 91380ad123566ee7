"""Pure flight controllers (PX4-style cascade): attitude → rate → torque → mixer → motors.

Each law is a compiled function over flat arrays (components/layout.py) whose parameter names
say what it reads: `loop_state` (its own integrators and setpoints, FlightLoops.state),
`gains` (the vehicle's controller gains, from the vehicle file's [control] section and the
stabilised profile's limits), `physics` where it truly needs the airframe (mass, inertia, kT,
drag areas), `body` (the RigidBody state) and the setpoints (`targets`, `lab`: the
Controller's). No esper, no pyglet.
"""
