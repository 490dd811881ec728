#version {{ "440" if located else ("410" if separable else "400") }} core
// No TCS: the tessellator uses the default levels set with glPatchParameterfv.
layout({{ domain }}, {{ spacing }}{% if point_mode %}, point_mode{% endif %}) in;

{% if located %}layout(location = 0) {% endif %}in VertexData {
    vec4 attr;
    float pair[2];
    int vertex_id;
} v_in[];
{% if separable %}
// A separable program redeclares the built-ins it reads and writes (GLSL 4.50, 7.1.1).
in gl_PerVertex { vec4 gl_Position; } gl_in[];
out gl_PerVertex { vec4 gl_Position; };
{% endif %}

// One transform-feedback record per TES invocation. Per-vertex inputs are reduced over the
// patch to sums (and a position-weighted sum, which also catches reordered vertices).
out int x_primitive_id;
out int x_patch_vertices;
out vec4 x_outer;
out vec2 x_inner;
out ivec4 x_vertex_ids;     // (sum, sum of (i+1)*id, first, last)
out vec4 x_attr_sum;
out vec2 x_pair_sum;
out vec4 x_position_sum;

void main()
{
    x_primitive_id = gl_PrimitiveID;
    x_patch_vertices = gl_PatchVerticesIn;
    x_outer = vec4(gl_TessLevelOuter[0], gl_TessLevelOuter[1],
                   gl_TessLevelOuter[2], gl_TessLevelOuter[3]);
    x_inner = vec2(gl_TessLevelInner[0], gl_TessLevelInner[1]);

    ivec4 ids = ivec4(0, 0, v_in[0].vertex_id, v_in[gl_PatchVerticesIn - 1].vertex_id);
    vec4 attr = vec4(0.0);
    vec2 pair = vec2(0.0);
    vec4 position = vec4(0.0);
    for (int i = 0; i < gl_PatchVerticesIn; i++) {
        ids.x += v_in[i].vertex_id;
        ids.y += (i + 1) * v_in[i].vertex_id;
        attr += v_in[i].attr;
        pair += vec2(v_in[i].pair[0], v_in[i].pair[1]);
        position += gl_in[i].gl_Position;
    }
    x_vertex_ids = ids;
    x_attr_sum = attr;
    x_pair_sum = pair;
    x_position_sum = position;
    gl_Position = vec4(gl_TessCoord, 1.0);
}
