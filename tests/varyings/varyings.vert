{% import "declare.glsl" as declare %}
{{ declare.header(dialect, extensions) }}

{% if structs %}
{{ declare.structs(structs) -}}
{% endif %}
{{ "in" if dialect.modern else "attribute" }} vec4 a_position;
{% if separable %}
{# separable programs must redeclare the builtins they use #}
out gl_PerVertex { vec4 gl_Position;{{ " float gl_PointSize;" if point_size }} };
{% endif %}
{% if clip_distance %}
out float gl_ClipDistance[2];
{% endif %}
{% if blocked %}
{{ declare.block("out", "v_out", users) }}
{% else %}
{% for v in users %}
{{ declare.varying(v, "out", dialect) }}
{% endfor %}
{% endif %}

void main()
{
    gl_Position = a_position;
{% for name, type, values in writes %}
    {{ name if name.startswith("gl_") or not blocked else "v_out." ~ name }} = {{ constant(type, values) }};
{% endfor %}
{% if clip_vertex %}
    gl_ClipVertex = a_position;     // the user clip plane keeps y <= 0
{% endif %}
}
