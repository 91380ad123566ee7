"""One esper processor per verb. Each is a thin adapter: it queries components and resources
and calls the pure code in `flight/` and `world/`."""
