"""Rule compute: the demo's three steps on the pinned numeric platform.  prepare() turns its corpus
into tokens, train(data) fits the model, export(data, model, folder) writes the published CSVs, which
are then held to the entry's `csv` field: exactly the declared files, each with exactly the declared
header.  Each step's result, facts and printed lines are files of their own, and each step takes the
one before's result as its file holds it."""
import sys
from pathlib import Path

import numpy as np

from glossary import demo, entries, jsonio, steps

out = snakemake.output
module = steps.start(snakemake)
with demo.checks_to(out["tokenize_checks"]):
    data = module.prepare()
jsonio.write(out["tokens"], demo.to_json(data))
jsonio.write(out["tokenize_facts"], demo.facts_of(data))

with demo.checks_to(out["train_checks"]):
    model = module.train(jsonio.read(out["tokens"]))
jsonio.write(out["model"], demo.to_json(model))
jsonio.write(out["train_facts"], demo.facts_of(model))

out_dir = Path(out["data"])
out_dir.mkdir(parents=True, exist_ok=True)
model = jsonio.read(out["model"])
model["params"] = {k: np.asarray(v) for k, v in model["params"].items()}  # as train() returned them
with demo.checks_to(out["export_checks"]):
    facts = module.export(jsonio.read(out["tokens"]), model, out_dir)

# The declaration comes from the rule's params, so that an edit of the `csv` field reruns this job (a demo
# declares it: entry.schema.yaml, or a dictionary's YAML file, whose demos default to none).
entry_file = snakemake.params["entry_file"]
try:
    entries.check_exported(snakemake.params["csv"], out_dir, entry_file)
except entries.EntryError as err:
    # One line, last in the job's log (what `make site` shows) and on Snakemake's output.
    for stream in (sys.stderr, sys.__stderr__):
        print(f"error: {err}", file=stream, flush=True)
    sys.exit(1)
jsonio.write(out["export_facts"], demo.to_json(facts or {}))
