#version 400 compatibility

flat in dvec3 u0[3];
flat in dvec3 u1[3];
flat in dvec3 u2[3];
flat in dvec3 u3[3];
in float gl_ClipDistance[2];

void main()
{
    // Fragment column k reports read values 4k .. 4k+3.
    int k = int(gl_FragCoord.x);
    vec4 r = vec4(-1.0);
    if (k == 0) r = vec4(float(gl_TexCoord[6].x), float(gl_TexCoord[6].y), float(gl_TexCoord[6].z), float(gl_TexCoord[6].w));
    else if (k == 1) r = vec4(float(u0[0].x), float(u0[0].y), float(u0[0].z), float(u0[1].x));
    else if (k == 2) r = vec4(float(u0[1].y), float(u0[1].z), float(u0[2].x), float(u0[2].y));
    else if (k == 3) r = vec4(float(u0[2].z), float(u1[0].x), float(u1[0].y), float(u1[0].z));
    else if (k == 4) r = vec4(float(u1[1].x), float(u1[1].y), float(u1[1].z), float(u1[2].x));
    else if (k == 5) r = vec4(float(u1[2].y), float(u1[2].z), float(u2[0].x), float(u2[0].y));
    else if (k == 6) r = vec4(float(u2[0].z), float(u2[1].x), float(u2[1].y), float(u2[1].z));
    else if (k == 7) r = vec4(float(u2[2].x), float(u2[2].y), float(u2[2].z), float(u3[0].x));
    else if (k == 8) r = vec4(float(u3[0].y), float(u3[0].z), float(u3[1].x), float(u3[1].y));
    else if (k == 9) r = vec4(float(u3[1].z), float(u3[2].x), float(u3[2].y), float(u3[2].z));
    else if (k == 10) r = vec4(float(gl_ClipDistance[0]), float(gl_ClipDistance[1]), -1.0, -1.0);
    gl_FragColor = r;
}
