# What workflow/rules/reading.smk adds to the site: its input functions (the rule files hold rules only).


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


def reading_files():
    files = [f"results/site/sections/{s}.html" for s in reading_sections()] + language_scripts()
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
