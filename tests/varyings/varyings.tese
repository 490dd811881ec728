{% import "declare.glsl" as declare %}
{{ declare.header(dialect, extensions) }}
layout(triangles, equal_spacing, ccw) in;
{% if users %}

{% if structs %}
{{ declare.structs(structs) -}}
{% endif %}
{{ declare.block("in", "v_in[]", users) }}
{% if to_fs %}
{% for v in users %}
{{ declare.varying(v, "out", dialect) }}
{% endfor %}
{% else %}
{{ declare.block("out", "v_out", users) }}
{% endif %}
{% endif %}

void main()
{
{# the values are the same at every vertex; the position interpolates #}
    gl_Position = gl_TessCoord.x * gl_in[0].gl_Position + gl_TessCoord.y * gl_in[1].gl_Position + gl_TessCoord.z * gl_in[2].gl_Position;
{% for v in users %}
    {{ "" if to_fs else "v_out." }}{{ v.name }} = v_in[0].{{ v.name }};
{% endfor %}
{% for name in legacy %}
    {{ name }} = gl_in[0].{{ name }};
{% endfor %}
}
