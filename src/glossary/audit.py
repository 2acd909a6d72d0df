"""The audit of a built site (`make audit`; `python -m glossary.audit --site DIR [--json] [--book PDF]`).

Every page of the site is opened once in Debian's Chromium (one browser, one page object) and
looked at in four passes, 1280 and 390 px wide, in the light and the dark colour scheme:

- width: no page is wider than its viewport (the page's scrollWidth), and no table's caption runs past
  the box its table scrolls in, in any of the four passes;
- stops: no punctuation touching an inline formula ("x.", "x),") starts the line after it, in any pass;
- refs: every number a reference shows ("(N)", "Fig. N", "Table N": a link whose text is a
  number, or a number and the term it belongs to, "(1) of gradient descent") is a number its target
  shows, on the same page or on the linked one;
- numbers: no figure, table or equation number is shown twice on one page;
- qq: no "??" in a page's text, in any SVG's text or in any PDF's (pdftotext);
- math: every MathML script or fraction element (msub, msup, msubsup, munder, mover, munderover,
  mfrac, mroot) has its base and scripts as children, no more and no fewer; every table cell of a
  formula sits as its column says (a matrix's entries centred, an align's columns at the relation);
- contrast: in the dark scheme, each drawn figure (an `img` of an SVG) keeps its strokes at
  3:1 or more against its background, measured on its screenshot (glossary.auditpage);
- tex: no TeX in a page's <title>, descriptions, alt texts or ARIA labels, nor in terms.json
  (but its BibTeX) or llms.txt;
- article: an "a" or "an" just before a link that spells out a term's first use agrees with its words
  ("a machine learning (ML) method" where the authors wrote "an \\gls{ml} method" for their book's "an
  ML method": glossary.texprose.article_for); their own words before a term's usual form are theirs;
- cite: a citation stands a space apart from the word before it ("w [2]", not "w[2]"), and one taken
  out of a summary or a quote leaves no space before the stop ("information .") nor a parenthesis of
  connecting words alone ("(see )"), outside formulas;
- captions: a term page labels its figures as its PDF does (the word and the number, "Fig. 1", which the
  dictionary's main file may set: \\captionsetup[figure]{name=Fig.}), each at the start of a line of the PDF;
- share: at 1280 px, a photo shows at the share of the line its source gives it, and a side-by-side
  panel's display formula (a minipage's) does not scroll in its panel;
- axe: no axe-core violation, at 1280 px, in both schemes;
- fidelity (with --book): each term's words against the same entry of the authors' book
  (glossary.fidelity): median at least 0.98, minimum at least 0.9.

It prints each check's figures, then every failure as `page: what` (the first 50; --show N),
and exits 1 if there is any.  Chromium comes from Debian (apt-get install chromium-headless-shell), axe-core from
npm (`make test-setup`).
"""
import argparse
import json
import multiprocessing
import os
import re
import subprocess
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path
from statistics import median
from urllib.parse import unquote, urlsplit

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import sync_playwright

from glossary import auditpage, fidelity, texprose

PASSES = ((1280, "light"), (390, "light"), (390, "dark"), (1280, "dark"))
HEIGHT = 900
# TeX a reader should never see: a control word or symbol, a braced sub- or superscript, or the input
# of TeX's dashes and quotes (Karush--Kuhn--Tucker, ``word'').
TEX = re.compile(r"\\[A-Za-z]+|\\[,;:!{}|]|[_^]\{|(?<=\w)--(?=\w)|``")
MIN_CONTRAST = 3.0
FIDELITY_MEDIAN, FIDELITY_MIN = 0.98, 0.9
CHECKS = ("load", "width", "stops", "refs", "numbers", "qq", "math", "contrast", "tex", "article", "cite", "share",
          "captions", "axe", "fidelity")
# A term's page, in any edition (de/terms/x.html), whose PDF lies beside it.
TERM_PAGE = re.compile(r"(?:[^/]+/)?terms/[^/]+\.html")
# The article a link to a term follows, and what a citation may follow without a space.
ARTICLE = re.compile(r"(?:^|[^\w\\])([Aa]n?)\s+$")
CITE_AFTER = "([\u00a0\u2014\u2013-/"
# How far a photo's shown share of its line may be from its source's (pixels round).
SHARE_SLACK = 0.02


class NoSuchPage(Exception):
    """A page named to the audit (--page) that the site does not have."""


def pages_of(site):
    """Every HTML page of the site, relative to it, sorted."""
    return sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html"))


def tex_in(text):
    """The first piece of TeX in text, or None."""
    m = TEX.search(text or "")
    return m.group(0) if m else None


def snippet(text, at, width=40):
    return " ".join(text[max(0, at - width):at + width].split())


class Audit:
    def __init__(self, site):
        self.site = Path(site).resolve()
        self.failures = []          # (check, page, what)
        self.targets = {}           # {page: {id: [[kind, number], ...]}}
        self.unseen = set()         # the pages not looked at (run's `pages`), whose targets are unknown
        self.left_out = 0           # references to those, not compared
        self.refs = []              # (page, ref)
        self.wide = Counter()       # {"390 light": pages}
        self.stranded = Counter()   # {"390 light": stops}
        self.contrasts = []         # (contrast, page, src)
        self.axe = Counter()
        self.tex_pages, self.qq, self.tex_files = set(), Counter(), Counter()
        self.malformed, self.math_pages = 0, 0     # MathML elements with the wrong children, pages
        self.duplicates, self.pages, self.files = 0, 0, Counter()
        self.captions = {}          # {term page: the labels of its figures' captions, "Fig. 1."}
        # the first-use forms that differ from the later ones ("machine learning (ML)"), casefolded
        self.first_forms = {forms[first].casefold() for forms in fidelity.site_forms(self.site).values()
                            for first, later in (("first", "text"), ("firstplural", "plural"))
                            if forms.get(first) and forms[first] != forms.get(later)}

    def fail(self, check, page, what):
        self.failures.append((check, page, what))

    # --- the pages, in the browser ----------------------------------------------------------

    def browse(self, pages, axe=True, jobs=1):
        """Every page through look(), in `jobs` processes (each its own Chromium), then recorded."""
        jobs = min(jobs, len(pages))
        if jobs > 1:
            with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn")) as pool:
                shares = pool.map(look, [self.site] * jobs, [pages[i::jobs] for i in range(jobs)], [axe] * jobs)
                results = {r["name"]: r for share in shares for r in share}
            results = [results[name] for name in pages]
        else:
            results = look(self.site, pages, axe)
        for result in results:
            self.record(result)
        self.pages = len(pages)

    def record(self, result):
        name = result["name"]
        if result["error"]:
            self.fail("load", name, f"not audited: {result['error']}")
            return
        self.seen(name, result["found"])
        for width, scheme, wide in result["wide"]:
            self.wide[f"{width} {scheme}"] += 1
            at = f" ({wide['culprit']} ends at {wide['right']} px)" if wide["culprit"] else ""
            self.fail("width", name, f"{wide['wide']} px wide at {width} px, {scheme}{at}")
        for width, scheme, caption in result["cut"]:
            self.fail("width", name, f"the caption {caption!r} runs past its table's box at {width} px, {scheme}: "
                      f"its end shows only when the table is scrolled")
        for width, scheme, stop in result.get("stranded", []):
            self.stranded[f"{width} {scheme}"] += 1
            self.fail("stops", name, f"{stop!r} starts a line at {width} px, {scheme}")
        for scheme, found in result["axe"].items():
            self.axe[scheme] += len(found)
            for line in found:
                self.fail("axe", name, f"axe-core, {scheme}: {line}")
        for src, ratio, stroke, background in result["contrasts"]:
            self.contrasts.append((ratio, name, src))
            if ratio < MIN_CONTRAST:
                self.fail("contrast", name, f"{src}: strokes at {ratio:.2f}:1 against their background in the "
                          f"dark scheme (rgb{tuple(stroke)} on rgb{tuple(background)}; at least 3:1)")

    def seen(self, name, found):
        """Record what collect() found on a page; fail its numbers twice, its TeX and its "??"."""
        self.targets[name] = found["targets"]
        if found["captions"]:
            self.captions[name] = found["captions"]
        self.refs += [(name, ref) for ref in found["refs"]]
        for (kind, number), n in sorted(Counter(map(tuple, found["numbers"])).items()):
            if n > 1:
                self.fail("numbers", name, f"{kind} {number} is numbered {n} times on the page")
        self.duplicates += any(n > 1 for n in Counter(map(tuple, found["numbers"])).values())
        texts = ([("<title>", found["title"])] + [(f"meta {what}", content) for what, content in found["meta"]]
                 + [(f"alt text of {src}", alt) for src, alt in found["alts"]]
                 + [("aria-label", label) for label in found["labels"]])
        for where, text in texts:
            tex = tex_in(text)
            if tex:
                self.tex_pages.add(name)
                self.fail("tex", name, f"TeX {tex!r} in the {where}: {snippet(text, text.find(tex))!r}")
        if found["qq"] is not None:
            self.qq["pages"] += 1
            self.fail("qq", name, f"'??' in the text: {found['qq']!r}")
        for before, words in found["articles"]:
            m, wanted = ARTICLE.search(before), texprose.article_for(words)
            if m and wanted and m.group(1).lower() != wanted and words.casefold() in self.first_forms:
                self.fail("article", name, f"{m.group(1)!r} before the term {words!r}: {wanted!r} reads right")
        for src, share, shown in found["shares"]:      # measured at 1280 px, where the column is wide
            if abs(shown - share) > SHARE_SLACK:
                self.fail("share", name, f"the photo {src} shows at {shown:.2f} of its line, where its source "
                          f"gives {share:g} (width={share:g}\\textwidth)")
        for text, box, wide in found["panels"]:
            self.fail("share", name, f"the formula {text!r} scrolls in its side-by-side panel at 1280 px ({wide} px "
                      f"in {box} px): the book lets it stick out of its minipage")
        for before, label in found["cites"]:
            if before == "\u0000" or before and not before[-1].isspace() and before[-1] not in CITE_AFTER:
                self.fail("cite", name, f"citation {label} glued to the word before it: {before!r}")
        for text in found["leftovers"]:
            self.fail("cite", name, f"what a citation taken out left: {text!r}")
        self.malformed += len(found["malformed"])
        self.math_pages += bool(found["malformed"])
        for what in found["malformed"]:
            self.fail("math", name, f"MathML {what}")
        for what in found["misaligned"]:
            self.fail("math", name, what)

    def check_refs(self):
        """Every reference's number against the numbers its target shows."""
        for name, ref in self.refs:
            parts = urlsplit(ref["href"])
            target_page = name
            if parts.scheme == "file":
                try:
                    target_page = Path(unquote(parts.path)).resolve().relative_to(self.site).as_posix()
                except ValueError:
                    target_page = unquote(parts.path)
            fragment = unquote(parts.fragment)
            where = f"reference {ref['text']!r} to {target_page if target_page != name else ''}#{fragment}"
            targets = self.targets.get(target_page)
            if targets is None and target_page in self.unseen:
                self.left_out += 1  # a page left out of this audit (--page): its numbers are unknown here
                continue
            if targets is None or fragment not in targets:
                self.fail("refs", name, f"{where}: no such target")
                continue
            shown = targets[fragment]
            kind = ("equation" if ref["text"].startswith("(") else
                    "figure" if re.search(r"Fig(?:ure|s?\.)?\s*$", ref["before"], re.I) else
                    "table" if re.search(r"Table\s*$", ref["before"], re.I) else None)
            if not shown:
                self.fail("refs", name, f"{where}: the target shows no number")
            elif not any(n == ref["n"] and (kind is None or k == kind) for k, n in shown):
                self.fail("refs", name, f"{where}: the target shows {', '.join(f'{k} {n}' for k, n in shown)}")

    # --- the files, without the browser -------------------------------------------------------

    def check_files(self):
        """'??' in every PDF (pdftotext) and SVG text; TeX in terms.json and llms.txt."""
        pdfs = sorted(self.site.rglob("*.pdf"))
        svgs = sorted(self.site.rglob("*.svg"))
        self.files.update(pdfs=len(pdfs), svgs=len(svgs))
        with ThreadPoolExecutor(max_workers=4) as pool:
            for path, text in zip(pdfs, pool.map(pdf_text, pdfs)):
                self.question_marks(path, text, "pdfs")
                self.caption_labels(path, text)
        for path in svgs:
            text = " ".join(re.findall(r"<text\b[^>]*>(.*?)</text>", path.read_text(errors="replace"), re.S))
            self.question_marks(path, re.sub(r"<[^>]+>", "", text), "svgs")
        terms = self.site / "terms.json"
        if terms.is_file():
            for term in json.loads(terms.read_text(encoding="utf-8")).get("terms", []):
                found = [(field, text) for field, text in strings(term) if field != "bibtex" and tex_in(text)]
                self.tex_files["terms.json"] += bool(found)
                for field, text in found[:1]:
                    tex = tex_in(text)
                    self.fail("tex", "terms.json", f"term {term.get('slug', '?')!r}, {field}: TeX {tex!r} in "
                              f"{snippet(text, text.find(tex))!r}")
        llms = self.site / "llms.txt"
        if llms.is_file():
            for i, line in enumerate(llms.read_text(encoding="utf-8").splitlines(), 1):
                tex = tex_in(line)
                if tex:
                    self.tex_files["llms.txt"] += 1
                    self.fail("tex", f"llms.txt:{i}", f"TeX {tex!r} in {snippet(line, line.find(tex))!r}")

    def caption_labels(self, path, text):
        """A term page's figure labels ("Fig. 1.") against its PDF's: each word and number at a line's start."""
        page = path.relative_to(self.site).with_suffix(".html").as_posix()
        labels = self.captions.get(page, []) if TERM_PAGE.fullmatch(page) else []
        self.files["captions"] += len(labels)
        for label in labels:
            word, _, number = label.rstrip(".:").rpartition(" ")
            # then the caption package's separator: period, colon, a space, a quad, an en dash or a new line
            if not re.search(rf"^{re.escape(word)} {re.escape(number)}(?:[.:]|\s|–|$)", text, re.M):
                shown = sorted(set(re.findall(rf"^(\S+\.? {re.escape(number)}[.:])", text, re.M)))
                self.fail("captions", page, f"its caption label {label!r} is not its PDF's"
                          + (f" ({', '.join(shown)})" if shown else ""))

    def question_marks(self, path, text, kind):
        at = text.find("??")
        if at >= 0:
            self.qq[kind] += 1
            self.fail("qq", path.relative_to(self.site).as_posix(), f"'??' in its text: {snippet(text, at)!r}")

    # --- the figures --------------------------------------------------------------------------

    def figures(self):
        lowest = min(self.contrasts, default=None)
        refs_failed = sum(1 for check, _, _ in self.failures if check == "refs")
        return {
            "pages": self.pages, "pdfs": self.files["pdfs"], "svgs": self.files["svgs"],
            "wider": {f"{w} {s}": self.wide[f"{w} {s}"] for w, s in PASSES},
            "stranded": {f"{w} {s}": self.stranded[f"{w} {s}"] for w, s in PASSES},
            "refs": {"shown": len(self.refs), "mismatched": refs_failed, "left_out": self.left_out},
            "duplicates": self.duplicates,
            "qq": {"pages": self.qq["pages"], "svgs": self.qq["svgs"], "pdfs": self.qq["pdfs"]},
            "math": {"malformed": self.malformed, "pages": self.math_pages},
            "contrast": {"figures": len(self.contrasts), "lowest": round(lowest[0], 2) if lowest else None,
                         "lowest_at": f"{lowest[1]}: {lowest[2]}" if lowest else None,
                         "below": sum(1 for c, _, _ in self.contrasts if c < MIN_CONTRAST)},
            "tex": {"pages": len(self.tex_pages), "terms.json": self.tex_files["terms.json"],
                    "llms.txt": self.tex_files["llms.txt"]},
            "axe": {"light": self.axe["light"], "dark": self.axe["dark"]},
            "captions": {"labels": self.files["captions"],
                         "unlike": sum(1 for check, _, _ in self.failures if check == "captions")},
        }


def look(site, pages, axe=True):
    """What each page shows, in one Chromium and one page object: collect() at 1280 px, light; the
    width in each pass; axe-core at 1280 px (every rule in the light scheme, the contrast rule in the
    dark one: the only rule the scheme can change); the drawn figures' contrast at 1280 px, dark."""
    results = []
    with sync_playwright() as p:
        browser = auditpage.launch(p)
        try:
            page = browser.new_context(viewport={"width": 1280, "height": HEIGHT}).new_page()
            for n, name in enumerate(pages, 1):
                if n % 100 == 0:
                    print(f"audit: {n} of {len(pages)} pages looked at ({name})", file=sys.stderr, flush=True)
                result = {"name": name, "error": None, "wide": [], "stranded": [], "cut": [], "axe": {},
                          "contrasts": []}
                try:
                    visit(page, Path(site) / name, result, axe)
                except PlaywrightError as err:
                    result["error"] = " ".join(str(err).split())[:200]
                results.append(result)
        finally:
            browser.close()
    return results


def visit(page, path, result, axe):
    page.emulate_media(color_scheme="light")
    page.set_viewport_size({"width": 1280, "height": HEIGHT})
    page.goto(path.as_uri(), wait_until="load")
    page.evaluate(auditpage.IMAGES_LOADED)
    result["found"] = auditpage.collect(page)
    for width, scheme in PASSES:
        page.set_viewport_size({"width": width, "height": HEIGHT})
        page.emulate_media(color_scheme=scheme)
        wide = auditpage.too_wide(page)
        if wide:
            result["wide"].append((width, scheme, wide))
        result["stranded"] += [(width, scheme, stop) for stop in auditpage.stranded(page)]
        result["cut"] += [(width, scheme, caption) for caption in auditpage.cut_captions(page)]
        if width == 1280 and axe:
            result["axe"][scheme] = auditpage.axe_violations(page, None if scheme == "light" else ["color-contrast"])
        if (width, scheme) == (1280, "dark"):
            result["contrasts"] = auditpage.figure_contrasts(page)


def strings(value, field=""):
    """(field, text) of every string in a JSON value, by the name of the key that holds it."""
    if isinstance(value, str):
        yield field, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from strings(item, key)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item, field)


def pdf_text(path):
    run = subprocess.run(["pdftotext", "-q", str(path), "-"], capture_output=True, text=True, errors="replace")
    return run.stdout


def fidelity_figures(audit, site, book):
    """The fidelity figures (glossary.fidelity) of the site against the authors' book; a term
    below the minimum, or a median below its target, is a failure."""
    scores = fidelity.compare(site, book)
    ratios = sorted((s["ratio"], slug) for slug, s in scores.items() if s["found"])
    values = [r for r, _ in ratios]
    figures = {"terms": len(scores), "min": round(values[0], 3) if values else None,
               "median": round(median(values), 3) if values else None,
               "lowest": [(slug, round(r, 3)) for r, slug in ratios[:10]],
               "not in the book": sorted(slug for slug, s in scores.items() if not s["found"])}
    for ratio, slug in ratios:
        if ratio < FIDELITY_MIN:
            audit.fail("fidelity", scores[slug]["page"], f"its words are {ratio:.3f} like the book's entry "
                       f"(at least {FIDELITY_MIN})")
    if values and median(values) < FIDELITY_MEDIAN:
        audit.fail("fidelity", "terms", f"median likeness {median(values):.3f} (at least {FIDELITY_MEDIAN})")
    return figures


def run(site, book=None, axe=True, jobs=1, pages=None):
    """Audit the site, or only its `pages` (paths relative to it) in the browser: (figures, failures
    [(check, page, what)])."""
    start = time.perf_counter()
    audit = Audit(site)
    if not (audit.site / "index.html").is_file():
        raise auditpage.MissingTool(f"{audit.site}: no index.html; build the site first (make site), or name it "
                                    "with SITE=<folder>")
    every = pages_of(audit.site)
    if pages:
        named = [Path(page).as_posix() for page in pages]
        missing = [page for page in named if page not in every]
        if missing:
            raise NoSuchPage(f"{audit.site}: no page {', '.join(missing)} (name a page as terms/vector.html, "
                             "relative to the site)")
        audit.unseen = set(every) - set(named)
        every = [page for page in every if page in named]
    audit.browse(every, axe=axe, jobs=jobs)
    audit.check_refs()
    audit.check_files()
    figures = audit.figures()
    if book:
        figures["fidelity"] = fidelity_figures(audit, audit.site, book)
    figures["seconds"] = round(time.perf_counter() - start, 1)
    return figures, audit.failures


def report(site, figures, failures, show=50):
    """The figures, then the failures as `page: what` lines (the first `show`)."""
    f = figures
    lines = [f"audit of {site}: {f['pages']} pages at 1280 and 390 px, light and dark; {f['pdfs']} PDFs, "
             f"{f['svgs']} SVGs; {f['seconds']:.0f} s",
             "  pages wider than the viewport: " + ", ".join(f"{k.replace(' ', ' px ')} {v}"
                                                             for k, v in f["wider"].items()),
             "  stops starting a line after their formula: " + ", ".join(f"{k.replace(' ', ' px ')} {v}"
                                                                          for k, v in f["stranded"].items()),
             f"  references: {f['refs']['shown']} numbers shown, {f['refs']['mismatched']} not what their target shows"
             + (f", {f['refs']['left_out']} to pages not looked at (not compared)" if f["refs"]["left_out"] else ""),
             f"  pages showing a number twice: {f['duplicates']}",
             f"  '??': {f['qq']['pages']} pages, {f['qq']['svgs']} SVGs, {f['qq']['pdfs']} PDFs",
             f"  MathML scripts with the wrong children: {f['math']['malformed']} on {f['math']['pages']} pages",
             f"  dark-scheme strokes of {f['contrast']['figures']} drawn figures: lowest "
             + (f"{f['contrast']['lowest']:.2f}:1 ({f['contrast']['lowest_at']})" if f["contrast"]["lowest"] else "-")
             + f", {f['contrast']['below']} below {MIN_CONTRAST:.0f}:1",
             f"  TeX: {f['tex']['pages']} pages (title, descriptions, alt texts), {f['tex']['terms.json']} terms "
             f"in terms.json, {f['tex']['llms.txt']} lines of llms.txt",
             f"  axe-core violations: {f['axe']['light']} light, {f['axe']['dark']} dark",
             f"  figure captions: {f['captions']['labels']} labels on term pages, {f['captions']['unlike']} not "
             "their PDF's"]
    if "fidelity" in f:
        fid = f["fidelity"]
        lines.append(f"  words like the authors' book: {fid['terms']} terms, median {fid['median']}, minimum "
                     f"{fid['min']}; lowest: " + ", ".join(f"{slug} {r}" for slug, r in fid["lowest"]))
    counts = Counter(check for check, _, _ in failures)
    lines.append(f"failures: {len(failures)}" + (" (" + ", ".join(f"{c} {counts[c]}" for c in CHECKS if counts[c])
                                                 + ")" if failures else ""))
    lines += [f"{page}: {what}" for _, page, what in failures[:show]]
    if len(failures) > show:
        lines.append(f"... and {len(failures) - show} more (--show N, or --json for all)")
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m glossary.audit", description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", default="site", help="the built site's folder (default: site)")
    parser.add_argument("--book", help="the authors' book (PDF): compare each term's words with its entry")
    parser.add_argument("--json", action="store_true", help="the figures and every failure as JSON")
    parser.add_argument("--show", type=int, default=50, help="failures printed (default 50)")
    parser.add_argument("--no-axe", dest="axe", action="store_false", help="skip axe-core")
    parser.add_argument("--jobs", type=int, default=min(4, os.cpu_count() or 1),
                        help="browsers in parallel (default: the CPUs, at most 4)")
    parser.add_argument("--page", action="append", dest="pages", metavar="PAGE",
                        help="look at this page only (terms/vector.html; again for more): after an edit, its "
                        "pages; the files' checks still cover the whole site")
    args = parser.parse_args(argv)
    try:
        figures, failures = run(args.site, args.book, axe=args.axe, jobs=args.jobs, pages=args.pages)
    except (auditpage.MissingTool, fidelity.BookError, NoSuchPage) as err:
        print(f"audit: {err}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps({"site": str(args.site), "figures": figures, "failures": [
            {"check": c, "page": p, "what": w} for c, p, w in failures]}, indent=1, ensure_ascii=False))
    else:
        print(report(args.site, figures, failures, args.show))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
