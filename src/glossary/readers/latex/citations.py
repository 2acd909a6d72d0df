"""Citations (\\cite and natbib's \\citep, \\citet and kin): the commands a description may cite with.
Formatting them is glossary.citations' (citeproc)."""
from glossary.readers.latex.lexer import commands

TEXT = commands("cite citep citet citeauthor citeyear nocite".split())
COMMANDS = TEXT
