"""Citations (\\cite and natbib's \\citep, \\citet and kin): the commands a description may cite with.
Formatting them is glossary.citations' (citeproc)."""
import re
from pathlib import Path

from glossary.readers.latex.lexer import commands, strip_comments

TEXT = commands("cite citep citet citeauthor citeyear nocite".split())
COMMANDS = TEXT
# Where a description cites: \cite, \citep, \citet, \citeauthor ... with optional [pinpoint]s.
CITE = re.compile(r"\\(?:cite|citep|citet|citealp|citeauthor|citeyear|parencite|textcite)\*?"
                  r"(?:\s*\[[^\]]*\]){0,2}\s*\{([^{}]*)\}")


def in_file(path, term, shown=None):
    """[{"key", "path", "line", "term"}] of every citation of a LaTeX file that defines no term (the List
    of Symbols), comments aside, in order; `shown`: its path as messages name it (else `path`)."""
    text = strip_comments(Path(path).read_text(encoding="utf-8"), mark="")
    return [{"key": key.strip(), "path": shown or str(path), "line": text.count("\n", 0, m.start()) + 1,
             "term": term}
            for m in CITE.finditer(text) for key in m.group(1).split(",") if key.strip()]
