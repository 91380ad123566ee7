#version 330 core
in vec2 v_uv;
in vec4 v_colour;

uniform sampler2D u_glyphs;  // the font atlas: coverage in alpha

out vec4 frag_colour;

void main() {
    // solid quads carry uv (-1, -1): clamp-to-edge would read a border texel, so they take
    // full coverage instead (a step, not a branch)
    vec4 texel = texture(u_glyphs, max(v_uv, vec2(0.0)));
    float solid = step(v_uv.x, -0.5);
    float coverage = mix(texel.a, 1.0, solid);
    frag_colour = vec4(v_colour.rgb, v_colour.a * coverage);
}
