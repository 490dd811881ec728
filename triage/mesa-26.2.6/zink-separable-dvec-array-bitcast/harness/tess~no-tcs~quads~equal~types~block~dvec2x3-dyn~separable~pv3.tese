#version 410 core
// No TCS: the inputs come straight from the vertex shader. Every TES invocation reduces each
// component over the patch to a sum and a vertex-weighted sum (which also catches vertices
// out of order); doubles to the whole part and the fraction of the sum, so that a value cut
// down to single precision shows.
layout(quads, equal_spacing) in;

in VertexData {
    dvec2 a[3];
} v_in[];
// A separable program redeclares the built-ins it writes (GLSL 4.50, 7.1.1).
out gl_PerVertex { vec4 gl_Position; };

out int x_patch;
out int x_patch_vertices;
out vec2 x_d0;
out vec2 x_d1;
out vec2 x_d2;
out vec2 x_d3;
out vec2 x_d4;
out vec2 x_d5;

void main()
{
    double ds[6];
    for (int k = 0; k < 6; k++)
        ds[k] = 0.0LF;
    for (int i = 0; i < gl_PatchVerticesIn; i++) {
        for (int j = 0; j < 3; j++) {
            ds[0 + j * 2 + 0] += v_in[i].a[j].x;
            ds[0 + j * 2 + 1] += v_in[i].a[j].y;
        }
    }
    x_patch = gl_PrimitiveID;
    x_patch_vertices = gl_PatchVerticesIn;
    x_d0 = vec2(float(floor(ds[0] + 0.5LF)), float((ds[0] - floor(ds[0] + 0.5LF)) * 4294967296.0LF));
    x_d1 = vec2(float(floor(ds[1] + 0.5LF)), float((ds[1] - floor(ds[1] + 0.5LF)) * 4294967296.0LF));
    x_d2 = vec2(float(floor(ds[2] + 0.5LF)), float((ds[2] - floor(ds[2] + 0.5LF)) * 4294967296.0LF));
    x_d3 = vec2(float(floor(ds[3] + 0.5LF)), float((ds[3] - floor(ds[3] + 0.5LF)) * 4294967296.0LF));
    x_d4 = vec2(float(floor(ds[4] + 0.5LF)), float((ds[4] - floor(ds[4] + 0.5LF)) * 4294967296.0LF));
    x_d5 = vec2(float(floor(ds[5] + 0.5LF)), float((ds[5] - floor(ds[5] + 0.5LF)) * 4294967296.0LF));
    gl_Position = vec4(gl_TessCoord, 1.0);
}
