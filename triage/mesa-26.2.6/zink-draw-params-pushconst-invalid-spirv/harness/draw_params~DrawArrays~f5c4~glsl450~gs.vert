#version 450 core
#extension GL_ARB_shader_draw_parameters : require
// One invocation per vertex (points); each reports the draw parameters it saw and which
// vertex and instance its attributes were fetched from.
layout(location = 0) in float a_vertex;      // per vertex: the vertex's own number
layout(location = 1) in float a_instance;    // divisor 1: the instance's own number

flat out int v_vertex_id;
flat out int v_instance_id;
flat out int v_base_vertex;
flat out int v_base_instance;
flat out int v_draw_id;
flat out ivec2 v_fetched;

void main()
{
    v_vertex_id = gl_VertexID;
    v_instance_id = gl_InstanceID;
    v_base_vertex = gl_BaseVertexARB;
    v_base_instance = gl_BaseInstanceARB;
    v_draw_id = gl_DrawIDARB;
    v_fetched = ivec2(a_vertex, a_instance);
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
