"""`make serve`: a live preview of the site for editors, on 127.0.0.1.

It serves the staged site results/site/ (what `make site` publishes), overlaid
by results/preview/ (pages this process renders itself), and watches the
sources with watchfiles:

- an edit of an entry's prose only (entries/<slug>/entry.md whose front matter
  still reads as at the last good build) renders that page in this process
  (as glossary.pagejob.preview_page does) into results/preview/terms/<slug>.html,
  and the open tab swaps in its new body;
- any other edit runs Snakemake (glossary.build.run_snakemake): progress in the
  terminal and as a banner on the page, a reload when it ends, and a failure's
  short account as an overlay until the mistake is fixed.

The reload channel is a few lines of JavaScript served under /__preview/ and
added to HTML responses as they are sent: no file on disk carries it.  Nothing
here writes site/ or .snakemake/.

    PYTHONPATH=src python -m glossary.preview --port 8000
"""
import argparse
import contextlib
import hashlib
import http.server
import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

STAGED, OVERLAY = Path("results/site"), Path("results/preview")
SOURCES = ("templates", "scripts", "src", "workflow")
TOP_FILES = ("config.yaml", "Snakefile")
PREFIX = "/__preview/"
CHROMIUM = "/usr/bin/chromium"      # Debian's, for measure_save_to_screen: Playwright downloads no browser
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]
# Small batching windows: a save reaches the page in tens of milliseconds, not watchfiles' default 1.6 s.
WATCH = {"debounce": 30, "step": 10, "rust_timeout": 200}

CLIENT = """\
(() => {
  const es = new EventSource("/__preview/events");
  const css = {
    "__preview-banner": "position:fixed;top:0;left:0;right:0;z-index:2147483647;margin:0;padding:.4em 1em;"
      + "font:14px/1.4 system-ui,sans-serif;background:#1f4e8c;color:#fff",
    "__preview-overlay": "position:fixed;inset:0;z-index:2147483646;margin:0;padding:2em;overflow:auto;"
      + "font:14px/1.5 ui-monospace,monospace;white-space:pre-wrap;background:rgba(30,0,0,.92);color:#fdd"};
  const box = (id) => {
    let el = document.getElementById(id);
    if (!el) {
      el = document.createElement(id === "__preview-overlay" ? "pre" : "div");
      el.id = id; el.style.cssText = css[id]; el.setAttribute("role", "status");
      document.body.append(el);
    }
    return el;
  };
  const drop = (id) => document.getElementById(id)?.remove();
  const data = (m) => JSON.parse(m.data);
  es.addEventListener("progress", (m) => {
    const d = data(m);
    box("__preview-banner").textContent = "Building\u2026" + (d.total ? ` ${d.done}/${d.total}` : "")
      + (d.eta != null ? `, about ${Math.ceil(d.eta)} s left` : "");
  });
  es.addEventListener("error", (m) => {   // also fired, without data, when the connection drops
    if (!m.data) return;
    drop("__preview-banner");
    box("__preview-overlay").textContent = "The preview could not be updated:\\n\\n" + data(m).lines.join("\\n");
  });
  es.addEventListener("ok", () => { drop("__preview-banner"); drop("__preview-overlay"); });
  // A page whose prose changed swaps in its new body (no stylesheet, figure or scroll position is lost);
  // after a build, every page reloads.
  es.addEventListener("reload", async (m) => {
    const pages = data(m).pages;
    if (!pages) return location.reload();
    if (!pages.includes(location.pathname)) return;
    try {
      const res = await fetch(location.pathname, {cache: "no-store"});
      const doc = new DOMParser().parseFromString(await res.text(), "text/html");
      const keep = ["__preview-banner", "__preview-overlay"].map((id) => document.getElementById(id));
      document.body.replaceChildren(...doc.body.childNodes, ...keep.filter(Boolean));
      document.title = doc.title;
    } catch (e) { location.reload(); }
  });
})();
"""
TAG = b'<script src="/__preview/client.js"></script>'
NOT_BUILT = ("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Not built yet</title></head>"
             "<body><p>This page is not built yet; it appears here when the build ends.</p></body></html>")


def inject(html):
    """The page with the reload channel's script tag before </body> (at the end when there is none)."""
    at = html.rfind(b"</body>")
    return html + TAG if at < 0 else html[:at] + TAG + html[at:]


# --- the channel to the open pages -----------------------------------------------------

class Hub:
    """Server-sent events to every open page; a page that connects gets the current banner and overlay."""

    def __init__(self):
        self.lock = threading.Lock()
        self.clients = set()
        self.state = {}     # "progress" and "error": what a page that connects now must show

    def publish(self, kind, data=None):
        data = {} if data is None else data
        with self.lock:
            if kind == "progress":
                self.state["progress"] = data
            elif kind == "error":
                self.state.pop("progress", None)
                self.state["error"] = data
            elif kind == "ok":
                self.state.clear()
            clients = list(self.clients)
        for q in clients:
            q.put((kind, data))

    def subscribe(self):
        q = queue.Queue()
        with self.lock:
            self.clients.add(q)
            for kind, data in self.state.items():
                q.put((kind, data))
        return q

    def unsubscribe(self, q):
        with self.lock:
            self.clients.discard(q)

    def close(self):
        with self.lock:
            clients = list(self.clients)
        for q in clients:
            q.put(None)


class Handler(http.server.SimpleHTTPRequestHandler):
    """results/site with results/preview over it; HTML gets the reload channel; nothing is cached."""

    hub = None
    root = Path(".")

    def log_message(self, *args):
        pass

    def end_headers(self):
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def translate_path(self, path):
        staged = Path(super().translate_path(path))     # under self.directory, i.e. results/site
        rel = os.path.relpath(staged, self.directory)
        overlay = self.root / OVERLAY / rel
        return str(overlay) if overlay.is_file() else str(staged)

    def do_GET(self):
        path = self.path.split("?", 1)[0]
        if path == PREFIX + "events":
            return self.events()
        if path == PREFIX + "client.js":
            return self.body(CLIENT.encode(), "text/javascript; charset=utf-8")
        if path == PREFIX + "state":
            with self.hub.lock:
                state = dict(self.hub.state)
            return self.body(json.dumps(state).encode(), "application/json")
        file = Path(self.translate_path(self.path))
        if file.is_dir() and path.endswith("/"):
            file = file / "index.html"
        if file.suffix == ".html":
            if file.is_file():
                return self.body(inject(file.read_bytes()), "text/html; charset=utf-8")
            return self.body(inject(NOT_BUILT.encode()), "text/html; charset=utf-8", status=404)
        return super().do_GET()

    def body(self, data, kind, status=200):
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        with contextlib.suppress(ConnectionError):
            self.wfile.write(data)

    def events(self):
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        q = self.hub.subscribe()
        try:
            self.wfile.write(b"retry: 500\n\n")
            self.wfile.flush()
            while True:
                try:
                    item = q.get(timeout=15)
                except queue.Empty:
                    self.wfile.write(b": keep-alive\n\n")     # finds pages that went away
                    self.wfile.flush()
                    continue
                if item is None:
                    return
                kind, data = item
                self.wfile.write(f"event: {kind}\ndata: {json.dumps(data)}\n\n".encode())
                self.wfile.flush()
        except (ConnectionError, OSError):
            pass
        finally:
            self.hub.unsubscribe(q)


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False


# --- what changed ------------------------------------------------------------------------

def digest(path):
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError:
        return None


class Sources:
    """The watched files as of the last build, to tell a prose edit from the rest."""

    def __init__(self, root, entries_dir):
        self.root, self.entries_dir = Path(root), entries_dir
        self.hashes = {}    # path (relative) -> sha256, when the last build started
        self.meta = None    # slug -> front matter, at the last good build (None: no good build yet)

    def files(self):
        out = [self.root / f for f in TOP_FILES if (self.root / f).is_file()]
        for folder in (self.entries_dir, *SOURCES):
            base = self.root / folder
            out += [p for p in base.rglob("*") if p.is_file() and "__pycache__" not in p.parts]
        return out

    def snapshot(self):
        """(hashes, front matter of each entry) as a build starting now sees them."""
        from glossary.entries import EntryError, split_front_matter
        hashes = {p.relative_to(self.root).as_posix(): digest(p) for p in self.files()}
        meta = {}
        for md in sorted((self.root / self.entries_dir).glob("*/entry.md")):
            try:
                meta[md.parent.name] = split_front_matter(md.read_text(encoding="utf-8"), md)[0]
            except (EntryError, OSError, UnicodeDecodeError):
                meta[md.parent.name] = None     # never equal to what an edit parses to: a build tells the mistake
        return hashes, meta

    def prose_slug(self, rel):
        """The entry's slug when rel is its entry.md and only its prose differs from the last good build."""
        from glossary.entries import EntryError, split_front_matter
        parts = rel.split("/")
        if self.meta is None or len(parts) != 3 or parts[0] != self.entries_dir or parts[2] != "entry.md":
            return None
        slug, md = parts[1], self.root / rel
        try:
            meta = split_front_matter(md.read_text(encoding="utf-8"), md)[0]
        except (EntryError, OSError, UnicodeDecodeError):
            return None
        return slug if slug in self.meta and self.meta[slug] == meta else None

    def path_of(self, slug):
        return f"{self.entries_dir}/{slug}/entry.md"

    def folders(self):
        """The folders to watch, recursively."""
        return [self.root / f for f in (self.entries_dir, *SOURCES) if (self.root / f).is_dir()]

    def classify(self, paths):
        """(slugs whose prose alone changed, paths that need a build) for the changed paths."""
        prose, build = set(), set()
        for path in paths:
            try:
                rel = Path(path).resolve().relative_to(self.root.resolve()).as_posix()
            except ValueError:
                continue
            slug = self.prose_slug(rel)
            if slug:
                prose.add(slug)
            elif digest(self.root / rel) != self.hashes.get(rel):     # not a file saved unchanged, nor a temp file
                build.add(rel)
        return prose, build


class TexSources:
    """A LaTeX dictionary's sources (glossary.stamp.source_roots) and this repository's, as of the last
    build, to tell a save that changed descriptions only from the rest.

    At each build's start it reads the whole dictionary (glossary.texdict, about 0.6 s) and keeps, per
    glossary file, each term's options as written; a save of a glossary file is then read alone: its
    terms' options are compared with those, and only a term whose description differs is scanned
    again (texdict's Reader.entry), so that a save costs one file's parse, not the dictionary's."""

    def __init__(self, repo, source):
        from glossary import stamp
        self.repo, self.source = Path(repo), Path(source).resolve()
        self.roots = stamp.source_roots(self.repo, self.source)
        self.hashes = {}    # absolute path -> sha256, when the last build started
        self.meta = None    # the dictionary as the last good build read it (None: no good build yet)
        self.models = {}    # slug -> the model to render, from the last classify()
        self.dirty = {}     # glossary file -> the slugs whose description differs from the last build's

    def folders(self):
        """The folders to watch, recursively: this repository's code and the dictionary's folders."""
        found = [self.repo / f for f in SOURCES if (self.repo / f).is_dir()]
        return found + sorted({Path(folder) for folder, _ in self.roots[1:]})

    def files(self):
        from glossary import stamp
        return [Path(folder) / rel for folder, names in self.roots for rel in stamp.files(folder, names)]

    def snapshot(self):
        """(hashes, the dictionary's reading) as a build starting now sees them; the reading is None when
        the dictionary does not read (the build tells the mistake)."""
        from glossary.entries import EntryError
        hashes = {str(p): digest(p) for p in self.files()}
        try:
            meta = read_baseline(self.source)
        except (EntryError, OSError, UnicodeDecodeError, ValueError):
            meta = None
        return hashes, meta

    def classify(self, paths):
        """(slugs whose description alone changed, paths that need a build) for the changed paths; the
        slugs' models to render are left in self.models."""
        from glossary import dictionary, jsonio
        prose, build = set(), set()
        for path in paths:
            path = Path(path).resolve()
            key, rel = str(path), self.glossary_file(path)
            if rel is None:
                if digest(path) != self.hashes.get(key):     # not a file saved unchanged, nor a temp file
                    build.add(key)
                continue
            changed = description_changes(self.meta, rel, path)
            if changed is None:
                build.add(key)
                continue
            reverted, self.dirty[rel] = self.dirty.get(rel, set()) - set(changed), set(changed)
            for slug in reverted:   # a description edited and then put back: its page is the last build's again
                changed[slug] = jsonio.read(Path(dictionary.snapshot_path(slug)))
            prose |= set(changed)
            self.models.update(changed)
        return prose, build

    def path_of(self, slug):
        model = self.models.get(slug)
        return model["path"] if model else str(self.source)

    def glossary_file(self, path):
        """path relative to the dictionary's folder when it is one of its glossary files, else None."""
        if self.meta is None:
            return None
        try:
            rel = path.relative_to(self.meta["root"]).as_posix()
        except ValueError:
            return None
        return rel if rel in self.meta["files"] else None


def read_baseline(source):
    """The dictionary at a build's start: {"root", "reader", "declared", "files": {glossary file:
    {key: its options as (name, value) pairs}}, "terms": {key: texdict's term}, "labels", "cited"}."""
    from glossary import dictionary, texdict
    source = Path(source)
    main = Path(texdict.read_config(source)["main"]) if source.suffix in (".yaml", ".yml") else source
    reader = texdict.Reader(main)
    read = reader.read()
    declared = texdict.read_main(main, main.parent)[2]
    files = {rel: options_by_key(texdict.Source(main.parent / rel, rel)) for rel in read["glossary_files"]}
    terms = {t["key"]: t for t in read["entries"].values()}
    cited = {k.strip() for t in terms.values() for m in dictionary.LATEX_CITE.finditer(t["body"])
             for k in m.group(1).split(",")}
    return {"root": main.parent, "reader": reader, "declared": declared, "files": files, "terms": terms,
            "labels": read["labels"], "cited": cited}


def options_by_key(src):
    """{key: ((option, value), ...)} of one glossary file's terms, as written (offsets left out)."""
    from glossary import texdict
    return {key: tuple((name, value) for name, value, _ in options) for key, _, options in texdict.entries_of(src)}


# What a description's scan gives that no other term's page or job may depend on, unless it changes.
SAME = ("title", "forms", "section", "see_also")


def description_changes(meta, rel, path):
    """{slug: model to render} of the terms of glossary file `rel` whose description alone changed since
    the last good build (an empty dict: none), or None when the save needs a build: a term added,
    removed or renamed, another option changed, a picture, graphic, label or "See also" changed, a
    \\gls key or label or citation the last build did not have, or a file that does not read."""
    from glossary import dictionary, jsonio, texdict
    from glossary.entries import EntryError
    try:
        src = texdict.Source(path, rel)
        found = texdict.entries_of(src)
    except (EntryError, OSError, UnicodeDecodeError):
        return None
    before = meta["files"][rel]
    if sorted(k for k, _, _ in found) != sorted(before):
        return None
    changed = {}
    for key, at, options in found:
        now = tuple((name, value) for name, value, _ in options)
        if now == before[key]:
            continue
        if [o for o in now if o[0] != "description"] != [o for o in before[key] if o[0] != "description"]:
            return None
        try:
            term, body = meta["reader"].entry(src, key, at, options, meta["declared"])
        except EntryError:
            return None
        old = meta["terms"][key]
        term["see_also"] = [texdict.slug_of(k) for k in term["see_also"]]
        if not same_term(term, old, body, meta):
            return None
        model = jsonio.read(Path(dictionary.snapshot_path(old["slug"])))
        model.update(body=term["body"], line=term["line"], body_line=term["body_line"],
                     pictures=term["pictures"], graphics=term["graphics"])
        changed[old["slug"]] = model
    return changed


def same_term(term, old, body, meta):
    """True when the term read now differs from the last build's in its description's text alone."""
    from glossary import dictionary

    def placed(items):
        return [{k: v for k, v in item.items() if k != "line"} for item in items]     # lines move with edits

    if any(term[f] != old[f] for f in SAME):
        return False
    if placed(term["pictures"]) != placed(old["pictures"]) or placed(term["graphics"]) != placed(old["graphics"]):
        return False
    labels = {name: {"slug": old["slug"], "kind": kind, "number": number} for name, _, kind, number in body.labels}
    if labels != {n: v for n, v in meta["labels"].items() if v["slug"] == old["slug"]}:
        return False
    if any(name not in meta["terms"] for name, _ in body.gls) or any(n not in meta["labels"] for n, _, _ in body.refs):
        return False
    cites = {k.strip() for m in dictionary.LATEX_CITE.finditer(term["body"]) for k in m.group(1).split(",")}
    return cites <= meta["cited"]


# --- the preview ---------------------------------------------------------------------------

def say(line):
    print(f"preview: {line}", flush=True)


class Preview:
    """The server, the watcher and the builder of `make serve`: root is the build's folder (results/,
    the working folder), repo this repository, source a LaTeX dictionary's main .tex or YAML file (None:
    the Markdown entries under config.yaml's entries_dir)."""

    def __init__(self, root=".", cores=2, source=None, repo=None):
        import yaml
        self.root = Path(root)
        self.repo = Path(repo) if repo else self.root
        self.source = str(Path(source).resolve()) if source else None
        config = yaml.safe_load((self.repo / "config.yaml").read_text(encoding="utf-8"))
        self.config = config
        self.sources = TexSources(self.repo, self.source) if source else Sources(self.repo, config["entries_dir"])
        self.dictionary = None      # a LaTeX dictionary's render context, read at its first fast render
        self.cores = cores
        self.hub = Hub()
        self.stop = threading.Event()
        self.wanted = threading.Event()     # a build is due
        self.reasons = set()
        self.building = False
        self.build_error = None     # the failed last build's account, until a build succeeds
        self.prose_during_build = set()
        self.lock, self.render_lock = threading.Lock(), threading.Lock()
        self.jobs = {}      # slug -> its page job, while that entry's prose is edited
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
            finally:
                with self.lock:
                    self.building = False
                    redo = set(self.prose_during_build)
            self.render(redo)      # prose saved while Snakemake ran: its page may predate the edit

    def build(self, reasons):
        from glossary import build
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

        waiting = False
        while True:
            try:
                outcome = build.run_snakemake(cores=self.cores, on_event=on_event, source=self.source)
                break
            except build.BuildBusy as err:
                if not waiting:
                    waiting = True
                    say(f"waiting: {err}")
                if self.stop.wait(1):
                    return
        took = time.monotonic() - started
        self.jobs = {}
        if outcome.interrupted or self.stop.is_set():
            say("build interrupted")
            return
        if not outcome.ok:
            lines = list(outcome.summary) or ["the build failed; see logs/"]
            print("\n".join(lines), file=sys.stderr, flush=True)
            say(f"build failed after {took:.1f} s; fix the mistake and save: the preview builds again")
            self.build_error = lines
            self.hub.publish("error", {"lines": lines})
            return
        self.build_error = None
        self.sources.meta = meta
        self.sources.dirty, self.dictionary = {}, None     # the overlay goes; the results are new
        clear_overlay(self.root)
        say(f"built in {took:.1f} s")
        self.hub.publish("ok")
        self.hub.publish("reload", {"pages": None})

    # the fast path ----------------------------------------------------------------------

    def render(self, slugs):
        """Each entry's page from its current prose, into results/preview; then the open pages reload."""
        with self.render_lock:      # the watcher's thread and, after a build, the builder's
            self._render(slugs)

    def _render(self, slugs):
        from glossary.entries import EntryError
        done, errors = [], []
        # a LaTeX dictionary's changed terms in one batch (one pandoc run); a Markdown entry one by one
        groups = [sorted(slugs)] if self.source and slugs else [[slug] for slug in sorted(slugs)]
        for group in groups:
            started = time.monotonic()
            try:
                pages = self.pages_html(group)
            except EntryError as err:
                say(f"error: {err}")
                errors.append(str(err))
                continue
            except Exception as err:   # noqa: BLE001 - Snakemake's own run tells what went wrong, in its words
                say(f"{', '.join(group)}: the page could not be rendered here ({type(err).__name__}: {err}); "
                    "building instead")
                self.request_build([self.sources.path_of(slug) for slug in group])
                continue
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

    def pages_html(self, slugs):
        """{slug: its page's HTML} from the prose as it is now."""
        if not self.source:
            return {slug: self.page_html(slug) for slug in slugs}
        from glossary import pagejob
        if self.dictionary is None:
            self.dictionary = dictionary_context(self.source, self.config, self.repo)
        d = self.dictionary
        return pagejob.dictionary_pages([self.sources.models[s] for s in slugs], d["context"], d["catalog"],
                                        d["site"], self.repo, d["backlinks"])

    def page_html(self, slug):
        """pagejob.preview_page(slug), keeping the page job while the same entry is edited: a prose edit
        changes none of it (the job holds every entry's front matter, read and checked, and the entries
        that link to this one, which another entry's prose edit can change)."""
        from glossary import pagejob
        if slug not in self.jobs:
            self.jobs = {slug: pagejob.preview_job(slug, root=str(self.root))}
        job = self.jobs[slug]
        return pagejob.render(job, pagejob.preview_prose(job))

    def changed(self, paths):
        prose, needs_build = self.sources.classify(paths)
        if needs_build:
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
            if self.source:     # a term's page from its last build's model, written nowhere
                from glossary import dictionary, jsonio
                slug = sorted(p.stem for p in (self.root / dictionary.SNAPSHOTS).glob("*.json"))[0]
                self.sources.models.setdefault(slug, jsonio.read(self.root / dictionary.snapshot_path(slug)))
                self.pages_html([slug])
                return
            slug = next(iter(sorted(self.sources.meta or {})), None)
            if slug:
                self.page_html(slug)

    # watching ---------------------------------------------------------------------------

    def watch(self, changes):
        """Feed changes (sets of paths) from watchfiles into the queue until stopped."""
        import watchfiles
        folders = [str(f) for f in self.sources.folders()]
        # A second, flat watch of the repository for config.yaml and Snakefile: an editor that saves by
        # renaming replaces the file a file watch would hold.
        top = {str((self.repo / f).resolve()) for f in TOP_FILES}

        def run(paths, recursive, keep=None):
            for batch in watchfiles.watch(*paths, recursive=recursive, stop_event=self.stop, **WATCH):
                paths = {p for _, p in batch if keep is None or str(Path(p).resolve()) in keep}
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
        threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.2}, daemon=True).start()
        say(f"serving http://127.0.0.1:{server.server_address[1]}/ (Ctrl-C stops it)")
        changes = queue.Queue()
        self.watch(changes)
        self.request_build([])
        self.builder.start()
        warmed = False
        try:
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
                    self.changed(paths)
                except Exception as err:    # noqa: BLE001 - the server outlives one bad edit
                    say(f"error: {type(err).__name__}: {err}")
        except KeyboardInterrupt:
            say("stopping")
        finally:
            self.stop.set()
            self.hub.close()
            self.wait_for_build()
            server.shutdown()
            server.server_close()
        return 0

    def wait_for_build(self):
        """A build in flight gets SIGINT (Ctrl-C in a terminal already sent it) and is waited for."""
        if not self.builder.is_alive():
            return
        if self.building:
            say("waiting for the build to stop")
        self.builder.join(timeout=3)
        if self.builder.is_alive():
            for pid in children():
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGINT)
            self.builder.join()


def dictionary_context(source, config, repo):
    """What a LaTeX dictionary's fast render needs of the last good build, read once per build:
    {"context": render_batch's context, "catalog": results/catalog.json, "backlinks": the sentences
    results/backlinks/ holds, "site": the page's parameters {"title", "base_url", "site",
    "colab_prefix"} as workflow/rules/common.smk sets them}."""
    from glossary import catalog, dictionary, jsonio, notation, pagejob, texdict
    extra = texdict.read_config(Path(source)) if Path(source).suffix in (".yaml", ".yml") else {}
    main = Path(extra.get("main", source))
    macro_files = [main.parent / rel for rel in texdict.Reader(main).read()["macro_files"]]
    facts = dictionary.site_facts(dict(dictionary.book_of(main, extra), attribution=extra.get("attribution"),
                                       description=extra.get("description") or dictionary.DICTIONARY_SUMMARY,
                                       site_url=extra.get("url", "")))
    # The header links to the notation and abbreviations pages the build made (reading_files.smk).
    facts.update({key: (Path("results/site") / page).is_file() for key, page in
                  (("notation", notation.SYMBOLS_PAGE), ("abbreviations", notation.ABBREVIATIONS_PAGE))})
    site = {"title": facts["title"], "base_url": extra.get("url", ""), "site": facts,
            "colab_prefix": config["colab_prefix"]}
    return {"context": pagejob.dictionary_context(macro_files, repo),
            "catalog": jsonio.read(Path("results/catalog.json")), "backlinks": catalog.last_backlinks(),
            "site": site}


def children():
    """The ids of this process's child processes (Snakemake, during a build)."""
    me, out = os.getpid(), []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                stat = (entry / "stat").read_text()
                if int(stat.rsplit(")", 1)[1].split()[1]) == me:
                    out.append(int(entry.name))
    return out


def write_atomic(path, text):
    """Write path whole or not at all: the server never sends half a page."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def clear_overlay(root="."):
    """After a good build results/site is current: the preview's own pages go."""
    import shutil
    shutil.rmtree(Path(root) / OVERLAY, ignore_errors=True)


# --- measuring ----------------------------------------------------------------------------------

def measure_save_to_screen(root, slug, n=10, port=None, timeout=600, browser=None):
    """Seconds from saving a prose edit of entries/<slug>/entry.md to the new sentence on the open page,
    for n edits, through a preview server started in root (Chromium under Playwright, or the given
    Playwright browser).  entry.md is restored afterwards."""
    import socket

    from playwright.sync_api import sync_playwright

    root = Path(root).resolve()
    if port is None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
    env = dict(os.environ, PYTHONPATH=str(root / "src"))
    proc = subprocess.Popen([sys.executable, "-m", "glossary.preview", "--port", str(port)], cwd=root, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
    lines = []
    threading.Thread(target=lambda: lines.extend(proc.stdout), daemon=True).start()
    md = root / "entries" / slug / "entry.md"
    original = md.read_text(encoding="utf-8")
    url = f"http://127.0.0.1:{port}/"
    try:
        wait_until_built(url, proc, lines, timeout)
        if browser is not None:
            return _measure(browser, f"{url}terms/{slug}.html", md, n)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                return _measure(browser, f"{url}terms/{slug}.html", md, n)
            finally:
                browser.close()
    finally:
        md.write_text(original, encoding="utf-8")
        stop(proc)


def _measure(browser, url, md, n):
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(url)
        return save_to_screen(page, md, n)
    finally:
        context.close()


SHOWN = "(s) => document.body !== null && document.body.innerText.includes(s)"     # laid out, not just parsed


def save_to_screen(page, md, n=10):
    """Seconds from writing a new sentence into md to its showing on the open Playwright page, n times;
    md is left with the last sentence added."""
    original, times = md.read_text(encoding="utf-8"), []
    for i in range(n):
        sentence = f"Preview probe {i} of {os.getpid()} reads on the page."
        started = time.perf_counter()
        md.write_text(original.rstrip("\n") + f"\n\n{sentence}\n", encoding="utf-8")
        # Checked at every animation frame: a locator's wait_for polls at 20, 50, then 100 ms steps.
        page.wait_for_function(SHOWN, arg=sentence, polling="raf", timeout=30_000)
        times.append(time.perf_counter() - started)
        time.sleep(0.3)     # edits as an editor saves them, not a burst that watchfiles batches together
    return times


def wait_until_built(url, proc, lines, timeout):
    """Until the server's first build has ended well."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError("the preview server stopped:\n" + "".join(lines[-30:]))
        if any("built in" in line for line in lines):
            return
        if any("build failed" in line for line in lines):
            raise RuntimeError("the preview's build failed:\n" + "".join(lines[-30:]))
        time.sleep(0.1)
    raise TimeoutError("the preview's first build did not end in time:\n" + "".join(lines[-30:]))


def stop(proc, timeout=60):
    """Ctrl-C to the server's process group, as a terminal sends it; then wait."""
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGINT)
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


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
    if args.editions:
        print("error: make serve previews the base edition (SOURCE=) alone "
              "(EDITIONS= is for make site)", file=sys.stderr)
        return 1
    from glossary.build import REPO
    source = str(Path(args.source).resolve()) if args.source else None
    if source and not Path(source).is_file():
        print(f"error: SOURCE={args.source}: no such file; name the dictionary's main .tex file or its "
              "YAML file", file=sys.stderr)
        return 1
    if args.out:
        Path(args.out).mkdir(parents=True, exist_ok=True)
        os.chdir(args.out)
    signal.signal(signal.SIGTERM, interrupt)
    signal.signal(signal.SIGINT, signal.default_int_handler)    # even when started with SIGINT ignored (`&`)
    return Preview(".", cores=args.cores, source=source, repo=REPO).run(args.port)


if __name__ == "__main__":
    sys.exit(main())
