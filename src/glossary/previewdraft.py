"""The preview's draft of a LaTeX dictionary with mistakes: `make serve` builds every term that reads
without a mistake of its own (Snakemake with config `draft=1`: glossary.dictionary.draft), and this
module writes, into the preview's own folder (results/preview/, served over the staged site), a page
for each term that does not build, listing its mistakes with their source lines, and the index with a
list of those pages at its top.  `make site` never reads any of it: it still publishes nothing while
a mistake remains.

    pages = draft_pages(read, mistakes, staged_index)   # {path in the site: HTML}
"""
import html
from pathlib import Path

from glossary.errors import Mistake
from glossary.readers.latex.crosscheck import slug_of

# Lines shown around each mistake's line.
CONTEXT = 2
STYLE = ("<style>.draft-mistakes{border:2px solid #b00;padding:.5em 1em;margin:1em 0}"
         ".draft-mistakes pre{background:#f6f6f6;overflow:auto}.draft-mistakes .at{background:#fdd}</style>")


def by_term(read, mistakes):
    """{key of a term left out: [its mistakes]} and the mistakes of no term that builds ([Mistake]):
    each mistake goes to the term it names, else to the term defined at its file and line."""
    places = sorted((e["path"], e["line"], key) for key, e in (read.get("left_out_entries") or {}).items())
    terms, other = {key: [] for key in read.get("left_out", [])}, []
    for m in mistakes:
        key = m.term if m.term in terms else next(
            (k for path, line, k in reversed(places) if path == m.file and line <= m.line and k in terms), None)
        (terms[key] if key else other).append(m)
    return terms, other


def source_lines(root, mistake, cache):
    """The mistake's line and CONTEXT lines either side, as (number, text, is its line)."""
    path = Path(root) / mistake.file
    if path not in cache:
        try:
            cache[path] = path.read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            cache[path] = []
    lines = cache[path]
    first, last = max(1, mistake.line - CONTEXT), min(len(lines), mistake.line + CONTEXT)
    return [(n, lines[n - 1], n == mistake.line) for n in range(first, last + 1)]


def mistake_html(root, mistake, cache):
    shown = "\n".join(f'<span class="{"at" if at else ""}">{n:>5}  {html.escape(text)}</span>'
                      for n, text, at in source_lines(root, mistake, cache))
    where = f"{mistake.file}:{mistake.line}:{mistake.column}"
    return (f"<li><p><code>{html.escape(where)}</code>: {html.escape(mistake.what)}; "
            f"<strong>{html.escape(mistake.fix)}</strong></p><pre>{shown}</pre></li>")


def term_page(root, key, mistakes, cache, name=None):
    title = html.escape(f"{name} ({key})" if name and name != key else key)
    items = "".join(mistake_html(root, m, cache) for m in sorted(mistakes, key=Mistake.order))
    return (f'<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>{title}: mistakes (draft)</title>'
            f'<link rel="stylesheet" href="../style.css">{STYLE}</head><body><main id="content">'
            f'<p><a href="../index.html">Index</a></p><h1>{title}</h1><div class="draft-mistakes">'
            f"<p>This term does not build yet: {len(mistakes)} mistake{'s' if len(mistakes) != 1 else ''} "
            f"of its own (draft preview; <code>make site</code> publishes nothing while one remains).</p>"
            f"<ol>{items or '<li>one of its references or files is broken: see the index</li>'}</ol>"
            "</div></main></body></html>\n")


def index_notice(root, terms, other, cache):
    """The block the index shows first: the terms that do not build, each linking to its page."""
    links = "".join(f'<li><a href="terms/{html.escape(slug_of(key))}.html">{html.escape(key)}</a> '
                    f"({len(found)})</li>" for key, found in sorted(terms.items()))
    rest = "".join(mistake_html(root, m, cache) for m in sorted(other, key=Mistake.order))
    total = sum(len(found) for found in terms.values()) + len(other)
    return (f'{STYLE}<section class="draft-mistakes" id="draft-mistakes"><h2>Draft: {total} mistake'
            f"{'s' if total != 1 else ''}, {len(terms)} term{'s' if len(terms) != 1 else ''} not built</h2>"
            f"<ul>{links}</ul>{f'<ol>{rest}</ol>' if rest else ''}</section>")


def with_notice(index_html, notice):
    """The index with the notice at the start of its <main> (else of its <body>)."""
    for tag in ("<main", "<body"):
        at = index_html.find(tag)
        if at >= 0:
            end = index_html.find(">", at) + 1
            return index_html[:end] + notice + index_html[end:]
    return notice + index_html


def draft_pages(read, mistakes, staged_index=None):
    """{path in the site: HTML}: a page per term left out (terms/<slug>.html) and, when the staged
    site has its index, index.html with the notice; none without mistakes."""
    if not mistakes or read is None:
        return {}
    root, cache = read["root"], {}
    terms, other = by_term(read, mistakes)
    names = {key: e["title"] for key, e in (read.get("left_out_entries") or {}).items()}
    pages = {f"terms/{slug_of(key)}.html": term_page(root, key, found, cache, names.get(key))
             for key, found in terms.items()}
    if staged_index is not None:
        pages["index.html"] = with_notice(staged_index, index_notice(root, terms, other, cache))
    return pages
