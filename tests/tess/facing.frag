#version 400 core
// gl_FrontFacing (1 front, -1 back) and gl_PrimitiveID of the patch that covers the pixel.
out vec4 colour;

void main()
{
    colour = vec4(gl_FrontFacing ? 1.0 : -1.0, float(gl_PrimitiveID), 0.0, 1.0);
}
