#version 400 compatibility

in vec4 a_position;
out float gl_ClipDistance[2];
out V {
    flat dvec3 u0[3];
    flat dvec3 u1[3];
    flat dvec3 u2[3];
    flat dvec3 u3[3];
} v_out;

void main()
{
    gl_Position = a_position;
    gl_TexCoord[6] = vec4(630.0, 631.0, 632.0, 633.0);
    v_out.u0[0] = dvec3(634.0lf, 635.0lf, 636.0lf);
    v_out.u0[1] = dvec3(637.0lf, 638.0lf, 639.0lf);
    v_out.u0[2] = dvec3(640.0lf, 641.0lf, 642.0lf);
    v_out.u1[0] = dvec3(643.0lf, 644.0lf, 645.0lf);
    v_out.u1[1] = dvec3(646.0lf, 647.0lf, 648.0lf);
    v_out.u1[2] = dvec3(649.0lf, 650.0lf, 651.0lf);
    v_out.u2[0] = dvec3(652.0lf, 653.0lf, 654.0lf);
    v_out.u2[1] = dvec3(655.0lf, 656.0lf, 657.0lf);
    v_out.u2[2] = dvec3(658.0lf, 659.0lf, 660.0lf);
    v_out.u3[0] = dvec3(661.0lf, 662.0lf, 663.0lf);
    v_out.u3[1] = dvec3(664.0lf, 665.0lf, 666.0lf);
    v_out.u3[2] = dvec3(667.0lf, 668.0lf, 669.0lf);
    gl_ClipDistance[0] = 670.0;
    gl_ClipDistance[1] = 671.0;
}
