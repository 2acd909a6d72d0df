"""A built site read for the MCP server (glossary.mcpserver): its editions, terms, search, related
terms and citations, from the files the build publishes and nothing else.

    site = Site("site")                          # SiteError: no site there, and how to build one
    site.terms(edition="de", section="math")     # rows of terms.json, with their edition
    site.search("gradient", "en")                # the site's own lunr index, ranked as reading.js ranks
    site.markdown("gd", "en")                    # terms/gd.md, its cross-references as glossary:// links
    site.related("gd"), site.cite("gd")          # See also / Referenced by; BibTeX and a formatted line

Each edition is a folder with a terms.json: the site's root (its language from index.html's
<html lang>) and a `<lang>/` folder per translation.  Everything is read when first asked for and
kept: the server is read-only over a finished build."""
import difflib
import functools
import html
import json
import logging
import posixpath
import re
import tempfile
from pathlib import Path

from glossary import assets, citations, reading

# The URI of a term as a resource: its edition's language and its slug.
SCHEME = "glossary"
# The IEEE style the build formats every reference with (rules terms and print).
CSL = assets.path("templates/csl/ieee.csl")
HOW_TO_BUILD = (f"build one first: `{assets.command('site')}`" + (
    " in a clone of the glossary project (or `python -m glossary.build --source <your dictionary.yaml> --out "
    "<folder>`, then the site is <folder>/site)" if assets.CLONE else " in the dictionary's folder (the site is "
    "_build/site)") + ", and start the server in the folder holding site/ or with --site <the site folder>")
# A name's short form in parentheses at its end: "gradient descent (GD)".
SHORT_FORM = re.compile(r"\s*\([^()]*\)$")
HTML_LANG = re.compile(r'<html lang="([^"]+)"')
# A Markdown link or image target: "](target)"; the site writes them without titles or spaces.
MD_LINK = re.compile(r"\]\(([^()\s]+)\)")
TERM_FILE = re.compile(r"^(?:(?P<lang>[^/]+)/)?terms/(?P<slug>[^/]+)\.(?:md|html)$")
# The "Referenced by" list of a term page (templates/entry.html.j2) and the terms it links.
REFERENCED_BY = re.compile(r'<ul class="referenced-by">(.*?)</ul>', re.S)
ITEM_LINK = re.compile(r'<li><a href="([^"]+)">')
# reading.js's words(): what is not a letter or a digit trimmed off either end of a word.
EDGES = re.compile(r"^[^0-9a-z\u00c0-\U0010ffff]+|[^0-9a-z\u00c0-\U0010ffff]+$")
BIB_KEY = re.compile(r"@\w+\{([^,]+),")


class SiteError(Exception):
    """A request the site cannot answer, told so that the asker can fix it."""


def words(text):
    """reading.js's words(): lower case, split at spaces and hyphens, each trimmed of punctuation."""
    return [w for w in (EDGES.sub("", w) for w in re.split(r"[\s\-]+", text.lower())) if w]


def rank(doc, typed):
    """reading.js's rank(): 0 a name or form typed whole, 1 a name or form starting with it, 2 a name
    holding it from a word's start, 3 the rest.  doc: a search-index.js document."""
    name = " ".join(words(doc[1]))
    bare = " ".join(words(re.sub(r"\s*\([^()]*\)\s*$", "", doc[1])))
    forms = [" ".join(words(f)) for f in doc[4]]
    if typed in (name, bare) or typed in forms:
        return 0
    if name.startswith(typed) or any(f.startswith(typed) for f in forms):
        return 1
    return 2 if f" {typed}" in f" {name} " else 3


def closest(wanted, choices, n=3):
    """The choices nearest to what was asked for (difflib's ratio), best first."""
    return difflib.get_close_matches(wanted.lower(), choices, n=n, cutoff=0.5)


class Edition:
    """One edition of the site: its folder, its terms (terms.json) and, once searched, its index."""

    def __init__(self, site, lang, prefix):
        self.site, self.lang, self.prefix = site, lang, prefix
        self.folder = site.folder / prefix if prefix else site.folder
        data = json.loads((self.folder / "terms.json").read_text(encoding="utf-8"))
        self.title = data.get("title", "")
        self.rows = data["terms"]
        self.by_slug = {row["slug"]: row for row in self.rows}
        self._search = None

    def uri(self, slug):
        return f"{SCHEME}://{self.lang}/{slug}"

    def find(self, term):
        """The row of a term by its slug, its key, its name (any case), its name without the short form
        in parentheses ("gradient descent" for "gradient descent (GD)") or another form (GD, GDs);
        SiteError with the closest."""
        if term in self.by_slug:
            return self.by_slug[term]
        wanted = term.strip().lower()
        for row in self.rows:
            if wanted in (row["slug"].lower(), row.get("key", "").lower(), row["name"].lower()):
                return row
        for row in self.rows:
            if wanted in (SHORT_FORM.sub("", row["name"]).lower(), *(f.lower() for f in row.get("forms", {}).values())):
                return row
        others = [lang for lang, ed in self.site.editions.items() if ed is not self and term in ed.by_slug]
        elsewhere = f"; it is in the {', '.join(others)} edition" if others else ""
        names = {row["name"].lower(): row["slug"] for row in self.rows}
        near = closest(term, list(self.by_slug) + list(names))
        near = list(dict.fromkeys(names.get(k, k) for k in near))
        hint = "; closest: " + ", ".join(f"{s} ({self.by_slug[s]['name']})" for s in near) if near else ""
        raise SiteError(f"no term '{term}' in the {self.lang} edition{elsewhere}{hint}")

    @functools.cached_property
    def section_titles(self):
        """{section key: its title in this edition}, read from the search index's documents."""
        titles = {}
        for doc in self.search_file[1]:
            row = self.by_slug.get(doc[0])
            if row:
                titles.setdefault(row["section"], doc[2])
        return titles

    @functools.cached_property
    def search_file(self):
        """The site's search (search-index.js and its shards, glossary.reading.load_search): (the
        serialized lunr index, [[slug, name, section title, summary, other forms, referrers], ...])."""
        return reading.load_search(self.folder)

    def search_data(self):
        """(lunr index, documents, stem(word), is_stop(word), lunr's REQUIRED) of search-index.js,
        loaded once.  lunr is imported here, not at the top: its import brings nltk's, 0.14 to 0.6 s
        (python -X importtime, quiet to loaded machine), a third of the server's start-up, which
        only a search needs."""
        if self._search is None:
            from lunr.index import Index
            from lunr.pipeline import Pipeline
            from lunr.query import QueryPresence
            from lunr.stemmer import stemmer
            from lunr.stop_word_filter import stop_word_filter
            from lunr.token import Token
            serialized, docs = self.search_file
            language = next((name.split("-", 1)[1] for name in serialized["pipeline"] if "-" in name), None)
            if language:
                # The edition's stemmer as the build registered it (the index names it): stemmer-de ...
                # It replaces the one lunr.languages registered on import, as in the build: lunr's
                # warning about that is no news for a client's log.
                quiet = logging.getLogger("lunr.pipeline")
                level = quiet.level
                quiet.setLevel(logging.ERROR)
                try:
                    reading.language_builder(language)
                finally:
                    quiet.setLevel(level)
                stemmer = Pipeline.registered_functions[f"stemmer-{language}"]
                stop_word_filter = Pipeline.registered_functions[f"stopWordFilter-{language}"]
            self._search = (Index.load(serialized), docs, lambda w: str(stemmer(Token(w))),
                            lambda w: not stop_word_filter(Token(w)), QueryPresence.REQUIRED)
        return self._search

    def search(self, text, limit=10):
        """reading.js's search(): each word but the last required unless a stop word, the last
        also as a prefix and its stem's prefix; then ranked by rank(), within the first three ranks
        the term referred to more often first, then lunr's score."""
        ws = words(text)
        if not ws:
            return []
        index, docs, stem_of, is_stop, required = self.search_data()
        query = index.create_query()
        for i, w in enumerate(ws):
            if i < len(ws) - 1:
                if not is_stop(w):
                    query.term(w, presence=required)
                continue
            stem = stem_of(w)
            query.term(w, boost=10)
            query.term(w, boost=2, use_pipeline=False, wildcard=query.WILDCARD_TRAILING)
            if stem != w:
                query.term(stem, boost=1, use_pipeline=False, wildcard=query.WILDCARD_TRAILING)
        typed = " ".join(ws)
        found = [docs[int(r["ref"])] for r in index.query(query)]
        ranks = [rank(doc, typed) for doc in found]
        order = sorted(range(len(found)), key=lambda i: (ranks[i], -(found[i][5] or 0) if ranks[i] < 3 else 0, i))
        return [found[i] for i in order[:limit]]


class Site:
    """A built site: the editions found in its folder, the root's first."""

    def __init__(self, folder):
        self.folder = Path(folder)
        if not (self.folder / "terms.json").is_file():
            raise SiteError(f"no built dictionary site at {self.folder.resolve()} (it has no terms.json); "
                            + HOW_TO_BUILD)
        page = self.folder / "index.html"
        found = HTML_LANG.search(page.read_text(encoding="utf-8")[:2000]) if page.is_file() else None
        self.editions = {}
        root = found.group(1) if found else "en"
        self.editions[root] = Edition(self, root, "")
        for sub in sorted(self.folder.iterdir()):
            if sub.is_dir() and (sub / "terms.json").is_file() and sub.name not in self.editions:
                self.editions[sub.name] = Edition(self, sub.name, sub.name + "/")
        self.default = root

    def edition(self, lang=None):
        if not lang:
            return self.editions[self.default]
        if lang not in self.editions:
            raise SiteError(f"no edition '{lang}' in this site; its editions: {', '.join(self.editions)}")
        return self.editions[lang]

    def row(self, term, lang=None):
        """(edition, row) of a term; SiteError naming the closest ones when unknown."""
        edition = self.edition(lang)
        return edition, edition.find(term)

    # --- the tools' answers ---------------------------------------------------------------------

    def summary(self, edition, row):
        return {"slug": row["slug"], "name": row["name"], "edition": edition.lang, "section": row["section"],
                "section_title": edition.section_titles.get(row["section"], row["section"]),
                "abstract": row.get("abstract", ""), "uri": edition.uri(row["slug"])}

    def terms(self, section=None, edition=None):
        """Every term of one edition (or of every edition), in one section if named (its key or its
        title, any case)."""
        chosen = [self.edition(edition)] if edition else list(self.editions.values())
        out = []
        for ed in chosen:
            rows = ed.rows
            if section:
                titles = ed.section_titles
                key = next((k for k, t in titles.items() if section.lower() in (k.lower(), t.lower())), None)
                if key is None:
                    listed = ", ".join(f"{k} ({t})" for k, t in titles.items())
                    if edition or all(section.lower() not in (k.lower(), t.lower())
                                       for e in self.editions.values() for k, t in e.section_titles.items()):
                        raise SiteError(f"no section '{section}' in the {ed.lang} edition; its sections: {listed}")
                    continue
                rows = [row for row in rows if row["section"] == key]
            out += [self.summary(ed, row) for row in rows]
        return out

    def sections(self):
        """{edition: {section key: title}}."""
        return {lang: ed.section_titles for lang, ed in self.editions.items()}

    def search(self, text, edition=None, limit=10):
        ed = self.edition(edition)
        return [self.summary(ed, ed.by_slug[doc[0]]) for doc in ed.search(text, limit)]

    def target(self, edition, base, href):
        """The (edition, slug) a relative link of a page in `base` (a folder of the site) points to,
        or None when it is not a term."""
        path = posixpath.normpath(posixpath.join(base, href.split("#", 1)[0]))
        match = TERM_FILE.match(path)
        if not match:
            return None
        lang = match["lang"] or self.default
        if match["lang"] == self.default or lang not in self.editions:
            return None
        return self.editions[lang], match["slug"]

    def markdown(self, term, edition=None):
        """The term's Markdown as the site publishes it (math as TeX, its references formatted), each
        cross-reference a glossary:// link and each other relative link made relative to the site."""
        ed, row = self.row(term, edition)
        base = posixpath.dirname(ed.prefix + row["markdown"])
        text = (ed.folder / row["markdown"]).read_text(encoding="utf-8")

        def link(match):
            href = match.group(1)
            if "://" in href or href.startswith(("#", "mailto:")):
                return match.group(0)
            found = self.target(ed, base, href)
            if found:
                return f"]({found[0].uri(found[1])})"
            return f"]({posixpath.normpath(posixpath.join(base, href))})"
        return MD_LINK.sub(link, text)

    def related(self, term, edition=None):
        """See also (terms.json) and Referenced by (the term page's list), each as a summary."""
        ed, row = self.row(term, edition)
        see_also = [self.summary(ed, ed.by_slug[s]) for s in row.get("see_also", []) if s in ed.by_slug]
        page = (ed.folder / row["url"]).read_text(encoding="utf-8")
        listed = REFERENCED_BY.search(page)
        base = posixpath.dirname(ed.prefix + row["url"])
        referenced_by = []
        for href in ITEM_LINK.findall(html.unescape(listed.group(1)) if listed else ""):
            found = self.target(ed, base, href)
            if found and found[1] in found[0].by_slug:
                referenced_by.append(self.summary(found[0], found[0].by_slug[found[1]]))
        return {"term": self.summary(ed, row), "see_also": see_also, "referenced_by": referenced_by}

    def cite(self, term, edition=None):
        """The entry's BibTeX record as the site publishes it, and the line the build's citeproc
        and IEEE style make of it (glossary.citations, as for every reference of the site)."""
        ed, row = self.row(term, edition)
        bibtex = row["bibtex"]
        key = BIB_KEY.search(bibtex).group(1)
        with tempfile.TemporaryDirectory() as work:
            bib = Path(work, "entry.bib")
            bib.write_text(bibtex, encoding="utf-8")
            text = citations.format_references([key], bib, CSL)[key]["text"]
        return {"term": self.summary(ed, row), "key": key, "bibtex": bibtex, "text": text}
