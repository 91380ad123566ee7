"""The render passes: one module per thing drawn, each owning its GL objects (see
game/render/frame.py for the contract, game/render/renderer.py for the order they draw in).

| module | draws |
|---|---|
| level.py | the level: ground and road, decals (markings, windows), solids (buildings, poles, pads) |
| drone.py | the drone's body |
| sky.py | the sky cap above the horizon |
| props_and_shadow.py | the blob shadow, the propellers and their blur discs, in one batch |
| trail.py | the drone's trail |
| route.py | the mission route |
| rain.py | the rain streaks around the camera |
| map_marker.py | the drone's arrow on the map |
| hud.py | the HUD: its readout panels (cached in a texture), then the text around them |
| menus.py | the flight menu and the pause panel, over everything |
"""
