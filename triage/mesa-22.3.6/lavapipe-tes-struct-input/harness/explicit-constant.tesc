#version 400 core
layout(vertices = 1) out;
struct S { vec3 a; float b; vec4 c; };
in VertexData { flat S s; } v_in[];
out VertexData { flat S s; } v_out[];
void main()
{
    gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
    v_out[gl_InvocationID].s = S(vec3(1.0, 2.0, 3.0), 4.0, vec4(5.0, 6.0, 7.0, 8.0));
    gl_TessLevelOuter[0] = 1.0; gl_TessLevelOuter[1] = 1.0; gl_TessLevelOuter[2] = 1.0; gl_TessLevelOuter[3] = 1.0;
    gl_TessLevelInner[0] = 1.0; gl_TessLevelInner[1] = 1.0;
}
