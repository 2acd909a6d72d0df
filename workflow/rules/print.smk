# Stage 5: the print edition.  Each entry's section (prose from rule prose, figures,
# checks, citation, links) is set once and used twice: in the entry's own PDF and in
# the book, site/dictionary.pdf.  Both include the figure PDFs the figure rules
# built; no figure is compiled again.  A prose edit reruns that entry's section,
# its PDF and the book; nothing else.


# The book's front matter, from the dictionary's main file (glossary.dictionary; a model without
# these fields gives a title page with the title alone).
BOOK_FRONT = {
    "title": DICTIONARY["title"],
    "authors": DICTIONARY.get("authors") or [],
    "cite_as": DICTIONARY.get("cite_as"),
    "license": DICTIONARY.get("license"),
}
# The List of Symbols the main file inputs, set after the contents (none: no such list).
SYMBOLS = typeset.symbols_path(DICTIONARY)


rule book_tex:
    input:
        sections=book_sections,
        template=repo("templates/print/book.tex.j2"),
        preamble=repo("templates/print/preamble.tex.j2"),
        references=REFERENCES,
        names=dictionary.NAMES,
        symbols=SYMBOLS,
        macros=DICTIONARY["macro_files"] if SYMBOLS else [],
        bib=[DICTIONARY["bibliography"]] if SYMBOLS and DICTIONARY["bibliography"] else [],
        csl=repo("templates/csl/ieee.csl"),
        lib=lib("book"),
    output:
        tex="results/print/dictionary.tex",
    log:
        "logs/book_tex/dictionary.log",
    params:
        site_title=DICTIONARY["title"],
        site_url=BASE_URL,
        site_terms="results/site/terms",
        parts=book_parts(),
        demos=all(has_demo(s) for s in ENTRIES),
        babel=BABEL,
        front=BOOK_FRONT,
        words=PRINT_WORDS,
    message:
        "the book's LaTeX"
    script:
        "../../scripts/book.py"


rule book:
    input:
        tex="results/print/dictionary.tex",
        notation=repo("templates/notation.sty"),
        figures=book_figures,
        pictures=picture_files(list(ENTRIES), exts=("pdf",)),
        lib=lib("entry_pdf"),
    output:
        pdf="results/site/dictionary.pdf",
    log:
        job="logs/book/dictionary.log",
        tex="logs/book/dictionary.tex.log",
    params:
        # the contents and the links between terms settle in three passes from nothing; the last
        # build's settled contents start the next, so an edit that moves no page compiles once
        passes=3,
        settled="results/cache/book",
    message:
        "the book, dictionary.pdf"
    script:
        "../../scripts/entry_pdf.py"
