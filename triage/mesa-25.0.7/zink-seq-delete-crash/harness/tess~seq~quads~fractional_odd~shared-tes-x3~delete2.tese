#version 400 core
// One transform-feedback record per TES invocation: where the vertex is, the levels the
// patch was tessellated with, and which vertices formed the patch.
layout(quads, fractional_odd_spacing, ccw) in;

in VertexData {
    int vertex;
} v_in[];

out int x_patch;
out vec3 x_coord;
out vec4 x_outer;
out vec2 x_inner;
out ivec3 x_vertices;       // (patch size, sum of v_in[].vertex, v_in[0].vertex)

void main()
{
    x_patch = gl_PrimitiveID;
    x_coord = gl_TessCoord;
    x_outer = vec4(gl_TessLevelOuter[0], gl_TessLevelOuter[1],
                   gl_TessLevelOuter[2], gl_TessLevelOuter[3]);
    x_inner = vec2(gl_TessLevelInner[0], gl_TessLevelInner[1]);
    int sum = 0;
    for (int i = 0; i < gl_PatchVerticesIn; i++)
        sum += v_in[i].vertex;
    x_vertices = ivec3(gl_PatchVerticesIn, sum, v_in[0].vertex);
    gl_Position = vec4(gl_TessCoord, 1.0);
}
