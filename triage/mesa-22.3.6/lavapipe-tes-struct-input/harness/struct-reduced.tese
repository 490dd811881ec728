#version 400 core
layout(triangles, equal_spacing) in;
struct S { vec3 a; float b; vec4 c; };
in VertexData { flat S s; } v_in[];
out int x_patch;
out int x_patch_vertices;
out vec4 x_s0;
out vec4 x_w0;
out vec4 x_s1;
out vec4 x_w1;
void main()
{
    x_patch = gl_PrimitiveID;
    x_patch_vertices = gl_PatchVerticesIn;
    float s[7]; float w[7];
    for (int k = 0; k < 7; k++) { s[k] = 0.0; w[k] = 0.0; }
    for (int i = 0; i < gl_PatchVerticesIn; i++) {
        s[0] += float(v_in[i].s.a.x);
        w[0] += float(i + 1) * float(v_in[i].s.a.x);
        s[1] += float(v_in[i].s.a.y);
        w[1] += float(i + 1) * float(v_in[i].s.a.y);
        s[2] += float(v_in[i].s.a.z);
        w[2] += float(i + 1) * float(v_in[i].s.a.z);
        s[3] += float(v_in[i].s.b);
        w[3] += float(i + 1) * float(v_in[i].s.b);
        s[4] += float(v_in[i].s.c.x);
        w[4] += float(i + 1) * float(v_in[i].s.c.x);
        s[5] += float(v_in[i].s.c.y);
        w[5] += float(i + 1) * float(v_in[i].s.c.y);
        s[6] += float(v_in[i].s.c.z);
        w[6] += float(i + 1) * float(v_in[i].s.c.z);
    }
    x_s0 = vec4(s[0], s[1], s[2], s[3]);
    x_w0 = vec4(w[0], w[1], w[2], w[3]);
    x_s1 = vec4(s[4], s[5], s[6], 0.0);
    x_w1 = vec4(w[4], w[5], w[6], 0.0);
    gl_Position = vec4(gl_TessCoord, 1.0);
}
