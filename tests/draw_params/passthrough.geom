#version 450 core
// Hands the VS's values on, flat, one point per point.
layout(points) in;
layout(points, max_vertices = 1) out;

{% for name in names %}
flat in {{ types[name] }} v_{{ name }}[];
flat out {{ types[name] }} x_{{ name }};
{% endfor %}

void main()
{
{% for name in names %}
    x_{{ name }} = v_{{ name }}[0];
{% endfor %}
    gl_Position = gl_in[0].gl_Position;
    EmitVertex();
}
