#version 400 core
// Reads the TCS's per-vertex array t_in[i].m[k] with both indices dynamic, and its per-patch
// array p_m[j] at a dynamic index: the indices turn with gl_PrimitiveID, which no compiler knows.
// The sums read every element once, each at a vertex that turns with the element and the patch
// (zink lowers each such read to a branch per vertex and element: one read per element keeps
// the largest case's compile within seconds).
layout({{ domain }}, equal_spacing) in;

in Arrays {
    {{ type }} m[{{ per_vertex }}];
} t_in[];
patch in {{ type }} p_m[{{ per_patch }}];

out int x_patch;
out vec4 x_pick;            // t_in[(turn + 1) % n].m[(5 * turn + 2) % {{ per_vertex }}]
out vec4 x_patch_pick;      // p_m[(7 * turn + 1) % {{ per_patch }}]
out vec4 x_sum;             // sum of (k + 1) * t_in[(k + turn) % n].m[({{ vertex_step }} * k + turn) % {{ per_vertex }}]
out vec4 x_patch_sum;       // sum of (j + 1) * p_m[({{ patch_step }} * j + turn) % {{ per_patch }}]

vec4 widen({{ type }} x)
{
    return vec4(x{% for c in range(4 - width) %}, 0.0{% endfor %});
}

void main()
{
    int turn = gl_PrimitiveID;
    int n = gl_PatchVerticesIn;
    x_patch = gl_PrimitiveID;
    x_pick = widen(t_in[(turn + 1) % n].m[(5 * turn + 2) % {{ per_vertex }}]);
    x_patch_pick = widen(p_m[(7 * turn + 1) % {{ per_patch }}]);
    vec4 sum = vec4(0.0);
    for (int k = 0; k < {{ per_vertex }}; k++)
        sum += float(k + 1) * widen(t_in[(k + turn) % n].m[({{ vertex_step }} * k + turn) % {{ per_vertex }}]);
    vec4 patch_sum = vec4(0.0);
    for (int j = 0; j < {{ per_patch }}; j++)
        patch_sum += float(j + 1) * widen(p_m[({{ patch_step }} * j + turn) % {{ per_patch }}]);
    x_sum = sum;
    x_patch_sum = patch_sum;
    gl_Position = vec4(gl_TessCoord, 1.0);
}
