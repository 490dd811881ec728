#version 400 core
{% import "values.glsl" as values %}
// Per-patch outputs and large per-vertex output arrays: written by some
// invocations, each writing its own output vertex before barrier() and reading
// its neighbour's after it.
layout(vertices = {{ out_vertices }}) out;

in VertexData {
    int vertex;
} v_in[];

out Large {
    vec4 a[{{ per_vertex }}];
    vec4 b;
} t_out[];
patch out vec4 p_a[{{ per_patch }}];

void main()
{
    int id = gl_InvocationID;
    gl_out[gl_InvocationID].gl_Position = gl_in[id % gl_PatchVerticesIn].gl_Position;
    for (int k = 0; k < {{ per_vertex }}; k++)
        t_out[gl_InvocationID].a[k] = vec4({% for c in range(4) %}{{ values.large_vertex_value("gl_PrimitiveID", "id", "k", c) }}{{ ", " if not loop.last }}{% endfor %});
    for (int j = id; j < {{ per_patch }}; j += {{ out_vertices }})
        p_a[j] = vec4({% for c in range(4) %}{{ values.large_patch_value("gl_PrimitiveID", "j", c) }}{{ ", " if not loop.last }}{% endfor %});
    barrier();
    vec4 acc = vec4(0.0);
    for (int k = 0; k < {{ per_vertex }}; k++)
        acc += t_out[(id + 1) % {{ out_vertices }}].a[k] * float(k + 1);
    t_out[gl_InvocationID].b = acc;
    if (id == 0) {
        gl_TessLevelOuter[0] = {{ outer[0] }};
        gl_TessLevelOuter[1] = {{ outer[1] }};
        gl_TessLevelOuter[2] = {{ outer[2] }};
        gl_TessLevelOuter[3] = {{ outer[3] }};
        gl_TessLevelInner[0] = {{ inner[0] }};
        gl_TessLevelInner[1] = {{ inner[1] }};
    }
}
