"""GLSL text -> tokens with their spans, so that rewrites edit the original text in place.

Comments and white space are kept as tokens (rewrites must not lose them from the parts they do
not touch); a preprocessor line, continuation lines included, is one `directive` token.
"""
from __future__ import annotations

import re
from typing import NamedTuple

# Longest operators first: `<<=` before `<<` before `<`.
_PUNCT = ["<<=", ">>=", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "^^", "+=", "-=", "*=",
          "/=", "%=", "&=", "|=", "^="]
_TOKEN = re.compile(r"""
    (?P<directive>(?<![^\n])[ \t]*\#(?:[^\n\\]|\\.|\\\n)*)      # a whole preprocessor line
  | (?P<comment>//(?:[^\n\\]|\\.|\\\n)*|/\*.*?\*/)
  | (?P<space>[ \t\r\f\v]*\n|[ \t\r\f\v]+)
  | (?P<number>(?:0[xX][0-9a-fA-F]+|(?:\d+\.\d*|\.\d+|\d+)(?:[eE][+-]?\d+)?)(?:lf|LF|[fFuU])?)
  | (?P<ident>[A-Za-z_]\w*)
  | (?P<punct>""" + "|".join(re.escape(p) for p in _PUNCT) + r"""|[^\s\w])
""", re.X | re.S)


class Token(NamedTuple):
    kind: str          # ident, number, punct, directive, comment, space
    text: str
    start: int
    end: int

    def is_(self, text: str) -> bool:
        return self.text == text and self.kind in ("ident", "punct")


def tokenize(source: str) -> list[Token]:
    """Every token of the source, trivia (comments, spaces) included; they cover the text exactly."""
    out: list[Token] = []
    at = 0
    for m in _TOKEN.finditer(source):
        if m.start() != at:                       # only an unterminated comment matches nothing
            break
        kind = m.lastgroup
        assert kind is not None                   # every alternative of _TOKEN is a named group
        out.append(Token(kind, m.group(), at, m.end()))
        at = m.end()
    if at < len(source):
        out.append(Token("comment", source[at:], at, len(source)))
    return out


def directive_words(token: Token) -> list[str]:
    """`#  version 150 compatibility` -> ["version", "150", "compatibility"]."""
    return re.findall(r"[\w.]+|[^\s\w]", token.text.strip()[1:].replace("\\\n", " "))
