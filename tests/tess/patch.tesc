{{ version }}
// Per-patch outputs{% if large %} and large per-vertex output arrays{% endif %}: written by some
// invocations{% if large %}, each writing its own output vertex before barrier() and reading
// its neighbour's after it{% endif %}.
layout(vertices = {{ out_vertices }}) out;

in VertexData {
    int vertex;
} v_in[];

{% for line in declarations %}
{{ line }}
{% endfor %}

void main()
{
    int id = gl_InvocationID;
    gl_out[gl_InvocationID].gl_Position = gl_in[id % gl_PatchVerticesIn].gl_Position;
{% for line in body %}
    {{ line }}
{% endfor %}
    if (id == 0) {
        gl_TessLevelOuter[0] = {{ outer[0] }};
        gl_TessLevelOuter[1] = {{ outer[1] }};
        gl_TessLevelOuter[2] = {{ outer[2] }};
        gl_TessLevelOuter[3] = {{ outer[3] }};
        gl_TessLevelInner[0] = {{ inner[0] }};
        gl_TessLevelInner[1] = {{ inner[1] }};
    }
}
