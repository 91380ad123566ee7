"""Thin OpenGL 3.3 core helpers over pyglet: shader programs and vertex buffers.

`GpuMesh` is one vertex array object with one interleaved buffer, uploaded from a numpy
array in one call (static geometry once; dynamic geometry — the trail, the HUD — only when
it changes). Drawing binds it and issues one `glDrawArrays`. The renderer sets every uniform
a draw depends on (the model matrix above all) right before that draw, so nothing leaks from
one draw to the next.
"""

from __future__ import annotations

import ctypes
from pathlib import Path

import numpy as np
import pyglet
from pyglet import gl
from pyglet.graphics.shader import Shader, ShaderProgram

from game.atomic import atomic_path

SHADER_DIR = Path(__file__).resolve().parent / "shaders"


def load_program(name: str, fragment: str | None = None, defines: tuple[str, ...] = ()) -> ShaderProgram:
    """Compile and link `shaders/NAME.vert.glsl` and `shaders/NAME.frag.glsl` (the `.glsl`
    ending is what the package data ships); `fragment`: another program's fragment shader;
    `defines`: names `#define`d in both, for a variant of one shader (`#ifdef NAME`)."""
    vert = _with_defines((SHADER_DIR / f"{name}.vert.glsl").read_text(encoding="utf-8"), defines)
    frag = _with_defines((SHADER_DIR / f"{fragment or name}.frag.glsl").read_text(encoding="utf-8"), defines)
    return ShaderProgram(Shader(vert, "vertex"), Shader(frag, "fragment"))


def _with_defines(source: str, defines: tuple[str, ...]) -> str:
    """`source` with a `#define` per name right after its `#version` line (GLSL wants that first)."""
    if not defines:
        return source
    version, _, rest = source.partition("\n")
    return "\n".join([version, *(f"#define {name}" for name in defines), rest])


class GpuMesh:
    """A VAO + one interleaved float32 VBO.

    Args:
        layout: floats per attribute, in attribute-location order (e.g. (3, 3, 4)).
        capacity: vertices to reserve for a dynamic mesh (0: sized by the first upload).
        dynamic: the buffer will be rewritten (GL_DYNAMIC_DRAW).
    """

    def __init__(self, layout: tuple[int, ...], capacity: int = 0, dynamic: bool = False) -> None:
        self.layout = layout
        self.stride_floats = sum(layout)
        self.dynamic = dynamic
        self.count = 0
        self.capacity = 0
        self.index_count = 0
        self.ibo = None
        vao, vbo = gl.GLuint(), gl.GLuint()
        gl.glGenVertexArrays(1, ctypes.byref(vao))
        gl.glGenBuffers(1, ctypes.byref(vbo))
        self.vao, self.vbo = vao, vbo
        gl.glBindVertexArray(vao)
        gl.glBindBuffer(gl.GL_ARRAY_BUFFER, vbo)
        stride = self.stride_floats * 4
        offset = 0
        for location, size in enumerate(layout):
            gl.glEnableVertexAttribArray(location)
            gl.glVertexAttribPointer(location, size, gl.GL_FLOAT, gl.GL_FALSE, stride, ctypes.c_void_p(offset))
            offset += size * 4
        gl.glBindVertexArray(0)
        if capacity:
            self._allocate(capacity)

    def _allocate(self, vertices: int) -> None:
        gl.glBindBuffer(gl.GL_ARRAY_BUFFER, self.vbo)
        gl.glBufferData(gl.GL_ARRAY_BUFFER, max(vertices, 1) * self.stride_floats * 4, None,
                        gl.GL_DYNAMIC_DRAW if self.dynamic else gl.GL_STATIC_DRAW)
        self.capacity = vertices

    def upload(self, data: np.ndarray, count: int | None = None) -> None:
        """Write vertices (an (N, stride) float32 array) from the start of the buffer.

        A dynamic mesh gets fresh storage each time (the old one is "orphaned"): the frame
        still being rasterised keeps reading the old storage, so the write never waits for it.
        """
        data = np.ascontiguousarray(data, dtype=np.float32)
        n = len(data) if count is None else count
        if n > self.capacity:
            self._allocate(n if not self.dynamic else max(n, 2 * self.capacity))
        elif self.dynamic and n:
            self._allocate(self.capacity)
        if n:
            gl.glBindBuffer(gl.GL_ARRAY_BUFFER, self.vbo)
            gl.glBufferSubData(gl.GL_ARRAY_BUFFER, 0, n * self.stride_floats * 4, data.ctypes.data)
        self.count = n

    def upload_indices(self, indices: np.ndarray) -> None:
        """Make this an indexed mesh: triangles by vertex index (uint32), shared vertices
        shaded once."""
        indices = np.ascontiguousarray(indices, dtype=np.uint32)
        if self.ibo is None:
            self.ibo = gl.GLuint()
            gl.glGenBuffers(1, ctypes.byref(self.ibo))
        gl.glBindVertexArray(self.vao)
        gl.glBindBuffer(gl.GL_ELEMENT_ARRAY_BUFFER, self.ibo)
        gl.glBufferData(gl.GL_ELEMENT_ARRAY_BUFFER, max(indices.nbytes, 4), indices.ctypes.data, gl.GL_STATIC_DRAW)
        gl.glBindVertexArray(0)
        self.index_count = len(indices)

    def upload_range(self, data: np.ndarray, first: int) -> None:
        """Rewrite vertices [first, first + len(data)) of an allocated buffer."""
        data = np.ascontiguousarray(data, dtype=np.float32)
        if len(data):
            gl.glBindBuffer(gl.GL_ARRAY_BUFFER, self.vbo)
            gl.glBufferSubData(gl.GL_ARRAY_BUFFER, first * self.stride_floats * 4, data.nbytes, data.ctypes.data)

    def draw(self, mode: int = gl.GL_TRIANGLES, first: int = 0, count: int | None = None) -> None:
        if self.ibo is not None:
            n = self.index_count if count is None else min(count, self.index_count)
            if n > 0:
                gl.glBindVertexArray(self.vao)
                gl.glDrawElements(mode, n, gl.GL_UNSIGNED_INT, None)
            return
        n = self.count - first if count is None else count
        if n <= 0:
            return
        gl.glBindVertexArray(self.vao)
        gl.glDrawArrays(mode, first, n)

    def delete(self) -> None:
        if self.vao is not None:
            if self.ibo is not None:
                gl.glDeleteBuffers(1, ctypes.byref(self.ibo))
            gl.glDeleteBuffers(1, ctypes.byref(self.vbo))
            gl.glDeleteVertexArrays(1, ctypes.byref(self.vao))
            self.vao = self.vbo = None


def _texture(width: int, height: int) -> gl.GLuint:
    tex = gl.GLuint()
    gl.glGenTextures(1, ctypes.byref(tex))
    gl.glBindTexture(gl.GL_TEXTURE_2D, tex)
    gl.glTexImage2D(gl.GL_TEXTURE_2D, 0, gl.GL_RGBA8, width, height, 0, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, None)
    for name, value in ((gl.GL_TEXTURE_MIN_FILTER, gl.GL_NEAREST), (gl.GL_TEXTURE_MAG_FILTER, gl.GL_NEAREST),
                        (gl.GL_TEXTURE_WRAP_S, gl.GL_CLAMP_TO_EDGE), (gl.GL_TEXTURE_WRAP_T, gl.GL_CLAMP_TO_EDGE)):
        gl.glTexParameteri(gl.GL_TEXTURE_2D, name, value)
    return tex


class RenderTarget:
    """An offscreen colour texture (RGBA8) with its framebuffer: draw into it (`bind`, draw,
    `finish`), then use it as a texture many times.

    `finish` copies the drawing into a second, plain texture, and that one is what is sampled:
    on Mesa's llvmpipe, sampling a texture still attached to a framebuffer flushes and waits
    for all pending rendering at every draw (≈ 1.3 ms a frame here); a plain texture costs
    nothing more than a font atlas."""

    target = gl.GL_TEXTURE_2D

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.drawn_id = _texture(width, height)
        self.texture_id = _texture(width, height)
        fbo = gl.GLuint()
        gl.glGenFramebuffers(1, ctypes.byref(fbo))
        gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, fbo)
        gl.glFramebufferTexture2D(gl.GL_FRAMEBUFFER, gl.GL_COLOR_ATTACHMENT0, gl.GL_TEXTURE_2D, self.drawn_id, 0)
        complete = gl.glCheckFramebufferStatus(gl.GL_FRAMEBUFFER) == gl.GL_FRAMEBUFFER_COMPLETE
        gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, 0)
        self.fbo = fbo
        if not complete:
            self.delete()
            raise RuntimeError("offscreen framebuffer not supported")

    @property
    def id(self) -> int:
        return self.texture_id.value

    def bind(self) -> None:
        gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, self.fbo)
        gl.glViewport(0, 0, self.width, self.height)

    def finish(self) -> None:
        """Copy what was drawn into the sampled texture and draw to the window again."""
        gl.glBindTexture(gl.GL_TEXTURE_2D, self.texture_id)
        gl.glCopyTexSubImage2D(gl.GL_TEXTURE_2D, 0, 0, 0, 0, 0, self.width, self.height)
        gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, 0)

    def delete(self) -> None:
        if self.fbo is not None:
            gl.glDeleteFramebuffers(1, ctypes.byref(self.fbo))
            gl.glDeleteTextures(1, ctypes.byref(self.texture_id))
            gl.glDeleteTextures(1, ctypes.byref(self.drawn_id))
            self.fbo = None


def read_pixels(x: int, y: int, width: int, height: int) -> np.ndarray:
    """The colour buffer's RGBA bytes in a (height, width, 4) array, first row at the top."""
    gl.glFinish()
    buf = (gl.GLubyte * (width * height * 4))()
    gl.glPixelStorei(gl.GL_PACK_ALIGNMENT, 1)
    gl.glReadPixels(x, y, width, height, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, buf)
    return np.frombuffer(buf, dtype=np.uint8).reshape(height, width, 4)[::-1].copy()


def save_png(pixels: np.ndarray, path: str | Path) -> None:
    """Write an RGBA (height, width, 4) array, top row first, as a PNG (atomically)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    height, width = pixels.shape[:2]
    image = pyglet.image.ImageData(width, height, "RGBA", np.ascontiguousarray(pixels[::-1]).tobytes())
    with atomic_path(path) as tmp, open(tmp, "wb") as fh:
        image.save(str(path), file=fh)  # the name only chooses the encoder
