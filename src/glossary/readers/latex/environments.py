"""Environments: the figures and tables a label numbers, the displayed math, lists (\\item) and the
other environments pandoc's LaTeX reader handles; any other counts as unknown (glossary.texdict)."""
from glossary.readers.latex.lexer import commands

FIGURE_ENVS = frozenset("figure figure* subfigure wrapfigure".split())
TABLE_ENVS = frozenset("table table*".split())
MATH_ENVS = frozenset(
    "equation equation* align align* gather gather* multline multline* eqnarray eqnarray* flalign "
    "flalign* alignat alignat* math displaymath".split())
KNOWN_ENVS = frozenset((
    "figure figure* subfigure wrapfigure table table* tabular tabular* tabularx center flushleft "
    "flushright minipage itemize enumerate description quote quotation verse verbatim lstlisting "
    "equation equation* align align* aligned gather gather* gathered multline multline* eqnarray "
    "eqnarray* flalign flalign* alignat alignat* split cases dcases array matrix pmatrix bmatrix "
    "Bmatrix vmatrix Vmatrix smallmatrix subequations math displaymath theorem lemma proof definition "
    "example corollary proposition remark abstract").split())
ENVIRONMENTS = KNOWN_ENVS | FIGURE_ENVS | TABLE_ENVS | MATH_ENVS
# \begin, \end, a list's \item and a float's \caption.
TEXT = commands("begin end item caption caption*".split())
COMMANDS = TEXT
