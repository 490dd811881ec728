#version 450 core
// No TCS: each vertex is a patch of 1 with the default levels (1, 1), so isolines in point
// mode give 2 points per vertex, each handing on the VS's values.
layout(isolines, equal_spacing, point_mode) in;

in int v_vertex_id[];
flat out int x_vertex_id;
in int v_instance_id[];
flat out int x_instance_id;
in int v_base_vertex[];
flat out int x_base_vertex;
in int v_base_instance[];
flat out int x_base_instance;
in int v_draw_id[];
flat out int x_draw_id;
in ivec2 v_fetched[];
flat out ivec2 x_fetched;

void main()
{
    x_vertex_id = v_vertex_id[0];
    x_instance_id = v_instance_id[0];
    x_base_vertex = v_base_vertex[0];
    x_base_instance = v_base_instance[0];
    x_draw_id = v_draw_id[0];
    x_fetched = v_fetched[0];
    gl_Position = vec4(gl_TessCoord, 1.0);
}
