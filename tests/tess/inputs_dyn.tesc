#version 400 core
{% import "values.glsl" as values %}
// Writes a per-vertex array of {{ per_vertex }} {{ type }} and a per-patch array of {{ per_patch }}; the TES
// reads both at indices it computes from gl_PrimitiveID. Each invocation writes its own
// vertex's elements and every {{ out_vertices }}th per-patch element.
layout(vertices = {{ out_vertices }}) out;

out Arrays {
    {{ type }} m[{{ per_vertex }}];
} t_out[];
patch out {{ type }} p_m[{{ per_patch }}];

void main()
{
    int id = gl_InvocationID;
    gl_out[gl_InvocationID].gl_Position = gl_in[id % gl_PatchVerticesIn].gl_Position;
    for (int k = 0; k < {{ per_vertex }}; k++)
        t_out[gl_InvocationID].m[k] = {{ type }}({% for c in range(width) %}{{ values.indexed_vertex_value("gl_PrimitiveID", "id", "k", c) }}{{ ", " if not loop.last }}{% endfor %});
    for (int j = id; j < {{ per_patch }}; j += {{ out_vertices }})
        p_m[j] = {{ type }}({% for c in range(width) %}{{ values.indexed_patch_value("gl_PrimitiveID", "j", c) }}{{ ", " if not loop.last }}{% endfor %});
    if (id == 0) {
        gl_TessLevelOuter[0] = {{ outer[0] }};
        gl_TessLevelOuter[1] = {{ outer[1] }};
        gl_TessLevelOuter[2] = {{ outer[2] }};
        gl_TessLevelOuter[3] = {{ outer[3] }};
        gl_TessLevelInner[0] = {{ inner[0] }};
        gl_TessLevelInner[1] = {{ inner[1] }};
    }
}
