"""The mistakes a build reports, below every reader and the model (glossary.entries, glossary.xref, the
LaTeX reader), so that each can tell one without importing another.

A `Mistake` is one mistake as a value: where (file, line, column), which term, what is wrong and the
fix.  A reader collects them; `Mistakes` is the error that carries all of them at once, told as one
report (`file:line:column: term: what; fix`, grouped by file in line order, capped, with a summary).
EntryError is the older, single-message form: `file: field: problem; fix`.
"""
from dataclasses import dataclass

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
    the rest, and a summary by kind."""
    ordered = sorted(set(mistakes), key=Mistake.order)
    lines = [str(m) for m in ordered[:shown]]
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
