#version {{ version }} core
{% import "values.glsl" as values %}
// Per-patch outputs: written by some
// invocations.
layout(vertices = {{ out_vertices }}) out;

in VertexData {
    int vertex;
} v_in[];

{% if struct %}
{{ values.struct_s(struct) }}
{% endif %}
patch out {{ carried.type }} p_{{ carried.name }}{{ "[%d]" % carried.length if carried.length }};

void main()
{
    int id = gl_InvocationID;
    gl_out[gl_InvocationID].gl_Position = gl_in[id % gl_PatchVerticesIn].gl_Position;
    if (id == {{ writer }}) {
{% if carried.dynamic %}
        for (int j = 0; j < {{ carried.length }}; j++) {
{% for accessor, kind in inner %}
            p_{{ carried.name }}[j]{{ accessor }} = {{ values.component(kind, "gl_PrimitiveID", "j * %d + %d" % (inner | length, loop.index0)) }};
{% endfor %}
        }
{% else %}
{% for accessor, kind in elements %}
        p_{{ carried.name }}{{ accessor }} = {{ values.component(kind, "gl_PrimitiveID", loop.index0) }};
{% endfor %}
{% endif %}
    }
    if (id == 0) {
        gl_TessLevelOuter[0] = {{ outer[0] }};
        gl_TessLevelOuter[1] = {{ outer[1] }};
        gl_TessLevelOuter[2] = {{ outer[2] }};
        gl_TessLevelOuter[3] = {{ outer[3] }};
        gl_TessLevelInner[0] = {{ inner_levels[0] }};
        gl_TessLevelInner[1] = {{ inner_levels[1] }};
    }
}
