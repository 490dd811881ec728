#version {{ version }}{{ " compatibility" if compat else " core" }}
// Every vertex carries its own id; the fragment shader reports the flat-shaded id of the
// primitive that covers a pixel, so the provoking vertex is read back exactly.
layout(location = 0) in vec2 a_position;     // window coordinates of the vertex, instance 0
layout(location = 1) in float a_id;          // the vertex's own id, unique in the draw

{% if flat_type == "block" %}
out Flat { flat int id; } v_block;
{% else %}
flat out int v_id;
{% endif %}
{% if typed %}
flat out {{ flat_type }} v_typed;
{% endif %}

void main()
{
    // each instance is a copy of the draw {{ instance_stride }} pixels higher, its ids {{ instance_ids }} higher
    int id = int(a_id) + {{ instance_ids }} * gl_InstanceID;
{% if flat_type == "block" %}
    v_block.id = id;
{% else %}
    v_id = id;
{% endif %}
{% if typed %}
    // component c carries id * 8 + c: a component from another vertex, or shuffled, shows
    v_typed = {{ flat_type }}({% for c in range(components) %}id * 8 + {{ c }}{{ ", " if not loop.last }}{% endfor %});
{% endif %}
    vec2 window = a_position + vec2(0.0, {{ instance_stride }}.0 * float(gl_InstanceID));
    gl_Position = vec4(window * vec2({{ 2.0 / width }}, {{ 2.0 / height }}) - 1.0, 0.0, 1.0);
}
