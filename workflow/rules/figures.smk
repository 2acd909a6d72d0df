# Stage 2: figures.  pgfplots figures are rendered from templates/figures/<kind>.tex.j2,
# compiled by pdflatex (print) from a format of their shared preamble, and
# converted to SVG (page) and PNG (fallback), in one job; the matplotlib preview comes from
# the demo's own preview().  The pictures of the prose (TikZ, included graphics) go by the
# batches of prose.smk: each batch takes its entries' pictures snapshots
# (results/_pictures/<slug>.json: the pictures' TeX, the files they read and the forms they show),
# so an edit of the prose around a picture reruns no pictures job.


rule preview:
    input:
        demo=demo,
        data="results/site/terms/{entry}/data",
        lib=lib("preview"),
    output:
        png="results/site/terms/{entry}/{name}.png",
        checks="results/{entry}/checks/4-preview-{name}.txt",
    log:
        "logs/preview/{entry}-{name}.log",
    # its check lines are printed in the entry's section (rule section_<batch>), and its image is on the
    # entry's page and in its PDF: the longest job after a training
    priority: PRIORITY["ahead"]
    message:
        "{wildcards.entry}: matplotlib preview {wildcards.name}.png"
    script:
        "../../scripts/preview.py"


# pgfplots takes most of a figure's compile time just to load: the shared preamble
# is loaded once per build and dumped as a format that every pdflatex job starts from.
rule latex_format:
    input:
        preamble=repo("templates/figures/preamble.tex.j2"),
        lib=lib("latex_format"),
    output:
        tex="results/latex/preamble.tex",
        fmt="results/latex/figures.fmt",
    log:
        job="logs/latex_format/figures.log",
        tex="logs/latex_format/figures.tex.log",
    priority: PRIORITY["book_path"]
    params:
        tex=TEX_VERSIONS,
    message:
        "pdflatex format of the figures' preamble"
    run:
        in_process("latex_format", input, output, params, wildcards, threads, log)


# One job per figure, from its source to the page's files: four jobs (source, PDF, SVG, PNG) paid
# four Snakemake job starts where the work itself takes a pdflatex run from the format.  The rendered
# .tex lies with the logs, which a failed job keeps, so that a TeX error can name its line.
rule figure:
    input:
        template=figure_template,
        preamble=repo("templates/figures/preamble.tex.j2"),
        data="results/site/terms/{entry}/data",
        facts="results/{entry}/facts/export.json",
        fmt="results/latex/figures.fmt",
        lib=lib("figure"),
    output:
        pdf="results/site/terms/{entry}/figures/{figure}.pdf",
        svg="results/site/terms/{entry}/figures/{figure}.svg",
        png="results/site/terms/{entry}/figures/{figure}.png",
    log:
        job="logs/figure/{entry}/{figure}.log",
        tex="logs/figure/{entry}/{figure}.tex.log",
        source="logs/figure/{entry}/{figure}.tex",
    priority: PRIORITY["book_path"]
    params:
        spec=figure,
        entry_file=demo_file,
        index=figure_index,
    message:
        "{wildcards.entry}: figure {wildcards.figure}: pgfplots to PDF, SVG and PNG"
    run:
        in_process("figure", input, output, params, wildcards, threads, log)


# The plan writes the pictures' inputs (results/_pictures/) only when they change, so their checksums
# would keep no job undone: they are not hashed (common.smk).
UNHASHED.update(f"pictures_{batch}" for batch in BATCHES)

for batch, slugs in BATCHES.items():
    if PLAN.picture_files(slugs):

        rule:
            name:
                f"pictures_{batch}"
            input:
                pictures=[dictionary.pictures_snapshot_path(s) for s in slugs],
                preamble=dictionary.PICTURE_PREAMBLE,
                graphics=PLAN.graphics_sources(slugs),
                lib=lib("pictures"),
            output:
                # the batch's pictures and graphics, which the staged site links (batchfiles.PICTURES)
                folder=directory(batchfiles.site_folder(batchfiles.PICTURES, batch)),
            log:
                f"logs/pictures/{batch}.log",
            # The cores shared out over the batches: a job that held them all left every print job
            # of the real dictionary running alone (its clean build: 149 s, one core idle for 137 s).
            threads: max(1, workflow.cores // len(BATCHES))
            params:
                root=DICTIONARY["root"],
                # all of the machine a picture's TeX run reads, with TeX Live (glossary.pictures.View)
                folder=PLAN.folder,
                # where a failing line of the pictures' preamble comes from
                sources={"main": str(PLAN.source.main) if PLAN.source else None, "macros": DICTIONARY["macro_files"]},
                cache="results/cache/pictures",
            message:
                f"{batch}: pictures of {len(slugs)} entries"
            run:
                in_process("pictures", input, output, params, wildcards, threads, log)
