"""Rule export_csv: the demo's export() writes the published CSVs from the trained model."""
from pathlib import Path

import numpy as np

from glossary import demo, jsonio, steps

module = steps.start(snakemake)
out_dir = Path(snakemake.output["data"])
out_dir.mkdir(parents=True, exist_ok=True)
model = jsonio.read(snakemake.input["model"])
model["params"] = {k: np.asarray(v) for k, v in model["params"].items()}  # as train() returned them
with demo.checks_to(snakemake.output["checks"]):
    facts = module.export(jsonio.read(snakemake.input["data"]), model, out_dir)
jsonio.write(snakemake.output["facts"], demo.to_json(facts or {}))
