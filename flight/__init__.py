"""Donify's flight model and controllers: pure code over plain data.

Nothing in this package imports esper or pyglet, so tests, batch runs and benchmarks use it
without a world or a window. Systems in `systems/` are thin adapters around it.
"""
