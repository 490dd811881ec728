#version 400 core
// Writes the tessellation levels at indices the compiler cannot know: {% if how == "invocation" %}each of
// the {{ out_vertices }} invocations writes gl_TessLevelOuter[(gl_InvocationID + gl_PrimitiveID) % 4], the first two
// gl_TessLevelInner[(gl_InvocationID + gl_PrimitiveID) % 2]{% else %}invocation 0 writes every level in
// a loop, at index (i + gl_PrimitiveID) % 4 (inner: % 2){% endif %}. Each level is written once.
// The patch is copied as coords.tesc copies it (vertex numbers + 1000).
layout(vertices = {{ out_vertices }}) out;

in VertexData {
    int vertex;
} v_in[];

out VertexData {
    int vertex;
} v_out[];

const float OUTER[4] = float[4]({{ outer | join(", ") }});
const float INNER[2] = float[2]({{ inner | join(", ") }});

void main()
{
    int from = gl_InvocationID % gl_PatchVerticesIn;
    v_out[gl_InvocationID].vertex = v_in[from].vertex + 1000;
    gl_out[gl_InvocationID].gl_Position = gl_in[from].gl_Position;
    int turn = gl_PrimitiveID;
{% if how == "invocation" %}
    int i = gl_InvocationID;
    if (i < 4)
        gl_TessLevelOuter[(i + turn) % 4] = OUTER[i];
    if (i < 2)
        gl_TessLevelInner[(i + turn) % 2] = INNER[i];
{% else %}
    if (gl_InvocationID == 0) {
        for (int i = 0; i < 4; i++)
            gl_TessLevelOuter[(i + turn) % 4] = OUTER[i];
        for (int i = 0; i < 2; i++)
            gl_TessLevelInner[(i + turn) % 2] = INNER[i];
    }
{% endif %}
}
