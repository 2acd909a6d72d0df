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


rule all:
    default_target: True
    input:
        PLAN.site_files(),
        "results/links/report.txt",
