#version 400 core
// Each vertex hands on its number (plus an offset, so programs that share a TES can be told
// apart); cases that watch gl_TessCoord need nothing else.
out VertexData {
    int vertex;
} v_out;

void main()
{
    v_out.vertex = gl_VertexID + 0;
    gl_Position = vec4(float(gl_VertexID), 0.0, 0.0, 1.0);
}
