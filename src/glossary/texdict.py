"""A dictionary kept as glossaries-extra LaTeX, read into the project's entry model.

The build reads a whole dictionary (a main file that \\input's a macro file and glossary files of
\\newglossaryentry definitions) at Snakemake's DAG time, so this is a pure-Python reader: comments
are stripped once per file (each leaves its `%`, so that TeX's "no paragraph, no space here"
survives and a commented-out line never looks blank), and a brace-aware scanner reads each entry's
options and then its description in one pass each. The real dictionary (569 terms, 860 kB) reads
in about 0.1 s of CPU.

    read(main_path)   -> {"main", "root", "sections", "glossary_files", "macro_files",
                          "bibliography", "preamble", "entries" (by slug, sorted), "labels", "unknown"}
    read_config(yaml) -> a source config (main: plus the site's fields), validated
    load(path)        -> read() of a .tex main file or of the main a .yaml config names, plus "config"

Entries are read from the \\input files that define terms (not from the main file itself, nor from
files they \\input in turn): with \\newglossaryentry, or any other way glossaries-extra has
(\\newacronym, \\newabbreviation, \\longnewglossaryentry, \\glsxtrnewsymbol, \\newdualentry), each read
into \\newglossaryentry's fields by glossary.readers.latex.glossaries. An entry's body is its
description, normalised so that later stages convert it without LaTeX's help and keeping its line
structure (body line i is file line body_line + i):

- `\\index{...}` stays, for the book's Index (a page shows nothing of it: glossary.texprose); a `\\\\`
  between paragraphs (outside any group, environment or math) becomes a blank line when it stands
  alone on its line, otherwise `\\par`;
- each tikzpicture (pgfplots axes live inside one) becomes `\\includegraphics{picture:N}` and each
  other `\\includegraphics[...]{file}` `\\includegraphics{graphic:N}`, N counted from 1 in the term;
  the environments around them (figure, minipage, subfigure, caption, label) stay. A picture's own
  \\includegraphics (a photo in a node) stays in its TeX and is listed in its "files";
- the last paragraph that opens with "See also" (after a top-level \\\\, environment or display) is
  removed and its keys become `see_also`. It is the final paragraph but in two real entries, where
  a "Python demo" link follows it.

Slugs: a key made of [a-z0-9-] is its own slug; any other key is lowercased and each run of other
characters becomes one "-" ("multitask learning" -> "multitask-learning", "Q_learning" ->
"q-learning"), leading and trailing "-" dropped. Two keys with one slug are an error.

Forms follow glossaries: text=name, first=text, plural=text+"s", and firstplural=first+"s" when
first= is given, else plural (as \\glsentryfirstplural prints it).

Numbers of labels, per term in order of appearance: each figure (figure, figure*) takes the next
figure number and each table the next table number, whatever label inside it names (a subfigure's
label names its figure's number); displayed equations are numbered as amsmath numbers them
(glossary.eqnumbers: each numbered row, labelled or not; \\nonumber, \\notag, \\tag and starred
environments take none), the rule the pages' equation numbers follow too.

Mistakes are glossary.entries.EntryError naming the file, line, key and the fix: a blank line inside
an entry, braces that do not close (or close early), a key defined twice, a type= with no
\\newglossary*, an undefined \\gls key (also in a picture), a \\ref to a label that exists nowhere,
a missing \\input or \\includegraphics file, two keys with one slug, a label defined twice or outside a
figure/table/equation, and `\\\\` right after `\\end{figure}` (the authors' rule: LaTeX stops there).

The scanning is glossary.readers.latex.lexer's; each construct's names, checks and messages are its
binding's (glossary.readers.latex: glossaries, references, graphics, pictures, environments, kernel).
"""
import difflib
import hashlib
import os
import pickle
import re
from dataclasses import replace
from pathlib import Path

from glossary import eqnumbers
from glossary.errors import EntryError, Mistake, Mistakes, fault, mistakes_of
from glossary.readers import bib2gls
from glossary.readers.latex import document, environments, glossaries, graphics, known, lexer, pictures, reads
from glossary.readers.latex.config import CONFIG_SCHEMA, read_config, read_demo  # noqa: F401 (their importers')
from glossary.readers.latex.crosscheck import SLUG, check_references, labels, slug_of, slugs  # noqa: F401
from glossary.readers.latex.document import DEFAULT_TITLE, DEFAULT_TYPE, resolve_input  # noqa: F401
from glossary.readers.latex.environments import FIGURE_ENVS, KNOWN_ENVS, MATH_ENVS, TABLE_ENVS  # noqa: F401
from glossary.readers.latex.glossaries import GLS_BASE, GLS_COMMANDS, check_between, entries_of, forms_of  # noqa: F401
from glossary.readers.latex.kernel import PRINT_ONLY, macro_names
from glossary.readers.latex.lexer import (  # noqa: F401 (the names other modules import from here)
    SPACE,
    TOKEN,
    Source,
    argument,
    commands,
    encoding_of,
    group_end,
    optional,
    options_group,
    skip_space,
    split_options,
    strip_comments,
)
from glossary.readers.latex.references import REF_COMMANDS

GRAPHIC_SUFFIXES = graphics.SUFFIXES
# The tokens the scanner acts on (besides braces and $).
STRUCTURE = frozenset("\\( \\) \\[ \\] \\\\ \\begin \\end \\index \\includegraphics \\label".split()) \
    | REF_COMMANDS | GLS_COMMANDS
# What pandoc's LaTeX reader (with texmath) and this reader handle in a body (each binding's commands);
# any other command or environment is counted in "unknown". Macros the dictionary's preamble or macro
# files define count as handled (pandoc expands them).
KNOWN_TEXT = known("text")
KNOWN_MATH = known("math")


# ---------------------------------------------------------------- entries




class Body:
    """One scan of a description: what it references and the replacements that normalise it."""

    def __init__(self, reader, src, key, text, offset):
        self.reader, self.src, self.key, self.text, self.offset = reader, src, key, text, offset
        self.edits = []        # (start, end, replacement), in body offsets
        self.pictures, self.graphics, self.labels = [], [], []
        self.gls, self.refs, self.unknown = [], [], []
        self.breaks = []       # (start, end) of paragraph-separating \\
        self.ends = []         # (end, name) of each environment at the top level
        self.counters = {"figure": 0, "table": 0, "equation": 0}
        # what it found of the dictionary's folder: ("files", picture TeX, its files) and ("path", a
        # graphic's name, its file), asked again before a kept read of the term is taken (Kept)
        self.looked = []
        self.scan()

    def where(self, pos):
        return self.src.where(self.offset + pos)

    def position(self, pos):
        return self.src.position(self.offset + pos)

    def fault(self, pos, what, fix, kind):
        return fault(self.src.position(self.offset + pos), what, fix, term=self.key, kind=kind)

    def scan(self):
        """One pass over the description: groups, math, environments, and the commands that matter."""
        text, plain, envs, numbers = self.text, self.reader.plain, [], []
        depth, math, pos = 0, None, 0
        while True:
            m = TOKEN.search(text, pos)
            if not m:
                break
            tok, pos = m.group(0), m.end()
            if tok == "{":
                depth += 1
            elif tok == "}":
                depth -= 1
            elif tok in PRINT_ONLY:
                pos = self.print_only(tok, m.start(), pos, numbers)
            elif tok == "\\caption*":
                pos = self.caption_star(m.start(), pos, envs)
            elif tok in reads.DESCRIPTION_READ_TOKENS:
                raise self.fault(m.start(), reads.description_read(tok), reads.DESCRIPTION_FIX, "file-read")
            elif tok in plain:
                continue  # most tokens: a command known in text and math that needs nothing here
            elif tok == "$":
                if text.startswith("$$", m.start()):
                    pos += 1
                    if math == "$$" and depth == 0 and not envs:
                        self.ends.append((pos, "displaymath"))
                    math = None if math == "$$" else (math or "$$")
                else:
                    math = None if math == "$" else (math or "$")
            elif tok in ("\\(", "\\["):
                math = math or tok
            elif tok in ("\\)", "\\]"):
                if math == {"\\)": "\\(", "\\]": "\\["}[tok]:
                    math = None
                    if tok == "\\]" and depth == 0 and not envs:
                        self.ends.append((pos, "displaymath"))
            elif tok == "\\begin":
                name, _, pos = argument(text, pos, self.src, "\\begin")
                if name == "tikzpicture":
                    pos = self.picture(m.start(), pos)
                    continue
                envs.append(name)
                numbers.append(self.number_env(name, pos))
                self.check_env(name, m.start())
                if name == "minipage":
                    self.minipage(pos)
            elif tok == "\\end":
                name, _, pos = argument(text, pos, self.src, "\\end")
                if envs and envs[-1] == name:
                    envs.pop()
                    numbers.pop()
                    if not envs and depth == 0:
                        self.ends.append((pos, name))
            elif tok == "\\\\":
                end = optional(text, pos + text.startswith("*", pos))
                if depth == 0 and not envs and not math:
                    self.check_break(m.start())
                    self.breaks.append((m.start(), end))
                pos = end
            elif tok == "\\index":
                pos = argument(text, optional(text, pos), self.src, "\\index")[2]   # stays: the book's Index
            elif tok == "\\includegraphics":
                pos = self.graphic(m.start(), pos)
            elif tok in GLS_COMMANDS or tok.rstrip("*") in GLS_COMMANDS:
                after = optional(text, pos + text.startswith(("+", "*"), pos))
                name, start, pos = argument(text, after, self.src, tok)
                self.gls.append((name.strip(), start))
            elif tok in REF_COMMANDS:
                name, start, pos = argument(text, optional(text, pos), self.src, tok)
                self.refs.extend((n.strip(), start, tok) for n in name.split(",") if n.strip())
            elif tok == "\\label":
                name, start, pos = argument(text, pos, self.src, "\\label")
                self.label(name.strip(), start, envs, numbers)
            else:
                self.check_command(tok, m.start(), math or any(e in MATH_ENVS for e in envs))

    def print_only(self, tok, start, pos, numbers):
        """Commands of the printed book's own bookkeeping: \\refstepcounter and \\definecolor go,
        \\thetable and \\thefigure become the number their environment takes in the term, and
        \\scalebox/\\resizebox keep their content as a group (a page scales its own pictures)."""
        args = PRINT_ONLY[tok]
        for _ in range(args):
            pos = argument(self.text, pos, self.src, tok)[2]
        replacement = ""
        if tok in ("\\thetable", "\\thefigure"):
            kind = tok[4:]
            number = next((n for n in reversed(numbers) if n and n[0] == kind), None)
            replacement = str(number[1]) if number else str(self.counters[kind])
        self.edits.append((start, pos, replacement))
        return pos

    def minipage(self, pos):
        """A minipage's width and its position (t, c, b; TeX's default c), marked after it for the page and
        print (environments.minipage_width)."""
        position = environments.MINIPAGE_POSITION.match(self.text, pos)
        pos = optional(self.text, optional(self.text, optional(self.text, pos)))
        width, _, end = argument(self.text, pos, self.src, "\\begin{minipage}")
        share = environments.minipage_width(width)
        if share is not None:
            where = position.group(1) if position else "c"
            self.edits.append((end, end, f"{environments.MINIPAGE_MARK}{{{share}{where}}}"))

    def caption_star(self, start, pos, envs):
        """\\caption*, marked as its binding says (environments.caption_star); its text is scanned on."""
        _, content_start, end = argument(self.text, pos, self.src, "\\caption*")
        if self.text[content_start - 1:content_start] != "{":
            return pos
        self.edits.extend(environments.caption_star(self.text, start, content_start, end, envs))
        return content_start - 1

    def number_env(self, name, pos):
        """The number a figure/table environment takes, counted in the term; for a displayed equation
        environment, the number of each row (glossary.eqnumbers: as amsmath numbers them)."""
        if name in eqnumbers.ENVIRONMENTS:
            end = re.compile(r"\\end\s*\{" + re.escape(name) + r"\}").search(self.text, pos)
            body = self.text[pos:end.start() if end else len(self.text)]
            counter = eqnumbers.Counter()
            counter.value = self.counters["equation"]
            found = counter.number(name, body)
            self.counters["equation"] = counter.value
            return ("rows", [(pos + r["start"], pos + r["end"], r["number"]) for r in found])
        kind = ("figure" if name in FIGURE_ENVS and name != "subfigure" else "table" if name in TABLE_ENVS
                else None)
        if kind is None:
            return None
        self.counters[kind] += 1
        return (kind, self.counters[kind])

    def label(self, name, start, envs, numbers):
        number = next((n for n in reversed(numbers) if n), None)
        if number is not None and number[0] == "rows":
            row = next((n for s, e, n in number[1] if s <= start <= e), None)
            number = None if row is None else ("equation", row)
        if number is None:
            raise self.fault(start, f"\\label{{{name}}} is not inside a figure, table or numbered equation",
                             "move it into one (after the \\caption) or remove it", "label")
        self.labels.append((name, start, number[0], number[1]))

    def picture(self, start, pos):
        """A tikzpicture (nested ones included) becomes \\includegraphics{picture:N}."""
        end = pictures.end_of(self.text, pos)
        if end is None:
            raise self.fault(start, *pictures.UNCLOSED.split("; "), "picture")
        tex = self.text[start:end]
        n = len(self.pictures) + 1
        if not pictures.draws(tex):
            raise self.fault(start, *pictures.EMPTY.format(n=n).split("; "), "picture")
        outside = reads.outside_reads(tex)
        if outside:
            offset, name = outside[0]
            raise self.fault(start + offset, reads.picture_read(n, name), reads.OUTSIDE_FIX, "outside-folder")
        files = graphics.files(self.reader.root, tex, self.position(start), self.key)
        self.looked.append(("files", tex, files))
        self.pictures.append({"n": n, "tex": tex, "line": self.src.line(self.offset + start), "files": files})
        for key in glossaries.KEY_CALL.finditer(tex):
            self.gls.append((key.group(1).strip(), start + key.start(1)))
        self.edits.append((start, end, f"\\includegraphics{{picture:{n}}}"))
        return end

    def graphic(self, start, pos):
        after = optional(self.text, pos)
        name, nstart, end = argument(self.text, after, self.src, "\\includegraphics")
        n = len(self.graphics) + 1
        path = graphics.resolve(self.reader.root, name.strip(), self.position(nstart), self.key)
        self.looked.append(("path", name.strip(), path))
        self.graphics.append({"n": n, "path": path, "line": self.src.line(self.offset + start)})
        # its width as a share of the line, which pandoc reads as the Image's width ("80%")
        share = graphics.line_share(self.text[pos:after])
        width = f"[width={share}\\textwidth]" if share else ""
        self.edits.append((start, end, f"\\includegraphics{width}{{graphic:{n}}}"))
        return end

    def check_env(self, name, start):
        if name not in KNOWN_ENVS and name not in self.reader.macros:
            self.unknown.append((f"\\begin{{{name}}}", start))

    def check_command(self, tok, start, math):
        known = self.reader.known[bool(math)]
        if tok not in known and tok.rstrip("*") not in known:
            self.unknown.append((tok, start))

    def check_break(self, start):
        """The authors' rule: no \\\\ right after \\end{figure} (the float ended the paragraph)."""
        if self.ends and self.ends[-1][1].startswith("figure"):
            end = self.ends[-1][0]
            if not self.text[end:start].strip(SPACE):
                raise self.fault(start, f"\\\\ right after \\end{{{self.ends[-1][1]}}} raises \"There's no line "
                                 "here to end\"", "remove the \\\\ (the figure already ends the paragraph)",
                                 "break-after-figure")

    def see_also(self):
        """The last paragraph that opens with "See also" (after a top-level \\\\, environment, display
        or blank line): (start, stop) of what to remove and its keys, or (None, None) and []. It is the
        final paragraph but for a "Python demo" link after it in two real entries."""
        # A blank line ends a paragraph too (a \\longnewglossaryentry's description may hold one).
        blanks = [(m.end(), m.start()) for m in glossaries.BLANK_LINE.finditer(self.text)]
        bounds = sorted([(end, start) for start, end in self.breaks] + [(end, end) for end, _ in self.ends] + blanks)
        stop = len(self.text)
        for end, start in reversed(bounds):
            if SEE_ALSO.match(self.text[end:stop]):
                return (start, stop), [k for k, at in self.gls if end <= at < stop]
            if self.text[end:stop].strip(SPACE):
                stop = start
        return (None, None), []

    def normalised(self):
        """The body with every edit applied, each padded to the lines it replaced."""
        (cut, stop), keys = self.see_also()
        removed = (lambda at: cut <= at < stop) if cut is not None else (lambda at: False)
        edits = [e for e in self.edits if not removed(e[0])]
        for start, end in self.breaks:
            if removed(start):
                continue
            line_start = self.text.rfind("\n", 0, start) + 1
            line_end = self.text.find("\n", end)
            line_end = len(self.text) if line_end < 0 else line_end
            alone = not self.text[line_start:start].strip() and not self.text[end:line_end].strip(" \t%")
            # \par ends a control word: a space only where a letter follows.
            par = "\\par " if self.text[end:end + 1].isalpha() else "\\par"
            edits.append((line_start, line_end, "") if alone else (start, end, par))
        if cut is not None:
            edits.append((cut, stop, ""))
        out, pos = [], 0
        for start, end, new in sorted(edits):
            start = max(start, pos)  # the See-also removal may already cover a break's indent
            out.append(self.text[pos:start])
            out.append(new + "\n" * self.text.count("\n", start, end))
            pos = end
        out.append(self.text[pos:])
        return "".join(out).rstrip(), keys


# "See also" as the dictionary's editions write it (English, German, French, Spanish, Finnish, Italian, Greek).
SEE_ALSO = re.compile(r"[\s%]*(See also|Siehe auch|Voir aussi|Ver también|Katso myös|Vedi anche|Βλέπε επίσης)\b")


def code_digest():
    """The sha256 of this package's code: what a memo of its results is kept under (glossary.dictionary's
    models too)."""
    return hashlib.sha256(b"".join(p.read_bytes() for p in sorted(Path(__file__).parent.rglob("*.py")))).digest()


# Where a build keeps the entries it read without a mistake (beside the read's memo: check_main).
ENTRY_MEMO = "entries.pickle"


class Kept:
    """The terms a build read before without a mistake, each under the key of all its reading depends on
    (this code, the dictionary's macros, styles and glossaries, the file, the term's place in it and its
    options' text), so that a build reads again only the terms that changed: reading every term was most
    of the check that each edit's build waits for.  A kept term whose
    pictures or graphics name files is taken only where those names find the same files now
    (Body.looked).  A read with a mistake keeps nothing (check_main): the mistake leaves the build's
    folder as it was."""

    def __init__(self, path, context):
        self.path = Path(path)
        self.context = hashlib.sha256(pickle.dumps((code_digest(), context), protocol=pickle.HIGHEST_PROTOCOL)).digest()
        try:
            context, kept = pickle.loads(self.path.read_bytes())
        except Exception:       # none yet, or not one this code wrote
            context, kept = None, {}
        self.kept, self.used = (kept if context == self.context else {}), {}

    def key(self, *parts):
        return hashlib.sha256(pickle.dumps(parts, protocol=pickle.HIGHEST_PROTOCOL)).digest()

    def get(self, key):
        blob = self.kept.get(key)
        if blob is None:
            return None
        self.used[key] = blob
        return pickle.loads(blob)

    def put(self, key, value):
        self.used[key] = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)

    def save(self):
        """Keeps what this read used, the rest forgotten (only when that differs from what was kept)."""
        if self.used.keys() == self.kept.keys():
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        partial = self.path.with_name(f".{self.path.name}.{os.getpid()}")
        partial.write_bytes(pickle.dumps((self.context, self.used), protocol=pickle.HIGHEST_PROTOCOL))
        os.replace(partial, self.path)


class Reader:
    """Reads one dictionary; holds what the checks across files need, and every mistake they find
    (glossary.errors.Mistake): a check that fails skips its construct (a term, a file) and the
    reading goes on, so that one read finds them all."""

    def __init__(self, main_path, base=None, complete=False, overlay=None, lang=None, kept=None):
        self.main = Path(main_path)
        # where the terms read without a mistake are kept (Kept), or None
        self.kept_path, self.kept = kept, None
        self.root = self.main.parent
        self.macros = set()
        # An edition (a translation) is read against its base dictionary (read()'s result): the keys it
        # lacks may be referred to (linked to the base's term), unless it must be complete.
        self.base, self.complete, self.lang = base, complete, lang
        self.fallback = set()
        # An editor's unsaved buffers, by absolute path: read instead of the files.
        self.overlay = {str(Path(k).resolve()): v for k, v in (overlay or {}).items()}
        self.encoding = "utf-8"
        self.mistakes, self.broken = [], set()
        self.unread = False    # a file that could not be read: the keys and labels it defines are unknown

    def text_of(self, path):
        return self.overlay.get(str(Path(path).resolve())) if self.overlay else None

    def source(self, path, rel):
        """A file as LaTeX reads it: in the encoding the main file declares (or its unsaved text)."""
        return Source(path, rel, text=self.text_of(path), encoding=self.encoding)

    def collect(self, err, key=None):
        self.mistakes += mistakes_of(err)
        if key:
            self.broken.add(key)

    def open_main(self):
        """The main file's Source; its inputenc's encoding is every file's (LaTeX reads them so)."""
        text = self.text_of(self.main)
        if text is not None:
            self.encoding = encoding_of(text.encode("utf-8", "replace"))
            return Source(self.main, self.main.name, text=text)
        try:
            data = self.main.read_bytes()
        except OSError as err:
            raise fault(lexer.Position(self.main.name, 1, 1), f"cannot be read ({err.strerror})",
                        "check the main file's path", kind="unreadable") from None
        self.encoding = encoding_of(data)
        return Source(self.main, self.main.name, text=lexer.decode(data, self.main.name, self.encoding))

    def read(self):
        """The dictionary (see read()) of every term read without a mistake of its own, or None when
        the main file cannot be read; the mistakes are in self.mistakes."""
        try:
            src = self.open_main()
        except EntryError as err:
            self.collect(err)
            return None
        preamble, declared, inputs, sections, bib = document.read_main(src, self.mistakes)
        if self.base is not None and set(declared) == {DEFAULT_TYPE}:
            # An edition whose main file declares no glossaries of its own has its base's sections.
            declared, sections = dict(self.base["declared"]), [dict(s) for s in self.base["sections"]]
        sources, macro_files, glossary_files = [], [], []
        for name, before_doc, start in inputs:
            try:
                path = resolve_input(self.root, name, src.position(start))
                source = self.source(path, path.relative_to(self.root).as_posix())
            except EntryError as err:
                self.collect(err)
                self.unread = True
                continue
            if glossaries.defines_terms(source.text):
                glossary_files.append(source.rel)
                sources.append(source)
            elif before_doc:
                macro_files.append(source.rel)
                self.macros |= macro_names([source.text])
        self.macros |= macro_names([preamble])
        try:
            self.styles = glossaries.styles_of(preamble, src)
        except EntryError as err:
            self.collect(err)
            self.styles = dict(glossaries.DEFAULT_STYLES)
        self.known = {False: commands(KNOWN_TEXT) | self.macros, True: commands(KNOWN_MATH) | self.macros}
        self.plain = (self.known[False] & self.known[True]) - STRUCTURE
        entries, places, bodies = {}, {}, {}
        # \GlsXtrLoadResources' .bib files (not glossary_files: the preview reads those as .tex, a .bib save rebuilds)
        try:
            records = bib2gls.resources(preamble, src, self.root, self.source)
        except EntryError as err:
            self.collect(err)
            records, self.unread = [], True
        if self.kept_path is not None and self.base is None and not self.overlay:
            self.kept = Kept(self.kept_path, (str(self.root), self.encoding, sorted(self.macros), self.styles,
                                              sorted(declared.items()), self.complete, self.lang))
        found = [(source, self.defined(source)) for source in sources]
        for source, defined in found + records:
            for key, at, options in defined:
                if key in places:
                    self.mistakes += fault(source.position(at), f"term {key!r} is defined twice (also at "
                                           f"{places[key]})", "keep one definition or rename one key",
                                           kind="duplicate-key").mistakes
                    continue
                places[key] = source.where(at)
                try:
                    entries[key], bodies[key] = self.entry_kept(source, key, at, options, declared)
                except EntryError as err:
                    self.collect(err, key)
        self.titles = {key: e["title"] for key, e in entries.items()}
        found_slugs = slugs(self, entries, places, bodies)
        found_labels = labels(self, bodies, found_slugs)
        check_references(self, bodies, places, found_labels)
        for entry in entries.values():
            entry["see_also"] = [found_slugs.get(k) or slug_of(k) for k in entry["see_also"]]
        # A term with a mistake of its own is left out; the others read as they would without it.
        faulty = {m.term for m in self.mistakes} | self.broken
        return {
            "main": str(self.main),
            "root": str(self.root),
            "declared": declared,
            "sections": sections,
            "fallback_keys": sorted(self.fallback),
            "glossary_files": glossary_files,
            "macro_files": macro_files,
            "bibliography": bib,
            "preamble": preamble,
            "entries": {found_slugs[k]: entries[k] for k in sorted(entries, key=lambda k: found_slugs[k])
                        if k not in faulty},
            "labels": found_labels,
            "unknown": unknown_of(bodies),
            "left_out": sorted(faulty - {None}),
            # what is known of the terms left out that read (the draft preview's links to them)
            "left_out_entries": {k: {f: entries[k][f] for f in ("title", "forms", "path", "line")}
                                 for k in sorted(faulty & set(entries))},
        }

    def defined(self, source):
        """entries_of() of a glossary file, kept under its text."""
        if self.kept is None:
            return entries_of(source, self.styles, self.mistakes, self.broken)
        key = self.kept.key("defined", source.rel, source.text)
        found = self.kept.get(key)
        if found is None:
            found = entries_of(source, self.styles, self.mistakes, self.broken)
            self.kept.put(key, found)
        return found

    def entry_kept(self, src, key, at, options, declared):
        """entry(), or the entry and body a read kept of the same term at the same place (Kept)."""
        if self.kept is None or not isinstance(src, Source):
            return self.entry(src, key, at, options, declared)
        memo = self.kept.key("entry", src.rel, key, at, src.line(at), options)
        found = self.kept.get(memo)
        if found is not None and all(self.finds(kind, what, key) == seen for kind, what, seen in found[1]["looked"]):
            entry, state = found
            body = Body.__new__(Body)
            body.__dict__.update(state, reader=self, src=src)
            return entry, body
        entry, body = self.entry(src, key, at, options, declared)
        self.kept.put(memo, (entry, {k: v for k, v in vars(body).items() if k not in ("reader", "src")}))
        return entry, body

    def finds(self, kind, what, key):
        """What a term's picture ("files": its TeX) or graphic ("path": its name) finds in the dictionary's
        folder now (Body.looked), or None where that is a mistake."""
        try:
            if kind == "files":
                return graphics.files(self.root, what, "kept", key)
            return graphics.resolve(self.root, what, "kept", key)
        except EntryError:
            return None

    def entry(self, src, key, at, options, declared):
        opts, places = {}, {}
        for name, value, voffset in options:
            if value is None:
                glued = re.match(r"([A-Za-z]+)\{(.*)\}$", name, re.S)    # plural{...}: the '=' forgotten
                raise fault(src.position(voffset), f"option {name!r} has no '=value'",
                            f"write {glued[1]}={{{glued[2]}}}" if glued else f"write {name}={{...}}",
                            term=key, kind="option")
            opts[name], places[name] = value, voffset
        for field in ("name", "description"):
            if field not in opts:
                raise fault(src.position(at), f"no {field}= given", f"add {field}={{...}}", term=key, kind="option")
        kind = opts.get("type", DEFAULT_TYPE)
        if kind not in declared:   # told, and the description still read: its own mistakes are told too
            self.mistakes += fault(src.position(places["type"]), f"type={kind} names no glossary",
                                   f"declare it with \\newglossary*{{{kind}}}{{Title}} in the main file or use one "
                                   f"of: {', '.join(sorted(declared))}", term=key, kind="no-glossary").mistakes
        body = Body(self, src, key, opts["description"], places["description"])
        text, see_also = body.normalised()
        return {
            "slug": None, "key": key, "title": opts["name"], "forms": forms_of(opts, opts["name"]),
            "section": kind, "see_also": see_also, "summary": None,
            "path": src.rel, "line": src.line(at),
            "body": text, "body_line": src.line(places["description"]),
            "pictures": body.pictures, "graphics": body.graphics, "format": "latex",
            **({"sort": opts["sort"]} if opts.get("sort") else {}),
        }, body

def unknown_of(bodies):
    """Unknown constructs over all bodies: count and first place, most frequent first."""
    counts, first = {}, {}
    for body in bodies.values():
        for construct, start in body.unknown:
            counts[construct] = counts.get(construct, 0) + 1
            first.setdefault(construct, body.where(start))
    return [{"construct": c, "count": counts[c], "first": first[c]}
            for c in sorted(counts, key=lambda c: (-counts[c], c))]


def read(main_path, base=None, complete=False, memo=None):
    """The dictionary whose main file is main_path:

    {"main": str(main_path), "root": its folder,
     "sections": [{"id", "title"}] in \\printglossary order,
     "glossary_files": [\\input files with entries], "macro_files": [other \\input files before
     \\begin{document}], relative to root, "bibliography": "x.bib" or None,
     "preamble": the main file before \\begin{document}, comments stripped,
     "entries": {slug: {"slug", "key", "title", "forms": {"text", "first", "plural", "firstplural"},
                 "section", "see_also": [slugs], "summary": None, "path", "line", "body", "body_line",
                 "pictures": [{"n", "tex", "line", "files"}], "graphics": [{"n", "path", "line"}],
                 "format": "latex"}} sorted by slug,
     "labels": {label: {"slug", "kind": "figure"|"equation"|"table", "number"}} sorted,
     "unknown": [{"construct", "count", "first": "file:line"}] most frequent first,
     "declared": {glossary type: title}, "fallback_keys": [keys referred to that only `base` defines],
     "left_out": [keys of the terms with a mistake of their own (none: read() raises)]}

    An edition (a translation) is read with `base`, its base dictionary's read(): a main file that
    declares no glossary but the default takes the base's sections; a \\gls key only the base defines
    is a fallback key (its reference links to the base's term), or an error when `complete`.
    Every mistake found is raised at once: glossary.errors.Mistakes."""
    return raised(*check_main(main_path, base, complete, memo=memo))


def read_main(main, root=None):
    """The main file's structure, for the modules that read it alone (glossary.notation): (its Source,
    preamble, declared {type: title}, inputs [(name, before \\begin{document}, "file:line")], sections,
    bibliography); a mistake raises (glossary.errors.Mistakes)."""
    src, found = Reader(main).open_main(), []
    preamble, declared, inputs, sections, bib = document.read_main(src, found)
    raised(None, found)
    return src, preamble, declared, [(n, before, src.where(at)) for n, before, at in inputs], sections, bib


def check_main(main_path, base=None, complete=False, overlay=None, lang=None, memo=None):
    """(read()'s dictionary of the terms that read without a mistake of their own, or None when the main
    file cannot be read; [Mistake], each naming `lang`'s edition when given).  `overlay`: {absolute
    path: text} read instead of those files (an editor's unsaved buffers).  `memo`: (a file, the key of
    what the read depends on, taken before it: glossary.stamp.read_key[, a function giving that key
    anew]), where a read without a mistake is kept, so that the build's second reader (its plan, after
    the driver's check) reads it from there; it is not kept when the key anew differs (a source changed
    while it was read)."""
    memo = memo if overlay is None and base is None else None
    kept = remembered(memo, main_path)
    if kept is not None:
        return kept, []
    reader = Reader(main_path, base, complete, overlay, lang,
                    kept=Path(memo[0]).with_name(ENTRY_MEMO) if memo else None)
    dictionary = reader.read()
    if reader.kept is not None and not reader.mistakes:    # a mistake leaves the build's folder as it was
        reader.kept.save()
    if memo and dictionary is not None and not reader.mistakes and (len(memo) < 3 or memo[2]() == memo[1]):
        remember(memo, main_path, dictionary)
    return dictionary, [replace(m, edition=lang) if lang else m for m in reader.mistakes]


def remembered(memo, main_path):
    """The dictionary kept under memo's key for this main file (as named: the read names it so), or None."""
    if not memo:
        return None
    try:
        key, dictionary = pickle.loads(Path(memo[0]).read_bytes())
    except Exception:       # none, or not one this code wrote: read anew
        return None
    return dictionary if key == [memo[1], str(main_path)] else None


def remember(memo, main_path, dictionary):
    path = Path(memo[0])
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.{os.getpid()}")
    partial.write_bytes(pickle.dumps(([memo[1], str(main_path)], dictionary), protocol=pickle.HIGHEST_PROTOCOL))
    os.replace(partial, path)


def raised(dictionary, mistakes):
    if mistakes:
        raise Mistakes(mistakes)
    return dictionary


def load(source_path):
    """read() of a .tex main file, or of the main a .yaml config names; "config" holds the config's
    fields ({"main": path} alone for a .tex file). A demo for a key the dictionary lacks is a mistake;
    every mistake is raised at once (glossary.errors.Mistakes)."""
    return raised(*check_source(source_path))


def check_source(source_path, overlay=None, base=None, complete=False, lang=None, memo=None):
    """load()'s dictionary (or None when neither the config nor the main file can be read) and its
    mistakes, as check_main() gives them (and keeps them: memo)."""
    path = Path(source_path)
    if path.suffix == ".tex":
        dictionary, mistakes = check_main(path, base, complete, overlay, lang, memo)
        if dictionary is not None:
            dictionary["config"] = {"main": str(path), "demos": {}}
        return dictionary, mistakes
    if path.suffix not in (".yaml", ".yml"):
        return None, [Mistake(str(path), 1, 1, "a dictionary source is its main .tex file or a .yaml config "
                              "naming it", "name one of them", kind="source")]
    try:
        config = read_config(path)
    except EntryError as err:
        return None, mistakes_of(err, "config", lang)
    dictionary, mistakes = check_main(config["main"], base, complete, overlay, lang, memo)
    if dictionary is None:
        return None, mistakes
    keys = {e["key"] for e in dictionary["entries"].values()} | set(dictionary["left_out"])
    lines = path.read_text(encoding="utf-8").splitlines()
    for key in config["demos"]:
        if key not in keys:
            close = difflib.get_close_matches(key, sorted(keys), n=3, cutoff=0.6)
            line = next((n for n, text in enumerate(lines, 1) if text.strip().startswith(f"{key}:")), 1)
            mistakes.append(Mistake(str(path), line, 1, f"demos.{key}: no term has the key {key!r}",
                                    f"did you mean {', '.join(close)}?" if close else "use a term's key",
                                    kind="demo", edition=lang))
    dictionary["config"] = config
    return dictionary, mistakes
