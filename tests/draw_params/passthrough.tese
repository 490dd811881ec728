#version 450 core
// No TCS: each vertex is a patch of 1 with the default levels (1, 1), so isolines in point
// mode give 2 points per vertex, each handing on the VS's values.
layout(isolines, equal_spacing, point_mode) in;

{% for name in names %}
in {{ types[name] }} v_{{ name }}[];
flat out {{ types[name] }} x_{{ name }};
{% endfor %}

void main()
{
{% for name in names %}
    x_{{ name }} = v_{{ name }}[0];
{% endfor %}
    gl_Position = vec4(gl_TessCoord, 1.0);
}
