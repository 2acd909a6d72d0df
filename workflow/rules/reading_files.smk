# What workflow/rules/reading.smk adds to the site: its input functions (the rule files hold rules only).
import os

from glossary import notation


def reading_sections():
    """The ids of the sections that hold terms, in the dictionary's order."""
    used = {e["section"] for e in ENTRIES.values()}
    return [s["id"] for s in DICTIONARY["sections"] if s["id"] in used]


# The stemmer of the edition's language, as lunr-languages writes it (none for English).
LANGUAGE_SCRIPT = reading.language_file(EDITION["lang"])


def language_scripts():
    """The published lunr-languages files of this edition's search (site names without ".min")."""
    if not LANGUAGE_SCRIPT:
        return []
    return [f"results/site/{f.replace('.min.js', '.js')}" for f in (reading.LUNR_SUPPORT, LANGUAGE_SCRIPT)]


# The notation page (glossary.notation): the List of Symbols (the model's `symbols_file`, else found
# from the main file), or the symbols the macro files document (a Markdown dictionary's: notation.sty).
SYMBOLS_FILE = notation.symbols_file(DICTIONARY, config.get("source"))
NOTATION_MACROS = DICTIONARY["macro_files"] or [repo("templates/notation.sty")]
# Whether each page is made: with several editions always (each page's language switcher links to the
# same page of every edition), else when it has something to list.  Every page's header links to
# those made (base.html.j2 reads them from `site`, the pages' SITE).
SEVERAL_EDITIONS = len(EDITION["editions"]) > 1
NOTATION_PAGE = SEVERAL_EDITIONS or notation.has_notation(SYMBOLS_FILE, NOTATION_MACROS)
ABBREVIATIONS_PAGE = SEVERAL_EDITIONS or notation.has_abbreviations(ENTRIES)
SITE.update(notation=NOTATION_PAGE, abbreviations=ABBREVIATIONS_PAGE)


def symbols_where():
    """The List of Symbols as messages name it: relative to the dictionary's folder."""
    return os.path.relpath(SYMBOLS_FILE, DICTIONARY["root"]) if SYMBOLS_FILE else ""


def notation_pages():
    """The notation and abbreviations pages this build makes, relative to the site's root."""
    return [
        p
        for p, made in ((notation.SYMBOLS_PAGE, NOTATION_PAGE), (notation.ABBREVIATIONS_PAGE, ABBREVIATIONS_PAGE))
        if made
    ]


def reading_files():
    files = [f"results/site/sections/{s}.html" for s in reading_sections()] + language_scripts()
    files += [f"results/site/{p}" for p in notation_pages()]
    return files + [
        "results/site/search-index.js",
        "results/site/previews.js",
        "results/site/reading.js",
        "results/site/lunr.js",
    ]


# Every consumer of the site's file list (rule all, the link check) gets these too.
_site_files_before_reading = site_files


def site_files():
    return _site_files_before_reading() + reading_files()


# sitemap.xml lists the notation and abbreviations pages too.
_site_pages_before_reading = site_pages


def site_pages(wildcards=None):
    return _site_pages_before_reading() + notation_pages()
