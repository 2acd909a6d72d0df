"""Environments: the figures and tables a label numbers, the displayed math, lists (\\item) and the
other environments pandoc's LaTeX reader handles; any other counts as unknown (glossary.texdict)."""
import re

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

# A minipage's width, as a share of the line (0.95\textwidth, .45\linewidth, \columnwidth): pandoc reads
# a minipage as a Div and forgets it, and its LaTeX writer sets a figure's blocks side by side at 1/n of
# the line each, where the book stacks a 0.95 minipage above two of 0.45.  The reader marks it
# (`MINIPAGE_MARK{0.95}` after the width) for glossary.texprose.captions; print writes it back.
MINIPAGE_MARK = "\\GlossaryMinipage"
# its position, the first optional argument ([t]: its first line's baseline on the line's), marked after
# the width (`MINIPAGE_MARK{0.45t}`): print sets side by side what the author set so
MINIPAGE_POSITION = re.compile(r"\s*\[\s*([tcb])\s*\]")
MARKED_MINIPAGE = re.compile(r"([\d.]+)([tcb])?")
LINE_WIDTH = re.compile(r"\s*(\d*\.?\d*)\s*\\(?:textwidth|linewidth|columnwidth|hsize)\s*")


def minipage_width(argument):
    """The share of the line a minipage's width argument asks for ("0.95", "1"), or None (a length)."""
    m = LINE_WIDTH.fullmatch(argument)
    if not m or m.group(1) in (".",):
        return None
    share = float(m.group(1)) if m.group(1) else 1.0
    return f"{share:g}" if 0 < share <= 1 else None


# \caption* (the caption package's caption without a number), as the book shows it.  pandoc keeps only a
# float's last caption and numbers it, so the reader marks it for glossary.texprose.captions:
# - the float's only caption: `\caption{MARK{unnumbered}...}`, an unnumbered Figure or Table;
# - one of several (under each picture of a row of minipages): `MARK{sub}...MARK{end}`, a Div of class
#   "subcaption" where it stood.  Neither changes the lines of the text.
CAPTION_MARK = "\\GlossaryCaption"
CAPTIONS = re.compile(r"\\caption(?![A-Za-z])")
FLOAT_ENVS = FIGURE_ENVS | TABLE_ENVS


def caption_star(text, start, content_start, end, envs):
    """The edits ([(start, end, replacement)]) of the \\caption* at `start` whose argument's text runs
    from content_start to end - 1: the float around it (the innermost of `envs`, the open environments)
    holds no other caption, or it does."""
    name = next((e for e in reversed(envs) if e in FLOAT_ENVS), None)
    if name is not None:
        opened = text.rfind(f"\\begin{{{name}}}", 0, start)
        closed = text.find(f"\\end{{{name}}}", end)
        span = text[max(opened, 0):closed if closed >= 0 else len(text)]
    lines = "\n" * text.count("\n", start, content_start)
    if name is not None and len(CAPTIONS.findall(span)) == 1:
        return [(start, content_start, f"\\caption{{{CAPTION_MARK}{{unnumbered}}{lines}")]
    return [(start, content_start, f"{CAPTION_MARK}{{sub}}{lines}"), (end - 1, end, f"{CAPTION_MARK}{{end}}")]
