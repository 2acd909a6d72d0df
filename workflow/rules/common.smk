# Shared by every stage: the entries (checked before any job runs), the environment of the
# jobs, and the input functions of the rules (the rule files hold rules only).
import platform
import sys
from importlib.metadata import version
from pathlib import Path

sys.path.insert(0, str(Path(workflow.basedir) / "src"))
from glossary import codekey, dictionary, editions, imports, jobenv, latex, layout, reading, snakemake_internals
from glossary import catalog as glossary_catalog
from glossary import entries as glossary_entries

# A mistake in an entry stops the build here, before any job runs, with one message.
try:
    DICTIONARY = dictionary.load(config, workflow.basedir)
except glossary_entries.EntryError as err:
    raise WorkflowError(str(err)) from None
ENTRIES = DICTIONARY["entries"]
# The demos a LaTeX dictionary's YAML file gives its terms, by slug (Markdown entries have their own).
DEMO_SCRIPTS = DICTIONARY.get("demo_scripts", {})
BATCHES = DICTIONARY["batches"]
# Each entry's model, and the names and labels every entry may refer to, as files rewritten only
# when they change: the batch jobs' inputs, so an edit reruns exactly the batches it touches.
for _entry in ENTRIES.values():
    dictionary.snapshot(_entry)
dictionary.write_names(DICTIONARY)
# What this edition's pages show of every edition (glossary.editions): one edition without EDITIONS=.
EDITION = DICTIONARY["edition_view"]
# babel's language of the PDFs (hyphenation, quotes, "Contents"); none for English, LaTeX's default.
BABEL = editions.LANGUAGES[EDITION["lang"]]["babel"] if EDITION["lang"] != "en" else ""

jobenv.prepare(workflow.basedir, config["numeric_env"])


# Which ready job takes a free core first: the training chain (the build's long
# pole), then what an entry's page waits for; the rest fits in around them.
PRIORITY = {"compute": 20, "page_path": 10}

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
# title, authors, licence, year and imprint, the attribution line; what the index and llms.txt say it is.
SITE = dictionary.site_facts(DICTIONARY)


onstart:
    snakemake_internals.drop_default_rate_limit(workflow)


onsuccess:
    snakemake_internals.cancel_selection_timers()


onerror:
    snakemake_internals.cancel_selection_timers()


wildcard_constraints:
    entry="[a-z0-9-]+",
    figure="[a-z0-9-]+",
    name="[A-Za-z0-9_-]+",


def repo(path):
    """One of this repository's own files (a template, the lock file) as the rules name it: relative
    when the build runs in the repository, absolute when it builds in another folder (OUT=)."""
    if Path.cwd().resolve() == Path(workflow.basedir).resolve():
        return path
    return str(Path(workflow.basedir) / path)


def lib(script):
    """The shared package's modules that scripts/<script>.py imports, directly or not (inputs, so an
    edit of any of them reruns the rule's jobs)."""
    base = Path(workflow.basedir)
    found = imports.closure(str(base / f"scripts/{script}.py"), str(base / "src"))
    return [repo(str(Path(p).relative_to(base))) for p in found]


def entry(wildcards):
    return ENTRIES[wildcards.entry]


def demo(wildcards):
    """The demo script: beside entry.md, or where a dictionary's YAML file names it."""
    if wildcards.entry in DEMO_SCRIPTS:
        return DEMO_SCRIPTS[wildcards.entry]["script"]
    return f"{config['entries_dir']}/{wildcards.entry}/{entry(wildcards)['demo']}"


def demo_file(wildcards):
    """Where the demo's csv and figures are declared, as error messages name it: entry.md, or the
    dictionary's `demos:` entry of the term (beside its script)."""
    if wildcards.entry in DEMO_SCRIPTS:
        return f"{demo(wildcards)}: term {entry(wildcards)['key']!r} (demos.{entry(wildcards)['key']})"
    return entry_file(wildcards)


def demo_folder(wildcards):
    """The folder a demo's own files (custom figure templates, data) sit in."""
    if wildcards.entry in DEMO_SCRIPTS:
        return str(Path(demo(wildcards)).parent)
    return f"{config['entries_dir']}/{wildcards.entry}"


def figure(wildcards):
    return next(f for f in entry(wildcards)["figures"] if f["name"] == wildcards.figure)


_CODE_KEYS = {}


def code_key(wildcards):
    """The meaning of the demo's code (glossary.codekey): the training rules' key instead of its bytes."""
    path = demo(wildcards)
    if path not in _CODE_KEYS:
        _CODE_KEYS[path] = codekey.file_key(path)
    return _CODE_KEYS[path]


def figure_template(wildcards):
    """A built-in kind's template, or a custom figure's own .tex.j2 beside its entry.md."""
    spec = figure(wildcards)
    if spec["kind"] == "custom":
        return f"{demo_folder(wildcards)}/{spec['source']}"
    return repo(f"templates/figures/{spec['kind']}.tex.j2")


def entry_data(wildcards):
    """The data files entry.md declares (`data`): inputs of the compute rules, so an edit retrains."""
    return [f"{demo_folder(wildcards)}/{name}" for name in entry(wildcards).get("data", [])]


def figure_index(wildcards):
    return [f["name"] for f in entry(wildcards)["figures"]].index(wildcards.figure)


def entry_file(wildcards):
    return entry(wildcards)["path"]


def declared_csv(wildcards):
    return entry(wildcards).get("csv")


def entry_title(wildcards):
    return entry(wildcards)["title"]


def entry_summary(wildcards):
    return entry(wildcards)["summary"]


def page_inputs(wildcards):
    return layout.page_inputs(wildcards.entry, ENTRIES)


def page_params(wildcards):
    return layout.page_params(wildcards.entry, ENTRIES, config)


def prose_inputs(wildcards):
    return layout.prose_inputs(wildcards.entry, ENTRIES)


def prose_titles(wildcards):
    return layout.prose_params(wildcards.entry, ENTRIES)["titles"]


def all_metas(wildcards=None):
    return {slug: glossary_entries.front_matter(entry) for slug, entry in ENTRIES.items()}


def site_pages(wildcards=None):
    return ["index.html"] + [f"terms/{slug}.html" for slug in ENTRIES]


def others(wildcards=None):
    return layout.others(ENTRIES)


def entry_meta(wildcards):
    return glossary_entries.front_matter(entry(wildcards))


def entry_checks(wildcards):
    return layout.page_inputs(wildcards.entry, ENTRIES)["checks"]


def entry_figure_pdfs(slug):
    figures = f"results/site/terms/{slug}/figures"
    return [f"{figures}/{f['name']}.pdf" for f in ENTRIES[slug]["figures"]]


def figure_pdfs(wildcards):
    return entry_figure_pdfs(wildcards.entry)


def book_sections(wildcards=None):
    """Every entry's print section, in the book's order (by section, then alphabetical by title)."""
    return [f"results/{slug}/print/section.tex" for slug in dictionary.book_order(DICTIONARY)]


def book_parts():
    """The book's parts: each section of the dictionary with the number of its entries (book order)."""
    order = dictionary.book_order(DICTIONARY)
    return [
        {"title": sec["title"], "count": sum(ENTRIES[s]["section"] == sec["id"] for s in order)}
        for sec in DICTIONARY["sections"]
    ]


def book_figures(wildcards=None):
    return [pdf for slug in ENTRIES for pdf in entry_figure_pdfs(slug)]


def has_demo(slug):
    return "demo" in ENTRIES[slug]


def plain_slugs():
    """The terms whose demo is a plain script (rule plain_demo), sorted."""
    return sorted(s for s, d in DEMO_SCRIPTS.items() if d["kind"] == "plain")


def demo_slugs(slugs):
    return [s for s in slugs if has_demo(s)]


def entry_files(slug):
    e = ENTRIES[slug]
    terms = "results/site/terms"
    files = [f"{terms}/{slug}.html", f"{terms}/{slug}.md", f"{terms}/{slug}.pdf"]
    if has_demo(slug):
        files += [
            f"{terms}/{slug}.py",
            f"{terms}/{slug}.ipynb",
            f"{terms}/{slug}/data",
            f"{terms}/{slug}/{e['preview']}",
        ]
    for fig in e["figures"]:
        files += [f"{terms}/{slug}/figures/{fig['name']}.{ext}" for ext in ("pdf", "svg", "png")]
    return files


def site_files():
    names = (
        "index.html",
        "style.css",
        "favicon.svg",
        "favicon.ico",
        "build-info.json",
        "terms.json",
        "sitemap.xml",
        "llms.txt",
        "notation.sty",
        "dictionary.pdf",
    )
    files = [f"results/site/{name}" for name in names]
    for slug in ENTRIES:
        files += entry_files(slug)
    return files


# The batches' inputs and outputs (workflow/rules/terms.smk).
def batch_facts(slugs):
    return [f"results/{s}/facts/{step}.json" for s in demo_slugs(slugs) for step in ("tokenize", "train", "export")]


def batch_page_inputs(slugs):
    """The demo outputs the pages of a batch show (entries without a demo show none)."""
    files = []
    for s in demo_slugs(slugs):
        inputs = layout.page_inputs(s, ENTRIES)
        files += inputs["checks"] + [inputs["data"], inputs["script"], inputs["preview"]]
        files += inputs["svgs"]
    return files


def picture_files(slugs, exts=("pdf", "svg")):
    """What the pictures and graphics of these entries' prose publish beside their pages."""
    files = []
    for s in slugs:
        e = ENTRIES[s]
        files += [f"results/site/terms/{s}/pictures/{p['n']}.{x}" for p in e["pictures"] for x in exts]
        files += [
            f"results/site/terms/{s}/graphics/{g['n']}{Path(g['path']).suffix.lower()}" for g in e.get("graphics", [])
        ]
    return files


def graphics_sources(slugs):
    return [str(Path(DICTIONARY["root"]) / g["path"]) for s in slugs for g in ENTRIES[s].get("graphics", [])]
