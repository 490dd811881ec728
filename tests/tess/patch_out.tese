#version {{ version }} core
{% import "values.glsl" as values %}
{% macro scalar(k) %}{% if carried.dynamic %}v[{{ k }}]{% else %}float(p_{{ carried.name }}{{ elements[k][0] }}){% endif %}{% endmacro %}
// Reports the per-patch inputs.
layout({{ domain }}, equal_spacing) in;

{% if struct %}
{{ values.struct_s(struct) }}
{% endif %}
patch in {{ carried.type }} p_{{ carried.name }}{{ "[%d]" % carried.length if carried.length }};

out int x_patch;
{% for capture in captures %}
out {{ capture.type }} {{ capture.varying }};
{% endfor %}

void main()
{
    x_patch = gl_PrimitiveID;
{% if carried.dynamic %}
{# read back through a dynamic index as well #}
    float v[{{ elements | length }}];
    for (int j = 0; j < {{ carried.length }}; j++) {
{% for accessor, kind in inner %}
        v[j * {{ inner | length }} + {{ loop.index0 }}] = float(p_{{ carried.name }}[j]{{ accessor }});
{% endfor %}
    }
{% endif %}
{% for varying, lanes in singles %}
    {{ varying }} = vec4({% for k in lanes %}{{ scalar(k) if k is not none else "0.0" }}{{ ", " if not loop.last }}{% endfor %});
{% endfor %}
{% for varying, k in doubles %}
{% set value = "p_%s%s" % (carried.name, elements[k][0]) %}
    {{ varying }} = vec2(float(floor({{ value }} + 0.5LF)), float(({{ value }} - floor({{ value }} + 0.5LF)) * 4294967296.0LF));
{% endfor %}
    gl_Position = vec4(gl_TessCoord, 1.0);
}
