/* triage/mesa-22.3.6/st-indirect-draw-parameter-buffer: the exported case below with the
 * GL_PARAMETER_BUFFER words {0, 0} instead of the harness's {0xDEADBEEF, 0}; step 1, a plain
 * glDrawArraysIndirect, then draws nothing on Mesa (llvmpipe, zink) and all 34 points on NVIDIA GL.
 * REPRO_EGL_DEVICE=N opens the N-th EGL device instead of surfaceless (zink on a machine with no
 * DRM node). Build: cc -g parameter-buffer-zero.c -lEGL -o parameter-buffer-zero;
 * run: python -m harness exec TARGET [--mesa M] -- ./parameter-buffer-zero */
/* draw_params/explore/v1-k0as11.ak1as36.0.az.0.f.36z.k1as31.n.aa17.2.6.0.1zz.0.f.0z.k1as21.n.aa0.1.9.0.0zz.0.f.0zz.s15.f.460z
 * draw parameters through glMultiDrawElementsIndirectCount then glDrawArraysIndirect then glDrawRangeElements, GLSL 460, vs chain (explored; as the family names it: draw_params/sequence/explored/glsl460/vs)
 * Written by `python -m harness export --format c`: the expected values are the harness's.
 * Build: cc repro.c -lEGL -o repro; run: ./repro (exit 0 PASS, 1 a mismatch, 2 no context or program). */
#define GL_MAJOR 4
#define GL_MINOR 6
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/glcorearb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct shader { GLenum type; const char *source; };
struct binding { int location; const char *name; };
struct count_check { int step; int which; const char *name; long long value; };
struct length_check { int step; int records; };
struct record_check { int step; int record; int word; int n; char kind; double value[4];
                      const char *label; const char *quantity; double tolerance; };
static PFNGLGETERRORPROC glGetError;
static PFNGLENABLEPROC glEnable;
static PFNGLDISABLEPROC glDisable;
static PFNGLGENFRAMEBUFFERSPROC glGenFramebuffers;
static PFNGLBINDFRAMEBUFFERPROC glBindFramebuffer;
static PFNGLGENRENDERBUFFERSPROC glGenRenderbuffers;
static PFNGLBINDRENDERBUFFERPROC glBindRenderbuffer;
static PFNGLRENDERBUFFERSTORAGEPROC glRenderbufferStorage;
static PFNGLFRAMEBUFFERRENDERBUFFERPROC glFramebufferRenderbuffer;
static PFNGLCHECKFRAMEBUFFERSTATUSPROC glCheckFramebufferStatus;
static PFNGLVIEWPORTPROC glViewport;
static PFNGLCREATESHADERPROC glCreateShader;
static PFNGLSHADERSOURCEPROC glShaderSource;
static PFNGLCOMPILESHADERPROC glCompileShader;
static PFNGLGETSHADERIVPROC glGetShaderiv;
static PFNGLGETSHADERINFOLOGPROC glGetShaderInfoLog;
static PFNGLCREATEPROGRAMPROC glCreateProgram;
static PFNGLATTACHSHADERPROC glAttachShader;
static PFNGLBINDATTRIBLOCATIONPROC glBindAttribLocation;
static PFNGLTRANSFORMFEEDBACKVARYINGSPROC glTransformFeedbackVaryings;
static PFNGLLINKPROGRAMPROC glLinkProgram;
static PFNGLGETPROGRAMIVPROC glGetProgramiv;
static PFNGLGETPROGRAMINFOLOGPROC glGetProgramInfoLog;
static PFNGLUSEPROGRAMPROC glUseProgram;
static PFNGLDELETEPROGRAMPROC glDeleteProgram;
static PFNGLGENVERTEXARRAYSPROC glGenVertexArrays;
static PFNGLBINDVERTEXARRAYPROC glBindVertexArray;
static PFNGLGENBUFFERSPROC glGenBuffers;
static PFNGLBINDBUFFERPROC glBindBuffer;
static PFNGLBUFFERDATAPROC glBufferData;
static PFNGLBINDBUFFERBASEPROC glBindBufferBase;
static PFNGLVERTEXATTRIBPOINTERPROC glVertexAttribPointer;
static PFNGLVERTEXATTRIBIPOINTERPROC glVertexAttribIPointer;
static PFNGLVERTEXATTRIBDIVISORPROC glVertexAttribDivisor;
static PFNGLENABLEVERTEXATTRIBARRAYPROC glEnableVertexAttribArray;
static PFNGLGENQUERIESPROC glGenQueries;
static PFNGLBEGINQUERYPROC glBeginQuery;
static PFNGLENDQUERYPROC glEndQuery;
static PFNGLGETQUERYOBJECTUIVPROC glGetQueryObjectuiv;
static PFNGLBEGINTRANSFORMFEEDBACKPROC glBeginTransformFeedback;
static PFNGLENDTRANSFORMFEEDBACKPROC glEndTransformFeedback;
static PFNGLGETBUFFERSUBDATAPROC glGetBufferSubData;
static PFNGLPRIMITIVERESTARTINDEXPROC glPrimitiveRestartIndex;
static PFNGLPATCHPARAMETERIPROC glPatchParameteri;
static PFNGLPATCHPARAMETERFVPROC glPatchParameterfv;
static PFNGLDRAWARRAYSPROC glDrawArrays;
static PFNGLDRAWARRAYSINSTANCEDPROC glDrawArraysInstanced;
static PFNGLDRAWARRAYSINSTANCEDBASEINSTANCEPROC glDrawArraysInstancedBaseInstance;
static PFNGLDRAWELEMENTSPROC glDrawElements;
static PFNGLDRAWRANGEELEMENTSPROC glDrawRangeElements;
static PFNGLDRAWELEMENTSBASEVERTEXPROC glDrawElementsBaseVertex;
static PFNGLDRAWRANGEELEMENTSBASEVERTEXPROC glDrawRangeElementsBaseVertex;
static PFNGLDRAWELEMENTSINSTANCEDPROC glDrawElementsInstanced;
static PFNGLDRAWELEMENTSINSTANCEDBASEVERTEXPROC glDrawElementsInstancedBaseVertex;
static PFNGLDRAWELEMENTSINSTANCEDBASEINSTANCEPROC glDrawElementsInstancedBaseInstance;
static PFNGLDRAWELEMENTSINSTANCEDBASEVERTEXBASEINSTANCEPROC glDrawElementsInstancedBaseVertexBaseInstance;
static PFNGLMULTIDRAWARRAYSPROC glMultiDrawArrays;
static PFNGLMULTIDRAWELEMENTSPROC glMultiDrawElements;
static PFNGLMULTIDRAWELEMENTSBASEVERTEXPROC glMultiDrawElementsBaseVertex;
static PFNGLDRAWARRAYSINDIRECTPROC glDrawArraysIndirect;
static PFNGLDRAWELEMENTSINDIRECTPROC glDrawElementsIndirect;
static PFNGLMULTIDRAWARRAYSINDIRECTPROC glMultiDrawArraysIndirect;
static PFNGLMULTIDRAWELEMENTSINDIRECTPROC glMultiDrawElementsIndirect;
static PFNGLMULTIDRAWARRAYSINDIRECTCOUNTPROC glMultiDrawArraysIndirectCount;
static PFNGLMULTIDRAWELEMENTSINDIRECTCOUNTPROC glMultiDrawElementsIndirectCount;

static const struct shader program0[] = {
    {GL_VERTEX_SHADER, "#version 460 core\n// One invocation per vertex (points); each reports the draw parameters it saw and which\n// vertex and instance its attributes were fetched from.\nlayout(location = 0) in float a_vertex;      // per vertex: the vertex's own number\nlayout(location = 1) in float a_instance;    // divisor 1: the instance's own number\n\nflat out int x_vertex_id;\nflat out int x_instance_id;\nflat out int x_base_vertex;\nflat out int x_base_instance;\nflat out int x_draw_id;\nflat out ivec2 x_fetched;\n\nvoid main()\n{\n    x_vertex_id = gl_VertexID;\n    x_instance_id = gl_InstanceID;\n    x_base_vertex = gl_BaseVertex;\n    x_base_instance = gl_BaseInstance;\n    x_draw_id = gl_DrawID;\n    x_fetched = ivec2(a_vertex, a_instance);\n    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);\n}\n"},
    {0, NULL},
};
static const struct shader *programs[] = {program0};
static const char *varyings[] = {"x_vertex_id", "x_instance_id", "x_base_vertex", "x_base_instance", "x_draw_id", "x_fetched"};
static const struct binding bindings[] = {{-1, NULL}};
#define RECORD_BYTES 28
#define MAX_RECORDS 4096
#define XFB_PRIMITIVE GL_POINTS
#define XFB_VERTICES 1
static const GLfloat attribute0[] = {0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0};
static const GLfloat attribute1[] = {0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0};
static const GLushort indices[] = {5, 2, 9, 3, 7, 4, 8, 2, 6, 10, 11, 3};
static const struct count_check count_checks[] = {
    {0, 2, "xfb_vertices", 0LL},
    {1, 2, "xfb_vertices", 34LL},
    {2, 2, "xfb_vertices", 0LL},
    {-1, 0, NULL, 0},
};
static const struct length_check length_checks[] = {
    {1, 34},
    {-1, 0},
};
static const struct record_check record_checks[] = {
    {1, 0, 0, 1, 'i', {6.0}, "vertex 0, instance 0", "gl_VertexID", 0.0},
    {1, 0, 1, 1, 'i', {0.0}, "vertex 0, instance 0", "gl_InstanceID", 0.0},
    {1, 0, 2, 1, 'i', {0.0}, "vertex 0, instance 0", "gl_BaseVertex", 0.0},
    {1, 0, 3, 1, 'i', {1.0}, "vertex 0, instance 0", "gl_BaseInstance", 0.0},
    {1, 0, 4, 1, 'i', {0.0}, "vertex 0, instance 0", "gl_DrawID", 0.0},
    {1, 0, 5, 2, 'i', {6.0, 1.0}, "vertex 0, instance 0", "attributes fetched (a_vertex, a_instance)", 0.0},
    {1, 1, 0, 1, 'i', {7.0}, "vertex 1, instance 0", "gl_VertexID", 0.0},
    {1, 1, 1, 1, 'i', {0.0}, "vertex 1, instance 0", "gl_InstanceID", 0.0},
    {1, 1, 2, 1, 'i', {0.0}, "vertex 1, instance 0", "gl_BaseVertex", 0.0},
    {1, 1, 3, 1, 'i', {1.0}, "vertex 1, instance 0", "gl_BaseInstance", 0.0},
    {1, 1, 4, 1, 'i', {0.0}, "vertex 1, instance 0", "gl_DrawID", 0.0},
    {1, 1, 5, 2, 'i', {7.0, 1.0}, "vertex 1, instance 0", "attributes fetched (a_vertex, a_instance)", 0.0},
    {1, 2, 0, 1, 'i', {8.0}, "vertex 2, instance 0", "gl_VertexID", 0.0},
    {1, 2, 1, 1, 'i', {0.0}, "vertex 2, instance 0", "gl_InstanceID", 0.0},
    {1, 2, 2, 1, 'i', {0.0}, "vertex 2, instance 0", "gl_BaseVertex", 0.0},
    {1, 2, 3, 1, 'i', {1.0}, "vertex 2, instance 0", "gl_BaseInstance", 0.0},
    {1, 2, 4, 1, 'i', {0.0}, "vertex 2, instance 0", "gl_DrawID", 0.0},
    {1, 2, 5, 2, 'i', {8.0, 1.0}, "vertex 2, instance 0", "attributes fetched (a_vertex, a_instance)", 0.0},
    {1, 3, 0, 1, 'i', {9.0}, "vertex 3, instance 0", "gl_VertexID", 0.0},
    {1, 3, 1, 1, 'i', {0.0}, "vertex 3, instance 0", "gl_InstanceID", 0.0},
    {1, 3, 2, 1, 'i', {0.0}, "vertex 3, instance 0", "gl_BaseVertex", 0.0},
    {1, 3, 3, 1, 'i', {1.0}, "vertex 3, instance 0", "gl_BaseInstance", 0.0},
    {1, 3, 4, 1, 'i', {0.0}, "vertex 3, instance 0", "gl_DrawID", 0.0},
    {1, 3, 5, 2, 'i', {9.0, 1.0}, "vertex 3, instance 0", "attributes fetched (a_vertex, a_instance)", 0.0},
    {1, 4, 0, 1, 'i', {10.0}, "vertex 4, instance 0", "gl_VertexID", 0.0},
    {1, 4, 1, 1, 'i', {0.0}, "vertex 4, instance 0", "gl_InstanceID", 0.0},
    {1, 4, 2, 1, 'i', {0.0}, "vertex 4, instance 0", "gl_BaseVertex", 0.0},
    {1, 4, 3, 1, 'i', {1.0}, "vertex 4, instance 0", "gl_BaseInstance", 0.0},
    {1, 4, 4, 1, 'i', {0.0}, "vertex 4, instance 0", "gl_DrawID", 0.0},
    {1, 4, 5, 2, 'i', {10.0, 1.0}, "vertex 4, instance 0", "attributes fetched (a_vertex, a_instance)", 0.0},
    {1, 5, 0, 1, 'i', {11.0}, "vertex 5, instance 0", "gl_VertexID", 0.0},
    {1, 5, 1, 1, 'i', {0.0}, "vertex 5, instance 0", "gl_InstanceID", 0.0},
    {1, 5, 2, 1, 'i', {0.0}, "vertex 5, instance 0", "gl_BaseVertex", 0.0},
    {1, 5, 3, 1, 'i', {1.0}, "vertex 5, instance 0", "gl_BaseInstance", 0.0},
    {1, 5, 4, 1, 'i', {0.0}, "vertex 5, instance 0", "gl_DrawID", 0.0},
    {1, 5, 5, 2, 'i', {11.0, 1.0}, "vertex 5, instance 0", "attributes fetched (a_vertex, a_instance)", 0.0},
    {1, 6, 0, 1, 'i', {12.0}, "vertex 6, instance 0", "gl_VertexID", 0.0},
    {1, 6, 1, 1, 'i', {0.0}, "vertex 6, instance 0", "gl_InstanceID", 0.0},
    {1, 6, 2, 1, 'i', {0.0}, "vertex 6, instance 0", "gl_BaseVertex", 0.0},
    {1, 6, 3, 1, 'i', {1.0}, "vertex 6, instance 0", "gl_BaseInstance", 0.0},
    {1, 6, 4, 1, 'i', {0.0}, "vertex 6, instance 0", "gl_DrawID", 0.0},
    {1, 6, 5, 2, 'i', {12.0, 1.0}, "vertex 6, instance 0", "attributes fetched (a_vertex, a_instance)", 0.0},
    {1, 7, 0, 1, 'i', {13.0}, "vertex 7, instance 0", "gl_VertexID", 0.0},
    {1, 7, 1, 1, 'i', {0.0}, "vertex 7, instance 0", "gl_InstanceID", 0.0},
    {1, 7, 2, 1, 'i', {0.0}, "vertex 7, instance 0", "gl_BaseVertex", 0.0},
    {1, 7, 3, 1, 'i', {1.0}, "vertex 7, instance 0", "gl_BaseInstance", 0.0},
    {1, 7, 4, 1, 'i', {0.0}, "vertex 7, instance 0", "gl_DrawID", 0.0},
    {1, 7, 5, 2, 'i', {13.0, 1.0}, "vertex 7, instance 0", "attributes fetched (a_vertex, a_instance)", 0.0},
    {1, 8, 0, 1, 'i', {14.0}, "vertex 8, instance 0", "gl_VertexID", 0.0},
    {1, 8, 1, 1, 'i', {0.0}, "vertex 8, instance 0", "gl_InstanceID", 0.0},
    {1, 8, 2, 1, 'i', {0.0}, "vertex 8, instance 0", "gl_BaseVertex", 0.0},
    {1, 8, 3, 1, 'i', {1.0}, "vertex 8, instance 0", "gl_BaseInstance", 0.0},
    {1, 8, 4, 1, 'i', {0.0}, "vertex 8, instance 0", "gl_DrawID", 0.0},
    {1, 8, 5, 2, 'i', {14.0, 1.0}, "vertex 8, instance 0", "attributes fetched (a_vertex, a_instance)", 0.0},
    {1, 9, 0, 1, 'i', {15.0}, "vertex 9, instance 0", "gl_VertexID", 0.0},
    {1, 9, 1, 1, 'i', {0.0}, "vertex 9, instance 0", "gl_InstanceID", 0.0},
    {1, 9, 2, 1, 'i', {0.0}, "vertex 9, instance 0", "gl_BaseVertex", 0.0},
    {1, 9, 3, 1, 'i', {1.0}, "vertex 9, instance 0", "gl_BaseInstance", 0.0},
    {1, 9, 4, 1, 'i', {0.0}, "vertex 9, instance 0", "gl_DrawID", 0.0},
    {1, 9, 5, 2, 'i', {15.0, 1.0}, "vertex 9, instance 0", "attributes fetched (a_vertex, a_instance)", 0.0},
    {1, 10, 0, 1, 'i', {16.0}, "vertex 10, instance 0", "gl_VertexID", 0.0},
    {1, 10, 1, 1, 'i', {0.0}, "vertex 10, instance 0", "gl_InstanceID", 0.0},
    {1, 10, 2, 1, 'i', {0.0}, "vertex 10, instance 0", "gl_BaseVertex", 0.0},
    {1, 10, 3, 1, 'i', {1.0}, "vertex 10, instance 0", "gl_BaseInstance", 0.0},
    {1, 10, 4, 1, 'i', {0.0}, "vertex 10, instance 0", "gl_DrawID", 0.0},
    {1, 10, 5, 2, 'i', {16.0, 1.0}, "vertex 10, instance 0", "attributes fetched (a_vertex, a_instance)", 0.0},
    {1, 11, 0, 1, 'i', {17.0}, "vertex 11, instance 0", "gl_VertexID", 0.0},
    {1, 11, 1, 1, 'i', {0.0}, "vertex 11, instance 0", "gl_InstanceID", 0.0},
    {1, 11, 2, 1, 'i', {0.0}, "vertex 11, instance 0", "gl_BaseVertex", 0.0},
    {1, 11, 3, 1, 'i', {1.0}, "vertex 11, instance 0", "gl_BaseInstance", 0.0},
    {1, 11, 4, 1, 'i', {0.0}, "vertex 11, instance 0", "gl_DrawID", 0.0},
    {1, 11, 5, 2, 'i', {17.0, 1.0}, "vertex 11, instance 0", "attributes fetched (a_vertex, a_instance)", 0.0},
    {1, 12, 0, 1, 'i', {18.0}, "vertex 12, instance 0", "gl_VertexID", 0.0},
    {1, 12, 1, 1, 'i', {0.0}, "vertex 12, instance 0", "gl_InstanceID", 0.0},
    {1, 12, 2, 1, 'i', {0.0}, "vertex 12, instance 0", "gl_BaseVertex", 0.0},
    {1, 12, 3, 1, 'i', {1.0}, "vertex 12, instance 0", "gl_BaseInstance", 0.0},
    {1, 12, 4, 1, 'i', {0.0}, "vertex 12, instance 0", "gl_DrawID", 0.0},
    {1, 12, 5, 2, 'i', {18.0, 1.0}, "vertex 12, instance 0", "attributes fetched (a_vertex, a_instance)", 0.0},
    {1, 13, 0, 1, 'i', {19.0}, "vertex 13, instance 0", "gl_VertexID", 0.0},
    {1, 13, 1, 1, 'i', {0.0}, "vertex 13, instance 0", "gl_InstanceID", 0.0},
    {1, 13, 2, 1, 'i', {0.0}, "vertex 13, instance 0", "gl_BaseVertex", 0.0},
    {1, 13, 3, 1, 'i', {1.0}, "vertex 13, instance 0", "gl_BaseInstance", 0.0},
    {1, 13, 4, 1, 'i', {0.0}, "vertex 13, instance 0", "gl_DrawID", 0.0},
    {1, 13, 5, 2, 'i', {19.0, 1.0}, "vertex 13, instance 0", "attributes fetched (a_vertex, a_instance)", 0.0},
    {1, 14, 0, 1, 'i', {20.0}, "vertex 14, instance 0", "gl_VertexID", 0.0},
    {1, 14, 1, 1, 'i', {0.0}, "vertex 14, instance 0", "gl_InstanceID", 0.0},
    {1, 14, 2, 1, 'i', {0.0}, "vertex 14, instance 0", "gl_BaseVertex", 0.0},
    {1, 14, 3, 1, 'i', {1.0}, "vertex 14, instance 0", "gl_BaseInstance", 0.0},
    {1, 14, 4, 1, 'i', {0.0}, "vertex 14, instance 0", "gl_DrawID", 0.0},
    {1, 14, 5, 2, 'i', {20.0, 1.0}, "vertex 14, instance 0", "attributes fetched (a_vertex, a_instance)", 0.0},
    {1, 15, 0, 1, 'i', {21.0}, "vertex 15, instance 0", "gl_VertexID", 0.0},
    {1, 15, 1, 1, 'i', {0.0}, "vertex 15, instance 0", "gl_InstanceID", 0.0},
    {1, 15, 2, 1, 'i', {0.0}, "vertex 15, instance 0", "gl_BaseVertex", 0.0},
    {1, 15, 3, 1, 'i', {1.0}, "vertex 15, instance 0", "gl_BaseInstance", 0.0},
    {1, 15, 4, 1, 'i', {0.0}, "vertex 15, instance 0", "gl_DrawID", 0.0},
    {1, 15, 5, 2, 'i', {21.0, 1.0}, "vertex 15, instance 0", "attributes fetched (a_vertex, a_instance)", 0.0},
    {1, 16, 0, 1, 'i', {22.0}, "vertex 16, instance 0", "gl_VertexID", 0.0},
    {1, 16, 1, 1, 'i', {0.0}, "vertex 16, instance 0", "gl_InstanceID", 0.0},
    {1, 16, 2, 1, 'i', {0.0}, "vertex 16, instance 0", "gl_BaseVertex", 0.0},
    {1, 16, 3, 1, 'i', {1.0}, "vertex 16, instance 0", "gl_BaseInstance", 0.0},
    {1, 16, 4, 1, 'i', {0.0}, "vertex 16, instance 0", "gl_DrawID", 0.0},
    {1, 16, 5, 2, 'i', {22.0, 1.0}, "vertex 16, instance 0", "attributes fetched (a_vertex, a_instance)", 0.0},
    {1, 17, 0, 1, 'i', {6.0}, "vertex 0, instance 1", "gl_VertexID", 0.0},
    {1, 17, 1, 1, 'i', {1.0}, "vertex 0, instance 1", "gl_InstanceID", 0.0},
    {1, 17, 2, 1, 'i', {0.0}, "vertex 0, instance 1", "gl_BaseVertex", 0.0},
    {1, 17, 3, 1, 'i', {1.0}, "vertex 0, instance 1", "gl_BaseInstance", 0.0},
    {1, 17, 4, 1, 'i', {0.0}, "vertex 0, instance 1", "gl_DrawID", 0.0},
    {1, 17, 5, 2, 'i', {6.0, 2.0}, "vertex 0, instance 1", "attributes fetched (a_vertex, a_instance)", 0.0},
    {1, 18, 0, 1, 'i', {7.0}, "vertex 1, instance 1", "gl_VertexID", 0.0},
    {1, 18, 1, 1, 'i', {1.0}, "vertex 1, instance 1", "gl_InstanceID", 0.0},
    {1, 18, 2, 1, 'i', {0.0}, "vertex 1, instance 1", "gl_BaseVertex", 0.0},
    {1, 18, 3, 1, 'i', {1.0}, "vertex 1, instance 1", "gl_BaseInstance", 0.0},
    {1, 18, 4, 1, 'i', {0.0}, "vertex 1, instance 1", "gl_DrawID", 0.0},
    {1, 18, 5, 2, 'i', {7.0, 2.0}, "vertex 1, instance 1", "attributes fetched (a_vertex, a_instance)", 0.0},
    {1, 19, 0, 1, 'i', {8.0}, "vertex 2, instance 1", "gl_VertexID", 0.0},
    {1, 19, 1, 1, 'i', {1.0}, "vertex 2, instance 1", "gl_InstanceID", 0.0},
    {1, 19, 2, 1, 'i', {0.0}, "vertex 2, instance 1", "gl_BaseVertex", 0.0},
    {1, 19, 3, 1, 'i', {1.0}, "vertex 2, instance 1", "gl_BaseInstance", 0.0},
    {1, 19, 4, 1, 'i', {0.0}, "vertex 2, instance 1", "gl_DrawID", 0.0},
    {1, 19, 5, 2, 'i', {8.0, 2.0}, "vertex 2, instance 1", "attributes fetched (a_vertex, a_instance)", 0.0},
    {1, 20, 0, 1, 'i', {9.0}, "vertex 3, instance 1", "gl_VertexID", 0.0},
    {1, 20, 1, 1, 'i', {1.0}, "vertex 3, instance 1", "gl_InstanceID", 0.0},
    {1, 20, 2, 1, 'i', {0.0}, "vertex 3, instance 1", "gl_BaseVertex", 0.0},
    {1, 20, 3, 1, 'i', {1.0}, "vertex 3, instance 1", "gl_BaseInstance", 0.0},
    {1, 20, 4, 1, 'i', {0.0}, "vertex 3, instance 1", "gl_DrawID", 0.0},
    {1, 20, 5, 2, 'i', {9.0, 2.0}, "vertex 3, instance 1", "attributes fetched (a_vertex, a_instance)", 0.0},
    {1, 21, 0, 1, 'i', {10.0}, "vertex 4, instance 1", "gl_VertexID", 0.0},
    {1, 21, 1, 1, 'i', {1.0}, "vertex 4, instance 1", "gl_InstanceID", 0.0},
    {1, 21, 2, 1, 'i', {0.0}, "vertex 4, instance 1", "gl_BaseVertex", 0.0},
    {1, 21, 3, 1, 'i', {1.0}, "vertex 4, instance 1", "gl_BaseInstance", 0.0},
    {1, 21, 4, 1, 'i', {0.0}, "vertex 4, instance 1", "gl_DrawID", 0.0},
    {1, 21, 5, 2, 'i', {10.0, 2.0}, "vertex 4, instance 1", "attributes fetched (a_vertex, a_instance)", 0.0},
    {1, 22, 0, 1, 'i', {11.0}, "vertex 5, instance 1", "gl_VertexID", 0.0},
    {1, 22, 1, 1, 'i', {1.0}, "vertex 5, instance 1", "gl_InstanceID", 0.0},
    {1, 22, 2, 1, 'i', {0.0}, "vertex 5, instance 1", "gl_BaseVertex", 0.0},
    {1, 22, 3, 1, 'i', {1.0}, "vertex 5, instance 1", "gl_BaseInstance", 0.0},
    {1, 22, 4, 1, 'i', {0.0}, "vertex 5, instance 1", "gl_DrawID", 0.0},
    {1, 22, 5, 2, 'i', {11.0, 2.0}, "vertex 5, instance 1", "attributes fetched (a_vertex, a_instance)", 0.0},
    {1, 23, 0, 1, 'i', {12.0}, "vertex 6, instance 1", "gl_VertexID", 0.0},
    {1, 23, 1, 1, 'i', {1.0}, "vertex 6, instance 1", "gl_InstanceID", 0.0},
    {1, 23, 2, 1, 'i', {0.0}, "vertex 6, instance 1", "gl_BaseVertex", 0.0},
    {1, 23, 3, 1, 'i', {1.0}, "vertex 6, instance 1", "gl_BaseInstance", 0.0},
    {1, 23, 4, 1, 'i', {0.0}, "vertex 6, instance 1", "gl_DrawID", 0.0},
    {1, 23, 5, 2, 'i', {12.0, 2.0}, "vertex 6, instance 1", "attributes fetched (a_vertex, a_instance)", 0.0},
    {1, 24, 0, 1, 'i', {13.0}, "vertex 7, instance 1", "gl_VertexID", 0.0},
    {1, 24, 1, 1, 'i', {1.0}, "vertex 7, instance 1", "gl_InstanceID", 0.0},
    {1, 24, 2, 1, 'i', {0.0}, "vertex 7, instance 1", "gl_BaseVertex", 0.0},
    {1, 24, 3, 1, 'i', {1.0}, "vertex 7, instance 1", "gl_BaseInstance", 0.0},
    {1, 24, 4, 1, 'i', {0.0}, "vertex 7, instance 1", "gl_DrawID", 0.0},
    {1, 24, 5, 2, 'i', {13.0, 2.0}, "vertex 7, instance 1", "attributes fetched (a_vertex, a_instance)", 0.0},
    {1, 25, 0, 1, 'i', {14.0}, "vertex 8, instance 1", "gl_VertexID", 0.0},
    {1, 25, 1, 1, 'i', {1.0}, "vertex 8, instance 1", "gl_InstanceID", 0.0},
    {1, 25, 2, 1, 'i', {0.0}, "vertex 8, instance 1", "gl_BaseVertex", 0.0},
    {1, 25, 3, 1, 'i', {1.0}, "vertex 8, instance 1", "gl_BaseInstance", 0.0},
    {1, 25, 4, 1, 'i', {0.0}, "vertex 8, instance 1", "gl_DrawID", 0.0},
    {1, 25, 5, 2, 'i', {14.0, 2.0}, "vertex 8, instance 1", "attributes fetched (a_vertex, a_instance)", 0.0},
    {1, 26, 0, 1, 'i', {15.0}, "vertex 9, instance 1", "gl_VertexID", 0.0},
    {1, 26, 1, 1, 'i', {1.0}, "vertex 9, instance 1", "gl_InstanceID", 0.0},
    {1, 26, 2, 1, 'i', {0.0}, "vertex 9, instance 1", "gl_BaseVertex", 0.0},
    {1, 26, 3, 1, 'i', {1.0}, "vertex 9, instance 1", "gl_BaseInstance", 0.0},
    {1, 26, 4, 1, 'i', {0.0}, "vertex 9, instance 1", "gl_DrawID", 0.0},
    {1, 26, 5, 2, 'i', {15.0, 2.0}, "vertex 9, instance 1", "attributes fetched (a_vertex, a_instance)", 0.0},
    {1, 27, 0, 1, 'i', {16.0}, "vertex 10, instance 1", "gl_VertexID", 0.0},
    {1, 27, 1, 1, 'i', {1.0}, "vertex 10, instance 1", "gl_InstanceID", 0.0},
    {1, 27, 2, 1, 'i', {0.0}, "vertex 10, instance 1", "gl_BaseVertex", 0.0},
    {1, 27, 3, 1, 'i', {1.0}, "vertex 10, instance 1", "gl_BaseInstance", 0.0},
    {1, 27, 4, 1, 'i', {0.0}, "vertex 10, instance 1", "gl_DrawID", 0.0},
    {1, 27, 5, 2, 'i', {16.0, 2.0}, "vertex 10, instance 1", "attributes fetched (a_vertex, a_instance)", 0.0},
    {1, 28, 0, 1, 'i', {17.0}, "vertex 11, instance 1", "gl_VertexID", 0.0},
    {1, 28, 1, 1, 'i', {1.0}, "vertex 11, instance 1", "gl_InstanceID", 0.0},
    {1, 28, 2, 1, 'i', {0.0}, "vertex 11, instance 1", "gl_BaseVertex", 0.0},
    {1, 28, 3, 1, 'i', {1.0}, "vertex 11, instance 1", "gl_BaseInstance", 0.0},
    {1, 28, 4, 1, 'i', {0.0}, "vertex 11, instance 1", "gl_DrawID", 0.0},
    {1, 28, 5, 2, 'i', {17.0, 2.0}, "vertex 11, instance 1", "attributes fetched (a_vertex, a_instance)", 0.0},
    {1, 29, 0, 1, 'i', {18.0}, "vertex 12, instance 1", "gl_VertexID", 0.0},
    {1, 29, 1, 1, 'i', {1.0}, "vertex 12, instance 1", "gl_InstanceID", 0.0},
    {1, 29, 2, 1, 'i', {0.0}, "vertex 12, instance 1", "gl_BaseVertex", 0.0},
    {1, 29, 3, 1, 'i', {1.0}, "vertex 12, instance 1", "gl_BaseInstance", 0.0},
    {1, 29, 4, 1, 'i', {0.0}, "vertex 12, instance 1", "gl_DrawID", 0.0},
    {1, 29, 5, 2, 'i', {18.0, 2.0}, "vertex 12, instance 1", "attributes fetched (a_vertex, a_instance)", 0.0},
    {1, 30, 0, 1, 'i', {19.0}, "vertex 13, instance 1", "gl_VertexID", 0.0},
    {1, 30, 1, 1, 'i', {1.0}, "vertex 13, instance 1", "gl_InstanceID", 0.0},
    {1, 30, 2, 1, 'i', {0.0}, "vertex 13, instance 1", "gl_BaseVertex", 0.0},
    {1, 30, 3, 1, 'i', {1.0}, "vertex 13, instance 1", "gl_BaseInstance", 0.0},
    {1, 30, 4, 1, 'i', {0.0}, "vertex 13, instance 1", "gl_DrawID", 0.0},
    {1, 30, 5, 2, 'i', {19.0, 2.0}, "vertex 13, instance 1", "attributes fetched (a_vertex, a_instance)", 0.0},
    {1, 31, 0, 1, 'i', {20.0}, "vertex 14, instance 1", "gl_VertexID", 0.0},
    {1, 31, 1, 1, 'i', {1.0}, "vertex 14, instance 1", "gl_InstanceID", 0.0},
    {1, 31, 2, 1, 'i', {0.0}, "vertex 14, instance 1", "gl_BaseVertex", 0.0},
    {1, 31, 3, 1, 'i', {1.0}, "vertex 14, instance 1", "gl_BaseInstance", 0.0},
    {1, 31, 4, 1, 'i', {0.0}, "vertex 14, instance 1", "gl_DrawID", 0.0},
    {1, 31, 5, 2, 'i', {20.0, 2.0}, "vertex 14, instance 1", "attributes fetched (a_vertex, a_instance)", 0.0},
    {1, 32, 0, 1, 'i', {21.0}, "vertex 15, instance 1", "gl_VertexID", 0.0},
    {1, 32, 1, 1, 'i', {1.0}, "vertex 15, instance 1", "gl_InstanceID", 0.0},
    {1, 32, 2, 1, 'i', {0.0}, "vertex 15, instance 1", "gl_BaseVertex", 0.0},
    {1, 32, 3, 1, 'i', {1.0}, "vertex 15, instance 1", "gl_BaseInstance", 0.0},
    {1, 32, 4, 1, 'i', {0.0}, "vertex 15, instance 1", "gl_DrawID", 0.0},
    {1, 32, 5, 2, 'i', {21.0, 2.0}, "vertex 15, instance 1", "attributes fetched (a_vertex, a_instance)", 0.0},
    {1, 33, 0, 1, 'i', {22.0}, "vertex 16, instance 1", "gl_VertexID", 0.0},
    {1, 33, 1, 1, 'i', {1.0}, "vertex 16, instance 1", "gl_InstanceID", 0.0},
    {1, 33, 2, 1, 'i', {0.0}, "vertex 16, instance 1", "gl_BaseVertex", 0.0},
    {1, 33, 3, 1, 'i', {1.0}, "vertex 16, instance 1", "gl_BaseInstance", 0.0},
    {1, 33, 4, 1, 'i', {0.0}, "vertex 16, instance 1", "gl_DrawID", 0.0},
    {1, 33, 5, 2, 'i', {22.0, 2.0}, "vertex 16, instance 1", "attributes fetched (a_vertex, a_instance)", 0.0},
    {-1, 0, 0, 0, 0, {0}, NULL, NULL, 0},
};

/* Core name first, then the ARB extension's (a 4.5 context's indirect-count draws). */
static void (*load(const char *name))(void)
{
    char arb[128];
    void (*found)(void) = eglGetProcAddress(name);
    snprintf(arb, sizeof(arb), "%sARB", name);
    return found ? found : eglGetProcAddress(arb);
}


static EGLDisplay open_display(void)
{
    /* REPRO_EGL_DEVICE=N: the N-th EGL device (the EGL device platform), else surfaceless. */
    PFNEGLGETPLATFORMDISPLAYEXTPROC get_display =
        (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
    PFNEGLQUERYDEVICESEXTPROC query_devices = (PFNEGLQUERYDEVICESEXTPROC)eglGetProcAddress("eglQueryDevicesEXT");
    const char *want = getenv("REPRO_EGL_DEVICE");
    EGLDeviceEXT devices[16];
    EGLint n = 0;
    if (!get_display)
        return EGL_NO_DISPLAY;
    if (!want)
        return get_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    if (!query_devices || !query_devices(16, devices, &n) || atoi(want) >= n) {
        fprintf(stderr, "no EGL device %s (%d devices)\n", want, n);
        return EGL_NO_DISPLAY;
    }
    return get_display(EGL_PLATFORM_DEVICE_EXT, devices[atoi(want)], NULL);
}

static int start(void)
{
    PFNEGLGETPLATFORMDISPLAYEXTPROC get_display =
        (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
    EGLDisplay display = open_display();
    if (display == EGL_NO_DISPLAY || !eglInitialize(display, NULL, NULL) || !eglBindAPI(EGL_OPENGL_API)) {
        fprintf(stderr, "no surfaceless EGL display (EGL error 0x%x)\n", eglGetError());
        return 0;
    }
    const EGLint attributes[] = {EGL_CONTEXT_MAJOR_VERSION, GL_MAJOR, EGL_CONTEXT_MINOR_VERSION, GL_MINOR,
                                 EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
    EGLContext context = eglCreateContext(display, (EGLConfig)0, EGL_NO_CONTEXT, attributes);
    if (context == EGL_NO_CONTEXT || !eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context)) {
        fprintf(stderr, "no GL %d.%d core context (EGL error 0x%x)\n", GL_MAJOR, GL_MINOR, eglGetError());
        return 0;
    }
    glGetError = (PFNGLGETERRORPROC)load("glGetError");
    glEnable = (PFNGLENABLEPROC)load("glEnable");
    glDisable = (PFNGLDISABLEPROC)load("glDisable");
    glGenFramebuffers = (PFNGLGENFRAMEBUFFERSPROC)load("glGenFramebuffers");
    glBindFramebuffer = (PFNGLBINDFRAMEBUFFERPROC)load("glBindFramebuffer");
    glGenRenderbuffers = (PFNGLGENRENDERBUFFERSPROC)load("glGenRenderbuffers");
    glBindRenderbuffer = (PFNGLBINDRENDERBUFFERPROC)load("glBindRenderbuffer");
    glRenderbufferStorage = (PFNGLRENDERBUFFERSTORAGEPROC)load("glRenderbufferStorage");
    glFramebufferRenderbuffer = (PFNGLFRAMEBUFFERRENDERBUFFERPROC)load("glFramebufferRenderbuffer");
    glCheckFramebufferStatus = (PFNGLCHECKFRAMEBUFFERSTATUSPROC)load("glCheckFramebufferStatus");
    glViewport = (PFNGLVIEWPORTPROC)load("glViewport");
    glCreateShader = (PFNGLCREATESHADERPROC)load("glCreateShader");
    glShaderSource = (PFNGLSHADERSOURCEPROC)load("glShaderSource");
    glCompileShader = (PFNGLCOMPILESHADERPROC)load("glCompileShader");
    glGetShaderiv = (PFNGLGETSHADERIVPROC)load("glGetShaderiv");
    glGetShaderInfoLog = (PFNGLGETSHADERINFOLOGPROC)load("glGetShaderInfoLog");
    glCreateProgram = (PFNGLCREATEPROGRAMPROC)load("glCreateProgram");
    glAttachShader = (PFNGLATTACHSHADERPROC)load("glAttachShader");
    glBindAttribLocation = (PFNGLBINDATTRIBLOCATIONPROC)load("glBindAttribLocation");
    glTransformFeedbackVaryings = (PFNGLTRANSFORMFEEDBACKVARYINGSPROC)load("glTransformFeedbackVaryings");
    glLinkProgram = (PFNGLLINKPROGRAMPROC)load("glLinkProgram");
    glGetProgramiv = (PFNGLGETPROGRAMIVPROC)load("glGetProgramiv");
    glGetProgramInfoLog = (PFNGLGETPROGRAMINFOLOGPROC)load("glGetProgramInfoLog");
    glUseProgram = (PFNGLUSEPROGRAMPROC)load("glUseProgram");
    glDeleteProgram = (PFNGLDELETEPROGRAMPROC)load("glDeleteProgram");
    glGenVertexArrays = (PFNGLGENVERTEXARRAYSPROC)load("glGenVertexArrays");
    glBindVertexArray = (PFNGLBINDVERTEXARRAYPROC)load("glBindVertexArray");
    glGenBuffers = (PFNGLGENBUFFERSPROC)load("glGenBuffers");
    glBindBuffer = (PFNGLBINDBUFFERPROC)load("glBindBuffer");
    glBufferData = (PFNGLBUFFERDATAPROC)load("glBufferData");
    glBindBufferBase = (PFNGLBINDBUFFERBASEPROC)load("glBindBufferBase");
    glVertexAttribPointer = (PFNGLVERTEXATTRIBPOINTERPROC)load("glVertexAttribPointer");
    glVertexAttribIPointer = (PFNGLVERTEXATTRIBIPOINTERPROC)load("glVertexAttribIPointer");
    glVertexAttribDivisor = (PFNGLVERTEXATTRIBDIVISORPROC)load("glVertexAttribDivisor");
    glEnableVertexAttribArray = (PFNGLENABLEVERTEXATTRIBARRAYPROC)load("glEnableVertexAttribArray");
    glGenQueries = (PFNGLGENQUERIESPROC)load("glGenQueries");
    glBeginQuery = (PFNGLBEGINQUERYPROC)load("glBeginQuery");
    glEndQuery = (PFNGLENDQUERYPROC)load("glEndQuery");
    glGetQueryObjectuiv = (PFNGLGETQUERYOBJECTUIVPROC)load("glGetQueryObjectuiv");
    glBeginTransformFeedback = (PFNGLBEGINTRANSFORMFEEDBACKPROC)load("glBeginTransformFeedback");
    glEndTransformFeedback = (PFNGLENDTRANSFORMFEEDBACKPROC)load("glEndTransformFeedback");
    glGetBufferSubData = (PFNGLGETBUFFERSUBDATAPROC)load("glGetBufferSubData");
    glPrimitiveRestartIndex = (PFNGLPRIMITIVERESTARTINDEXPROC)load("glPrimitiveRestartIndex");
    glPatchParameteri = (PFNGLPATCHPARAMETERIPROC)load("glPatchParameteri");
    glPatchParameterfv = (PFNGLPATCHPARAMETERFVPROC)load("glPatchParameterfv");
    glDrawArrays = (PFNGLDRAWARRAYSPROC)load("glDrawArrays");
    glDrawArraysInstanced = (PFNGLDRAWARRAYSINSTANCEDPROC)load("glDrawArraysInstanced");
    glDrawArraysInstancedBaseInstance = (PFNGLDRAWARRAYSINSTANCEDBASEINSTANCEPROC)load("glDrawArraysInstancedBaseInstance");
    glDrawElements = (PFNGLDRAWELEMENTSPROC)load("glDrawElements");
    glDrawRangeElements = (PFNGLDRAWRANGEELEMENTSPROC)load("glDrawRangeElements");
    glDrawElementsBaseVertex = (PFNGLDRAWELEMENTSBASEVERTEXPROC)load("glDrawElementsBaseVertex");
    glDrawRangeElementsBaseVertex = (PFNGLDRAWRANGEELEMENTSBASEVERTEXPROC)load("glDrawRangeElementsBaseVertex");
    glDrawElementsInstanced = (PFNGLDRAWELEMENTSINSTANCEDPROC)load("glDrawElementsInstanced");
    glDrawElementsInstancedBaseVertex = (PFNGLDRAWELEMENTSINSTANCEDBASEVERTEXPROC)load("glDrawElementsInstancedBaseVertex");
    glDrawElementsInstancedBaseInstance = (PFNGLDRAWELEMENTSINSTANCEDBASEINSTANCEPROC)load("glDrawElementsInstancedBaseInstance");
    glDrawElementsInstancedBaseVertexBaseInstance = (PFNGLDRAWELEMENTSINSTANCEDBASEVERTEXBASEINSTANCEPROC)load("glDrawElementsInstancedBaseVertexBaseInstance");
    glMultiDrawArrays = (PFNGLMULTIDRAWARRAYSPROC)load("glMultiDrawArrays");
    glMultiDrawElements = (PFNGLMULTIDRAWELEMENTSPROC)load("glMultiDrawElements");
    glMultiDrawElementsBaseVertex = (PFNGLMULTIDRAWELEMENTSBASEVERTEXPROC)load("glMultiDrawElementsBaseVertex");
    glDrawArraysIndirect = (PFNGLDRAWARRAYSINDIRECTPROC)load("glDrawArraysIndirect");
    glDrawElementsIndirect = (PFNGLDRAWELEMENTSINDIRECTPROC)load("glDrawElementsIndirect");
    glMultiDrawArraysIndirect = (PFNGLMULTIDRAWARRAYSINDIRECTPROC)load("glMultiDrawArraysIndirect");
    glMultiDrawElementsIndirect = (PFNGLMULTIDRAWELEMENTSINDIRECTPROC)load("glMultiDrawElementsIndirect");
    glMultiDrawArraysIndirectCount = (PFNGLMULTIDRAWARRAYSINDIRECTCOUNTPROC)load("glMultiDrawArraysIndirectCount");
    glMultiDrawElementsIndirectCount = (PFNGLMULTIDRAWELEMENTSINDIRECTCOUNTPROC)load("glMultiDrawElementsIndirectCount");
    const GLubyte *(APIENTRY *get_string)(GLenum) =
        (const GLubyte *(APIENTRY *)(GLenum))eglGetProcAddress("glGetString");
    fprintf(stderr, "GL_RENDERER: %s; GL_VERSION: %s\n", get_string(GL_RENDERER), get_string(GL_VERSION));
    /* as the harness's context: a 32x32 RGBA8 framebuffer (a surfaceless context has none) */
    GLuint framebuffer, renderbuffer;
    glGenFramebuffers(1, &framebuffer); glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
    glGenRenderbuffers(1, &renderbuffer); glBindRenderbuffer(GL_RENDERBUFFER, renderbuffer);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, 32, 32);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, renderbuffer);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
        fprintf(stderr, "no complete 32x32 RGBA8 framebuffer\n");
        return 0;
    }
    glViewport(0, 0, 32, 32);
    return 1;
}

static GLuint link_program(const struct shader *shaders)
{
    GLuint program = glCreateProgram();
    char log[4096];
    GLint ok;
    for (; shaders->source; shaders++) {
        GLuint shader = glCreateShader(shaders->type);
        glShaderSource(shader, 1, &shaders->source, NULL);
        glCompileShader(shader);
        glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
        if (!ok) {
            glGetShaderInfoLog(shader, sizeof(log), NULL, log);
            fprintf(stderr, "a shader failed to compile:\n%s\n", log);
            return 0;
        }
        glAttachShader(program, shader);
    }
    for (const struct binding *b = bindings; b->name; b++)
        glBindAttribLocation(program, b->location, b->name);
    glTransformFeedbackVaryings(program, sizeof(varyings) / sizeof(varyings[0]), varyings, GL_INTERLEAVED_ATTRIBS);
    glLinkProgram(program);
    glGetProgramiv(program, GL_LINK_STATUS, &ok);
    if (!ok) {
        glGetProgramInfoLog(program, sizeof(log), NULL, log);
        fprintf(stderr, "the program failed to link:\n%s\n", log);
        return 0;
    }
    return program;
}

static GLuint xfb, queries[2];

static void begin_step(void)
{
    glGenBuffers(1, &xfb);
    glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, xfb);
    glBufferData(GL_TRANSFORM_FEEDBACK_BUFFER, RECORD_BYTES * MAX_RECORDS, NULL, GL_STATIC_READ);
    glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, xfb);
    glEnable(GL_RASTERIZER_DISCARD);
    glGenQueries(2, queries);
    glBeginQuery(GL_PRIMITIVES_GENERATED, queries[0]);
    glBeginQuery(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, queries[1]);
    glBeginTransformFeedback(XFB_PRIMITIVE);
}

static int same(char kind, const unsigned char *at, double expected, double tolerance, double *seen)
{
    if (kind == 'i') { GLint v; memcpy(&v, at, 4); *seen = v; return v == (long long)expected; }
    if (kind == 'u') { GLuint v; memcpy(&v, at, 4); *seen = v; return v == (long long)expected; }
    GLfloat v; memcpy(&v, at, 4); *seen = v;
    return (v > expected ? v - expected : expected - v) <= tolerance;
}

static void show(const double *values, int n)
{
    if (n > 1) printf("(");
    for (int i = 0; i < n; i++) printf(i ? ", %g" : "%g", values[i]);
    if (n > 1) printf(")");
}

/* Ends the step's capture and compares it: 1 when it holds what the harness expects. */
static int end_step(int step, const char *label)
{
    glEndTransformFeedback();
    glEndQuery(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN);
    glEndQuery(GL_PRIMITIVES_GENERATED);
    glDisable(GL_RASTERIZER_DISCARD);
    long long counts[3];
    GLuint value;
    glGetQueryObjectuiv(queries[0], GL_QUERY_RESULT, &value); counts[0] = value;
    glGetQueryObjectuiv(queries[1], GL_QUERY_RESULT, &value); counts[1] = value;
    counts[2] = counts[1] * XFB_VERTICES;
    long long records = counts[2] < MAX_RECORDS ? counts[2] : MAX_RECORDS;
    unsigned char *data = calloc(records ? records : 1, RECORD_BYTES);
    if (records)
        glGetBufferSubData(GL_TRANSFORM_FEEDBACK_BUFFER, 0, records * RECORD_BYTES, data);
    int ok = 1;
    for (const struct count_check *c = count_checks; ok && c->step >= 0; c++)
        if (c->step == step && counts[c->which] != c->value) {
            printf("FAIL %s: %s = %lld, expected %lld\n", label, c->name, counts[c->which], c->value);
            ok = 0;
        }
    for (const struct length_check *c = length_checks; ok && c->step >= 0; c++)
        if (c->step == step && records != c->records) {
            printf("FAIL %s: %lld records captured, expected %d\n", label, records, c->records);
            ok = 0;
        }
    for (const struct record_check *c = record_checks; ok && c->step >= 0; c++) {
        if (c->step != step || c->record >= records)
            continue;
        double seen[4];
        int equal = 1;
        for (int i = 0; i < c->n; i++)
            equal &= same(c->kind, data + c->record * RECORD_BYTES + 4 * (c->word + i), c->value[i],
                          c->tolerance, &seen[i]);
        if (!equal) {
            printf("FAIL %s, %s: %s = ", label, c->label, c->quantity);
            show(seen, c->n);
            printf(", expected ");
            show(c->value, c->n);
            printf("\n");
            ok = 0;
        }
    }
    free(data);
    GLenum error = glGetError();
    if (ok && error != GL_NO_ERROR) {
        printf("FAIL %s: GL error 0x%x\n", label, error);
        ok = 0;
    }
    return ok;
}

int main(void)
{
    GLuint progs[1];
    if (!start()) return 2;
    for (unsigned p = 0; p < sizeof(programs) / sizeof(programs[0]); p++)
        if (!(progs[p] = link_program(programs[p]))) return 2;
    GLuint vao, buffer;
    glGenVertexArrays(1, &vao); glBindVertexArray(vao);
    glGenBuffers(1, &buffer); glBindBuffer(GL_ARRAY_BUFFER, buffer);
    glBufferData(GL_ARRAY_BUFFER, sizeof(attribute0), attribute0, GL_STATIC_DRAW);
    glVertexAttribPointer(0, 1, GL_FLOAT, GL_FALSE, 0, NULL);
    glVertexAttribDivisor(0, 0); glEnableVertexAttribArray(0);
    glGenBuffers(1, &buffer); glBindBuffer(GL_ARRAY_BUFFER, buffer);
    glBufferData(GL_ARRAY_BUFFER, sizeof(attribute1), attribute1, GL_STATIC_DRAW);
    glVertexAttribPointer(1, 1, GL_FLOAT, GL_FALSE, 0, NULL);
    glVertexAttribDivisor(1, 1); glEnableVertexAttribArray(1);
    glGenBuffers(1, &buffer); glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, buffer);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, sizeof(indices), indices, GL_STATIC_DRAW);
    glUseProgram(progs[0]);
    /* step 0: draw 0 (glMultiDrawElementsIndirectCount) */
    begin_step();
    { static const unsigned char commands[] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
      glGenBuffers(1, &buffer); glBindBuffer(GL_DRAW_INDIRECT_BUFFER, buffer);
      glBufferData(GL_DRAW_INDIRECT_BUFFER, sizeof(commands), commands, GL_STATIC_DRAW); }
    { const GLuint parameters[2] = {0u, 0u};
      glGenBuffers(1, &buffer); glBindBuffer(GL_PARAMETER_BUFFER, buffer);
      glBufferData(GL_PARAMETER_BUFFER, sizeof(parameters), parameters, GL_STATIC_DRAW); }
    glMultiDrawElementsIndirectCount(GL_POINTS, GL_UNSIGNED_SHORT, (const void *)0, 4, 0, 36);
    glDisable(GL_PRIMITIVE_RESTART);
    if (!end_step(0, "draw 0 (glMultiDrawElementsIndirectCount)")) return 1;
    /* step 1: draw 1 (glDrawArraysIndirect) */
    begin_step();
    { static const unsigned char commands[] = {17, 0, 0, 0, 2, 0, 0, 0, 6, 0, 0, 0, 1, 0, 0, 0};
      glGenBuffers(1, &buffer); glBindBuffer(GL_DRAW_INDIRECT_BUFFER, buffer);
      glBufferData(GL_DRAW_INDIRECT_BUFFER, sizeof(commands), commands, GL_STATIC_DRAW); }
    glDrawArraysIndirect(GL_POINTS, (const void *)0);
    glDisable(GL_PRIMITIVE_RESTART);
    if (!end_step(1, "draw 1 (glDrawArraysIndirect)")) return 1;
    /* step 2: draw 2 (glDrawRangeElements) */
    begin_step();
    glDrawRangeElements(GL_POINTS, 0, 0, 0, GL_UNSIGNED_SHORT, (const void *)18);
    glDisable(GL_PRIMITIVE_RESTART);
    if (!end_step(2, "draw 2 (glDrawRangeElements)")) return 1;
    puts("PASS");
    return 0;
}
