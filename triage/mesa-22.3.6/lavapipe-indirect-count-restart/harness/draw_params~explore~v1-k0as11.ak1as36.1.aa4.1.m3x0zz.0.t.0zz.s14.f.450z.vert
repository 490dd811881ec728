#version 450 core
#extension GL_ARB_shader_draw_parameters : require
// One invocation per vertex (points); each reports the draw parameters it saw and which
// vertex and instance its attributes were fetched from.
layout(location = 0) in float a_vertex;      // per vertex: the vertex's own number
layout(location = 1) in float a_instance;    // divisor 1: the instance's own number

flat out int x_vertex_id;
flat out int x_instance_id;
flat out int x_base_vertex;
flat out int x_base_instance;
flat out int x_draw_id;
flat out ivec2 x_fetched;

void main()
{
    x_vertex_id = gl_VertexID;
    x_instance_id = gl_InstanceID;
    x_base_vertex = gl_BaseVertexARB;
    x_base_instance = gl_BaseInstanceARB;
    x_draw_id = gl_DrawIDARB;
    x_fetched = ivec2(a_vertex, a_instance);
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
