#version 330 core
// The panel cache is a framebuffer-sized texture holding the panels where they are on the
// screen, so each pixel copies its own texel: a fetch at the fragment's coordinates, with no
// interpolated texture coordinates and no filtering for the software renderer to compute.
uniform sampler2D u_panels;

out vec4 frag_colour;

void main() {
    frag_colour = texelFetch(u_panels, ivec2(gl_FragCoord.xy), 0);
}
