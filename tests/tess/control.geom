#version 400 core
// After the TES: one point per primitive the tessellator made, with gl_PrimitiveIDIn.
layout({{ input }}) in;
layout(points, max_vertices = 1) out;

in TesData {
    flat int key;
    flat int patch_id;
    flat ivec4 tcs;
} from_tes[];

out int x_key;
out int x_patch;
out ivec4 x_tcs;
out int x_gs_primitive;

void main()
{
    x_key = from_tes[0].key;
    x_patch = from_tes[0].patch_id;
    x_tcs = from_tes[0].tcs;
    x_gs_primitive = gl_PrimitiveIDIn;
    gl_Position = gl_in[0].gl_Position;
    EmitVertex();
    EndPrimitive();
}
