"""What changed since the last build, for the preview: a save that changed an entry's prose (a Markdown
entry.md whose front matter reads as before) or a LaTeX term's description alone is rendered at once;
any other save needs a build.  Each source kind gives the model of an entry to render (`model(slug)`):
the last build's (results/_entries/<slug>.json) with the prose as the build's reader reads it now.
"""
import hashlib
import json
from pathlib import Path

from glossary import dictionary, entries, jsonio, stamp, texdict
from glossary import model as glossary_model
from glossary.entries import EntryError, split_front_matter
from glossary.readers.latex.citations import CITE

SOURCES = ("templates", "scripts", "src", "workflow")
TOP_FILES = ("config.yaml", "Snakefile")
# What a prose edit changes of a Markdown entry's model; a change of anything else (a ```tikz picture,
# which the build compiles) needs a build.
PROSE_FIELDS = ("document", "links", "label_refs", "citations")


class NeedsBuild(Exception):
    """A save the preview cannot render by itself: a build shows it."""


def digest(path):
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError:
        return None


class Sources:
    """The watched files as of the last build, to tell a prose edit from the rest."""

    def __init__(self, root, entries_dir):
        self.root, self.entries_dir = Path(root), entries_dir
        self.hashes = {}    # path (relative) -> sha256, when the last build started
        self.meta = None    # slug -> front matter, at the last good build (None: no good build yet)

    def files(self):
        out = [self.root / f for f in TOP_FILES if (self.root / f).is_file()]
        for folder in (self.entries_dir, *SOURCES):
            base = self.root / folder
            out += [p for p in base.rglob("*") if p.is_file() and "__pycache__" not in p.parts]
        return out

    def snapshot(self):
        """(hashes, front matter of each entry) as a build starting now sees them."""
        hashes = {p.relative_to(self.root).as_posix(): digest(p) for p in self.files()}
        meta = {}
        for md in sorted((self.root / self.entries_dir).glob("*/entry.md")):
            try:
                meta[md.parent.name] = split_front_matter(md.read_text(encoding="utf-8"), md)[0]
            except (EntryError, OSError, UnicodeDecodeError):
                meta[md.parent.name] = None     # never equal to what an edit parses to: a build tells the mistake
        return hashes, meta

    def prose_slug(self, rel):
        """The entry's slug when rel is its entry.md and only its prose differs from the last good build."""
        parts = rel.split("/")
        if self.meta is None or len(parts) != 3 or parts[0] != self.entries_dir or parts[2] != "entry.md":
            return None
        slug, md = parts[1], self.root / rel
        try:
            meta = split_front_matter(md.read_text(encoding="utf-8"), md)[0]
        except (EntryError, OSError, UnicodeDecodeError):
            return None
        return slug if slug in self.meta and self.meta[slug] == meta else None

    def path_of(self, slug):
        return f"{self.entries_dir}/{slug}/entry.md"

    def source_files(self, slug):
        """The files entry `slug`'s prose is read from."""
        return [self.root / self.path_of(slug)]

    def model(self, slug):
        """Entry `slug`'s model as the build's reader (glossary.entries) reads it now, from the working
        folder as the build does; NeedsBuild when more than its prose differs from the last build's."""
        entry = dictionary.as_model(entries.load_entry(Path(self.entries_dir) / slug,
                                                       entries.load_schema(self.root / entries.SCHEMA)), ".")
        now, last = json.loads(json.dumps(entry)), jsonio.read(Path(dictionary.snapshot_path(slug)))
        if {k: v for k, v in now.items() if k not in PROSE_FIELDS} != \
                {k: v for k, v in last.items() if k not in PROSE_FIELDS}:
            raise NeedsBuild(f"{self.path_of(slug)}: more than the prose changed (a picture?)")
        return entry

    def folders(self):
        """The folders to watch, recursively."""
        return [self.root / f for f in (self.entries_dir, *SOURCES) if (self.root / f).is_dir()]

    def classify(self, paths):
        """(slugs whose prose alone changed, paths that need a build) for the changed paths."""
        prose, build = set(), set()
        for path in paths:
            try:
                rel = Path(path).resolve().relative_to(self.root.resolve()).as_posix()
            except ValueError:
                continue
            slug = self.prose_slug(rel)
            if slug:
                prose.add(slug)
            elif digest(self.root / rel) != self.hashes.get(rel):     # not a file saved unchanged, nor a temp file
                build.add(rel)
        return prose, build


class TexSources:
    """A LaTeX dictionary's sources (glossary.stamp.source_roots) and this repository's, as of the last
    build, to tell a save that changed descriptions only from the rest.

    At each build's start it reads the whole dictionary (glossary.texdict, about 0.6 s) and keeps, per
    glossary file, each term's options as written; a save of a glossary file is then read alone: its
    terms' options are compared with those, and only a term whose description differs is scanned
    again (texdict's Reader.entry), so that a save costs one file's parse, not the dictionary's."""

    def __init__(self, repo, source):
        self.repo, self.source = Path(repo), Path(source).resolve()
        self.roots = stamp.source_roots(self.repo, self.source)
        self.hashes = {}    # absolute path -> sha256, when the last build started
        self.meta = None    # the dictionary as the last good build read it (None: no good build yet)
        self.models = {}    # slug -> the model to render, from the last classify()
        self.dirty = {}     # glossary file -> the slugs whose description differs from the last build's

    def folders(self):
        """The folders to watch, recursively: this repository's code and the dictionary's folders."""
        found = [self.repo / f for f in SOURCES if (self.repo / f).is_dir()]
        return found + sorted({Path(folder) for folder, _ in self.roots[1:]})

    def files(self):
        return [Path(folder) / rel for folder, names in self.roots for rel, _ in stamp.files(folder, names)]

    def snapshot(self):
        """(hashes, the dictionary's reading) as a build starting now sees them; the reading is None when
        the dictionary does not read (the build tells the mistake)."""
        hashes = {str(p): digest(p) for p in self.files()}
        try:
            meta = read_baseline(self.source)
        except (EntryError, OSError, UnicodeDecodeError, ValueError):
            meta = None
        return hashes, meta

    def classify(self, paths):
        """(slugs whose description alone changed, paths that need a build) for the changed paths; the
        slugs' models to render are left in self.models."""
        prose, build = set(), set()
        for path in paths:
            path = Path(path).resolve()
            key, rel = str(path), self.glossary_file(path)
            if rel is None:
                if digest(path) != self.hashes.get(key):     # not a file saved unchanged, nor a temp file
                    build.add(key)
                continue
            changed = description_changes(self.meta, rel, path)
            if changed is None:
                build.add(key)
                continue
            reverted, self.dirty[rel] = self.dirty.get(rel, set()) - set(changed), set(changed)
            for slug in reverted:   # a description edited and then put back: its page is the last build's again
                changed[slug] = jsonio.read(Path(dictionary.snapshot_path(slug)))
            prose |= set(changed)
            self.models.update(changed)
        return prose, build

    def path_of(self, slug):
        model = self.models.get(slug)
        return model["path"] if model else str(self.source)

    def source_files(self, slug):
        """The files term `slug`'s description is read from: its glossary file and the main or YAML file."""
        model = self.models.get(slug)
        found = [Path(self.meta["root"]) / model["path"]] if model and self.meta else []
        return found + [self.source]

    def model(self, slug):
        """The model classify() left for `slug`: the last build's, with the description as it is now."""
        return self.models[slug]

    def glossary_file(self, path):
        """path relative to the dictionary's folder when it is one of its glossary files, else None."""
        if self.meta is None:
            return None
        try:
            rel = path.relative_to(self.meta["root"]).as_posix()
        except ValueError:
            return None
        return rel if rel in self.meta["files"] else None


def read_baseline(source):
    """The dictionary at a build's start: {"root", "reader", "declared", "files": {glossary file:
    {key: its options as (name, value) pairs}}, "terms": {key: texdict's term}, "labels", "cited"}."""
    source = Path(source)
    try:
        main = Path(texdict.read_config(source)["main"]) if source.suffix in (".yaml", ".yml") else source
    except EntryError:
        main = None
    reader = texdict.Reader(main) if main else None
    read = reader.read() if reader else None
    if read is None:    # a YAML or main file that does not read: every save builds, and the build tells why
        return {"root": source.parent, "reader": reader, "declared": {}, "files": {}, "terms": {}, "labels": {},
                "cited": set()}
    declared = read["declared"]
    files = {rel: options_by_key(reader.source(main.parent / rel, rel)) for rel in read["glossary_files"]}
    terms = {t["key"]: t for t in read["entries"].values()}
    cited = {k.strip() for t in terms.values() for m in CITE.finditer(t["body"])
             for k in m.group(1).split(",")}
    return {"root": main.parent, "reader": reader, "declared": declared, "files": files, "terms": terms,
            "labels": read["labels"], "cited": cited}


def options_by_key(src):
    """{key: ((option, value), ...)} of one glossary file's terms that read, as written (offsets left out)."""
    found = texdict.entries_of(src, mistakes=[], broken=set())     # a draft's: its broken terms left out
    return {key: tuple((name, value) for name, value, _ in options) for key, _, options in found}


# What a description's scan gives that no other term's page or job may depend on, unless it changes.
SAME = ("title", "forms", "section", "see_also")


def description_changes(meta, rel, path):
    """{slug: model to render} of the terms of glossary file `rel` whose description alone changed since
    the last good build (an empty dict: none), or None when the save needs a build: a term added,
    removed or renamed, another option changed, a picture, graphic, label or "See also" changed, a
    \\gls key or label or citation the last build did not have, or a file that does not read."""
    try:
        src = texdict.Source(path, rel)
        found = texdict.entries_of(src)
    except (EntryError, OSError, UnicodeDecodeError):
        return None
    before = meta["files"][rel]
    if sorted(k for k, _, _ in found) != sorted(before):
        return None
    changed = {}
    for key, at, options in found:
        now = tuple((name, value) for name, value, _ in options)
        if now == before[key]:
            continue
        if [o for o in now if o[0] != "description"] != [o for o in before[key] if o[0] != "description"]:
            return None
        try:
            term, body = meta["reader"].entry(src, key, at, options, meta["declared"])
        except EntryError:
            return None
        old = meta["terms"][key]
        term["see_also"] = [texdict.slug_of(k) for k in term["see_also"]]
        if not same_term(term, old, body, meta):
            return None
        model = jsonio.read(Path(dictionary.snapshot_path(old["slug"])))
        model = glossary_model.with_prose(model, term["body"], term["body_line"], line=term["line"],
                                          pictures=term["pictures"], graphics=term["graphics"])
        changed[old["slug"]] = model
    return changed


def same_term(term, old, body, meta):
    """True when the term read now differs from the last build's in its description's text alone."""
    def placed(items):
        return [{k: v for k, v in item.items() if k != "line"} for item in items]     # lines move with edits

    if any(term[f] != old[f] for f in SAME):
        return False
    if placed(term["pictures"]) != placed(old["pictures"]) or placed(term["graphics"]) != placed(old["graphics"]):
        return False
    labels = {name: {"slug": old["slug"], "kind": kind, "number": number} for name, _, kind, number in body.labels}
    if labels != {n: v for n, v in meta["labels"].items() if v["slug"] == old["slug"]}:
        return False
    if any(name not in meta["terms"] for name, _ in body.gls) or any(n not in meta["labels"] for n, _, _ in body.refs):
        return False
    cites = {k.strip() for m in CITE.finditer(term["body"]) for k in m.group(1).split(",")}
    return cites <= meta["cited"]
