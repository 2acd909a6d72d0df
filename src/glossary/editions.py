"""Language editions: one site, the base edition at its root and every translation under <lang>/.

    make site SOURCE=<english main or YAML> EDITIONS="de=<german main>" OUT=<folder>

The build driver (glossary.build) writes results/editions.json, the plan: each edition's language,
source, folder prefix in the site ("" for the base, "de/" ...) and the folder its Snakemake run works
in ("." for the base, editions/<lang> for the others).  Each edition is one Snakemake run of the
same workflow (config `edition=<lang>`, `editions=<plan>`); the driver publishes the base's staged
site with each edition's under its prefix, in one step.

Every run reads every edition's terms (glossary.texdict.read: 0.1 s for 569 terms) to know which
pages exist where, and writes that view to results/edition.json (view()): the pages' <html lang>,
their hreflang alternates and language switcher, the edition's own words (its message catalogue,
templates/messages/<lang>.yaml, English being the fallback), and the terms of other editions that
this one lacks (its index lists them, linking to where they are).  Terms are matched by key, and
so by slug.
"""
import posixpath
from pathlib import Path

import yaml

from glossary import assets

PLAN = "results/editions.json"
VIEW = "results/edition.json"
MESSAGES = assets.path("templates/messages")
# Each language: its own name (the switcher's) and babel's language (the PDFs); which ones the
# search stems is glossary.reading's (SNOWBALL).
LANGUAGES = {
    "en": {"name": "English", "babel": "english"},
    "de": {"name": "Deutsch", "babel": "ngerman"},
    "fr": {"name": "Français", "babel": "french"},
    "es": {"name": "Español", "babel": "spanish"},
    "it": {"name": "Italiano", "babel": "italian"},
    "fi": {"name": "Suomi", "babel": "finnish"},
    "el": {"name": "Ελληνικά", "babel": "greek"},
}


class EditionError(ValueError):
    pass


def parse_spec(text):
    """EDITIONS="de=path fr=path" as {lang: path}; an unknown language or a bad pair is an error."""
    found = {}
    for pair in (text or "").split():
        lang, sep, path = pair.partition("=")
        if not sep or not path:
            raise EditionError(f"EDITIONS: {pair!r} is not <language>=<main .tex file>; write e.g. de=path/main.tex")
        check_language(lang, f"EDITIONS: {pair!r}")
        found[lang] = path
    return found


def check_language(lang, where):
    if lang not in LANGUAGES:
        raise EditionError(f"{where}: no language {lang!r}; use one of: {', '.join(sorted(LANGUAGES))}")


def plan(source, base_lang="en", editions=None):
    """The editions of a build: the base first, then each translation by language code.
    `editions`: {lang: {"main": path, ...}} from the YAML file or EDITIONS=."""
    check_language(base_lang, "language")
    out = [{"lang": base_lang, "source": str(source), "prefix": "", "folder": "."}]
    for lang, spec in sorted((editions or {}).items()):
        if lang == base_lang:
            raise EditionError(f"editions: {lang!r} is the base edition's own language; name another")
        check_language(lang, f"editions.{lang}")
        out.append(dict(spec, lang=lang, source=str(Path(spec["main"]).resolve()), prefix=f"{lang}/",
                        folder=f"editions/{lang}"))
    return {"base": base_lang, "editions": out}


def messages(lang):
    """The edition's words: {English text: its translation}; English (and a word a catalogue lacks)
    falls back to the English text itself."""
    path = MESSAGES / f"{lang}.yaml"
    if not path.is_file():
        return {}
    return yaml.safe_load(path.read_text(encoding="utf-8")) or {}


def view(lang, editions, terms, sections, titles):
    """results/edition.json: what this edition's pages show of every edition.  `editions`: the
    plan's list; terms/sections/titles: {lang: [slugs]}, {lang: [section ids]}, {lang: {slug: title}}."""
    me = next(e for e in editions if e["lang"] == lang)
    return {
        "lang": lang,
        "prefix": me["prefix"],
        "base": editions[0]["lang"],
        "editions": [{"lang": e["lang"], "prefix": e["prefix"], "name": LANGUAGES[e["lang"]]["name"]}
                     for e in editions],
        "terms": {k: sorted(v) for k, v in terms.items()},
        "sections": {k: sorted(v) for k, v in sections.items()},
        # The titles of the terms this edition lacks, for its index's list of them.
        "missing": {e["lang"]: {s: titles[e["lang"]][s] for s in sorted(set(terms[e["lang"]]) - set(terms[lang]))}
                    for e in editions if e["lang"] != lang},
        "messages": messages(lang),
    }


def single(lang="en"):
    """The view of a build with one edition (no alternates, no switcher)."""
    return view(lang, [{"lang": lang, "prefix": ""}], {lang: []}, {lang: []}, {lang: {}})


class Pages:
    """Where a page of this edition is in the other editions (from a view())."""

    def __init__(self, view):
        self.view = view
        self.lang, self.prefix = view["lang"], view["prefix"]
        self.terms = {k: set(v) for k, v in view["terms"].items()}
        self.sections = {k: set(v) for k, v in view["sections"].items()}

    def has(self, lang, page):
        """Whether edition `lang` publishes `page` (a path from an edition's root)."""
        if page.startswith("terms/"):
            return page[len("terms/"):-len(".html")] in self.terms.get(lang, ())
        if page.startswith("sections/"):
            return page[len("sections/"):-len(".html")] in self.sections.get(lang, ())
        return True

    def href(self, lang, page, here):
        """The relative address, from this edition's page `here`, of edition `lang`'s `page`."""
        prefix = next(e["prefix"] for e in self.view["editions"] if e["lang"] == lang)
        return posixpath.relpath(prefix + page, posixpath.dirname(self.prefix + here) or ".")

    def alternates(self, page, here=None):
        """[(hreflang, href from `here`, by default the page itself)] of `page` in every edition that
        has it, itself included, and x-default (the base edition's) when the base has it; none with
        one edition."""
        if len(self.view["editions"]) < 2:
            return []
        here = here or page
        found = [(e["lang"], self.href(e["lang"], page, here)) for e in self.view["editions"]
                 if self.has(e["lang"], page)]
        base = self.view["base"]
        if self.has(base, page):
            found.append(("x-default", self.href(base, page, here)))
        return found

    def switcher(self, page):
        """[{lang, name, href, current, missing}] for the language switcher: the same page in each
        edition, or that edition's index at the term's notice when it lacks the page."""
        if len(self.view["editions"]) < 2:
            return []
        out = []
        for e in self.view["editions"]:
            item = {"lang": e["lang"], "name": e["name"], "current": e["lang"] == self.lang, "missing": False}
            if self.has(e["lang"], page):
                item["href"] = self.href(e["lang"], page, page)
            else:
                slug = posixpath.basename(page)[:-len(".html")]
                anchor = f"#missing-{slug}" if page.startswith("terms/") else ""
                item["href"] = self.href(e["lang"], "index.html", page) + anchor
                item["missing"] = True
            out.append(item)
        return out

    def missing(self, here="index.html"):
        """[{slug, title, lang, name, href}] of the terms other editions have and this one lacks."""
        names = {e["lang"]: e["name"] for e in self.view["editions"]}
        rows = []
        for lang, titles in self.view["missing"].items():
            for slug, title in titles.items():
                rows.append({"slug": slug, "title": title, "lang": lang, "name": names[lang],
                             "href": self.href(lang, f"terms/{slug}.html", here)})
        return sorted(rows, key=lambda r: (r["title"].lower(), r["lang"]))

    def outside(self, pages=()):
        """The whole-site paths of the other editions' pages this edition's pages may link to
        (the link check's allowance: they are published by the other editions' runs); `pages`:
        more pages every edition publishes (the notation and abbreviations pages)."""
        paths = set()
        for e in self.view["editions"]:
            if e["lang"] == self.lang:
                continue
            paths.add(e["prefix"] + "index.html")
            paths |= {e["prefix"] + p for p in pages}
            paths |= {f"{e['prefix']}terms/{s}.html" for s in self.terms.get(e["lang"], ())}
            paths |= {f"{e['prefix']}terms/{s}.md" for s in self.terms.get(e["lang"], ())}
            paths |= {f"{e['prefix']}sections/{s}.html" for s in self.sections.get(e["lang"], ())}
        return sorted(paths)


def translator(view):
    """_(text): the edition's word for an English text, or the text itself."""
    words = (view or {}).get("messages") or {}
    return lambda text: words.get(text, text)
