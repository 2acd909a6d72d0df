"""graphicx's \\includegraphics: the file it names, looked up under the dictionary's folder with the
suffixes pdflatex tries."""
import re
from pathlib import Path

from glossary.errors import EntryError, fault
from glossary.readers.latex import environments
from glossary.readers.latex.lexer import Position, commands

SUFFIXES = ("", ".png", ".jpg", ".jpeg", ".pdf")
NL = "\n"
# The \includegraphics of a picture's own TeX (its nodes may show a photo).
INCLUDE = re.compile(r"\\includegraphics\s*(?:\[[^]]*\])?\s*\{([^{}]*)\}")
TEXT = commands(["includegraphics"])
COMMANDS = TEXT
# A width given as a share of the line (width=0.8\textwidth, \linewidth, \columnwidth): the page and
# print show the photo so; another width (2cm, a scale) leaves it at its own size.
WIDTH_OPTION = re.compile(r"\bwidth\s*=\s*([^,\]]*)")


def line_share(options):
    """The share of the line an \\includegraphics's [options] give its width ("0.8"), or None: a
    width read as a minipage's is (environments.minipage_width)."""
    m = WIDTH_OPTION.search(options)
    return environments.minipage_width(m.group(1)) if m else None


def resolve(root, name, where, key):
    """The path (relative to root, with its suffix) of the graphic `name`; missing, or absolute (not the
    dictionary's): a Mistake at `where` (a lexer Position, or a "file:line" text)."""
    if Path(name).is_absolute() or name.startswith("~"):
        return _fail(where, key, f"\\includegraphics{{{name}}}: an absolute path, outside the dictionary's folder",
                     "move the file into the folder and name it relative to the main file", "outside-folder")
    for suffix in SUFFIXES:
        if (Path(root) / (name + suffix)).is_file():
            return Path(name + suffix).as_posix()
    near = nearby(root, name, SUFFIXES)
    fix = f"did you mean {near}? (paths are relative to the main file's folder)" if near else \
        "fix the path or add the file"
    what = f"\\includegraphics{{{name}}}: no such file under the dictionary's folder (tried .png, .jpg, .pdf)"
    return _fail(where, key, what, fix, "missing-file")


def _fail(where, key, what, fix, kind):
    if isinstance(where, str):
        raise EntryError(f"{where}: term {key!r}: {what}; {fix}")
    raise fault(where, what, fix, term=key, kind=kind)


def nearby(root, name, suffixes=("",)):
    """`name` as a path from root to a folder up to two levels above it where the file is (an edition's
    folder names the base dictionary's assets so), or None."""
    for up in ("../", "../../"):
        for suffix in suffixes:
            if (Path(root) / up / (name + suffix)).is_file():
                return up + name
    return None


def files(root, tex, where, key):
    """The files the \\includegraphics of a piece of TeX read (`where`: the TeX's start, a lexer Position
    or a "file:line" text; each told at its own line)."""
    return [resolve(root, m.group(1).strip(), _at(where, tex, m.start()), key) for m in INCLUDE.finditer(tex)]


def _at(where, tex, offset):
    """`where` moved on to `offset` into tex."""
    lines = tex.count(NL, 0, offset)
    if isinstance(where, Position):
        column = offset - tex.rfind(NL, 0, offset) if lines else where.column + offset
        return Position(where.file, where.line + lines, column)
    start = re.search(r":(\d+)(:\d+)?$", where)
    return f"{where[:start.start()]}:{int(start.group(1)) + lines}" if start else where
