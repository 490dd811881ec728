#version 400 core
// Reports the per-patch inputs and reduces the large per-vertex arrays.
layout({{ domain }}, equal_spacing) in;

in Large {
    vec4 a[{{ per_vertex }}];
    vec4 b;
} t_in[];
patch in vec4 p_a[{{ per_patch }}];

out int x_patch;
out vec4 x_a;
out vec4 x_b;
out vec4 x_bw;
out vec4 x_pa;

void main()
{
    x_patch = gl_PrimitiveID;
    vec4 a = vec4(0.0);
    vec4 b = vec4(0.0);
    vec4 bw = vec4(0.0);
    for (int i = 0; i < gl_PatchVerticesIn; i++) {
        for (int k = 0; k < {{ per_vertex }}; k++) {
            vec4 x = t_in[i].a[k];
            float all = x.x + x.y + x.z + x.w;
            a += vec4(all, float(i + 1) * all, float(k + 1) * all, dot(x, vec4(1.0, 2.0, 3.0, 4.0)));
        }
        b += t_in[i].b;
        bw += float(i + 1) * t_in[i].b;
    }
    vec4 p = vec4(0.0);
    for (int j = 0; j < {{ per_patch }}; j++) {
        vec4 x = p_a[j];
        float all = x.x + x.y + x.z + x.w;
        p += vec4(all, float(j + 1) * all, dot(x, vec4(1.0, 2.0, 3.0, 4.0)), 0.0);
    }
    x_a = a;
    x_b = b;
    x_bw = bw;
    x_pa = p;
    gl_Position = vec4(gl_TessCoord, 1.0);
}
