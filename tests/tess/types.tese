{{ version }}
// No TCS: the inputs come straight from the vertex shader. Every TES invocation reduces each
// component over the patch to a sum and a vertex-weighted sum (which also catches vertices
// out of order); doubles to the whole part and the fraction of the sum, so that a value cut
// down to single precision shows.
layout({{ domain }}, equal_spacing) in;

{% for line in declarations %}
{{ line }}
{% endfor %}

out int x_patch;
out int x_patch_vertices;
{% for name in captures %}
out {{ name }};
{% endfor %}

void main()
{
{% if floats %}
    float s[{{ floats }}];
    float w[{{ floats }}];
    for (int k = 0; k < {{ floats }}; k++) {
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
{% for line in reads %}
        {{ line }}
{% endfor %}
    }
    x_patch = gl_PrimitiveID;
    x_patch_vertices = gl_PatchVerticesIn;
{% for line in finish %}
    {{ line }}
{% endfor %}
    gl_Position = vec4(gl_TessCoord, 1.0);
}
