"""`make serve`: a live preview of the site for editors, on 127.0.0.1.

It serves the staged site results/site/ (what `make site` publishes), overlaid
by results/preview/ (pages this process renders itself), and watches the
sources with watchfiles:

- an edit of an entry's prose only (entries/<slug>/entry.md whose front matter
  still reads as at the last good build, or a LaTeX term's description) renders
  that page in this process, through the build's reader, prose batch and page
  job (the bytes `make site` publishes for it), into
  results/preview/terms/<slug>.html, and the open tab swaps in its new body;
- any other edit runs Snakemake (glossary.build.run_snakemake): progress in the
  terminal and as a banner on the page, a reload when it ends, and a failure's
  short account as an overlay until the mistake is fixed.

The server and its reload channel are glossary.previewserver's; what a save
changed, glossary.previewsources'; the time from a save to the screen is
measured by glossary.previewmeasure.  Nothing here writes site/; .snakemake/ only
Snakemake writes (`snakemake --unlock` after a run the preview had to kill).

    PYTHONPATH=src python -m glossary.preview --port 8000
"""
import argparse
import contextlib
import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import watchfiles
import yaml

from glossary import build, catalog, dictionary, errors, jsonio, notation, pagejob, plan, previewdraft
from glossary.entries import EntryError
from glossary.previewserver import OVERLAY, STAGED, Handler, Hub, Server
from glossary.previewsources import TOP_FILES, NeedsBuild, Sources, TexSources, digest

# Small batching windows: a save reaches the page in tens of milliseconds, not watchfiles' default 1.6 s.
WATCH = {"debounce": 30, "step": 10, "rust_timeout": 200}
# How long a stopped build may take to end after its interrupt before Snakemake and its jobs are killed.
STOP_WAIT = 10
# The sources each page of the overlay was rendered from ({page: {path: sha256}}): a page whose sources
# have changed since (an edit reverted while no preview ran) is never served.
OVERLAY_SOURCES = OVERLAY.with_name("preview-sources.json")

# How long a changed file found empty waits for the write that follows (an editor that saves by
# truncating and then writing leaves it empty for a moment; on a loaded machine, longer than the debounce).
EMPTY_WAIT = 1.0


def settled(paths, changes, wait=EMPTY_WAIT):
    """The changed paths, once none of them is an empty file or `wait` seconds have passed, with the
    changes that came meanwhile: a build never reads a source half-saved."""
    deadline = time.monotonic() + wait
    while any(empty(p) for p in paths) and time.monotonic() < deadline:
        try:
            paths |= changes.get(timeout=0.05)
        except queue.Empty:
            pass
    return paths


def empty(path):
    """Whether path is an empty file (not one that is gone: an editor's temporary file renamed away)."""
    try:
        return os.stat(path).st_size == 0 and os.path.isfile(path)
    except OSError:
        return False


# --- the preview ---------------------------------------------------------------------------

def say(line):
    print(f"preview: {line}", flush=True)


class Preview:
    """The server, the watcher and the builder of `make serve`: root is the build's folder (results/,
    the working folder), repo this repository, source a LaTeX dictionary's main .tex or YAML file (None:
    the Markdown entries under config.yaml's entries_dir)."""

    def __init__(self, root=".", cores=2, source=None, repo=None):
        self.root = Path(root)
        self.repo = Path(repo) if repo else self.root
        self.source = str(Path(source).resolve()) if source else None
        config = yaml.safe_load((self.repo / "config.yaml").read_text(encoding="utf-8"))
        self.config = config
        self.sources = TexSources(self.repo, self.source) if source else Sources(self.repo, config["entries_dir"])
        self.context = None     # the last build's page context (page_context), read at the first fast render
        self.cores = cores
        self.hub = Hub()
        self.stop = threading.Event()
        self.wanted = threading.Event()     # a build is due
        self.reasons = set()
        self.building = False
        self.build_error = None     # the failed last build's account, until a build succeeds
        self.prose_during_build = set()
        self.lock, self.render_lock = threading.Lock(), threading.Lock()
        self.snakemake = None   # the running Snakemake process (a Popen), in a process group of its own
        self.killed = False     # the last Snakemake run was killed: its lock in .snakemake/locks stayed
        self.interrupted = set()    # the Snakemake processes sent SIGINT
        self.builder = threading.Thread(target=self.build_loop, name="build", daemon=True)

    # builds -----------------------------------------------------------------------

    def request_build(self, reasons):
        with self.lock:
            self.reasons |= set(reasons)
        self.wanted.set()

    def build_loop(self):
        while not self.stop.is_set():
            if not self.wanted.wait(timeout=0.2):
                continue
            self.wanted.clear()
            with self.lock:
                reasons, self.reasons = sorted(self.reasons), set()
                self.building = True
                self.prose_during_build = set()
            try:
                self.build(reasons)
            except Exception as err:    # noqa: BLE001 - the builder outlives one bad build; the next save retries
                say(f"error: {type(err).__name__}: {err}")
                self.build_error = [f"error: {err}"]
                self.hub.publish("error", {"lines": self.build_error})
            finally:
                with self.lock:
                    self.building = False
                    redo = set(self.prose_during_build)
            if not self.stop.is_set():
                self.render(redo)      # prose saved while Snakemake ran: its page may predate the edit

    def build(self, reasons):
        hashes, meta = self.sources.snapshot()
        self.sources.hashes = hashes    # edits from now on are newer than this build
        why = ", ".join(reasons[:3]) + (f" and {len(reasons) - 3} more" if len(reasons) > 3 else "")
        say(f"building ({why} changed)" if reasons else "building the site")
        self.hub.publish("progress", {"done": 0, "total": 0, "eta": None})
        started = time.monotonic()
        progress = build.Progress(show=True)    # the terminal's lines, as `make site` prints them
        shown = [None]

        def on_event(event):
            progress(event)
            data = {"done": progress.done, "total": progress.total or 0, "eta": progress.eta()}
            if event.get("event") in ("run_info", "progress", "job_info") and data != shown[0]:
                shown[0] = data
                self.hub.publish("progress", data)

        # A LaTeX dictionary with mistakes builds as a draft: the terms that build (config draft=1), and
        # a page of its mistakes for each other term (glossary.previewdraft), written after the build.
        read, mistakes = dictionary.check(self.source) if self.source else (None, [])
        # The draft's links to those pages are the preview's own: the link check takes them as there
        # (Plan.draft_pages); an --omit-from would leave out every job after the catalog's checkpoint too.
        waiting = False
        while True:
            if self.stop.is_set():
                return
            try:
                with build.build_lock() as fd:
                    outcome = build.run_snakemake(cores=self.cores, on_event=on_event,
                                                  source=self.source, lock_fd=fd, on_start=self.started,
                                                  config=("draft=1",) if self.source else ())
                    if self.killed:     # lifted under the build lock, before another build can start
                        self.unlock()
                break
            except build.BuildBusy as err:
                if not waiting:
                    waiting = True
                    say(f"waiting: {err}")
                if self.stop.wait(1):
                    return
        took = time.monotonic() - started
        if outcome.interrupted or self.stop.is_set():
            say("build interrupted")
            return
        if not outcome.ok:
            lines = list(outcome.summary) or ["the build failed; see logs/"]
            print("\n".join(lines), file=sys.stderr, flush=True)
            say(f"build failed after {took:.1f} s; fix the mistake and save: the preview builds again")
            self.build_error = lines
            self.write_draft(read, mistakes)
            self.hub.publish("error", {"lines": lines})
            return
        self.build_error = None
        self.sources.meta = meta
        self.sources.dirty, self.context = {}, None     # the overlay goes; the results are new
        clear_overlay(self.root)
        self.write_draft(read, mistakes)
        say(f"built in {took:.1f} s" + (" (a draft: the terms with mistakes are left out)" if mistakes else ""))
        self.hub.publish("ok")
        self.hub.publish("reload", {"pages": None})

    def write_draft(self, read, mistakes):
        """The draft's pages (glossary.previewdraft) into the overlay, each recorded with the sources it
        was made from (the dictionary's files and the staged index): a later edit prunes it."""
        index = self.root / STAGED / "index.html"
        pages = previewdraft.draft_pages(read, mistakes, index.read_text(encoding="utf-8") if index.is_file() else None)
        if not pages:
            return
        root = Path(read["root"])
        files = [self.source, read["main"], index] + [root / f for f in read["glossary_files"] + read["macro_files"]]
        sources = {str(Path(f).resolve()): digest(f) for f in files}
        with self.render_lock:
            record_overlay(self.root, {page: sources for page in pages})
            for page, text in pages.items():
                write_atomic(self.root / OVERLAY / page, text)
        print(errors.report(mistakes), file=sys.stderr, flush=True)
        say(f"draft: {len(read['left_out'])} terms do not build; the index lists them, each with a page of its "
            "mistakes (make site publishes nothing until they are fixed)")

    def started(self, proc):
        """run_snakemake's on_start: keep the process to stop; a stop that came first stops it at once."""
        with self.lock:
            self.snakemake = proc
        if self.stop.is_set():
            self.interrupt(proc)

    def unlock(self):
        """Lift the Snakemake lock a killed run left in .snakemake/locks, as `snakemake --unlock` does."""
        command = build.snakemake_command(self.cores, None, ["--unlock", "--quiet"], self.source)
        done = subprocess.run(command, env=build.snakemake_env(), stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, check=False)
        say("lifted Snakemake's lock" if done.returncode == 0 else "could not lift Snakemake's lock: run "
            "snakemake --unlock")

    # the fast path ----------------------------------------------------------------------

    def render(self, slugs):
        """Each entry's page from its current prose, into results/preview; then the open pages reload."""
        with self.render_lock:      # the watcher's thread and, after a build, the builder's
            self._render(slugs)

    def _render(self, slugs):
        done, errors = [], []
        # a LaTeX dictionary's changed terms in one batch (one pandoc run); a Markdown entry one by one
        groups = [sorted(slugs)] if self.source and slugs else [[slug] for slug in sorted(slugs)]
        for group in groups:
            started = time.monotonic()
            # what each page is rendered from, read before it is: an edit during the render outdates it
            sources = {slug: self.page_sources(slug) for slug in group}
            try:
                pages = self.pages_html(group)
            except EntryError as err:
                say(f"error: {err}")
                errors.append(str(err))
                continue
            except NeedsBuild as err:
                say(f"{err}: building")
                self.request_build([self.sources.path_of(slug) for slug in group])
                continue
            except Exception as err:   # noqa: BLE001 - Snakemake's own run tells what went wrong, in its words
                say(f"{', '.join(group)}: the page could not be rendered here ({type(err).__name__}: {err}); "
                    "building instead")
                self.request_build([self.sources.path_of(slug) for slug in group])
                continue
            record_overlay(self.root, {f"terms/{slug}.html": sources[slug] for slug in group})
            for slug in group:
                write_atomic(self.root / OVERLAY / "terms" / f"{slug}.html", pages[slug])
                done.append(f"/terms/{slug}.html")
            say(f"{', '.join(group)}: {'page' if len(group) == 1 else f'{len(group)} pages'} rendered in "
                f"{(time.monotonic() - started) * 1000:.0f} ms (prose only)")
        if errors or (done and self.build_error):     # a failed build's account stays until a build succeeds
            self.hub.publish("error", {"lines": errors + (self.build_error or [])})
        elif done:
            self.hub.publish("ok")      # a prose mistake shown before is fixed
        if done:
            self.hub.publish("reload", {"pages": done})

    def page_sources(self, slug):
        """{path: sha256} of the files a fast render of `slug` reads that a build may change: the entry's
        source file(s) and the last build's model of it."""
        paths = [*self.sources.source_files(slug), self.root / dictionary.snapshot_path(slug)]
        return {str(Path(p).resolve()): digest(p) for p in paths}

    def pages_html(self, slugs):
        """{slug: its page's HTML} from the prose as it is now, rendered as the build renders it: the
        entry's model (the last build's, its prose read now), glossary.render's batch and the page job
        (glossary.pagejob), with the last build's names, catalog and page parameters."""
        if self.context is None:
            self.context = page_context(self.source, self.config, self.repo)
        d = self.context
        return pagejob.dictionary_pages([self.sources.model(s) for s in slugs], d["context"], d["catalog"],
                                        d["site"], self.repo, d["backlinks"])

    def changed(self, paths):
        prose, needs_build = self.sources.classify(paths)
        if needs_build:
            with self.render_lock:      # a page whose source changed is not served while the build runs
                prune_overlay(self.root)
            self.request_build(needs_build)
            return
        with self.lock:
            if self.building or self.wanted.is_set():
                self.prose_during_build |= prose
                return
        if prose:
            self.render(prose)

    def warm_up(self):
        """Import the page's libraries now, and render one page unseen, so the first edit is quick."""
        with contextlib.suppress(Exception):
            slug = sorted(p.stem for p in (self.root / dictionary.SNAPSHOTS).glob("*.json"))[0]
            if self.source:     # a term's page from its last build's model, written nowhere
                self.sources.models.setdefault(slug, jsonio.read(self.root / dictionary.snapshot_path(slug)))
            self.pages_html([slug])

    # watching ---------------------------------------------------------------------------

    def watch(self, changes):
        """Feed changes (sets of paths) from watchfiles into the queue until stopped."""
        folders = [str(f) for f in self.sources.folders()]
        # A second, flat watch of the repository for config.yaml and Snakefile: an editor that saves by
        # renaming replaces the file a file watch would hold.
        top = {str((self.repo / f).resolve()) for f in TOP_FILES}
        # The build's folder inside a watched one (the `glossary` command's _build/ in the dictionary's
        # folder): its own writes are no edit.
        own = self.root.resolve()
        own = own if any(own.is_relative_to(Path(f).resolve()) for f in folders) else None

        def run(paths, recursive, keep=None):
            for batch in watchfiles.watch(*paths, recursive=recursive, stop_event=self.stop, **WATCH):
                paths = {p for _, p in batch if (keep is None or str(Path(p).resolve()) in keep)
                         and not (own and Path(p).resolve().is_relative_to(own))}
                if paths:
                    changes.put(paths)

        threads = [threading.Thread(target=run, args=(folders, True), daemon=True),
                   threading.Thread(target=run, args=([str(self.repo)], False, top), daemon=True)]
        for t in threads:
            t.start()
        return threads

    def run(self, port):
        Handler.hub, Handler.root = self.hub, self.root

        def handler(*args, **kwargs):
            return Handler(*args, directory=str(self.root / STAGED), **kwargs)

        try:
            server = Server(("127.0.0.1", port), handler)
        except OSError as err:
            raise SystemExit(f"error: cannot listen on 127.0.0.1:{port} ({err.strerror}); "
                             "choose another port: make serve PORT=8001") from None
        prune_overlay(self.root)    # before serving: an earlier session's page may show a reverted edit
        # started before the try: shutdown() in its finally waits for serve_forever to have run
        threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.2}, daemon=True).start()
        warmed = False
        try:
            say(f"serving http://127.0.0.1:{server.server_address[1]}/ (Ctrl-C stops it)")
            changes = queue.Queue()
            self.watch(changes)
            self.request_build([])
            self.builder.start()
            while True:
                try:
                    paths = changes.get(timeout=0.2)
                except queue.Empty:
                    if not warmed and self.sources.meta is not None and not self.building:
                        warmed = True
                        self.warm_up()
                    continue
                while not changes.empty():
                    paths |= changes.get_nowait()
                try:
                    self.changed(settled(paths, changes))
                except Exception as err:    # noqa: BLE001 - the server outlives one bad edit
                    say(f"error: {type(err).__name__}: {err}")
        except KeyboardInterrupt:
            say("stopping")
        finally:
            ignore_stop_signals()     # a second Ctrl-C or SIGTERM must not cut the clean-up short
            self.stop.set()
            self.hub.close()
            self.wait_for_build()
            server.shutdown()
            server.server_close()
        return 0

    def wait_for_build(self):
        """A build in flight gets SIGINT, as Ctrl-C gives `make site`, and STOP_WAIT seconds to end; then
        Snakemake and its jobs are killed, and the lock Snakemake left is lifted (the builder's thread
        holds the build lock until then)."""
        deadline = None
        while self.builder.is_alive():     # without Snakemake running, it sees self.stop within a second
            with self.lock:
                proc = self.snakemake
            if deadline is None and proc is not None and proc.poll() is None:
                say("waiting for the build to stop")
                self.interrupt(proc)
                deadline = time.monotonic() + STOP_WAIT
            if deadline is not None and time.monotonic() > deadline and not self.killed:
                say(f"the build did not stop within {STOP_WAIT} s: killing Snakemake and its jobs")
                self.killed = True
                signal_group(proc, signal.SIGKILL)
            self.builder.join(timeout=0.1)

    def interrupt(self, proc):
        """SIGINT to a Snakemake run, once: a second one would cut its own clean-up short."""
        with self.lock:
            if proc.pid in self.interrupted:
                return
            self.interrupted.add(proc.pid)
        signal_group(proc, signal.SIGINT)


def page_context(source, config, repo):
    """What the fast render needs of the last good build, read once per build: {"context": render_batch's
    context, "catalog": results/catalog.json, "backlinks": the sentences the batch views quote, "site":
    the page's parameters {"title", "base_url", "site", "colab_prefix"}}, from the dictionary as the
    workflow loads it (glossary.plan, as workflow/rules/common.smk's PLAN)."""
    loaded = plan.load(dict(config, source=source) if source else config, repo)
    facts = dictionary.site_facts(loaded)
    # The header links to the notation and abbreviations pages the build made (reading.smk).
    facts.update({key: (Path("results/site") / page).is_file() for key, page in
                  (("notation", notation.SYMBOLS_PAGE), ("abbreviations", notation.ABBREVIATIONS_PAGE))})
    site = {"title": loaded["title"], "base_url": loaded["site_url"], "site": facts,
            "colab_prefix": config["colab_prefix"]}
    return {"context": pagejob.dictionary_context(loaded["macro_files"], repo),
            "catalog": jsonio.read(Path("results/catalog.json")), "backlinks": catalog.last_backlinks(),
            "site": site}


def signal_group(proc, signum):
    """Send signum to Snakemake's process group: Snakemake and the jobs it runs."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signum)


def ignore_stop_signals():
    """Once stopping, SIGINT and SIGTERM are noted, not raised again (only the main thread sets them)."""
    if threading.current_thread() is threading.main_thread():
        for signum in (signal.SIGINT, signal.SIGTERM):
            signal.signal(signum, lambda *_: say("already stopping"))


def write_atomic(path, text):
    """Write path whole or not at all: the server never sends half a page."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def clear_overlay(root="."):
    """After a good build results/site is current: the preview's own pages go."""
    shutil.rmtree(Path(root) / OVERLAY, ignore_errors=True)
    Path(root, OVERLAY_SOURCES).unlink(missing_ok=True)


def overlay_record(root):
    try:
        return jsonio.read(Path(root) / OVERLAY_SOURCES)
    except (OSError, ValueError):
        return {}


def record_overlay(root, pages):
    """Note what each page about to be written to the overlay is rendered from ({page: {path: sha256}});
    written before the pages, so that a page is never on disk without its sources noted."""
    write_atomic(Path(root) / OVERLAY_SOURCES, json.dumps(dict(overlay_record(root), **pages), indent=1,
                                                          sort_keys=True))


def prune_overlay(root="."):
    """Remove the overlay's pages whose sources changed since they were rendered (an earlier preview's
    pages, the edit since reverted or the build since redone), and those with no record of their sources."""
    overlay, record = Path(root) / OVERLAY, overlay_record(root)
    kept = {}
    for page in sorted(p for p in overlay.rglob("*") if p.is_file()) if overlay.is_dir() else []:
        rel = page.relative_to(overlay).as_posix()
        sources = record.get(rel)
        if sources and all(digest(path) == sha for path, sha in sources.items()):
            kept[rel] = sources
        else:
            page.unlink()
            say(f"dropped {OVERLAY / rel}: its sources changed since it was rendered")
    if kept:
        write_atomic(Path(root) / OVERLAY_SOURCES, json.dumps(kept, indent=1, sort_keys=True))
    else:
        clear_overlay(root)


def interrupt(signum, frame):
    raise KeyboardInterrupt


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    parser.add_argument("--cores", default=os.environ.get("CORES", "2"))
    parser.add_argument("--source", default=os.environ.get("SOURCE") or None,
                        help="a dictionary's glossaries-extra main .tex file, or a YAML file naming one")
    parser.add_argument("--out", default=os.environ.get("OUT") or None,
                        help="the folder to build in (results/ and logs/ there); default: this repository")
    parser.add_argument("--editions", default=None, help="not for the preview (make site builds editions)")
    args = parser.parse_args(argv)
    # SIGTERM (kill, a service manager) stops the preview as Ctrl-C does, from here on.
    signal.signal(signal.SIGTERM, interrupt)
    signal.signal(signal.SIGINT, signal.default_int_handler)    # even when started with SIGINT ignored (`&`)
    if args.editions:
        print("error: make serve previews the base edition (SOURCE=) alone "
              "(EDITIONS= is for make site)", file=sys.stderr)
        return 1
    source = str(Path(args.source).resolve()) if args.source else None
    if source and not Path(source).is_file():
        print(f"error: SOURCE={args.source}: no such file; name the dictionary's main .tex file or its "
              "YAML file", file=sys.stderr)
        return 1
    if args.out:
        Path(args.out).mkdir(parents=True, exist_ok=True)
        os.chdir(args.out)
    try:
        return Preview(".", cores=args.cores, source=source, repo=build.REPO).run(args.port)
    except KeyboardInterrupt:   # stopped while starting, or a second signal during the clean-up
        say("stopped")
        return 0


if __name__ == "__main__":
    sys.exit(main())
