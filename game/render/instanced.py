"""Many copies of one mesh in one draw call: the drones' bodies, propellers, shadows and map
arrows, however many drones there are.

`InstancedMesh(builder)` uploads a mesh once (indexed, as `frame.static_mesh`); `draw(program,
models, tints)` writes one row per copy — its 4×4 model matrix and its RGBA tint — into an
instance buffer and issues one `glDrawElementsInstanced`. `FleetProgram` is the shader that
reads them (shaders/lit.vert.glsl and lit.frag.glsl compiled with INSTANCED: the model matrix
and the tint per instance); `FleetProgram.match(lit)` gives it the frame's
camera, sun and fog from the lit program. (pyglet's own instancing draws nothing in pyglet 2.1;
these are plain GL 3.3 calls.)
"""

from __future__ import annotations

import ctypes

import numpy as np
from pyglet import gl

from game.render.frame import LAYOUT, LitProgram, Program
from game.render.mesh import MeshBuilder

INSTANCE_FLOATS = 20  # a column-major 4×4 model matrix, then an RGBA tint
MODEL_LOCATION = 3  # attribute locations 3–6: the matrix's columns; 7: the tint
TINT_LOCATION = 7


class FleetProgram(Program):
    """The instanced lit program (see the module docstring)."""

    def __init__(self) -> None:
        super().__init__("lit", defines=("INSTANCED",))

    def match(self, lit: LitProgram) -> None:
        """The camera, sun, sky and fog `lit` was given this frame (`LitProgram.light`)."""
        for name, value in lit.scene.items():
            self[name] = value

    def material(self, unlit: float, two_sided: float = 0.0) -> None:
        self["u_unlit"] = unlit
        self["u_two_sided"] = two_sided


def instance_rows(models: np.ndarray, tints: np.ndarray) -> np.ndarray:
    """(k, INSTANCE_FLOATS) float32 rows from (k, 4, 4) row-major model matrices (acting on
    column vectors, as game/render/transforms.py) and (k, 4) tints: each matrix's columns in
    order, as a GLSL `mat4` attribute reads them."""
    rows = np.empty((len(models), INSTANCE_FLOATS), np.float32)
    rows[:, :16] = np.asarray(models).transpose(0, 2, 1).reshape(-1, 16)
    rows[:, 16:] = tints
    return rows


class InstancedMesh:
    """One mesh (a `MeshBuilder`, uploaded once, indexed) and its instance buffer."""

    def __init__(self, builder: MeshBuilder) -> None:
        vertices, indices = builder.indexed()
        self.index_count = len(indices)
        self.capacity = 0
        vao = gl.GLuint()
        buffers = (gl.GLuint * 3)()
        gl.glGenVertexArrays(1, ctypes.byref(vao))
        gl.glGenBuffers(3, buffers)
        self.vao = vao
        self.vbo, self.ibo, self.instances = (gl.GLuint(buffers[i]) for i in range(3))
        gl.glBindVertexArray(vao)
        gl.glBindBuffer(gl.GL_ARRAY_BUFFER, self.vbo)
        data = np.ascontiguousarray(vertices, dtype=np.float32)
        gl.glBufferData(gl.GL_ARRAY_BUFFER, max(data.nbytes, 4), data.ctypes.data, gl.GL_STATIC_DRAW)
        stride, offset = sum(LAYOUT) * 4, 0
        for location, size in enumerate(LAYOUT):
            gl.glEnableVertexAttribArray(location)
            gl.glVertexAttribPointer(location, size, gl.GL_FLOAT, gl.GL_FALSE, stride, ctypes.c_void_p(offset))
            offset += size * 4
        gl.glBindBuffer(gl.GL_ELEMENT_ARRAY_BUFFER, self.ibo)
        index_data = np.ascontiguousarray(indices, dtype=np.uint32)
        gl.glBufferData(gl.GL_ELEMENT_ARRAY_BUFFER, max(index_data.nbytes, 4), index_data.ctypes.data,
                        gl.GL_STATIC_DRAW)
        gl.glBindBuffer(gl.GL_ARRAY_BUFFER, self.instances)
        stride = INSTANCE_FLOATS * 4
        for i in range(5):  # four matrix columns, then the tint
            location = MODEL_LOCATION + i
            gl.glEnableVertexAttribArray(location)
            gl.glVertexAttribPointer(location, 4, gl.GL_FLOAT, gl.GL_FALSE, stride, ctypes.c_void_p(16 * i))
            gl.glVertexAttribDivisor(location, 1)
        gl.glBindVertexArray(0)
        gl.glBindBuffer(gl.GL_ARRAY_BUFFER, 0)

    def draw(self, rows: np.ndarray) -> None:
        """One copy per row of `instance_rows`; nothing when there is none."""
        count = len(rows)
        if not count or not self.index_count:
            return
        data = np.ascontiguousarray(rows, dtype=np.float32)
        gl.glBindBuffer(gl.GL_ARRAY_BUFFER, self.instances)
        if count > self.capacity:
            self.capacity = max(count, 2 * self.capacity, 16)
        # fresh storage each time (orphaned): the frame still rasterising keeps the old one
        gl.glBufferData(gl.GL_ARRAY_BUFFER, self.capacity * INSTANCE_FLOATS * 4, None, gl.GL_STREAM_DRAW)
        gl.glBufferSubData(gl.GL_ARRAY_BUFFER, 0, data.nbytes, data.ctypes.data)
        gl.glBindVertexArray(self.vao)
        gl.glDrawElementsInstanced(gl.GL_TRIANGLES, self.index_count, gl.GL_UNSIGNED_INT, None, count)

    def delete(self) -> None:
        if self.vao is not None:
            for buffer in (self.vbo, self.ibo, self.instances):
                gl.glDeleteBuffers(1, ctypes.byref(buffer))
            gl.glDeleteVertexArrays(1, ctypes.byref(self.vao))
            self.vao = None
