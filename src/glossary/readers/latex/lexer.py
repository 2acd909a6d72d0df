"""The one LaTeX lexer of the readers: comments, brace and bracket groups, arguments, optional
arguments, key=value lists and environments, each found with its file, line and column.

Every LaTeX reader of the project scans with these functions (glossary.texdict, glossary.texprose,
glossary.texmeta, glossary.pictures, glossary.eqnumbers), so that a brace or a comment means one
thing everywhere:

- a `%` starts a comment unless it is escaped (`\\%`); after a line break `\\\\` it does start one;
- a group is the text between a `{` and its matching `}` (or `[` and `]`), an escaped brace (`\\{`,
  `\\}`) and anything after a backslash taken as no brace;
- offsets are into the comment-stripped text, which keeps every line end, so a line and a column
  of it are a line and a column of the file.

    src = Source(path, rel)              # the file, comments stripped; src.position(offset)
    end = group_end(text, start)         # just after the group opening at text[start], or None
    content, start, end = argument(text, pos, src, "\\\\name")
    end, items = options_group(text, start)   # {key=value, ...} in one pass
    for token in tokens(src): ...        # Token(kind, text, start, end) with .position(src)

A group that does not close is glossary.errors.Mistakes naming the file, line, column and the fix.
A file is read as UTF-8 unless the main file declares another encoding with inputenc (`encoding_of`),
as LaTeX reads it; a byte that is not of the encoding is a Mistake naming its line, column and bytes.
"""
import bisect
import re
from dataclasses import dataclass
from pathlib import Path

from glossary.errors import fault

# A `%` comment, or the two escapes that decide whether a `%` starts one: `\\%` is no comment,
# `\\\\%` (a line break) is followed by one.
COMMENT = re.compile(r"(\\[\\%])|%[^\n]*")
# A control word or symbol, a brace, a dollar: the tokens a scanner acts on.
TOKEN = re.compile(r"\\(?:[A-Za-z@]+\*?|[\s\S])|[{}$]")
# Braces, skipping the escapes that look like them: \{ \} and \\.
BRACE = re.compile(r"\\[\\{}]|[{}]")
# Brackets and braces together (an optional argument's), anything after a backslash skipped.
BRACKET = re.compile(r"\\[\s\S]|[][{}]")
# One group's delimiters, anything after a backslash skipped.
DELIMITERS = {"{": re.compile(r"\\[\s\S]|[{}]"), "[": re.compile(r"\\[\s\S]|[][]")}
CLOSE = {"{": "}", "[": "]"}
COMMA = re.compile(r"(?<!\\),")
# What TeX skips between a command and its arguments (a `%` is where a comment was).
SPACE = " \t\n%"
ENVIRONMENT = re.compile(r"\\(begin|end)\s*\{([^{}]*)\}")
# \usepackage[enc]{inputenc} on a line of its own (not after a `%`), read from the file's bytes.
INPUTENC = re.compile(rb"(?m)^[^%\n]*\\usepackage\s*\[([^\]]*)\]\s*\{inputenc\}")
# inputenc's encodings (its .def files) and Python's codec of each.
ENCODINGS = {
    "utf8": "utf-8", "ascii": "ascii", "latin1": "latin-1", "latin2": "iso8859-2", "latin3": "iso8859-3",
    "latin4": "iso8859-4", "latin5": "iso8859-9", "latin9": "iso8859-15", "latin10": "iso8859-16",
    "ansinew": "cp1252", "cp1252": "cp1252", "cp1250": "cp1250", "cp1251": "cp1251", "cp1257": "cp1257",
    "cp437": "cp437", "cp437de": "cp437", "cp850": "cp850", "cp852": "cp852", "cp858": "cp858",
    "cp865": "cp865", "cp866": "cp866", "koi8-r": "koi8-r", "applemac": "mac-roman", "macce": "mac-latin2",
}


@dataclass(frozen=True)
class Position:
    """A place in a source file: its path as the reader names it, 1-based line and column."""
    file: str
    line: int
    column: int

    def __str__(self):
        return f"{self.file}:{self.line}:{self.column}"


@dataclass(frozen=True)
class Token:
    """A lexed piece of a file: kind is "command" (a control word or symbol), "begin" or "end" (an
    environment, text its name), "open", "close" (a brace) or "math" (a dollar); start and end are
    offsets into the source's text."""
    kind: str
    text: str
    start: int
    end: int

    def position(self, src):
        return src.position(self.start)


class Source:
    """One file as opened: its comment-stripped text (same lines; a comment-only line keeps its `%`,
    so only a really blank line looks blank) and its line starts."""

    def __init__(self, path, rel, text=None, encoding="utf-8"):
        self.path, self.rel = Path(path), rel
        self.raw = decode(read_bytes(self.path, rel), rel, encoding) if text is None else text
        self.text = strip_comments(self.raw)
        self.starts = [0] + [m.end() for m in re.finditer("\n", self.text)]

    def line(self, offset):
        """The 1-based line of an offset into the stripped text (which keeps every line end)."""
        return bisect.bisect_right(self.starts, offset)

    def column(self, offset):
        """The 1-based column of an offset (in characters)."""
        return offset - self.starts[self.line(offset) - 1] + 1

    def position(self, offset):
        return Position(self.rel, self.line(offset), self.column(offset))

    def where(self, offset):
        return f"{self.rel}:{self.line(offset)}"


def read_bytes(path, rel):
    """A file's bytes; one that cannot be read (permissions, a folder) is a Mistake."""
    try:
        return Path(path).read_bytes()
    except OSError as err:
        raise fault(Position(rel, 1, 1), f"cannot be read ({err.strerror})", "check that it is a file you can read",
                    kind="unreadable") from None


def encoding_of(data):
    """Python's codec for the file whose bytes are `data`: the last encoding its
    \\usepackage[...]{inputenc} names (LaTeX reads every later file in it too), else UTF-8."""
    found = "utf-8"
    for m in INPUTENC.finditer(data):
        for name in m.group(1).decode("ascii", "replace").split(","):
            found = ENCODINGS.get(name.strip(), found)
    return found


def decode(data, rel, encoding="utf-8"):
    """A file's bytes as text; a byte sequence the encoding has no character for is a Mistake at its
    line and column (in characters of the text before it) naming the bytes and the fix."""
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as err:
        before = data[:err.start].decode(encoding, errors="replace")
        line = before.count("\n") + 1
        column = len(before) - (before.rfind("\n") + 1) + 1
        name = "UTF-8" if encoding == "utf-8" else encoding
        fix = f"save the file as {name}"
        if encoding == "utf-8" and rel.endswith(".tex"):
            fix += " (or declare the encoding it is in in the main file: \\usepackage[latin1]{inputenc})"
        elif encoding != "utf-8":
            fix += ", the encoding the main file declares with inputenc"
        raise fault(Position(rel, line, column), f"the bytes {data[err.start:err.end]!r} are not {name} "
                    f"({err.reason})", fix, kind="encoding") from None


class Part:
    """A piece of a source (text[base:...]) that messages tell as lines of the source's file."""

    def __init__(self, src, base):
        self.src, self.base, self.rel = src, base, src.rel

    def where(self, offset):
        return self.src.where(self.base + offset)

    def position(self, offset):
        return self.src.position(self.base + offset)


def commands(names):
    """Names as the lexer's tokens: with their backslash."""
    return frozenset(n if n.startswith("\\") else "\\" + n for n in names)


def strip_comments(text, mark="%"):
    """Text without `%` comments; each line keeps its end and `mark` where the comment was: a lone
    `%` by default, since TeX joins that line with the next one (no blank line, no space)."""
    return COMMENT.sub(lambda m: m.group(1) or mark, text)


def group_end(text, start):
    """The offset just after the group (`{...}` or `[...]`) opening at text[start], or None when it
    does not close."""
    opener = text[start]
    if opener == "{":
        close = text.find("}", start)
        if close > 0 and "{" not in text[start + 1:close] and "\\" not in text[start + 1:close]:
            return close + 1  # the common case, {key}: no group or escape inside
    depth = 0
    for m in DELIMITERS[opener].finditer(text, start):
        tok = m.group(0)
        if tok == opener:
            depth += 1
        elif tok == CLOSE[opener]:
            depth -= 1
            if depth == 0:
                return m.end()
    return None


def closing(text, start, src, what):
    """group_end, a group that does not close a Mistake at its place."""
    end = group_end(text, start)
    if end is None:
        raise fault(src.position(start), f"{what}: the braces opened here do not close before the end of "
                    f"{src.rel}", "add the missing '}' (or remove a stray '{')", kind="unbalanced-braces")
    return end


def scope_end(text, start):
    """The offset of the '}' that closes the group `start` lies in (len(text) at top level)."""
    depth = 0
    for m in DELIMITERS["{"].finditer(text, start):
        tok = m.group(0)
        if tok == "{":
            depth += 1
        elif tok == "}":
            if depth == 0:
                return m.start()
            depth -= 1
    return len(text)


def skip_space(text, pos):
    while pos < len(text) and text[pos] in SPACE:
        pos += 1
    return pos


def argument(text, pos, src, what):
    """The brace group (or single token) argument at pos, after spaces: (content, start, end)."""
    pos = skip_space(text, pos)
    if pos < len(text) and text[pos] == "{":
        end = closing(text, pos, src, what)
        return text[pos + 1:end - 1], pos + 1, end
    m = TOKEN.match(text, pos)
    end = m.end() if m else min(pos + 1, len(text))
    return text[pos:end], pos, end


def optional(text, pos):
    """The end of a `[...]` optional argument at pos (after spaces), or pos when there is none."""
    at = skip_space(text, pos)
    if at < len(text) and text[at] == "[":
        depth = 0
        for m in BRACKET.finditer(text, at):
            tok = m.group(0)
            depth += tok in "[{"
            depth -= tok in "]}"
            if depth == 0:
                return m.end()
    return pos


def groups(text, at, limit=None):
    """(end, [group's text with its delimiters]): the [..] and {..} groups that follow `at` (spaces
    and one line end between), at most `limit` of them; one that does not close is a ValueError."""
    found = []
    while limit is None or len(found) < limit:
        skip = re.match(r"[ \t]*\n?[ \t]*", text[at:])
        nxt = at + skip.end()
        if nxt >= len(text) or text[nxt] not in "{[":
            break
        end = group_end(text, nxt)
        if end is None:
            raise ValueError(f"unbalanced {text[nxt]} at offset {nxt}")
        found.append(text[nxt:end])
        at = end
    return at, found


def command_argument(src, text, name):
    """The argument of the first \\name (after an optional [...]) in text, with its Part; or None."""
    m = re.search(r"\\" + name + r"(?![A-Za-z@])\s*\*?", text)
    if not m:
        return None, None
    pos = optional(text, m.end())
    arg, start, _ = argument(text, pos, src, "\\" + name)
    return arg, Part(src, start)


def split_options(text, offset):
    """A key=value list at brace depth 0: [(name, value, value_offset)], values unbraced once."""
    return options_group("{" + text + "}", 0, offset - 1)[1]


def options_group(text, start, offset=0):
    """The brace group at text[start] read as a key=value list in one pass: (end just after its
    closing brace or None when it does not close, [(name, value, offset + value's offset)]), a
    value that is one whole group without its braces and None for a name without '='."""
    cuts, closed, depth, opened, level_one = [], {}, 0, 0, start + 1
    for m in BRACE.finditer(text, start):
        tok = m.group(0)
        if tok == "{":
            depth += 1
            if depth == 2:
                opened = m.start()
                cuts += comma_cuts(text, level_one, opened)
        elif tok == "}":
            depth -= 1
            if depth == 1:
                closed[opened] = level_one = m.end()
            elif depth == 0:
                cuts += comma_cuts(text, level_one, m.start())
                break
    else:
        return None, []
    items, begin = [], start + 1
    for cut in cuts + [m.start()]:
        part = text[begin:cut]
        if part.strip(SPACE):
            name, eq, value = part.partition("=")
            vstart = begin + len(name) + 1
            vstart += len(value) - len(value.lstrip(SPACE))
            value = value.strip(SPACE)
            if value.startswith("{") and closed.get(vstart) == vstart + len(value):
                value, vstart = value[1:-1], vstart + 1
            items.append((name.strip(SPACE), value if eq else None, offset + vstart))
        begin = cut + 1
    return m.end(), items


def comma_cuts(text, start, end):
    """The offsets of the commas in text[start:end] (a stretch outside any group), but `\\,`."""
    return [m.start() for m in COMMA.finditer(text, start, end)]


def top_level(text, pattern, environments=False):
    """[(start, end)] of the stretches of text between the matches of `pattern` outside any brace
    group (and, with `environments`, outside any environment begun inside text)."""
    nesting = r"\\(?P<env>begin|end)\s*\{[^{}]*\}|" if environments else ""
    token = re.compile(f"(?P<cut>{pattern.pattern})|{nesting}\\\\[A-Za-z@]+|\\\\[\\s\\S]|[{{}}]")
    spans, start, depth, nested = [], 0, 0, 0
    for m in token.finditer(text):
        tok = m.group(0)
        if m.group("cut") is not None:
            if depth == 0 and nested == 0:
                spans.append((start, m.start()))
                start = m.end()
        elif tok == "{":
            depth += 1
        elif tok == "}":
            depth -= 1
        elif environments and m.group("env") == "begin":
            nested += 1
        elif environments and m.group("env") == "end":
            nested -= 1
    return spans + [(start, len(text))]


def cut_top(text, pattern):
    """text cut where `pattern` matches outside any brace group."""
    return [text[start:end] for start, end in top_level(text, pattern)]


def tokens(src):
    """The tokens of a source's text, in order, each with its offsets (Token; .position(src) gives
    its file, line and column): commands, environments' begins and ends, braces and dollars."""
    text, pos = src.text, 0
    while True:
        m = TOKEN.search(text, pos)
        if not m:
            return
        tok, pos = m.group(0), m.end()
        if tok in ("\\begin", "\\end"):
            name, _, end = argument(text, pos, src, tok)
            yield Token(tok[1:], name.strip(), m.start(), end)
            pos = end
        elif tok in "{}$":
            yield Token({"{": "open", "}": "close", "$": "math"}[tok], tok, m.start(), pos)
        else:
            yield Token("command", tok, m.start(), pos)


def environments(src):
    """[(name, start, end)] of each environment of a source's text, its start at \\begin and its end
    just after its \\end (an unclosed one ends with the text), in order of their \\begin."""
    found, open_ = [], []
    for m in ENVIRONMENT.finditer(src.text):
        if m.group(1) == "begin":
            open_.append(len(found))
            found.append([m.group(2), m.start(), len(src.text)])
        else:
            at = next((i for i in reversed(open_) if found[i][0] == m.group(2)), None)
            if at is not None:
                found[at][2] = m.end()
                open_ = open_[:open_.index(at)]
    return [tuple(e) for e in found]
