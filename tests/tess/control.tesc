#version 400 core
// Output patch of {{ out_vertices }} from input patches of any size. Each invocation reads the
// whole input patch and writes only its own output vertex{% if barrier %}; after barrier() it
// reads what its neighbours wrote before it and writes again{% endif %}.
layout(vertices = {{ out_vertices }}) out;

in VertexData {
    vec4 attr;
    int vertex;
    int instance;
} v_in[];

out ControlData {
    vec4 attr;
    int invocation;
    ivec2 inputs;           // (sum, vertex-weighted sum) of the input vertex numbers
    vec4 neighbours;
} t_out[];

patch out ivec4 p_tcs;      // (gl_PrimitiveID, gl_PatchVerticesIn, v_in[0].vertex, v_in[0].instance)

void main()
{
    int id = gl_InvocationID;
    int sum = 0;
    int weighted = 0;
    for (int i = 0; i < gl_PatchVerticesIn; i++) {
        sum += v_in[i].vertex;
        weighted += (i + 1) * v_in[i].vertex;
    }
    t_out[gl_InvocationID].attr = v_in[id % gl_PatchVerticesIn].attr + vec4(float(id) * 1024.0);
    t_out[gl_InvocationID].invocation = id;
    t_out[gl_InvocationID].inputs = ivec2(sum, weighted);
    gl_out[gl_InvocationID].gl_Position = gl_in[id % gl_PatchVerticesIn].gl_Position;
{% if barrier %}
    barrier();
    int next = (id + 1) % {{ out_vertices }};
    int previous = (id + {{ out_vertices }} - 1) % {{ out_vertices }};
    t_out[gl_InvocationID].neighbours = vec4(t_out[next].attr.x, t_out[previous].attr.y,
                                float(t_out[next].invocation), float(t_out[previous].inputs.y));
{% else %}
    t_out[gl_InvocationID].neighbours = vec4(0.0);
{% endif %}
    if (id == 0) {
        p_tcs = ivec4(gl_PrimitiveID, gl_PatchVerticesIn, v_in[0].vertex, v_in[0].instance);
        gl_TessLevelOuter[0] = {{ outer[0] }};
        gl_TessLevelOuter[1] = {{ outer[1] }};
        gl_TessLevelOuter[2] = {{ outer[2] }};
        gl_TessLevelOuter[3] = {{ outer[3] }};
        gl_TessLevelInner[0] = {{ inner[0] }};
        gl_TessLevelInner[1] = {{ inner[1] }};
    }
}
