"""The link check of the staged site (rule `links`, `make links`).

Every address the site holds is resolved against the site's own files: each
`href` and `src` of every HTML page (a `#fragment` against the ids of the target
page), every address in terms.json, sitemap.xml and llms.txt, and every link
annotation of every PDF (/URI actions, and internal destinations against the
PDF's own).  Absolute addresses under config.yaml's `site_url` are the site's
own files; any other address with a scheme leaves the site and is only listed,
never fetched (no network at build time).

A dead internal link is told in one self-contained line: the file that holds it,
the link, why it is dead and the source that wrote it: the entry's entry.md for a
link in a page's prose, else the template whose attribute has the link's text or
pattern, else the script of the rule that writes the file.
"""
import argparse
import difflib
import hashlib
import html
import io
import json
import os
import posixpath
import re
import time
import zlib
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pikepdf
import yaml

from glossary import jsonio, publish

# Addresses that point at nothing to fetch or check.
INERT_SCHEMES = ("data", "javascript", "about")
# A string of terms.json taken as an address: a URL, or a relative path ending in a file extension.
ADDRESS = re.compile(r"^(?:[a-z][a-z0-9+.-]*:\S+|[\w.~%+-]+(?:/[\w.~%+-]+)*\.[A-Za-z][A-Za-z0-9]*(?:#\S*)?)$")
# llms.txt: Markdown links, autolinks and bare URLs.
MARKDOWN_LINK = re.compile(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)|<([a-z][a-z0-9+.-]*:[^>\s]+)>"
                           r"|(?<![(<\w])(https?://[^\s)>\]]+)")
SITEMAP_LOC = re.compile(r"<loc>\s*([^<\s]+)\s*</loc>")
TEMPLATE_ATTR = re.compile(r"\b(?:href|src)=\"([^\"]*)\"")
JINJA = re.compile(r"({{.*?}}|{%.*?%})")
# The site's text files with addresses, and the script of the rule that writes each.
TEXT_FILES = {"terms.json": "scripts/catalog_pages.py", "sitemap.xml": "scripts/sitemap.py",
              "llms.txt": "scripts/catalog_pages.py"}
ENTRY_FILE = re.compile(r"^terms/([a-z0-9-]+)(?:\.[a-z]+$|/)")


class Dead:
    """A dead internal link: where it is, what it says, why it is dead, and who wrote it."""

    def __init__(self, file, address, reason, source):
        self.file, self.address, self.reason, self.source = file, address, reason, source

    def line(self):
        return f"{self.file}: dead link {self.address!r}: {self.reason} (written by {self.source})"

    def __repr__(self):
        return f"Dead({self.line()!r})"


class Result:
    def __init__(self):
        self.files, self.checked, self.dead, self.external = 0, 0, [], set()

    def told(self, where="the site"):
        """The lines of a failed check for its job's log: every dead link, then, of several, one line with
        the first (the last line is what a build that tells several failed jobs shows of each)."""
        first = [f"{len(self.dead)} dead links, the first: {self.dead[0].line()}"] if len(self.dead) > 1 else []
        return [f"links: {len(self.dead)} dead of {self.checked} internal links in {where}:",
                *(dead.line() for dead in self.dead), *first]

    def report(self):
        """The rule's report: what was checked, and every address that leaves the site."""
        head = (f"links: {self.checked} internal links in {self.files} files, {len(self.dead)} dead; "
                f"{len(self.external)} addresses leave the site (listed below, not fetched)")
        lines = [head]
        lines += [f"{file}: {address}" for file, address in sorted(self.external)]
        return "\n".join(lines) + "\n"


# --- reading the files --------------------------------------------------------------

# The tags that matter: every div (to know where the prose ends) and every tag with an id, name,
# href or src.  A scan by regular expressions: html.parser took 4.5 s for 200 entry pages, most of
# them the code's thousands of <span>s (docs/ci.md).  The pages are the build's own, checked HTML.
TAG = re.compile(r"<(?:(/?div)\b[^>]*|[a-zA-Z][\w-]*\s[^>]*?\b(?:id|name|href|src)\s*=[^>]*)>", re.I)
TAG_NAME = re.compile(r"<([a-zA-Z][\w-]*)")
ATTRIBUTE = re.compile(r"""([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?""")
COMMENT = re.compile(r"<!--.*?-->", re.S)


def read_html(path):
    """The ids of an HTML page, and its href/src values, each with whether it stands in the entry's
    prose (<div class="prose">): (ids, [(address, in_prose)])."""
    text = COMMENT.sub("", Path(path).read_text(encoding="utf-8", errors="replace"))
    ids, found, divs, prose = set(), [], 0, None
    for m in TAG.finditer(text):
        if m.group(1) and m.group(1).lower() == "/div":
            if prose == divs:
                prose = None
            divs = max(divs - 1, 0)
            continue
        tag = TAG_NAME.match(m.group(0)).group(1).lower()
        attrs = {}
        for a in ATTRIBUTE.finditer(m.group(0), len(tag) + 1):
            value = next((v for v in a.groups()[1:] if v is not None), "")
            attrs.setdefault(a.group(1).lower(), html.unescape(value))
        if tag == "div":
            divs += 1
            if prose is None and "prose" in attrs.get("class", "").split():
                prose = divs
        if attrs.get("id"):
            ids.add(attrs["id"])
        if tag == "a" and attrs.get("name"):
            ids.add(attrs["name"])
        for key in ("href", "src"):
            if key in attrs:
                found.append((attrs[key], prose is not None))
    return ids, found


# terms.json's fields of text, not addresses (a form "i.i.d.s" reads like a file name).
TEXT_FIELDS = {"name", "abstract", "forms", "caption", "alt"}


def json_addresses(value):
    """Every string of a JSON document that is an address (not in its fields of text)."""
    if isinstance(value, dict):
        for k, v in value.items():
            if k not in TEXT_FIELDS:
                yield from json_addresses(v)
    elif isinstance(value, list):
        for v in value:
            yield from json_addresses(v)
    elif isinstance(value, str) and ADDRESS.match(value):
        yield value


def text_addresses(name, text):
    """The addresses of terms.json, sitemap.xml or llms.txt."""
    if name.endswith(".json"):
        return list(json_addresses(json.loads(text)))
    if name.endswith(".xml"):
        return SITEMAP_LOC.findall(text)
    return [next(g for g in m.groups() if g) for m in MARKDOWN_LINK.finditer(text)]


OBJECT_STREAM = re.compile(rb"<<[^<>]*/Type\s*/ObjStm[^<>]*>>\s*stream\r?\n")


def _may_have_links(data):
    """False only when no object of the PDF, plain or in an object stream, has /Annots: then it has
    no link, and it need not be parsed (400 figure PDFs cost 2 s to parse)."""
    if b"/Annots" in data:
        return True
    for m in OBJECT_STREAM.finditer(data):
        end = data.find(b"endstream", m.end())
        try:
            if b"/Annots" in zlib.decompressobj().decompress(data[m.end():end]):
                return True
        except zlib.error:
            return True
    return False


def pdf_links(path):
    """The links of a PDF: ([addresses of /URI and /GoToR actions], [internal destinations that resolve
    to nothing]), each internal one described in words.  Read with pikepdf (qpdf): pypdf took 18 s for
    the real dictionary's 570 PDFs."""
    data = Path(path).read_bytes()
    if not _may_have_links(data):
        return [], []
    with pikepdf.open(io.BytesIO(data)) as pdf:
        return pdf_links_of(pdf)


def destination_names(pdf):
    """The names of a PDF's named destinations: its name tree (/Names /Dests) and the older /Dests."""
    root, found = pdf.Root, set()
    if "/Names" in root and "/Dests" in root.Names:
        found.update(str(name) for name in pikepdf.NameTree(root.Names.Dests).keys())
    if "/Dests" in root:
        found.update(str(name)[1:] for name in root.Dests.keys())
    return found


def pdf_links_of(pdf):
    """pdf_links() of an open pikepdf.Pdf."""
    addresses, refs = link_refs(pdf)
    return resolved(addresses, refs, lambda: destination_names(pdf))


def link_refs(pdf):
    """The links of an open pikepdf.Pdf as it holds them, before their names are looked up: ([addresses of
    /URI and /GoToR actions], [[page number, "page", whether the destination's page is in the PDF] or
    [page number, "name", the named destination]]), in the order of its pages."""
    pages = {page.objgen for page in pdf.pages}
    addresses, refs = [], []

    def dest_ref(dest, number):
        if isinstance(dest, pikepdf.Array):
            target = dest[0] if len(dest) else None
            # a reference to no object at all reads as null
            if len(dest):
                refs.append([number, "page", not (target is None or isinstance(target, pikepdf.Dictionary)
                                                  and target.is_indirect and target.objgen not in pages)])
        elif dest is not None:
            refs.append([number, "name", str(dest)[1:] if isinstance(dest, pikepdf.Name) else str(dest)])

    for number, page in enumerate(pdf.pages, 1):
        for annot in page.obj.get("/Annots") or []:
            if annot.get("/Subtype") != "/Link":
                continue
            action = annot.get("/A")
            if action is None:
                dest_ref(annot.get("/Dest"), number)
            elif action.get("/S") == "/URI":
                addresses.append(str(action.get("/URI")))
            elif action.get("/S") == "/GoTo":
                dest_ref(action.get("/D"), number)
            elif action.get("/S") == "/GoToR":
                target = action.get("/F")
                if isinstance(target, pikepdf.Dictionary):
                    target = target.get("/UF") or target.get("/F")
                if target is not None:
                    addresses.append(str(target))
    return addresses, refs


def resolved(addresses, refs, names):
    """pdf_links()'s answer from link_refs()'s: `names` gives the PDF's named destinations (a function: read
    only for a link to a name, which most PDFs, the figures, have none of)."""
    broken, known = [], None
    for number, kind, value in refs:
        if kind == "page":
            if not value:
                broken.append((f"#page {number}", "the destination's page is not in the PDF"))
            continue
        known = names() if known is None else known
        if value not in known:
            broken.append((f"#{value}", f"no destination {value!r} in the PDF"))
    return addresses, broken


def joined_links(parts, names):
    """pdf_links()'s answer for a PDF joined of parts (glossary.pdfpages.join: their pages in order), from
    each part's link_refs() and page count ([(addresses, refs, pages)], in order) and the joined PDF's
    named destinations: a part that did not change need not be read again."""
    addresses, refs, first = [], [], 0
    for part_addresses, part_refs, pages in parts:
        addresses += part_addresses
        refs += [[first + number, kind, value] for number, kind, value in part_refs]
        first += pages
    return resolved(addresses, refs, lambda: names)


# --- which source wrote a link ------------------------------------------------------

def template_patterns(templates, root="."):
    """[(template, regex, number of literal characters, literal text)] for every href/src attribute of
    the templates: the Jinja expressions in an attribute's value match any text."""
    patterns = []
    for name in templates:
        for m in TEMPLATE_ATTR.finditer((Path(root) / name).read_text(encoding="utf-8")):
            parts = JINJA.split(m.group(1))
            regex = "".join(".*" if i % 2 else re.escape(p) for i, p in enumerate(parts))
            literal = sum(len(p) for p in parts[::2])
            patterns.append((str(name), re.compile(regex, re.DOTALL), literal, "".join(parts[::2])))
    return patterns


class Sources:
    """Names the source file that wrote a link."""

    def __init__(self, entries=None, templates=(), root=".", holders=None):
        self.root = Path(root)
        self.entries = {slug: str(path) for slug, path in (entries or {}).items()}
        # where to look for the text of a link in a file of many entries (the book): the entries' print
        # sections' texts, by slug, which the book's job reads anyway
        self.holders = dict(holders or {})
        self.patterns = template_patterns(templates, root)
        self.templates = [str(t) for t in templates]
        self._texts = {}

    def entry_of(self, file):
        m = ENTRY_FILE.match(file)
        return self.entries.get(m.group(1)) if m else None

    def _entry_has(self, entry, address):
        if entry not in self._texts:
            try:
                self._texts[entry] = (self.root / entry).read_text(encoding="utf-8")
            except OSError:
                self._texts[entry] = ""
        return address in self._texts[entry]

    def template_of(self, address):
        """The template with an attribute whose pattern matches the address (the most literal text
        wins); else, for a link no pattern matches, the one whose literal text is closest to it."""
        best = max(((literal, -i, name) for i, (name, regex, literal, _) in enumerate(self.patterns)
                    if literal and regex.fullmatch(address)), default=None)
        if best:
            return best[2]
        ratio, _, name = max(((difflib.SequenceMatcher(None, text, address).ratio(), -i, name)
                              for i, (name, _, _, text) in enumerate(self.patterns)), default=(0, 0, None))
        return name if ratio >= 0.5 else None

    def of(self, file, address, in_prose=False):
        entry = self.entry_of(file)
        if entry and (in_prose or (not file.endswith(".html") and self._entry_has(entry, address))):
            return entry
        if not entry and self.holders:              # the book: the entry whose section has the link
            slug = next((s for s, text in self.holders.items() if address in text), None)
            if slug in self.entries:
                return self.entries[slug]
        if file.endswith((".html", ".pdf")):
            template = self.template_of(address)
            if template:
                return template
            if file.endswith(".html") and self.templates:
                return " or ".join(self.templates)
        return TEXT_FILES.get(file) or f"the rule that writes {file}"


# --- the check ----------------------------------------------------------------------

def site_files(site):
    """The site's files, relative, as posix paths (what publishing copies)."""
    return publish.names(site)


def resolve(address, here, site_url=""):
    """('external', address), ('inert', None) or ('internal', (site path, fragment)) for an address
    found in the site file `here`; ('dead', reason) when it cannot point into the site."""
    address = address.strip()
    base = posixpath.dirname(here)
    if site_url and address.startswith(site_url):
        address, base = address[len(site_url):], ""
    parts = urlsplit(address)
    if parts.scheme.lower() in INERT_SCHEMES:
        return "inert", None
    if parts.scheme or parts.netloc:
        return "external", address
    path = unquote(parts.path)
    if path.startswith("/"):
        return "dead", "a path from the server's root (the site is served under any prefix: link relatively)"
    target = posixpath.normpath(posixpath.join(base, path)) if path else here
    if target == ".":
        target = ""
    if path.endswith("/") or (path and not target):
        target = posixpath.join(target, "index.html")
    if target == ".." or target.startswith("../"):
        return "dead", "it leads out of the site's folder"
    return "internal", (target, unquote(parts.fragment))


def check(site, site_url="", entries=None, templates=(), files=None, root=".", prefix="", outside=(),
          cache=None, only=None, holders=None, given=None):
    """Check every link of the site folder `site`; returns a Result.  `entries` ({slug: entry.md})
    and `templates` name the sources, relative to the repository `root`.  A language edition's
    folder sits at `prefix` ("de/") in the whole site: a link to `outside`, the whole-site paths of
    the pages that the other editions publish (glossary.editions), is not dead.  `cache`: a file that keeps
    what each file holds from one check to the next (Reads).  `only`: the files whose links are checked,
    of all the site's `files` (which need not all be there yet: the pages' ids are then unknown, and a
    link to a page's fragment is dead; a file under a folder the list names is there); None, every
    file.  `holders`: {slug: that entry's text} (the book's print sections), where a dead link of
    a file of many entries is looked for to name the entry's source.  `given`: {a PDF's name: pdf_links()
    of it} read already (the book's, as it was written), not read again from its file."""
    outside = set(outside)
    site = Path(site)
    names = files if files is not None else site_files(site)
    present = set(names)
    folders = {posixpath.dirname(n) for n in names}
    read = Reads(cache)
    ids, html_links = {}, {}
    for name in names if only is None else only:
        if name.endswith(".html"):
            ids[name], html_links[name] = read(site / name, read_html)
    sources = Sources(entries, templates, root, holders)
    result = Result()
    # What each link is checked against; a file with the same bytes, checked against the same, has the
    # same outcome, so an edit's check visits only the files it changed.
    leaving = []        # the addresses of the file visited that leave the site
    read.against([sorted(present), sorted((name, sorted(found)) for name, found in ids.items()),
                  sorted(outside), site_url, prefix])

    def visit(file, address, in_prose=False, target_check=True):
        kind, value = resolve(address, file, site_url)
        if outside and kind in ("dead", "internal"):
            whole = posixpath.normpath(posixpath.join(prefix, posixpath.dirname(file),
                                                      unquote(urlsplit(address).path)))
            if whole in outside:
                result.checked += 1
                return
        if kind == "inert":
            return
        if kind == "external":
            result.external.add((file, value))
            leaving.append(value)
            return
        result.checked += 1
        if kind == "dead":
            reason = value
        else:
            target, fragment = value
            if target in folders and target not in present:
                target = posixpath.join(target, "index.html") if target else "index.html"
            if target not in present and not (only is not None and any(target.startswith(f"{n}/") for n in present)):
                reason = f"no file {target or '.'} in the site"
            elif fragment and only is not None and target.endswith(".html") and target not in ids:
                reason = "checked beside the pages, which it cannot read: link to the page, without a fragment"
            elif fragment and target in ids and fragment not in ids[target]:
                reason = f"no id {fragment!r} in {target}"
            else:
                return
        result.dead.append(Dead(file, address, reason, sources.of(file, address, in_prose)))

    for name in names if only is None else only:
        if name.endswith(".pdf"):
            addresses, broken = given[name] if given and name in given else read(site / name, pdf_links)
        if name not in html_links and name not in TEXT_FILES and not name.endswith(".pdf"):
            continue
        result.files += 1
        kept = read.outcome(name, site / name)
        if kept is not None:
            result.checked += kept[0]
            result.external.update((name, address) for address in kept[1])
            continue
        checked, dead = result.checked, len(result.dead)
        leaving.clear()
        if name in html_links:
            for address, in_prose in html_links[name]:
                visit(name, address, in_prose)
        elif name in TEXT_FILES:
            for address in text_addresses(name, (site / name).read_text(encoding="utf-8")):
                visit(name, address)
        else:
            for address in addresses:
                visit(name, address)
            for address, reason in broken:
                result.checked += 1
                result.dead.append(Dead(name, address, reason, sources.of(name, address)))
        if len(result.dead) == dead and name not in TEXT_FILES:      # a dead link is told every time
            read.keep_outcome(name, site / name, result.checked - checked, sorted(set(leaving)))
    read.save()
    return result


class Reads:
    """What read_html and pdf_links found in each file, kept in `cache` (a JSON file, or None) under the
    sha256 of the file's bytes and of this module: an edit reruns the check, which then parses only the
    files that changed (every page and PDF of the site otherwise, most of the check's time).  A file whose
    size, time and inode are those its hash was taken from keeps that hash, unread (glossary.publish's
    rule: only a time older than the check by publish.TRUSTED_AFTER_NS is trusted), so that an edit's
    check reads the files it changed alone (reading and hashing all 18,000 took 2 s at 5,000 terms)."""

    CODE = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()

    def __init__(self, cache):
        self.path = Path(cache) if cache else None
        try:
            kept = jsonio.read_compact(self.path) if self.path else {}
        except (OSError, ValueError):       # none yet, or a check killed while it wrote (before os.replace)
            kept = {}
        if kept.get("code") != self.CODE:
            kept = {}
        self.kept, self.found, self.keys = kept.get("found", {}), {}, {}
        self.kept_outcomes, self.outcomes = kept.get("outcomes", {}), {}
        self.kept_stats, self.stats = kept.get("stats", {}), {}
        self.trusted_before = time.time_ns() - publish.TRUSTED_AFTER_NS
        self.context = None

    def against(self, targets):
        """What the links are checked against (the site's files, their ids ...): the outcomes kept under
        another are forgotten."""
        self.context = hashlib.sha256(jsonio.dumps(targets, compact=True).encode()).hexdigest()
        if self.kept_outcomes.get("context") != self.context:
            self.kept_outcomes = {}

    def outcome(self, name, path):
        """(internal links checked, external addresses) of the site's file `name` (at `path`) when a check
        of the same bytes there against the same found no dead link; else None."""
        key = f"{name} {self.keys[str(path)]}" if str(path) in self.keys else None
        kept = self.kept_outcomes.get("files", {}).get(key) if key else None
        if kept is not None:
            self.outcomes[key] = kept
        return kept

    def keep_outcome(self, name, path, checked, external):
        if str(path) in self.keys:
            self.outcomes[f"{name} {self.keys[str(path)]}"] = [checked, external]

    def __call__(self, path, reader):
        stat, known = publish.stats_of(path), self.kept_stats.get(str(path))
        if known and known[0] == stat and known[1].startswith(f"{reader.__name__}:"):
            key = known[1]
        else:
            key = f"{reader.__name__}:{hashlib.sha256(Path(path).read_bytes()).hexdigest()}"
        if stat and stat[1] < self.trusted_before:
            self.stats[str(path)] = [stat, key]
        self.keys[str(path)] = key
        if key not in self.kept:
            one, two = reader(path)
            self.kept[key] = [sorted(one) if reader is read_html else one, two]
        self.found[key] = one, two = self.kept[key]
        # an HTML page's ids are looked up; its links, a PDF's, are unpacked as pairs (lists alike)
        return (set(one) if reader is read_html else one), two

    def save(self):
        """Keep what this check found (only: a file no longer in the site is dropped)."""
        if self.path:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            outcomes = {"context": self.context, "files": self.outcomes}
            partial = self.path.with_name(f".{self.path.name}.partial")
            jsonio.write(partial, {"code": self.CODE, "found": self.found, "outcomes": outcomes,
                                   "stats": self.stats}, compact=True)
            os.replace(partial, self.path)


def timed(site, **kwargs):
    """For the benchmark: (seconds, Result) of one check of a site folder."""
    start = time.perf_counter()
    result = check(site, **kwargs)
    return time.perf_counter() - start, result


# --- the command: `make links` ------------------------------------------------------

def _entries(repo, config):
    folder = Path(repo) / config.get("entries_dir", "entries")
    if not folder.is_dir():
        return {}
    return {p.parent.name: p.relative_to(repo).as_posix() for p in sorted(folder.glob("*/entry.md"))}


def check_repo(site, repo="."):
    """Check a site folder built from the checkout `repo` (its config.yaml, entries and templates)."""
    repo = Path(repo)
    config = yaml.safe_load((repo / "config.yaml").read_text(encoding="utf-8"))
    templates = [t.relative_to(repo).as_posix() for t in sorted((repo / "templates").glob("*.html.j2"))]
    return check(site, config.get("site_url", ""), _entries(repo, config), templates, root=repo)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m glossary.links",
                                     description="Check a built site's links; list the addresses that leave it.")
    parser.add_argument("--site", type=Path, default=Path("site"))
    parser.add_argument("--repo", type=Path, default=Path("."))
    args = parser.parse_args(argv)
    if not args.site.is_dir():
        print(f"links: no folder {args.site}; run `make site` first")
        return 2
    result = check_repo(args.site, args.repo)
    print(result.report(), end="")
    for dead in result.dead:
        print(dead.line())
    return 1 if result.dead else 0


if __name__ == "__main__":
    raise SystemExit(main())
