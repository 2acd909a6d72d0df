# Stage 4: every entry's prose as HTML, LaTeX and Markdown, by batches of entries (a job per entry
# per stage costs more than its work at hundreds of entries), then the catalog of all of them and
# the cited records.  A batch's inputs are its entries file (results/_entries/_batches/<batch>.json,
# naming each entry's snapshot with its sha256, rewritten only when one of them changes) and the names
# they may refer to (results/names.json), so an edit reruns the batches it touches; inside a batch each
# entry's result is keyed on its content (glossary.dictionary.content_key), so only what changed is
# redone.  A batch's per-entry files (Markdown, pages, PDFs) are one folder of its job's
# (glossary.batchfiles.site_folder), which the staged site links each file of: the preview and the publish
# step see no batches.  The batches' pictures are figures.smk's, their pages pages.smk's, their print
# sections print.smk's.


for batch, slugs in BATCHES.items():

    rule:
        name:
            f"prose_{batch}"
        input:
            entries=batchfiles.entries_path(batch),
            names=dictionary.NAMES,
            references=REFERENCES,
            facts=PLAN.batch_facts(slugs),
            notation=repo("templates/notation.sty"),
            macros=DICTIONARY["macro_files"],
            lib=lib("prose"),
        output:
            prose=batchfiles.prose_path(batch),
            markdown=directory(batchfiles.site_folder("markdown", batch)),
        log:
            f"logs/prose/{batch}.log",
        priority: PRIORITY["page_path"]
        params:
            cache="results/cache/prose",
        message:
            f"{batch}: prose of {len(slugs)} entries as HTML, LaTeX and Markdown"
        run:
            in_process("prose", input, output, params, wildcards, threads, log)


# The catalog reruns after any prose edit (each batch's prose is one of its inputs): its inputs, every
# batch's prose (65 MB at 5,000 terms), are not hashed (common.smk).
UNHASHED.add("catalog")


checkpoint catalog:
    input:
        prose=[batchfiles.prose_path(b) for b in BATCHES],
        names=dictionary.NAMES,
        # the sections, the batches and each entry's "see also", in the entries' order
        plan=plan.CATALOG_PLAN,
        lib=lib("catalog"),
    output:
        catalog=plan.CATALOG,
        # what each batch's pages show of it: its page job's alone (see glossary.catalog)
        views=PLAN.views(),
    log:
        "logs/catalog/catalog.log",
    # every page waits for it: it takes the first free core after the prose
    priority: PRIORITY["ahead"]
    localrule: True
    message:
        "catalog of the entries: titles, sections, summaries, references between them"
    script:
        "../../scripts/catalog.py"


if PLAN.cited:

    rule references:
        input:
            bib=DICTIONARY["bibliography"],
            csl=repo("templates/csl/ieee.csl"),
            lib=lib("references"),
        output:
            json=plan.REFERENCES,
        log:
            "logs/references/references.log",
        localrule: True
        params:
            cited=PLAN.cited,
        message:
            f"the {len(PLAN.cited)} cited records, formatted once"
        run:
            in_process("references", input, output, params, wildcards, threads, log)
