"""The Donify game: scene assembly, the headless Simulation, the command line, settings."""
