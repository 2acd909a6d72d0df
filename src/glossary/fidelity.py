"""How faithful each term's page is to the same entry of the authors' own book (`latexmk -pdf` of the
dictionary's main file): `python -m glossary.fidelity --site DIR --book PDF [--json]` (or
scripts/fidelity.py), and the audit's `--book` (glossary.audit).

The book is read with poppler's `pdftohtml -xml`, which gives each run of text with its font: an
entry starts at a bold run, at the start of a line and in the body's size, whose words are a term's
title (its page's <h1>), and ends at the next such heading or at a larger heading (a section's
title, the index).  Math is left out on both sides as well as can be: in the book, the runs set in
math fonts (CMMI, CMSY, CMEX, MSBM, ...); on the page, each <math> but its \\text{} (mtext) and its
multi-letter names (exp, log); then only words of two letters or more count, so digits, single
letters and symbols fall away on both sides.  The entry's "See also:" paragraph and the page's
(a list of summaries, outside the prose) are left out, as is the page's list of references; the
words inside a page's pictures come from each picture's PDF, read as the book is.

A page is a document of its own, the book one document: where the page's cross-reference prints a
term's first-use form ("probability mass function (pmf)"), the book, which used that term before,
prints its later form ("pmf").  So the page is also read with each such link in its later form (the
site's terms.json has every term's forms), and the closer of the two readings counts.

A term's figure is difflib's ratio of the two word sequences (2 * matches / total words): 1 when the
page says the book's words in the book's order.  A term with no entry in the book (glossaries prints
only the entries a document uses) is listed apart and left out of the minimum and the median.
"""
import argparse
import bisect
import html
import json
import re
import subprocess
import sys
import unicodedata
from collections import Counter
from difflib import SequenceMatcher
from html.parser import HTMLParser
from pathlib import Path
from statistics import median

FONTSPEC = re.compile(r'<fontspec id="(\d+)" size="([\d.]+)" family="([^"]*)"')
TEXT = re.compile(r'<text top="(-?[\d.]+)" left="(-?[\d.]+)" width="[\d.]+" height="([\d.]+)" font="(\d+)">'
                  r'(.*?)</text>')
PAGE = re.compile(r'<page number="(\d+)"')
TAG = re.compile(r"<[^>]+>")
XREF = re.compile(r"([^/#]+)\.html(?:#.*)?")
MATH_FONT = re.compile(r"^(?:CMMI|CMSY|CMEX|MSBM|MSAM|CMBSY|EUFM|EUSM|EUEX|EURM|EURB|RSFS|LASY|STMARY|WASY|BBM|DSROM)",
                       re.I)
BOLD_FONT = re.compile(r"BX|Bold|Demi|Black|Heavy|^CMB\d", re.I)
WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")
JOIN = "\x00"           # a word broken at a line's end by a hyphen, in the book
HEADING, STOP, LINE, PICTURE = "\x01", "\x02", "\x03", "\x04"    # marks in the text: see marked(), Prose
LINK, LINK_END = "\x05", "\x06"   # a cross-reference's text on a page: see Prose
FIRST = 12              # the words that find an entry whose heading the book lacks
# The same word set differently on the two sides: the page's "Figure 1." is the book's "Fig. 1".
SAME = {"figure": "fig", "figures": "figs"}


class BookError(Exception):
    """The book cannot be read, with the fix."""


# --- the book ---------------------------------------------------------------------------------

def runs(pdf):
    """[(page, top, left, height, size, family, text)] of the PDF's runs of text, in reading order."""
    try:
        out = subprocess.run(["pdftohtml", "-xml", "-i", "-stdout", "-q", str(pdf)], capture_output=True,
                             text=True, errors="replace").stdout
    except FileNotFoundError as err:
        raise BookError("pdftohtml is missing; install Debian's poppler-utils (apt-get install poppler-utils)") from err
    fonts = {i: (float(size), family.split("+")[-1]) for i, size, family in FONTSPEC.findall(out)}
    found, page = [], 0
    for line in out.splitlines():
        m = PAGE.match(line)
        if m:
            page = int(m.group(1))
            continue
        m = TEXT.match(line)
        if m:
            top, left, height, font, text = m.groups()
            size, family = fonts.get(font, (0.0, ""))
            found.append((page, float(top), float(left), float(height), size, family,
                          html.unescape(TAG.sub("", text))))
    if not found and not Path(pdf).is_file():
        raise BookError(f"{pdf}: no such file; build the book first (latexmk -pdf <main>.tex)")
    return found


def body_size(found):
    sizes = Counter()
    for *_, size, family, text in found:
        if not MATH_FONT.match(family):
            sizes[size] += len(text)
    return sizes.most_common(1)[0][0] if sizes else 0.0


def starts_line(found, i):
    """Whether run i is the leftmost of its line."""
    page, top, left = found[i][:3]
    j = i - 1
    while j >= 0 and found[j][0] == page and abs(found[j][1] - top) <= 3:
        if found[j][2] < left:
            return False
        j -= 1
    return True


def heading_at(found, i, size):
    """(text, index after it) of the bold run starting a line at i in the body's size, with the math
    and the smaller runs (sub- and superscripts) that follow it on its line, or None."""
    page, top, _, _, run_size, family, _ = found[i]
    if abs(run_size - size) > 1 or not (BOLD_FONT.search(family) or MATH_FONT.match(family)) \
            or not starts_line(found, i):
        return None
    text, j, bold = "", i, False
    while j < len(found) and found[j][0] == page and abs(found[j][1] - top) <= 6 and \
            (BOLD_FONT.search(found[j][5]) or MATH_FONT.match(found[j][5]) or found[j][4] < size - 1):
        bold = bold or bool(BOLD_FONT.search(found[j][5]))
        text += found[j][6]
        j += 1
    return (text, j) if bold else None


def key(text):
    """A title's letters and digits, lowercased, whatever the typography."""
    return "".join(c for c in unicodedata.normalize("NFKC", text).lower() if c.isalnum())


def marked(found, titles):
    """The book as text: each run's words, with a mark where a heading names a term (HEADING slug
    HEADING), where a larger heading stops every entry (STOP), and before each line's first run (LINE);
    runs in math fonts left out."""
    by_key = {}
    for slug, title in titles.items():
        by_key.setdefault(key(title), []).append(slug)
    prefixes = {k[:n] for k in by_key for n in range(1, len(k))}
    size, seen, pieces, i = body_size(found), set(), [], 0
    while i < len(found):
        run = found[i]
        # A larger bold heading (a section's title); a picture's bold letter ("X" at 26 pt) is none.
        if run[4] > size + 1 and any(len(w) > 1 for w in WORD.findall(run[6])) and BOLD_FONT.search(run[5]) \
                and starts_line(found, i):
            pieces.append(f" {STOP} ")
            i += 1
            continue
        heading = heading_at(found, i, size)
        if heading:
            text, after = heading
            if key(text) in prefixes and after < len(found):        # a long name, broken over two lines
                more = heading_at(found, after, size)
                if more and key(text + more[0]) in by_key:
                    text, after = text + more[0], more[1]
            slugs = [s for s in by_key.get(key(text), []) if s not in seen]
            if slugs:
                seen.add(slugs[0])
                pieces.append(f" {HEADING}{slugs[0]}{HEADING} ")
                i = after
                continue
        line = f" {LINE} " if starts_line(found, i) else ""
        if not MATH_FONT.match(run[5]):
            pieces.append((line, run))
        elif line:
            pieces.append(line)
        i += 1
    out, glued = "", False
    for n, piece in enumerate(pieces):
        if isinstance(piece, str):
            out, glued = out + piece, False
            continue
        mark, run = piece
        nxt = pieces[n + 1] if n + 1 < len(pieces) else None
        broken = run[6].endswith("-") and isinstance(nxt, tuple) and bool(nxt[0])
        out += ("" if glued else mark) + (run[6][:-1] + JOIN if broken else run[6] + " ")
        glued = broken
    return out


def entries(found, titles, order=(), first=None, vocabulary=frozenset()):
    """{slug: the words of its entry} of the book's entries of the terms `titles` ({slug: title}).  An
    entry starts at its heading; one whose heading the book lacks (a build that lost them) starts at
    the line that starts with `first[slug]` (its page's first words), looked for between the entries
    before and after it in the book's `order`; each ends where the next starts, or at a larger heading,
    and its "See also" paragraph is left out."""
    stream, starts, stops, lines = book_words(found, titles, vocabulary)
    located, scores = dict(starts), {}
    for n, slug in enumerate(order):
        if slug in starts or not (first or {}).get(slug):
            continue
        lo = max([starts[s] for s in order[:n] if s in starts], default=0)
        hi = min([starts[s] for s in order[n + 1:] if s in starts and starts[s] > lo], default=len(stream))
        at, score = first_words_at(stream, lines, first[slug], lo, hi)
        holder = next((s for s, a in located.items() if a == at), None) if at is not None else None
        if at is not None and (holder is None or scores.get(holder, len(first[slug]) + 1) < score):
            located.pop(holder, None)
            located[slug], scores[slug] = at, score
    bounds = sorted(set(located.values()) | set(stops) | {len(stream)})
    out = {}
    for slug, at in located.items():
        end = bounds[bisect.bisect_right(bounds, at)]
        also = [i for i in range(at, end - 1) if i in lines and stream[i:i + 2] == ["see", "also"]]
        out[slug] = stream[at:also[-1] if also else end]
    return out


def book_words(found, titles, vocabulary=frozenset()):
    """(the book's words, {slug: where its heading's entry starts}, [where a larger heading is],
    {where a line starts}) of marked()'s text."""
    stream, starts, stops, lines = [], {}, [], set()
    for piece in marked(found, titles).split():
        if piece.startswith(HEADING):
            starts[piece.strip(HEADING)] = len(stream)
        elif piece == STOP:
            stops.append(len(stream))
        elif piece == LINE:
            lines.add(len(stream))
        else:
            stream += words(piece, vocabulary)
    return stream, starts, stops, lines


def first_words_at(stream, lines, first, lo, hi):
    """(start, score) of the line in stream[lo:hi] starting with one of the words `first` whose first
    words are most like them (half of them, and two at least), or (None, 0)."""
    need, wanted, best, at = min(len(first), max(2, len(first) / 2)), Counter(first), 0, None
    for i in sorted(n for n in lines if lo < n < hi):
        if stream[i] not in wanted or stream[i:i + 2] == ["see", "also"]:
            continue
        score = sum((wanted & Counter(stream[i:i + len(first)])).values())
        if score >= need and score > best:
            best, at = score, i
    return at, best


class Prose(HTMLParser):
    """The words a term's page shows in its prose (<div class="prose">, less its references), with
    formulas reduced to their text and multi-letter names, a mark where each picture is; its <h1>."""

    SKIP = {"annotation", "script", "style"}
    VOID = {"img", "br", "hr", "input", "meta", "link", "source", "wbr", "col", "area", "embed"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.parts, self.pictures, self.title, self.h1 = [], [], [], "", 0
        self.links = []     # the slug each cross-reference names, by its number in the marks

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        classes = (attrs.get("class") or "").split()
        if tag == "h1" and not self.title:
            self.h1 = 1
        elif self.h1 and tag in self.SKIP:
            self.h1 += 1
        if not self.stack:
            if tag == "div" and "prose" in classes:
                self.stack.append(("div", "text"))
            return
        if tag == "img":
            self.pictures.append(attrs.get("src") or "")
            self.parts.append(f" {PICTURE}{len(self.pictures) - 1} ")
        if tag in self.VOID:
            return
        target = XREF.fullmatch(attrs.get("href") or "") if tag == "a" and "xref" in classes else None
        if target:
            self.links.append(target.group(1))
            self.parts.append(f" {LINK}{len(self.links) - 1} ")
            tag = "xref"
        parent = self.stack[-1][1]
        what = ("skip" if tag in self.SKIP or "references" in classes or parent == "skip" else
                "math" if tag == "math" or parent == "math" else "text")
        if what == "math" and tag in ("mtext", "mi", "mo"):
            what = "text" if tag == "mtext" else "name"
        self.stack.append((tag, what))
        self.parts.append(" ")

    def handle_endtag(self, tag):
        if tag == "h1" or (self.h1 > 1 and tag in self.SKIP):
            self.h1 -= 1
        if tag == "a" and self.stack and self.stack[-1][0] == "xref":
            tag = "xref"
        if tag in self.VOID or tag not in (t for t, _ in self.stack):
            return
        while self.stack and self.stack.pop()[0] != tag:
            pass
        self.parts.append(f" {LINK_END} " if tag == "xref" else " ")

    def handle_data(self, data):
        if self.h1 == 1:
            self.title += data
        what = self.stack[-1][1] if self.stack else None
        if what == "text" or (what == "name" and len(data.strip()) > 1):
            self.parts.append(data)


def page(path, forms=None):
    """(title, prose text, the same with each first-use cross-reference in its later form) of a term's
    page, each picture's words (from its PDF) where it is; `forms` {slug: glossaries' forms}."""
    prose = Prose()
    prose.feed(Path(path).read_text(encoding="utf-8"))
    text = "".join(prose.parts)
    for n, src in enumerate(prose.pictures):
        pdf = (Path(path).parent / src).with_suffix(".pdf")
        drawn = pdf_words(pdf) if src.endswith(".svg") and pdf.is_file() else ""
        text = text.replace(f" {PICTURE}{n} ", f" {drawn} ", 1)

    def later(m):
        printed, known = m.group(2), (forms or {}).get(prose.links[int(m.group(1))], {})
        for first, then in (("first", "text"), ("firstplural", "plural")):
            if known.get(first) and known.get(then) and words(printed) == words(known[first]):
                return f" {known[then]} "
        return f" {printed} "
    link = re.compile(f"{LINK}(\\d+) (.*?){LINK_END}", re.S)
    return (" ".join(prose.title.split()), link.sub(lambda m: f" {m.group(2)} ", text), link.sub(later, text))


def site_forms(site):
    """{slug: forms} of the site's terms.json ({} without one)."""
    path = Path(site) / "terms.json"
    if not path.is_file():
        return {}
    terms = json.loads(path.read_text(encoding="utf-8")).get("terms", [])
    return {Path(t["markdown"]).stem: t.get("forms") or {} for t in terms if t.get("markdown")}


def pdf_words(pdf):
    """The text of a whole PDF (a picture's), math runs left out."""
    return re.sub(f"[{HEADING}{STOP}{LINE}]", " ", marked(runs(pdf), {}))


def book_order(site, slugs):
    """The terms in the book's order: by section (the index's list), then as each section page lists
    them; any other term after them."""
    order = []
    index = site / "index.html"
    sections = re.findall(r'href="sections/([^"#]+)\.html"', index.read_text(encoding="utf-8")) \
        if index.is_file() else []
    for section in dict.fromkeys(sections):
        path = site / "sections" / f"{section}.html"
        if path.is_file():
            order += re.findall(r'href="\.\./terms/([^"#/]+)\.html"', path.read_text(encoding="utf-8"))
    order = [s for s in dict.fromkeys(order) if s in slugs]
    return order + sorted(set(slugs) - set(order))


# --- the comparison ---------------------------------------------------------------------------

def words(text, vocabulary=frozenset()):
    """The text's words of two letters or more, lowercased; a word the book broke at a line's end is
    one word if the page has it, else its two parts."""
    text = unicodedata.normalize("NFKC", text).lower()
    out = []
    for piece in text.split():
        if JOIN in piece:
            whole = piece.replace(JOIN, "")
            piece = whole if all(w in vocabulary for w in WORD.findall(whole)) else piece.replace(JOIN, " ")
        out += [SAME.get(w, w) for w in WORD.findall(piece) if len(w) > 1]
    return out


def ratio(page_words, book_words):
    return SequenceMatcher(None, page_words, book_words, autojunk=False).ratio() if page_words or book_words else 1.0


def compare(site, book):
    """{slug: {"ratio", "found", "page", "page_words", "book_words"}} of every term page of the site."""
    site = Path(site)
    pages = {p.stem: p for p in sorted((site / "terms").glob("*.html"))}
    titles, ours, later = {}, {}, {}
    forms = site_forms(site)
    for slug, path in pages.items():
        titles[slug], text, text_later = page(path, forms)
        ours[slug], later[slug] = words(text), words(text_later)
    vocabulary = frozenset(w for ws in ours.values() for w in ws)
    first = {slug: ws[:FIRST] for slug, ws in ours.items() if ws}
    found = entries(runs(book), titles, book_order(site, pages), first, vocabulary)
    if pages and not found:
        raise BookError(f"{book}: no entry of the site's terms found (no bold heading names a term's title); "
                        "is it the dictionary's book?")
    return {slug: {"ratio": max(ratio(ours[slug], found[slug]), ratio(later[slug], found[slug]))
                   if slug in found else 0.0, "found": slug in found,
                   "page": pages[slug].relative_to(site).as_posix(), "page_words": len(ours[slug]),
                   "book_words": len(found.get(slug, ()))} for slug in pages}


def summary(scores):
    """The figures of the terms the book has; those it lacks listed apart."""
    values = sorted((s["ratio"], slug) for slug, s in scores.items() if s["found"])
    missing = sorted(slug for slug, s in scores.items() if not s["found"])
    if not values:
        return {"terms": len(scores), "found": 0, "not in the book": missing}
    return {"terms": len(scores), "found": len(values),
            "min": round(values[0][0], 4), "median": round(median(r for r, _ in values), 4),
            "lowest": [(slug, round(r, 4)) for r, slug in values[:10]], "not in the book": missing}


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m glossary.fidelity", description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", required=True, help="the built site's folder")
    parser.add_argument("--book", required=True, help="the authors' book (PDF)")
    parser.add_argument("--json", action="store_true", help="every term's figure as JSON")
    args = parser.parse_args(argv)
    try:
        scores = compare(args.site, args.book)
    except BookError as err:
        print(f"fidelity: {err}", file=sys.stderr)
        return 2
    s = summary(scores)
    if args.json:
        print(json.dumps({"summary": s, "terms": scores}, indent=1, ensure_ascii=False))
        return 0
    print(f"{s['terms']} terms, {s.get('found', 0)} found in the book; words like the book's entry: "
          f"median {s.get('median')}, minimum {s.get('min')}")
    for slug, r in s.get("lowest", []):
        sc = scores[slug]
        print(f"  {r:.4f}  {slug} ({sc['page_words']} words on the page, {sc['book_words']} in the book)")
    if s["not in the book"]:
        print(f"  not in the book (an entry it never uses): {', '.join(s['not in the book'])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
