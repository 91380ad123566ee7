#version 330 core
// The colour was lit and fogged per vertex (see lit.vert.glsl): one interpolated write per pixel.
in vec4 v_colour;

out vec4 frag_colour;

void main() {
    frag_colour = v_colour;
}
