"""glossaries-extra LaTeX read into the entry model: one lexer (glossary.readers.latex.lexer) and one
binding per LaTeX package or family of constructs, each owning its command and environment names
(COMMANDS, ENVIRONMENTS: no name is known to two bindings, tests/test_readers.py), its checks and
their messages:

    kernel         LaTeX's own text and math commands that pandoc reads, the print-only bookkeeping
    glossaries     \\newglossaryentry and the other ways to define a term, the \\gls family, its forms
    references     \\label, \\ref, \\eqref and kin, equation numbering's \\tag and \\nonumber
    citations      \\cite and kin
    graphics       \\includegraphics and the files it reads
    pictures       tikzpicture (pgfplots axes live inside one)
    environments   figures, tables, displayed math, lists and the other environments pandoc reads
"""
from glossary.readers.latex import citations, environments, glossaries, graphics, kernel, pictures, references

BINDINGS = (kernel, glossaries, references, citations, graphics, pictures, environments)


def known(mode):
    """Every command a binding reads in `mode` ("text" or "math"), with its backslash."""
    return frozenset().union(*(getattr(b, mode.upper(), frozenset()) for b in BINDINGS))


def owners(bindings=BINDINGS, kind="COMMANDS"):
    """{name: [the bindings that know it]} of every command (kind "COMMANDS") or environment
    ("ENVIRONMENTS") the bindings know, by module name."""
    found = {}
    for binding in bindings:
        for name in sorted(getattr(binding, kind, ())):
            found.setdefault(name, []).append(binding.__name__.rsplit(".", 1)[-1])
    return found
