#version 400 core
// A program without tessellation, drawn between tessellated draws: it writes the same
// captures as the TES, so that each vertex reports itself (patch = -1 - vertex).
out int x_patch;
out vec3 x_coord;
out vec4 x_outer;
out vec2 x_inner;
out ivec3 x_vertices;

void main()
{
    x_patch = -1 - gl_VertexID;
    x_coord = vec3(0.0);
    x_outer = vec4(-1.0);
    x_inner = vec2(-1.0);
    x_vertices = ivec3(0, gl_VertexID, gl_VertexID);
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
