"""A case as a standalone C program (`harness export --format c`), for the cases piglit's
shader_runner cannot express (multi-draws, indirect draws, draw sequences): EGL surfaceless and a
GL core context through eglGetProcAddress, nothing else (`cc repro.c -lEGL -o repro`).

It draws the case as the GL backend does (harness/backends/gl/runner.py, draws.py): the programs
with the captures as interleaved transform-feedback varyings, the vertex arrays and element
array, per draw its state, the primitives-generated and primitives-written queries and transform
feedback with rasterization discarded. After each draw it compares the counts and the captured
records with the expected values the harness computed, embedded as data (the oracle stays in the
harness), and prints `PASS` or the first mismatch, as the harness's verdict words it; exit 0 or 1
(2 when the context or the program cannot be made).
"""
from __future__ import annotations

import json

from harness.backends import indirect_commands
from harness.model.case import CAPTURE_TYPES, Case, Draw, DrawState

# What a context's observations are named in expectations, and where the program keeps them.
COUNTS = {"primitives_generated": 0, "xfb_primitives_written": 1, "xfb_vertices": 2}
XFB_VERTICES = {"POINTS": 1, "LINES": 2, "TRIANGLES": 3}
GL_STAGES = {"vs": "GL_VERTEX_SHADER", "tcs": "GL_TESS_CONTROL_SHADER", "tes": "GL_TESS_EVALUATION_SHADER",
             "gs": "GL_GEOMETRY_SHADER", "fs": "GL_FRAGMENT_SHADER"}
INDEX_C = {"UNSIGNED_BYTE": "GLubyte", "UNSIGNED_SHORT": "GLushort", "UNSIGNED_INT": "GLuint"}
INDEX_SIZE = {"UNSIGNED_BYTE": 1, "UNSIGNED_SHORT": 2, "UNSIGNED_INT": 4}


class Unsupported(ValueError):
    """The case uses something the C program does not write; one line for the user."""


def _c(text: str) -> str:
    """A C string literal (JSON's escapes are C's for these characters)."""
    return json.dumps(text)


def unsupported(case: Case) -> str:
    """Why the case cannot be written as a C program, or ''."""
    rb = case.readback
    if case.separable or case.requires.profile != "core" or case.requires.link_failure_allowed:
        return "separable programs, the compatibility profile and link failures are not written"
    if rb.image or rb.atomic_counters or rb.gl_error or not rb.captures:
        return "only transform-feedback readback is written (no image, counters or GL errors)"
    if any(not isinstance(step, Draw) for step in case.steps):
        return "only Draw steps are written"
    bare = DrawState()
    for step in case.steps:
        s = step.state
        if (s.uniforms, s.textures, s.storage_buffers, s.clip_planes, s.polygon_mode, s.front_face,
                s.projection, s.provoking_vertex) != (bare.uniforms, bare.textures, bare.storage_buffers,
                                                       bare.clip_planes, bare.polygon_mode, bare.front_face,
                                                       bare.projection, bare.provoking_vertex):
            return f"{step.label or step.command}: only patch parameters and enables are written"
    if any(a.array for a in case.attributes):
        return "compatibility arrays are not written"
    for e in case.expect:
        if e.groups or e.value_sets or e.tess_coord or e.pixels or e.probes or e.queries or e.storage:
            return "only counts and records in capture order (sequence) are checked"
        if any(name not in COUNTS for name, _ in e.counts):
            return f"count {next(n for n, _ in e.counts if n not in COUNTS)!r} is not read"
    return ""


def program(case: Case) -> str:
    why = unsupported(case)
    if why:
        raise Unsupported(f"--format c: case {case.id}: {why}")
    return "\n".join([_head(case), _data(case), _checks(case), RUNTIME, _main(case)]) + "\n"


def _head(case: Case) -> str:
    major, minor = case.requires.gl_version
    return (f"/* {case.id}\n * {case.description}\n * Written by `python -m harness export --format c`: "
            f"the expected values are the harness's.\n * Build: cc repro.c -lEGL -o repro; run: ./repro "
            f"(exit 0 PASS, 1 a mismatch, 2 no context or program). */\n"
            f"#define GL_MAJOR {major}\n#define GL_MINOR {minor}\n" + PRELUDE)


def _data(case: Case) -> str:
    out = []
    programs = (case.shaders,) + case.programs
    for p, shaders in enumerate(programs):
        out.append(f"static const struct shader program{p}[] = {{")
        out += [f"    {{{GL_STAGES[stage]}, {_c(source)}}}," for stage, source in shaders]
        out.append("    {0, NULL},\n};")
    out.append("static const struct shader *programs[] = {" + ", ".join(f"program{p}" for p in range(len(programs)))
               + "};")
    out.append("static const char *varyings[] = {" + ", ".join(_c(c.varying) for c in case.readback.captures) + "};")
    out.append("static const struct binding bindings[] = {"
               + "".join(f"{{{a.location}, {_c(a.name)}}}, " for a in case.attributes if a.name) + "{-1, NULL}};")
    stride = sum(4 * CAPTURE_TYPES[c.type][1] for c in case.readback.captures)
    out.append(f"#define RECORD_BYTES {stride}\n#define MAX_RECORDS {case.readback.max_records}\n"
               f"#define XFB_PRIMITIVE GL_{case.readback.xfb_primitive}\n"
               f"#define XFB_VERTICES {XFB_VERTICES[case.readback.xfb_primitive]}")
    for i, a in enumerate(case.attributes):
        ctype = {"int": "GLint", "uint": "GLuint"}.get(a.type, "GLfloat")
        values = ", ".join(str(int(v)) if ctype != "GLfloat" else repr(float(v)) for v in a.data) or "0"
        out.append(f"static const {ctype} attribute{i}[] = {{{values}}};")
    if case.indices:
        out.append(f"static const {INDEX_C[case.index_type]} indices[] = {{{', '.join(map(str, case.indices))}}};")
    return "\n".join(out)


def _checks(case: Case) -> str:
    """The expected counts and record values, one row per compared component group."""
    offsets, at = {}, 0
    for cap in case.readback.captures:
        offsets[cap.quantity] = (at, cap.type)
        at += CAPTURE_TYPES[cap.type][1]
    counts, records, lengths = [], [], []
    for e in case.expect:
        counts += [f"    {{{e.step}, {COUNTS[name]}, {_c(name)}, {int(value)}LL}}," for name, value in e.counts]
        if e.sequence:
            lengths.append(f"    {{{e.step}, {len(e.sequence)}}},")
        for r, record in enumerate(e.sequence):
            for quantity, value in record.values:
                if quantity not in offsets:
                    continue                       # not captured: the verdict leaves it out too
                word, ctype = offsets[quantity]
                values = list(value) if isinstance(value, (list, tuple)) else [value]
                kind = CAPTURE_TYPES[ctype][0][0]           # i, u or f
                out = ", ".join(repr(float(v)) for v in values)
                records.append(f"    {{{e.step}, {r}, {word}, {len(values)}, '{kind}', {{{out}}}, "
                               f"{_c(record.label)}, {_c(quantity)}, {e.tolerance!r}}},")
    return "\n".join(["static const struct count_check count_checks[] = {", *counts, "    {-1, 0, NULL, 0},\n};",
                      "static const struct length_check length_checks[] = {", *lengths, "    {-1, 0},\n};",
                      "static const struct record_check record_checks[] = {", *records,
                      "    {-1, 0, 0, 0, 0, {0}, NULL, NULL, 0},\n};"])


def _main(case: Case) -> str:
    body = ["int main(void)\n{", "    GLuint progs[%d];" % (len(case.programs) + 1),
            "    if (!start()) return 2;",
            "    for (unsigned p = 0; p < sizeof(programs) / sizeof(programs[0]); p++)",
            "        if (!(progs[p] = link_program(programs[p]))) return 2;",
            "    GLuint vao, buffer;", "    glGenVertexArrays(1, &vao); glBindVertexArray(vao);"]
    for i, a in enumerate(case.attributes):
        body.append("    glGenBuffers(1, &buffer); glBindBuffer(GL_ARRAY_BUFFER, buffer);")
        body.append(f"    glBufferData(GL_ARRAY_BUFFER, sizeof(attribute{i}), attribute{i}, GL_STATIC_DRAW);")
        if a.type in ("int", "uint"):
            gltype = "GL_INT" if a.type == "int" else "GL_UNSIGNED_INT"
            body.append(f"    glVertexAttribIPointer({a.location}, {a.components}, {gltype}, 0, NULL);")
        else:
            body.append(f"    glVertexAttribPointer({a.location}, {a.components}, GL_FLOAT, GL_FALSE, 0, NULL);")
        body.append(f"    glVertexAttribDivisor({a.location}, {a.divisor}); glEnableVertexAttribArray({a.location});")
    if case.indices:
        body += ["    glGenBuffers(1, &buffer); glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, buffer);",
                 "    glBufferData(GL_ELEMENT_ARRAY_BUFFER, sizeof(indices), indices, GL_STATIC_DRAW);"]
    body.append("    glUseProgram(progs[0]);")
    current = 0
    for i, draw in enumerate(case.steps):
        body.append(f"    /* step {i}: {draw.label} */")
        for p in draw.delete_programs:
            body.append(f"    glDeleteProgram(progs[{p}]);")
        if draw.program != current:
            body.append(f"    glUseProgram(progs[{draw.program}]);")
            current = draw.program
        body += _state(draw.state, "glEnable")
        body.append("    begin_step();")
        if draw.restart_index is not None:
            body.append(f"    glEnable(GL_PRIMITIVE_RESTART); glPrimitiveRestartIndex({draw.restart_index}u);")
        body += _issue(case, draw)
        body.append("    glDisable(GL_PRIMITIVE_RESTART);")
        body.append(f"    if (!end_step({i}, {_c(draw.label or 'draw ' + str(i))})) return 1;")
        body += [line.replace("glEnable(", "glDisable(") for line in _state(draw.state, "glEnable")
                 if "glEnable(" in line]
    body += ['    puts("PASS");', "    return 0;", "}"]
    return "\n".join(body)


def _state(state: DrawState, enable: str) -> list[str]:
    lines = []
    if state.patch_vertices is not None:
        lines.append(f"    glPatchParameteri(GL_PATCH_VERTICES, {state.patch_vertices});")
    if state.default_outer is not None:
        lines.append("    { const GLfloat v[4] = {%s}; glPatchParameterfv(GL_PATCH_DEFAULT_OUTER_LEVEL, v); }"
                     % ", ".join(map(repr, map(float, state.default_outer))))
    if state.default_inner is not None:
        lines.append("    { const GLfloat v[2] = {%s}; glPatchParameterfv(GL_PATCH_DEFAULT_INNER_LEVEL, v); }"
                     % ", ".join(map(repr, map(float, state.default_inner))))
    lines += [f"    {enable}(GL_{cap});" for cap in state.enable]
    return lines


def _issue(case: Case, draw: Draw) -> list[str]:
    """The draw call, with the arguments harness/backends/gl/draws.py passes."""
    mode, itype, size = f"GL_{draw.mode}", f"GL_{case.index_type}", INDEX_SIZE[case.index_type]
    command, entries, n = draw.command, draw.entries, len(draw.entries)
    ints = lambda values: "{" + ", ".join(str(int(v)) for v in values) + "}"     # noqa: E731
    if command.startswith("Multi") and "Indirect" not in command:
        counts = f"const GLsizei counts[] = {ints([e.count for e in entries] or [0])};"
        if command == "MultiDrawArrays":
            return [f"    {{ {counts} const GLint firsts[] = {ints([e.first for e in entries] or [0])};",
                    f"      glMultiDrawArrays({mode}, firsts, counts, {n}); }}"]
        offsets = "const void *offsets[] = {" + ", ".join(f"(const void *){e.first * size}" for e in entries) + "};"
        if not entries:
            offsets = "const void *offsets[] = {NULL};"
        if command == "MultiDrawElements":
            return [f"    {{ {counts} {offsets}", f"      glMultiDrawElements({mode}, counts, {itype}, offsets, {n}); }}"]
        bases = f"const GLint bases[] = {ints([e.base_vertex for e in entries] or [0])};"
        return [f"    {{ {counts} {offsets} {bases}",
                f"      glMultiDrawElementsBaseVertex({mode}, counts, {itype}, offsets, {n}, bases); }}"]
    if "Indirect" in command:
        data, _ = indirect_commands(draw)
        lines = ["    { static const unsigned char commands[] = {" + ", ".join(map(str, data)) + "};",
                 "      glGenBuffers(1, &buffer); glBindBuffer(GL_DRAW_INDIRECT_BUFFER, buffer);",
                 "      glBufferData(GL_DRAW_INDIRECT_BUFFER, sizeof(commands), commands, GL_STATIC_DRAW); }"]
        where, stride = f"(const void *){draw.indirect_offset}", draw.indirect_stride
        calls = {
            "DrawArraysIndirect": f"glDrawArraysIndirect({mode}, {where});",
            "DrawElementsIndirect": f"glDrawElementsIndirect({mode}, {itype}, {where});",
            "MultiDrawArraysIndirect": f"glMultiDrawArraysIndirect({mode}, {where}, {n}, {stride});",
            "MultiDrawElementsIndirect": f"glMultiDrawElementsIndirect({mode}, {itype}, {where}, {n}, {stride});",
            "MultiDrawArraysIndirectCount": f"glMultiDrawArraysIndirectCount({mode}, {where}, 4, {n}, {stride});",
            "MultiDrawElementsIndirectCount":
                f"glMultiDrawElementsIndirectCount({mode}, {itype}, {where}, 4, {n}, {stride});"}
        if command.endswith("Count"):        # the count at byte 4 of the parameter buffer
            lines += [f"    {{ const GLuint parameters[2] = {{0xDEADBEEFu, {draw.draw_count}u}};",
                      "      glGenBuffers(1, &buffer); glBindBuffer(GL_PARAMETER_BUFFER, buffer);",
                      "      glBufferData(GL_PARAMETER_BUFFER, sizeof(parameters), parameters, GL_STATIC_DRAW); }"]
        return lines + ["    " + calls[command]]
    (e,) = entries
    offset = f"(const void *){e.first * size}"
    used = case.indices[e.first:e.first + e.count] or (0,)
    start, end = min(used), max(used)
    calls = {
        "DrawArrays": f"glDrawArrays({mode}, {e.first}, {e.count});",
        "DrawArraysInstanced": f"glDrawArraysInstanced({mode}, {e.first}, {e.count}, {e.instance_count});",
        "DrawArraysInstancedBaseInstance": f"glDrawArraysInstancedBaseInstance({mode}, {e.first}, {e.count}, "
                                           f"{e.instance_count}, {e.base_instance});",
        "DrawElements": f"glDrawElements({mode}, {e.count}, {itype}, {offset});",
        "DrawRangeElements": f"glDrawRangeElements({mode}, {start}, {end}, {e.count}, {itype}, {offset});",
        "DrawElementsBaseVertex": f"glDrawElementsBaseVertex({mode}, {e.count}, {itype}, {offset}, {e.base_vertex});",
        "DrawRangeElementsBaseVertex": f"glDrawRangeElementsBaseVertex({mode}, {start}, {end}, {e.count}, {itype}, "
                                       f"{offset}, {e.base_vertex});",
        "DrawElementsInstanced": f"glDrawElementsInstanced({mode}, {e.count}, {itype}, {offset}, {e.instance_count});",
        "DrawElementsInstancedBaseVertex": f"glDrawElementsInstancedBaseVertex({mode}, {e.count}, {itype}, {offset}, "
                                           f"{e.instance_count}, {e.base_vertex});",
        "DrawElementsInstancedBaseInstance": f"glDrawElementsInstancedBaseInstance({mode}, {e.count}, {itype}, "
                                             f"{offset}, {e.instance_count}, {e.base_instance});",
        "DrawElementsInstancedBaseVertexBaseInstance":
            f"glDrawElementsInstancedBaseVertexBaseInstance({mode}, {e.count}, {itype}, {offset}, "
            f"{e.instance_count}, {e.base_vertex}, {e.base_instance});"}
    if command not in calls:
        raise Unsupported(f"--format c: unknown draw command gl{command}")
    return ["    " + calls[command]]


# Every GL entry point the programs may call, loaded through eglGetProcAddress.
FUNCTIONS = """\
GetError Enable Disable GenFramebuffers BindFramebuffer GenRenderbuffers BindRenderbuffer
RenderbufferStorage FramebufferRenderbuffer CheckFramebufferStatus Viewport CreateShader ShaderSource CompileShader GetShaderiv GetShaderInfoLog CreateProgram
AttachShader BindAttribLocation TransformFeedbackVaryings LinkProgram GetProgramiv GetProgramInfoLog UseProgram
DeleteProgram GenVertexArrays BindVertexArray GenBuffers BindBuffer BufferData BindBufferBase VertexAttribPointer
VertexAttribIPointer VertexAttribDivisor EnableVertexAttribArray GenQueries BeginQuery EndQuery
GetQueryObjectuiv BeginTransformFeedback EndTransformFeedback GetBufferSubData PrimitiveRestartIndex
PatchParameteri PatchParameterfv DrawArrays DrawArraysInstanced DrawArraysInstancedBaseInstance DrawElements
DrawRangeElements DrawElementsBaseVertex DrawRangeElementsBaseVertex DrawElementsInstanced
DrawElementsInstancedBaseVertex DrawElementsInstancedBaseInstance DrawElementsInstancedBaseVertexBaseInstance
MultiDrawArrays MultiDrawElements MultiDrawElementsBaseVertex DrawArraysIndirect DrawElementsIndirect
MultiDrawArraysIndirect MultiDrawElementsIndirect MultiDrawArraysIndirectCount
MultiDrawElementsIndirectCount""".split()

PRELUDE = r"""#include <EGL/egl.h>
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
""" + "".join(f"static PFNGL{name.upper()}PROC gl{name};\n" for name in FUNCTIONS)

RUNTIME = r"""
/* Core name first, then the ARB extension's (a 4.5 context's indirect-count draws). */
static void (*load(const char *name))(void)
{
    char arb[128];
    void (*found)(void) = eglGetProcAddress(name);
    snprintf(arb, sizeof(arb), "%sARB", name);
    return found ? found : eglGetProcAddress(arb);
}

"""  + r"""static int start(void)
{
    PFNEGLGETPLATFORMDISPLAYEXTPROC get_display =
        (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
    EGLDisplay display = get_display ? get_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL)
                                     : EGL_NO_DISPLAY;
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
""" + "".join(f"    gl{n} = (PFNGL{n.upper()}PROC)load(\"gl{n}\");\n" for n in FUNCTIONS) + r"""    const GLubyte *(APIENTRY *get_string)(GLenum) =
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
"""
