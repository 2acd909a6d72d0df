# Stage 5: the print edition.  Each entry's section (prose from rule prose, figures,
# checks, citation, links) is set once, by the section_<batch> jobs, and used twice: in the
# entry's own PDF (print_<batch>) and in the book, site/dictionary.pdf, which so need not
# wait for each other.  Both include the figure PDFs the figure rules built; no figure is
# compiled again.  A prose edit reruns that entry's section, its PDF and the book; nothing else.
# None of them reads the catalog (the names are names.json's), so the book starts once its
# section is set, beside the catalog, the search index and the pages.


rule print_format:
    input:
        preamble=repo("templates/print/preamble.tex.j2"),
        pdf_settings=repo("templates/print/pdf-settings.tex.j2"),
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
        captions=CAPTIONS,
    message:
        "pdflatex format of the entry PDFs' preamble"
    run:
        in_process("print_format", input, output, params, wildcards, threads, log)


for batch, slugs in BATCHES.items():

    rule:
        name:
            f"section_{batch}"
        input:
            prose=batchfiles.prose_path(batch),
            entries=batchfiles.entries_path(batch),
            # the entries' names and those their "See also" lists name: not the catalog, which the
            # sections, the PDFs and the book so never wait for
            names=dictionary.NAMES,
            checks=PLAN.batch_checks(slugs),
            template=repo("templates/print/section.tex.j2"),
            lib=lib("print_sections"),
        output:
            sections=batchfiles.sections_path(batch),
        log:
            f"logs/section/{batch}.log",
        priority: PRIORITY["book_path"]
        localrule: True
        params:
            words=PRINT_WORDS,
        message:
            f"{batch}: print sections of {len(slugs)} entries"
        run:
            in_process("print_sections", input, output, params, wildcards, threads, log)

    rule:
        name:
            f"print_{batch}"
        input:
            sections=batchfiles.sections_path(batch),
            entries=batchfiles.entries_path(batch),
            names=dictionary.NAMES,
            figures=[pdf for s in slugs for pdf in PLAN.figure_pdfs(s)],
            pictures=PLAN.batch_pictures(batch),
            notation=repo("templates/notation.sty"),
            macros=DICTIONARY["macro_files"],
            document=repo("templates/print/entry.tex.j2"),
            preamble=repo("templates/print/preamble.tex.j2"),
            pdf_settings=repo("templates/print/pdf-settings.tex.j2"),
            fmt="results/print/entry.fmt",
            lib=lib("print_batch"),
        output:
            pdf=directory(batchfiles.site_folder("pdf", batch)),
        log:
            f"logs/print/{batch}.log",
        # the link check, last after an edit, waits for the PDFs (and the pages), not for the search
        priority: PRIORITY["page_path"]
        params:
            site=SITE,
            site_url=BASE_URL,
            cache="results/cache/print",
            babel=BABEL,
            captions=CAPTIONS,
            words=PRINT_WORDS,
        message:
            f"{batch}: PDFs of {len(slugs)} entries"
        run:
            in_process("print_batch", input, output, params, wildcards, threads, log)


# The book's front matter, from the dictionary's main file (glossary.dictionary; a model without
# these fields gives a title page with the title alone).
BOOK_FRONT = {
    "title": DICTIONARY["title"],
    "authors": DICTIONARY.get("authors") or [],
    "cite_as": DICTIONARY.get("cite_as"),
    "license": DICTIONARY.get("license"),
    "front_matter": DICTIONARY.get("front_matter") or [],
}
# The List of Symbols the main file inputs, set after the contents (none: no such list).
SYMBOLS = [PLAN.symbols_file] if PLAN.symbols_file else []
# The book reruns after any edit of a section: its inputs (every section, figure and picture) are not
# hashed (common.smk).
UNHASHED.add("book")


rule book:
    input:
        sections=PLAN.book_sections(),
        template=repo("templates/print/book.tex.j2"),
        preamble=repo("templates/print/preamble.tex.j2"),
        pdf_settings=repo("templates/print/pdf-settings.tex.j2"),
        references=REFERENCES,
        names=dictionary.NAMES,
        symbols=SYMBOLS,
        macros=DICTIONARY["macro_files"] if SYMBOLS else [],
        notation=repo("templates/notation.sty"),
        figures=PLAN.book_figures(),
        pictures=PLAN.pictures_folders(),
        # the entry PDFs' preamble is the book's: each pass starts from their format and its source
        fmt="results/print/entry.fmt",
        fmt_tex="results/print/entry-format.tex",
        # the site's files by their names there (glossary.publish.write_listing), which its links may name
        listing=publish.listing_path(plan.STAGED),
        lib=lib("book"),
    output:
        # its LaTeX (a file a piece, glossary.bookrun), and the PDF: one job, so an edit waits for one
        # job's start, not two
        tex=directory("results/print/book"),
        pdf=BOOK,
    log:
        job="logs/book/dictionary.log",
        tex="logs/book/dictionary.tex.log",
    priority: PRIORITY["book_path"]
    params:
        site_title=DICTIONARY["title"],
        site_url=BASE_URL,
        parts=PLAN.book_parts(),
        # the entries in the book's order, whose sections the batches' files hold
        order=PLAN.book_order(),
        demos=all(PLAN.has_demo(s) for s in ENTRIES),
        babel=BABEL,
        captions=CAPTIONS,
        front=BOOK_FRONT,
        words=PRINT_WORDS,
        # a book of more entries is typeset in pieces, so that an edit reruns its own piece alone
        piece=config.get("book_piece", 400),
        # each piece's last run (its contents, links, pages and PDF) starts the next build's
        settled="results/cache/book",
        # a clean build runs its pieces side by side; an edit, one (so one thread for the scheduler)
        jobs=workflow.cores,
        # what the book includes (figures, pictures), linked into its TeX run's folder (glossary.latex)
        site_terms=lambda w, output: str(Path(output.pdf).parent / "terms"),
        # its links, checked here (against the site's files as the plan names them: input listing)
        links=LINK_TARGETS,
    message:
        "the book, dictionary.pdf"
    script:
        "../../scripts/book.py"
