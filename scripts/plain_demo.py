"""Rule plain_demo: a dictionary author's plain script run in a scratch folder (glossary.plaindemo);
its CSVs, preview PNG and check lines land where a blocks demo's do, so the figures, page and print
rules take them alike.  It computes no facts: the facts files hold {}."""
import sys
from pathlib import Path

from glossary import entries, jsonio, numeric, plaindemo

sys.stderr = open(snakemake.log[0], "w", encoding="utf-8", buffering=1)
numeric.require(snakemake.config["numeric_env"])   # the script inherits this job's environment
out = snakemake.output
try:
    lines = plaindemo.run(snakemake.input["script"], snakemake.params["key"], snakemake.params["csv"],
                          out["data"], out["preview"], image=snakemake.params["image"])
except entries.EntryError as err:
    # The message's first line last in the job's log (the build's failure summary shows the log's
    # last lines), after the rest (a failed script's stderr); on Snakemake's output too.
    first, _, rest = str(err).partition("\n")
    for stream in (sys.stderr, sys.__stderr__):
        print(f"{rest}\nerror: {first}" if rest else f"error: {first}", file=stream, flush=True)
    sys.exit(1)
sys.stderr.write(lines)
# The script's lines are the first step's checks; the other steps of a blocks demo have none here.
for path in out["checks"]:
    Path(path).write_text(lines if path == out["checks"][0] else "", encoding="utf-8")
for path in out["facts"]:
    jsonio.write(path, {})
