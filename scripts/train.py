"""Rule train: the demo's train(data) on the pinned numeric platform."""
from glossary import demo, jsonio, steps

module = steps.start(snakemake)
data = jsonio.read(snakemake.input["data"])
with demo.checks_to(snakemake.output["checks"]):
    model = module.train(data)
jsonio.write(snakemake.output["model"], demo.to_json(model))
jsonio.write(snakemake.output["facts"], demo.facts_of(model))
