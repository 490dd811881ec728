#version {{ version }} core
{% if version == 450 %}
#extension GL_ARB_shader_draw_parameters : require
{% endif %}
// One invocation per vertex (points); each reports the draw parameters it saw and which
// vertex and instance its attributes were fetched from.
layout(location = 0) in float a_vertex;      // per vertex: the vertex's own number
layout(location = 1) in float a_instance;    // divisor 1: the instance's own number

{% if only_draw_id %}
flat out int {{ out }}draw_id;

void main()
{
    {{ out }}draw_id = {{ draw_id }};
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
{% else %}
flat out int {{ out }}vertex_id;
flat out int {{ out }}instance_id;
flat out int {{ out }}base_vertex;
flat out int {{ out }}base_instance;
flat out int {{ out }}draw_id;
flat out ivec2 {{ out }}fetched;

void main()
{
    {{ out }}vertex_id = gl_VertexID;
    {{ out }}instance_id = gl_InstanceID;
    {{ out }}base_vertex = {{ base_vertex }};
    {{ out }}base_instance = {{ base_instance }};
    {{ out }}draw_id = {{ draw_id }};
    {{ out }}fetched = ivec2(a_vertex, a_instance);
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
{% endif %}
