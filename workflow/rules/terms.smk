# Stage 4: every entry's prose, page and print section, by batches of entries (a job per entry per
# stage costs more than its work at hundreds of entries).  A batch's inputs are its entries'
# snapshots (results/_entries/<slug>.json, rewritten only when an entry changes) and the names they
# may refer to (results/names.json), so an edit reruns the batches it touches; inside a batch each
# entry's result is keyed on its content (glossary.dictionary.content_key), so only what changed is
# redone.  The pictures of a batch take each entry's pictures snapshot instead
# (results/_pictures/<slug>.json: the pictures' TeX, the files they read and the forms they show),
# so an edit of the prose around a picture reruns no pictures job.  Outputs are the same per-entry
# files as ever: the preview and the publish step see no batches.


from glossary import typeset

# The cited records, formatted once for the whole build (none when nothing is cited).
REFERENCES = ["results/references.json"] if DICTIONARY["cited"] else []
# The words the print edition writes itself ("See also"), in the edition's language.
PRINT_WORDS = typeset.words(EDITION)


for batch, slugs in BATCHES.items():
    if picture_files(slugs):

        rule:
            name:
                f"pictures_{batch}"
            input:
                pictures=[dictionary.pictures_snapshot_path(s) for s in slugs],
                preamble=dictionary.PICTURE_PREAMBLE,
                graphics=graphics_sources(slugs),
                lib=lib("pictures"),
            output:
                files=picture_files(slugs),
            log:
                f"logs/pictures/{batch}.log",
            # The cores shared out over the batches: a job that held them all left every print job
            # of the real dictionary running alone (its clean build: 149 s, one core idle for 137 s).
            threads: max(1, workflow.cores // len(BATCHES))
            params:
                root=DICTIONARY["root"],
                cache="results/cache/pictures",
                site_terms="results/site/terms",
            message:
                f"{batch}: pictures of {len(slugs)} entries"
            script:
                "../../scripts/pictures.py"

    rule:
        name:
            f"prose_{batch}"
        input:
            entries=[dictionary.snapshot_path(s) for s in slugs],
            names=dictionary.NAMES,
            references=REFERENCES,
            facts=batch_facts(slugs),
            notation=repo("templates/notation.sty"),
            macros=DICTIONARY["macro_files"],
            lib=lib("prose"),
        output:
            html=[f"results/{s}/prose.html" for s in slugs],
            latex=[f"results/{s}/prose.tex" for s in slugs],
            markdown=[f"results/site/terms/{s}.md" for s in slugs],
            meta=[f"results/{s}/meta.json" for s in slugs],
        log:
            f"logs/prose/{batch}.log",
        priority: PRIORITY["page_path"]
        params:
            cache="results/cache/prose",
        message:
            f"{batch}: prose of {len(slugs)} entries as HTML, LaTeX and Markdown"
        script:
            "../../scripts/prose.py"

    rule:
        name:
            f"page_{batch}"
        input:
            prose=[f"results/{s}/prose.html" for s in slugs],
            entries=[dictionary.snapshot_path(s) for s in slugs],
            catalog="results/catalog.json",
            backlinks=glossary_catalog.backlinks_path(batch),
            demo=batch_page_inputs(slugs),
            pictures=picture_files(slugs, exts=("svg",)),
            template=repo("templates/entry.html.j2"),
            base=repo("templates/base.html.j2"),
            edition=editions.VIEW,
            lib=lib("page"),
        output:
            html=[f"results/site/terms/{s}.html" for s in slugs],
        log:
            f"logs/page/{batch}.log",
        priority: PRIORITY["page_path"]
        params:
            base_url=BASE_URL,
            site_title=DICTIONARY["title"],
            site=SITE,
        message:
            f"{batch}: HTML pages of {len(slugs)} entries"
        script:
            "../../scripts/page.py"

    rule:
        name:
            f"print_{batch}"
        input:
            prose=[f"results/{s}/prose.tex" for s in slugs],
            meta=[f"results/{s}/meta.json" for s in slugs],
            entries=[dictionary.snapshot_path(s) for s in slugs],
            catalog="results/catalog.json",
            checks=[c for s in demo_slugs(slugs) for c in layout.page_inputs(s, ENTRIES)["checks"]],
            figures=[pdf for s in slugs for pdf in entry_figure_pdfs(s)],
            pictures=picture_files(slugs, exts=("pdf",)),
            notation=repo("templates/notation.sty"),
            macros=DICTIONARY["macro_files"],
            template=repo("templates/print/section.tex.j2"),
            document=repo("templates/print/entry.tex.j2"),
            preamble=repo("templates/print/preamble.tex.j2"),
            fmt="results/print/entry.fmt",
            lib=lib("print_batch"),
        output:
            section=[f"results/{s}/print/section.tex" for s in slugs],
            pdf=[f"results/site/terms/{s}.pdf" for s in slugs],
        log:
            f"logs/print/{batch}.log",
        params:
            site=SITE,
            site_url=BASE_URL,
            site_terms=lambda w, output: str(Path(output.pdf[0]).parent),
            cache="results/cache/print",
            babel=BABEL,
            words=PRINT_WORDS,
        message:
            f"{batch}: print sections and PDFs of {len(slugs)} entries"
        script:
            "../../scripts/print_batch.py"


rule catalog:
    input:
        meta=[f"results/{s}/meta.json" for s in ENTRIES],
        names=dictionary.NAMES,
        lib=lib("catalog"),
    output:
        catalog="results/catalog.json",
        # the sentences that refer to each batch's entries: its page job's alone (see glossary.catalog)
        backlinks=[glossary_catalog.backlinks_path(b) for b in BATCHES],
    log:
        "logs/catalog/catalog.log",
    params:
        sections=DICTIONARY["sections"],
        batches=BATCHES,
        see_also={s: e["see_also"] for s, e in ENTRIES.items()},
    message:
        "catalog of the entries: titles, sections, summaries, references between them"
    script:
        "../../scripts/catalog.py"


if DICTIONARY["cited"]:

    rule references:
        input:
            bib=DICTIONARY["bibliography"],
            csl=repo("templates/csl/ieee.csl"),
            lib=lib("references"),
        output:
            json="results/references.json",
        log:
            "logs/references/references.log",
        params:
            cited=DICTIONARY["cited"],
        message:
            f"the {len(DICTIONARY['cited'])} cited records, formatted once"
        script:
            "../../scripts/references.py"


rule print_format:
    input:
        preamble=repo("templates/print/preamble.tex.j2"),
        notation=repo("templates/notation.sty"),
        lib=lib("print_format"),
    output:
        tex="results/print/entry-format.tex",
        fmt="results/print/entry.fmt",
    log:
        job="logs/print_format/entry.log",
        tex="logs/print_format/entry.tex.log",
    params:
        tex=TEX_VERSIONS,
        babel=BABEL,
    message:
        "pdflatex format of the entry PDFs' preamble"
    script:
        "../../scripts/print_format.py"
