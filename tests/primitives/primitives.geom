#version {{ version }}{{ " compatibility" if compat else " core" }}
// A pass-through geometry shader: each input primitive's main vertices (the adjacent ones of
// the adjacency types left out) emitted in their input order, each with its own flat id, and
// gl_PrimitiveID from gl_PrimitiveIDIn, which the fragment shader reads.
layout({{ input }}{{ ", invocations = %d" % invocations if invocations > 1 }}) in;
layout({{ output }}, max_vertices = {{ emitted | length }}) out;

flat in int v_id[];
flat out int g_id;

void main()
{
{% if invocations > 1 %}
    // invocation i draws its copy {{ shift }} pixels above invocation i - 1's
    vec4 shift = vec4(0.0, {{ 2.0 * shift / height }} * float(gl_InvocationID), 0.0, 0.0);
{% endif %}
{% for k in emitted %}
    gl_Position = gl_in[{{ k }}].gl_Position{{ " + shift" if invocations > 1 }};
    g_id = v_id[{{ k }}];
    gl_PrimitiveID = gl_PrimitiveIDIn;
    EmitVertex();
{% endfor %}
}
