"""Rule links: check every link of the staged site (glossary.links); a dead internal
link fails the job with one line in the log, naming the source that wrote it."""
import os
import sys
from pathlib import Path

from glossary import links, publish

sys.stderr = open(snakemake.log[0], "w")
# The whole staged folder (the folder all the site's files share): what `make site` publishes.
site = os.path.commonpath(snakemake.input["site"])
# Its files are the plan's (the rule's inputs), not all the folder holds: a page an earlier build staged
# for a term since deleted is not published, so a link to it is dead.
names = [n.as_posix() for n in publish.expand(site, [os.path.relpath(p, site) for p in snakemake.input["site"]])]
result = links.check(site, snakemake.params["site_url"], snakemake.params["entries"],
                     snakemake.input["templates"], files=names, prefix=snakemake.params["prefix"],
                     outside=snakemake.params["outside"], cache=snakemake.params["cache"])
if result.dead:
    print(f"links: {len(result.dead)} dead of {result.checked} internal links in {result.files} files:",
          file=sys.stderr)
    for dead in result.dead:
        print(dead.line(), file=sys.stderr)
    sys.exit(1)
Path(snakemake.output["report"]).write_text(result.report(), encoding="utf-8")
print(result.report().splitlines()[0], file=sys.stderr)
