"""graphicx's \\includegraphics: the file it names, looked up under the dictionary's folder with the
suffixes pdflatex tries."""
import re
from pathlib import Path

from glossary.errors import EntryError, fault
from glossary.readers.latex.lexer import commands

SUFFIXES = ("", ".png", ".jpg", ".jpeg", ".pdf")
# The \includegraphics of a picture's own TeX (its nodes may show a photo).
INCLUDE = re.compile(r"\\includegraphics\s*(?:\[[^]]*\])?\s*\{([^{}]*)\}")
TEXT = commands(["includegraphics"])
COMMANDS = TEXT


def resolve(root, name, where, key):
    """The path (relative to root, with its suffix) of the graphic `name`; missing: a Mistake at
    `where` (a lexer Position, or a "file:line" text)."""
    for suffix in SUFFIXES:
        if (Path(root) / (name + suffix)).is_file():
            return Path(name + suffix).as_posix()
    near = nearby(root, name, SUFFIXES)
    fix = f"did you mean {near}? (paths are relative to the main file's folder)" if near else \
        "fix the path or add the file"
    what = f"\\includegraphics{{{name}}}: no such file under the dictionary's folder (tried .png, .jpg, .pdf)"
    if isinstance(where, str):
        raise EntryError(f"{where}: term {key!r}: {what}; {fix}")
    raise fault(where, what, fix, term=key, kind="missing-file")


def nearby(root, name, suffixes=("",)):
    """`name` as a path from root to a folder up to two levels above it where the file is (an edition's
    folder names the base dictionary's assets so), or None."""
    for up in ("../", "../../"):
        for suffix in suffixes:
            if (Path(root) / up / (name + suffix)).is_file():
                return up + name
    return None


def files(root, tex, where, key):
    """The files the \\includegraphics of a piece of TeX read."""
    return [resolve(root, n.strip(), where, key) for n in INCLUDE.findall(tex)]
