"""What the language server (glossary.lsp) knows of a dictionary's files, without the protocol: the
dictionary a workspace folder holds, each file's terms, references, citations, labels and macros
with their places, the .bib file's records, and the mistakes of a check as places in files.

    project = find(folder)                 # the YAML file naming main: (most editions) or a main .tex
    index = FileIndex(path, rel, text)     # one file's places, from the project's lexer and bindings
    index.at(offset)                       # the place under the cursor, or None
    records = bib_records(bib_path)        # {key: Record(key, offset, line, author, year, title)}
    range_of(mistake, text)                # (line, start column, end column), 0-based, of a Mistake

Every name comes from the reader's bindings (glossary.readers.latex: glossaries, citations,
references, kernel) and every scan from its lexer, so the server sees a file as the build reads it.
A place is (kind, name, start, end): kind "define" (a term's key where it is defined), "gls" (a key
in the \\gls family), "cite", "label", "ref", "macro" (a macro's name where it is defined) or "use"
(any control word under the cursor); start and end are offsets of the name in the file's text.
"""
import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from glossary import citations
from glossary.entries import EntryError
from glossary.readers.latex import citations as cite_binding
from glossary.readers.latex import config, glossaries, references
from glossary.readers.latex.kernel import DEFINITION
from glossary.readers.latex.lexer import TOKEN, Source, argument, groups, optional

LABEL = "\\label"


@dataclass(frozen=True)
class Place:
    kind: str
    name: str
    start: int
    end: int
    command: str = ""


@dataclass
class Project:
    """A dictionary found in a workspace folder: its source (the YAML file or the main .tex file), the
    base edition's main file and each translation's {lang: {"main", "complete"}}."""
    source: Path
    main: Path
    editions: dict = field(default_factory=dict)
    demos: dict = field(default_factory=dict)
    language: str = "en"


def find(folder, source=None):
    """The dictionary of a workspace folder: `source` when given, else the one `glossary build` takes
    there (glossary.readers.latex.config.sources_in: dictionary.yaml, else the YAML file naming a main
    file, else the main .tex file; the first by name where there are several); None when there is none."""
    folder = Path(folder)
    if source:
        return project_of(Path(source) if Path(source).is_absolute() else folder / source)
    found = config.sources_in(folder)
    return project_of(found[0]) if found else None


def project_of(path):
    """The Project of a YAML file or a main .tex file (the YAML file read as plainly as the build's
    config reader would read it; its mistakes are the check's to tell)."""
    path = path.resolve()
    if path.suffix == ".tex":
        return Project(path, path)
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    editions = {lang: {"main": (path.parent / spec["main"]).resolve(), "complete": bool(spec.get("complete"))}
                for lang, spec in sorted((data.get("editions") or {}).items())
                if isinstance(spec, dict) and isinstance(spec.get("main"), str)}
    return Project(path, (path.parent / data["main"]).resolve(), editions, dict(data.get("demos") or {}),
                   str(data.get("language") or "en"))


class FileIndex:
    """The places of one file's text (see the module's docstring), in order."""

    def __init__(self, path, rel, text):
        self.path, self.text = Path(path), text
        self.src = Source(path, rel, text)
        self.places = []
        self.scan()
        self.places.sort(key=lambda p: p.start)

    def scan(self):
        text, pos = self.src.text, 0
        for m in DEFINITION.finditer(text):
            name = next(g for g in m.groups() if g)
            start = m.start(next(i for i, g in enumerate(m.groups(), 1) if g))
            if not (m.group(4) or m.group(5)):
                name, start = "\\" + name, start - 1
            self.places.append(Place("macro", name, start, start + len(name), self.definition(m)))
        while (m := TOKEN.search(text, pos)) is not None:
            tok, pos = m.group(0), m.end()
            try:
                pos = self.command(tok, m.start(), pos)
            except EntryError:
                continue    # an unclosed group: the check tells it; the places before it stay

    def command(self, tok, start, pos):
        """Records the place(s) a command names; the offset to go on scanning from."""
        text, bare = self.src.text, tok.rstrip("*")
        if tok in glossaries.DEFINERS:
            name, nstart, _ = argument(text, optional(text, pos), self.src, tok)
            self.places.append(Place("define", name.strip(), *stripped(name, nstart), tok))
            return pos      # its options ([...] before the key too) hold references
        if tok in glossaries.GLS_COMMANDS or bare in glossaries.GLS_COMMANDS:
            at = optional(text, pos + text.startswith(("+", "*"), pos))
            name, nstart, end = argument(text, at, self.src, tok)
            if text[nstart - 1:nstart] == "{":
                self.places.append(Place("gls", name.strip(), *stripped(name, nstart), bare))
            return end
        if tok in cite_binding.COMMANDS:
            at = optional(text, optional(text, pos))
            return self.listed("cite", tok, at)
        if tok in references.REF_COMMANDS:
            return self.listed("ref", tok, pos)
        if tok == LABEL:
            return self.listed("label", tok, pos)
        return pos

    def listed(self, kind, tok, pos):
        """The comma-separated names of a braced argument (\\cite{a,b}, \\cref{x,y})."""
        text = self.src.text
        content, cstart, end = argument(text, pos, self.src, tok)
        if text[cstart - 1:cstart] != "{":
            return pos
        offset = cstart
        for part in content.split(","):
            if part.strip():
                self.places.append(Place(kind, part.strip(), *stripped(part, offset), tok))
            offset += len(part) + 1
        return end

    def definition(self, m):
        """A macro definition's text: the command, its name and its argument groups."""
        text = self.src.text
        at = m.end() + (text[m.end():m.end() + 1] == "}")
        try:
            end, _ = groups(text, at, 3)
        except ValueError:
            end = text.find("\n", m.end())
        return text[m.start():end if end > 0 else len(text)].strip()

    def at(self, offset):
        """The place whose name spans the offset (its end included: the cursor just after a name)."""
        for place in self.places:
            if place.start <= offset <= place.end:
                return place
        return self.command_at(offset)

    def command_at(self, offset):
        """The control word around the offset as a "use" place, or None."""
        text = self.src.text
        start = text.rfind("\\", max(0, offset - 64), offset + 1)
        m = TOKEN.match(text, start) if start >= 0 else None
        if m and m.end() >= offset and m.end() - start > 2:
            return Place("use", m.group(0).rstrip("*"), start, m.end())
        return None

    def named(self, kind, name):
        return [p for p in self.places if p.kind == kind and p.name == name]

    def line_column(self, offset):
        """0-based (line, character) of an offset."""
        line = self.src.line(offset)
        return line - 1, offset - self.src.starts[line - 1]

    def offset(self, line, character):
        """The offset of a 0-based (line, character)."""
        if line >= len(self.src.starts):
            return len(self.text)
        return min(self.src.starts[line] + character, len(self.text))

    def symbols(self):
        """[(key, start of its definition's command, end before the next one, key's place)] of the
        terms this file defines."""
        defines = [p for p in self.places if p.kind == "define"]
        out = []
        for i, place in enumerate(defines):
            begin = self.src.text.rfind(place.command, 0, place.start)
            end = self.src.text.rfind("}", 0, defines[i + 1].start) + 1 if i + 1 < len(defines) else len(self.text)
            out.append((place.name, max(begin, 0), max(end, place.end), place))
        return out


def stripped(name, start):
    """(start, end) of a name without the spaces around it."""
    lead = len(name) - len(name.lstrip())
    return start + lead, start + lead + len(name.strip())


@dataclass(frozen=True)
class Record:
    key: str
    offset: int
    line: int
    author: str
    year: str
    title: str


def bib_records(bib_path):
    """{key: Record} of a BibTeX file (citations' own parser), {} when it cannot be read."""
    try:
        text = Path(bib_path).read_text(encoding="utf-8")
        found = citations.blocks(text, bib_path)
    except (OSError, UnicodeDecodeError, EntryError):
        return {}
    out = {}
    for kind, key, start, end in found:
        if not key:
            continue
        block = text[start:end]
        values = {name: " ".join(plain_value(block[s:e]) for s, e, _ in parts) for name, parts in
                  citations.fields(block, kind)}
        if not any(values.get(f) for f in ("author", "editor", "title", "year")):
            continue    # a style's control record (@IEEEtranBSTCTL), not a work to cite
        out.setdefault(key, Record(key, start, citations.line_at(text, start),
                                   values.get("author") or values.get("editor", ""), values.get("year", ""),
                                   values.get("title", "")))
    return out


def plain_value(value):
    return " ".join(value.replace("{", "").replace("}", "").split())


# "path:line[:column]: rest", the form every message of the reader opens with.
WHERE = re.compile(r"^(?P<file>[^\n]*?):(?P<line>\d+)(?::(?P<column>\d+))?: (?P<rest>.*)$", re.S)
TERM = re.compile(r"^term '(?P<term>[^']*)': ")
WORD_END = re.compile(r"[\\{}\s,\]]")


def range_of(mistake, text):
    """(0-based line, start, end) of a Mistake in its file's text: from its column to the end of the
    word there, or the line's text when the column is 1."""
    lines = text.split("\n")
    line = min(max(mistake.line, 1), len(lines)) - 1
    row = lines[line]
    if mistake.column > 1:
        start = min(mistake.column - 1, len(row))
        stop = WORD_END.search(row, start + 1)
        return line, start, stop.start() if stop else len(row)
    start = len(row) - len(row.lstrip())
    return line, start, max(len(row.rstrip()), start)
