#version 400 core
// r: the flat id; g: gl_PrimitiveID; b: the id carried by the typed flat varying (or -1 - c
// where its component c is not id * 8 + c); a: 1.

flat in int g_id;
out vec4 color;

void main()
{
    float typed = -1.0;
    color = vec4(float(g_id), float(gl_PrimitiveID), typed, 1.0);
}
