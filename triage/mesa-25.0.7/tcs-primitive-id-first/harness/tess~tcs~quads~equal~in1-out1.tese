#version 400 core
// Reports, per TES invocation, gl_PrimitiveID and what the TCS handed on.
layout(quads, equal_spacing) in;

in ControlData {
    vec4 attr;
    int invocation;
    ivec2 inputs;
    vec4 neighbours;
} t_in[];

patch in ivec4 p_tcs;

out int x_key;              // instance * 100000 + first vertex of the patch
out int x_patch;            // gl_PrimitiveID
out ivec4 x_tcs;
out ivec4 x_outputs;        // (gl_PatchVerticesIn, sum of invocation, weighted sum of invocation, t_in[last].inputs.y)
out vec4 x_attr;            // sum of t_in[].attr
out vec4 x_neighbours;      // sum of t_in[].neighbours

void main()
{
    int key = p_tcs.w * 100000 + p_tcs.z;
    ivec4 tcs = p_tcs;
    x_key = key;
    x_patch = gl_PrimitiveID;
    x_tcs = tcs;
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
    gl_Position = vec4(gl_TessCoord, 1.0);
}
