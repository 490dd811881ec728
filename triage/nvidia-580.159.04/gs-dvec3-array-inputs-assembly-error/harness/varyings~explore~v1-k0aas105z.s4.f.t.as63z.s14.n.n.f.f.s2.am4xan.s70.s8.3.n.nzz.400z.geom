#version 400 compatibility
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;

in V {
    flat dvec3 u0[3];
    flat dvec3 u1[3];
    flat dvec3 u2[3];
    flat dvec3 u3[3];
} v_in[];
flat out dvec3 u0[3];
flat out dvec3 u1[3];
flat out dvec3 u2[3];
flat out dvec3 u3[3];

void main()
{
    for (int i = 0; i < 3; i++) {
        gl_Position = gl_in[i].gl_Position;
        u0 = v_in[i].u0;
        u1 = v_in[i].u1;
        u2 = v_in[i].u2;
        u3 = v_in[i].u3;
        gl_TexCoord[6] = gl_in[i].gl_TexCoord[6];
        gl_ClipDistance[0] = gl_in[i].gl_ClipDistance[0];
        gl_ClipDistance[1] = gl_in[i].gl_ClipDistance[1];
        EmitVertex();
    }
}
