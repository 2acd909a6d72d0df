"""The preview's server: results/site (what `make site` publishes) with results/preview (the pages the
preview renders itself) over it, every HTML page sent with the reload channel's script, and the channel
itself: server-sent events that show a build's progress, its failure, and reload the open pages.

The channel is a few lines of JavaScript served under /__preview/ and added to HTML responses as they
are sent: no file on disk carries it.
"""
import contextlib
import http.server
import json
import os
import queue
import threading
from pathlib import Path

STAGED, OVERLAY = Path("results/site"), Path("results/preview")
PREFIX = "/__preview/"

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
