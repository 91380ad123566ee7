"""Screen-space quads and text in one dynamic buffer per font: the HUD's and menus' drawing.

pyglet's `Label` re-lays out and re-uploads per label (about 0.25 ms each on a software
renderer), far too slow for two dozen readouts changing every frame. Here a `Font` copies
pyglet's glyph metrics and atlas coordinates once; a `UiLayer` holds named items — solid
rectangles and strings — and rebuilds its one vertex buffer only when an item changed.
Items draw in the order they were first added (panels first, then bars, then text).

Coordinates are pixels from the window's bottom-left corner; text positions are baselines.
"""

from __future__ import annotations

import numpy as np
import pyglet
from pyglet import gl

from game.render.gl import GpuMesh


def expand_to_rgba(self, data: bytes, src_format: str, dst_format: str) -> bytes:
    """pyglet's `FreeTypeGlyphRenderer._expand_to_rgba`, the same bytes out, with numpy.

    pyglet expands each rendered glyph's grey bitmap to RGBA in a Python loop per pixel: the
    game's ~1000 glyphs (five fonts × `CHARSET`) cost ~0.3 s of every start in that loop.
    Installed over pyglet's method when this module loads (start-up, README)."""
    src_len, dst_len = len(src_format), len(dst_format)
    if src_len >= dst_len:
        return data
    pixels = np.frombuffer(bytes(data), dtype=np.uint8)[: len(data) // src_len * src_len].reshape(-1, src_len)
    out = np.full((len(pixels), dst_len), 255, dtype=np.uint8)
    if src_len > 0 and "A" in dst_format and "A" not in src_format:
        out[:, dst_format.index("A")] = pixels[:, 0]  # the grey level becomes the alpha
    return out.tobytes()


try:
    from pyglet.font import freetype as _freetype
except ImportError:  # another platform's font backend (Windows, macOS): nothing to speed up
    _freetype = None
if _freetype is not None and hasattr(_freetype, "FreeTypeGlyphRenderer"):
    _ORIGINAL_EXPAND = _freetype.FreeTypeGlyphRenderer._expand_to_rgba
    _freetype.FreeTypeGlyphRenderer._expand_to_rgba = expand_to_rgba

UI_FLOATS = 8  # position xy, uv, colour rgba
CHARSET = "".join(chr(c) for c in range(32, 127)) + "".join(chr(c) for c in range(0xA0, 0x100)) + "–—−…←→↑↓•·‹›°×≈"
_SOLID_UV = (-1.0, -1.0)


class Font:
    """Glyph metrics and atlas coordinates of one pyglet font, for `CHARSET`."""

    def __init__(self, name: str | None, size: float, bold: bool = False) -> None:
        font = pyglet.font.load(name, size, weight="bold" if bold else "normal")
        self.ascent = float(font.ascent)
        self.descent = float(font.descent)  # negative
        self.line_height = self.ascent - self.descent
        self.glyphs: dict[str, tuple[float, float, float, float, float, float, float, float, float]] = {}
        texture = None
        for ch in CHARSET:
            glyph = font.get_glyphs(ch)[0][0]
            if texture is None:
                texture = glyph.owner
            if glyph.owner is not texture:  # a second atlas page: not expected for this charset
                continue
            x0, y0, x1, y1 = glyph.vertices
            t = glyph.tex_coords  # 4 corners × (u, v, r): bottom-left, bottom-right, top-right, top-left
            self.glyphs[ch] = (float(x0), float(y0), float(x1), float(y1), t[0], t[1], t[6], t[7], float(glyph.advance))
        self.texture = texture
        self.fallback = self.glyphs["?"]

    def width(self, text: str) -> float:
        g, fb = self.glyphs, self.fallback
        return sum(g.get(ch, fb)[8] for ch in text)

    def quads(self, text: str, x: float, y: float, colour) -> np.ndarray:
        """Two triangles per visible glyph, baseline at y, starting at x."""
        rows = []
        g, fb = self.glyphs, self.fallback
        pen = float(int(x))
        y = float(int(y))
        for ch in text:
            x0, y0, x1, y1, u0, v0, u1, v1, advance = g.get(ch, fb)
            if x1 > x0:
                rows.append((pen + x0, y + y0, pen + x1, y + y1, u0, v0, u1, v1))
            pen += advance
        if not rows:
            return np.zeros((0, UI_FLOATS), dtype=np.float32)
        return _quads(np.array(rows, dtype=np.float32), colour)


def _quads(rows: np.ndarray, colour) -> np.ndarray:
    """(n, 8) rows of x0 y0 x1 y1 u0 v0 u1 v1 → (4n, UI_FLOATS) vertices, four corners per quad
    counter-clockwise (the layer's index buffer makes the two triangles)."""
    n = len(rows)
    out = np.empty((n, 4, UI_FLOATS), dtype=np.float32)
    x0, y0, x1, y1, u0, v0, u1, v1 = (rows[:, i:i + 1] for i in range(8))
    corners = ((x0, y0, u0, v0), (x1, y0, u1, v0), (x1, y1, u1, v1), (x0, y1, u0, v1))
    for k, (cx, cy, cu, cv) in enumerate(corners):
        out[:, k, 0:1], out[:, k, 1:2], out[:, k, 2:3], out[:, k, 3:4] = cx, cy, cu, cv
    out[:, :, 4:8] = colour if len(colour) == 4 else (*colour, 1.0)
    return out.reshape(-1, UI_FLOATS)


def rect_vertices(x: float, y: float, width: float, height: float, colour, uv=None) -> np.ndarray:
    """A rectangle: solid, or textured with uv = (u0, v0, u1, v1)."""
    u = (*_SOLID_UV, *_SOLID_UV) if uv is None else tuple(uv)
    return _quads(np.array([(x, y, x + width, y + height, *u)], dtype=np.float32), colour)


class UiLayer:
    """Named rectangles and strings of one font, drawn in one call."""

    def __init__(self, font: Font | None, texture=None) -> None:
        self.font = font
        self.texture = texture  # drawn with this texture's colours (the panel cache) instead of a font
        self.items: dict[str, tuple[tuple, np.ndarray]] = {}
        self.mesh = GpuMesh((2, 2, 4), capacity=1024, dynamic=True)
        self.dirty = True
        self.quads = 0
        self.rebuilds = 0  # how many times the buffer was rebuilt (tests, bench)

    def rect(self, key: str, x: float, y: float, width: float, height: float, colour, uv=None) -> None:
        spec = ("r", x, y, width, height, tuple(colour), uv)
        old = self.items.get(key)
        if old is not None and old[0] == spec:
            return
        self.items[key] = (spec, rect_vertices(x, y, max(width, 0.0), height, colour, uv))
        self.dirty = True

    def text(self, key: str, text: str, x: float, y: float, colour, align: str = "left") -> float:
        """Place `text` with its baseline at y; align "left", "right" or "centre" on x. Returns
        its width in pixels."""
        assert self.font is not None, "this layer has no font"
        spec = ("t", text, x, y, tuple(colour), align)
        old = self.items.get(key)
        if old is not None and old[0] == spec:
            return self.font.width(text)
        width = self.font.width(text)
        if align == "right":
            x -= width
        elif align == "centre":
            x -= width / 2.0
        self.items[key] = (spec, self.font.quads(text, x, y, colour))
        self.dirty = True
        return width

    def remove(self, key: str) -> None:
        if self.items.pop(key, None) is not None:
            self.dirty = True

    def remove_prefix(self, prefix: str) -> None:
        for key in [k for k in self.items if k.startswith(prefix)]:
            del self.items[key]
            self.dirty = True

    def clear(self) -> None:
        if self.items:
            self.items.clear()
            self.dirty = True

    def draw(self, program) -> None:
        if self.dirty:
            arrays = [v for _, v in self.items.values() if len(v)]
            data = np.concatenate(arrays) if arrays else np.zeros((0, UI_FLOATS), dtype=np.float32)
            self.mesh.upload(data)
            quads = len(data) // 4
            if 6 * quads > self.mesh.index_count:  # (0 1 2, 0 2 3) per quad, grown by doubling
                capacity = max(256, 2 * quads)
                base = 4 * np.arange(capacity, dtype=np.uint32)[:, None]
                self.mesh.upload_indices((base + np.array((0, 1, 2, 0, 2, 3), dtype=np.uint32)).ravel())
            self.quads = quads
            self.dirty = False
            self.rebuilds += 1
        if self.quads == 0:
            return
        texture = self.texture if self.texture is not None else (self.font.texture if self.font is not None else None)
        if texture is not None:
            gl.glActiveTexture(gl.GL_TEXTURE0)
            gl.glBindTexture(texture.target, texture.id)
        self.mesh.draw(gl.GL_TRIANGLES, count=6 * self.quads)

    def delete(self) -> None:
        self.mesh.delete()
