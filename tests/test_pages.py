"""The pages and the machine-readable files: prose is Markdown, never HTML (raw HTML,
event handlers, javascript: links and markup inside formulas come out as text);
the demo's source is highlighted at build time; terms.json, llms.txt and sitemap.xml
are deterministic and point at files that exist; cross-references link the pages
and each page lists the entries that reference it; nothing on a page comes from
outside the site."""
import html as htmllib
import json
import os
import re
import subprocess
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

import pytest
import yaml
from conftest import BIN, REPO, copy_repo

from glossary import batchfiles, demo, pages, prose
from glossary.entries import EntryError


class Elements(HTMLParser):
    """Every start tag of a page with its attributes, and its text."""

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.tags, self.text = [], []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    handle_startendtag = handle_starttag

    def handle_data(self, data):
        self.text.append(data)


def assert_no_active_content(text, where):
    found = Elements(text)
    # The one script a page holds is the site's own reading aids (search, previews): no inline code.
    own = [a for t, a in found.tags if t == "script" and set(a) == {"src", "defer"}
           and a["src"].rsplit("/", 1)[-1] == "reading.js"]
    assert len(own) <= 1, where
    assert [t for t, _ in found.tags if t in ("script", "iframe", "object", "embed", "style", "base")] == \
        ["script"] * len(own), where
    for tag, attrs in found.tags:
        assert not [a for a in attrs if a.lower().startswith("on")], f"{where}: <{tag} {attrs}>"
        for name in ("href", "src", "action"):
            assert not (attrs.get(name) or "").strip().lower().startswith(("javascript:", "data:")), \
                f"{where}: <{tag} {name}={attrs.get(name)!r}>"
    return found


# --- prose: Markdown, never HTML ----------------------------------------------------

MACROS = prose.macro_lines((REPO / "templates/notation.sty").read_text())


def render(body, facts=None, tmp_path=None):
    return prose.render(body, facts or {}, "entries/x/entry.md", macros=MACROS, formats=("html",))["html"]


@pytest.mark.parametrize("source", [
    "<script>alert(1)</script>",
    "Text <img src=x onerror=alert(1)> more",
    '<a href="javascript:alert(1)">x</a>',
    "[click](javascript:alert(1)) and ![x](javascript:alert(2))",
    "<div onclick='alert(1)'>block</div>\n\ntext",
    "::: {onclick=alert(1)}\nfenced div\n:::",
    "[s]{onclick=alert(1)} `k`{onclick=alert(1)} [l](u.html){onclick=alert(1)}",
    "# Heading {onclick=alert(1)}\n\n```{onclick=alert(1)}\ncode\n```",
    "<span onclick='alert(1)'>z</span>",
    "$\\text{<script>alert(1)</script>}$",
    "$$\\text{<img src=x onerror=alert(1)>}$$",
    "$a < b \\;\\&\\; c > d$",
])
def test_raw_html_in_prose_is_text(source):
    out = render(source)
    assert_no_active_content(out, source)
    assert "<script" not in out and "<img" not in out and "<div onclick" not in out


def test_a_link_in_a_formula_is_an_error_not_a_link():
    with pytest.raises(EntryError, match=r"\\href in a formula is not a macro"):
        render("$\\href{javascript:alert(1)}{x}$")


def test_math_keeps_its_symbols_and_escapes_text():
    out = render("$\\text{<b>} x_i \\le \\sqrt{d_k}$ and $$\\sum_i a_i$$")
    assert "&lt;b&gt;" in out and "<b>" not in out
    assert "<msub><mi>x</mi><mi>i</mi></msub>" in out and "≤" in out and "∑" in out
    ET.fromstring(f"<root>{out}</root>")     # well-formed: every '<' and '&' escaped


def test_prose_fills_in_facts_and_stays_markdown(tmp_path):
    md = tmp_path / "entry.md"
    md.write_text("---\ntitle: t\n---\nLoss {{ loss }} <script>x</script>\n")
    out = prose.render("Loss {{ '%.2f' | format(loss) }} <script>x</script>\n", {"loss": 0.123}, md)["html"]
    assert out == "<p>Loss 0.12 &lt;script&gt;x&lt;/script&gt;</p>\n"


# --- the demo's source, the stylesheet, citing --------------------------------------

def test_code_is_highlighted_the_same_every_time():
    source = 'def f(x):\n    return x + 1  # one\n'
    first = pages.code(source)
    assert first == pages.code(source)
    assert '<span class="k">def</span>' in first and '<span class="c1"># one</span>' in first
    assert htmllib.unescape(re.sub(r"<[^>]+>", "", first)) == source.rstrip("\n")


def test_code_css_has_both_schemes_scoped_to_code():
    css = pages.code_css()
    assert css == pages.code_css()
    assert "@media not all and (prefers-color-scheme: dark)" in css and "@media (prefers-color-scheme: dark)" in css
    rules = [line.strip() for line in css.splitlines() if "{" in line and not line.startswith(("@", "/*"))]
    assert rules and all(r.startswith(".code ") for r in rules), [r for r in rules if not r.startswith(".code ")]


SITE = {"title": "Site"}


def test_bibtex_escapes_and_has_no_date():
    record = pages.bibtex("a-b", "Mean & variance_{x} 100%", SITE, None)
    assert record.startswith("@misc{glossary:a-b,\n") and record.endswith("}\n")
    assert r"Mean \& variance\_\{x\} 100\%" in record
    assert not re.search(r"year|date|month|\d{4}-\d\d", record)
    assert r"\url{https://x.org/terms/a-b.html}" in pages.bibtex("a-b", "T", SITE, "https://x.org/terms/a-b.html")


def test_neighbours_follow_the_index_order():
    others = [{"slug": s} for s in ("a", "b", "c")]
    assert pages.neighbours(others, "a") == (None, {"slug": "b"})
    assert pages.neighbours(others, "b") == ({"slug": "a"}, {"slug": "c"})
    assert pages.neighbours(others, "c") == ({"slug": "b"}, None)


def test_sitemap_and_terms_json_are_sorted():
    xml = pages.sitemap(["terms/b.html", "index.html", "terms/a.html"])
    assert re.findall(r"<loc>(.*?)</loc>", xml) == ["index.html", "terms/a.html", "terms/b.html"]
    meta = {"title": "T", "summary": "S", "figures": [], "preview": "p.png", "see_also": ["z", "y"]}
    data = pages.terms_json(SITE, {"b": meta, "a": meta})
    assert [t["key"] for t in data["terms"]] == ["a", "b"] and data["terms"][0]["see_also"] == ["y", "z"]
    assert data["terms"][0]["url"] == "terms/a.html"


def test_terms_json_has_pdf_markdown_and_the_pages_bibtex():
    meta = {"title": "Mean & 100%", "summary": "S", "figures": [], "preview": "p.png", "demo": "mean.py"}
    prose_only = {"title": "Median", "summary": "S", "figures": []}
    records = pages.terms_json(SITE, {"a-b": meta, "c": prose_only}, "", "https://x.org/")["terms"]
    record = records[0]
    assert record["pdf"] == "terms/a-b.pdf" and record["markdown"] == "terms/a-b.md"
    assert record["bibtex"] == pages.bibtex("a-b", "Mean & 100%", SITE, "https://x.org/terms/a-b.html")
    assert r"Mean \& 100\%" in record["bibtex"] and "reproducible numpy demo" in record["bibtex"]
    # an entry without a demo does not claim one
    assert "Glossary entry}" in records[1]["bibtex"] and "demo" not in records[1]["bibtex"]


def test_llms_txt_follows_the_convention():
    metas = {"b": {"title": "Beta", "summary": "Second\nletter."}, "a": {"title": "alpha", "summary": "First."}}
    site = {"title": "My site", "description": "What it is,\nin two lines."}
    text = pages.llms_txt(site, metas)
    lines = text.splitlines()
    assert lines[0] == "# My site" and lines[2] == "> What it is, in two lines."
    assert "## Terms" in lines
    terms = lines[lines.index("## Terms") + 2:]
    assert terms == ["- [alpha](terms/a.html): First. Markdown: [terms/a.md](terms/a.md)",
                     "- [Beta](terms/b.html): Second letter. Markdown: [terms/b.md](terms/b.md)"]
    assert text == pages.llms_txt(site, dict(reversed(list(metas.items()))))


# --- the built site -----------------------------------------------------------------

def entry_pages(site):
    return sorted((site / "terms").glob("*.html"))


def test_pages_have_header_navigation_code_colab_and_citation(built):
    root, _ = built
    site = root / "site"
    terms = json.loads((site / "terms.json").read_text())["terms"]
    order = [t["key"] for t in sorted(terms, key=lambda t: (t["name"].lower(), t["key"]))]
    for path in entry_pages(site):
        slug = path.stem
        text = path.read_text()
        found = assert_no_active_content(text, path.name)
        hrefs = [a.get("href") for t, a in found.tags if t == "a"]
        assert "../index.html" in hrefs                                   # the header links the index
        i = order.index(slug)
        if i > 0:
            assert f'<a class="prev" rel="prev" href="{order[i - 1]}.html">' in text
        if i + 1 < len(order):
            assert f'<a class="next" rel="next" href="{order[i + 1]}.html">' in text
        assert 'href="https://colab.research.google.com/' in text and ">Open in Colab</a>" in text
        # The id and class "preview" are the cross-reference popup's (reading.js, style.css): the
        # demo's preview figure took both, and the popup's absolute position laid it over the demo.
        assert 'id="preview"' not in text and not re.search(r'class="(?:[^"]*\s)?preview[\s"]', text), slug
        assert f'href="{slug}.py" download' in text and f'href="{slug}.ipynb" download' in text
        # The published script, highlighted block by block, is what the page shows.
        script = (site / "terms" / f"{slug}.py").read_text()
        head, blocks = demo.blocks(script)
        shown = [htmllib.unescape(re.sub(r"<[^>]+>", "", c))
                 for c in re.findall(r'<pre class="code"><code>(.*?)</code></pre>', text, re.S)]
        assert shown == [head] + [code for _, _, code in blocks]
        assert '<span class="k">def</span>' in text
        bib = re.search(r'<pre class="bibtex"><code>(.*?)</code></pre>', text, re.S)
        assert bib and htmllib.unescape(bib.group(1)).startswith(f"@misc{{glossary:{slug},")
        # Figures: sized (no layout shift), PDF and PNG linked.
        for tag, attrs in found.tags:
            if tag == "img":
                assert int(attrs["width"]) > 0 and int(attrs["height"]) > 0, attrs
                assert not attrs["src"].startswith(("http:", "https:", "//")), attrs
            if tag == "link":
                assert not attrs["href"].startswith(("http:", "https:", "//")), attrs


def test_stylesheet_has_both_schemes_and_no_outside_resources(built):
    root, _ = built
    css = (root / "site/style.css").read_text()
    assert css.startswith((root / "templates/style.css").read_text().rstrip("\n"))
    assert css.count("@media (prefers-color-scheme: dark)") >= 2 and ".code .k {" in css
    assert not re.search(r"@import|url\(|https?:", css)


def test_terms_json_lists_every_entry_with_files_that_exist(built):
    root, _ = built
    site = root / "site"
    data = json.loads((site / "terms.json").read_text())
    keys = [t["key"] for t in data["terms"]]
    assert keys == sorted(keys) == sorted(p.stem for p in entry_pages(site))
    for term in data["terms"]:
        assert {"key", "name", "abstract", "see_also", "url", "demo", "notebook", "figures"} <= set(term)
        assert term["url"] == f"terms/{term['key']}.html" and term["see_also"] == sorted(term["see_also"])
        for ref in [term["url"], term["demo"], term["notebook"], term["preview"], term["pdf"], term["markdown"],
                    *term.get("data", [])] + [f[ext] for f in term["figures"] for ext in ("svg", "pdf", "png")]:
            assert (site / ref).is_file(), ref
        # The BibTeX record is the one the page shows.
        page = (site / term["url"]).read_text()
        shown = re.search(r'<pre class="bibtex"><code>(.*?)</code></pre>', page, re.S).group(1)
        assert htmllib.unescape(shown) == term["bibtex"]
        md = (root / "entries" / term["key"] / "entry.md").read_text()
        assert term["name"] in md and term["abstract"].split()[0] in md
    assert (site / "terms.json").read_text() == json.dumps(data, sort_keys=True, indent=1, ensure_ascii=False) + "\n"


def test_llms_txt_lists_every_term_with_its_page_and_markdown(built):
    root, _ = built
    site = root / "site"
    text = (site / "llms.txt").read_text()
    terms = json.loads((site / "terms.json").read_text())["terms"]
    assert text.startswith(f"# {json.loads((site / 'terms.json').read_text())['site']}\n\n> ")
    rows = re.findall(r"^- \[(.*?)\]\((terms/[a-z0-9-]+\.html)\): (.*) Markdown: \[.*?\]\((terms/[a-z0-9-]+\.md)\)$",
                      text, re.M)
    assert sorted((url, md) for _, url, _, md in rows) == sorted((t["url"], t["markdown"]) for t in terms)
    for name, url, summary, md in rows:
        assert (site / url).is_file() and (site / md).is_file()
        term = next(t for t in terms if t["url"] == url)
        assert (name, summary) == (term["name"], term["abstract"])
        source = (site / md).read_text()
        assert source.startswith(f"# {term['name']}\n\n> {term['abstract']}\n\n")
        assert "{{" not in source and "[[" not in source          # facts filled in, xrefs resolved


def test_xrefs_link_the_pages_and_each_lists_who_references_it(built):
    """[[slug]] in an entry's prose: a relative link on the page, \\glossaryref in the LaTeX, and
    the target's "Referenced by" list names the entry that links to it."""
    root, _ = built
    site = root / "site"
    from glossary import entries, xref
    loaded = entries.load_all(root / "entries", root / entries.SCHEMA)
    back = xref.referenced_by(loaded)
    assert any(back.values())
    for slug in loaded:
        page = (site / "terms" / f"{slug}.html").read_text()
        prose_html = re.search(r'<div class="prose">(.*?)</div>', page, re.S).group(1)
        targets = re.findall(r'<a href="([a-z0-9-]+)\.html" class="xref">', prose_html)
        assert targets and set(targets) == set(xref.titles(loaded, slug))
        for target in targets:
            assert (site / "terms" / f"{target}.html").is_file()
        latex = batchfiles.read_build(root)[slug]["latex"]
        assert sorted(re.findall(r"\\glossaryref\{([a-z0-9-]+)\}", latex)) == sorted(targets)
        listed = re.search(r'<h2 id="referenced-by"><a class="self" href="#referenced-by">Referenced by</a></h2>\s*'
                           r'<ul class="referenced-by">(.*?)</ul>',
                           page, re.S)
        if back[slug]:
            assert re.findall(r'<a href="([a-z0-9-]+)\.html">', listed.group(1)) == \
                [o["slug"] for o in sorted(({"slug": s, "t": loaded[s]["title"].lower()} for s in back[slug]),
                                           key=lambda o: (o["t"], o["slug"]))]
        else:
            assert listed is None
        assert f'<a href="{slug}.pdf">' in page and f'<a href="{slug}.md">' in page


def test_index_links_the_book_and_the_files_for_machines(built):
    root, _ = built
    index = (root / "site/index.html").read_text()
    for name in ("dictionary.pdf", "terms.json", "llms.txt", "sitemap.xml", "notation.sty"):
        assert f'href="{name}"' in index and (root / "site" / name).is_file(), name
    assert (root / "site/notation.sty").read_bytes() == (root / "templates/notation.sty").read_bytes()


def test_sitemap_lists_every_page(built):
    root, _ = built
    site = root / "site"
    tree = ET.parse(site / "sitemap.xml")
    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
    locs = [e.text for e in tree.getroot().findall("s:url/s:loc", ns)]
    base = yaml.safe_load((root / "config.yaml").read_text()).get("site_url", "")
    assert base.startswith("https://")      # the sitemap protocol wants absolute addresses
    pages_ = ["index.html"] + [f"terms/{p.name}" for p in entry_pages(site)]
    pages_ += [f"sections/{p.name}" for p in (site / "sections").glob("*.html")]     # docs/reading.md
    pages_ += [p for p in ("notation.html", "abbreviations.html") if (site / p).is_file()]   # notation.sty's
    assert "sections/main.html" in pages_ and "notation.html" in pages_
    assert locs == sorted(locs) == sorted(base + p for p in pages_)
    assert not tree.getroot().findall(".//s:lastmod", ns)


# --- an entry that tries to smuggle HTML in -------------------------------------------

HOSTILE_TITLE = 'Attention <script>alert("title")</script>'
HOSTILE_SUMMARY = 'A layer <img src=x onerror=alert("summary")> that attends.'
HOSTILE_BODY = """
<script>alert("body")</script>

A paragraph with <img src=x onerror=alert("img")> inside, a [link](javascript:alert("link"))
and a formula $\\text{<script>alert("math")</script>} x$.

<iframe src="https://example.org/"></iframe>
"""


@pytest.mark.slow
def test_hostile_entry_is_shown_as_text(built, tmp_path):
    """Raw HTML in an entry's title, summary and body: the rebuilt pages show it as
    text, and a browser opening them runs nothing and fetches nothing."""
    root, _ = built
    work = copy_repo(tmp_path / "hostile")
    subprocess.run(["cp", "-a", f"{root}/results", f"{root}/.snakemake", f"{root}/site", str(work)], check=True)
    md = work / "entries/attention/entry.md"
    text = md.read_text()
    text = re.sub(r"^title: .*$", f"title: '{HOSTILE_TITLE}'", text, count=1, flags=re.M)
    text = re.sub(r"^summary: .*$", f"summary: '{HOSTILE_SUMMARY}'", text, count=1, flags=re.M)
    head, _, body = text.partition("\n---\n")
    md.write_text(head + "\n---\n" + HOSTILE_BODY + body)
    run = subprocess.run([str(BIN / "python"), "-m", "glossary.build", "--cores", "2"], cwd=work,
                         env=dict(os.environ, PYTHONPATH=str(work / "src")), capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    site = work / "site"
    page = (site / "terms/attention.html").read_text()
    found = assert_no_active_content(page, "attention.html")
    shown = "".join(found.text)
    for raw in ('<script>alert("body")</script>', '<img src=x onerror=alert("img")>',
                '<script>alert("math")</script>', HOSTILE_TITLE, HOSTILE_SUMMARY, '<iframe src="https://example.org/">'):
        assert raw in shown, raw
    for name in ("index.html", "terms/multi-head-attention.html"):
        other = (site / name).read_text()
        assert HOSTILE_TITLE in "".join(assert_no_active_content(other, name).text)
    data = json.loads((site / "terms.json").read_text())
    assert data["terms"][0]["name"] == HOSTILE_TITLE     # JSON holds it as data, quoted
    from test_browser import chromium, serve, visit
    with serve(site) as base, chromium() as browser:
        for name in ("terms/attention.html", "index.html"):
            with visit(browser, base + name) as v:
                v.assert_clean()
                # the site's own reading.js (docs/reading.md) is the only script
                assert v.page.locator("script:not([src$='reading.js']), iframe").count() == 0
                assert HOSTILE_TITLE in v.page.inner_text("body")
