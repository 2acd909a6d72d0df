"""`make site`: build the staged site with Snakemake, then publish it to site/ in one step.

On a failure it prints a short account (the failed rule, the file it names, the
last lines of its log) instead of Snakemake's whole output, and leaves site/
exactly as it was.
"""
import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

from glossary import publish

STAGED, SITE = Path("results/site"), Path("site")


def failure_summary(output):
    """A few lines naming what failed: the rule, the job's log and its last lines."""
    lines = []
    for rule, body in re.findall(r"Error in rule (\w+):\n(.*?)(?:\n\n|\Z)", output, re.S):
        logs = re.findall(r"log: (\S+?)(?: \(check log file|$)", body, re.M)
        lines.append(f"error: rule {rule} failed")
        for log in logs:
            path = Path(log.rstrip(","))
            if path.is_file():
                tail = [l for l in path.read_text(errors="replace").splitlines() if l.strip()]
                lines += ["  " + l for l in tail[-6:]]
                lines.append(f"  (whole log: {path})")
    if not lines:
        # Errors before any job ran (a bad entry or config) are one line of their own.
        found = re.findall(r"^(?:WorkflowError|Error)[^\n]*:\n(.+?)(?:\n  File |\n\n|\Z)", output, re.M | re.S)
        lines = ["error: " + found[0].strip()] if found else output.strip().splitlines()[-10:]
    return "\n".join(lines[:12])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cores", default=os.environ.get("CORES", "2"))
    parser.add_argument("snakemake_args", nargs="*")
    args = parser.parse_args(argv)
    snakemake = Path(sys.executable).with_name("snakemake")
    run = subprocess.run([str(snakemake), "--cores", str(args.cores), *args.snakemake_args],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if run.returncode != 0:
        print(failure_summary(run.stdout), file=sys.stderr)
        print("site/ was left as it was.", file=sys.stderr)
        return 1
    changed = publish.publish(STAGED, SITE)
    print(f"site {'published' if changed else 'unchanged'}: open {SITE}/index.html")
    return 0


if __name__ == "__main__":
    sys.exit(main())
