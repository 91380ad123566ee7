"""The game's sound: procedural synthesis (`synth`, pure numpy) and the AUDIO-stage player
(`system`, pyglet media). `AudioPlugin(settings)` is the entry point the window adds; nothing
here is imported by the headless Simulation, which opens no audio device.
"""

from __future__ import annotations


def __getattr__(name: str):
    # AudioPlugin lives with the pyglet-facing system; import it only when asked for
    if name in ("AudioPlugin", "PlayAudio", "Volumes"):
        from game.audio import system  # noqa: PLC0415
        return getattr(system, name)
    raise AttributeError(name)


__all__ = ["AudioPlugin", "PlayAudio", "Volumes"]
