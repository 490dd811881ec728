{% import "declare.glsl" as declare %}
{{ declare.header(dialect, extensions) }}
{% set declarations %}
{% if structs %}
{{ declare.structs(structs) -}}
{% endif %}
{% for v in users %}
{{ declare.varying(v, "in", dialect) }}
{% endfor %}
{% if clip_distance %}
in float gl_ClipDistance[2];
{% endif %}
{% if report != "gl_FragColor" %}
out vec4 {{ report }};
{% endif %}
{% endset %}
{% if declarations %}

{{ declarations }}
{%- endif %}

void main()
{
    // Fragment column k reports read values 4k .. 4k+3.
    int k = int(gl_FragCoord.x);
    vec4 r = vec4(-1.0);
{% for column in columns %}
    {{ "if" if loop.first else "else if" }} (k == {{ loop.index0 }}) r = vec4({% for expression in column %}{{ "float(%s)" % expression if expression else "-1.0" }}{{ ", " if not loop.last }}{% endfor %});
{% endfor %}
    {{ report }} = r;
}
