#version 330 core
// Four bytes of one plane of an I420 picture per fragment (an RGBA8 target is packed four
// bytes to a pixel, the fast path of a software rasteriser), from the RGB picture u_rgb:
// byte k of the fragment is offset + weights · RGB of u_rgb at
// (4·x + k) · u_scale.x + u_bias.x, y · u_scale.y + u_bias.y (x, y: gl_FragCoord, in the
// target's bytes and rows; the source point in u_rgb's pixels). The Y plane samples a texel's
// centre; the U and V planes sample a 2×2 block's shared corner, where linear filtering gives
// the mean of the four. front_camera.py's `I420` chooses the rectangles and the mapping.
uniform sampler2D u_rgb;
uniform vec2 u_size;     // u_rgb's width and height, pixels
uniform vec2 u_scale;
uniform vec2 u_bias;
uniform vec3 u_weights;  // BT.601 limited range, per unit of R, G, B
uniform float u_offset;  // 16 (Y) or 128 (U, V)

out vec4 o_bytes;

float byte_at(float x, float y) {
    vec2 source = vec2(x * u_scale.x + u_bias.x, y * u_scale.y + u_bias.y);
    return floor(u_offset + dot(u_weights, texture(u_rgb, source / u_size).rgb) + 0.5) / 255.0;
}

void main() {
    float x = 4.0 * (gl_FragCoord.x - 0.5) + 0.5;  // the first byte's centre, in target bytes
    float y = gl_FragCoord.y;
    o_bytes = vec4(byte_at(x, y), byte_at(x + 1.0, y), byte_at(x + 2.0, y), byte_at(x + 3.0, y));
}
