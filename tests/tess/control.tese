#version 400 core
// Reports, per TES invocation, gl_PrimitiveID and what {% if tcs %}the TCS{% else %}the VS (no TCS){% endif %} handed on{% if gs %}, to a geometry shader{% endif %}.
layout({{ domain }}, {{ spacing }}{% if point_mode %}, point_mode{% endif %}) in;

{% if tcs %}
in ControlData {
    vec4 attr;
    int invocation;
    ivec2 inputs;
    vec4 neighbours;
} t_in[];

patch in ivec4 p_tcs;
{% else %}
in VertexData {
    vec4 attr;
    int vertex;
    int instance;
} v_in[];
{% endif %}

{% if gs %}
out TesData {
    flat int key;
    flat int patch_id;
    flat ivec4 tcs;
} to_gs;
{% else %}
out int x_key;              // instance * 100000 + first vertex of the patch
out int x_patch;            // gl_PrimitiveID
out ivec4 x_tcs;
{% if tcs %}
out ivec4 x_outputs;        // (gl_PatchVerticesIn, sum of invocation, weighted sum of invocation, t_in[last].inputs.y)
out vec4 x_attr;            // sum of t_in[].attr
out vec4 x_neighbours;      // sum of t_in[].neighbours
{% endif %}
{% endif %}

void main()
{
{% if tcs %}
    int key = p_tcs.w * 100000 + p_tcs.z;
    ivec4 tcs = p_tcs;
{% else %}
    int key = v_in[0].instance * 100000 + v_in[0].vertex;
    ivec4 tcs = ivec4(-1, gl_PatchVerticesIn, v_in[0].vertex, v_in[0].instance);
{% endif %}
{% if gs %}
    to_gs.key = key;
    to_gs.patch_id = gl_PrimitiveID;
    to_gs.tcs = tcs;
{% else %}
    x_key = key;
    x_patch = gl_PrimitiveID;
    x_tcs = tcs;
{% if tcs %}
    ivec3 invocations = ivec3(0);
    vec4 attr = vec4(0.0);
    vec4 neighbours = vec4(0.0);
    for (int i = 0; i < gl_PatchVerticesIn; i++) {
        invocations += ivec3(0, t_in[i].invocation, (i + 1) * t_in[i].invocation);
        attr += t_in[i].attr;
        neighbours += t_in[i].neighbours;
    }
    x_outputs = ivec4(gl_PatchVerticesIn, invocations.y, invocations.z, t_in[gl_PatchVerticesIn - 1].inputs.y);
    x_attr = attr;
    x_neighbours = neighbours;
{% endif %}
{% endif %}
    gl_Position = vec4(gl_TessCoord, 1.0);
}
