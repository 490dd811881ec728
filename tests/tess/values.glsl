{#-
  The value formulas of the tessellation cases, written once: the shaders call these macros with
  GLSL expressions (gl_VertexID, gl_PrimitiveID, loop indices); the oracle calls them with plain
  names and evaluates the text it gets with numbers bound to them (values.formula,
  harness/oracle/glsl_expr.py). Arguments go in as text, so an argument that is a sum (k in a
  loop) may only stand where the macro adds it. Every value is exact in single precision.
-#}
{#- Scalar component k of a carried output of vertex (or patch) `base`: unique to (base, k);
    colours stay in [0, 1], a double's low bits (k + 1) * 2^-32 are lost in single precision. -#}
{% macro component(kind, base, k) -%}
{% if kind == "float" %}float({{ base }} * 64 + {{ k }} + 1) * 0.25
{%- elif kind == "int" %}-({{ base }} * 64 + {{ k }} + 1)
{%- elif kind == "uint" %}uint({{ base }} * 64 + {{ k }} + 1) + 256u
{%- elif kind == "colour" %}float({{ base }} * 16 + {{ k }} + 1) / 4096.0
{%- elif kind == "double" %}double({{ base }} * 64 + {{ k }} + 1) + double({{ k }} + 1) * 2.3283064365386963e-10LF
{%- endif %}
{%- endmacro %}
{#- Component c of the k-th vec4 of output vertex `vertex` of a large per-vertex array. -#}
{% macro large_vertex_value(patch, vertex, k, c) -%}
float(({{ patch }} * 7 + {{ vertex }} * 3 + {{ k }} * 5 + {{ c }}) % 29 + 1)
{%- endmacro %}
{#- Component c of the j-th vec4 of a large per-patch array. -#}
{% macro large_patch_value(patch, j, c) -%}
float(({{ patch }} * 11 + {{ j }} * 13 + {{ c }}) % 53 + 1)
{%- endmacro %}
{#- Component c of element k of vertex `vertex`'s per-vertex array in the inputs-dyn cases: unique to
    (patch, vertex, k, c) for up to 4 vertices of 32 elements; a whole number below 2048. -#}
{% macro indexed_vertex_value(patch, vertex, k, c) -%}
float({{ patch }} * 512 + {{ vertex }} * 128 + {{ k }} * 4 + {{ c }} + 1)
{%- endmacro %}
{#- Component c of element j of the inputs-dyn per-patch array: a half, never a per-vertex value. -#}
{% macro indexed_patch_value(patch, j, c) -%}
float({{ patch }} * 512 + {{ j }} * 4 + {{ c }}) + 0.5
{%- endmacro %}
{#- Output k of large.vert for vertex `vertex`: its four components, c = ivec4(0, 1, 2, 3). -#}
{% macro large_input(vertex, k, c) -%}
(ivec4({{ vertex }} * 3 + {{ k }} * 5) + {{ c }}) % 29 + 1
{%- endmacro %}
{#- v_out.attr of control.vert; v is the vertex number as a float. -#}
{% macro control_attr(v, instance) -%}
vec4({{ v }} + 0.5, 2.0 * {{ v }} + 0.25, 1000.0 - {{ v }}, float({{ instance }}))
{%- endmacro %}
{#- The struct S of the struct cases, declared from values.py's STRUCT_S (member, type) pairs. -#}
{% macro struct_s(members) -%}
struct S { {% for member, type in members %}{{ type }} {{ member }}; {% endfor %}};
{%- endmacro %}
