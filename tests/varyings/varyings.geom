{% import "declare.glsl" as declare %}
{{ declare.header(dialect, extensions) }}
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
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
    for (int i = 0; i < 3; i++) {
        gl_Position = gl_in[i].gl_Position;
{% for v in users %}
        {{ "" if to_fs else "v_out." }}{{ v.name }} = v_in[i].{{ v.name }};
{% endfor %}
{% for name in legacy %}
        {{ name }} = gl_in[i].{{ name }};
{% endfor %}
        EmitVertex();
    }
}
