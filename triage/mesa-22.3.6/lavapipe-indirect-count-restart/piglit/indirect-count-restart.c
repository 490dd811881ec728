/*
 * draw_params/explore/v1-k0as11.ak1as36.1.aa4.1.m3x0zz.0.t.0zz.s14.f.450z
 * draw parameters through glMultiDrawElementsIndirectCount, GLSL 450, vs chain (explored; as the family names it: draw_params/MultiDrawElementsIndirectCount/uint/restart/f0c4i1bv0bi0/off0-stride0/count1/glsl450/vs)
 *
 * Exported by gl-layer-harness (`python -m harness export --format piglit`): the
 * expected values are the harness's oracle's, computed when the test was written.
 */

#include "piglit-util-gl.h"

PIGLIT_GL_TEST_CONFIG_BEGIN

	config.supports_gl_core_version = 45;
	config.window_width = 32;
	config.window_height = 32;
	config.window_visual = PIGLIT_GL_VISUAL_RGBA | PIGLIT_GL_VISUAL_DOUBLE;
	config.khr_no_error_support = PIGLIT_NO_ERRORS;

PIGLIT_GL_TEST_CONFIG_END

struct shader { GLenum type; const char *source; };
struct binding { int location; const char *name; };
struct count_check { int step; int which; const char *name; long long value; };
struct length_check { int step; int records; };
struct record_check { int step; int record; int word; int n; char kind; double value[4];
					  const char *label; const char *quantity; double tolerance; };

static const struct shader program0[] = {
	{GL_VERTEX_SHADER, "#version 450 core\n#extension GL_ARB_shader_draw_parameters : require\n// One invocation per vertex (points); each reports the draw parameters it saw and which\n// vertex and instance its attributes were fetched from.\nlayout(location = 0) in float a_vertex;      // per vertex: the vertex's own number\nlayout(location = 1) in float a_instance;    // divisor 1: the instance's own number\n\nflat out int x_vertex_id;\nflat out int x_instance_id;\nflat out int x_base_vertex;\nflat out int x_base_instance;\nflat out int x_draw_id;\nflat out ivec2 x_fetched;\n\nvoid main()\n{\n    x_vertex_id = gl_VertexID;\n    x_instance_id = gl_InstanceID;\n    x_base_vertex = gl_BaseVertexARB;\n    x_base_instance = gl_BaseInstanceARB;\n    x_draw_id = gl_DrawIDARB;\n    x_fetched = ivec2(a_vertex, a_instance);\n    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);\n}\n"},
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
static const GLuint indices[] = {5, 2, 4294967295, 3, 7, 4, 4294967295, 2, 6, 10, 11, 3};
static const struct count_check count_checks[] = {
	{0, 2, "xfb_vertices", 3LL},
	{-1, 0, NULL, 0},
};
static const struct length_check length_checks[] = {
	{0, 3},
	{-1, 0},
};
static const struct record_check record_checks[] = {
	{0, 0, 0, 1, 'i', {5.0}, "entry 0, vertex 0, instance 0", "gl_VertexID", 0.0},
	{0, 0, 1, 1, 'i', {0.0}, "entry 0, vertex 0, instance 0", "gl_InstanceID", 0.0},
	{0, 0, 2, 1, 'i', {0.0}, "entry 0, vertex 0, instance 0", "gl_BaseVertex", 0.0},
	{0, 0, 3, 1, 'i', {0.0}, "entry 0, vertex 0, instance 0", "gl_BaseInstance", 0.0},
	{0, 0, 4, 1, 'i', {0.0}, "entry 0, vertex 0, instance 0", "gl_DrawID", 0.0},
	{0, 0, 5, 2, 'i', {5.0, 0.0}, "entry 0, vertex 0, instance 0", "attributes fetched (a_vertex, a_instance)", 0.0},
	{0, 1, 0, 1, 'i', {2.0}, "entry 0, vertex 1, instance 0", "gl_VertexID", 0.0},
	{0, 1, 1, 1, 'i', {0.0}, "entry 0, vertex 1, instance 0", "gl_InstanceID", 0.0},
	{0, 1, 2, 1, 'i', {0.0}, "entry 0, vertex 1, instance 0", "gl_BaseVertex", 0.0},
	{0, 1, 3, 1, 'i', {0.0}, "entry 0, vertex 1, instance 0", "gl_BaseInstance", 0.0},
	{0, 1, 4, 1, 'i', {0.0}, "entry 0, vertex 1, instance 0", "gl_DrawID", 0.0},
	{0, 1, 5, 2, 'i', {2.0, 0.0}, "entry 0, vertex 1, instance 0", "attributes fetched (a_vertex, a_instance)", 0.0},
	{0, 2, 0, 1, 'i', {3.0}, "entry 0, vertex 3, instance 0", "gl_VertexID", 0.0},
	{0, 2, 1, 1, 'i', {0.0}, "entry 0, vertex 3, instance 0", "gl_InstanceID", 0.0},
	{0, 2, 2, 1, 'i', {0.0}, "entry 0, vertex 3, instance 0", "gl_BaseVertex", 0.0},
	{0, 2, 3, 1, 'i', {0.0}, "entry 0, vertex 3, instance 0", "gl_BaseInstance", 0.0},
	{0, 2, 4, 1, 'i', {0.0}, "entry 0, vertex 3, instance 0", "gl_DrawID", 0.0},
	{0, 2, 5, 2, 'i', {3.0, 0.0}, "entry 0, vertex 3, instance 0", "attributes fetched (a_vertex, a_instance)", 0.0},
	{-1, 0, 0, 0, 0, {0}, NULL, NULL, 0},
};

static GLuint progs[1];

static GLuint
link_program(const struct shader *shaders)
{
	GLuint program = glCreateProgram();
	const struct binding *b;

	for (; shaders->source; shaders++) {
		GLuint shader = piglit_compile_shader_text(shaders->type, shaders->source);
		glAttachShader(program, shader);
		glDeleteShader(shader);
	}
	for (b = bindings; b->name; b++)
		glBindAttribLocation(program, b->location, b->name);
	glTransformFeedbackVaryings(program, ARRAY_SIZE(varyings), varyings, GL_INTERLEAVED_ATTRIBS);
	glLinkProgram(program);
	if (!piglit_link_check_status(program))
		piglit_report_result(PIGLIT_FAIL);
	return program;
}

void
piglit_init(int argc, char **argv)
{
	GLuint vao, buffer;
	unsigned p;

	piglit_require_extension("GL_ARB_shader_draw_parameters");
	piglit_require_extension("GL_ARB_indirect_parameters");
	(void)buffer;                           /* a case without vertex data binds no buffer */
	for (p = 0; p < ARRAY_SIZE(programs); p++)
		progs[p] = link_program(programs[p]);
	glGenVertexArrays(1, &vao);
	glBindVertexArray(vao);
	glGenBuffers(1, &buffer);
	glBindBuffer(GL_ARRAY_BUFFER, buffer);
	glBufferData(GL_ARRAY_BUFFER, sizeof(attribute0), attribute0, GL_STATIC_DRAW);
	glVertexAttribPointer(0, 1, GL_FLOAT, GL_FALSE, 0, NULL);
	glVertexAttribDivisor(0, 0);
	glEnableVertexAttribArray(0);
	glGenBuffers(1, &buffer);
	glBindBuffer(GL_ARRAY_BUFFER, buffer);
	glBufferData(GL_ARRAY_BUFFER, sizeof(attribute1), attribute1, GL_STATIC_DRAW);
	glVertexAttribPointer(1, 1, GL_FLOAT, GL_FALSE, 0, NULL);
	glVertexAttribDivisor(1, 1);
	glEnableVertexAttribArray(1);
	glGenBuffers(1, &buffer);
	glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, buffer);
	glBufferData(GL_ELEMENT_ARRAY_BUFFER, sizeof(indices), indices, GL_STATIC_DRAW);
	if (!piglit_check_gl_error(GL_NO_ERROR))
		piglit_report_result(PIGLIT_FAIL);
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
	if (ok && !piglit_check_gl_error(GL_NO_ERROR)) {
		printf("FAIL %s: a GL error\n", label);
		ok = 0;
	}
	return ok;
}

enum piglit_result
piglit_display(void)
{
	GLuint buffer;

	glUseProgram(progs[0]);
	/* step 0: draw 0 (glMultiDrawElementsIndirectCount) */
	begin_step();
	glEnable(GL_PRIMITIVE_RESTART); glPrimitiveRestartIndex(4294967295u);
	{ static const unsigned char commands[] = {4, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
	  glGenBuffers(1, &buffer); glBindBuffer(GL_DRAW_INDIRECT_BUFFER, buffer);
	  glBufferData(GL_DRAW_INDIRECT_BUFFER, sizeof(commands), commands, GL_STATIC_DRAW); }
	{ const GLuint parameters[2] = {0u, 1u};
	  glGenBuffers(1, &buffer); glBindBuffer(GL_PARAMETER_BUFFER, buffer);
	  glBufferData(GL_PARAMETER_BUFFER, sizeof(parameters), parameters, GL_STATIC_DRAW); }
	glMultiDrawElementsIndirectCount(GL_POINTS, GL_UNSIGNED_INT, (const void *)0, 4, 1, 0);
	glDisable(GL_PRIMITIVE_RESTART);
	if (!end_step(0, "draw 0 (glMultiDrawElementsIndirectCount)"))
		return PIGLIT_FAIL;
	(void)buffer;
	return PIGLIT_PASS;
}
