"""The dictionary a build makes a site of: its entries in the one entry model, its sections, and
the site-level facts (title, address, attribution, license), whatever the source format.

    d = glossary.plan.Plan(source, edition, config=config, repo=repo).dictionary
    d["entries"], d["sections"], d["batches"]

Without a source the entries are the Markdown entries under config.yaml's entries_dir (each read by
glossary.entries: from_entries).  With one (glossary.plan.Source: a glossaries-extra main .tex file, or
a small YAML file naming one) they are the terms glossary.texdict reads (from_source).  Either way
every later stage sees the same model; glossary.plan puts the pieces here together.

The build's jobs work on batches of entries (a job per entry per stage costs more than its work at
hundreds of entries); `snapshot()` writes each entry's model to results/_entries/<slug>.json only when
it changed, so that a batch job's inputs change exactly when one of its entries does.
"""
import hashlib
import json
import os
import pickle
import re
from pathlib import Path

from glossary import batchfiles, editions, jsonio, model
from glossary import entries as glossary_entries
from glossary.errors import EntryError, Mistake, Mistakes, mistakes_of
from glossary.layout import title_order
from glossary.readers.latex import citations as latex_citations
from glossary.readers.latex import mentions

SNAPSHOTS = "results/_entries"  # "_": no entry slug, so no per-entry rule claims these files
DEFAULT_SECTION = {"id": "main", "title": "Terms"}
# What the ```tikz pictures of Markdown entries are drawn with (a LaTeX dictionary's own preamble
# serves its pictures).
MARKDOWN_PICTURE_PREAMBLE = ("\\documentclass[10pt]{article}\n\\usepackage{amsmath,amssymb}\n\\usepackage{tikz}\n"
                             "\\usepackage{pgfplots}\n\\pgfplotsset{compat=1.18}\n")


# What a dictionary kept elsewhere is, when its YAML file's description: does not say (the index's
# lede, llms.txt's summary).
DICTIONARY_SUMMARY = ("One page per term, with its formulas, cross-references, citations and pictures, built from "
                      "the dictionary's sources; each term, and the whole dictionary, also as a PDF.")


def from_source(read, extra, book, models=None):
    """The model of a LaTeX dictionary: `read` is glossary.texdict's read of its main file, `extra`
    the YAML file's fields (glossary.plan.Source.config), `book` book_of() them; `models`: a file that
    keeps each term's model (kept_models)."""
    labels = {}     # each term's, grouped once: as_model would look through them all for each term
    for name, label in read.get("labels", {}).items():
        labels.setdefault(label["slug"], {})[name] = label
    return {
        "entries": kept_models(read["entries"], read["root"], labels, models),
        "sections": read["sections"],
        **source_fields(extra, book),
        "root": read["root"],
        "macro_files": [str(Path(read["root"]) / m) for m in read["macro_files"]],
        "bibliography": str(Path(read["root"]) / read["bibliography"]) if read.get("bibliography") else None,
        "preamble": read.get("preamble", ""),
        "unknown": read.get("unknown", []),
        "labels": read.get("labels", {}),
        "demos": extra.get("demos", {}),
        "language": extra.get("language", "en"),
    }


def source_fields(extra, book):
    """What a LaTeX dictionary's model says of the whole dictionary, from its YAML file's fields and
    its book (book_of), without its terms: site_facts() reads these."""
    return {
        # never config.yaml's site_title: that names this repository's own entries
        "title": book["title"],
        "site_url": extra.get("url", ""),
        "attribution": extra.get("attribution"),
        "description": extra.get("description") or DICTIONARY_SUMMARY,
        "manifest": extra.get("manifest"),
        **{k: book[k] for k in BOOK_FIELDS if k != "title"},
    }


def from_entries(config, repo):
    """The model of this repository's own Markdown entries (config.yaml's entries_dir and site fields)."""
    from glossary import texmeta  # 5 ms to import: the jobs and the no-op build that import this do without it
    return {
        "entries": {slug: as_model(e, ".") for slug, e in
                    glossary_entries.load_all(config["entries_dir"], Path(repo) / glossary_entries.SCHEMA).items()},
        "sections": [DEFAULT_SECTION],
        "title": config["site_title"],
        "site_url": config.get("site_url", ""),
        "attribution": config.get("attribution"),
        "license": texmeta.license_named(config["license"]) if config.get("license") else None,
        "authors": config.get("authors", []),
        "year": config.get("year"),
        "cite_as": None,
        "imprint": {},
        "symbols_file": None,
        "captions": {},
        "description": config["site_description"],
        "manifest": None,
        "root": str(repo),
        "macro_files": [],
        "bibliography": config.get("bibliography"),
        "preamble": MARKDOWN_PICTURE_PREAMBLE,
        "unknown": [],
        "labels": {},
        "demos": {},
        "language": "en",
    }


# What the dictionary model says of the book (glossary.texmeta): its title, its authors, the licence
# ({"name", "title", "spdx", "url", "notice", "file"} or None), the year, the authors' "please cite
# as" (LaTeX source or None), its imprint ({"address", "publisher"} read from that, or {}), the
# List of Symbols file the main file \inputs (a path or None) and its captions' labels ({} for LaTeX's).
BOOK_FIELDS = ("title", "authors", "license", "year", "cite_as", "imprint", "symbols_file", "front_matter",
               "captions")


def book_of(main, fields, fallback=None):
    """glossary.texmeta.book (the main file's title, authors, licence, ..., each overridden by the
    YAML file's `fields`), titled by the main file's name when neither gives a title."""
    from glossary import texmeta  # 5 ms to import: see from_entries()
    book = texmeta.book(main, fields, fallback)
    book["title"] = book["title"] or Path(main).stem
    return book


def site_facts(loaded):
    """What every page, feed and PDF says of the dictionary (common.smk's SITE): its title, authors,
    licence, year and imprint, the attribution line, the description and the address."""
    facts = {k: loaded[k] for k in BOOK_FIELDS if k not in ("cite_as", "symbols_file", "front_matter", "captions")}
    facts.update(attribution=loaded.get("attribution"), description=loaded["description"],
                 url=loaded.get("site_url", ""))
    return {k: v for k, v in facts.items() if v or k == "title"}




def load_edition(plan, lang, base):
    """One edition of a build with several (glossary.editions): (its texdict read, its site fields,
    its view of every edition, its fallback targets, its book: glossary.texmeta.book).  `base` is the
    base edition's read (glossary.plan.Source.read).  Every edition is read (0.1 s each) to know which
    terms and sections each one publishes."""
    from glossary import texdict  # 16 ms to import: only a build with several editions reads them here
    base_spec = plan["editions"][0]
    base_config = base.get("config", {})
    book = book_of(base["main"], base_config)
    reads = {base_spec["lang"]: base}
    for spec in plan["editions"][1:]:
        try:
            reads[spec["lang"]] = texdict.read(spec["source"], base=base, complete=spec.get("complete", False))
        except EntryError as err:   # every run reads every edition: name the edition at fault, not the run's
            raise Mistakes(mistakes_of(err, edition=spec["lang"])) from None
    me = next(e for e in plan["editions"] if e["lang"] == lang)
    read = reads[lang]
    extra = dict(base_config, language=lang)
    if me is not base_spec:
        url = base_config.get("url")
        # a translation's own \title, authors and licence file, else its base's
        book = book_of(read["main"], {"title": me.get("title")}, fallback=book)
        extra.update(demos={}, description=me.get("description") or base_config.get("description"),
                     url=f"{url}{me['prefix']}" if url else None, manifest=None,
                     bibliography=str(Path(base["root"]) / base["bibliography"]) if base.get("bibliography") else None)
        titles = me.get("sections") or {}
        read["sections"] = [dict(s, title=titles.get(s["id"], s["title"])) for s in read["sections"]]
    terms = {k: list(r["entries"]) for k, r in reads.items()}
    shown = {k: sorted({e["section"] for e in r["entries"].values()}) for k, r in reads.items()}
    titles = {k: {slug: e["title"] for slug, e in r["entries"].items()} for k, r in reads.items()}
    view = editions.view(lang, plan["editions"], terms, shown, titles)
    # every term of the base this edition lacks links to the base's page: its entries' references
    # (fallback_keys), and those of what it shares with the base (the List of Symbols)
    fallback = {}
    own_keys = {e["key"] for e in read["entries"].values()}
    by_key = {e["key"]: e for e in base["entries"].values()}
    lacking = sorted(set(by_key) - own_keys) if me is not base_spec else []
    if lacking:
        pages = editions.Pages(view)
        for key in lacking:
            e = by_key[key]
            href = pages.href(base_spec["lang"], f"terms/{e['slug']}", "terms/x.html")
            fallback[key] = {"slug": f"{base_spec['lang']}:{href}", "forms": e["forms"], "title": e["title"]}
    own = set(read["entries"])
    for e in read["entries"].values():    # a "See also" term the edition lacks is left out of its list
        e["see_also"] = [s for s in e["see_also"] if s in own]
    return read, extra, view, fallback, book


def citations_of(entry):
    """[{"key", "path", "line", "term"}] of every citation in an entry's prose, in order."""
    return [{"key": c["name"], "path": entry["path"], "line": c["line"], "term": entry["key"]}
            for c in entry["citations"]]


def check_citations(loaded, cites=None):
    """The keys the entries cite (or `cites`: [{"key", "path", "line", "term"}]), sorted; every one is a
    record of the bibliography (EntryError otherwise, naming the file, line, term, key and the closest keys)."""
    if cites is None:
        cites = [c for e in loaded["entries"].values() for c in citations_of(e)]
    if not cites:
        return []
    from glossary import citations  # 28 ms (citeproc) the no-op build and the pictures job do without
    bib = loaded.get("bibliography")
    if not bib or not Path(bib).is_file():
        first = cites[0]
        raise glossary_entries.EntryError(
            f"{first['path']}:{first['line']}: term {first['term']!r} cites {first['key']!r}, but the dictionary "
            f"names no bibliography{f' ({bib} is missing)' if bib else ''}; add \\bibliography{{...}} to the main "
            "file (or bibliography: to config.yaml) or remove the citation")
    citations.check(cites, citations.bib_keys(bib), bib=Path(bib).name)
    return sorted({c["key"] for c in cites})


def check(source_path, overlay=None, base=None, complete=False, lang=None, memo=None):
    """Every mistake of a dictionary in one read, in the build's words: the reader's (glossary.texdict:
    its files, entries, keys, labels, encodings), the demos its YAML file names, and its citations.
    Returns (texdict's dictionary of the terms that read without a mistake of their own, or None when
    its main or YAML file cannot be read; [glossary.errors.Mistake] in report order).

    `overlay`: {absolute path: text} read instead of those files (a language server's open buffers);
    `base`, `complete`: an edition's base dictionary (this function's or texdict's read) and whether
    it must be complete; `lang`: the edition's language, named on each of its mistakes; `memo`: where a
    read without a mistake is kept for the build's plan (glossary.texdict.check_main)."""
    from glossary import texdict  # 34 ms (jsonschema): see glossary.plan.Source.config
    read, mistakes = texdict.check_source(source_path, overlay, base, complete, lang, memo)
    if read is not None:
        bib = read.get("bibliography") and Path(read["root"]) / read["bibliography"]
        if base is not None and not (bib and bib.is_file()) and base.get("bibliography"):
            bib = Path(base["root"]) / base["bibliography"]    # a translation cites its base's records
        cited = citation_mistakes(read, bib, lang)
        bad = {m.term for m in cited}
        read["entries"] = {s: e for s, e in read["entries"].items() if e["key"] not in bad}
        read["left_out"] = sorted(set(read["left_out"]) | bad)
        mistakes += cited
    return read, sorted(set(mistakes), key=Mistake.order)


def bibliography_fix(read, bib):
    """What to do when the .bib file the main file names is missing: name it where it is (an edition
    cites its base dictionary's records), or add it."""
    from glossary.readers.latex.graphics import nearby  # see check()
    near = nearby(read["root"], Path(bib).name)
    if near:
        return f"write \\bibliography{{{near}}} in the main file (paths are relative to its folder)"
    return f"add {Path(bib).name} beside the main file or fix its \\bibliography{{...}}"


def draft(source):
    """The preview's draft of a dictionary with mistakes (the workflow's config `draft=1`, set by
    `make serve`: glossary.previewdraft): check()'s dictionary of the terms that build, the demos of
    those alone, "See also" lists without the terms left out, and "draft_targets": each term left out
    as a reference's target "draft:<slug>", a link marked DRAFT to the preview's page of its mistakes
    (glossary.prose.other_edition).  `source`: glossary.plan.Source.  A main or YAML file that cannot
    be read raises its Mistakes."""
    from glossary import texdict  # see check()
    read, found = check(source.path)
    if read is None:
        raise Mistakes(found)
    keys = {e["key"] for e in read["entries"].values()}
    read["config"] = dict(read["config"], demos={k: v for k, v in read["config"]["demos"].items() if k in keys})
    own = set(read["entries"])
    for e in read["entries"].values():
        e["see_also"] = [s for s in e["see_also"] if s in own]
    known = read["left_out_entries"]
    read["draft_targets"] = {
        key: {"slug": f"draft:{texdict.slug_of(key)}", "title": known.get(key, {}).get("title", key),
              "forms": known.get(key, {}).get("forms") or texdict.forms_of({}, key)}
        for key in read["left_out"]}
    return read


def check_editions(runs, memo=None):
    """The mistakes of every edition of a build (glossary.plan.edition_runs), each naming its edition
    when there are several: [Mistake].  `memo`: where the first edition's read is kept (check())."""
    base, found = check(runs[0]["source"], lang=runs[0]["lang"] if len(runs) > 1 else None, memo=memo)
    for run in runs[1:] if base is not None else ():
        found += check(run["source"], base=base, complete=run.get("complete", False), lang=run["lang"])[1]
    return found


def symbol_citations(path, shown=None):
    """[{"key", "path", "line", "term"}] of the citations of the List of Symbols at `path` (the build
    formats their records with the terms', glossary.plan.Plan.cited); `shown`: its path in messages."""
    return latex_citations.in_file(path, "List of Symbols", shown)


def citation_mistakes(read, bib, lang=None):
    """[Mistake] of each citation of texdict's `read` (its terms' and its List of Symbols') that no
    record of the .bib file `bib` has (the words of glossary.citations.check), at its line and column."""
    cites, lines = [], {}
    for e in read["entries"].values():
        # texdict's terms are LaTeX: the LaTeX reader's mentions, at the file as the author names it
        cites += [{"key": key, "path": e["path"], "line": line, "term": e["key"]}
                  for key, line in mentions.cited(e["body"], e["body_line"])]
    symbols = book_of(read["main"], read.get("config") or {})["symbols_file"] if read.get("main") else None
    if symbols and Path(symbols).is_file():
        cites += symbol_citations(symbols, os.path.relpath(symbols, read["root"]))
    if not cites:
        return []
    if not bib or not Path(bib).is_file():
        first = cites[0]
        return [Mistake(first["path"], first["line"], 1, f"cites {first['key']!r}, but " + (
                        f"{Path(bib).name}, the bibliography the main file names, is missing" if bib else
                        "the dictionary names no bibliography"),
                        bibliography_fix(read, bib) if bib else
                        "add \\bibliography{...} to the main file or remove the citation", term=first["term"],
                        kind="bibliography", edition=lang)]
    from glossary import citations  # pandoc's helpers: only a dictionary that cites needs them
    try:
        citations.check(cites, citations.bib_keys(bib), bib=Path(bib).name)
    except EntryError as err:
        found = []
        for told in str(err).splitlines():
            m = mistakes_of(EntryError(told), "unknown-citation", lang)[0]
            key = re.search(r"no record '([^']*)'", m.what)
            if m.file not in lines:
                lines[m.file] = (Path(read["root"]) / m.file).read_text(encoding="utf-8", errors="replace").split("\n")
            text = lines[m.file][m.line - 1] if 0 < m.line <= len(lines[m.file]) else ""
            column = text.find(key.group(1)) + 1 if key and key.group(1) in text else 1
            found.append(Mistake(m.file, m.line, column, m.what, m.fix, m.term, m.kind, m.edition))
        return found
    return []


def attach_demos(loaded):
    """The demos a dictionary's YAML file gives its terms (`demos:`), in the entries' model: each such
    term gets an entry.md's demo fields (demo: the script's file name, csv, figures, preview: the PNG
    its page shows, <slug>.png for a plain script) and demo_kind (plain or blocks);
    loaded["demo_scripts"] holds, by slug, what the jobs run: {"key", "kind", "script": its absolute
    path, "image": the image a plain script saves, None for the default <script>.png or .pdf}."""
    by_key = {e["key"]: slug for slug, e in loaded["entries"].items()}
    loaded["demo_scripts"] = {}
    for key, spec in sorted(loaded.get("demos", {}).items()):
        slug = by_key[key]     # Source.read checked that every key is a term's
        script = Path(spec["script"]).resolve()
        image = spec.get("preview") if spec["kind"] == "plain" else None
        loaded["entries"][slug].update(
            demo=script.name, demo_kind=spec["kind"], csv=spec.get("csv", []), figures=spec.get("figures", []),
            # A plain script's image is published as <slug>.png: one name the demo rule can write.
            preview=f"{slug}.png" if spec["kind"] == "plain" else f"{script.stem}.png")
        loaded["demo_scripts"][slug] = {"key": key, "kind": spec["kind"], "script": str(script), "image": image}


def as_model(term, root, labels=None):
    """A term as its reader hands it on (glossary.texdict's term, glossary.entries' entry.md), in the
    one entry model, glossary.model.Entry's JSON form (its file's path made whole, so that jobs in
    any folder find it); `labels`: the reader's {label: {"slug", "kind", "number"}}, this term's
    kept."""
    fields = {k: v for k, v in term.items() if k not in (
        "slug", "key", "path", "line", "body", "body_line", "format", "forms", "section", "pictures", "graphics")}
    document = model.Document(term["format"], term["body"], term["body_line"])
    return model.entry(fields, slug=term["slug"], key=term["key"], path=str(Path(root) / term["path"]),
                       line=term["line"], document=document, forms=term.get("forms"), section=term["section"],
                       pictures=term.get("pictures", []), graphics=term.get("graphics", []),
                       labels={name: {"kind": v["kind"], "number": v["number"]} for name, v in (labels or {}).items()
                               if v["slug"] == term["slug"]}).to_json()


def kept_models(terms, root, labels, path=None):
    """{slug: as_model(term, root, its labels)} of texdict's `terms`; with `path`, each kept in that file
    under the hash of what it is made of and of this package's code, so that a build models again only
    the terms that changed (modelling every term was most of the plan's start at 5,000 terms)."""
    if path is None:
        return {slug: as_model(term, root, labels.get(slug)) for slug, term in terms.items()}
    from glossary.texdict import code_digest  # see check()
    code = code_digest()
    try:
        kept_code, kept = pickle.loads(Path(path).read_bytes())
    except Exception:       # none yet, or not one this code wrote
        kept_code, kept = None, {}
    kept = kept if kept_code == code else {}
    models, made = {}, {}
    for slug, term in terms.items():
        key = hashlib.sha256(pickle.dumps((term, root, labels.get(slug)), protocol=pickle.HIGHEST_PROTOCOL)).digest()
        model = kept.get(key)
        made[key] = models[slug] = as_model(term, root, labels.get(slug)) if model is None else model
    if made.keys() != kept.keys():
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(f".{path.name}.{os.getpid()}")
        partial.write_bytes(pickle.dumps((code, made), protocol=pickle.HIGHEST_PROTOCOL))
        os.replace(partial, path)
    return models


def batches(entries, size):
    """{batch name: [slugs]}: the entries in order of their slugs, `size` a batch at most, the
    batches as even as that allows (names b00, b01, ...)."""
    slugs = sorted(entries)
    count = max(1, -(-len(slugs) // max(1, size)))
    per = -(-len(slugs) // count) if slugs else 0
    return {f"b{i:02d}": slugs[i * per:(i + 1) * per] for i in range(count) if slugs[i * per:(i + 1) * per]}


def snapshot_path(slug):
    return f"{SNAPSHOTS}/{slug}.json"


def snapshot(entry, folder=".", written=None):
    """results/_entries/<slug>.json: the entry's model as the jobs read it, rewritten only when its
    content changed; returns the sha256 of its text (batch_snapshots).  On one line (json's C encoder),
    as the other files of every entry the plan writes: jobs alone read them, and indenting 5,000 took
    half a second of each build's start.  `written`: a Written that records it."""
    return (written or Written(folder)).write(snapshot_path(entry["slug"]), jsonio.dumps(entry, compact=True))


def batch_snapshots(batch, slugs, digests, folder="."):
    """The batch's entries file (glossary.batchfiles.ENTRIES): its entries in its order, each with its
    snapshot's path and sha256 (`digests`: snapshot()'s), rewritten only when one of them changed.  The
    batch jobs' one input for their entries, so that an edit reruns the jobs of its entry's batch and no
    others, and Snakemake's record of each output no longer lists every snapshot of the batch."""
    rows = [{"slug": s, "path": snapshot_path(s), "sha256": digests[s]} for s in slugs]
    # on one line: indented by json's Python encoder, the 54 files of 5,000 terms took a third of a second
    return write_if_changed(Path(folder) / batchfiles.entries_path(batch), jsonio.dumps(rows, compact=True))


WRITTEN = "results/cache/written.json"


class Written:
    """The files of every entry the plan writes at each build's start (its model's snapshot, its pictures'
    snapshot), each rewritten only when its text changes, as write_if_changed(); with a record (WRITTEN)
    of each file's sha256, size, modification time and inode as last written or found, so that a file the
    record knows is found unchanged by its stat rather than read: at 5,000 terms the plan compares
    10,000 files, and opening and reading them was most of that.  keep() writes the record."""

    def __init__(self, folder="."):
        self.folder, self.path = folder, os.path.join(folder, WRITTEN)
        try:
            with open(self.path, "rb") as held:
                self.kept = json.loads(held.read())
        except (OSError, ValueError):       # none yet, or cut short: every file is compared again
            self.kept = {}
        if not isinstance(self.kept, dict):
            self.kept = {}
        self.record = {}

    def write(self, name, text):
        """Write `text` to `name` (relative to the folder) unless the file holds it; returns its sha256."""
        data = text.encode("utf-8")
        digest = hashlib.sha256(data).hexdigest()
        path = os.path.join(self.folder, name)
        kept = self.kept.get(name)
        if kept is not None and kept[0] == digest:
            try:
                st = os.stat(path)
            except OSError:
                st = None
            if st is not None and kept[1:] == [st.st_size, st.st_mtime_ns, st.st_ino]:
                self.record[name] = kept
                return digest
        st = _put(path, data)
        self.record[name] = [digest, st.st_size, st.st_mtime_ns, st.st_ino]
        return digest

    def keep(self):
        """Write the record, when it differs from the one read: it names the files written since alone."""
        if self.record != self.kept:
            os.makedirs(os.path.dirname(self.path), exist_ok=True)
            partial = f"{self.path}.{os.getpid()}"
            with open(partial, "w", encoding="utf-8") as out:
                out.write(json.dumps(self.record, sort_keys=True, separators=(",", ":")))
            os.replace(partial, self.path)


def write_if_changed(path, text):
    """Write `text` to `path` unless the file holds it already (its mtime then stays).  Compared as bytes:
    the plan compares 10,000 snapshots at 5,000 terms at each build's start."""
    _put(str(path), text.encode("utf-8"))
    return path


def _put(path, data):
    """Write the bytes `data` to `path` (a string) unless the file holds them; returns the stat of the file
    compared, taken before its bytes were read, or of the file written, taken before it was moved into
    place: a file another process puts there meanwhile has another inode (Written reads it again)."""
    try:
        st = os.stat(path)
        with open(path, "rb") as held:
            if held.read(len(data) + 1) == data:
                return st
    except OSError:         # none yet (or a folder in its place: the write below says so)
        pass
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    tmp = f"{path}.{os.getpid()}.tmp"
    with open(tmp, "wb") as out:
        out.write(data)
    st = os.stat(tmp)
    os.replace(tmp, path)
    return st


def content_key(*parts):
    """A sha256 over JSON-able parts: the key of a per-entry result in a batch job's cache."""
    h = hashlib.sha256()
    for part in parts:
        h.update(json.dumps(part, sort_keys=True, ensure_ascii=False).encode("utf-8"))
        h.update(b"\0")
    return h.hexdigest()


NAMES = "results/names.json"
PROSE_WORDS = ("Figure", "References", "of")
PICTURE_PREAMBLE = "results/pictures/preamble.tex"


def names(loaded, read=None):
    """What an entry may show of the others: each one's title (and, where its reader reads it as prose,
    its name as HTML, LaTeX and text: `read`, a function of the targets below giving {slug: {"html",
    "latex", "text"}}, glossary.plan.Plan.names_read) and section, the forms a cross-reference shows (by
    key), and every label's entry, kind and number."""
    entries = loaded["entries"]
    found = {
        "titles": {slug: e["title"] for slug, e in entries.items()},
        "sort": {slug: e["sort"] for slug, e in entries.items() if e.get("sort")},
        "sections": {slug: e["section"] for slug, e in entries.items()},
        "targets": {**loaded.get("fallback", {}),
                    **{e["key"]: {"slug": slug, "forms": e["forms"], "title": e["title"]}
                       for slug, e in entries.items()}},
        "labels": loaded.get("labels", {}),
        # the words the prose itself writes ("Figure 2.", the references' heading), in its edition's language
        "words": {w: loaded["edition_view"]["messages"].get(w, w) for w in PROSE_WORDS},
    }
    found["read"] = read(found["targets"]) if read else {}
    return found


def write_names(loaded, folder=".", read=None, written=None):
    """results/names.json (names(loaded, read)), the pictures' preamble and each entry's pictures snapshot
    (pictures_snapshot()), each rewritten only when it changes; `written`: a Written that records the
    snapshots."""
    from glossary import pictures  # 17 ms after glossary.plan: the no-op build does without it
    macros = "".join(Path(m).read_text(encoding="utf-8") for m in loaded["macro_files"])
    write_if_changed(Path(folder) / PICTURE_PREAMBLE, pictures.picture_preamble(loaded["preamble"], macros))
    forms = {e["key"]: e["forms"] for e in loaded["entries"].values()}
    titles = {slug: e["title"] for slug, e in loaded["entries"].items()}
    written = written or Written(folder)
    for entry in loaded["entries"].values():
        written.write(pictures_snapshot_path(entry["slug"]),
                      jsonio.dumps(pictures_snapshot(entry, forms, loaded["root"], loaded.get("labels"), titles),
                                   compact=True))
    # what the pages show of every edition (glossary.editions; its words included)
    write_if_changed(Path(folder) / editions.VIEW, jsonio.dumps(loaded["edition_view"]))
    return write_if_changed(Path(folder) / NAMES, jsonio.dumps(names(loaded, read), compact=True))


PICTURE_SNAPSHOTS = "results/_pictures"


def pictures_snapshot_path(slug):
    return f"{PICTURE_SNAPSHOTS}/{slug}.json"


def pictures_snapshot(entry, forms, root, labels=None, titles=None):
    """What an entry's pictures and graphics are made of, and nothing else, so that the pictures job
    (its input) reruns when they change and not for an edit of the prose around them: each
    picture's TeX and number with the sha256 of each file it reads (under `root`), the forms of the
    terms its \\gls calls show (`forms`: {glossary key: forms}), the numbers its \\ref calls print
    (pictures.picture_labels), the graphics files the prose includes.  Where a picture sits (its
    file and line, which only an error message tells) is the entry snapshot's."""
    from glossary import pictures  # see write_names
    shown = sorted({k for p in entry["pictures"] for k in pictures.glossary_keys(p["tex"])})
    return {"slug": entry["slug"], "key": entry["key"],
            "pictures": [{"n": p["n"], "tex": p["tex"], "files": pictures.referenced_files(p["tex"], root),
                          "labels": pictures.picture_labels(p["tex"], labels, entry["slug"], titles)}
                         for p in entry["pictures"]],
            "forms": {k: forms[k] for k in shown if k in forms},
            "graphics": [{"n": g["n"], "path": g["path"]} for g in entry.get("graphics", [])]}


def initial(slug, entry):
    """The letter an entry starts with in the book's order (its sort key's first; "" for none)."""
    return title_order(slug, entry["title"], entry.get("sort"))[0][:1]


def book_order(loaded):
    """The slugs in the book's order: section by section as the dictionary orders its sections,
    alphabetical by title within each (the index's order)."""
    rank = {s["id"]: i for i, s in enumerate(loaded["sections"])}
    entries = loaded["entries"]
    return sorted(entries, key=lambda s: (rank.get(entries[s]["section"], len(rank)),
                                          title_order(s, entries[s]["title"], entries[s].get("sort"))))
