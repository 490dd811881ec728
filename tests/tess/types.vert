{{ version }}
// Each vertex writes every component of every carried output as a value unique to that
// vertex and component (the generator computes the same values in Python).
{% for line in declarations %}
{{ line }}
{% endfor %}

void main()
{
{% for line in body %}
    {{ line }}
{% endfor %}
    gl_Position = vec4(float(gl_VertexID), 0.0, 0.0, 1.0);
}
