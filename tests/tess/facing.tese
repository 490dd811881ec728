#version 400 core
// Patch p of {{ patches }} covers the strip x in [-1 + 2p/{{ patches }}, -1 + 2(p+1)/{{ patches }}]:
// (u, v) -> (-1 + 2(p + u)/{{ patches }}, -1 + 2v) keeps the orientation, so a ccw triangle in
// (u, v) is ccw on screen.
layout({{ domain }}, {{ spacing }}, {{ winding }}) in;

in VertexData {
    int vertex;
} v_in[];

void main()
{
{% if tes_reads_id %}
    float p = float(gl_PrimitiveID);
{% else %}
    // the patch's number from its first vertex's (a TCS adds 1000), gl_PrimitiveID left unread
    float p = float((v_in[0].vertex % 1000) / {{ size }});
{% endif %}
    gl_Position = vec4(-1.0 + 2.0 * (p + gl_TessCoord.x) / {{ patches }}.0, -1.0 + 2.0 * gl_TessCoord.y, 0.0, 1.0);
}
