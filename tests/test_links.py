"""The link check (glossary.links, rule links): every href/src and #fragment of the pages, the
addresses of terms.json, sitemap.xml and llms.txt, the links of the PDFs; a dead internal link
fails the build naming the source that wrote it, and site/ stays as it was."""
import json
import os
import shutil
import subprocess
import time
from pathlib import Path

import pypdf
import pytest
import yaml
from conftest import BIN, REPO, copy_repo, tree_bytes
from pypdf.generic import NameObject, TextStringObject

from glossary import links

SITE_URL = "https://dictionaryofml.org/"
BASE = """<!DOCTYPE html><html><head><link rel="stylesheet" href="{{ root }}style.css"></head>
<body><a class="home" href="{{ root }}index.html">Home</a>{% block main %}{% endblock %}</body></html>
"""
ENTRY = """{% extends "base.html.j2" %}{% block main %}<h1 id="top">{{ title }}</h1>
<div class="prose">{{ prose | safe }}</div>
<a href="{{ slug }}.py" download>script</a> <a href="../index.html#terms">All terms</a>
<a href="{{ colab }}">Colab</a>{% endblock %}
"""
INDEX = """{% extends "base.html.j2" %}{% block main %}<h2 id="terms">Terms</h2>
{% for e in others %}<a href="terms/{{ e.slug }}.html">{{ e.title }}</a>{% endfor %}{% endblock %}
"""


def page(body, root="../"):
    return (f'<!DOCTYPE html><html><head><link rel="stylesheet" href="{root}style.css"></head>\n'
            f'<body><a class="home" href="{root}index.html">Home</a>{body}</body></html>\n')


def entry_page(slug, prose, extra=""):
    return page(f'<h1 id="top">{slug}</h1>\n<div class="prose"><p>{prose}</p>\n<div class="note">n</div>\n'
                f'<p>after the inner div</p></div>\n<a href="{slug}.py" download>script</a> '
                f'<a href="../index.html#terms">All terms</a>\n'
                f'<a href="https://colab.research.google.com/x/{slug}.ipynb">Colab</a>{extra}')


@pytest.fixture
def repo(tmp_path):
    """A hand-made checkout and staged site: two entries, three templates, terms.json,
    sitemap.xml and llms.txt, every link alive."""
    root = tmp_path / "repo"
    for name, text in (("base", BASE), ("entry", ENTRY), ("index", INDEX)):
        (root / "templates").mkdir(parents=True, exist_ok=True)
        (root / f"templates/{name}.html.j2").write_text(text)
    for slug in ("alpha", "beta"):
        (root / f"entries/{slug}").mkdir(parents=True)
        (root / f"entries/{slug}/entry.md").write_text(f"---\ntitle: {slug}\n---\nProse of {slug}.\n")
    (root / "config.yaml").write_text(f"entries_dir: entries\nsite_url: {SITE_URL}\n")
    site = root / "results/site"
    (site / "terms/alpha/figures").mkdir(parents=True)
    (site / "style.css").write_text("")
    (site / "index.html").write_text(page('<h2 id="terms">Terms</h2><a href="terms/alpha.html">Alpha</a>'
                                          '<a href="terms/beta.html">Beta</a>', root=""))
    (site / "terms/alpha.html").write_text(entry_page("alpha", 'See <a href="beta.html#top">beta</a>.',
                                                      '<img src="alpha/figures/loss.svg" alt="">'))
    (site / "terms/beta.html").write_text(entry_page("beta", 'See <a href="alpha.html">alpha</a>.'))
    for name in ("terms/alpha.py", "terms/beta.py", "terms/alpha/figures/loss.svg"):
        (site / name).write_text("")
    (site / "terms.json").write_text(json.dumps({"site": "A dictionary, v1.0", "terms": [
        {"key": "alpha", "page": "terms/alpha.html", "demo": "terms/alpha.py", "see_also": ["beta"],
         "figures": [{"svg": "terms/alpha/figures/loss.svg", "name": "loss"}]}]}))
    (site / "sitemap.xml").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        f"<url><loc>{SITE_URL}index.html</loc></url>\n<url><loc>{SITE_URL}terms/alpha.html</loc></url>\n"
        "</urlset>\n")
    (site / "llms.txt").write_text(f"# A dictionary\n\n- [Alpha](terms/alpha.html): the first term\n"
                                   f"- [Beta]({SITE_URL}terms/beta.html#top)\n- the book: <https://example.org/book>\n")
    return root


def run_check(root):
    return links.check_repo(root / "results/site", root)


def dead_lines(root):
    return [d.line() for d in run_check(root).dead]


def test_a_sound_site_has_no_dead_link_and_lists_what_leaves_it(repo):
    result = run_check(repo)
    assert result.dead == []
    assert result.files == 6 and result.checked > 20
    assert sorted(result.external) == [
        ("llms.txt", "https://example.org/book"),
        ("terms/alpha.html", "https://colab.research.google.com/x/alpha.ipynb"),
        ("terms/beta.html", "https://colab.research.google.com/x/beta.ipynb")]
    report = result.report().splitlines()
    assert report[0].startswith(f"links: {result.checked} internal links in 6 files, 0 dead; 3 addresses")
    assert report[1:] == [f"{f}: {a}" for f, a in sorted(result.external)]


def test_dead_link_in_the_prose_names_entry_md(repo):
    page_ = repo / "results/site/terms/alpha.html"
    page_.write_text(page_.read_text().replace('href="beta.html#top"', 'href="gamma.html"'))
    assert dead_lines(repo) == [
        "terms/alpha.html: dead link 'gamma.html': no file terms/gamma.html in the site "
        "(written by entries/alpha/entry.md)"]


def test_missing_anchor_names_the_target_page(repo):
    page_ = repo / "results/site/terms/alpha.html"
    page_.write_text(page_.read_text().replace('href="beta.html#top"', 'href="beta.html#nowhere"'))
    assert dead_lines(repo) == [
        "terms/alpha.html: dead link 'beta.html#nowhere': no id 'nowhere' in terms/beta.html "
        "(written by entries/alpha/entry.md)"]


def test_same_page_anchor_after_the_prose(repo):
    """A link after the prose's nested divs is no longer the prose's: the template wrote it."""
    page_ = repo / "results/site/terms/beta.html"
    page_.write_text(page_.read_text().replace('href="../index.html#terms"', 'href="../index.html#term"'))
    assert dead_lines(repo) == [
        "terms/beta.html: dead link '../index.html#term': no id 'term' in index.html "
        "(written by templates/entry.html.j2)"]


def test_a_kept_check_visits_only_the_files_that_changed(repo, tmp_path, monkeypatch):
    """With a cache (rule links keeps one), a file whose bytes and whose targets are as in the last
    check is not visited again, and the result is the same as a check from nothing; a target that
    loses an id, or a dead link, is found as from nothing."""
    site, cache = repo / "results/site", tmp_path / "links.json"
    config = yaml.safe_load((repo / "config.yaml").read_text())

    def check():
        resolved.clear()
        result = links.check(site, config["site_url"], None, [], root=repo, cache=cache)
        return result, {file for _, file, _ in resolved}

    resolved, resolve = [], links.resolve
    monkeypatch.setattr(links, "resolve", lambda address, here, site_url="": resolved.append((address, here, site_url))
                        or resolve(address, here, site_url))
    first, visited = check()
    assert first.dead == [] and "terms/alpha.html" in visited and "index.html" in visited
    again, visited = check()
    # the text files are always read again (three small ones); the pages and PDFs were not visited
    assert visited == {"terms.json", "sitemap.xml", "llms.txt"}
    assert (again.report(), again.files) == (first.report(), first.files)
    beta = site / "terms/beta.html"
    beta.write_text(beta.read_text().replace("after the inner div", "after the div"))      # its ids stay
    _, visited = check()
    assert visited - {"terms.json", "sitemap.xml", "llms.txt"} == {"terms/beta.html"}
    beta.write_text(beta.read_text().replace('id="top"', 'id="head"'))         # alpha links to beta#top
    result, visited = check()
    assert {"terms/alpha.html", "index.html"} <= visited
    assert sorted((d.file, d.address) for d in result.dead) == [
        ("llms.txt", f"{config['site_url']}terms/beta.html#top"), ("terms/alpha.html", "beta.html#top")]
    assert [d.line() for d in check()[0].dead] == [d.line() for d in result.dead]      # told again


def test_a_kept_check_reads_only_the_files_written_since(repo, tmp_path, monkeypatch):
    """A file whose size, time and inode are those of the last check keeps its hash unread (links.Reads);
    a file written since, or replaced by another of the same size and time, is read again."""
    site, cache = repo / "results/site", tmp_path / "links.json"
    config = yaml.safe_load((repo / "config.yaml").read_text())
    long_ago = time.time_ns() - 10 * 1_000_000_000      # trusted: older than the check by far
    files = [p for p in site.rglob("*") if p.is_file()]
    for path in files:
        os.utime(path, ns=(long_ago, long_ago))
    first = links.check(site, config["site_url"], None, [], root=repo, cache=cache)
    read, read_bytes = [], Path.read_bytes

    def reading(self):
        if self != cache:               # the check's own record, read once
            read.append(self.name)
        return read_bytes(self)
    monkeypatch.setattr(Path, "read_bytes", reading)

    def check():
        read.clear()
        result = links.check(site, config["site_url"], None, [], root=repo, cache=cache)
        return result, sorted(read)
    again, hashed = check()
    assert hashed == [] and (again.report(), again.files) == (first.report(), first.files)
    beta = site / "terms/beta.html"
    beta.write_text(beta.read_text().replace("after the inner div", "after the div"))
    assert check()[1] == ["beta.html"]
    alpha = site / "terms/alpha.html"
    text = alpha.read_text()
    swapped = site / "terms/alpha.new"
    swapped.write_text(text.replace('href="beta.html#top"', 'href="gamm.html#top"'))    # as long
    os.utime(swapped, ns=(long_ago, long_ago))
    os.replace(swapped, alpha)
    result, hashed = check()
    assert "alpha.html" in hashed and [(d.file, d.address) for d in result.dead] == [
        ("terms/alpha.html", "gamm.html#top")]
    assert alpha.stat().st_size == len(text.encode())      # the size and time of the file it replaced


def test_a_file_checked_beside_the_pages_needs_only_their_names(repo):
    """The book's job checks the book's links alone (only=), before the pages exist: a page named by
    the plan is there, one it does not name is dead, and a fragment of a page cannot be checked."""
    site = repo / "results/site"
    (site / "terms/alpha.html").unlink()                       # not built yet
    planned = ["index.html", "style.css", "terms/alpha.html", "terms/beta.html"]
    result = links.check(site, SITE_URL, files=planned, only=["index.html"])
    assert result.dead == [] and result.files == 1
    (site / "index.html").write_text(page('<a href="terms/alpha.html#top">A</a><a href="terms/gamma.html">G</a>'
                                          '<a href="#terms">T</a><h2 id="terms">T</h2>', root=""))
    dead = links.check(site, SITE_URL, files=planned, only=["index.html"]).dead
    assert [(d.address, d.reason.split(":")[0]) for d in dead] == [
        ("terms/alpha.html#top", "checked beside the pages, which it cannot read"),
        ("terms/gamma.html", "no file terms/gamma.html in the site")]
    # a file under a folder the plan names (a demo's data/) is there; a dead link of a file of many
    # entries names the entry whose text (holders: the book's print sections) has it
    sections = {"alpha": "no link\n", "beta": "\\href{terms/gamma.html}{x}"}
    (site / "index.html").write_text(page('<a href="terms/alpha/data/a.csv">D</a><a href="terms/gamma.html">G</a>',
                                          root=""))
    entries = {slug: f"entries/{slug}/entry.md" for slug in sections}
    dead = links.check(site, SITE_URL, entries, files=planned + ["terms/alpha/data"], only=["index.html"],
                       root=repo, holders=sections).dead
    assert [d.line() for d in dead] == ["index.html: dead link 'terms/gamma.html': no file terms/gamma.html in "
                                        "the site (written by entries/beta/entry.md)"]


def test_a_failed_checks_log_ends_with_its_first_dead_link_when_there_are_several(repo):
    page_ = repo / "results/site/terms/alpha.html"
    page_.write_text(page_.read_text().replace('href="beta.html#top"', 'href="gamma.html"'))
    one = run_check(repo)
    assert one.told()[-1] == one.dead[0].line() and len(one.told()) == 2
    page_.write_text(page_.read_text().replace('href="alpha.py"', 'href="delta.py"'))
    two = run_check(repo)
    assert two.told()[1:3] == [d.line() for d in two.dead]
    assert two.told()[-1] == f"2 dead links, the first: {two.dead[0].line()}"


def test_dead_link_outside_the_prose_names_the_template_by_its_pattern(repo):
    for name in ("terms/alpha.html", "terms/beta.html"):
        page_ = repo / "results/site" / name
        page_.write_text(page_.read_text().replace('href="../style.css"', 'href="../styles.css"'))
    (repo / "results/site/terms/beta.py").unlink()
    assert dead_lines(repo) == [
        "terms/alpha.html: dead link '../styles.css': no file styles.css in the site "
        "(written by templates/base.html.j2)",
        "terms/beta.html: dead link '../styles.css': no file styles.css in the site "
        "(written by templates/base.html.j2)",
        "terms/beta.html: dead link 'beta.py': no file terms/beta.py in the site "
        "(written by templates/entry.html.j2)"]


def test_paths_from_the_server_root_and_out_of_the_site_are_dead(repo):
    page_ = repo / "results/site/terms/alpha.html"
    page_.write_text(page_.read_text().replace('href="beta.html#top"', 'href="/terms/beta.html"')
                     .replace('src="alpha/figures/loss.svg"', 'src="../../outside.svg"'))
    lines = dead_lines(repo)
    assert len(lines) == 2
    assert lines[0].startswith("terms/alpha.html: dead link '/terms/beta.html': a path from the server's root")
    assert lines[1].startswith("terms/alpha.html: dead link '../../outside.svg': it leads out of the site's folder")


def test_dead_addresses_in_terms_json_sitemap_and_llms_txt(repo):
    site = repo / "results/site"
    (site / "terms.json").write_text((site / "terms.json").read_text().replace("terms/alpha.py", "terms/alfa.py"))
    (site / "sitemap.xml").write_text((site / "sitemap.xml").read_text().replace("alpha.html", "alpha.htm"))
    (site / "llms.txt").write_text((site / "llms.txt").read_text().replace("#top", "#bottom"))
    assert dead_lines(repo) == [
        "llms.txt: dead link 'https://dictionaryofml.org/terms/beta.html#bottom': no id 'bottom' in "
        "terms/beta.html (written by scripts/catalog_pages.py)",
        "sitemap.xml: dead link 'https://dictionaryofml.org/terms/alpha.htm': no file terms/alpha.htm in the "
        "site (written by scripts/sitemap.py)",
        "terms.json: dead link 'terms/alfa.py': no file terms/alfa.py in the site "
        "(written by scripts/catalog_pages.py)"]


def test_a_folder_link_needs_its_index(repo):
    site = repo / "results/site"
    (site / "index.html").write_text((site / "index.html").read_text().replace(
        'href="terms/alpha.html"', 'href="terms/alpha/"').replace('href="terms/beta.html"', 'href="./"'))
    assert dead_lines(repo) == ["index.html: dead link 'terms/alpha/': no file terms/alpha/index.html in the site "
                                "(written by templates/index.html.j2)"]


PDF_TEX = r"""\documentclass{article}
\usepackage{hyperref}
\pdfinfoomitdate=1 \pdftrailerid{}
\begin{document}
\hypertarget{here}{Here.}
\href{https://dictionaryofml.org/terms/alpha.html#top}{alive},
\href{https://dictionaryofml.org/terms/gone.html}{dead},
\href{https://example.org/paper}{outside},
\hyperlink{here}{inside}, \hyperlink{nowhere}{broken}.
\end{document}
"""


def test_pdf_links_by_uri_and_internal_destination(repo, tmp_path):
    """A PDF made by pdflatex and hyperref: /URI actions under site_url are the site's files, others are
    listed; an internal link to a destination the PDF lacks is dead."""
    (tmp_path / "t.tex").write_text(PDF_TEX)
    run = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "t.tex"], cwd=tmp_path,
                         capture_output=True, text=True, check=False)
    assert (tmp_path / "t.pdf").is_file(), run.stdout[-2000:]
    # pdfTeX points a link to an undefined target at page 1; the PDF's link is redirected to a
    # name it lacks, as a PDF made another way could have it.
    writer = pypdf.PdfWriter(clone_from=str(tmp_path / "t.pdf"))
    for annot in writer.pages[0]["/Annots"]:
        action = annot.get_object()["/A"]
        if action.get("/D") == "nowhere":
            action[NameObject("/D")] = TextStringObject("absent")
    writer.write(repo / "results/site/terms/alpha.pdf")
    (repo / "entries/alpha/entry.md").write_text("---\ntitle: alpha\n---\nSee [the gone page]"
                                                 "(https://dictionaryofml.org/terms/gone.html).\n")
    result = run_check(repo)
    assert [d.line() for d in result.dead] == [
        "terms/alpha.pdf: dead link 'https://dictionaryofml.org/terms/gone.html': no file terms/gone.html in the "
        "site (written by entries/alpha/entry.md)",
        "terms/alpha.pdf: dead link '#absent': no destination 'absent' in the PDF "
        "(written by the rule that writes terms/alpha.pdf)"]
    assert ("terms/alpha.pdf", "https://example.org/paper") in result.external


def test_make_links_lists_the_addresses_that_leave_the_site(repo):
    run = subprocess.run([str(BIN / "python"), "-m", "glossary.links", "--site", "results/site"], cwd=repo,
                         capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=str(REPO / "src")),
                         check=False)
    assert run.returncode == 0, run.stderr
    assert "llms.txt: https://example.org/book" in run.stdout.splitlines()
    page_ = repo / "results/site/index.html"
    page_.write_text(page_.read_text().replace("terms/beta.html", "terms/b.html"))
    run = subprocess.run([str(BIN / "python"), "-m", "glossary.links", "--site", "results/site"], cwd=repo,
                         capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=str(REPO / "src")),
                         check=False)
    assert run.returncode == 1
    assert run.stdout.splitlines()[-1] == ("index.html: dead link 'terms/b.html': no file terms/b.html in the site "
                                           "(written by templates/index.html.j2)")


def test_the_real_templates_name_their_own_links():
    """Each href/src pattern of the real templates is found in the template that has it."""
    templates = [f"templates/{n}.html.j2" for n in ("base", "entry", "index")]
    sources = links.Sources({}, templates, root=REPO)
    assert sources.of("terms/x.html", "../build-info.json") == "templates/base.html.j2"
    assert sources.of("terms/x.html", "x/figures/loss.svg") == "templates/entry.html.j2"
    assert sources.of("terms/x.html", "../index.html#terms") == "templates/entry.html.j2"
    assert sources.of("index.html", "terms/x.html") == "templates/index.html.j2"


# --- real builds ----------------------------------------------------------------------

def build(root):
    return subprocess.run([str(BIN / "python"), "-m", "glossary.build", "--cores", "2"], cwd=root,
                          capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=str(root / "src")),
                          check=False)


@pytest.fixture(scope="module")
def skeletons(tmp_path_factory):
    """A copy of the repository whose entries are two skeletons (make new-entry), built and published."""
    root = copy_repo(tmp_path_factory.mktemp("links") / "repo")
    shutil.rmtree(root / "entries")
    (root / "entries").mkdir()
    for slug in ("alpha-term", "beta-term"):
        subprocess.run([str(BIN / "python"), "scripts/new_entry.py", slug], cwd=root, check=True,
                       capture_output=True)
    run = build(root)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    return root


def edited(path, old, new):
    """Replace old by new in path; returns a function that restores the file."""
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    return lambda: path.write_text(text)


def failed_build(root):
    """A build that must fail on a dead link: its output, after checking that site/ stayed as it was."""
    before = tree_bytes(root / "site")
    run = build(root)
    assert run.returncode != 0, run.stdout[-3000:]
    assert tree_bytes(root / "site") == before
    return run.stdout + run.stderr


@pytest.mark.slow
def test_skeleton_build_checks_its_links(skeletons):
    report = (skeletons / "results/links/report.txt").read_text()
    assert report.startswith("links: ") and ", 0 dead; " in report.splitlines()[0]
    assert "terms/alpha-term.html: https://colab.research.google.com/" in report


@pytest.mark.slow
@pytest.mark.parametrize("link, reason", [
    ("[a dead link](gamma-term.html)", "dead link 'gamma-term.html': no file terms/gamma-term.html in the site"),
    ("[a missing anchor](beta-term.html#nowhere)",
     "dead link 'beta-term.html#nowhere': no id 'nowhere' in terms/beta-term.html"),
])
def test_dead_link_in_prose_fails_the_build_naming_entry_md(skeletons, link, reason):
    """The edit also changes the summary, so Snakemake (not the prose-only replay) builds it."""
    md = skeletons / "entries/alpha-term/entry.md"
    restore = edited(md, "define the term here.", f"define the term here, and {link}.")
    restore_summary = edited(md, "in one line, for the index", "in one line for the index")
    try:
        output = failed_build(skeletons)
    finally:
        restore_summary()
        restore()
    assert f"terms/alpha-term.html: {reason} (written by entries/alpha-term/entry.md)" in output


@pytest.mark.slow
def test_dead_link_in_a_template_fails_the_build_naming_it(skeletons):
    template = skeletons / "templates/base.html.j2"
    restore = edited(template, '<a href="{{ root }}sitemap.xml">sitemap.xml</a>',
                     '<a href="{{ root }}sitemap.xml">sitemap.xml</a> · <a href="{{ root }}feed.xml">feed</a>')
    try:
        output = failed_build(skeletons)
    finally:
        restore()
    assert ("dead link '../feed.xml': no file feed.xml in the site (written by templates/base.html.j2)"
            in output)


@pytest.mark.slow
def test_dead_link_in_a_prose_only_edit_fails_the_build(skeletons):
    """A prose-only edit right after a successful build: no page is published with the dead link."""
    run = build(skeletons)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    md = skeletons / "entries/beta-term/entry.md"
    restore = edited(md, "define the term here.", "define the term here, and [dead](gamma-term.html).")
    try:
        output = failed_build(skeletons)
    finally:
        restore()
    assert "(written by entries/beta-term/entry.md)" in output


@pytest.mark.slow
def test_the_real_site_has_no_dead_link(built):
    root, _ = built
    report = (root / "results/links/report.txt").read_text().splitlines()
    assert ", 0 dead; " in report[0]
    result = links.check_repo(root / "site", root)
    assert result.dead == [] and result.checked > 100
    assert {Path(f).suffix for f, _ in result.external} == {".html"}


def raw_pdf(annotation):
    """A one-page PDF, written byte by byte, whose page holds the link annotation `annotation`."""
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 100 100] /Annots [4 0 R] >>", annotation]
    out, offsets = b"%PDF-1.7\n", []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    return out + b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)


@pytest.mark.parametrize("dest, dead", [(b"[3 0 R /Fit]", False), (b"[99 0 R /Fit]", True), (b"[2 0 R /Fit]", True)])
def test_a_destination_on_no_page_of_the_pdf_is_dead(tmp_path, dest, dead):
    """An internal link to the PDF's page is alive; one to an object that is no page, or to no object at
    all (which a PDF reader reads as null), is dead."""
    from glossary import links
    pdf = tmp_path / "t.pdf"
    pdf.write_bytes(raw_pdf(b"<< /Type /Annot /Subtype /Link /Rect [0 0 10 10] /Dest %s >>" % dest))
    addresses, broken = links.pdf_links(pdf)
    assert addresses == [] and broken == ([("#page 1", "the destination's page is not in the PDF")] if dead else [])
