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
# earlier build staged for sources since deleted.
publish.write_listing(PLAN.site_files())
# each entry's page, Markdown and PDF there: a link into its batch's folder (glossary.plan.ENTRY_FILES)
try:
    PLAN.link_entry_files()
except OSError as err:
    raise WorkflowError(
        f"{err.filename}: {err.strerror}; the staged site links each entry's files, and the build folder "
        "must allow symbolic links: build in another folder (OUT=)"
    ) from None


# Rule all asks for the link report, whose inputs are every file the jobs make of the site but the book
# and the search's scripts, and for those.  Snakemake builds a missing file only for a target or for a
# job that reruns, so a file that is missing is asked for here too: listing them all doubled the DAG's
# look-ups (at 5,000 terms, when the site's 18,279 files were each an output).
MISSING = [f for f in PLAN.made_files() if not os.path.exists(f)]


rule all:
    default_target: True
    input:
        "results/links/report.txt",
        BOOK,
        SEARCH_FILES,
        MISSING,
