#version 400 core
// Per-patch outputs and large per-vertex output arrays: written by some
// invocations, each writing its own output vertex before barrier() and reading
// its neighbour's after it.
layout(vertices = 3) out;

in VertexData {
    int vertex;
} v_in[];

out Large {
    vec4 a[1];
    vec4 b;
} t_out[];
patch out vec4 p_a[1];

void main()
{
    int id = gl_InvocationID;
    gl_out[gl_InvocationID].gl_Position = gl_in[id % gl_PatchVerticesIn].gl_Position;
    for (int k = 0; k < 1; k++)
        t_out[gl_InvocationID].a[k] = vec4(float((gl_PrimitiveID * 7 + id * 3 + k * 5 + 0) % 29 + 1), float((gl_PrimitiveID * 7 + id * 3 + k * 5 + 1) % 29 + 1), float((gl_PrimitiveID * 7 + id * 3 + k * 5 + 2) % 29 + 1), float((gl_PrimitiveID * 7 + id * 3 + k * 5 + 3) % 29 + 1));
    for (int j = id; j < 1; j += 3)
        p_a[j] = vec4(float((gl_PrimitiveID * 11 + j * 13 + 0) % 53 + 1), float((gl_PrimitiveID * 11 + j * 13 + 1) % 53 + 1), float((gl_PrimitiveID * 11 + j * 13 + 2) % 53 + 1), float((gl_PrimitiveID * 11 + j * 13 + 3) % 53 + 1));
    barrier();
    vec4 acc = vec4(0.0);
    for (int k = 0; k < 1; k++)
        acc += t_out[(id + 1) % 3].a[k] * float(k + 1);
    t_out[gl_InvocationID].b = acc;
    if (id == 0) {
        gl_TessLevelOuter[0] = 2.0;
        gl_TessLevelOuter[1] = 3.0;
        gl_TessLevelOuter[2] = 2.0;
        gl_TessLevelOuter[3] = 3.0;
        gl_TessLevelInner[0] = 2.0;
        gl_TessLevelInner[1] = 3.0;
    }
}
