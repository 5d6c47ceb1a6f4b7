"""Parser: spec text -> AST, through the Lark LALR grammar, with curated syntax errors."""
from __future__ import annotations

import bisect
import re
import threading
from importlib import resources

from lark import Lark, Token, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError
from lark.visitors import Transformer_NonRecursive

from .errors import Collector, Span, SpecError
from .glossary import LINE_BREAK_HINT, OPERATOR_WORDS
from .limits import MAX_NESTING, MAX_NUMBER_DIGITS, MAX_SPEC_CHARS, MAX_TOKENS
from .nodes import Citation, Clause, Expr, SpecFile, Word

_CITE_RE = re.compile(r"#[ \t]*((?:[A-Z][A-Z0-9]*-[0-9]+[ \t,;]*)+)")
_ID_RE = re.compile(r"[A-Z][A-Z0-9]*-[0-9]+")

_OPEN = {"LPAR": "RPAR", "LSQB": "RSQB", "LBRACE": "RBRACE"}
_CLOSE = {v: k for k, v in _OPEN.items()}


class _TooDeep(Exception):
    def __init__(self, token: Token, code: str, why: str, hint: str):
        self.token, self.code, self.why, self.hint = token, code, why, hint


class _BadNumber(Exception):
    def __init__(self, token: Token):
        self.token = token


class _PostLex:
    """Drops newlines inside (...) and [...], refuses input nested or sized beyond the limits, and
    remembers the open brackets and the '}' that closed the variant, for syntax errors."""

    always_accept = ("_NL",)

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.parens: list[Token] = []  # unclosed ( and [
        self.braces = 0
        self.closed_variant: Token | None = None

    def process(self, stream):
        self.reset()
        count = 0
        for tok in stream:
            count += 1
            if count > MAX_TOKENS:
                raise _TooDeep(tok, "E002", f"input refused: the spec has more than {MAX_TOKENS} tokens",
                               "split it, or use `extends` to state only what changes")
            t = tok.type
            if t in _OPEN:
                if t == "LBRACE":
                    self.braces += 1
                else:
                    self.parens.append(tok)
                if self.braces + len(self.parens) > MAX_NESTING:
                    raise _TooDeep(tok, "E036", f"nested too deeply: more than {MAX_NESTING} brackets and blocks "
                                   "open at once", "flatten it: name a part with `define`")
            elif t in _CLOSE:
                if t == "RBRACE":
                    self.braces -= 1
                    if self.braces == 0 and self.closed_variant is None:
                        self.closed_variant = tok
                elif self.parens:
                    self.parens.pop()
            if t == "_NL" and self.parens:
                continue
            yield tok


_lock = threading.Lock()
_comments: list[Token] = []
_parser: Lark | None = None
_postlex = _PostLex()


def _get_parser() -> Lark:
    global _parser
    if _parser is None:
        grammar = resources.files("mjrules.grammar").joinpath("mjspec.lark").read_text(encoding="utf-8")
        _parser = Lark(
            grammar,
            parser="lalr",
            lexer="contextual",
            postlex=_postlex,
            propagate_positions=True,
            maybe_placeholders=False,
            lexer_callbacks={"COMMENT": _comments.append},
        )
    return _parser


def _span(file: str, obj) -> Span:
    return Span(file, obj.line, obj.column, getattr(obj, "end_line", obj.line) or obj.line,
                getattr(obj, "end_column", obj.column + 1) or obj.column + 1)


class _ToAst(Transformer_NonRecursive):
    """Parse tree -> AST, without recursion (a long chain of operators makes a deep tree)."""

    def __init__(self, file: str):
        super().__init__()
        self.file = file

    def sp(self, x) -> Span:
        return _span(self.file, x)

    # words
    def w_name(self, c):
        return Word("name", str(c[0]), self.sp(c[0]))

    def w_number(self, c):
        return Word("number", _num(c[0]), self.sp(c[0]))

    def w_tiles(self, c):
        return Word("tiles", str(c[0]), self.sp(c[0]))

    def w_string(self, c):
        return Word("string", _unquote(c[0]), self.sp(c[0]))

    @v_args(meta=True)
    def w_comma(self, meta, c):
        return Word("comma", ",", self.sp(meta))

    @v_args(meta=True)
    def w_gt(self, meta, c):
        return Word("gt", ">", self.sp(meta))

    @v_args(meta=True)
    def w_plus(self, meta, c):
        return Word("plus", "+", self.sp(meta))

    @v_args(meta=True)
    def word_range(self, meta, c):
        lo, hi = (self._tokword(t) for t in c)
        return Word("range", f"{lo.value}..{hi.value}", self.sp(meta), lo, hi)

    def _tokword(self, t: Token) -> Word:
        kind = {"NAME": "name", "NUMBER": "number", "TILES": "tiles"}[t.type]
        return Word(kind, _num(t) if kind == "number" else str(t), self.sp(t))

    # expressions
    def _e(self, op, meta, args=(), value=None):
        return Expr(op, list(args), value, self.sp(meta) if meta is not None and not meta.empty else None)

    @v_args(meta=True)
    def e_number(self, meta, c):
        return Expr("number", [], _num(c[0]), self.sp(c[0]))

    @v_args(meta=True)
    def e_string(self, meta, c):
        return Expr("string", [], _unquote(c[0]), self.sp(c[0]))

    @v_args(meta=True)
    def e_tiles(self, meta, c):
        return Expr("tiles", [], str(c[0]), self.sp(c[0]))

    @v_args(meta=True)
    def e_true(self, meta, c):
        return self._e("bool", meta, value=True)

    @v_args(meta=True)
    def e_false(self, meta, c):
        return self._e("bool", meta, value=False)

    @v_args(meta=True)
    def e_name(self, meta, c):
        return Expr("name", [], str(c[0]), self.sp(c[0]))

    @v_args(meta=True)
    def e_call(self, meta, c):
        return Expr("call", [a for a in c[1:] if a is not None], str(c[0]), self.sp(meta))

    @v_args(meta=True)
    def e_index(self, meta, c):
        return Expr("index", list(c[1:]), str(c[0]), self.sp(meta))

    @v_args(meta=True)
    def e_if(self, meta, c):
        return self._e("if", meta, c)

    @v_args(meta=True)
    def e_or(self, meta, c):
        return self._e("or", meta, c)

    @v_args(meta=True)
    def e_and(self, meta, c):
        return self._e("and", meta, c)

    @v_args(meta=True)
    def e_not(self, meta, c):
        return self._e("not", meta, c)

    @v_args(meta=True)
    def e_cmp(self, meta, c):
        return self._e("cmp", meta, [c[0], c[2]], str(c[1]))

    @v_args(meta=True)
    def e_in(self, meta, c):
        return self._e("in", meta, c)

    @v_args(meta=True)
    def e_sum(self, meta, c):
        return self._e("sum", meta, [x if isinstance(x, Expr) else str(x) for x in c])

    @v_args(meta=True)
    def e_product(self, meta, c):
        return self._e("product", meta, [x if isinstance(x, Expr) else str(x) for x in c])

    @v_args(meta=True)
    def e_pow(self, meta, c):
        return self._e("pow", meta, c)

    @v_args(meta=True)
    def e_neg(self, meta, c):
        return self._e("neg", meta, c)

    # clauses
    def cells(self, c):
        return ("cells", list(c))

    def assign(self, c):
        return ("assign", c[0])

    def cond_when(self, c):
        return ("cond", "when", c[0])

    def cond_unless(self, c):
        return ("cond", "unless", c[0])

    def block(self, c):
        return ("block", c[0])

    def body(self, c):
        return [x for x in c if isinstance(x, Clause)]

    @v_args(meta=True)
    def clause(self, meta, c):
        kw = c[0]
        cl = Clause(str(kw), [], self.sp(meta), key_span=self.sp(kw))
        for item in c[1:]:
            if isinstance(item, Word):
                cl.words.append(item)
            elif item[0] == "cells":
                cl.cells = item[1]
            elif item[0] == "assign":
                cl.value = item[1]
            elif item[0] == "cond":
                cl.cond_kind, cl.cond = item[1], item[2]
            elif item[0] == "block":
                cl.body = item[1]
        return cl

    def extends(self, c):
        t = c[0]
        return ("extends", _unquote(t) if t.type == "STRING" else str(t), self.sp(t))

    @v_args(meta=True)
    def variant(self, meta, c):
        name = c[0]
        labels, ext, ext_span, body = [], None, None, []
        for item in c[1:]:
            if isinstance(item, Token) and item.type == "STRING":
                labels.append(_unquote(item))
            elif isinstance(item, tuple) and item[0] == "extends":
                ext, ext_span = item[1], item[2]
            elif isinstance(item, list):
                body = item
        return SpecFile(str(name), labels, ext, body, self.sp(meta), self.file, "", ext_span)

    def start(self, c):
        return c[0]


def _num(tok) -> int | float:
    s = str(tok)
    if len(s.split(".")[0].lstrip("0")) > MAX_NUMBER_DIGITS:
        raise _BadNumber(tok)
    return float(s) if "." in s else int(s)


def _unquote(tok) -> str:
    s = str(tok)[1:-1]
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), s)


# ---- syntax errors ---------------------------------------------------------------------------------

def _nested(clauses: list[str], depths: int = 4) -> list[str]:
    """The same broken clause at several block depths: LALR states differ by stack depth."""
    out = []
    for clause in clauses:
        for d in range(depths):
            out.append("variant v {\n" + "  b {\n" * d + "  " + clause + "\n" + "}\n" * (d + 1))
    return out


_EXAMPLES: dict[tuple[str, str, str], list[str]] = {
    ("E006", "expected an expression", "write a value or condition after '=', 'when' or 'unless'"): _nested([
        "a =", "a when", "a = 1 +", "a = 1 *", "a unless", "a = not", "a = 1 and", "a = 1 or", "a = 1 ==",
        "a = if", "a = -", "a = 2 ^", "a = if x then", "a = if x then 1 else", "a = x in (", "a = f(",
        "a = x in (1,", "a = f(1,",
    ]),
    ("E007", "a spec starts with `variant NAME {`", "begin the file with: variant my_variant \"Label\" {"): [
        "pattern x = 1", "x", "variant", "variant {", "variant 1 {", "\"x\"", "variant v", "variant v \"x\"",
    ],
    ("E008", "a clause must start with a keyword", "each line inside a block starts with a keyword such as 'pattern' or 'option'"): _nested([
        "1 x", "\"x\"", "= 1", "1m x", "..", ",", ">", "+", ":", "when x",
    ]),
    ("E009", "unexpected word after the expression", "an expression ends the clause; put 'when ...' or '{' after it, or start a new line"): _nested([
        "a = 1 2", "a = b c", "a = b \"x\"", "a when b c", "a = b 1m", "a = (b) c", "a = f(x) y", "a when b 2",
        "a = 1 :", "a when x = 1",
    ]),
}


def _match(e: UnexpectedInput, parse) -> tuple[str, str, str] | None:
    """lark's match_examples, without its debug line (which can raise TypeError in lark 1.3)."""
    candidate = None
    for label, examples in _EXAMPLES.items():
        for malformed in examples:
            try:
                parse(malformed)
            except UnexpectedInput as ut:
                if ut.state != e.state:
                    continue
                if isinstance(e, UnexpectedToken) and isinstance(ut, UnexpectedToken) and ut.accepts != e.accepts:
                    continue
                if getattr(ut, "token", None) == getattr(e, "token", None):
                    return label
                candidate = candidate or label
            except Exception:  # noqa: BLE001, S112 - an example that fails oddly matches nothing
                continue
    return candidate


def _syntax_error(text: str, file: str, e: UnexpectedInput, parse, post: _PostLex) -> SpecError:
    col = Collector({file: text})
    line = getattr(e, "line", 1) or 1
    column = getattr(e, "column", 1) or 1
    tok = getattr(e, "token", None)
    at_end = isinstance(e, UnexpectedEOF) or (tok is not None and tok.type == "$END")
    if at_end:
        line, column = _end_pos(text)
    span = Span(file, line, column, line, column + 1)
    if not re.sub(r"#[^\n]*", "", text).strip():
        col.error("E007", "the spec is empty", Span(file, 1, 1, 1, 2), "begin the file with: variant my_variant \"Label\" {")
        return SpecError(col.diagnostics)
    if isinstance(e, UnexpectedCharacters):
        ch = text[e.pos_in_stream] if e.pos_in_stream < len(text) else ""
        if ch == '"':
            col.error("E005", "unterminated string", span, "close the string with '\"' on the same line")
        elif ch in _NOT_OPERATORS:
            alt = _NOT_OPERATORS[ch]
            col.error("E001", f"unexpected character {ch!r}: not an operator of the language", span,
                      (f"write '{alt}' instead; " if alt else "") + f"the operators are {OPERATOR_WORDS}")
        else:
            col.error("E001", f"unexpected character {ch!r}", span,
                      "names are letters, digits and '_'; tiles are written like 123m, 9s*, f1")
        return SpecError(col.diagnostics)
    if tok is not None and not at_end and tok.end_column:
        span = Span(file, tok.line, tok.column, tok.end_line or tok.line, tok.end_column)
    if post.parens:
        p = post.parens[-1]
        which = {"LPAR": "(", "LSQB": "["}[p.type]
        close = {"(": ")", "[": "]"}[which]
        col.error("E011", f"unclosed '{which}'", _tok_span(file, p),
                  f"close it with '{close}'; the parser reached {_describe(tok) if tok is not None else 'the end'}"
                  f" on line {span.line} still inside it")
        return SpecError(col.diagnostics)
    if tok is not None and tok.type == "RBRACE" and _unclosed_braces(text) < 0:
        col.error("E004", "unmatched '}'", span, "remove it, or open its block with '{'")
        return SpecError(col.diagnostics)
    closed = post.closed_variant
    if closed is not None and not at_end:
        col.error("E004", "unmatched '}': it closes the variant here, so what follows is outside it",
                  _tok_span(file, closed), f"remove this '}}', or open a block with '{{' (the next clause is on line "
                                             f"{span.line})")
        return SpecError(col.diagnostics)
    if at_end:
        depth = _unclosed_braces(text)
        if depth > 0:
            col.error("E003", "unexpected end of file: unclosed '{'", span, f"add {depth} closing '}}'")
            return SpecError(col.diagnostics)
    label = _match(e, parse)
    accepts = set(getattr(e, "expected", None) or getattr(e, "accepts", None) or [])
    broken = _line_break_in_expression(text, tok, accepts)
    if label:
        code, msg, hint = label
        col.error(code, msg + _found(tok), span, broken or hint)
    else:
        expected = sorted({_describe_type(x) for x in accepts})
        hint = ("expected " + ", ".join(expected[:10])) if expected else None
        col.error("E010", "unexpected " + (_describe(tok) if tok is not None else "input"), span,
                  f"{broken} ({hint})" if hint and broken else broken or hint)
    return SpecError(col.diagnostics)


# characters people try as operators: what the language writes instead (None: nothing)
_NOT_OPERATORS = {"%": None, "&": "and", "|": "or", "!": "not", "~": "not", "×": "*", "÷": "/", "≥": ">=",
                  "≤": "<=", "≠": "!=", "＝": "=", "＜": "<", "＞": ">", "＋": "+", "－": "-"}
_ENDS_IN_OPERATOR = re.compile(r"(?:==|!=|<=|>=|[-+*/^<>]|(?<!\w)(?:if|then|else|and|or|not|in))\s*$")
_COMMENT = re.compile(r'"(?:[^"\\\n]|\\.)*"|#.*')  # strings kept, a comment dropped
_OPERATOR_TOKENS = {"ADD_OP", "MUL_OP", "CMP_OP", "CIRCUMFLEX", "MINUS", "PLUS", "STAR", "SLASH", "MORETHAN",
                    "LESSTHAN", "THEN", "ELSE", "IN", "AND", "OR"}


def _line_break_in_expression(text: str, tok, accepts: set[str]) -> str | None:
    """The hint for a clause that a line break ended inside an expression, else None: the break came after an
    operator (or where `then`/`else` was due), or the next line starts with an operator."""
    if tok is None or tok.type == "$END" or not tok.line:
        return None
    line = text.split("\n")[tok.line - 1] if tok.line <= text.count("\n") + 1 else ""
    if tok.type == "_NL":
        before = _COMMENT.sub(lambda m: m.group(0) if m.group(0)[0] == '"' else "", line[:max(0, (tok.column or 1) - 1)])
        if _ENDS_IN_OPERATOR.search(before) or accepts & {"THEN", "ELSE"}:
            return LINE_BREAK_HINT
        return None
    if tok.type in _OPERATOR_TOKENS and not line[:max(0, (tok.column or 1) - 1)].strip():
        return LINE_BREAK_HINT
    return None


def _tok_span(file: str, t: Token) -> Span:
    return Span(file, t.line, t.column, t.end_line or t.line, t.end_column or t.column + 1)


def _found(tok) -> str:
    return f", found {_describe(tok)}" if tok is not None else ""


def _describe(tok) -> str:
    if tok.type == "$END":
        return "end of file"
    if tok.type == "_NL":
        return "end of line"
    kind = _TYPE_NAMES.get(tok.type)
    if kind is None or kind.startswith("'"):
        return repr(str(tok))
    return f"{kind} {str(tok)!r}"


_TYPE_NAMES = {"NAME": "name", "NUMBER": "number", "TILES": "tiles", "STRING": "string", "_NL": "end of line",
               "$END": "end of file", "ADD_OP": "'+' or '-'", "MUL_OP": "'*' or '/'",
               "CMP_OP": "a comparison (== != < <= > >=)", "COMMENT": "comment"}
_SYMBOLS = {"LBRACE": "{", "RBRACE": "}", "LPAR": "(", "RPAR": ")", "LSQB": "[", "RSQB": "]", "EQUAL": "=",
            "COLON": ":", "COMMA": ",", "SEMICOLON": ";", "PLUS": "+", "MINUS": "-", "STAR": "*", "SLASH": "/",
            "CIRCUMFLEX": "^", "MORETHAN": ">", "LESSTHAN": "<", "__ANON_0": ".."}


def _describe_type(t: str) -> str:
    if t in _TYPE_NAMES:
        return _TYPE_NAMES[t]
    if t in _SYMBOLS:
        return f"'{_SYMBOLS[t]}'"
    if t.isupper() and t.isalpha():
        return f"'{t.lower()}'"  # a keyword
    return t.lower()


def _end_pos(text: str) -> tuple[int, int]:
    lines = text.split("\n")
    while len(lines) > 1 and not lines[-1].strip():
        lines.pop()
    return len(lines), len(lines[-1]) + 1


def _unclosed_braces(text: str) -> int:
    depth = 0
    for ch in re.sub(r'"(?:[^"\\\n]|\\.)*"|#[^\n]*', "", text):
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth < 0:
                return -1
    return depth


# ---- entry point --------------------------------------------------------------------------------------

_LONE_CR = re.compile(r"\r(?!\n)")


def normalize_line_ends(text: str) -> str:
    """Spec text with each lone carriage return (the old Mac line end) read as a line feed, so a CR-only file is
    the same spec as its LF copy, with the same lines and hash. CRLF is left as it is (the grammar reads it
    already, and a CRLF spec's hash stays what it was)."""
    return _LONE_CR.sub("\n", text) if "\r" in text else text


def parse(text: str, file: str = "<spec>") -> SpecFile:
    """Parse spec text into an AST. Raises SpecError (never a Python traceback) on any bad input."""
    if not isinstance(text, str):
        raise TypeError("spec text must be str")
    text = normalize_line_ends(text)
    col = Collector({file: text})
    if len(text) > MAX_SPEC_CHARS:
        col.error("E002", f"spec is too large ({len(text)} characters; the limit is {MAX_SPEC_CHARS})",
                  Span(file, 1, 1, 1, 2), "split it, or use `extends` to state only what changes")
        col.raise_if_any()
    if "\x00" in text:
        i = text.index("\x00")
        line = text[:i].count("\n") + 1
        c = i - (text.rfind("\n", 0, i) + 1) + 1
        col.error("E001", "NUL character in spec", Span(file, line, c, line, c + 1), "specs are UTF-8 text")
        col.raise_if_any()
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as e:
        line = text[: e.start].count("\n") + 1
        c = e.start - (text.rfind("\n", 0, e.start) + 1) + 1
        col.error("E001", "the spec holds a character that is not valid Unicode text", Span(file, line, c, line, c + 1),
                  "specs are UTF-8 text")
        col.raise_if_any()
    with _lock:
        parser = _get_parser()
        _comments.clear()
        try:
            tree = parser.parse(text)
        except _TooDeep as e:
            t = e.token
            col.error(e.code, e.why, Span(file, t.line, t.column, t.line, t.column + 1), e.hint)
            raise SpecError(col.diagnostics) from None
        except UnexpectedInput as e:
            raise _syntax_error(text, file, e, parser.parse, _postlex) from None
        finally:
            comments = list(_comments)
            _comments.clear()
    try:
        spec = _ToAst(file).transform(tree)
    except VisitError as e:
        if not isinstance(e.orig_exc, _BadNumber):  # pragma: no cover - a bug in the AST builder
            raise
        t = e.orig_exc.token
        col.error("E039", "number out of range: the range of values is +-10^300", _tok_span(file, t),
                  "numbers in a spec have at most a few digits")
        raise SpecError(col.diagnostics) from None
    spec.text = text
    _attach_citations(spec, comments, col)
    col.raise_if_any()
    return spec


def _attach_citations(spec: SpecFile, comments: list[Token], col: Collector) -> None:
    """A `# ID ...` comment cites its ids for the clause on its line, or else for the next clause (indexed by
    line first: a spec of many clauses and comments must not cost clauses times comments)."""
    clauses = list(spec.walk())
    leaf_at: dict[int, Clause] = {}   # line -> the last clause without a block that spans it
    head_at: dict[int, Clause] = {}   # line -> the last clause that starts on it
    for c in clauses:
        head_at[c.span.line] = c
        if not c.body:
            for line in range(c.span.line, c.span.end_line + 1):
                leaf_at[line] = c
    starts = sorted(range(len(clauses)), key=lambda i: (clauses[i].span.line, clauses[i].span.column))
    start_lines = [clauses[i].span.line for i in starts]
    for tok in comments:
        m = _CITE_RE.match(str(tok))
        if not m:
            continue
        ids = _ID_RE.findall(m.group(1))
        cite = Citation(ids, Span(spec.file, tok.line, tok.column, tok.line, tok.column + len(m.group(0))))
        line = tok.line
        target = leaf_at.get(line) or head_at.get(line)
        if target is None:
            k = bisect.bisect_right(start_lines, line)
            target = clauses[starts[k]] if k < len(starts) else None
        if target is None:
            spec.stray_cites.append(cite)
        else:
            target.cites.append(cite)
