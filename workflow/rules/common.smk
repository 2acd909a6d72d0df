# Shared by every stage: the build's plan (glossary.plan: the dictionary, checked before any job
# runs, every results/ path, each job's inputs and params), the environment of the jobs, and the
# input functions of the rules (the rule files hold rules only).
import gc
import os
import platform
import sys
from importlib.metadata import version
from pathlib import Path

sys.path.insert(0, str(Path(workflow.basedir) / "src"))
from glossary import batchfiles, dictionary, editions, inprocess, jobenv, latex, plan, reading
from glossary import publish, snakemake_internals, stamp, typeset
from glossary import catalog as glossary_catalog
from glossary import entries as glossary_entries


def read_key():
    """The hash of every source (glossary.stamp): the driver's read of the dictionary kept under it is
    the plan's while no source has changed since."""
    roots = stamp.source_roots(workflow.basedir, config["source"])
    return stamp.read_key(stamp.source_hashes(roots, stamp.known_sources()))


# Started while the driver checks the dictionary, Snakemake reads the plan once the check has passed.
if not plan.wait_for_check():
    raise WorkflowError("the dictionary has mistakes, which the build tells")
PLAN = plan.Plan.from_config(config, workflow.basedir, read_key if config.get("source") else None)
# A mistake in an entry stops the build here, before any job runs, with one message.
try:
    DICTIONARY = PLAN.dictionary
except glossary_entries.EntryError as err:
    raise WorkflowError(str(err)) from None
ENTRIES = PLAN.entries
BATCHES = PLAN.batches
# The batch jobs' inputs: each entry's model and the names every entry may refer to, rewritten
# only when they change, so an edit reruns exactly the batches it touches.  A name read as prose whose
# formula does not convert stops the build here, as a mistake in an entry does.
try:
    PLAN.write_snapshots()
except glossary_entries.EntryError as err:
    raise WorkflowError(str(err)) from None
# What this edition's pages show of every edition (glossary.editions): one edition without EDITIONS=.
EDITION = PLAN.edition_view
# babel's language of the PDFs (hyphenation, quotes, "Contents"); none for English, LaTeX's default.
BABEL = PLAN.babel
# the main file's caption labels, which the PDFs' preamble sets as its own (glossary.plan.Plan.captions)
CAPTIONS = PLAN.captions

jobenv.prepare(workflow.basedir, config["numeric_env"])
# the jobs that run in this process write to their own logs (glossary.inprocess)
inprocess.routed()


# Which ready job takes a free core first: the training chain (the build's long
# pole), then the jobs that most of the rest wait for (the catalog, a demo's preview),
# then the book's chain (sections, then the book: the longest after an edit), then
# what an entry's page waits for; the rest fits in around them.
PRIORITY = {"compute": 20, "ahead": 16, "book_path": 15, "page_path": 10}

# Everything that makes the numbers differ besides the code: reruns (and cache misses) when it changes.
PLATFORM = {
    "numeric_env": config["numeric_env"],
    "python": platform.python_version(),
    "numpy": version("numpy"),
}

# A TeX Live or pgfplots upgrade reruns the figures' format (it holds pgfplots as loaded) and build-info.json.
TEX_VERSIONS = latex.versions()

# URLs are relative to the site's root unless config.yaml names where it is served
# (`site_url`, ending in "/"): then the BibTeX records and sitemap.xml use it.
BASE_URL = DICTIONARY["site_url"]
# What every page's footer, the feeds and the "Cite this entry" records say of the dictionary: its
# title, authors, licence, year and imprint, the attribution line, the notation and abbreviations
# pages the header links to; what the index and llms.txt say it is.
SITE = PLAN.site
# The cited records, formatted once for the whole build (none when nothing is cited).
REFERENCES = PLAN.references()
# The words the print edition writes itself ("See also"), in the edition's language.
PRINT_WORDS = typeset.words(EDITION)
# The stemmer of the edition's language, as lunr-languages writes it (none for English).
LANGUAGE_SCRIPT = PLAN.language_script


# The rules whose jobs record no checksums of their inputs (each rule's file says why): Snakemake then
# compares those inputs' times alone.
UNHASHED = set()

# before the DAG is built, which reads every output's metadata record and asks for the producer
# of every input
snakemake_internals.unbounded_metadata_cache()
snakemake_internals.constant_outputs_as_a_set()
snakemake_internals.faster_record_io()
snakemake_internals.nested_outputs_found_by_parents()
snakemake_internals.producers_looked_up_by_prefix()
# before a remote executor's first status check (a local run has none)
snakemake_internals.status_checks_at_most_the_setting()


onstart:
    snakemake_internals.drop_default_rate_limit(workflow)
    snakemake_internals.checksum_inputs_once(workflow, unhashed=UNHASHED)
    snakemake_internals.pipes_looked_for_only_where_a_rule_has_one(workflow)


# The run is over: Python's collection at exit would walk every object Snakemake made (0.2 s), and
# none of them is garbage that needs collecting before the process ends.
onsuccess:
    snakemake_internals.cancel_selection_timers()
    gc.freeze()


onerror:
    snakemake_internals.cancel_selection_timers()
    gc.freeze()


wildcard_constraints:
    entry="[a-z0-9-]+",
    figure="[a-z0-9-]+",
    name="[A-Za-z0-9_-]+",


repo = PLAN.repo_file

# The staged book: the book's job checks its own links (rule book), so that the site's check (rule
# links) need not wait for it.
BOOK = f"{plan.STAGED}/dictionary.pdf"
# What every link is checked against (glossary.links.check): the site's address, a language edition's
# folder in the whole site, the other editions' pages (and, in make serve's draft, the preview's pages
# of the terms left out); and the entries' sources, which a dead link names.
LINK_TARGETS = dict(
    site_url=config.get("site_url", ""),
    prefix=EDITION["prefix"],
    outside=editions.Pages(EDITION).outside(PLAN.notation_pages()) + PLAN.draft_pages(),
    entries={slug: e["path"] for slug, e in ENTRIES.items()},
)
# each rule's library inputs (glossary.imports): its script and the package's modules it imports
lib = PLAN.lib


def in_process(script, input, output, params, wildcards, threads, log):
    """A `run:` block's job: scripts/<script>.py run in this process (glossary.inprocess)."""
    inprocess.script(
        Path(workflow.basedir) / "scripts" / f"{script}.py",
        input,
        output,
        params,
        wildcards,
        threads,
        log,
        config,
    )


# --- the input functions of the per-entry rules (wildcards: entry, figure) -------------------------


def entry(wildcards):
    return ENTRIES[wildcards.entry]


def demo(wildcards):
    return PLAN.demo(wildcards.entry)


def demo_file(wildcards):
    return PLAN.demo_file(wildcards.entry)


def code_key(wildcards):
    return PLAN.code_key(wildcards.entry)


def entry_data(wildcards):
    return PLAN.entry_data(wildcards.entry)


def declared_csv(wildcards):
    return entry(wildcards).get("csv")


def figure(wildcards):
    return PLAN.figure(wildcards.entry, wildcards.figure)


def figure_index(wildcards):
    return PLAN.figure_index(wildcards.entry, wildcards.figure)


def figure_template(wildcards):
    return PLAN.figure_template(wildcards.entry, wildcards.figure)


def entry_title(wildcards):
    return entry(wildcards)["title"]


def entry_summary(wildcards):
    return entry(wildcards)["summary"]


def after_catalog(path):
    """An input written by checkpoint catalog (prose.smk): Snakemake decides whether its readers rerun
    once the catalog has run, by the checksum of what it wrote, so that one run of Snakemake serves an
    edit that leaves the catalog, or a batch's view of it, as it was."""

    def written(wildcards):
        checkpoints.catalog.get()
        return path

    return written
