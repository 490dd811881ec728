{% import "declare.glsl" as declare %}
{{ declare.header(dialect, extensions) }}
layout(vertices = 3) out;
{% if users %}

{% if structs %}
{{ declare.structs(structs) -}}
{% endif %}
{{ declare.block("in", "v_in[]", users) }}
{{ declare.block("out", "v_out[]", users) }}
{% endif %}

void main()
{
    gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
{% for name in legacy %}
    gl_out[gl_InvocationID].{{ name }} = gl_in[gl_InvocationID].{{ name }};
{% endfor %}
{% for v in users %}
    v_out[gl_InvocationID].{{ v.name }} = v_in[gl_InvocationID].{{ v.name }};
{% endfor %}
    gl_TessLevelOuter[0] = 1.0;
    gl_TessLevelOuter[1] = 1.0;
    gl_TessLevelOuter[2] = 1.0;
    gl_TessLevelInner[0] = 1.0;
}
