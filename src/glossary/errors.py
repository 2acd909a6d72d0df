"""The mistakes a build reports, below every reader and the model (glossary.entries, glossary.xref, the
LaTeX reader), so that each can tell one without importing another.

A `Mistake` is one mistake as a value: where (file, line, column), which term, what is wrong and the
fix.  A reader collects them; `Mistakes` is the error that carries all of them at once, told as one
report (`file:line:column: term: what; fix`, grouped by file in line order, capped, with a summary).
EntryError is the older, single-message form: `file: field: problem; fix`.
"""
import re
from dataclasses import dataclass, replace

# How many mistakes a report lists before it counts the rest.
SHOWN = 50


class EntryError(ValueError):
    """A mistake in an entry or in config.yaml, told as `file: field: problem; fix`."""


@dataclass(frozen=True)
class Mistake:
    """One mistake: file (as the author names it, relative to the dictionary's folder), 1-based line and
    column, the term's key (None outside an entry), what is wrong, the fix, a short kind for the summary
    ("undefined-key", "encoding" ...) and the edition's language (None for the base dictionary)."""
    file: str
    line: int
    column: int
    what: str
    fix: str
    term: str | None = None
    kind: str = "mistake"
    edition: str | None = None

    def __str__(self):
        term = f"term {self.term!r}: " if self.term else ""
        edition = f" ({self.edition} edition)" if self.edition else ""
        return f"{self.file}:{self.line}:{self.column}{edition}: {term}{self.what}; {self.fix}"

    def order(self):
        return (self.edition or "", self.file, self.line, self.column, self.what)


def report(mistakes, shown=SHOWN):
    """The mistakes as one text: grouped by file, in line order, the first `shown` of them, a count of
    the rest, and a summary by kind (none for a single mistake: its line says it all)."""
    ordered = sorted(set(mistakes), key=Mistake.order)
    lines = [str(m) for m in ordered[:shown]]
    if len(ordered) == 1:
        return lines[0]
    if len(ordered) > shown:
        lines.append(f"... and {len(ordered) - shown} more")
    kinds = {}
    for m in ordered:
        kinds[m.kind] = kinds.get(m.kind, 0) + 1
    summary = ", ".join(f"{n} {kind}" for kind, n in sorted(kinds.items(), key=lambda kv: (-kv[1], kv[0])))
    lines.append(f"{len(ordered)} mistake{'s' if len(ordered) != 1 else ''}: {summary}")
    return "\n".join(lines)


class Mistakes(EntryError):
    """Every mistake a read found, raised once at its end; str() is report()."""

    def __init__(self, mistakes):
        self.mistakes = sorted(set(mistakes), key=Mistake.order)
        super().__init__(report(self.mistakes))


# An older single-message EntryError: "file:line[:column]: [term 'key': ]what; fix".
TOLD = re.compile(r"(?s)^(?P<file>[^\n:]+?):(?P<line>\d+)(?::(?P<column>\d+))?: (?:term '(?P<term>[^']*)': )?"
                  r"(?P<what>.*?)(?:; (?P<fix>[^;]*))?$")


def mistakes_of(err, kind="mistake", edition=None):
    """The Mistakes an error carries: its own list, or an older EntryError's message read back into one
    Mistake (column 1 when it names none), so that a reader that collects can keep every check's words."""
    if isinstance(err, Mistakes):
        found = err.mistakes
    else:
        m = TOLD.match(str(err))
        if m:
            found = [Mistake(m["file"], int(m["line"]), int(m["column"] or 1), m["what"], m["fix"] or "",
                             term=m["term"], kind=kind)]
        else:
            found = [told_at_field(str(err), kind)]
    return [replace(m, edition=edition) if edition and not m.edition else m for m in found]


def fault(position, what, fix, term=None, kind="mistake"):
    """Mistakes([one]) at a position (anything with file, line and column: the lexer's Position), for
    a check that cannot go on with its construct; the reader that collects catches it."""
    return Mistakes([Mistake(position.file, position.line, position.column, what, fix, term=term, kind=kind)])


# A config's EntryError: "file: field: problem; fix", the field dotted (demos.gd.script, figures[0].name).
FIELD = re.compile(r"(?s)^(?P<file>[^\n:]+?): (?P<field>[A-Za-z_][\w.\[\]-]*): (?P<what>.*?)(?:; (?P<fix>[^;]*))?$")


def told_at_field(message, kind):
    """A Mistake of a message that names a file and, for a YAML file, a field: at the field's line."""
    m = FIELD.match(message)
    if not m:
        file, _, rest = message.partition(": ")
        what, _, fix = rest.rpartition("; ") if "; " in rest else (rest, "", "")
        return Mistake(file, 1, 1, what or message, fix, kind=kind)
    line, column = field_position(m["file"], m["field"])
    return Mistake(m["file"], line, column, f"{m['field']}: {m['what']}", m["fix"] or "", kind=kind)


def field_position(path, field):
    """The line and column of a dotted field (demos.gd.script) in a YAML file, each key looked for below
    the one before it; (1, 1) when the file or a key is not found."""
    try:
        lines = open(path, encoding="utf-8", errors="replace").read().split("\n")
    except OSError:
        return 1, 1
    at, column = 0, 1
    for name in re.sub(r"\[\d+\]", "", field).split("."):
        key = re.compile(r"^(?P<lead>[\s-]*|.*[{,]\s*)" + re.escape(name) + r"\s*:")
        for i in range(at, len(lines)):
            hit = key.match(lines[i])
            if hit:
                at, column = i, len(hit["lead"]) + 1
                break
        else:
            return (at + 1, column) if at else (1, 1)
    return at + 1, column
