"""TikZ and pgfplots: a tikzpicture (nested ones and pgfplots' axes inside it) is one picture of its
term, compiled on its own (glossary.pictures); the description keeps its place."""
import re

ENVIRONMENTS = frozenset({"tikzpicture"})
NESTING = re.compile(r"\\(begin|end)\s*\{tikzpicture\}")
OWN_OPTIONS = re.compile(r"^\\begin\{tikzpicture\}\s*(\[[^\]]*\])?|\\end\{tikzpicture\}$")
UNCLOSED = "\\begin{tikzpicture} has no \\end{tikzpicture}; close it"
EMPTY = "picture {n} draws nothing (an empty tikzpicture); draw it or remove the figure"


def end_of(text, pos):
    """The offset just after the \\end{tikzpicture} that closes the picture begun before pos, or None."""
    level = 1
    for m in NESTING.finditer(text, pos):
        level += 1 if m.group(1) == "begin" else -1
        if level == 0:
            return m.end()
    return None


def draws(tex):
    """Whether a picture draws anything: pdfTeX cannot include the empty page an empty one makes."""
    return bool(re.sub(r"%[^\n]*", "", OWN_OPTIONS.sub("", tex)).strip())
