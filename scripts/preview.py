"""Rule preview: the demo's matplotlib preview, drawn from the published CSVs."""
from glossary import demo, steps

module = steps.start(snakemake)
with demo.checks_to(snakemake.output["checks"]):
    module.preview(snakemake.input["data"], snakemake.output["png"])
