#version 330 core
// The HUD panels' rectangles, in pixels from the bottom-left corner, at the nearest depth:
// drawn first and opaque, they mask the scene behind them (see panels.frag.glsl).
layout(location = 0) in vec2 a_position;

uniform mat4 u_projection;

void main() {
    gl_Position = u_projection * vec4(a_position, -1.0, 1.0);
}
