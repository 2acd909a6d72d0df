"""Citations (\\cite and natbib's \\citep, \\citet and kin): the commands a description may cite with.
Formatting them is glossary.citations' (citeproc)."""
import re

from glossary.readers.latex.lexer import commands

TEXT = commands("cite citep citet citeauthor citeyear nocite".split())
COMMANDS = TEXT
# Where a description cites: \cite, \citep, \citet, \citeauthor ... with optional [pinpoint]s.
CITE = re.compile(r"\\(?:cite|citep|citet|citealp|citeauthor|citeyear|parencite|textcite)\*?"
                  r"(?:\s*\[[^\]]*\]){0,2}\s*\{([^{}]*)\}")
