"""The build's plan: what a build reads and what each of its jobs makes, decided in one place.

    source = Source(path)           # SOURCE=: a main .tex file, a YAML file naming one, or None
    source.main, source.config      # decided once; the YAML file parsed (and checked) once
    plan = Plan(source, edition, config=config, repo=repo)
    plan.dictionary                 # the loaded dictionary (glossary.dictionary's model)
    plan.site_files(), plan.picture_files(slugs), plan.demo(slug) ...

`Source` is the one place that tells a main .tex file from a YAML file naming one (or, without a
source, this repository's own Markdown entries).  `Plan` is one edition's build of it: the
dictionary it loads, every results/ path the rules name, and each job's inputs and params.  The
Snakemake rules (workflow/rules/common.smk's input functions), the driver of `make site`
(glossary.build) and the stamp of its no-op (glossary.stamp) ask it; none decides again.
"""
import difflib
import os
import posixpath
import shutil
from functools import cached_property
from pathlib import Path

from glossary import (
    assets,
    batchfiles,
    catalog,
    codekey,
    dictionary,
    documents,
    editions,
    imports,
    jsonio,
    layout,
    model,
    reading,
)
from glossary import entries as glossary_entries

YAML_SUFFIXES = (".yaml", ".yml")
# This repository's files that every build reads (what the stamp of a no-op build hashes).
SOURCES = assets.SOURCES
STAGED = "results/site"
# Held by a running build; a folder that holds it is a build's folder, whose files are no source.
LOCK = "results/.build.lock"
CATALOG = "results/catalog.json"
# The driver's read of the dictionary, kept for the plan's (glossary.texdict.check_main's memo).
READ_MEMO = "results/cache/read.pickle"
# The driver (glossary.build) starts Snakemake while it checks the dictionary, and tells it through the
# pipe this variable names whether to go on (wait_for_check): what the two start with runs side by side.
CHECKED_FD = "GLOSSARY_CHECKED_FD"
# Each term's model, kept under what it is made of (glossary.dictionary.kept_models).
MODELS_MEMO = "results/cache/models.pickle"
# Each name read as prose, kept under what it is made of (glossary.render.names_read).
NAMES_MEMO = "results/cache/names-read.json"
REFERENCES = "results/references.json"
FORMS = "results/forms.json"
# Every entry's metadata (glossary.entries.front_matter), for terms.json and llms.txt.
METAS = "results/metas.json"
# What the catalog is made by besides the prose: the sections, the batches, each entry's "see also"
# (a file, not the rule's params: Snakemake keeps a job's params in the record of each of its outputs,
# 109 for the catalog at 5,000 terms, 48 MB rewritten at every edit).
CATALOG_PLAN = "results/catalog-plan.json"
# Each script's library input (Plan.lib); "_": no entry slug, so no per-entry rule claims these files.
LIBS = "results/_lib"
# The files of one entry in the staged site, by kind: links (Plan.link_entry_files) to the file its
# batch's job writes into its folder (glossary.batchfiles.site_folder).
ENTRY_FILES = {kind: f"{STAGED}/terms/{{slug}}{suffix}" for kind, suffix in batchfiles.SITE_FILES.items()}
# An entry's pictures and graphics in the staged site: links too, to the files of its batch's pictures
# folder (batchfiles.PICTURES), where they lie under the same names below the entry's slug.
PICTURE_KINDS = ("pictures", "graphics")


def wait_for_check():
    """Waits for the driver's check of the dictionary where the driver started this process before the
    check ended (CHECKED_FD): whether it passed.  Then the plan reads the dictionary as the driver kept it
    (READ_MEMO)."""
    fd = os.environ.pop(CHECKED_FD, None)
    if fd is None:
        return True
    with os.fdopen(int(fd), "rb") as told:
        return told.read() == b"go"


def mend_batch_folders(folder="."):
    """Before a build, holding its lock (glossary.build): remove each batch folder that a link of the staged
    site points into and that lacks the file it points at (deleted by hand), so that Snakemake, which looks
    for a directory output and not for what is in it, makes it again; and each batch folder no link points
    into (a batch of an earlier plan).  The links are each entry's page, Markdown and PDF in terms/, and its
    pictures and graphics in terms/<slug>/pictures/ and graphics/.  Returns the folders removed."""
    folder = Path(folder)
    terms = folder / posixpath.dirname(ENTRY_FILES["page"])
    kinds = folder / batchfiles.BATCH_FOLDERS
    linked, broken, holds = set(), set(), {}

    def follow(link, below):
        """The batch folder `link` points into (`below` levels under it), noted; broken where its file is not there."""
        parent, name = os.path.split(os.path.normpath(os.path.join(os.path.dirname(link), os.readlink(link))))
        made = parent
        for _ in range(below):
            made = os.path.dirname(made)
        linked.add(made)
        if parent not in holds:       # each folder listed once, not each link followed
            holds[parent] = set(os.listdir(parent)) if os.path.isdir(parent) else None
        # a batch folder that is there without the file (or the entry's folder in it, for a picture)
        if (name not in holds[parent]) if holds[parent] is not None else os.path.isdir(made):
            broken.add(made)

    if terms.is_dir():
        with os.scandir(terms) as found:
            for entry in found:
                if entry.is_symlink():
                    follow(entry.path, 0)
                elif entry.is_dir():
                    for kind in PICTURE_KINDS:
                        if os.path.isdir(os.path.join(entry.path, kind)):
                            with os.scandir(os.path.join(entry.path, kind)) as shown:
                                for picture in shown:
                                    if picture.is_symlink():
                                        follow(picture.path, 2)     # <batch>/<slug>/pictures/<n>.svg
    stale = {str(kinds / kind / batch) for kind in (os.listdir(kinds) if kinds.is_dir() else ())
             for batch in os.listdir(kinds / kind)} - (linked - broken)
    for made in sorted(stale):
        shutil.rmtree(made, ignore_errors=True)
    return sorted(stale)


def _link(link, target):
    """`link` (a path as a string: the plan makes 18,000 at 5,000 terms, and pathlib's objects took a third
    of that) a symbolic link to `target`, unless it is that link already; replaced whole, never half made."""
    try:
        if os.readlink(link) == target:
            return
    except FileNotFoundError:
        os.makedirs(os.path.dirname(link), exist_ok=True)
    except OSError:         # a file, from a build before the batches' folders
        pass
    folder, name = os.path.split(link)
    tmp = os.path.join(folder, f".{name}.{os.getpid()}.link")
    try:
        os.unlink(tmp)
    except FileNotFoundError:
        pass
    os.symlink(target, tmp)
    os.replace(tmp, link)


class Source:
    """What a build is named (SOURCE=): a glossaries-extra main .tex file, a YAML file naming one
    (with the site's fields, demos and editions), or nothing: this repository's Markdown entries."""

    def __init__(self, path=None):
        self.path = Path(path) if path else None
        self.is_yaml = bool(self.path) and self.path.suffix in YAML_SUFFIXES

    def __bool__(self):
        return self.path is not None

    def __repr__(self):
        return f"Source({str(self.path) if self.path else None!r})"

    @cached_property
    def config(self):
        """The YAML file's fields, parsed and checked once (glossary.texdict.read_config: paths joined
        to its folder); a main .tex file's are {"main", "demos": {}}; {} without a source."""
        if not self.path:
            return {}
        if not self.is_yaml:
            return {"main": str(self.path), "demos": {}}
        # 16 ms to import after this module: the no-op build (0.19 s) of a .tex source or of the
        # repository's own entries does without it (docs/performance.md, deferred imports)
        from glossary import texdict
        return texdict.read_config(self.path)

    @property
    def main(self):
        """The dictionary's main .tex file, or None for the repository's own entries."""
        return Path(self.config["main"]) if self.path else None

    @property
    def language(self):
        return self.config.get("language", "en")

    @property
    def editions(self):
        """The translations the YAML file names: {lang: {"main": path, ...}}."""
        return self.config.get("editions", {})

    def read(self, memo=None):
        """glossary.texdict's read of the main file, with "config" (the fields above); a demo given
        to a key the dictionary lacks is an EntryError.  `memo`: glossary.texdict.check_main's."""
        from glossary import texdict  # see config
        if not self.is_yaml and self.path.suffix != ".tex":
            raise glossary_entries.EntryError(f"{self.path}: a dictionary source is its main .tex file or a .yaml "
                                              "config naming it")
        read = texdict.read(self.main, memo=memo)
        keys = {e["key"] for e in read["entries"].values()}
        for key in self.config["demos"]:
            if key not in keys:
                close = difflib.get_close_matches(key, sorted(keys), n=3, cutoff=0.6)
                hint = f"did you mean {', '.join(close)}?" if close else "use a term's key"
                raise glossary_entries.EntryError(f"{self.path}: demos.{key}: no term has the key {key!r}; {hint}")
        read["config"] = self.config
        return read

    def roots(self, repo="."):
        """[(folder, names under it)] of what a build reads: this repository's sources, and for a
        dictionary kept elsewhere its file and everything in its main file's folder (glossary.stamp)."""
        roots = [assets.own_files(repo)]
        if self.path:
            source = self.path.resolve()
            roots.append((str(source.parent), [source.name]))
            roots.append((str(self.main.resolve().parent), ["."]))
        return roots

    def roots_unchecked(self, repo="."):
        """roots() from the YAML file as it reads, before it is checked against its schema (importing
        jsonschema was a fifth of a no-op build at 5,000 terms), for the no-op's comparison with the stamp
        alone: a stamp that matches holds the YAML file's bytes as the last build, which checked them,
        read them.  None where the file names editions (their folders are the plan's) or cannot be read
        so: the build then goes the long way, which tells what is wrong."""
        if not (self.path and self.is_yaml):
            return self.roots(repo)
        from glossary import texdict  # see config
        try:
            config = texdict.read_config(self.path, check=False)
            if config.get("editions"):
                return None
            main = Path(config["main"]).resolve()
        except Exception:       # whatever a file its schema would refuse makes of it: the long way tells
            return None
        source = self.path.resolve()
        return [assets.own_files(repo), (str(source.parent), [source.name]), (str(main.parent), ["."])]

    def site_facts(self):
        """What every page says of the dictionary (glossary.dictionary.site_facts: Plan.site without the
        header's notation and abbreviations links), from the main and YAML files alone, without
        reading the terms: the preview's page parameters."""
        return dictionary.site_facts(dictionary.source_fields(self.config, dictionary.book_of(self.main, self.config)))

    def title_note(self):
        """One line when the dictionary's title is its main file's name: neither the main file nor the
        YAML file gives one (None otherwise, and when they cannot be read: the build then tells why)."""
        from glossary import texmeta  # 5 ms to import after this module: the no-op does without it
        try:
            if self.config.get("title") or texmeta.read(self.config["main"])["title"]:
                return None
        except (glossary_entries.EntryError, OSError):
            return None
        return (f"note: {self.main}: no \\title{{...}}, so the site is titled {self.main.stem!r}, its file's name; "
                "add \\title{...} to the main file or title: to a YAML file naming it")


def edition_runs(source, spec=None):
    """The Snakemake runs of a build: one, or one per language edition (glossary.editions), the base
    first: [{"lang", "source", "prefix", "folder"}] (write_editions adds each one's --config items).
    The editions come from EDITIONS= (`spec`: "de=<main>"), else from the YAML file's editions:."""
    if not source:
        if spec:
            raise ValueError("EDITIONS= translates a dictionary kept elsewhere: give its SOURCE= too")
        return [{"lang": "en", "source": None, "prefix": "", "folder": "."}]
    found = source.editions
    if spec:
        found = {lang: {"main": path} for lang, path in editions.parse_spec(spec).items()}
        for lang, path in found.items():
            if not Path(path["main"]).is_file():
                raise ValueError(f"EDITIONS: {lang}={path['main']}: no such file; name the edition's main .tex file")
    if not found:
        return [{"lang": source.language, "source": str(source.path), "prefix": "", "folder": "."}]
    return editions.plan(str(source.path), source.language, found)["editions"]


def write_editions(runs):
    """results/editions.json, the plan every edition's run reads (rewritten only when it changes);
    each run's --config names it by its absolute path."""
    path = Path(editions.PLAN).resolve()
    keep = ("lang", "source", "prefix", "folder", "title", "description", "complete", "sections")
    dictionary.write_if_changed(path, jsonio.dumps({"base": runs[0]["lang"], "editions": [
        {k: r[k] for k in keep if k in r} for r in runs]}))
    for r in runs:
        r["config"] = [f"edition={r['lang']}", f"editions={path}"]
        Path(r["folder"]).mkdir(parents=True, exist_ok=True)


def load(config, repo):
    """The dictionary a Snakemake config names (see Plan.from_config)."""
    return Plan.from_config(config, repo).dictionary


class Plan:
    """One edition's build of a Source: its dictionary, its files and its jobs' inputs and params.
    `config`: config.yaml's values (entries_dir, site_title, batch_size ...); `editions_file`: the path of
    results/editions.json when the build has several editions (`edition`: this run's language)."""

    def __init__(self, source, edition=None, *, config, repo, editions_file=None, read_key=None):
        self.source, self.edition, self.config = source, edition, config
        self.repo, self.editions_file = Path(repo), editions_file
        # the hash of every source (glossary.stamp), taken now: the driver's read kept under it is this
        # build's (glossary.texdict.check_main's memo; read_key gives it anew)
        self.read_memo = (READ_MEMO, read_key(), read_key) if read_key else None
        self._code_keys = {}
        self._libs = {}         # lib(): a batch rule's script is named by each of its batches' rules

    @classmethod
    def from_config(cls, config, repo, read_key=None):
        """The plan of a Snakemake run: config holds `source`, and `edition`/`editions` when the
        driver planned several (glossary.build); `read_key`: a function giving glossary.stamp.read_key of
        the sources, under which the driver kept its read of the dictionary."""
        return cls(Source(config.get("source")), config.get("edition"), config=config, repo=repo,
                   editions_file=config.get("editions"), read_key=read_key)

    # --- the dictionary ----------------------------------------------------------------------------

    @cached_property
    def dictionary(self):
        """The dictionary of this build (glossary.dictionary's model: entries, sections, batches ...)."""
        config = self.config
        several = jsonio.read(self.editions_file) if self.editions_file else None
        if several:
            base = Source(several["editions"][0]["source"]).read()
            read, extra, view, fallback, book = dictionary.load_edition(several, self.edition, base)
            loaded = dictionary.from_source(read, extra, book)
            loaded.update(edition_view=view, fallback=fallback)
            if extra.get("bibliography") and not (loaded["bibliography"] and Path(loaded["bibliography"]).is_file()):
                loaded["bibliography"] = extra["bibliography"]     # a translation's missing one: the base's
        elif self.source:
            # `make serve`'s draft (config draft=1): the terms that build, the others left out
            read = dictionary.draft(self.source) if config.get("draft") else self.source.read(self.read_memo)
            extra = read["config"]
            loaded = dictionary.from_source(read, extra, dictionary.book_of(read["main"], extra),
                                            models=MODELS_MEMO if self.read_memo else None)
            loaded["fallback"] = read.get("draft_targets", {})
        else:
            loaded = dictionary.from_entries(config, self.repo)
        if "edition_view" not in loaded:
            loaded["edition_view"] = editions.single(loaded["language"])
            loaded.setdefault("fallback", {})
        name = loaded["captions"].get("figure", {}).get("name")
        if name:    # the main file's word for a figure (\captionsetup[figure]{name=Fig.}) is its pages' too
            view = loaded["edition_view"]
            loaded["edition_view"] = dict(view, messages=dict(view["messages"], Figure=name))
        dictionary.attach_demos(loaded)
        loaded["cited"] = dictionary.check_citations(loaded)
        loaded["batches"] = dictionary.batches(loaded["entries"], config.get("batch_size", 96))
        return loaded

    @cached_property
    def folder(self):
        """The dictionary's folder, all of the machine that its TeX runs read besides TeX Live
        (glossary.pictures.View): the folder of the source the build was given, for a translation
        its base's; None for this repository's own entries."""
        several = jsonio.read(self.editions_file) if self.editions_file else None
        given = several["editions"][0]["source"] if several else self.source.path
        return str(Path(given).resolve().parent) if given else None

    @property
    def entries(self):
        return self.dictionary["entries"]

    @property
    def batches(self):
        return self.dictionary["batches"]

    @property
    def demo_scripts(self):
        """The demos a LaTeX dictionary's YAML file gives its terms, by slug (Markdown entries have their own)."""
        return self.dictionary.get("demo_scripts", {})

    @property
    def edition_view(self):
        """What this edition's pages show of every edition (glossary.editions)."""
        return self.dictionary["edition_view"]

    @property
    def babel(self):
        """babel's language of the PDFs (hyphenation, quotes, "Contents"); none for English, LaTeX's default."""
        lang = self.edition_view["lang"]
        return editions.LANGUAGES[lang]["babel"] if lang != "en" else ""

    @property
    def captions(self):
        """{"figure"/"table": \\captionsetup options} of the PDFs' captions, as the main file sets its own
        (the model's `captions`, glossary.texmeta): {} for LaTeX's "Figure 1:"."""
        return {kind: ",".join(f"{k}={v}" for k, v in sorted(setting.items()))
                for kind, setting in sorted(self.dictionary["captions"].items())}

    def write_snapshots(self, folder="."):
        """Each entry's model, and the names and labels every entry may refer to, as files rewritten
        only when they change: the batch jobs' inputs, so an edit reruns exactly the batches it touches."""
        written = dictionary.Written(folder)
        digests = {slug: dictionary.snapshot(entry, folder, written) for slug, entry in self.entries.items()}
        for batch, slugs in self.batches.items():
            dictionary.batch_snapshots(batch, slugs, digests, folder)
        dictionary.write_if_changed(Path(folder) / METAS, jsonio.dumps(
            {slug: glossary_entries.front_matter(e) for slug, e in self.entries.items()}, compact=True))
        dictionary.write_names(self.dictionary, folder, lambda targets: self.names_read(targets, folder), written)
        written.keep()
        dictionary.write_if_changed(Path(folder) / CATALOG_PLAN, jsonio.dumps({
            "sections": self.dictionary["sections"], "batches": list(self.batches.items()),
            "see_also": [[slug, e["see_also"]] for slug, e in self.entries.items()]}, compact=True))

    def names_read(self, targets, folder="."):
        """The entries' names their reader reads as prose, as every page and PDF shows them
        (glossary.render.names_read), each kept in NAMES_MEMO; `targets`: names.json's."""
        # the models of those names alone: making all 5,000 took half a second of each build's start
        read = [model.Entry.from_json(e) for e in self.entries.values() if documents.name_reader(e)]
        if not read:
            return {}
        from glossary import render  # pandoc's: the no-op build does without it
        context = {"latex_macros": "".join(Path(p).read_text(encoding="utf-8") for p in self.dictionary["macro_files"]),
                   "targets": targets}
        return render.names_read(read, context, Path(folder) / NAMES_MEMO)

    @cached_property
    def site(self):
        """What every page's footer, the feeds and the "Cite this entry" records say of the dictionary,
        and which of the notation and abbreviations pages the header links to."""
        facts = dictionary.site_facts(self.dictionary)
        facts.update(notation=self.notation_page, abbreviations=self.abbreviations_page)
        return facts

    # --- this repository's files -------------------------------------------------------------------

    def repo_file(self, path):
        """One of this repository's own files (a template, the lock file) as the rules name it: relative
        when the build runs in the repository, absolute when it builds in another folder (OUT=)."""
        return path if self._in_repo else str(self.repo / path)

    @cached_property
    def _in_repo(self):
        return Path.cwd().resolve() == self.repo.resolve()

    def lib(self, script):
        """The one input that stands for scripts/<script>.py and the shared package's modules it imports,
        directly or not: results/_lib/<script>.json names each with the sha256 of its bytes and is
        rewritten only when one changes, so an edit of any of them reruns the rule's jobs.  One file, not
        the modules themselves: Snakemake's record of each output file repeats all its job's inputs."""
        if script in self._libs:
            return self._libs[script]
        path = Path(LIBS) / f"{script}.json"
        code = self.repo / f"scripts/{script}.py"
        # the script itself too: a rule that runs it in Snakemake's process (glossary.inprocess) has no
        # `script:` whose code Snakemake keeps track of
        found = {f"scripts/{script}.py": imports.file_sha256(code),
                 **imports.digest(str(code), str(assets.src_of(self.repo)))}
        dictionary.write_if_changed(path, jsonio.dumps(found))
        self._libs[script] = str(path)
        return str(path)

    # --- an entry's demo and figures ---------------------------------------------------------------

    def demo(self, slug):
        """The demo script: beside entry.md, or where a dictionary's YAML file names it."""
        if slug in self.demo_scripts:
            return self.demo_scripts[slug]["script"]
        return f"{self.config['entries_dir']}/{slug}/{self.entries[slug]['demo']}"

    def demo_file(self, slug):
        """Where the demo's csv and figures are declared, as error messages name it: entry.md, or the
        dictionary's `demos:` entry of the term (beside its script)."""
        if slug in self.demo_scripts:
            key = self.entries[slug]["key"]
            return f"{self.demo(slug)}: term {key!r} (demos.{key})"
        return self.entries[slug]["path"]

    def demo_folder(self, slug):
        """The folder a demo's own files (custom figure templates, data) sit in."""
        if slug in self.demo_scripts:
            return str(Path(self.demo(slug)).parent)
        return f"{self.config['entries_dir']}/{slug}"

    def code_key(self, slug):
        """The meaning of the demo's code (glossary.codekey): the training rules' key instead of its bytes."""
        path = self.demo(slug)
        if path not in self._code_keys:
            self._code_keys[path] = codekey.file_key(path)
        return self._code_keys[path]

    def entry_data(self, slug):
        """The data files entry.md declares (`data`): inputs of the compute rules, so an edit retrains."""
        return [f"{self.demo_folder(slug)}/{name}" for name in self.entries[slug].get("data", [])]

    def figure(self, slug, name):
        return next(f for f in self.entries[slug]["figures"] if f["name"] == name)

    def figure_index(self, slug, name):
        return [f["name"] for f in self.entries[slug]["figures"]].index(name)

    def figure_template(self, slug, name):
        """A built-in kind's template, or a custom figure's own .tex.j2 beside its entry.md."""
        spec = self.figure(slug, name)
        if spec["kind"] == "custom":
            return f"{self.demo_folder(slug)}/{spec['source']}"
        return self.repo_file(f"templates/figures/{spec['kind']}.tex.j2")

    def has_demo(self, slug):
        return "demo" in self.entries[slug]

    def demo_slugs(self, slugs):
        return [s for s in slugs if self.has_demo(s)]

    def plain_slugs(self):
        """The terms whose demo is a plain script (rule plain_demo), sorted."""
        return sorted(s for s, d in self.demo_scripts.items() if d["kind"] == "plain")

    def figure_pdfs(self, slug):
        figures = f"{STAGED}/terms/{slug}/figures"
        return [f"{figures}/{f['name']}.pdf" for f in self.entries[slug]["figures"]]

    # --- the batches: prose, pictures, pages, print ------------------------------------------------

    def batch_facts(self, slugs):
        return [f"results/{s}/facts/{step}.json" for s in self.demo_slugs(slugs)
                for step in ("tokenize", "train", "export")]

    def batch_checks(self, slugs):
        return [c for s in self.demo_slugs(slugs) for c in layout.page_inputs(s, self.entries)["checks"]]

    def batch_page_inputs(self, slugs):
        """The demo outputs the pages of a batch show (entries without a demo show none)."""
        files = []
        for s in self.demo_slugs(slugs):
            inputs = layout.page_inputs(s, self.entries)
            files += inputs["checks"] + [inputs["data"], inputs["script"], inputs["preview"]]
            files += inputs["svgs"]
        return files

    def picture_files(self, slugs, exts=("pdf", "svg")):
        """What the pictures and graphics of these entries' prose publish beside their pages."""
        files = []
        for s in slugs:
            e = self.entries[s]
            files += [f"{STAGED}/terms/{s}/pictures/{p['n']}.{x}" for p in e["pictures"] for x in exts]
            files += [f"{STAGED}/terms/{s}/graphics/{g['n']}{Path(g['path']).suffix.lower()}"
                      for g in e.get("graphics", [])]
        return files

    def batch_pictures(self, batch):
        """The batch's pictures folder (batchfiles.PICTURES), where its entries have pictures or graphics."""
        return [batchfiles.site_folder(batchfiles.PICTURES, batch)] if self.picture_files(self.batches[batch]) else []

    def pictures_folders(self):
        return [f for batch in self.batches for f in self.batch_pictures(batch)]

    def graphics_sources(self, slugs):
        root = Path(self.dictionary["root"])
        return [str(root / g["path"]) for s in slugs for g in self.entries[s].get("graphics", [])]

    @cached_property
    def cited(self):
        """The keys the entries and the List of Symbols cite, sorted: the records formatted once."""
        found = dictionary.symbol_citations(self.symbols_file) if self.symbols_file else []
        return sorted(set(self.dictionary["cited"]) | set(dictionary.check_citations(self.dictionary, found)))

    def references(self):
        """The cited records, formatted once for the whole build (none when nothing is cited)."""
        return [REFERENCES] if self.cited else []

    def views(self):
        return [catalog.view_path(b) for b in self.batches]

    # --- the book ----------------------------------------------------------------------------------

    def book_order(self):
        """The entries' slugs in the book's order (by section, then alphabetical by title)."""
        return dictionary.book_order(self.dictionary)

    def book_sections(self):
        """The files of every batch's print sections (glossary.batchfiles)."""
        return [batchfiles.sections_path(b) for b in self.batches]

    def book_parts(self):
        """The book's parts: each section of the dictionary with the number of its entries and their
        initial letters (dictionary.initial), in the book's order."""
        order = dictionary.book_order(self.dictionary)
        return [{"title": sec["title"], "count": len(slugs),
                 "initials": [dictionary.initial(s, self.entries[s]) for s in slugs]}
                for sec in self.dictionary["sections"]
                for slugs in [[s for s in order if self.entries[s]["section"] == sec["id"]]]]

    def book_figures(self):
        return [pdf for slug in self.entries for pdf in self.figure_pdfs(slug)]

    # --- the reading aids (workflow/rules/reading.smk) ----------------------------------------------

    def reading_sections(self):
        """The ids of the sections that hold terms, in the dictionary's order."""
        used = {e["section"] for e in self.entries.values()}
        return [s["id"] for s in self.dictionary["sections"] if s["id"] in used]

    @property
    def language_script(self):
        """The stemmer of the edition's language, as lunr-languages writes it (none for English)."""
        return reading.language_file(self.edition_view["lang"])

    def language_scripts(self):
        """The published lunr-languages files of this edition's search (site names without ".min")."""
        if not self.language_script:
            return []
        return [f"{STAGED}/{f.replace('.min.js', '.js')}" for f in (reading.LUNR_SUPPORT, self.language_script)]

    @cached_property
    def _notation(self):
        # glossary.notation reads TeX (texdict, render: 62 ms to import after this module): only the
        # workflow asks this, not the no-op build
        from glossary import notation
        return notation

    @property
    def symbols_file(self):
        """The List of Symbols the main file inputs (the model's `symbols_file`, glossary.texmeta), or None."""
        return self.dictionary["symbols_file"]

    @cached_property
    def notation_macros(self):
        """The macro files the notation page documents (a Markdown dictionary's: notation.sty)."""
        return self.dictionary["macro_files"] or [self.repo_file("templates/notation.sty")]

    @property
    def several_editions(self):
        return len(self.edition_view["editions"]) > 1

    @cached_property
    def notation_page(self):
        """Whether the notation page is made: with several editions always (each page's language
        switcher links to the same page of every edition), else when it has something to list."""
        return self.several_editions or self._notation.has_notation(self.symbols_file, self.notation_macros)

    @cached_property
    def abbreviations_page(self):
        return self.several_editions or self._notation.has_abbreviations(self.entries)

    def symbols_where(self):
        """The List of Symbols as messages name it: relative to the dictionary's folder."""
        return os.path.relpath(self.symbols_file, self.dictionary["root"]) if self.symbols_file else ""

    def draft_pages(self):
        """The pages of `make serve`'s draft that the preview serves in place of the terms left out (the
        draft's targets "draft:<slug>", glossary.dictionary.draft): the link check takes them as there."""
        return sorted(f"terms/{t['slug'].split(':', 1)[1]}.html" for t in self.dictionary.get("fallback", {}).values()
                      if t["slug"].startswith("draft:"))

    def notation_pages(self):
        """The notation and abbreviations pages this build makes, relative to the site's root."""
        pages = ((self._notation.SYMBOLS_PAGE, self.notation_page),
                 (self._notation.ABBREVIATIONS_PAGE, self.abbreviations_page))
        return [p for p, made in pages if made]

    def reading_files(self):
        files = [f"{STAGED}/sections/{s}.html" for s in self.reading_sections()] + self.language_scripts()
        files += [f"{STAGED}/{p}" for p in self.notation_pages()]
        names = reading.search_paths() + ["previews.js", "reading.js", "lunr.js"]
        return files + [f"{STAGED}/{name}" for name in names]

    # --- the whole site ----------------------------------------------------------------------------

    def entry_files(self, slug):
        """What the site publishes of one entry."""
        e, terms = self.entries[slug], f"{STAGED}/terms"
        files = [ENTRY_FILES[name].format(slug=slug) for name in ("page", "markdown", "pdf")]
        if self.has_demo(slug):
            files += [f"{terms}/{slug}.py", f"{terms}/{slug}.ipynb", f"{terms}/{slug}/data",
                      f"{terms}/{slug}/{e['preview']}"]
        for fig in e["figures"]:
            files += [f"{terms}/{slug}/figures/{fig['name']}.{ext}" for ext in ("pdf", "svg", "png")]
        return files + self.picture_files([slug])

    def site_files(self):
        """Every file of the staged site: what `make site` publishes, and all it publishes
        (glossary.publish's listing)."""
        names = ("index.html", "style.css", "favicon.svg", "favicon.ico", "build-info.json", "terms.json",
                 "sitemap.xml", "llms.txt", "notation.sty", "dictionary.pdf")
        files = [f"{STAGED}/{name}" for name in names]
        for slug in self.entries:
            files += self.entry_files(slug)
        return files + self.reading_files()

    def made_files(self):
        """What the jobs make of the staged site, as Snakemake knows it (the link check's inputs but the
        book; rule all asks for the book and for those missing): site_files, each batch's folders in place
        of its entries' pages, Markdown, PDFs, pictures and graphics."""
        linked = {pattern.format(slug=slug) for slug in self.entries for pattern in ENTRY_FILES.values()}
        linked.update(self.picture_files(list(self.entries)))
        return ([f for f in self.site_files() if f not in linked]
                + [batchfiles.site_folder(kind, batch) for batch in self.batches for kind in ENTRY_FILES]
                + self.pictures_folders())

    def link_entry_files(self, folder="."):
        """Each entry's ENTRY_FILES, pictures and graphics in the staged site as a relative symbolic link to
        the file its batch's job writes, made only where it is not that link already (every Snakemake
        process of a build reads the plan: the Slurm jobs' may do it at once)."""
        folder = str(folder)
        terms = posixpath.dirname(ENTRY_FILES["page"])
        for batch, slugs in self.batches.items():
            for kind, pattern in ENTRY_FILES.items():
                # the batch's folder as seen from the links' folder
                seen = os.path.relpath(batchfiles.site_folder(kind, batch), posixpath.dirname(pattern))
                for slug in slugs:
                    name = pattern.format(slug=slug)
                    _link(os.path.join(folder, name), f"{seen}/{posixpath.basename(name)}")
            # terms/<slug>/pictures/<n>.svg: <slug>/pictures/<n>.svg in the batch's folder, seen from
            # terms/<slug>/pictures/
            seen = os.path.relpath(batchfiles.site_folder(batchfiles.PICTURES, batch), f"{terms}/slug/kind")
            for staged in self.picture_files(slugs):
                _link(os.path.join(folder, staged), f"{seen}/{staged[len(terms) + 1:]}")

    def site_pages(self):
        """The pages sitemap.xml lists, relative to the site's root."""
        return (["index.html"] + [f"terms/{slug}.html" for slug in self.entries] + self.notation_pages()
                + [f"sections/{s}.html" for s in self.reading_sections()])
