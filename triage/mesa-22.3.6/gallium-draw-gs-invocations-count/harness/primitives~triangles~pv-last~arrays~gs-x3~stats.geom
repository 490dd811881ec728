#version 400 core
// A pass-through geometry shader: each input primitive's main vertices (the adjacent ones of
// the adjacency types left out) emitted in their input order, each with its own flat id, and
// gl_PrimitiveID from gl_PrimitiveIDIn, which the fragment shader reads.
layout(triangles, invocations = 3) in;
layout(triangle_strip, max_vertices = 3) out;

flat in int v_id[];
flat out int g_id;

void main()
{
    // invocation i draws its copy 32 pixels above invocation i - 1's
    vec4 shift = vec4(0.0, 0.5 * float(gl_InvocationID), 0.0, 0.0);
    gl_Position = gl_in[0].gl_Position + shift;
    g_id = v_id[0];
    gl_PrimitiveID = gl_PrimitiveIDIn;
    EmitVertex();
    gl_Position = gl_in[1].gl_Position + shift;
    g_id = v_id[1];
    gl_PrimitiveID = gl_PrimitiveIDIn;
    EmitVertex();
    gl_Position = gl_in[2].gl_Position + shift;
    g_id = v_id[2];
    gl_PrimitiveID = gl_PrimitiveIDIn;
    EmitVertex();
}
