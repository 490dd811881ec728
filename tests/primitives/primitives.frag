#version {{ version }}{{ " compatibility" if compat else " core" }}
// r: the flat id; g: gl_PrimitiveID; b: the id carried by the typed flat varying (or -1 - c
// where its component c is not id * 8 + c); a: 1.
{% set id = "g_id" if gs else "v_id" %}{# the geometry shader's output, or the vertex shader's #}

{% if flat_type == "block" %}
in Flat { flat int id; } v_block;
{% else %}
flat in int {{ id }};
{% endif %}
{% if typed %}
flat in {{ flat_type }} v_typed;
{% endif %}
out vec4 color;

void main()
{
{% if typed %}
    float typed = float(v_typed{{ ".x" if components > 1 }}) / 8.0;
{% for c in range(1, components) %}
    if (v_typed[{{ c }}] != v_typed.x + {{ scalar }}({{ c }})) typed = {{ -1 - c }}.0;
{% endfor %}
{% else %}
    float typed = -1.0;
{% endif %}
    color = vec4(float({{ "v_block.id" if flat_type == "block" else id }}), float(gl_PrimitiveID), typed, 1.0);
}
