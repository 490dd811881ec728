#version {{ version }} {{ "compatibility" if compat else "core" }}
{% import "values.glsl" as values %}
// No TCS: the inputs come straight from the vertex shader. Every TES invocation reduces each
// component over the patch to a sum and a vertex-weighted sum (which also catches vertices
// out of order); doubles to the whole part and the fraction of the sum, so that a value cut
// down to single precision shows.
layout({{ domain }}, equal_spacing) in;

{% if struct %}
{{ values.struct_s(struct) }}
{% endif %}
{% set users = outputs | rejectattr("carried.builtin") | map(attribute="carried") | list %}
{% if form == "block" and users %}
in VertexData {
{% for c in users %}
    {{ "flat " if c.flat }}{{ c.type }} {{ c.name }}{{ "[%d]" % c.length if c.length }};
{% endfor %}
} v_in[];
{% else %}
{% for c in users %}
{# per vertex: an array of arrays where the output is an array #}
{{ "flat " if c.flat }}in {{ c.type }} v_{{ c.name }}[]{{ "[%d]" % c.length if c.length }};
{% endfor %}
{% endif %}
{% if separable %}
// A separable program redeclares the built-ins it writes (GLSL 4.50, 7.1.1).
out gl_PerVertex { vec4 gl_Position; };
{% endif %}

out int x_patch;
out int x_patch_vertices;
{% for capture in captures %}
out {{ capture.type }} {{ capture.varying }};
{% endfor %}

void main()
{
{% if singles %}
    float s[{{ singles }}];
    float w[{{ singles }}];
    for (int k = 0; k < {{ singles }}; k++) {
        s[k] = 0.0;
        w[k] = 0.0;
    }
{% endif %}
{% if doubles %}
    double ds[{{ doubles }}];
    for (int k = 0; k < {{ doubles }}; k++)
        ds[k] = 0.0LF;
{% endif %}
    for (int i = 0; i < gl_PatchVerticesIn; i++) {
{% for o in outputs %}
{% set c = o.carried %}
{% set name = "gl_in[i]." ~ c.name if c.builtin else ("v_in[i]." ~ c.name if form == "block" else "v_%s[i]" % c.name) %}
{% if c.dynamic %}
        for (int j = 0; j < {{ c.length }}; j++) {
{% for x in o.scalars %}
{% if x.kind == "double" %}
            ds[{{ o.first_double }} + j * {{ o.scalars | length }} + {{ x.slot }}] += {{ name }}[j]{{ x.accessor }};
{% else %}
            s[{{ o.first_single }} + j * {{ o.scalars | length }} + {{ x.slot }}] += float({{ name }}[j]{{ x.accessor }});
            w[{{ o.first_single }} + j * {{ o.scalars | length }} + {{ x.slot }}] += float(i + 1) * float({{ name }}[j]{{ x.accessor }});
{% endif %}
{% endfor %}
        }
{% else %}
{% for x in o.scalars %}
{% if x.kind == "double" %}
        ds[{{ x.slot }}] += {{ name }}{{ x.accessor }};
{% else %}
        s[{{ x.slot }}] += float({{ name }}{{ x.accessor }});
        w[{{ x.slot }}] += float(i + 1) * float({{ name }}{{ x.accessor }});
{% endif %}
{% endfor %}
{% endif %}
{% endfor %}
    }
    x_patch = gl_PrimitiveID;
    x_patch_vertices = gl_PatchVerticesIn;
{% for sum, weighted, slots in groups %}
    {{ sum }} = vec4({% for slot in slots %}{{ "s[%d]" % slot if slot is not none else "0.0" }}{{ ", " if not loop.last }}{% endfor %});
    {{ weighted }} = vec4({% for slot in slots %}{{ "w[%d]" % slot if slot is not none else "0.0" }}{{ ", " if not loop.last }}{% endfor %});
{% endfor %}
{% for varying, slot in sums %}
    {{ varying }} = vec2(float(floor(ds[{{ slot }}] + 0.5LF)), float((ds[{{ slot }}] - floor(ds[{{ slot }}] + 0.5LF)) * 4294967296.0LF));
{% endfor %}
    gl_Position = vec4(gl_TessCoord, 1.0);
}
