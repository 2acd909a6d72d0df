"""graphicx's \\includegraphics: the file it names, looked up under the dictionary's folder with the
suffixes pdflatex tries."""
import re
from pathlib import Path

from glossary.entries import EntryError
from glossary.readers.latex.lexer import commands

SUFFIXES = ("", ".png", ".jpg", ".jpeg", ".pdf")
# The \includegraphics of a picture's own TeX (its nodes may show a photo).
INCLUDE = re.compile(r"\\includegraphics\s*(?:\[[^]]*\])?\s*\{([^{}]*)\}")
TEXT = commands(["includegraphics"])
COMMANDS = TEXT


def resolve(root, name, where, key):
    """The path (relative to root, with its suffix) of the graphic `name`; missing: an EntryError."""
    for suffix in SUFFIXES:
        if (Path(root) / (name + suffix)).is_file():
            return Path(name + suffix).as_posix()
    raise EntryError(f"{where}: term {key!r}: \\includegraphics{{{name}}}: no such file under the "
                     "dictionary's folder (tried .png, .jpg, .pdf); fix the path or add the file")


def files(root, tex, where, key):
    """The files the \\includegraphics of a piece of TeX read."""
    return [resolve(root, n.strip(), where, key) for n in INCLUDE.findall(tex)]
