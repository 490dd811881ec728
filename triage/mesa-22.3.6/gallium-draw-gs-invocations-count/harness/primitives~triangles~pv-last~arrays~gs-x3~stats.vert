#version 400 core
// Every vertex carries its own id; the fragment shader reports the flat-shaded id of the
// primitive that covers a pixel, so the provoking vertex is read back exactly.
layout(location = 0) in vec2 a_position;     // window coordinates of the vertex, instance 0
layout(location = 1) in float a_id;          // the vertex's own id, unique in the draw

flat out int v_id;

void main()
{
    // each instance is a copy of the draw 32 pixels higher, its ids 1000 higher
    int id = int(a_id) + 1000 * gl_InstanceID;
    v_id = id;
    vec2 window = a_position + vec2(0.0, 32.0 * float(gl_InstanceID));
    gl_Position = vec4(window * vec2(0.015625, 0.015625) - 1.0, 0.0, 1.0);
}
