"""Pure flight controllers (PX4-style cascade): attitude → rate → torque → mixer → motors.

Each controller is a plain class with an `update(...)` over floats and its own loop state;
gains come from the vehicle file's `[control]` section. No esper, no pyglet.
"""
