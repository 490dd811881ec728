#version 400 core
// A real TCS: copies its input patch (adding 1000 to each vertex number, so the TES can tell
// this path from the TCS-less one) and writes the levels.
layout(vertices = {{ out_vertices }}) out;

in VertexData {
    int vertex;
} v_in[];

out VertexData {
    int vertex;
} v_out[];

void main()
{
    int from = gl_InvocationID % gl_PatchVerticesIn;
    v_out[gl_InvocationID].vertex = v_in[from].vertex + 1000;
    gl_out[gl_InvocationID].gl_Position = gl_in[from].gl_Position;
{% if all_invocations %}
    // Every invocation writes the same levels (allowed: the values agree).
{% else %}
    if (gl_InvocationID == 0) {
{% endif %}
        gl_TessLevelOuter[0] = {{ outer[0] }};
        gl_TessLevelOuter[1] = {{ outer[1] }};
        gl_TessLevelOuter[2] = {{ outer[2] }};
        gl_TessLevelOuter[3] = {{ outer[3] }};
        gl_TessLevelInner[0] = {{ inner[0] }};
        gl_TessLevelInner[1] = {{ inner[1] }};
{% if not all_invocations %}
    }
{% endif %}
}
