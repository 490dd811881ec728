{{ version }}
// Reports the per-patch inputs{% if large %} and reduces the large per-vertex arrays{% endif %}.
layout({{ domain }}, equal_spacing) in;

{% for line in declarations %}
{{ line }}
{% endfor %}

out int x_patch;
{% for name in captures %}
out {{ name }};
{% endfor %}

void main()
{
    x_patch = gl_PrimitiveID;
{% for line in body %}
    {{ line }}
{% endfor %}
    gl_Position = vec4(gl_TessCoord, 1.0);
}
