# Reading a large dictionary: the full-text search (a lunr index built here, and the vendored
# lunr.js), the script that shows the previews of cross-references (glossary.reading) and the
# notation page (glossary.notation); docs/reading.md.  The section and abbreviations pages and
# previews.js are made of the catalog alone, by rule catalog_pages (pages.smk).  Included before
# the link check, which reads them.


# The search's files: rule all asks for them; the link check, which reads no script, runs beside their job.
SEARCH_FILES = [f"results/site/{p}" for p in reading.search_paths()]


# It reruns after any prose edit, as the catalog: its inputs, every batch's prose, are not hashed (common.smk).
UNHASHED.add("search_index")


rule search_index:
    input:
        # the prose, and what the catalog is made of besides: it makes the catalog for itself, and so
        # runs beside rule catalog, not after it
        prose=[batchfiles.prose_path(b) for b in BATCHES],
        names=dictionary.NAMES,
        plan=plan.CATALOG_PLAN,
        # the forms of the names as text (rule forms_text)
        forms=plan.FORMS,
        # a language's stemmer: its word characters and stop words are read from lunr-languages' file
        language=[repo(f"templates/vendor/{f}") for f in [LANGUAGE_SCRIPT] if f],
        lib=lib("search_index"),
    output:
        # the head, the shards of the tokens and of the results' summaries (glossary.reading.search_files)
        files=SEARCH_FILES,
    log:
        "logs/reading/search_index.log",
    localrule: True
    params:
        lang=EDITION["lang"],
        # each entry's prose as text, by the sha256 of its HTML (glossary.reading.texts_kept)
        cache="results/cache/search-text.json",
        # each document's terms as lunr counts them, by its text (glossary.reading.counts_of)
        counts="results/cache/search-counts.json",
    message:
        "the search index of the terms (lunr), in {} shards".format(len(reading.SHARDS))
    script:
        "../../scripts/search_index.py"


if LANGUAGE_SCRIPT:

    rule language_scripts:
        input:
            support=repo(f"templates/vendor/{reading.LUNR_SUPPORT}"),
            language=repo(f"templates/vendor/{LANGUAGE_SCRIPT}"),
        output:
            support=PLAN.language_scripts()[0],
            language=PLAN.language_scripts()[1],
        log:
            "logs/reading/language_scripts.log",
        localrule: True
        message:
            "the search's stemmer of the edition's language (lunr-languages)"
        shell:
            "(cp {input.support} {output.support} && cp {input.language} {output.language}) 2> {log}"


rule reading_scripts:
    input:
        reading=repo("templates/reading.js"),
        lunr=repo("templates/vendor/lunr-2.3.9.min.js"),
    output:
        reading="results/site/reading.js",
        lunr="results/site/lunr.js",
    log:
        "logs/reading/scripts.log",
    localrule: True
    message:
        "the search and preview scripts, and lunr.js"
    shell:
        "(cp {input.reading} {output.reading} && cp {input.lunr} {output.lunr}) 2> {log}"


rule forms_text:
    input:
        macros=DICTIONARY["macro_files"],
        lib=lib("forms_text"),
    output:
        json=plan.FORMS,
    log:
        "logs/reading/forms_text.log",
    localrule: True
    params:
        entries={s: {"forms": e["forms"], "reader": e["document"]["reader"]} for s, e in ENTRIES.items()},
    message:
        "the forms of the terms' names as text"
    run:
        in_process("forms_text", input, output, params, wildcards, threads, log)


if PLAN.notation_page:

    rule notation_page:
        input:
            symbols=[PLAN.symbols_file] if PLAN.symbols_file else [],
            macros=PLAN.notation_macros,
            names=dictionary.NAMES,
            references=PLAN.references(),
            template=repo("templates/notation.html.j2"),
            base=repo("templates/base.html.j2"),
            edition=editions.VIEW,
            lib=lib("notation_page"),
        output:
            html="results/site/notation.html",
        log:
            "logs/reading/notation.log",
        localrule: True
        params:
            site_title=DICTIONARY["title"],
            site=SITE,
            latex=bool(DICTIONARY["macro_files"]),
            where=PLAN.symbols_where(),
        message:
            "the notation page"
        run:
            in_process("notation_page", input, output, params, wildcards, threads, log)
