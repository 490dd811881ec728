#version {{ version }} {{ "compatibility" if compat else "core" }}
{% import "values.glsl" as values %}
// Each vertex writes every component of every carried output as a value unique to that
// vertex and component (the generator computes the same values in Python).
{% if struct %}
{{ values.struct_s(struct) }}
{% endif %}
{% set users = outputs | rejectattr("carried.builtin") | map(attribute="carried") | list %}
{% if form == "block" and users %}
out VertexData {
{% for c in users %}
    {{ "flat " if c.flat }}{{ c.type }} {{ c.name }}{{ "[%d]" % c.length if c.length }};
{% endfor %}
} v_out;
{% else %}
{% for c in users %}
{{ "flat " if c.flat }}out {{ c.type }} v_{{ c.name }}{{ "[%d]" % c.length if c.length }};
{% endfor %}
{% endif %}
{% for o in outputs if o.carried.builtin and o.carried.length %}
{# a builtin array is sized where it is written #}
out {{ o.carried.type }} {{ o.carried.name }}[{{ o.carried.length }}];
{% endfor %}
{% if separable %}
// A separable program redeclares the built-ins it writes (GLSL 4.50, 7.1.1).
out gl_PerVertex { vec4 gl_Position; };
{% endif %}

void main()
{
{% for o in outputs %}
{% set c = o.carried %}
{% set name = c.name if c.builtin else ("v_out." if form == "block" else "v_") ~ c.name %}
{% if c.dynamic %}
    for (int j = 0; j < {{ c.length }}; j++) {
{% for x in o.scalars %}
        {{ name }}[j]{{ x.accessor }} = {{ values.component(x.kind, "gl_VertexID", "%d + j * %d + %d" % (o.k, o.scalars | length, x.k)) }};
{% endfor %}
    }
{% else %}
{% for x in o.scalars %}
    {{ name }}{{ x.accessor }} = {{ values.component(x.kind, "gl_VertexID", x.k) }};
{% endfor %}
{% endif %}
{% endfor %}
    gl_Position = vec4(float(gl_VertexID), 0.0, 0.0, 1.0);
}
