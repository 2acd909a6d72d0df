"""What a description names, each with its line: the glossary keys of its \\gls family, the labels
of its \\ref family, the keys it \\cite's, the labels it defines (the entry model's links,
label_refs, citations and labels).  The names are the bindings' (glossaries, references, citations);
this module only finds them (where a \\label is allowed, and its number, is glossary.texdict's)."""
import re

from glossary.readers.latex import citations, glossaries, references

# A label named by any of the references binding's commands.
LABEL_NAMED = re.compile(r"\\(?:" + "|".join(sorted((c[1:] for c in references.REF_COMMANDS), key=len, reverse=True))
                         + r")\{([^{}]*)\}")
LABEL = re.compile(r"\\label\s*\{([^{}]*)\}")


def of(source, line):
    """([(key, line)], [(label, line)], [(citation key, line)], [(label defined, line)]) of a
    description starting on `line` of its file, each in order."""
    def at(m):
        return line + source.count("\n", 0, m.start())
    keys = [(m.group(1).strip(), at(m)) for m in glossaries.KEY_CALL.finditer(source)]
    labels = [(m.group(1), at(m)) for m in LABEL_NAMED.finditer(source)]
    defined = [(m.group(1), at(m)) for m in LABEL.finditer(source)]
    return keys, labels, cited(source, line), defined


def cited(source, line):
    """[(citation key, line)] of a description starting on `line` of its file, in order (of()'s third)."""
    return [(k.strip(), line + source.count("\n", 0, m.start()))
            for m in citations.CITE.finditer(source) for k in m.group(1).split(",") if k.strip()]
