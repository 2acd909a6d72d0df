# Stage 2: figures.  pgfplots figures are rendered from templates/figures/<kind>.tex.j2,
# compiled by pdflatex (print) from a format of their shared preamble, then
# converted to SVG (page) and PNG (fallback); the matplotlib preview comes from
# the demo's own preview().
from glossary import latex

# A TeX Live or pgfplots upgrade reruns the format (it holds pgfplots as loaded) and build-info.json.
TEX_VERSIONS = latex.versions()


rule preview:
    message: "{wildcards.entry}: matplotlib preview {wildcards.name}.png"
    priority: PRIORITY["page_path"]
    input:
        demo=demo,
        data=SITE + "/terms/{entry}/data",
        lib=lib("demo", "numeric", "steps"),
    output:
        png=SITE + "/terms/{entry}/{name}.png",
        checks="results/{entry}/checks/4-preview-{name}.txt",
    log:
        "logs/preview/{entry}-{name}.log",
    script:
        "../../scripts/preview.py"


rule figure_tex:
    message: "{wildcards.entry}: pgfplots source of figure {wildcards.figure}"
    priority: PRIORITY["page_path"]
    input:
        template=lambda wc: f"templates/figures/{figure(wc)['kind']}.tex.j2",
        preamble="templates/figures/preamble.tex.j2",
        data=SITE + "/terms/{entry}/data",
        facts="results/{entry}/facts/export.json",
        lib=lib("figures", "entries"),
    output:
        tex="results/{entry}/figures/{figure}.tex",
    params:
        spec=figure,
        entry_file=lambda wc: entry(wc)["path"],
        index=lambda wc: [f["name"] for f in entry(wc)["figures"]].index(wc.figure),
    log:
        "logs/figure_tex/{entry}-{figure}.log",
    script:
        "../../scripts/figure_tex.py"


# pgfplots takes most of a figure's compile time just to load: the shared preamble
# is loaded once per build and dumped as a format that every pdflatex job starts from.
rule latex_format:
    message: "pdflatex format of the figures' preamble"
    priority: PRIORITY["page_path"]
    input:
        preamble="templates/figures/preamble.tex.j2",
        lib=lib("figures", "entries", "latex"),
    output:
        tex="results/latex/preamble.tex",
        fmt="results/latex/figures.fmt",
    params:
        tex=TEX_VERSIONS,
    log:
        job="logs/latex_format/figures.log",
        tex="logs/latex_format/figures.tex.log",
    script:
        "../../scripts/latex_format.py"


rule pdflatex:
    message: "{wildcards.entry}: pdflatex figure {wildcards.figure}"
    priority: PRIORITY["page_path"]
    input:
        tex="results/{entry}/figures/{figure}.tex",
        fmt="results/latex/figures.fmt",
        data=SITE + "/terms/{entry}/data",
        lib=lib("latex"),
    output:
        pdf=SITE + "/terms/{entry}/figures/{figure}.pdf",
    log:
        job="logs/pdflatex/{entry}-{figure}.log",
        tex="logs/pdflatex/{entry}-{figure}.tex.log",
    script:
        "../../scripts/pdflatex.py"


rule pdf_to_svg:
    message: "{wildcards.entry}: SVG of figure {wildcards.figure}"
    priority: PRIORITY["page_path"]
    input:
        pdf=SITE + "/terms/{entry}/figures/{figure}.pdf",
    output:
        svg=SITE + "/terms/{entry}/figures/{figure}.svg",
    log:
        "logs/pdf_to_svg/{entry}-{figure}.log",
    shell:
        "pdftocairo -svg {input.pdf:q} {output.svg:q} 2> {log:q}"


rule pdf_to_png:
    message: "{wildcards.entry}: PNG of figure {wildcards.figure}"
    input:
        pdf=SITE + "/terms/{entry}/figures/{figure}.pdf",
    output:
        png=SITE + "/terms/{entry}/figures/{figure}.png",
    params:
        prefix=lambda wc, output: output.png[: -len(".png")],
    log:
        "logs/pdf_to_png/{entry}-{figure}.log",
    shell:
        "pdftoppm -png -r 192 -singlefile {input.pdf:q} {params.prefix:q} 2> {log:q}"
