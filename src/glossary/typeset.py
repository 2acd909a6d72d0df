"""The print edition: each entry typeset as a PDF, and the whole dictionary as one book.

An entry's section (results/<entry>/print/section.tex, rule section_tex) holds its
title, summary, prose (pandoc's LaTeX of the same parse as the page's HTML, with
the run's facts filled in), figures, check lines, BibTeX record and links.  The
entry PDF and the book set the same section; each defines the section's macros
its own way (\\glossaryentry, and \\glossaryref: an internal link in the book, a
link to the term's page in the entry PDF).  Figures are the PDFs the figure rules
already built, included as they are: nothing is compiled twice.

Templates: templates/print/*.tex.j2, in the figures' Jinja environment (<< >>,
the `tex` filter escapes TeX's special characters).
"""
import os
from pathlib import Path

from glossary import figures, latex, pages


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


def section(slug, meta, prose, checks, site, site_url, template_dir):
    """The LaTeX of one entry's section; `site`: what the dictionary is (common.smk's SITE)."""
    address = urls(slug, site_url)
    figs = [{"path": f"{slug}/figures/{f['name']}.pdf", "label": f"fig:{slug}:{f['name']}",
             "caption": f["caption"]} for f in meta["figures"]]
    # A name read as TeX is the record's TeX (pdflatex typesets no math symbol in the verbatim block).
    bibtex = pages.bibtex(slug, meta["title"], site, address["page"] if address else None, "demo" in meta,
                          title_tex=meta["title"] if meta.get("title_latex") else None)
    return environment(template_dir).get_template("section.tex.j2").render(
        slug=slug, entry=meta, prose=prose.strip("\n"), figures=figs, checks=checks,
        bibtex=bibtex.rstrip("\n"), urls=address)


def figures_dir(tex_path, site_terms):
    """The published terms/ folder as the document's \\graphicspath: relative to the .tex's folder."""
    return os.path.relpath(site_terms, Path(tex_path).parent).replace(os.sep, "/")


def entry_document(section_tex, meta, site, site_url, template_dir, tex_path, site_terms, babel=""):
    """An entry's PDF document; its metadata's author is the dictionary's authors (`site`'s)."""
    return environment(template_dir).get_template("entry.tex.j2").render(
        section=section_tex.strip("\n"), title=meta.get("title_text") or meta["title"], site_title=site["title"],
        authors=", ".join(site.get("authors", [])), site_url=site_url, babel=babel,
        figures_dir=figures_dir(tex_path, site_terms))


def book_document(parts, site_title, site_url, template_dir, tex_path, site_terms, demos=True, babel=""):
    """The book's LaTeX; `parts` are the dictionary's sections in the book's order, each
    {"title", "entries": [the entries' print sections]} (a heading each when there are several)."""
    parts = [dict(p, entries=[s.strip("\n") for s in p["entries"]]) for p in parts if p["entries"]]
    return environment(template_dir).get_template("book.tex.j2").render(
        parts=parts, count=sum(len(p["entries"]) for p in parts), site_title=site_title, demos=demos, babel=babel,
        site_url=site_url, figures_dir=figures_dir(tex_path, site_terms))


def compile_document(tex_path, pdf_path, log_path, package_dirs, passes, settled=None):
    """Compile a print document: pdflatex runs again, up to `passes` times in all, while its
    contents, references and outline still change (the book needs three passes from nothing; an
    entry PDF, whose links all go to the site, one); `settled` as in latex.compile_pdf."""
    latex.compile_pdf(tex_path, pdf_path, log_path, passes=passes, inputs=package_dirs, settled=settled)



def format_source(template_dir, tex_path, babel=""):
    """The preamble every entry PDF shares, as a document to dump as a format (rule print_format);
    `babel`: the language of a translation's PDFs (none: English)."""
    text = environment(template_dir).get_template("preamble.tex.j2").render(babel=babel)
    end = "\\csname endofdump\\endcsname\n\\begin{document}\n\\end{document}\n"
    Path(tex_path).write_text(text.rstrip("\n") + "\n" + end, encoding="utf-8")


def print_batch(entries, proses, catalog, checks, out_sections, out_pdfs, params, template_dir, package_dirs,
                cache, log, fmt=None, metas=None):
    """Rule print_<batch>: each entry's section and its PDF.  A PDF is kept in `cache` under the key
    of everything it is made of (its document, the figures it includes, the packages), so that a
    batch that reruns compiles only the entries whose PDF would change.  `metas` are the prose jobs'
    results of the entries (results/<slug>/meta.json), whose summary_latex, a summary taken from the
    prose, the section typesets as the prose is (formulas as formulas)."""
    import shutil

    from glossary import dictionary
    summaries = {row["slug"]: row["summary"] for row in catalog["entries"]}
    latex_summaries = {m["slug"]: m.get("summary_latex") for m in metas or []}
    latex_titles = {m["slug"]: (m.get("title_latex"), m.get("title_text")) for m in metas or []}
    Path(cache).mkdir(parents=True, exist_ok=True)
    packages = [p.read_bytes().hex() for d in package_dirs for p in sorted(Path(d).glob("*.sty"))]
    for entry, prose_path, section_path, pdf_path in zip(entries, proses, out_sections, out_pdfs):
        slug = entry["slug"]
        title_latex, title_text = latex_titles.get(slug, (None, None))
        meta = dict(entry, summary=summaries[slug], summary_latex=latex_summaries.get(slug), title_latex=title_latex,
                    title_text=title_text)
        entry_checks = check_lines(checks.get(slug, []))
        text = section(slug, meta, Path(prose_path).read_text(encoding="utf-8"), entry_checks,
                       params["site"], params["site_url"], template_dir)
        Path(section_path).write_text(text, encoding="utf-8")
        tex_path = Path(section_path).with_name("entry.tex")
        document = entry_document(text, meta, params["site"], params["site_url"], template_dir, tex_path,
                                  params["site_terms"], params.get("babel", ""))
        tex_path.write_text(document, encoding="utf-8")
        included = [Path(params["site_terms"]) / p for p in included_files(text)]
        key = dictionary.content_key(document, packages, digest(fmt) if fmt else "", [digest(p) for p in included])
        cached = Path(cache) / f"{key}.pdf"
        if not cached.is_file():
            latex.compile_pdf(tex_path, cached.with_suffix(".tmp.pdf"), Path(log).with_suffix(f".{slug}.tex.log"),
                              fmt=fmt, passes=1, inputs=package_dirs)
            cached.with_suffix(".tmp.pdf").replace(cached)
        shutil.copyfile(cached, pdf_path)


def digest(path):
    import hashlib
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def included_files(tex):
    """The files a section includes (figures, pictures), relative to the site's terms/ folder."""
    import re
    return sorted(set(re.findall(r"\\(?:includegraphics|glossaryfigure)(?:\[[^\]]*\])?\{([^}]+)\}", tex)))
