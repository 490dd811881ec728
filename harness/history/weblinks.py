"""Which stored URLs the history may link: http and https only. A run's `ci_pipeline_url` comes
from its run.json, which any pipeline writes (a fork's merge request pipeline included): a
`javascript:` or `data:` URL printed into an href runs script in the dashboard's origin when
clicked. The ingest refuses such a URL (harness/history/sources.py); the dashboard links only
what passes here, for stores that took one before it did.
"""
from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import urlsplit

SCHEMES = ("http", "https")
FIELDS = ("ci_pipeline_url",)          # the run properties the dashboard links


def web_url(text: str) -> str:
    """`text` where it is an absolute http(s) URL with a host, else ''. Whitespace and control
    characters anywhere refuse it: browsers drop them from a scheme (`java\\tscript:`), Python's
    urlsplit need not drop the same ones."""
    if not text or any(c.isspace() or ord(c) < 0x20 or ord(c) == 0x7f for c in text):
        return ""
    try:
        parts = urlsplit(text)
    except ValueError:                     # a malformed IPv6 host
        return ""
    return text if parts.scheme.lower() in SCHEMES and parts.netloc else ""


def refused(properties: Mapping[str, object]) -> str:
    """The first linked property that is set and is not an http(s) URL, as `name 'value'`; '' if none."""
    for name in FIELDS:
        value = str(properties.get(name) or "")
        if value and not web_url(value):
            return f"{name} {value[:120]!r}"
    return ""
