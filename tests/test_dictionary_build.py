"""The whole build of a glossaries-extra dictionary (`python -m glossary.build --source ... --out ...`,
what `make site SOURCE=... OUT=...` runs) on the project's own fixture, tests/fixtures/texdict/:
every construct the fixture uses shows on the pages and in the PDFs, each kind of mistake is told
in one message before anything is published, a prose edit reruns only what depends on it, and two
clean builds give the same bytes.

The expectations are computed from the fixture's source here (its fields, \\gls calls, citations,
.bib records and \\printglossary lines), with a small reader of its own, so that the fixture may
grow without these tests changing and so that the build's reader is not checked against itself.
"""
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import time
from html.parser import HTMLParser
from pathlib import Path

import pytest
from conftest import REPO, made_once, tree_bytes

from glossary import stamp

FIXTURE = REPO / "tests" / "fixtures" / "texdict"
# TinyDict_Forms.tex's terms (defined in glossaries-extra's other ways) are read from their \newglossaryentry
# twins, which tests/test_texdict.py shows read and build alike.
GLOSSARY_FILES = ("TinyDict_Audit.tex", "TinyDict_Math.tex", "TinyDict_Models.tex", "TinyDict_Numbers.tex",
                  "TinyDict_Forms_twins.tex")
SOURCE = "dictionary.yaml"
# Fields of \newglossaryentry that the tests read (the description is read by brace matching).
FIELDS = ("name", "text", "first", "plural", "firstplural", "type", "short", "long")
GLS = re.compile(r"\\(gls|Gls|glspl|Glspl)\{([^{}]*)\}")
CITE = re.compile(r"\\cite(?:\[([^\]]*)\])?\{([^{}]*)\}")
PICTURE = re.compile(r"\\begin\{tikzpicture\}.*?\\end\{tikzpicture\}", re.S)
RAW_TEX = re.compile(r"\\[a-zA-Z]")
MATH = re.compile(r"\$[^$]*\$|\\begin\{(equation|align)\*?\}.*?\\end\{\1\*?\}", re.S)

pytestmark = pytest.mark.slow


# ---------------------------------------------------------------- running the build


def build(source, out, events=None, profile=None):
    """`python -m glossary.build` of `source` into `out`, as `make site SOURCE=... OUT=...` runs it
    (with `profile`, a Snakemake profile folder, instead of --cores)."""
    env = dict(os.environ, PYTHONPATH=str(REPO / "src"))
    env.pop("GLOSSARY_EVENTS", None)
    if events:
        env["GLOSSARY_EVENTS"] = str(events)
    how = ["--profile", str(profile)] if profile else ["--cores", "2"]
    return subprocess.run([sys.executable, "-m", "glossary.build", *how, "--source", str(source),
                           "--out", str(out)], cwd=REPO, env=env, capture_output=True, text=True, timeout=600)


def built_ok(run):
    assert run.returncode == 0, f"build failed ({run.returncode}):\n{run.stdout[-3000:]}\n{run.stderr[-3000:]}"


def copy_fixture(dst):
    """A copy of the fixture whose YAML names no demos: these tests are about the LaTeX sources (the
    demos have their own tests), and a demo's job would only lengthen every build here."""
    shutil.copytree(FIXTURE, dst)
    config = dst / SOURCE
    config.write_text(re.sub(r"^demos:\n(?:[ \t]+.*\n?)*", "", config.read_text(), flags=re.M))
    return config


def edit(path, old, new):
    text = path.read_text()
    assert old in text, f"{old!r} not in {path.name}: the fixture changed; update this test"
    path.write_text(text.replace(old, new, 1))


def line_of(name, needle):
    """The 1-based line of the fixture file `name` holding needle (its first occurrence)."""
    lines = (FIXTURE / name).read_text().split("\n")
    return next(i for i, line in enumerate(lines, 1) if needle in line)


def fixture_build(tmp_path_factory):
    """A copy of the fixture and one clean build of it, made once per test run and shared by the
    workers (test_slurm_dictionary.py compares its Slurm build with it): (root, source, out folder).
    Tests read it; one that changes it copies it first."""
    root = made_once(tmp_path_factory, "dictionary",
                     lambda folder: built_ok(build(copy_fixture(folder / "dict"), folder / "out")))[0]
    return root, root / "dict" / SOURCE, root / "out"


@pytest.fixture(scope="module")
def work(tmp_path_factory):
    return fixture_build(tmp_path_factory)


@pytest.fixture(scope="module")
def site(work):
    return work[2] / "site"


# ---------------------------------------------------------------- the fixture, read here


def matching_brace(text, start):
    """The index of the } closing the { at text[start] (TeX's escaped braces skipped)."""
    depth, i = 0, start
    while i < len(text):
        if text[i] == "\\":
            i += 2
            continue
        depth += {"{": 1, "}": -1}.get(text[i], 0)
        if depth == 0:
            return i
        i += 1
    raise AssertionError("unbalanced fixture")


def fixture_terms():
    """{key: {"fields": {...}, "body": description}} of the fixture's active entries, in file order."""
    terms = {}
    for name in GLOSSARY_FILES:
        text = (FIXTURE / name).read_text()
        for m in re.finditer(r"^\\newglossaryentry\{([^}]*)\}\s*\{", text, re.M):
            options = text[m.end() - 1:matching_brace(text, m.end() - 1)]
            start = options.index("description={") + len("description=")
            body = options[start + 1:matching_brace(options, start)]
            rest = options[:start] + options[matching_brace(options, start) + 1:]
            fields = {k: a or b for k, a, b in re.findall(r"(\w+)=(?:\{([^{}]*)\}|([^,\s{}]+))", rest)
                      if k in FIELDS}
            terms[m.group(1)] = {"fields": fields, "body": body, "file": name}
    return terms


def slug_of(key):
    return re.sub(r"[^a-z0-9]+", "-", key.lower()).strip("-")


def forms(fields):
    """glossaries' defaults: text=name, first=text, plural=text+s, firstplural=first+s if first given."""
    text = fields.get("text", fields["name"])
    first = fields.get("first", text)
    plural = fields.get("plural", text + "s")
    firstplural = fields.get("firstplural", first + "s" if "first" in fields else plural)
    # an abbreviation's short and long forms as it gives them
    return {"first": first, "firstplural": firstplural, "plural": plural, "text": text,
            **{k: fields[k] for k in ("short", "long") if k in fields}}


def prose_of(body):
    """The part of a description that is the page's prose: not the See-also line, not pictures."""
    return PICTURE.sub("", body.split("See also:")[0])


def capitalised(text):
    return text[:1].upper() + text[1:]


def expected_links(key, terms, in_formulas=True):
    """[(href, text)] of the \\gls family in a term's prose: first use shows `first`, later `text`;
    with in_formulas=False, not those inside a formula's \\text{}."""
    seen, links, prose = set(), [], prose_of(terms[key]["body"])
    formulas = [m.span() for m in MATH.finditer(prose)]
    for m in GLS.finditer(prose):
        command, target = m.groups()
        f = forms(terms[target]["fields"])
        first = target not in seen
        seen.add(target)
        if "pl" in command:
            text = f["firstplural"] if first else f["plural"]
        else:
            text = f["first"] if first else f["text"]
        in_formula = any(start < m.start() < end for start, end in formulas)
        if in_formulas or not in_formula:
            links.append((f"{slug_of(target)}.html", capitalised(text) if command[0] == "G" else text))
    return links


def expected_citations(key, terms):
    """[(number, note, bib key)] of a term's citations, numbered by first citation."""
    numbers, found = {}, []
    for note, cited in CITE.findall(prose_of(terms[key]["body"])):
        numbers.setdefault(cited, len(numbers) + 1)
        found.append((numbers[cited], note, cited))
    return found


def bib_records():
    """{bib key: (first author's surname, year)} of the fixture's .bib file."""
    text = (FIXTURE / "assets" / "tiny.bib").read_text()
    records = {}
    for m in re.finditer(r"@\w+\{([^,]+),(.*?)\n\}", text, re.S):
        author = re.search(r"author\s*=\s*\{([^}]*)\}", m.group(2)).group(1).split(" and ")[0]
        year = re.search(r"year\s*=\s*\{([^}]*)\}", m.group(2)).group(1)
        records[m.group(1)] = (author.split()[-1], year)
    return records


def printed_sections():
    """[(glossary type, title)] in \\printglossary order, as glossaries titles them."""
    text = "\n".join(line.split("%")[0] for line in (FIXTURE / "TinyDict_Main.tex").read_text().split("\n"))
    titles = {"main": "Glossary", **dict(re.findall(r"\\newglossary\*\{([^}]*)\}\{([^}]*)\}", text))}
    sections = []
    for options in re.findall(r"\\printglossary(?:\[(.*?)\])?", text):
        kind = re.search(r"type=(\w+)", options or "")
        kind = kind.group(1) if kind else "main"
        title = re.search(r"title=\{([^}]*)\}", options or "")
        sections.append((kind, title.group(1) if title else titles[kind]))
    return sections


@pytest.fixture(scope="module")
def terms():
    return fixture_terms()


# ---------------------------------------------------------------- reading the outputs


class Page(HTMLParser):
    """What the tests read of a page: its links (in the prose, inside MathML text), its figures,
    ids and the text a reader sees (outside <annotation>, which keeps each formula's TeX, and
    outside <pre> and <code>, where the BibTeX to copy and the notation page's macro names are
    meant to be TeX)."""
    HIDDEN = {"annotation", "script", "style", "pre", "code"}

    def __init__(self, html):
        super().__init__(convert_charrefs=True)
        self.links, self.figures, self.ids, self.seen = [], [], set(), []
        self.stack, self.link, self.open_figures, self.prose_depth = [], None, [], 0
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        classes = (attrs.get("class") or "").split()
        if attrs.get("id"):
            self.ids.add(attrs["id"])
        if tag == "div" and (self.prose_depth or "prose" in classes):
            self.prose_depth += 1
        if tag == "a":
            self.link = {"class": classes, "href": attrs.get("href"), "text": "", "prose": bool(self.prose_depth),
                         "mtext": "mtext" in self.stack}
            self.links.append(self.link)
        if tag == "figure":
            self.open_figures.append({"id": attrs.get("id"), "imgs": [], "caption": ""})
        if tag == "img" and self.open_figures:
            self.open_figures[-1]["imgs"].append(attrs.get("src"))
        self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        self.stack.pop()

    def handle_endtag(self, tag):
        if tag in self.stack:
            while self.stack.pop() != tag:
                pass
        if tag == "div" and self.prose_depth:
            self.prose_depth -= 1
        if tag == "a":
            self.link = None
        if tag == "figure" and self.open_figures:
            self.figures.append(self.open_figures.pop())

    def handle_data(self, data):
        if self.HIDDEN & set(self.stack):
            return
        self.seen.append(data)
        if self.link is not None:
            self.link["text"] += data
        if "figcaption" in self.stack and self.open_figures:
            self.open_figures[-1]["caption"] += data

    def xrefs(self):
        return [(a["href"], words(a["text"])) for a in self.links if "xref" in a["class"] and a["prose"]]


def words(text):
    return " ".join(text.split())


def page(site, slug):
    return Page((site / "terms" / f"{slug}.html").read_text())


def pdftotext(path, *args):
    return subprocess.run(["pdftotext", *args, str(path), "-"], capture_output=True, text=True, check=True).stdout


def pdf_links(path):
    """[(URI or named destination, the words inside the link's rectangle)] of a PDF, in page order."""
    from pypdf import PdfReader
    found = []
    for number, pdf_page in enumerate(PdfReader(str(path)).pages, 1):
        height = float(pdf_page.mediabox.top)
        for annot in pdf_page.get("/Annots") or []:
            annot = annot.get_object()
            action = annot.get("/A")
            if annot.get("/Subtype") != "/Link" or action is None:
                continue
            x1, y1, x2, y2 = (float(v) for v in annot["/Rect"])
            area = ["-f", str(number), "-l", str(number), "-x", str(int(x1)), "-y", str(int(height - y2)),
                    "-W", str(int(x2 - x1) + 1), "-H", str(int(y2 - y1) + 1)]
            target = action.get_object().get("/URI") or action.get_object().get("/D")
            found.append((str(target), words(pdftotext(path, *area))))
    return found


def link_words(texts):
    """The words of link texts, joined (a link broken over two lines is two annotations) and without
    the punctuation that pdftotext's word boxes take along: a trailing '.,;:', and a ')' that closes
    no '(' of the link (the parenthesis after a link at the end of "(... \\gls{x})")."""
    joined, depth, kept = re.sub(r"-\s+", "", " ".join(texts)), 0, []
    for c in joined:
        if c == ")" and depth == 0:
            continue
        depth += {"(": 1, ")": -1}.get(c, 0)
        kept.append(c)
    return [w.strip(".,;:") for w in "".join(kept).split()]


def form_xobjects(path):
    """The (width, height) of every form XObject (an included PDF) of a PDF's pages, rounded."""
    from pypdf import PdfReader
    sizes = []
    for pdf_page in PdfReader(str(path)).pages:
        xobjects = (pdf_page.get("/Resources") or {}).get("/XObject") or {}
        for obj in xobjects.values():
            obj = obj.get_object()
            if obj.get("/Subtype") == "/Form":
                x1, y1, x2, y2 = (float(v) for v in obj["/BBox"])
                sizes.append((round(x2 - x1), round(y2 - y1)))
    return sizes


def media_size(path):
    from pypdf import PdfReader
    box = PdfReader(str(path)).pages[0].mediabox
    return round(float(box.width)), round(float(box.height))


# ---------------------------------------------------------------- 1. every construct, page and PDF


def test_gls_forms_on_every_page(site, terms):
    """First use shows `first`, later `text`; \\Gls capitalised; \\glspl plural; links in source order."""
    for key in terms:
        assert page(site, slug_of(key)).xrefs() == expected_links(key, terms), key


def site_url():
    return re.search(r"^url:\s*(\S+)", (FIXTURE / SOURCE).read_text(), re.M).group(1)


def pdf_xrefs(site, key, terms, in_formulas):
    """[(href, expected words, the words of the PDF's links to href)] of a term's PDF."""
    url, rows = site_url(), []
    # the PDF's own address, printed under its title, links to its page too: not a cross-reference
    found = [(t, text) for t, text in pdf_links(site / "terms" / f"{slug_of(key)}.pdf")
             if t.startswith(url + "terms/") and text != t]
    # nor are its title (the first link, to its own page) and its "See also" line, which ends the text
    also = GLS.findall(terms[key]["body"].split("See also:")[1]) if "See also:" in terms[key]["body"] else []
    assert found[0][0] == f"{url}terms/{slug_of(key)}.html", key
    found = found[1:len(found) - len(also)]
    expected = expected_links(key, terms, in_formulas)
    for href in sorted({href for href, _ in expected}):
        rows.append((href, link_words([text for h, text in expected if h == href]),
                     link_words([text for t, text in found if t == url + "terms/" + href])))
    return rows


def test_gls_inside_a_formula_is_a_link_in_the_term_pdf(site, terms):
    for key in terms:
        for href, expected, found in pdf_xrefs(site, key, terms, in_formulas=True):
            assert found == expected, (key, href)


def test_gls_inside_text_of_a_formula_is_a_link_inside_the_mathml(site, terms):
    inside = [(key, m) for key in terms for m in re.finditer(r"\\text\{[^{}$]*?\\gls\{([^{}]*)\}", terms[key]["body"])]
    assert inside, "the fixture has no \\gls inside \\text{} of a formula"
    for key, m in inside:
        target = m.group(1)
        in_math = [(a["href"], words(a["text"])) for a in page(site, slug_of(key)).links
                   if a["mtext"] and "xref" in a["class"]]
        assert (f"{slug_of(target)}.html", forms(terms[target]["fields"])["text"]) in in_math, key
    # in the PDF the formula's text shows the forms: the first \text{} with a \gls, as words
    key, m = inside[0]
    argument = re.search(r"\\text\{((?:[^{}]|\{[^{}]*\})*)\}", terms[key]["body"][m.start():]).group(1)
    shown = GLS.sub(lambda g: forms(terms[g.group(2)]["fields"])["text"], argument)
    assert words(shown) in words(pdftotext(site / "terms" / f"{slug_of(key)}.pdf"))


def test_citations_and_their_references(site, terms):
    records = bib_records()
    cited = [key for key in terms if expected_citations(key, terms)]
    assert len(cited) >= 3
    for key in cited:
        slug, expected = slug_of(key), expected_citations(key, terms)
        shown = page(site, slug)
        links = [(a["href"], words(a["text"])) for a in shown.links if "citation" in a["class"]]
        assert links == [(f"#ref-{slug}-{n}", f"[{n}, {note}]" if note else f"[{n}]") for n, note, _ in expected]
        html = (site / "terms" / f"{slug}.html").read_text()
        pdf = words(pdftotext(site / "terms" / f"{slug}.pdf"))
        for n, bib in sorted({(n, bib) for n, _, bib in expected}):
            surname, year = records[bib]
            item = re.search(rf'<p id="ref-{slug}-{n}">(.*?)</p>', html, re.S)
            assert item and surname in item.group(1) and year in item.group(1), (key, bib)
            assert re.search(rf"\[{n}\] [^\[]*{surname}[^\[]*{year}", pdf.split("References")[-1]), (key, bib)
        # a term PDF's link targets are named after its term (its batch's run keeps the entries apart)
        destinations = {t.removeprefix(f"{slug}-") for t, _ in pdf_links(site / "terms" / f"{slug}.pdf")}
        assert {f"ref-{slug}-{n}" for n, _, _ in expected} <= destinations


def test_svg_picture_with_its_caption_and_number_and_its_pdf_in_the_term_pdf(site, terms):
    body = terms["gd"]["body"]
    label = re.search(r"\\label\{(fig:[^}]*)\}", body).group(1)
    caption = re.search(r"\\caption\{Three steps of (\\gls\{gd\}), each", body)
    assert caption, "the fixture's gd figure changed; update this test"
    shown = page(site, "gd")
    figure = next(f for f in shown.figures if f["id"] == label)
    assert figure["imgs"] == ["gd/pictures/1.svg"]
    # the fixture's main file labels its captions as the real book does (\captionsetup[figure]{name=Fig.,
    # labelsep=period}): the page and the PDFs so too
    assert words(figure["caption"]) == "Fig. 1. Three steps of GD, each scaled by the learning rate."
    svg = (site / "terms" / "gd" / "pictures" / "1.svg").read_text()
    assert svg.lstrip().startswith(("<?xml", "<svg")) and "<svg" in svg
    text = words(pdftotext(site / "terms" / "gd.pdf"))
    assert "Fig. 1. Three steps of GD, each scaled by the learning rate." in text
    assert "Fig. 1. Three steps of GD" in words(pdftotext(site / "dictionary.pdf"))
    assert media_size(site / "terms" / "gd" / "pictures" / "1.pdf") in form_xobjects(site / "terms" / "gd.pdf")


def test_gls_inside_a_picture_shows_the_entry_plural(site, terms):
    expected = forms(terms["loss function"]["fields"])["plural"]
    assert "\\glspl{loss function}" in PICTURE.search(terms["gd"]["body"]).group(0)
    assert expected in pdftotext(site / "terms" / "gd" / "pictures" / "1.pdf").split()


def test_subfigures_are_lettered_as_in_the_pdf(site):
    figures = {f["id"]: words(f["caption"]) for f in page(site, "overfitting").figures}
    assert figures["fig:overfitting-line"].startswith("(a)")
    assert figures["fig:overfitting-curve"].startswith("(b)")
    assert "(a) A straight line." in words(pdftotext(site / "terms" / "overfitting.pdf"))
    # a subfigure without a caption is not lettered, on the page nor in the PDF (LaTeX letters a \caption)
    assert figures["fig:overfitting-box"] == ""
    assert "(c)" not in words(pdftotext(site / "terms" / "overfitting.pdf"))
    assert "(c)" not in words(pdftotext(site / "dictionary.pdf"))


def test_equation_and_figure_references(site):
    gradient = page(site, "gradient")
    assert ("#eq:gradient", "(1)") in [(a["href"], a["text"]) for a in gradient.links if "ref" in a["class"]]
    assert "eq:gradient" in gradient.ids
    assert "Equation (1) points" in words(pdftotext(site / "terms" / "gradient.pdf"))
    matrix = page(site, "matrix")
    assert ("#eq:matrix-row-one", "(1)") in [(a["href"], a["text"]) for a in matrix.links]
    datapoint = page(site, "datapoint")
    assert ("#fig:datapoint-photo", "1") in [(a["href"], a["text"]) for a in datapoint.links]
    assert "fig:datapoint-photo" in datapoint.ids
    # a \ref to another term's figure goes to that term's page, and names the term
    assert ("gd.html#fig:gd-steps", "1 of gradient descent (GD)") in \
        [(a["href"], words(a["text"])) for a in page(site, "learningrate").links]
    assert "Fig. 1 of gradient descent (GD)" in words(pdftotext(site / "terms" / "learningrate.pdf"))


FORMULA = re.compile(r"\$[^$]*\$")
EQREF = re.compile(r"\\eqref\{([^{}]*)\}")


def equation_numbers(terms):
    """{equation label: (its term, "(n)" as LaTeX numbers it in the term's PDF)}: the fixture's
    equations are numbered in their term by their labels' order."""
    found = {}
    for key, term in terms.items():
        for n, m in enumerate(re.finditer(r"\\label\{(eq:[^{}]*)\}", term["body"]), 1):
            found[m.group(1)] = (key, f"({n})")
    return found


def test_eqref_inside_a_formula_is_the_equation_number_linked(site, terms):
    """An \\eqref inside a formula shows its equation's number, as LaTeX prints it: on the page a link
    inside the MathML, to the equation on that page or on its term's page; in the PDF the number,
    and in the book a link (as the prose's \\eqref is)."""
    numbers = equation_numbers(terms)
    inside = [(key, label) for key in terms for formula in FORMULA.findall(prose_of(terms[key]["body"]))
              for label in EQREF.findall(formula)]
    assert {numbers[label][0] == key for key, label in inside} == {True, False}, \
        "the fixture needs an \\eqref inside a formula to its own term's equation and one to another term's"
    for key, label in inside:
        owner, number = numbers[label]
        href = ("" if owner == key else f"{slug_of(owner)}.html") + f"#{label}"
        # another term's equation is named by its term
        number = number if owner == key else f"{number} of {terms[owner]['fields']['name']}"
        in_math = [(a["href"], words(a["text"])) for a in page(site, slug_of(key)).links
                   if a["mtext"] and "ref" in a["class"]]
        assert (href, number) in in_math, (key, label)
        assert label in page(site, slug_of(owner)).ids
        pdf = words(pdftotext(site / "terms" / f"{slug_of(key)}.pdf"))
        assert label not in pdf and number in pdf, (key, label)
    # in the book every \eqref, in prose or in a formula, is a link showing the number
    everywhere = [label for key in terms for label in EQREF.findall(prose_of(terms[key]["body"]))]
    book = [text.strip(".,;:").split(" of ")[0] for _, text in pdf_links(site / "dictionary.pdf")]
    assert sorted(t for t in book if re.fullmatch(r"\(\d+\)", t)) == sorted(numbers[label][1] for label in everywhere)


def test_pages_show_mathml_and_no_raw_tex(site, terms):
    for path in sorted(site.rglob("*.html")):
        html = path.read_text()
        seen = "".join(Page(html).seen)
        assert not RAW_TEX.search(seen), f"{path.name}: {RAW_TEX.search(seen).group(0)!r} in " \
            f"{seen[max(0, RAW_TEX.search(seen).start() - 60):RAW_TEX.search(seen).start() + 60]!r}"
    for key, term in terms.items():
        if "$" in prose_of(term["body"]) or "\\begin{equation}" in term["body"]:
            assert "<math" in (site / "terms" / f"{slug_of(key)}.html").read_text(), key


def test_term_pdfs_show_no_raw_tex(site, terms):
    for key in terms:
        text = pdftotext(site / "terms" / f"{slug_of(key)}.pdf")
        before_cite = text.split("Cite this entry")[0]
        assert not RAW_TEX.search(before_cite), (key, RAW_TEX.search(before_cite).group(0))


def test_includegraphics_is_published(site, terms):
    name = re.search(r"\\includegraphics(?:\[[^\]]*\])?\{([^}]*)\}", terms["datapoint"]["body"]).group(1)
    original = (FIXTURE / f"{name}.png").read_bytes()
    assert (site / "terms" / "datapoint" / "graphics" / "1.png").read_bytes() == original
    assert any(f["imgs"] == ["datapoint/graphics/1.png"] for f in page(site, "datapoint").figures)
    width, height = struct.unpack(">II", original[16:24])
    rows = raster_images(site / "terms" / "datapoint.pdf")
    assert [(r[3], r[4]) for r in rows] == [(str(width), str(height))]


def test_a_photo_keeps_its_share_of_the_line(site):
    """\\includegraphics[width=0.3\\textwidth] (the data point's 4-pixel photo): the page gives its link
    that share of a wide column (the stylesheet: --share), and the term PDF prints it 0.3 of the line."""
    assert '<a class="picture" href="datapoint/graphics/1.png" style="--share: 0.3">' in \
        (site / "terms/datapoint.html").read_text()
    pdf = site / "terms/datapoint.pdf"
    [row] = raster_images(pdf)
    pixels, ppi = int(row[3]), int(row[12])       # pdfimages rounds the resolution to a whole number
    bbox = pdftotext(pdf, "-bbox", "-f", "1", "-l", "1")
    line = max(map(float, re.findall(r'xMax="([\d.]+)"', bbox))) - min(map(float, re.findall(r'xMin="([\d.]+)"', bbox)))
    assert pixels / (ppi + 0.5) * 72 <= 0.3 * line <= pixels / (ppi - 0.5) * 72, (pixels, ppi, line)


def raster_images(path):
    """pdfimages -list's rows (split) of a PDF's raster images."""
    out = subprocess.run(["pdfimages", "-list", str(path)], capture_output=True, text=True, check=True).stdout
    return [line.split() for line in out.splitlines()[2:]]


def test_book_has_every_section_title_in_printglossary_order(site, terms):
    text = words(pdftotext(site / "dictionary.pdf"))
    at = 0
    for kind, title in printed_sections():
        found = text.find(title, at)
        assert found >= 0, f"section {kind!r} ({title!r}) missing, or out of \\printglossary order"
        at = found + len(title)
    assert "Declared But Never Printed" not in text
    # the outline: each section's title, under it the names of its terms and of no other section's
    # (the contents list the sections, as the authors' book does)
    from pypdf import PdfReader
    reader = PdfReader(str(site / "dictionary.pdf"))
    tops = [item.title for item in reader.outline if not isinstance(item, list)]
    children = {}
    for i, item in enumerate(reader.outline):
        if isinstance(item, list):
            children[reader.outline[i - 1].title] = {child.title for child in item if not isinstance(child, list)}
    assert [t for t in tops if t in dict(printed_sections()).values()] == [title for _, title in printed_sections()]
    names = {key: term["fields"]["name"] for key, term in terms.items()}
    for kind, title in printed_sections():
        kept = {names[k] for k, term in terms.items() if term["fields"].get("type", "main") == kind}
        assert children[title] == kept, title


def test_terms_json_records_sections_and_forms(site, terms):
    data = json.loads((site / "terms.json").read_text())
    title = re.search(r"^title:\s*(.+)$", (FIXTURE / SOURCE).read_text(), re.M).group(1)
    assert data["site"] == title
    recorded = {t["key"]: t for t in data["terms"]}
    assert sorted(recorded) == sorted(terms)
    for key, term in terms.items():
        row = recorded[key]
        assert row["section"] == term["fields"].get("type", "main"), key
        assert row["forms"] == forms(term["fields"]), key
        assert (row["slug"], row["url"], row["pdf"]) == (
            slug_of(key), f"terms/{slug_of(key)}.html", f"terms/{slug_of(key)}.pdf")


def test_key_with_a_space_has_a_stable_slug_page(site, terms):
    spaced = [key for key in terms if " " in key]
    assert spaced, "the fixture has no key with a space"
    for key in spaced:
        slug = slug_of(key)
        assert " " not in slug and (site / "terms" / f"{slug}.html").is_file()
        assert f"<h1>{terms[key]['fields']['name']}</h1>" in (site / "terms" / f"{slug}.html").read_text()
        linking = [k for k in terms if any(t == key for _, t in GLS.findall(prose_of(terms[k]["body"])))]
        assert linking, f"no entry links to {key!r}"
        for k in linking:
            assert f"{slug}.html" in [href for href, _ in page(site, slug_of(k)).xrefs()], k


# ---------------------------------------------------------------- 2. mistakes, told before publishing


def mistake_cases():
    """(id, file, old, new, [pieces the message must hold]) of each kind of mistake."""
    models, maths = "TinyDict_Models.tex", "TinyDict_Math.tex"
    gls, cite, matrix = "\\gls{learningrate}\\index", "\\cite{Strang2016}.", "\\newglossaryentry{matrix}"
    dataset, vector = "\\newglossaryentry{dataset}", "\\newglossaryentry{vector}"
    draw = "\\draw[->] (-2.2,0) -- (2.2,0) node[right] {$w$};"
    formula = "$f: \\mathcal{X} \\rightarrow \\mathcal{Y}$"
    ref = "iterates of Fig.~\\ref{fig:gd-steps}"
    unclosed = "\\gls{vector} $\\featurevec$"
    return [
        ("undefined-gls", models, gls, gls.replace("learningrate", "learningrat"),
         [f"{models}:{line_of(models, gls)}: term 'learningrate': \\gls key 'learningrat' is not defined; "
          "did you mean learningrate?"]),
        ("unknown-citation", maths, cite, cite.replace("2016", "2061"),
         [f"{maths}:{line_of(maths, cite)}: term 'vector': no record 'Strang2061'", "did you mean 'Strang2016'?"]),
        ("blank-line", maths, "columns. Multiplying", "columns.\n\n\t\tMultiplying",
         [f"{maths}:{line_of(maths, 'columns. Multiplying') + 1}: term 'matrix': blank line inside the entry",
          "separate paragraphs with \\\\"]),
        # told at the \gls group that runs over lines, where the '}' most likely went missing
        ("unbalanced-braces", maths, unclosed + "\n", unclosed.replace("}", "") + "\n",
         [f"{maths}:{line_of(maths, unclosed)}: term 'matrix': the braces of this entry do not close",
          f"the entry starts on line {line_of(maths, matrix)}", "close the \\gls{...} opened here"]),
        ("key-twice", models, dataset, vector,
         [f"{models}:{line_of(models, dataset)}: term 'vector' is defined twice (also at "
          f"{maths}:{line_of(maths, vector)}); keep one definition or rename one key"]),
        ("tikz-error", models, draw, draw + "\n\t\t\t\t\\undefinedtikzmacro",
         [f"{models}:{line_of(models, draw) + 1}: term 'gd': picture 1 does not compile: Undefined control "
          "sequence.", "\\undefinedtikzmacro", "fix the picture"]),
        ("formula", maths, formula, formula.replace("\\mathcal{Y}", "\\frac{\\mathcal{Y}}"),
         [re.compile(rf"{maths}:{line_of(maths, formula)}: term 'function'"),
          "\\frac{\\mathcal{Y}}", "MathML"]),
        # a name read as prose is read before any job (glossary.render.names_read): told as the prose's is
        ("name-formula", maths, "{name={gradient},", "{name={$\\frac{\\mathcal{Y}}$ gradient},",
         [re.compile(rf"{maths}:{line_of(maths, '{name={gradient},') - 1}: term 'gradient'"),
          "\\frac{\\mathcal{Y}}", "MathML"]),
        ("ref-nowhere", models, ref, ref.replace("gd-steps", "gd-step"),
         [f"{models}:{line_of(models, ref)}: term 'learningrate': \\ref{{fig:gd-step}} names a label that no "
          "entry defines; did you mean fig:gd-steps?"]),
        ("type-without-section", maths, "\ttype=math,\n\tplural", "\ttype=retired,\n\tplural",
         [f"{maths}:{line_of(maths, 'plural={matrices}') - 1}: term 'matrix': type=retired names no glossary",
          "\\newglossary*{retired}{Title}"]),
    ]


CASES = mistake_cases()


@pytest.mark.parametrize("name,file,old,new,pieces", [pytest.param(*case, id=case[0]) for case in CASES])
def test_a_mistake_is_told_and_site_is_left_as_it_was(work, tmp_path, name, file, old, new, pieces):
    _, _, good = work
    source = copy_fixture(tmp_path / "dict")
    edit(source.parent / file, old, new)
    out = tmp_path / "out"
    subprocess.run(["cp", "-a", str(good), str(out)], check=True)    # an earlier good build in this folder
    run = build(source, out)
    assert run.returncode == 1, run.stdout[-2000:] + run.stderr[-2000:]
    # the reader's mistakes now name their column too (file:line:column:): the pieces name file:line
    told = re.sub(r"(?m)^([^:\n]+:\d+):\d+", r"\1", run.stderr)
    for piece in pieces:
        if isinstance(piece, re.Pattern):
            assert piece.search(told), f"{piece.pattern!r} not in:\n{told}"
        else:
            assert piece in told, f"{piece!r} not in:\n{told}"
    # short; a run that finds several mistakes lists each (key-twice: every \\gls{dataset} too)
    several = re.search(r"^error: (\d+) mistakes", told, re.M)
    assert len(told.strip().splitlines()) <= (10 if not several else int(several[1]) + 3), told
    assert "site/ was left as it was." in told
    assert tree_bytes(out / "site") == tree_bytes(good / "site")


def test_the_no_op_answers_before_the_yaml_file_is_checked(work, tmp_path):
    """A no-op build of a YAML source compares the stamp alone: it does not import jsonschema (a fifth of
    the no-op at 5,000 terms), since the stamp holds the bytes the last build checked.  A YAML file that
    breaks its schema is not taken for built: its build tells the mistake and leaves site/ as it was."""
    _, source, good = work
    out = tmp_path / "out"
    subprocess.run(["cp", "-a", str(good), str(out)], check=True)
    driver = ("import sys\nfrom glossary import build\ncode = build.main(sys.argv[1:])\n"
              "print('jsonschema imported' if 'jsonschema' in sys.modules else 'jsonschema not imported')\n"
              "sys.exit(code)")

    def run(config):
        return subprocess.run([sys.executable, "-c", driver, "--cores", "2", "--source", str(config), "--out",
                               str(out)], cwd=REPO, env=dict(os.environ, PYTHONPATH=str(REPO / "src")),
                              capture_output=True, text=True, timeout=600)
    noop = run(source)
    assert noop.returncode == 0 and noop.stdout.startswith("site up to date"), noop.stdout + noop.stderr
    assert "jsonschema not imported" in noop.stdout
    broken = copy_fixture(tmp_path / "dict")
    broken.write_text(broken.read_text() + "colour: blue\n")
    told = run(broken)
    assert told.returncode == 1, told.stdout + told.stderr
    assert str(broken) in told.stderr and "colour" in told.stderr, told.stderr
    assert tree_bytes(out / "site") == tree_bytes(good / "site")


def test_a_picture_gone_from_its_batch_folder_is_made_again(work, tmp_path):
    """An entry's pictures and graphics in the staged site are links into its batch's pictures folder
    (glossary.plan.Plan.link_entry_files), one directory output in Snakemake's DAG: a picture deleted
    there is made again with its folder (glossary.plan.mend_batch_folders), a pictures folder no link
    points into (an earlier plan's batch) goes, and the site publishes files, not links."""
    _, source, good = work
    out = tmp_path / "out"
    subprocess.run(["cp", "-a", str(good), str(out)], check=True)
    staged = out / "results/site/terms/gd/pictures/1.pdf"
    made = staged.resolve()
    assert staged.is_symlink() and made.is_relative_to(out / "results/batches/pictures")
    assert (out / "results/site/terms/datapoint/graphics/1.png").resolve().is_relative_to(out / "results/batches")
    # a build that finds every picture where its link points makes none again
    (out / stamp.STAMP).unlink()      # else the sources and site/ as the last build left them: a no-op
    built_ok(build(source, out, events=tmp_path / "events.jsonl"))
    assert "pictures" not in rules_run(tmp_path / "events.jsonl")
    made.unlink()
    earlier = out / "results/batches/pictures/b99"
    earlier.mkdir()
    (out / stamp.STAMP).unlink()
    built_ok(build(source, out))
    assert made.is_file() and not earlier.exists()
    # the entry's folder gone from the batch's folder, which is there: made again too
    shutil.rmtree(made.parent.parent)
    (out / stamp.STAMP).unlink()
    built_ok(build(source, out))
    assert made.is_file()
    published = out / "site/terms/gd/pictures/1.pdf"
    assert not published.is_symlink() and published.read_bytes() == made.read_bytes()


# ---------------------------------------------------------------- 3. a prose edit


MODELS = "TinyDict_Models.tex"


@pytest.fixture(scope="module")
def prose_edits(tmp_path_factory):
    """A clean build, then two words of feature's description edited in turn, each followed by a build:
    in its text ("measured cheaply"), then past its first sentence ("values are collected")."""
    edits = [("measured cheaply", "measured quickly", MODELS), ("values are collected", "values are gathered", MODELS)]
    return rebuilt_after_edits(tmp_path_factory.mktemp("edit"), edits)


@pytest.fixture(scope="module")
def edited(prose_edits):
    """The first of prose_edits: (edited slug, site before, site after, [rules whose jobs ran in the
    rerun], its events)."""
    before, after, ran, events = prose_edits[0]
    return "feature", before, after, ran, events


def rebuilt_after_edits(root, edits, profile=None, batches=False):
    """A clean build of a copy of the fixture in root, then each (old, new, file) of `edits` made in turn
    and the build rerun from what the one before left, as an author edits: for each, (site before, site
    after, [rules whose jobs ran], its events file); batches: the batch jobs named as such (page_b01), not
    by their stage."""
    source = copy_fixture(root / "dict")
    out = root / "out"
    built_ok(build(source, out, profile=profile))
    done = []
    for n, (old, new, file) in enumerate(edits):
        before = tree_bytes(out / "site")
        edit(source.parent / file, old, new)
        events = root / f"events-{n}.jsonl"
        built_ok(build(source, out, events=events, profile=profile))
        done.append((before, tree_bytes(out / "site"), rules_run(events, batches), events))
    return done


def rules_run(events, batches=False):
    """The rules whose jobs finished, from the build's Snakemake events (a batch counts under its stage
    unless `batches`)."""
    names, finished = {}, []
    for row in map(json.loads, events.read_text().splitlines()):     # a build may run Snakemake twice:
        if row.get("event") == "job_info":                           # job ids start again in each run
            names[row["jobid"]] = row["rule_name"]
        elif row.get("event") == "job_finished":
            finished.append(names[row["job_id"]])
    return sorted(name if batches else re.sub(r"_b\d+$", "", name) for name in finished)


def snakemake_runs(events):
    """How many times the build started Snakemake: each run begins with its run_info event."""
    return sum(json.loads(row).get("event") == "run_info" for row in events.read_text().splitlines())


def page_batches(events, out):
    """{page batch: the pages it writes, by their names in the site}, of every page batch that ran
    (Snakemake's job_info event, sent as a job starts, names its output: the batch's folder of pages in
    the build folder `out`)."""
    found = {}
    for row in map(json.loads, events.read_text().splitlines()):
        if row.get("event") == "job_info" and re.fullmatch(r"page_b\d+", row["rule_name"]):
            found[row["rule_name"]] = {f"terms/{page.name}" for folder in row["output"]
                                       for page in (out / folder).iterdir() if page.suffix == ".html"}
    return found


@pytest.fixture(scope="module")
def batched_edits(tmp_path_factory):
    """The fixture in batches of five (b00: cnn .. function, b01: gd .. leastsquares, b02: loss-function
    .. norm, b03: overfitting .. regularization, b04: sgn .. vector), built clean, then two words edited in
    turn, each followed by a build: in norm's first sentence, its summary (norm is in b02), then in
    feature's second sentence, the one that refers to vector.  For each, ([jobs that ran, batches by
    name], site before, site after, its events)."""
    root = tmp_path_factory.mktemp("batched")
    (root / "batches.yaml").write_text("batch_size: 5\n")
    (root / "profile").mkdir()      # --cores, and a config file over config.yaml's batch_size
    (root / "profile/config.yaml").write_text(f"cores: 2\nconfigfile: [{root / 'batches.yaml'}]\n")
    edits = [("A norm\\index{norm} assigns a length", "A norm\\index{norm} gives a length", "TinyDict_Audit.tex"),
             ("values are collected in a", "values are gathered in a", MODELS)]
    done = rebuilt_after_edits(root, edits, profile=root / "profile", batches=True)
    return [(ran, before, after, events) for before, after, ran, events in done]


def test_a_prose_edit_changes_that_term_page_and_pdf(edited):
    slug, before, after, ran, _ = edited
    assert {"prose", "page", "print"} <= set(ran)
    for name in (f"terms/{slug}.html", f"terms/{slug}.pdf", f"terms/{slug}.md"):
        assert before[name] != after[name], name
    assert "measured quickly" in after[f"terms/{slug}.html"].decode()


@pytest.fixture(scope="module")
def edited_after_the_summary(prose_edits):
    """The second of prose_edits: the word is past the term's first sentence (its summary, which other
    pages and the index show): ([rules whose jobs ran in the rerun], site before, site after)."""
    before, after, ran, _ = prose_edits[1]
    return ran, before, after


def test_an_edit_past_the_summary_reruns_nothing_that_reads_only_the_catalog(edited_after_the_summary):
    ran, before, after = edited_after_the_summary
    assert {"prose", "catalog", "page", "print", "book"} <= set(ran)
    assert not {"catalog_pages", "pictures"} & set(ran), ran
    assert "values are gathered" in after["terms/feature.html"].decode()
    assert after["index.html"] == before["index.html"] and after["terms.json"] == before["terms.json"]


def rendered(out, batch):
    """The pages the last run of a page batch rendered, as its log names them (glossary.pagejob.run_batch:
    the others were its cache's)."""
    line = (out / f"logs/page/{batch}.log").read_text().strip().splitlines()[-1]
    assert line.startswith("rendered: "), line
    return line.removeprefix("rendered: ").split()


def test_an_edit_in_a_referring_sentence_renders_only_the_pages_that_quote_it(edited_in_a_referring_sentence):
    """vector's page batch reruns (its view quotes the sentence) but renders vector's page alone, as
    feature's renders feature's: no other page of either batch is made again."""
    ran, _, _, out = edited_in_a_referring_sentence
    assert {"page_b00", "page_b04"} <= set(ran)
    assert rendered(out, "b04") == ["vector"]
    assert rendered(out, "b00") == ["feature"]


def test_the_print_edition_starts_without_waiting_for_the_catalog(edited):
    """The sections, the PDFs and the book read the names (names.json), not the catalog: after a prose
    edit the section job starts beside the catalog job, not after it, and the book follows it."""
    *_, events = edited
    rows = list(map(json.loads, events.read_text().splitlines()))
    started = {row["rule_name"]: row["t"] for row in rows if row.get("event") == "job_info"}
    names = {row["jobid"]: row["rule_name"] for row in rows if row.get("event") == "job_info"}
    finished = {names[row["job_id"]]: row["t"] for row in rows if row.get("event") == "job_finished"}
    [section] = [name for name in started if name.startswith("section_")]
    assert started[section] < finished["catalog"], (started, finished)
    assert started["book"] >= finished[section]


def test_a_one_word_edit_runs_snakemake_once(edited):
    """The catalog is a checkpoint: Snakemake decides on its readers after it ran, in the same run."""
    *_, events = edited
    assert snakemake_runs(events) == 1


@pytest.fixture(scope="module")
def edited_in_a_referring_sentence(batched_edits):
    """The last of batched_edits (so the page batches' logs are its run's): a word edited in feature's
    second sentence, the one that refers to vector."""
    ran, before, after, events = batched_edits[1]
    return ran, before, after, events.parent / "out"


def test_an_edit_in_a_referring_sentence_reruns_its_prose_and_the_target_page(edited_in_a_referring_sentence):
    """The referring sentences live per batch (results/backlinks/<batch>.json), not in the catalog: the
    edit reruns feature's batch (prose, page, section, print) and vector's page batch, and no other page or
    print batch, nor anything that reads only the catalog."""
    ran, before, after, _ = edited_in_a_referring_sentence
    batches = {name for name in ran if re.search(r"_b\d+$", name)}
    assert batches == {"prose_b00", "page_b00", "section_b00", "print_b00", "page_b04"}, ran
    assert "catalog" in ran
    assert "catalog_pages" not in ran, ran
    page = after["terms/vector.html"].decode()
    page = page[page.index('<h2 id="referenced-by">'):]
    quoted = page[page.index('<a href="feature.html">'):]
    quoted = quoted[:quoted.index("</li>")]
    assert '<q class="refers">' in quoted and "values are gathered in a vector" in " ".join(quoted.split())
    assert "values are collected" in " ".join(before["terms/vector.html"].decode().split())
    changed = sorted(name for name in before if before[name] != after.get(name))
    assert [n for n in changed if n.startswith("terms/") and "/" not in n[len("terms/"):]] == [
        "terms/feature.html", "terms/feature.md", "terms/feature.pdf", "terms/vector.html"]


@pytest.fixture(scope="module")
def edited_in_a_first_sentence(batched_edits):
    """The first of batched_edits: a word edited in norm's first sentence, its summary (norm is in b02)."""
    return batched_edits[0]


def test_a_first_sentence_edit_reruns_only_the_page_batches_that_show_it(edited_in_a_first_sentence):
    """Pages and sections read their batch's view of the catalog, not the catalog: a summary edited reruns
    the page batches with a page that shows it, not every batch, and its own batch's sections and PDFs, in
    one Snakemake run; the index and the feeds, which show every summary, rerun."""
    ran, before, after, events = edited_in_a_first_sentence
    assert snakemake_runs(events) == 1
    pages = page_batches(events, events.parent / "out")
    changed = {name for name in before if name.endswith(".html") and before[name] != after.get(name)}
    assert "terms/norm.html" in changed and "gives a length" in after["terms/norm.html"].decode()
    # every page batch that ran has a page that changed, and every changed page was written by one
    assert all(written & changed for written in pages.values()), (pages, changed)
    assert {n for n in changed if n.startswith("terms/")} <= set().union(*pages.values())
    assert len(pages) < 5, pages
    assert "prose_b02" in ran and not any(name.startswith("prose_") and name != "prose_b02" for name in ran), ran
    # no PDF shows another term's summary: only norm's own batch sets its sections and PDFs again
    assert {n for n in ran if n.startswith(("section_", "print_b"))} == {"section_b02", "print_b02"}, ran
    assert "catalog_pages" in ran
    assert after["index.html"] != before["index.html"]


def test_a_prose_edit_runs_no_pictures_job(edited):
    _, _, _, ran, _ = edited
    assert "pictures" not in ran and "print_format" not in ran


def test_a_prose_edit_leaves_the_other_term_pdfs_alone(edited):
    slug, before, after, *_ = edited
    changed = sorted(name for name in before if name.endswith(".pdf") and name.startswith("terms/")
                     and "/" not in name[len("terms/"):] and before[name] != after.get(name))
    assert changed == [f"terms/{slug}.pdf"]


# ---------------------------------------------------------------- 4. determinism


def test_two_clean_builds_give_the_same_bytes(work, tmp_path):
    _, source, first = work
    second = tmp_path / "another-folder-name"
    built_ok(build(source, second))
    one, two = tree_bytes(first / "site"), tree_bytes(second / "site")
    assert sorted(one) == sorted(two)
    assert [name for name in sorted(one) if one[name] != two[name]] == []


def test_the_plan_takes_the_drivers_read_of_the_dictionary(work):
    """The driver reads the dictionary to tell its mistakes, and keeps that read under the hash of every
    source (glossary.texdict.check_main's memo); the Snakefile's plan computes the same key (as
    workflow/rules/common.smk does) and so reads the dictionary no second time."""
    from glossary import plan, stamp, texdict
    _, source, out = work
    key = stamp.read_key(stamp.source_hashes(stamp.source_roots(REPO, str(source)), stamp.known_sources(out)))
    kept = texdict.remembered((out / plan.READ_MEMO, key), plan.Source(source).main)
    assert kept is not None and kept["entries"] == texdict.read(plan.Source(source).main)["entries"]


def test_snakemake_starts_while_the_dictionary_is_checked(tmp_path, monkeypatch):
    """The build starts Snakemake as it checks the dictionary (build.run_snakemake(checked=)), and Snakemake
    waits for the check's answer before it reads the plan (plan.wait_for_check): it goes on when the check
    passed, and ends there, having written nothing, when it did not."""
    from glossary import build as driver
    source = copy_fixture(tmp_path / "dict")
    out = tmp_path / "out"
    out.mkdir()
    monkeypatch.chdir(out)
    listing = out / "results/site-files.json"       # written as Snakemake reads the plan

    def snakemake_children():
        found = []
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
                if int(fields[1]) == os.getpid() and b"snakemake" in (stat.parent / "cmdline").read_bytes():
                    found.append(int(stat.parent.name))
            except (OSError, IndexError, ValueError):
                pass
        return found

    for answer in (False, True):
        seen = []

        def checked(seen=seen, answer=answer):
            time.sleep(3)       # longer than Snakemake takes to reach the plan without the gate
            seen.append((bool(snakemake_children()), listing.exists()))
            return answer
        outcome = driver.run_snakemake(2, ["--dry-run"], source=str(source), checked=checked)
        assert seen == [(True, False)], (answer, seen)
        if answer:
            assert outcome.ok and listing.is_file(), outcome.summary
        else:
            assert outcome is None and not listing.exists() and not snakemake_children()
