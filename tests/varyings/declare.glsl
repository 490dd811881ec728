{#- What every stage of a varyings case declares alike. -#}
{% macro header(dialect, extensions) -%}
{{ dialect.line }}
{%- for extension in extensions %}

#extension {{ extension }} : require
{%- endfor %}
{%- endmacro %}

{#- One user varying, declared for `direction` (in, out) as the GLSL version spells it. -#}
{% macro varying(v, direction, dialect) -%}
{% set layout = (["location = %d" % v.location] if v.location is not none else [])
                + (["component = %d" % v.component] if v.component is not none else []) -%}
{{ "layout(%s) " % (layout | join(", ")) if layout }}{% if dialect.modern %}{{ v.interpolation ~ " " if v.interpolation }}{{ direction }}{% else %}varying{% endif %} {{ v.type }} {{ v.name }}{{ "[%d]" % v.array if v.array }};
{%- endmacro %}

{#- The user varyings in an interface block V, between stages with per-vertex arrays. -#}
{% macro block(direction, instance, users) -%}
{{ direction }} V {
{% for v in users %}
    {{ v.interpolation ~ " " if v.interpolation }}{{ v.type }} {{ v.name }}{{ "[%d]" % v.array if v.array }};
{% endfor %}
} {{ instance }};
{%- endmacro %}

{#- The struct types the user varyings use: (name, ((member, type), ...)); one line each, each
    ending in a newline (callers strip the one after the call: `{{ declare.structs(structs) -}}`). -#}
{% macro structs(declared) -%}
{% for name, members in declared %}
struct {{ name }} { {% for member, type in members %}{{ type }} {{ member }}; {% endfor %}};
{% endfor %}
{%- endmacro %}
