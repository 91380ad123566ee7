"""Drawing Donify: the drone, the level, the cameras, the HUD and the menus (pyglet, GL 3.3 core).

Only the game window imports this package: the headless `Simulation` never does, so tests
and batch runs never open a GL context. The window adds `RenderPlugin` to the App; its
RENDER-stage system prepares each frame from the components (interpolated pose, propeller
angles, cameras, HUD values) and `Renderer.draw` issues the GL calls.

`renderer` keeps the frame: the cameras, the HUD, and the passes in draw order. Each thing
drawn is one pass in `passes/` (the sky is passes/sky.py, the trail passes/trail.py…), with its
own GL objects; `frame` holds what they share and their contract.

Pure parts (no GL): `transforms`, `mesh`, `drone_model`, `level_model`, `camera`,
`hud_text`, `pause`, `ribbon` (camera-facing strips), `rain_light` (rain's darker lighting),
`fleet` (every drone's pose, propellers and colour, vectorised), `follow` (the followed
drone, a resource) — they can be checked without a context. GL parts: `gl` (programs and
vertex buffers), `instanced` (many copies of a mesh in one draw),
`text` (glyph atlas text), `hud`, `frame`, `passes/`, `renderer`, `plugin`, `loading` (the
cold start's loading screen); shaders in `shaders/`.
"""

import os

import pyglet

# pyglet checks glGetError after every GL call unless told not to: a real cost per frame on a
# software renderer. DONIFY_GL_DEBUG=1 keeps the checks for debugging. (Read when pyglet.gl is
# first imported, which this package's GL modules do.)
if not os.environ.get("DONIFY_GL_DEBUG"):
    pyglet.options.debug_gl = False

# Mesa's software renderer (llvmpipe) rasterises with LP_NUM_THREADS worker threads; on these
# machines it used one when left unset, which halves the frame rate on two cores. Read when
# the GL context is created; a value the user set wins.
os.environ.setdefault("LP_NUM_THREADS", str(max(1, min(os.cpu_count() or 1, 16))))
