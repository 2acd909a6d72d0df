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
names = publish.expand(site, [os.path.relpath(p, site) for p in snakemake.input["site"]])
# and the book, whose own links its job checks (rule book)
targets = snakemake.params["targets"]
result = links.check(site, targets["site_url"], targets["entries"], snakemake.input["templates"],
                     files=[*names, snakemake.params["book"]], prefix=targets["prefix"],
                     outside=targets["outside"], cache=snakemake.params["cache"], only=names)
if result.dead:
    print("\n".join(result.told(f"{result.files} files")), file=sys.stderr)
    sys.exit(1)
Path(snakemake.output["report"]).write_text(result.report(), encoding="utf-8")
print(result.report().splitlines()[0], file=sys.stderr)
