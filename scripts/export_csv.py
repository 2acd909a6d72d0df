"""Rule export_csv: the demo's export() writes the published CSVs from the trained model,
then they are held to the entry's `csv` field: exactly the declared files, each with
exactly the declared header."""
import sys
from pathlib import Path

import numpy as np

from glossary import demo, entries, jsonio, steps

module = steps.start(snakemake)
out_dir = Path(snakemake.output["data"])
out_dir.mkdir(parents=True, exist_ok=True)
model = jsonio.read(snakemake.input["model"])
model["params"] = {k: np.asarray(v) for k, v in model["params"].items()}  # as train() returned them
with demo.checks_to(snakemake.output["checks"]):
    facts = module.export(jsonio.read(snakemake.input["data"]), model, out_dir)

# The declaration comes from the rule's params where it passes them (so an edit of
# the `csv` field reruns this job), else from the entry.md beside the demo.
demo_path = snakemake.params.get("demo") or snakemake.input.get("demo")
entry_file = snakemake.params.get("entry_file") or str(Path(demo_path).parent / "entry.md")
declared = snakemake.params.get("csv")
if declared is None:
    meta, _ = entries.split_front_matter(Path(entry_file).read_text(encoding="utf-8"), entry_file)
    declared = meta["csv"]
try:
    entries.check_exported(declared, out_dir, entry_file)
except entries.EntryError as err:
    # One line, last in the job's log (what `make site` shows) and on Snakemake's output.
    for stream in (sys.stderr, sys.__stderr__):
        print(f"error: {err}", file=stream, flush=True)
    sys.exit(1)
jsonio.write(snakemake.output["facts"], demo.to_json(facts or {}))
