#version {{ "440" if located else ("410" if separable else "400") }} core
// Each vertex hands on its identity, so the TES can tell which vertices formed its patch.
layout(location = 0) in vec4 a_attr;

{% if located %}layout(location = 0) {% endif %}out VertexData {
    vec4 attr;
    float pair[2];
    int vertex_id;
} v_out;
{% if separable %}
// A separable program redeclares the built-ins it writes (GLSL 4.50, 7.1.1).
out gl_PerVertex { vec4 gl_Position; };
{% endif %}

void main()
{
    v_out.attr = a_attr;
    v_out.pair = float[2](float(gl_VertexID) * 2.0, float(gl_VertexID) * 2.0 + 1.0);
    v_out.vertex_id = gl_VertexID;
    gl_Position = a_attr.wzyx;
}
