"""graphicx's \\includegraphics: the file it names, looked up under the dictionary's folder with the
suffixes pdflatex tries."""
import re
from pathlib import Path

from glossary.entries import EntryError
from glossary.readers.latex.lexer import commands

SUFFIXES = ("", ".png", ".jpg", ".jpeg", ".pdf")
NL = "\n"
# The \includegraphics of a picture's own TeX (its nodes may show a photo).
INCLUDE = re.compile(r"\\includegraphics\s*(?:\[[^]]*\])?\s*\{([^{}]*)\}")
TEXT = commands(["includegraphics"])
COMMANDS = TEXT


def resolve(root, name, where, key):
    """The path (relative to root, with its suffix) of the graphic `name`; missing, or absolute (not the
    dictionary's): an EntryError."""
    if Path(name).is_absolute() or name.startswith("~"):
        raise EntryError(f"{where}: term {key!r}: \\includegraphics{{{name}}}: an absolute path, outside the "
                         "dictionary's folder; move the file into the folder and name it relative to the main file")
    for suffix in SUFFIXES:
        if (Path(root) / (name + suffix)).is_file():
            return Path(name + suffix).as_posix()
    raise EntryError(f"{where}: term {key!r}: \\includegraphics{{{name}}}: no such file under the "
                     "dictionary's folder (tried .png, .jpg, .pdf); fix the path or add the file")


def files(root, tex, where, key):
    """The files the \\includegraphics of a piece of TeX read (`where`: the TeX's start, file:line;
    each told at its own line)."""
    start = re.search(r":(\d+)(:\d+)?$", where)
    at = lambda m: f"{where[:start.start()]}:{int(start.group(1)) + tex.count(NL, 0, m.start())}" if start else where
    return [resolve(root, m.group(1).strip(), at(m), key) for m in INCLUDE.finditer(tex)]
