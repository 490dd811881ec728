"""One shader's global scope as a typed model, parsed from tokens.

    shader = parse(text)
    shader.declarations   # every global declaration: variables (each declarator), blocks, structs
    shader.functions      # with their spans; main's body and every `return` in it
    shader.references("gl_FrontColor")   # the identifier tokens, wherever they are

Spans are offsets into `text`, so a rewrite replaces exactly what the model names (see Editor).
"""
from __future__ import annotations

import bisect
from dataclasses import dataclass, field

from harness.glsl.tokens import Token, directive_words, tokenize
from harness.base.errors import HarnessFault

STORAGE = {"const", "in", "out", "inout", "uniform", "buffer", "shared", "attribute", "varying", "patch",
           "centroid", "sample"}
INTERPOLATION = {"flat", "smooth", "noperspective"}
OTHER_QUALIFIERS = {"invariant", "precise", "highp", "mediump", "lowp", "coherent", "volatile", "restrict",
                    "readonly", "writeonly"}
QUALIFIERS = STORAGE | INTERPOLATION | OTHER_QUALIFIERS
DIRECTIONS = ("in", "out", "uniform", "buffer", "attribute", "varying", "shared")


class ParseError(HarnessFault):
    pass


@dataclass(frozen=True)
class Layout:
    items: tuple[tuple[str, str | None], ...]     # ("location", "3"), ("std140", None)
    span: tuple[int, int]

    def get(self, key: str) -> str | None:
        return next((v for k, v in self.items if k == key), None)

    def has(self, key: str) -> bool:
        return any(k == key for k, _ in self.items)

    def text(self, drop: tuple[str, ...] = ()) -> str:
        """The items as they would be written inside `layout(...)`, without those named in `drop`."""
        return ", ".join(k if v is None else f"{k} = {v}" for k, v in self.items if k not in drop)


@dataclass(frozen=True)
class Declarator:
    name: str
    dims: tuple[str, ...]             # array sizes as written, "" when unsized: a[3][] -> ("3", "")
    initializer: str | None
    span: tuple[int, int]             # the name through the initializer

    @property
    def array(self) -> str:
        return "".join(f"[{d}]" for d in self.dims)


@dataclass(frozen=True)
class Declaration:
    """A global declaration, or a member of a block or struct (kind "member")."""
    kind: str                         # variable, block, struct, member, default, qualifier, precision
    layout: Layout | None
    qualifiers: tuple[str, ...]       # every other qualifier, in order
    type: str                         # variable/member type; block name; struct name
    type_dims: tuple[str, ...]        # float[2] x;
    declarators: tuple[Declarator, ...]   # variables; a block's instance (none without one)
    members: tuple["Declaration", ...]    # a block's or struct's
    span: tuple[int, int]             # the whole declaration, `;` included

    @property
    def storage(self) -> str | None:
        return next((q for q in self.qualifiers if q in DIRECTIONS), None)

    @property
    def patch(self) -> bool:
        return "patch" in self.qualifiers

    @property
    def location(self) -> int | None:
        value = self.layout.get("location") if self.layout else None
        return int(value, 0) if value is not None and value.strip().isdigit() else None

    @property
    def instance(self) -> Declarator | None:
        return self.declarators[0] if self.kind == "block" and self.declarators else None

    def member_names(self) -> list[str]:
        return [d.name for m in self.members for d in m.declarators]


@dataclass(frozen=True)
class Function:
    return_type: str
    name: str
    span: tuple[int, int]             # return type through the closing brace (or `;`)
    body: tuple[int, int] | None      # `{` through `}`; None for a prototype
    returns: tuple[tuple[int, int], ...]   # each `return ...;` statement in the body


@dataclass
class Shader:
    text: str
    tokens: list[Token]                   # significant tokens (no spaces or comments)
    version: int = 110
    profile: str = ""                     # "core", "compatibility", "es" or "" (as written)
    directives: list[Token] = field(default_factory=list)
    declarations: list[Declaration] = field(default_factory=list)
    functions: list[Function] = field(default_factory=list)
    pairs: dict[int, int] = field(default_factory=dict)   # token index of a bracket -> its partner
    _code: list[int] | None = None
    _names: set[str] | None = None

    @property
    def main(self) -> Function:
        found = [f for f in self.functions if f.name == "main" and f.body]
        if not found:
            raise ParseError("no main() defined")
        return found[-1]

    def code(self) -> list[int]:
        """Indices into `tokens` of every token inside a function body (statements, not declarations)."""
        if self._code is None:
            self._code = [i for f in self.functions if f.body for i in range(self.index_at(f.body[0]) + 1,
                                                                            self.index_at(f.body[1]) - 1)]
        return self._code

    def references(self, name: str) -> list[int]:
        """Indices into `tokens` of every use of an identifier."""
        return [i for i, t in enumerate(self.tokens) if t.kind == "ident" and t.text == name]

    def uses(self, name: str) -> bool:
        if self._names is None:
            self._names = {t.text for t in self.tokens if t.kind == "ident"}
        return name in self._names

    def variables(self, storage: str | None = None) -> list[Declaration]:
        return [d for d in self.declarations if d.kind == "variable" and (storage is None or d.storage == storage)]

    def blocks(self, storage: str | None = None) -> list[Declaration]:
        return [d for d in self.declarations if d.kind == "block" and (storage is None or d.storage == storage)]

    def structs(self) -> list[Declaration]:
        return [d for d in self.declarations if d.kind == "struct"]

    def after_directives(self) -> int:
        """The offset just after the #version and #extension lines (where declarations may start)."""
        ends = [t.end for t in self.directives if directive_words(t)[:1] in (["version"], ["extension"])]
        return max(ends, default=0)

    def index_at(self, offset: int) -> int:
        """The index of the first significant token at or after an offset."""
        return bisect.bisect_left(self.tokens, offset, key=lambda t: t.start)

    def close(self, i: int) -> int:
        """Index of the bracket that closes the one at tokens[i] (or opens, for a closing one)."""
        if i not in self.pairs:
            raise ParseError(f"unbalanced {self.tokens[i].text!r} at offset {self.tokens[i].start}")
        return self.pairs[i]

    def statement_end(self, i: int) -> int:
        """Index of the `;` that ends the statement containing tokens[i] (brackets balanced)."""
        j = i
        while j < len(self.tokens):
            text = self.tokens[j].text
            if self.tokens[j].kind == "punct" and text in ("(", "[", "{"):
                j = self.close(j)
            elif self.tokens[j].is_(";"):
                return j
            j += 1
        raise ParseError(f"no `;` after offset {self.tokens[i].start}")

    def source(self, i: int, j: int) -> str:
        """The text from tokens[i] through tokens[j - 1]."""
        return self.text[self.tokens[i].start:self.tokens[j - 1].end] if j > i else ""


def parse(text: str, tokens: list[Token] | None = None) -> Shader:
    """The model of a text (pass its tokens if they are at hand)."""
    all_tokens = tokenize(text) if tokens is None else tokens
    shader = Shader(text, [t for t in all_tokens if t.kind in ("ident", "number", "punct")])
    shader.directives = [t for t in all_tokens if t.kind == "directive"]
    for d in shader.directives:
        words = directive_words(d)
        if words[:1] == ["version"] and len(words) > 1:
            shader.version = int(words[1])
            shader.profile = words[2] if len(words) > 2 else ""
    shader.pairs = _pairs(shader.tokens)
    _Parser(shader).run()
    return shader


def _pairs(tokens: list[Token]) -> dict[int, int]:
    closing = {")": "(", "]": "[", "}": "{"}
    stack, pairs = [], {}
    for i, t in enumerate(tokens):
        if t.kind != "punct":
            continue
        if t.text in "([{":
            stack.append(i)
        elif t.text in closing:
            if not stack or tokens[stack[-1]].text != closing[t.text]:
                raise ParseError(f"unbalanced {t.text!r} at offset {t.start}")
            j = stack.pop()
            pairs[i], pairs[j] = j, i
    if stack:
        raise ParseError(f"unclosed {tokens[stack[-1]].text!r} at offset {tokens[stack[-1]].start}")
    return pairs


class _Parser:
    def __init__(self, shader: Shader):
        self.s, self.t, self.i = shader, shader.tokens, 0

    def peek(self, k: int = 0) -> Token | None:
        return self.t[self.i + k] if self.i + k < len(self.t) else None

    def at(self, text: str, k: int = 0) -> bool:
        """Whether the token k ahead is `text`; False at the end (then expect() or ident() says what is missing)."""
        token = self.peek(k)
        return token is not None and token.is_(text)

    def expect(self, text: str) -> Token:
        token = self.peek()
        if token is None or not token.is_(text):
            where = f"at offset {token.start}" if token else "at the end"
            raise ParseError(f"expected {text!r} {where}, found {token.text if token else 'nothing'!r}")
        self.i += 1
        return token

    def ident(self) -> Token:
        token = self.peek()
        if token is None or token.kind != "ident":
            raise ParseError(f"expected a name at offset {token.start if token else len(self.s.text)}")
        self.i += 1
        return token

    def run(self) -> None:
        while self.i < len(self.t):
            if self.at(";"):
                self.i += 1
                continue
            start = self.t[self.i].start
            if self.at("precision"):
                end = self.s.statement_end(self.i)
                self.s.declarations.append(Declaration("precision", None, (), self.s.source(self.i + 2, end), (),
                                                       (), (), (start, self.t[end].end)))
                self.i = end + 1
                continue
            self.global_item(start)

    def qualifiers(self) -> tuple[Layout | None, tuple[str, ...]]:
        layout, quals = None, []
        while (token := self.peek()) is not None:
            if token.is_("layout"):
                layout = self.layout()
            elif token.kind == "ident" and token.text in QUALIFIERS:
                quals.append(token.text)
                self.i += 1
            else:
                break
        return layout, tuple(quals)

    def layout(self) -> Layout:
        start = self.expect("layout").start
        open_ = self.i
        close = self.s.close(open_)
        items, j = [], open_ + 1
        while j < close:
            key = self.t[j].text
            j += 1
            value = None
            if self.t[j].is_("="):
                k = j + 1
                depth = 0
                while k < close and not (depth == 0 and self.t[k].is_(",")):
                    depth += self.t[k].text in "([" and self.t[k].kind == "punct"
                    depth -= self.t[k].text in ")]" and self.t[k].kind == "punct"
                    k += 1
                value = self.s.source(j + 1, k)
                j = k
            items.append((key, value))
            if j < close and self.t[j].is_(","):
                j += 1
        self.i = close + 1
        return Layout(tuple(items), (start, self.t[close].end))

    def dims(self) -> tuple[str, ...]:
        found = []
        while self.at("["):
            close = self.s.close(self.i)
            found.append(self.s.source(self.i + 1, close).strip())
            self.i = close + 1
        return tuple(found)

    def declarators(self) -> tuple[Declarator, ...]:
        """name [dims] [= initializer] {, ...} ;  (the `;` is consumed)."""
        found = []
        while True:
            name = self.ident()
            dims = self.dims()
            initializer = None
            end = self.t[self.i - 1].end
            if self.at("="):
                k = self.i + 1
                while k < len(self.t) and not (self.t[k].is_(",") or self.t[k].is_(";")):
                    k = self.s.close(k) + 1 if self.t[k].kind == "punct" and self.t[k].text in "([{" else k + 1
                if k >= len(self.t):
                    raise ParseError(f"the initializer of {name.text!r} has no end ';'")
                initializer = self.s.source(self.i + 1, k)
                end = self.t[k - 1].end
                self.i = k
            found.append(Declarator(name.text, dims, initializer, (name.start, end)))
            if self.at(","):
                self.i += 1
                continue
            self.expect(";")
            return tuple(found)

    def members(self) -> tuple[Declaration, ...]:
        """The `{ ... }` of a block or struct, the braces consumed."""
        self.expect("{")
        found = []
        while not self.at("}"):
            start = self.t[self.i].start            # the braces balance (Shader.close): a token is here
            layout, quals = self.qualifiers()
            type_ = self.ident().text
            type_dims = self.dims()
            decls = self.declarators()
            span = (start, self.t[self.i - 1].end)
            found.append(Declaration("member", layout, quals, type_, type_dims, decls, (), span))
        self.i += 1
        return tuple(found)

    def global_item(self, start: int) -> None:
        layout, quals = self.qualifiers()
        token = self.peek()
        if token is None:
            raise ParseError("declaration cut short at the end of the shader")
        if token.is_(";"):                                    # layout(vertices = 4) out;
            self.i += 1
            self.add("default", layout, quals, "", (), (), (), start)
            return
        if token.is_("struct"):
            self.i += 1
            struct_name = self.ident().text if not self.at("{") else ""      # anonymous: struct { } s;
            members = self.members()
            decls = self.declarators() if not self.at(";") else (self.expect(";"), ())[1]
            self.add("struct", layout, quals, struct_name, (), decls, members, start)
            return
        name = self.ident()
        after = self.peek()
        if after is not None and after.is_("{"):                 # an interface block
            members = self.members()
            decls = self.declarators() if not self.at(";") else (self.expect(";"), ())[1]
            self.add("block", layout, quals, name.text, (), decls, members, start)
            return
        if after is not None and (after.is_(";") or after.is_(",")) and quals:   # invariant gl_Position;
            self.i -= 1
            self.add("qualifier", layout, quals, "", (), self.declarators(), (), start)
            return
        type_dims = self.dims()
        if self.at("(", 1):      # a function
            self.function(name.text, start)
            return
        self.add("variable", layout, quals, name.text, type_dims, self.declarators(), (), start)

    def add(self, kind: str, layout: Layout | None, quals: tuple[str, ...], type_: str, type_dims: tuple[str, ...],
            decls: tuple[Declarator, ...], members: tuple[Declaration, ...], start: int) -> None:
        self.s.declarations.append(Declaration(kind, layout, quals, type_, type_dims, tuple(decls), members,
                                               (start, self.t[self.i - 1].end)))

    def function(self, return_type: str, start: int) -> None:
        name = self.ident().text
        self.i = self.s.close(self.i) + 1                       # parameters
        if self.at(";"):
            end = self.expect(";").end
            self.s.functions.append(Function(return_type, name, (start, end), None, ()))
            return
        if not self.at("{"):
            raise ParseError(f"expected the body of {name}()")
        open_, close = self.i, self.s.close(self.i)
        returns = []
        for j in range(open_ + 1, close):
            if self.t[j].is_("return"):
                returns.append((self.t[j].start, self.t[self.s.statement_end(j)].end))
        self.s.functions.append(Function(return_type, name, (start, self.t[close].end),
                                         (self.t[open_].start, self.t[close].end), tuple(returns)))
        self.i = close + 1


class Editor:
    """Edits of one text at offsets a model gave: replacements and insertions, applied together.
    Edits may not overlap; insertions at one offset keep their order."""

    def __init__(self, text: str):
        self.text = text
        self.edits: list[tuple[int, int, int, str]] = []

    def replace(self, span: tuple[int, int], new: str) -> None:
        self.edits.append((span[0], span[1], len(self.edits), new))

    def insert(self, at: int, new: str) -> None:
        self.replace((at, at), new)

    def new_text(self) -> list[str]:
        """The text the edits so far put in."""
        return [new for _, _, _, new in self.edits]

    def apply(self) -> str:
        out, at = [], 0
        for start, end, _, new in sorted(self.edits):
            if start < at:
                raise ParseError(f"overlapping edits at offset {start}")
            out.append(self.text[at:start])
            out.append(new)
            at = end
        out.append(self.text[at:])
        return "".join(out)
