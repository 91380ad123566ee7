"""The world the drone flies in: level data, geometry, collision and ground sensing, weather.
Pure code over plain data (no esper, no pyglet)."""
