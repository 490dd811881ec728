#version 400 core
{% import "values.glsl" as values %}
// Each vertex hands on its identity (vertex number, instance) and a value made from it.
out VertexData {
    vec4 attr;
    int vertex;
    int instance;
} v_out;

void main()
{
    float v = float(gl_VertexID);
    v_out.attr = {{ values.control_attr("v", "gl_InstanceID") }};
    v_out.vertex = gl_VertexID;
    v_out.instance = gl_InstanceID;
    gl_Position = v_out.attr.wzyx;
}
