"""The language server's desk (glossary.lsp): a dictionary's editions, each checked with the build's
own reader, and the answers an editor asks for, as plain values (paths, offsets, texts) that the
protocol module turns into LSP's types.

    desk = Desk(project)                        # glossary.lspindex.find(folder)
    desk.check(edition, overlay)                # the build's mistakes of one edition, with unsaved buffers
    desk.edition_of(path), desk.index(path)     # which edition a file is in, its places
    desk.candidates(path, line_before_cursor)   # what to complete there
    desk.hover(path, offset), desk.definition(path, offset), desk.references(path, offset, declaration)
    desk.rename(path, offset, new_key)          # {path: [(start, end, text)]} across every edition

A check reads the edition's files as the build does (0.1 s for the 569-term dictionary: every keystroke
can afford it); only the file being typed in is indexed again, the others keep their index until
their text changes. An edition (a translation) is checked against the base edition's last good read.
"""
import re
import threading
from dataclasses import dataclass, field
from pathlib import Path

from glossary import assets, citations, dictionary, model, pictures, plaintext, prose, render, texprose
from glossary.entries import EntryError
from glossary.errors import Mistake
from glossary.labelrefs import Quote
from glossary.lspindex import TERM, WHERE, FileIndex, bib_records
from glossary.readers.latex import citations as cite_binding
from glossary.readers.latex import glossaries, references
from glossary.sentences import first_sentence, without_citations

# The style the build formats references with (workflow/rules/prose.smk's csl).
CSL = assets.path("templates") / "csl" / "ieee.csl"
# What the line before the cursor is in the middle of: a command's braced argument, a control word,
# or an entry's type= option.
ARGUMENT = re.compile(r"(?P<command>\\[A-Za-z]+)\*?(?:\s*\[[^\]]*\])*\s*\{(?P<argument>[^{}]*)$")
CONTROL_WORD = re.compile(r"\\[A-Za-z@]*$")
TYPE_OPTION = re.compile(r"(?<![A-Za-z])type\s*=\s*\{?(?P<argument>[A-Za-z0-9_-]*)$")
# A key a rename may give: what \gls{...} can name and the reader's slug rule can turn into a slug.
NEW_KEY = re.compile(r"^[^{}\\,%#\s](?:[^{}\\,%#]*[^{}\\,%#\s])?$")


def mistake_of(message, source_path, lang):
    """A Mistake of one line of an EntryError's message (a picture that does not compile:
    `file:line: term 'k': what; fix`, its file relative to the dictionary's folder, or whole)."""
    m = WHERE.match(message)
    file, line, column, rest = (m["file"], int(m["line"]), int(m["column"] or 1), m["rest"]) if m else \
        (str(source_path), 1, 1, message)
    term = TERM.match(rest)
    if term:
        rest = rest[term.end():]
    what, _, fix = rest.rpartition("; ") if "; " in rest else (rest, "", "")
    return Mistake(file, line, column, what, fix, term["term"] if term else None, edition=lang)


@dataclass
class Edition:
    """One edition of the dictionary: what its check read last (the last good read stays while the
    files have mistakes, so that completion and the rest go on) and its files' indexes."""
    lang: str
    source: Path
    main: Path
    complete: bool = False
    is_base: bool = True
    read: dict | None = None
    mistakes: list = field(default_factory=list)
    files: dict = field(default_factory=dict)       # Path -> FileIndex
    drawn: dict = field(default_factory=dict)       # glossary file (rel) -> [Mistake] of its pictures, at its save

    @property
    def root(self):
        return self.main.parent

    def paths(self):
        """The files the edition reads: its main file, glossary files and macro files (until a check
        has read them, the .tex files beside the main file)."""
        if self.read:
            names = self.read["glossary_files"] + self.read["macro_files"]
        else:
            names = sorted(p.name for p in self.root.glob("*.tex") if p != self.main)
        found = [self.main]
        for name in names:
            path = self.root / name
            path = path if path.is_file() or path.suffix == ".tex" else path.with_name(path.name + ".tex")
            found.append(path.resolve())
        return found

    def where(self, mistake, base_root):
        """The file a Mistake names, as an absolute path."""
        path = Path(mistake.file)
        if path.is_absolute():
            return path
        own = (self.root / path).resolve()
        return own if own.exists() or base_root is None else (base_root / path).resolve()


def location(path, index, start, end):
    """(path, (line, character), (line, character)), 0-based, of offsets into a file's index."""
    return path, index.line_column(start), index.line_column(end)


class Desk:
    """A dictionary's editions and their indexes; see the module's docstring."""

    def __init__(self, project):
        self.project = project
        self.base = Edition(project.language, project.source, project.main)
        self.editions = [self.base] + [Edition(code, spec["main"], spec["main"], spec["complete"], False)
                                       for code, spec in project.editions.items()]
        self.overlay = {}            # str(path) -> the text of an open buffer
        self.lock = threading.Lock()
        self._summaries, self._references, self._records = {}, {}, (None, None, {})

    # --- checking ---------------------------------------------------------------------------

    def check(self, edition, overlay=None):
        """Check one edition with the buffers of `overlay` (a snapshot of self.overlay): its mistakes.
        Runs in the server's worker; the files are indexed when a question needs them (fresh())."""
        overlay = dict(self.overlay if overlay is None else overlay)
        base = None if edition.is_base else self.base.read
        if not edition.is_base and base is None:
            read, mistakes = None, []     # nothing to check a translation against before its base reads
        else:
            read, mistakes = dictionary.check(edition.source, overlay, base, edition.complete,
                                    None if edition.is_base else edition.lang)
        with self.lock:
            if read is not None:
                edition.read = read
            edition.mistakes = mistakes
        return mistakes

    def draw(self, edition, path, cache):
        """Compile the pictures of the terms a saved file defines, as the build's pictures job does
        (glossary.pictures: the dictionary's preamble as a format, each picture kept under its key in
        `cache`), and keep the mistakes of those that do not compile: seconds, so only on a save, in a
        worker of its own. Returns the mistakes."""
        # The dictionary as saved, read here: the keystrokes' check of it may not have run yet.
        base = None if edition.is_base else self.base.read
        read, _ = dictionary.check(edition.source, dict(self.overlay), base, edition.complete)
        path = Path(path).resolve()
        if read is None or not path.is_relative_to(edition.root):
            return []
        rel = path.relative_to(edition.root).as_posix()
        root = read["root"]
        macro_text = "".join((Path(root) / m).read_text(encoding="utf-8") for m in read["macro_files"])
        preamble = pictures.picture_preamble(read["preamble"], macro_text)
        macros = pictures.macro_definitions(pictures.split_preamble(preamble)[1])
        forms = {e["key"]: e["forms"] for e in read["entries"].values()}
        titles = {slug: e["title"] for slug, e in read["entries"].items()}
        found = []
        for e in read["entries"].values():
            if e["path"] != rel:
                continue
            for p in e["pictures"]:
                labels = pictures.picture_labels(p["tex"], read.get("labels"), e["slug"], titles)
                found.append(dict(p, term=e["key"], slug=e["slug"], path=e["path"], labels=labels,
                                  key=pictures.key(p["tex"], preamble, macros, forms, root=root, labels=labels)))
        try:
            pictures.compile_all(found, preamble, root, cache, terms=forms)
            mistakes = []
        except EntryError as err:
            lang = None if edition.is_base else edition.lang
            mistakes = [mistake_of(line, edition.source, lang) for line in str(err).splitlines() if line.strip()]
        with self.lock:
            edition.drawn[rel] = mistakes
        return mistakes

    def fresh(self, *editions):
        """Index again each file of these editions (all by default) whose text changed: an open
        buffer's, else the file's. 50 ms for the largest file of the real dictionary, so a keystroke's
        check does without it and a question asks for it."""
        with self.lock:
            for edition in editions or self.editions:
                for path in edition.paths():
                    self.reindex(edition, path, self.overlay)

    def reindex(self, edition, path, overlay):
        text = overlay.get(str(path))
        if text is None:
            try:
                text = path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                return
        old = edition.files.get(path)
        if old is None or old.text != text:
            rel = path.relative_to(edition.root).as_posix() if path.is_relative_to(edition.root) else str(path)
            edition.files[path] = FileIndex(path, rel, text)

    def diagnostics(self, edition):
        """{path: [Mistake]} of an edition's last check, every file of it listed (empty: none)."""
        found = {path: [] for path in edition.paths()}
        base_root = None if edition.is_base else self.base.root
        for mistake in edition.mistakes + [m for found_ in edition.drawn.values() for m in found_]:
            found.setdefault(edition.where(mistake, base_root), []).append(mistake)
        return found

    def unknown(self, edition):
        """[(path, line, construct, count)] of the constructs the reader does not know (its notes)."""
        out = []
        for row in (edition.read or {}).get("unknown", []):
            file, _, line = row["first"].rpartition(":")
            out.append(((edition.root / file).resolve(), int(line), row["construct"], row["count"]))
        return out

    # --- where things are ---------------------------------------------------------------------

    def edition_of(self, path):
        """The edition that reads the file (the base edition first: a translation reads the base's
        macro file too), else the one whose folder holds it most closely."""
        path = Path(path).resolve()
        for edition in self.editions:
            if path in edition.files or path == edition.main:
                return edition
        inside = [e for e in self.editions if path.is_relative_to(e.root)]
        return max(inside, key=lambda e: len(e.root.parts)) if inside else self.base

    def index(self, path):
        """The file's index, fresh (every edition's files indexed again where their text changed:
        a question may look into any of them)."""
        path = Path(path).resolve()
        self.fresh()
        return self.edition_of(path).files.get(path)

    def terms(self, edition):
        """{key: term} of an edition's last good read, and its base's keys it may refer to."""
        if edition.is_base:
            return self.own_terms(edition)
        return {**self.own_terms(self.base), **self.own_terms(edition)}

    @staticmethod
    def own_terms(edition):
        """{key: term} of an edition's read, with the terms a check left out for a mistake of their own
        (texdict's "left_out_entries": their title, forms and place), so that typing in one keeps it."""
        read = edition.read or {}
        found = {e["key"]: e for e in read.get("entries", {}).values()}
        for key, e in (read.get("left_out_entries") or {}).items():
            found.setdefault(key, dict(e, key=key))
        return found

    def places(self, edition, kind, name):
        """[(path, FileIndex, Place)] of the places of an edition's files of this kind and name."""
        return [(path, index, p) for path, index in sorted(edition.files.items()) for p in index.named(kind, name)]

    def place_at(self, path, offset):
        index = self.index(path)
        return (index, index.at(offset)) if index else (None, None)

    def macros(self, edition):
        """{\\name: (path, FileIndex, Place)} of the macros the edition's files define."""
        found = {}
        for path, index in sorted(edition.files.items()):
            for p in index.places:
                if p.kind == "macro":
                    found.setdefault(p.name, (path, index, p))
        return found

    def bibliography(self, edition):
        """The .bib file the edition cites from (a translation's own, else its base's), or None."""
        for ed in (edition, self.base):
            bib = (ed.read or {}).get("bibliography")
            if bib and (ed.root / bib).is_file():
                return (ed.root / bib).resolve()
        return None

    def records(self, edition):
        """{key: Record} of the edition's .bib file, read again when the file changes."""
        bib = self.bibliography(edition)
        if bib is None:
            return {}
        stamp = bib.stat().st_mtime_ns
        if self._records[:2] != (bib, stamp):
            self._records = (bib, stamp, bib_records(bib))
        return self._records[2]

    # --- answers ------------------------------------------------------------------------------

    def candidates(self, path, before):
        """(kind, prefix, [(label, detail, documentation)]) of what completes the text before the
        cursor on its line, or None: \\gls-family keys, citation keys, labels, macros, section types."""
        self.fresh()
        edition = self.edition_of(path)
        if (m := TYPE_OPTION.search(before)) is not None:
            declared = (edition.read or self.base.read or {}).get("declared", {})
            return "type", m["argument"], [(t, title, None) for t, title in declared.items()]
        if (m := ARGUMENT.search(before)) is not None:
            command, argument = m["command"], m["argument"]
            if command in glossaries.GLS_COMMANDS:
                terms = sorted(self.terms(edition).items())
                return "gls", argument, [(key, term["title"], None) for key, term in terms]
            if command in cite_binding.COMMANDS:
                prefix = argument.rsplit(",", 1)[-1].lstrip()
                return "cite", prefix, [(r.key, f"{r.author} ({r.year})".strip(), r.title)
                                        for r in self.records(edition).values()]
            if command in references.REF_COMMANDS:
                prefix = argument.rsplit(",", 1)[-1].lstrip()
                labels = (edition.read or {}).get("labels", {})
                return "ref", prefix, [(name, f"{row['kind']} {row['number']} ({row['slug']})", None)
                                       for name, row in labels.items()]
            return None
        if (m := CONTROL_WORD.search(before)) is not None:
            macros = sorted(self.macros(edition).items())
            return "macro", m.group(0), [(name, p.command, None) for name, (_, _, p) in macros]
        return None

    def term_text(self, edition, key):
        """Markdown of a term for a hover or a completion's documentation: its name, key and section,
        then its summary (the description's first sentence as plain text, as the build derives it)."""
        term = self.terms(edition).get(key)
        if term is None:
            return None
        head = f"**{term['title']}** (`{key}`" + (f", {term['section']})" if "section" in term else ")")
        summary = self.summary(edition, term) if "body" in term else None
        return f"{head}\n\n{summary}" if summary else head

    def summary(self, edition, term):
        """The term's first sentence as text, derived as the prose job derives a summary (glossary.
        texprose's parse, glossary.render's pass, glossary.sentences, glossary.labelrefs' quote,
        glossary.plaintext): two pandoc runs, kept by the term's body."""
        cache = (term["key"], term["body"])
        if cache not in self._summaries:
            terms = self.terms(edition)
            targets = {k: {"slug": t["slug"], "forms": t["forms"], "title": t["title"]}
                       for k, t in terms.items() if "slug" in t}
            titles = {t["slug"]: t["title"] for t in terms.values() if "slug" in t}
            labels = (edition.read or {}).get("labels", {})
            macros = "".join(i.text for p, i in sorted(edition.files.items())
                             if p.is_relative_to(edition.root)
                             and p.relative_to(edition.root).as_posix() in (edition.read or {}).get("macro_files", []))
            try:
                ast = texprose.parse([term], texprose.normalise_macros(macros), targets)[term["slug"]]
                entry = model.Entry.from_json(dictionary.as_model(term, edition.root, labels))
                blocks = render.EntryPass(entry, titles, labels).blocks(ast)
                first = without_citations(Quote(term["slug"], {"titles": titles}).walk(first_sentence(blocks)))
                self._summaries[cache] = plaintext.texts({"s": [prose.node("Plain", first)]})["s"]
            except (EntryError, RuntimeError, OSError, KeyError):
                self._summaries[cache] = None
        return self._summaries[cache]

    def reference(self, edition, key):
        """A citation's record as the build's style writes it (pandoc citeproc), else its fields."""
        bib = self.bibliography(edition)
        record = self.records(edition).get(key)
        if record is None or bib is None:
            return None
        if key not in self._references:
            try:
                self._references[key] = citations.format_references([key], bib, CSL)[key]["text"].strip()
            except (EntryError, RuntimeError, OSError):
                self._references[key] = f"{record.author}, {record.title}, {record.year}."
        return self._references[key]

    def hover(self, path, offset):
        """(Markdown, start, end) of what the cursor is on, or None."""
        index, place = self.place_at(path, offset)
        if place is None:
            return None
        edition = self.edition_of(path)
        text = None
        if place.kind in ("gls", "define"):
            text = self.term_text(edition, place.name)
        elif place.kind == "cite":
            text = self.reference(edition, place.name)
        elif place.kind in ("ref", "label"):
            row = (edition.read or {}).get("labels", {}).get(place.name)
            text = f"{row['kind']} {row['number']} of `{row['slug']}`" if row else None
        elif place.kind in ("use", "macro"):
            found = self.macros(edition).get(place.name)
            text = f"```latex\n{found[2].command}\n```" if found else None
        return (text, place.start, place.end) if text else None

    def definition(self, path, offset):
        """[Location] of where the name under the cursor is defined."""
        index, place = self.place_at(path, offset)
        if place is None:
            return []
        edition = self.edition_of(path)
        if place.kind in ("gls", "define"):
            found = self.places(edition, "define", place.name) or \
                (self.places(self.base, "define", place.name) if not edition.is_base else [])
            return [location(p, i, pl.start, pl.end) for p, i, pl in found]
        if place.kind in ("ref", "label"):
            return [location(p, i, pl.start, pl.end) for p, i, pl in self.places(edition, "label", place.name)]
        if place.kind == "cite":
            record = self.records(edition).get(place.name)
            return [(self.bibliography(edition), (record.line - 1, 0), (record.line - 1, 0))] if record else []
        found = self.macros(edition).get(place.name)
        return [location(found[0], found[1], found[2].start, found[2].end)] if found else []

    def references(self, path, offset, declaration=True):
        """[Location] of every reference to the term (or label, citation, macro) under the cursor in
        its edition: the build's "Referenced by", as places."""
        index, place = self.place_at(path, offset)
        if place is None:
            return []
        edition = self.edition_of(path)
        kinds = {"gls": ("gls", "define"), "define": ("gls", "define"), "ref": ("ref", "label"),
                 "label": ("ref", "label"), "cite": ("cite",)}.get(place.kind)
        if kinds is None:      # a macro: its definition and every use of its name
            found = []
            for p, i in sorted(edition.files.items()):
                defined = {pl.start for pl in i.named("macro", place.name)}
                found += [location(p, i, m.start(), m.end())
                          for m in re.finditer(re.escape(place.name) + r"(?![A-Za-z@])", i.src.text)
                          if declaration or m.start() not in defined]
            return found
        shown = [k for k in kinds if declaration or k not in ("define", "label")]
        return [location(p, i, pl.start, pl.end)
                for kind in shown for p, i, pl in self.places(edition, kind, place.name)]

    def rename(self, path, offset, new):
        """{path: [(Location's start, end, new text)]} renaming the term key under the cursor in every
        edition's files (its definitions and every \\gls-family reference) and in the YAML file's
        demos:; an EntryError when the cursor is on no key or the new key cannot be one."""
        index, place = self.place_at(path, offset)
        if place is None or place.kind not in ("gls", "define"):
            raise EntryError("rename: the cursor is on no term key (a \\gls argument or a definition's key)")
        new = new.strip()
        if not NEW_KEY.match(new):
            raise EntryError(f"rename: {new!r} cannot be a key; use no braces, backslash, comma, % or #")
        for edition in self.editions:
            if self.places(edition, "define", new):
                raise EntryError(f"rename: the key {new!r} is already defined ({edition.lang} edition); choose another")
        edits = {}
        for edition in self.editions:
            for kind in ("define", "gls"):
                for p, i, pl in self.places(edition, kind, place.name):
                    _, start, end = location(p, i, pl.start, pl.end)
                    edits.setdefault(p, set()).add((start, end, new))
        yaml_edit = self.demo_key(place.name, new)
        if yaml_edit:
            edits.setdefault(self.project.source, set()).add(yaml_edit)
        return {p: sorted(e) for p, e in edits.items()}

    def demo_key(self, key, new):
        """The edit of the YAML file's demos.<key> line, or None."""
        if key not in self.project.demos:
            return None
        text = self.overlay.get(str(self.project.source)) or self.project.source.read_text(encoding="utf-8")
        demos = re.search(r"^demos:[ \t]*(#.*)?$", text, re.M)
        line = re.compile(r"^[ \t]+(['\"]?)" + re.escape(key) + r"\1[ \t]*:", re.M)
        m = line.search(text, demos.end()) if demos else None
        if m is None:
            return None
        row = text.count("\n", 0, m.start())
        column = m.start(1) - m.start()
        quote = m.group(1) or ("'" if ":" in new or "#" in new else "")
        width = len(m.group(1)) * 2 + len(key)
        return (row, column), (row, column + width), f"{quote}{new}{quote}"

    def symbols(self, path):
        """[(key, title, start, end, FileIndex, Place)] of the terms a file defines."""
        index = self.index(path)
        if index is None:
            return []
        terms = self.terms(self.edition_of(path))
        return [(key, terms.get(key, {}).get("title", ""), start, end, index, place)
                for key, start, end, place in index.symbols()]
