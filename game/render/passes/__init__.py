"""The render passes: one module per thing drawn, each owning its GL objects (see
game/render/frame.py for the contract, game/render/renderer.py for the order they draw in).

| module | draws |
|---|---|
| level.py | the level: ground and road, decals (markings, windows), solids (buildings, poles, pads) |
| fleet.py | what the drone passes share: the instanced program, one instanced mesh per part per drone model |
| drone.py | every drone's body (the followed one's from the chase camera only), one draw per model |
| sky.py | the sky cap above the horizon |
| props_and_shadow.py | every drone's blob shadow, propellers and blur discs, one instanced draw each |
| landing_aid.py | the ring on the surface below the followed drone and the drop line to it |
| trail.py | the followed drone's trail, a ribbon facing the camera |
| route.py | the mission route |
| rain.py | the rain streaks around the camera |
| map_marker.py | every drone's arrow on the map, in its colour |
| hud.py | the HUD: its readout panels (cached in a texture), then the text around them |
| player_hud.py | the player HUD's see-through panels (when it is the HUD in use) |
| title.py | the title screen, over everything, while it is open |
| lab_note.py | in Angle / Acro: PROPULSION is the direct collective, and the collective that hovers |
| crash.py | the CRASHED banner and how to restart, while a crash has ended the flight |
| tutorial.py | the tutorial prompt, the hint bar's content, the controls overlay (F1) |
| menus.py | the flight menu and the pause panel, over everything |
| gates.py | the course gates' frames, the next one highlighted (added by game/course_flow.py) |
| course_hud.py | the course run: countdown, timer, gate, split and delta, the arrow to the next gate |
| course_results.py | the results screen of a course run, Retry / Back |
| ghost.py | a translucent Tello where a replay's drone was (the best run's, or `--ghost`) |
| replay_status.py | while a replay plays back: its speed, time and keys (game/replay_window.py) |
"""
