#version 450 core
// Hands the VS's values on, flat, one point per point.
layout(points) in;
layout(points, max_vertices = 1) out;

flat in int v_vertex_id[];
flat out int x_vertex_id;
flat in int v_instance_id[];
flat out int x_instance_id;
flat in int v_base_vertex[];
flat out int x_base_vertex;
flat in int v_base_instance[];
flat out int x_base_instance;
flat in int v_draw_id[];
flat out int x_draw_id;
flat in ivec2 v_fetched[];
flat out ivec2 x_fetched;

void main()
{
    x_vertex_id = v_vertex_id[0];
    x_instance_id = v_instance_id[0];
    x_base_vertex = v_base_vertex[0];
    x_base_instance = v_base_instance[0];
    x_draw_id = v_draw_id[0];
    x_fetched = v_fetched[0];
    gl_Position = gl_in[0].gl_Position;
    EmitVertex();
}
