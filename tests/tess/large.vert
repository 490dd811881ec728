#version 400 core
{% import "values.glsl" as values %}
// {{ count }} vec4 outputs, each component a small value of (vertex, output, component).
{% for k in range(count) %}
out vec4 u{{ k }};
{% endfor %}

vec4 value(int k)
{
    ivec4 c = ivec4(0, 1, 2, 3);
    return vec4({{ values.large_input("gl_VertexID", "k", "c") }});
}

void main()
{
{% for k in range(count) %}
    u{{ k }} = value({{ k }});
{% endfor %}
    gl_Position = vec4(float(gl_VertexID), 0.0, 0.0, 1.0);
}
