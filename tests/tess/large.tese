#version 400 core
// {{ count }} vec4 outputs per vertex, patches of up to 32: each is reduced over the patch to a
// component-weighted and a vertex-weighted sum.
layout({{ domain }}, equal_spacing) in;

{% for k in range(count) %}
in vec4 u{{ k }}[];
{% endfor %}

out int x_patch;
out int x_patch_vertices;
{% for n in range((count + 1) // 2) %}
out vec4 x_u{{ n }};
{% endfor %}

void main()
{
    float s[{{ count + 1 }}];
    float w[{{ count + 1 }}];
    for (int k = 0; k <= {{ count }}; k++) {
        s[k] = 0.0;
        w[k] = 0.0;
    }
    for (int i = 0; i < gl_PatchVerticesIn; i++) {
{% for k in range(count) %}
        s[{{ k }}] += dot(u{{ k }}[i], vec4(1.0, 2.0, 3.0, 4.0));
        w[{{ k }}] += float(i + 1) * dot(u{{ k }}[i], vec4(1.0));
{% endfor %}
    }
    x_patch = gl_PrimitiveID;
    x_patch_vertices = gl_PatchVerticesIn;
{% for n in range((count + 1) // 2) %}
    x_u{{ n }} = vec4(s[{{ 2 * n }}], w[{{ 2 * n }}], s[{{ 2 * n + 1 }}], w[{{ 2 * n + 1 }}]);
{% endfor %}
    gl_Position = vec4(gl_TessCoord, 1.0);
}
