#version 410 core
// Each vertex writes every component of every carried output as a value unique to that
// vertex and component (the generator computes the same values in Python).
out VertexData {
    dvec2 a[3];
} v_out;
// A separable program redeclares the built-ins it writes (GLSL 4.50, 7.1.1).
out gl_PerVertex { vec4 gl_Position; };

void main()
{
    for (int j = 0; j < 3; j++) {
        v_out.a[j].x = double(gl_VertexID * 64 + 0 + j * 2 + 0 + 1) + double(0 + j * 2 + 0 + 1) * 2.3283064365386963e-10LF;
        v_out.a[j].y = double(gl_VertexID * 64 + 0 + j * 2 + 1 + 1) + double(0 + j * 2 + 1 + 1) * 2.3283064365386963e-10LF;
    }
    gl_Position = vec4(float(gl_VertexID), 0.0, 0.0, 1.0);
}
