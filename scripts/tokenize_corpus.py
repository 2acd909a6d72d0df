"""Rule tokenize (named so as not to hide the standard library's tokenize): the demo's prepare()
turns its corpus into tokens (data for training)."""
from glossary import demo, jsonio, steps

module = steps.start(snakemake)
with demo.checks_to(snakemake.output["checks"]):
    data = module.prepare()
jsonio.write(snakemake.output["data"], demo.to_json(data))
jsonio.write(snakemake.output["facts"], demo.facts_of(data))
