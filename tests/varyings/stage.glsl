{{ version_line }}
{% for line in extensions %}
{{ line }}
{% endfor %}
{% for line in layout %}
{{ line }}
{% endfor %}
{% if declarations %}

{% endif %}
{% for line in declarations %}
{{ line }}
{% endfor %}

void main()
{
{% for line in body %}
    {{ line }}
{% endfor %}
}
