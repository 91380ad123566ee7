#version 330 core
// lit.vert.glsl for many copies of one mesh in one draw (instancing): each copy's model
// matrix and tint come from its instance attributes instead of the u_model and u_tint
// uniforms (game/render/instanced.py). Same lighting and fog, per vertex; the fragment
// shader is lit.frag.glsl.
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec4 a_colour;
// one per instance: the model matrix's four columns (four vec4s: pyglet 2.1 does not read a
// mat4 attribute back), then the tint
layout(location = 3) in vec4 a_model_0;
layout(location = 4) in vec4 a_model_1;
layout(location = 5) in vec4 a_model_2;
layout(location = 6) in vec4 a_model_3;
layout(location = 7) in vec4 a_tint;

uniform mat4 u_view_proj;
uniform float u_unlit;
uniform float u_two_sided;
uniform vec3 u_sun_dir;
uniform vec3 u_sun_colour;
uniform float u_ambient;
uniform vec3 u_sky_colour;
uniform vec3 u_eye;
uniform vec3 u_fog_colour;
uniform vec2 u_fog_range;

out vec4 v_colour;

void main() {
    mat4 a_model = mat4(a_model_0, a_model_1, a_model_2, a_model_3);
    vec4 world = a_model * vec4(a_position, 1.0);
    vec3 n = normalize(mat3(a_model) * a_normal);
    vec4 base = a_colour * a_tint;
    float facing = dot(n, u_sun_dir);
    float sun = (u_two_sided > 0.5) ? abs(facing) : max(facing, 0.0);
    vec3 sky = mix(vec3(0.62, 0.58, 0.52), mix(vec3(1.0), u_sky_colour, 0.35), 0.5 + 0.5 * n.z);
    vec3 light = (0.3 + u_ambient) * sky + (1.0 - u_ambient) * sun * u_sun_colour;
    vec3 colour = mix(base.rgb * light, base.rgb, u_unlit);
    float fog = clamp((distance(world.xyz, u_eye) - u_fog_range.x) / max(u_fog_range.y - u_fog_range.x, 1.0),
                      0.0, 1.0);
    v_colour = vec4(mix(colour, u_fog_colour, fog), base.a);
    gl_Position = u_view_proj * world;
}
