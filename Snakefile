# The glossary site: each entry's demo is tokenized, trained and exported to CSV,
# drawn as pgfplots and matplotlib figures, turned into a notebook and an HTML page.
# Everything lands in results/site/; `make site` publishes it to site/ in one step.
from snakemake.utils import min_version, validate

min_version("9.0")


configfile: workflow.source_path("config.yaml")


validate(config, workflow.source_path("workflow/schemas/config.schema.yaml"))


include: "workflow/rules/common.smk"
include: "workflow/rules/compute.smk"
include: "workflow/rules/demos.smk"
include: "workflow/rules/figures.smk"
include: "workflow/rules/notebook.smk"
include: "workflow/rules/prose.smk"
include: "workflow/rules/pages.smk"
include: "workflow/rules/reading.smk"
include: "workflow/rules/print.smk"
include: "workflow/rules/links.smk"


# What `make site` publishes of results/site (glossary.publish): the plan's files, and no file an
# earlier build staged for sources since deleted (common.smk has put src/ on the path).
from glossary import publish

publish.write_listing(PLAN.site_files())


# Rule all asks for the link report, whose inputs are every file of the site but the book, and the book.
# Snakemake builds a missing file only for a target or for a job that reruns, so a staged file that is
# missing is asked for here too: listing all 18,279 of a 5,000-term site doubled the DAG's look-ups.
MISSING = [f for f in PLAN.site_files() if not os.path.exists(f)]


rule all:
    default_target: True
    input:
        "results/links/report.txt",
        BOOK,
        MISSING,
