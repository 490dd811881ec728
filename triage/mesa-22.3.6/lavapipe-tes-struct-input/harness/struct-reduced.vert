#version 400 core
struct S { vec3 a; float b; vec4 c; };
out VertexData { flat S s; } v_out;
void main()
{
    v_out.s = S(vec3(1.0, 2.0, 3.0), 4.0, vec4(5.0, 6.0, 7.0, 8.0));
    gl_Position = vec4(float(gl_VertexID), 0.0, 0.0, 1.0);
}
