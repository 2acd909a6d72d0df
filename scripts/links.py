"""Rule links: check every link of the staged site (glossary.links); a dead internal
link fails the job with one line in the log, naming the source that wrote it."""
import sys
from pathlib import Path

from glossary import jobenv, jsonio, links, publish

sys.stderr = open(snakemake.log[0], "w")
jobenv.beside_the_book()
# The staged site: what `make site` publishes.
site = publish.STAGED
# Its files are the plan's (its listing), not all the folder holds: a page an earlier build staged for a
# term since deleted is not published, so a link to it is dead.  The book, whose own links its job checks
# (rule book), and the search's scripts, which hold no link, may not be there yet.
listing, beside = jsonio.read(snakemake.input["listing"]), set(snakemake.params["beside"])
names = publish.expand(site, [n for n in listing if n not in beside])
targets = snakemake.params["targets"]
result = links.check(site, targets["site_url"], targets["entries"], snakemake.input["templates"],
                     files=[*names, *(n for n in listing if n in beside)], prefix=targets["prefix"],
                     outside=targets["outside"], cache=snakemake.params["cache"], only=names)
if result.dead:
    print("\n".join(result.told(f"{result.files} files")), file=sys.stderr)
    sys.exit(1)
Path(snakemake.output["report"]).write_text(result.report(), encoding="utf-8")
print(result.report().splitlines()[0], file=sys.stderr)
