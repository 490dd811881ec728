#version 400 core
// Output patch of 1 from input patches of any size. Each invocation reads the
// whole input patch and writes only its own output vertex.
layout(vertices = 1) out;

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
    t_out[gl_InvocationID].neighbours = vec4(0.0);
    if (id == 0) {
        p_tcs = ivec4(gl_PrimitiveID, gl_PatchVerticesIn, v_in[0].vertex, v_in[0].instance);
        gl_TessLevelOuter[0] = 2.0;
        gl_TessLevelOuter[1] = 3.0;
        gl_TessLevelOuter[2] = 2.0;
        gl_TessLevelOuter[3] = 3.0;
        gl_TessLevelInner[0] = 2.0;
        gl_TessLevelInner[1] = 3.0;
    }
}
