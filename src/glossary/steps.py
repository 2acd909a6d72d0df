"""What every demo step script does first: log to its log file, check the platform, load the demo."""
import sys

from glossary import demo, numeric


def start(snakemake, pinned=True):
    """Send stderr to the job's log, check the numeric platform, import the demo."""
    sys.stderr = open(snakemake.log[0], "w", encoding="utf-8", buffering=1)
    if pinned:
        numeric.require(snakemake.config["numeric_env"])
    # The computing rules name the demo as a param (keyed on its code's meaning), others as an input.
    return demo.load(snakemake.params.get("demo") or snakemake.input["demo"])
