#version 330 core
// Every 3D thing: position (m), normal, colour; placed by its own model matrix.
//
// Lighting and fog are computed here, per vertex, and the fragment shader only writes the
// interpolated colour: on a software renderer (Mesa llvmpipe) the per-pixel cost is what
// limits the frame rate, and for flat-shaded faces under a directional sun, per-vertex
// lighting is exact. Large flat areas (the ground) are subdivided so the fog stays smooth.
//
// Compiled with INSTANCED defined (game/render/instanced.py), it draws many copies of one mesh
// in one call: each copy's model matrix and tint come from its instance attributes instead of
// the u_model and u_tint uniforms.
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec4 a_colour;
#ifdef INSTANCED
// one per instance: the model matrix's four columns (four vec4s: pyglet 2.1 does not read a
// mat4 attribute back), then the tint
layout(location = 3) in vec4 a_model_0;
layout(location = 4) in vec4 a_model_1;
layout(location = 5) in vec4 a_model_2;
layout(location = 6) in vec4 a_model_3;
layout(location = 7) in vec4 a_tint;
#else
uniform mat4 u_model;          // rigid: rotation + translation (+ uniform scale for markers)
uniform vec4 u_tint;           // multiplies the vertex colour (alpha for fading parts)
#endif

uniform mat4 u_view_proj;
uniform float u_unlit;         // 1: no lighting (lines, shadows, markers, the sky)
uniform float u_two_sided;     // 1: thin parts (blades, discs) lit from either side
uniform vec3 u_sun_dir;        // unit, towards the sun, world
uniform vec3 u_sun_colour;     // already scaled by the sun's intensity
uniform float u_ambient;       // fraction of light from the sky
uniform vec3 u_sky_colour;
uniform vec3 u_eye;            // m, world
uniform vec3 u_fog_colour;
uniform vec2 u_fog_range;      // m: fog starts, fog complete

out vec4 v_colour;

void main() {
#ifdef INSTANCED
    mat4 model = mat4(a_model_0, a_model_1, a_model_2, a_model_3);
    vec4 tint = a_tint;
#else
    mat4 model = u_model;
    vec4 tint = u_tint;
#endif
    vec4 world = model * vec4(a_position, 1.0);
    vec3 n = normalize(mat3(model) * a_normal);
    vec4 base = a_colour * tint;
    float facing = dot(n, u_sun_dir);
    float sun = (u_two_sided > 0.5) ? abs(facing) : max(facing, 0.0);
    // sky light from above, warm bounce from below, never black in the shade
    vec3 sky = mix(vec3(0.62, 0.58, 0.52), mix(vec3(1.0), u_sky_colour, 0.35), 0.5 + 0.5 * n.z);
    vec3 light = (0.3 + u_ambient) * sky + (1.0 - u_ambient) * sun * u_sun_colour;
    vec3 colour = mix(base.rgb * light, base.rgb, u_unlit);
    float fog = clamp((distance(world.xyz, u_eye) - u_fog_range.x) / max(u_fog_range.y - u_fog_range.x, 1.0),
                      0.0, 1.0);
    v_colour = vec4(mix(colour, u_fog_colour, fog), base.a);
    gl_Position = u_view_proj * world;
}
