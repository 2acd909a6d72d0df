"""The print edition: each entry typeset as a PDF, and the whole dictionary as one book.

An entry's section (rule section_<batch>, in its batch's file, glossary.batchfiles) holds its
name, the prose running on after it (pandoc's LaTeX of the same parse as the page's
HTML, with the run's facts filled in), figures, check lines, its "See also" list and
its own reference list.  The entry PDF and the book set the same section; each
defines the section's macros its own way (\\glossaryentry, and \\glossaryref: an
internal link in the book, a link to the term's page in the entry PDF).  The entry
PDF adds its BibTeX record and addresses; the book its front matter (title page,
contents, List of Symbols) and one bibliography for all entries (glossary.bookparts).
Figures are the PDFs the figure rules already built, included as they are: nothing
is compiled twice.

Templates: templates/print/*.tex.j2, in the figures' Jinja environment (<< >>,
the `tex` filter escapes TeX's special characters).
"""
import functools
import hashlib
import re
import shutil
import tempfile
from pathlib import Path

from glossary import bookparts, catalog, citations, dictionary, editions, figures, latex, pages
from glossary.entries import EntryError
from glossary.readers.latex import kernel

# Each entry PDF's own document, beside the entry's other results.
ENTRY_TEX = "results/{slug}/print/entry.tex"


# One environment a process: compiling the templates again for each entry's section and document took
# 20 ms an entry (9 ms each in a profile of a 25-entry batch).
@functools.lru_cache(maxsize=None)
def environment(template_dir):
    return figures.environment(template_dir)


def urls(slug, site_url):
    """The entry's page, script and notebook as absolute addresses (None without a site_url)."""
    if not site_url:
        return None
    return {"page": f"{site_url}terms/{slug}.html", "script": f"{site_url}terms/{slug}.py",
            "notebook": f"{site_url}terms/{slug}.ipynb"}


def check_lines(paths):
    """The demo's check lines, in the order of their files (1-tokenize, 2-train, ...)."""
    text = "".join(Path(p).read_text(encoding="utf-8") for p in sorted(paths, key=lambda p: Path(p).name))
    return text.rstrip("\n").split("\n") if text.strip() else []


# The words the print edition writes itself, in the edition's language (templates/messages/<lang>.yaml).
# "Contents" and the bibliography's "References" are babel's (\\contentsname, \\refname).
PRINT_WORDS = ("See also", "Cite this entry", "Online", "Page", "Script", "Notebook", "References",
               "Please cite as")


def words(view):
    """{English word: the edition's} of PRINT_WORDS (`view`: the edition's, glossary.editions)."""
    translate = editions.translator(view)
    return {w: translate(w) for w in PRINT_WORDS}


def see_also(slugs, names):
    """The entries of a "See also" list as the section links them: [{"slug", "title"}], each title
    as LaTeX (as its reader read it where the name is TeX, else its text escaped: catalog.names_shown
    of names.json, `names`), in the list's order; a slug the names lack (an edition without that term)
    is left out."""
    rows = catalog.names_shown(names, [s for s in slugs if s in names["titles"]])
    return [{"slug": s, "title": rows[s]["title_latex"] or figures.tex(rows[s]["title"])} for s in slugs if s in rows]


def section(slug, meta, prose, checks, template_dir, see=(), words_=None):
    """The LaTeX of one entry's section: its name (and a summary its source gives; one taken from the
    prose's first sentence is not set, as the text starts with it), the prose, figures, checks, its
    "See also" list (`see`: see_also()) and, last, its own reference list."""
    figs = [{"path": f"{slug}/figures/{f['name']}.pdf", "label": f"fig:{slug}:{f['name']}",
             "caption": f["caption"]} for f in meta["figures"]]
    body, heading, records = bookparts.split_references(prose.strip("\n"), slug)
    references = citations.references_latex([{"n": n, "latex": r} for n, r in enumerate(records, 1)],
                                            bookparts.entry_prefix(slug))
    return environment(template_dir).get_template("section.tex.j2").render(
        slug=slug, entry=meta, prose=body.strip("\n"), figures=figs, checks=checks, see_also=list(see),
        references=references.rstrip("\n"), references_heading=heading, words=words_ or words(None))


# The published terms/ folder as a print document's \\graphicspath: the name its TeX run's job folder
# links it by (latex.job_folder), a relative name that kpathsea's paranoid mode lets TeX read.
TERMS = "terms"


def entry_fields(section_tex, meta, site, site_url):
    """What entry.tex.j2 sets of one entry: its section under its title (a link to its page when the
    site has an address), then how to cite it and where it is online; `site`: what the dictionary is
    (common.smk's SITE)."""
    slug = meta["slug"]
    address = urls(slug, site_url)
    # A name read as TeX is the record's TeX (pdflatex typesets no math symbol in the verbatim block).
    bibtex = pages.bibtex(slug, meta["title"], site, address["page"] if address else None, "demo" in meta,
                          title_tex=meta["title"] if meta.get("title_latex") else None)
    return {"slug": slug, "section": section_tex.strip("\n"), "title": meta.get("title_text") or meta["title"],
            "bibtex": bibtex.rstrip("\n"), "urls": address, "demo": "demo" in meta}


def print_document(fields, site, site_url, template_dir, babel="", words_=None, batch=False, captions=None):
    """entry.tex.j2 of the entries `fields` (entry_fields): one entry's own document, or with `batch`
    the document of one pdflatex run that sets them all, each from its own page (compile_entries);
    `captions`: the main file's caption labels (glossary.plan.Plan.captions)."""
    return environment(template_dir).get_template("entry.tex.j2").render(
        entries=fields, batch=batch, site_title=site["title"], authors=", ".join(site.get("authors", [])),
        site_url=site_url, babel=babel, words=words_ or words(None), figures_dir=TERMS, captions=captions or {})


def authors_line(authors):
    """"A, B and C" (the title page's; `and` in the edition's language is LaTeX's own: none here)."""
    authors = list(authors or [])
    return ", ".join(authors[:-1]) + (" and " if len(authors) > 1 else "") + (authors[-1] if authors else "")


def license_text(license_):
    """The licence as the title page names it: its title when the model has one, else its text."""
    if isinstance(license_, dict):
        return license_.get("title") or license_.get("name")
    return license_ or None


def book_document(parts, site_title, site_url, template_dir, demos=True, babel="", front=None, formatted=None,
                  words_=None, captions=None):
    """The book's LaTeX, as one document (book_pieces with no limit)."""
    [whole] = book_pieces(parts, site_title, site_url, template_dir, demos=demos, babel=babel, front=front,
                          formatted=formatted, words_=words_, captions=captions)
    return whole["tex"]


# The kinds of a book's pieces, each its own pdflatex run (glossary.bookrun), in the book's order: the
# title page, front matter and contents (numbered i, ii, ...); the List of Symbols; the entries; the
# bibliography and the Index.  A book typeset in one run is one piece, WHOLE.
WHOLE, FRONT, SYMBOLS, BODY, BACK = "whole", "front", "symbols", "body", "back"


def divide(parts, limit):
    """The book's entries in pieces: [[{"title", "entries", "continued"}]], each a list of runs of one
    section's entries.  Each section is a piece; a section of more than `limit` entries is a piece per
    initial letter (`part["initials"]`, one per entry), as a large dictionary starts each letter on a new
    page, and a letter of more than `limit` entries a piece per `limit` of them."""
    pieces = []
    for part in parts:
        entries = part["entries"]
        if len(entries) <= limit:
            pieces.append([dict(part, continued=False)])
            continue
        bounds, start = [0], 0
        for i in range(1, len(entries) + 1):
            if i == len(entries) or part["initials"][i] != part["initials"][start]:
                bounds += [*range(start + limit, i, limit), i]
                start = i
        pieces.extend([dict(part, entries=entries[a:b], continued=a > 0)] for a, b in zip(bounds, bounds[1:]))
    return pieces


def book_pieces(parts, site_title, site_url, template_dir, demos=True, babel="", front=None, formatted=None,
                words_=None, captions=None, limit=None):
    """The book's LaTeX, in pieces: [{"name", "kind", "tex", "nested"}] (nested: its first outline items
    belong under the section heading of the piece before it).  `parts` are the dictionary's sections in
    the book's order, each {"title", "entries": [(slug, the entry's print section)], "initials": the
    entries' initial letters} (a heading each when there are several); `front`: {"title", "authors",
    "cite_as", "license", "front_matter": the main file's pages after its title page [{"title", "tex"}],
    "symbols": (the List of Symbols' text, the macro files' text, the names' targets) or None};
    `formatted`: the cited records (references.json).  Every entry's reference list goes into the one
    bibliography at the end; an Index (makeidx) follows it when an entry has \\index entries, as the
    authors' book has one.  A book of more than `limit` entries is typeset in pieces (divide): front
    matter, List of Symbols, the entries', and the bibliography with the Index; else as one, WHOLE."""
    front = front or {}
    bib = bookparts.Bibliography(formatted)
    symbols = None
    if front.get("symbols"):
        text, macros, targets = front["symbols"]
        symbols = bookparts.symbols_latex(text, macros, targets, bib)     # first: its citations come first
    parts = [dict(p, entries=[(slug, bib.section(s.strip("\n"), slug)) for slug, s in p["entries"]])
             for p in parts if p["entries"]]
    count = sum(len(p["entries"]) for p in parts)
    shared = dict(count=count, sections=len(parts), site_title=front.get("title") or site_title,
                  authors=authors_line(front.get("authors")), cite_as=front.get("cite_as"),
                  license=license_text(front.get("license")), front_matter=front.get("front_matter") or [],
                  symbols=symbols, bibliography=bib.latex(), demos=demos, babel=babel, site_url=site_url,
                  words=words_ or words(None), figures_dir=TERMS, captions=captions or {},
                  index=any(kernel.INDEX.search(s) for p in parts for _, s in p["entries"]))
    template = environment(template_dir).get_template("book.tex.j2")
    if limit is None or count <= limit:
        whole = [dict(p, continued=False) for p in parts]
        return [{"name": "dictionary", "kind": WHOLE, "nested": False,
                 "tex": template.render(shared, parts=whole, piece={"kind": WHOLE})}]
    plan = [("front", FRONT, [])] + ([("symbols", SYMBOLS, [])] if symbols else [])
    plan += [(f"body-{i:03d}", BODY, runs) for i, runs in enumerate(divide(parts, limit), 1)]
    plan.append(("back", BACK, []))
    return [{"name": name, "kind": kind, "nested": bool(runs) and runs[0]["continued"],
             "tex": template.render(shared, parts=runs, piece={"kind": kind, "number": number})}
            for number, (name, kind, runs) in enumerate(plan)]


def format_source(template_dir, tex_path, babel="", captions=None):
    """The preamble every entry PDF shares, as a document to dump as a format (rule print_format);
    `babel`: the language of a translation's PDFs (none: English); `captions` as in print_document."""
    text = environment(template_dir).get_template("preamble.tex.j2").render(babel=babel, captions=captions or {})
    end = latex.END_OF_DUMP + "\n\\begin{document}\n\\end{document}\n"
    Path(tex_path).write_text(text.rstrip("\n") + "\n" + end, encoding="utf-8")


# What an entry's PDF is made by besides its document: one pdflatex run per batch, split into files by
# glossary.pdfpages (part of the cache key, so that a PDF made another way is not taken from the cache).
METHOD = "one run per batch, split by glossary.pdfpages"


def entry_meta(entry, names):
    """An entry as its section and its PDF set it: with its name as names.json (`names`) has it
    (catalog.names_shown): read as TeX (title_latex) where its reader parsed it, and the summary its
    source gives (none when it is the prose's first sentence, which the section starts with)."""
    row = catalog.names_shown(names, [entry["slug"]])[entry["slug"]]
    parsed = row["title_latex"] is not None
    return dict(entry, title_latex=row["title_latex"], title_text=row["title"] if parsed else None,
                summary_given=entry.get("summary"))


def print_sections(entries, proses, names, checks, template_dir, words_=None):
    """Rule section_<batch>: {slug: its print section} of each entry, which its PDF and the book set (so
    the book need not wait for the PDFs).  `proses`: each entry's prose as LaTeX; `names`: names.json,
    which gives the entries' names and those of the entries each "See also" list links to (so the
    sections, the PDFs and the book never wait for the catalog)."""
    return {entry["slug"]: section(entry["slug"], entry_meta(entry, names), prose_tex,
                                   check_lines(checks.get(entry["slug"], [])), template_dir,
                                   see_also(entry.get("see_also", []), names), words_)
            for entry, prose_tex in zip(entries, proses)}


def print_batch(entries, sections, names, out_pdfs, params, template_dir, package_dirs, cache, log, fmt=None):
    """Rule print_<batch>: each entry's PDF, from its section (`sections`: {slug: section}, print_sections)
    under its name (`names`: names.json).
    A PDF is kept in `cache` under the key of everything it is made of (its own document, entry.tex, the
    figures it includes, the packages), so that a batch that reruns compiles only the entries whose PDF
    would change: all of them in one pdflatex run (compile_entries).  Raises EntryError naming each entry
    whose PDF does not compile, once the others' are made."""
    Path(cache).mkdir(parents=True, exist_ok=True)
    packages = [p.read_bytes().hex() for d in package_dirs for p in sorted(Path(d).glob("*.sty"))]
    method = [METHOD, digest(Path(__file__).with_name("pdfpages.py"))]
    fmt_digest = digest(fmt) if fmt else ""       # the format is 7 MB: hashed once, not once an entry
    todo, made = [], []
    for entry, pdf_path in zip(entries, out_pdfs):
        slug = entry["slug"]
        text = sections[slug]
        tex_path = Path(ENTRY_TEX.format(slug=slug))
        tex_path.parent.mkdir(parents=True, exist_ok=True)
        fields = entry_fields(text, entry_meta(entry, names), params["site"], params["site_url"])
        document = print_document([fields], params["site"], params["site_url"], template_dir,
                                  params.get("babel", ""), params.get("words"), captions=params.get("captions"))
        tex_path.write_text(document, encoding="utf-8")
        included = [Path(params["site_terms"]) / p for p in included_files(text)]
        key = dictionary.content_key(document, packages, fmt_digest, [digest(p) for p in included], method)
        cached = Path(cache) / f"{key}.pdf"
        made.append((slug, cached, pdf_path))
        if not cached.is_file():
            todo.append(batch_item(entry, fields, tex_path, cached, params["site"]))

    def render(fields):
        return print_document(fields, params["site"], params["site_url"], template_dir, params.get("babel", ""),
                              params.get("words"), batch=True, captions=params.get("captions"))
    failures = compile_entries(todo, render, fmt, package_dirs, params["site_terms"], log)
    for slug, cached, pdf_path in made:
        if slug not in failures:
            shutil.copyfile(cached, pdf_path)
    if failures:
        raise EntryError("\n".join(failures.values()))


def batch_item(entry, fields, tex_path, pdf_path, site):
    """An entry to compile in a batch (compile_entries): the entry read from its source (its file, line,
    key, for its errors), its entry_fields, its own document (written at `tex_path`), where its PDF goes
    and the PDF's Info, which pdfTeX writes once a run."""
    return {"entry": entry, "fields": fields, "tex": Path(tex_path), "pdf": Path(pdf_path),
            "info": {"Title": pdf_string(fields["title"]), "Author": pdf_string(", ".join(site.get("authors", [])))}}


def pdf_string(text):
    """A title as hyperref's pdftitle wrote it into the Info of an entry compiled alone: TeX's dash
    ligatures (`--`, `---`) as the dashes they set."""
    return text.replace("---", "\u2014").replace("--", "\u2013")


# The line entry.tex.j2 writes to TeX's log as a batch's entry starts (its place in the batch, from 1)
# and at its end ("end"), with the pages shipped out before it.
BATCH_MARK = re.compile(r"^glossary-entry (\d+|end) (\d+)$", re.M)


def batch_pages(log_text, count):
    """[(first page, last page)] of each of the `count` entries of a batch run, from its log's marks."""
    marks = dict(BATCH_MARK.findall(log_text))
    starts = [int(marks[str(i)]) + 1 for i in range(1, count + 1)] + [int(marks["end"]) + 1]
    return [(first, following - 1) for first, following in zip(starts, starts[1:])]


def failing_entry(log_text, count):
    """The index of the batch's entry whose text holds the first error of a run's log (the last to
    start before it), or None for an error outside the entries (in the preamble, at \\end{document})."""
    error = re.search(r"^! ", log_text, re.M)
    started = [m for m in BATCH_MARK.finditer(log_text, 0, error.start() if error else len(log_text))]
    if not error or not started or started[-1].group(1) == "end":
        return None
    return min(int(started[-1].group(1)), count) - 1


def compile_entries(todo, render, fmt, package_dirs, site_terms, log):
    """Compile the entries `todo` ({"entry", "fields": entry_fields, "tex": its own document, "pdf": where
    its PDF goes, "info": the PDF's Title and Author}) in one pdflatex run from the format `fmt`, the
    document `render(fields)` gives, and split its PDF into theirs (glossary.pdfpages: each file's bytes
    depend on its own pages only, so an entry compiled alone or beside others gives the same file).  When
    the run fails, the entry the error lies in is compiled alone, from its own document, to tell its
    error by its own file and line (entry_failure), and the run is done again without it.  Returns
    {slug: message} of the entries that do not compile; `log`: the job's log, whose name the TeX logs
    take (<batch>.tex.log; an entry compiled alone: <batch>.<slug>.tex.log)."""
    failures = {}
    while todo:
        with tempfile.TemporaryDirectory() as work:
            tex, pdf = Path(work) / "entries.tex", Path(work) / "entries.pdf"
            tex_log = Path(log).with_suffix(".tex.log")
            tex.write_text(render([t["fields"] for t in todo]), encoding="utf-8")
            try:
                latex.compile_pdf(tex, pdf, tex_log, fmt=fmt, passes=1, inputs=package_dirs, links={TERMS: site_terms})
            except latex.LatexError as err:
                bad = failing_entry(err.log_text, len(todo))
                # an error outside any entry's text: each entry is compiled alone to find whose it is
                for t in todo if bad is None else [todo[bad]]:
                    message = alone(t, fmt, package_dirs, site_terms, log)
                    if message:
                        failures[t["entry"]["slug"]] = message
                # an entry that compiles alone but not beside the others is compiled alone, in a batch of one
                if bad is not None and todo[bad]["entry"]["slug"] not in failures and len(todo) > 1:
                    single = todo.pop(bad)
                    failures.update(compile_entries([single], render, fmt, package_dirs, site_terms, log))
                    continue
                if not any(t["entry"]["slug"] in failures for t in todo):
                    raise                       # the batch's own document fails, none of its entries
                todo = [t for t in todo if t["entry"]["slug"] not in failures]
                continue
            pages = batch_pages(tex_log.read_text(errors="replace"), len(todo))
            # here: pikepdf's import (60 ms) is more than the workflow's parse, which reads this module, needs
            from glossary import pdfpages
            pdfpages.split(pdf, [{"first": first, "last": last, "output": t["pdf"], "info": t["info"]}
                                 for t, (first, last) in zip(todo, pages)])
            todo = []
    return failures


def alone(item, fmt, package_dirs, site_terms, log):
    """The entry_failure message of an entry of `compile_entries` compiled alone from its own document,
    or None when it compiles."""
    slug = item["entry"]["slug"]
    with tempfile.TemporaryDirectory() as work:
        try:
            latex.compile_pdf(item["tex"], Path(work) / "alone.pdf", Path(log).with_suffix(f".{slug}.tex.log"),
                              fmt=fmt, passes=1, inputs=package_dirs, links={TERMS: site_terms})
        except latex.LatexError as err:
            return str(entry_failure(item["entry"], err))
    return None


def entry_failure(entry, err):
    """The EntryError of an entry whose PDF does not compile: its file and the line of a file TeX was
    refused (outside the dictionary's folder; else the entry's own line), the term, TeX's message."""
    body, line = entry.get("body") or "", entry.get("line", 1)
    at = next((body.find(name) for name in getattr(err, "refused", ()) if name in body), -1)
    if at >= 0:
        line = entry.get("body_line", line) + body.count("\n", 0, at)
    return EntryError(f"{entry['path']}:{line}: term '{entry.get('key', entry['slug'])}': its PDF does not compile: "
                      f"{str(err).splitlines()[0]}\n  {str(err).splitlines()[-1].strip()}")


def digest(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


INCLUDED = re.compile(r"\\(?:includegraphics|glossaryfigure)(?:\[[^\]]*\])?\{([^}]+)\}")


def included_files(tex):
    """The files a section includes (figures, pictures), relative to the site's terms/ folder."""
    return sorted(set(INCLUDED.findall(tex)))
