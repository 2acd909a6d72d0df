"""References (LaTeX's \\label and \\ref, amsmath's \\eqref, cleveref's \\cref, hyperref's \\autoref,
...) and the commands that steer equation numbering (amsmath's \\tag and \\nonumber; the rule itself
is glossary.eqnumbers')."""
import re

from glossary.readers.latex.lexer import commands

# The commands that name a label (several, comma-separated, for \cref).
REF_COMMANDS = commands("ref eqref cref Cref autoref pageref nameref subref vref".split())
# The references pandoc's reader keeps as raw TeX, and the commands in a picture whose number it prints.
RAW_REF = re.compile(r"\\(eqref|ref|autoref|cref|Cref)\{([^{}]*)\}")
LABEL_REFERENCE = re.compile(r"\\(?:eq|auto|c|C)?ref\s*\{([^{}]*)\}")
# What pandoc's reader handles in text and in math.
TEXT = commands("label ref eqref cref Cref autoref".split())
MATH = commands("label tag tag* nonumber".split())
COMMANDS = REF_COMMANDS | TEXT | MATH | commands(["notag"])

