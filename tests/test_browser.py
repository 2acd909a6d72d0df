"""The built site in a real browser (Debian's Chromium driven by Playwright) and in the
Nu HTML checker: every page loads with no console error, no failed and no outside
request; figures and MathML are laid out; every internal link and download
resolves; the column stays readable from 1280 px down to 360 px, in both colour
schemes.  Screenshots are kept under test-artifacts/screenshots/ (git-ignored)."""
import contextlib
import functools
import http.server
import json
import shutil
import subprocess
import threading
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from conftest import REPO

from glossary.browser import CHROMIUM, CHROMIUM_ARGS

VNU = REPO / "node_modules/vnu-jar/build/dist/vnu.jar"
ARTIFACTS = REPO / "test-artifacts" / "screenshots"
# The one host outside the site a page may link to (never fetched here).
OUTSIDE = {"colab.research.google.com"}


def pages_of(site):
    return ["index.html"] + sorted(p.relative_to(site).as_posix() for folder in ("sections", "terms")
                                   for p in (site / folder).glob("*.html"))


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@contextlib.contextmanager
def serve(folder):
    """The folder over http on 127.0.0.1 (a free port), from a thread; yields the base URL."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                             functools.partial(QuietHandler, directory=str(folder)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


@contextlib.contextmanager
def chromium():
    """Debian's Chromium under Playwright (no browser download: executable_path)."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing; install Debian's: apt-get install chromium-headless-shell")
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


class Visit:
    """One page in a fresh context: what went wrong while it loaded."""

    def __init__(self, browser, url, width=1280, scheme="light"):
        self.context = browser.new_context(viewport={"width": width, "height": 900}, color_scheme=scheme)
        self.page = self.context.new_page()
        self.errors, self.failed, self.outside, self.dialogs = [], [], [], []
        origin = urllib.parse.urlsplit(url).netloc
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("requestfailed", lambda r: self.failed.append(f"{r.url} ({r.failure})"))
        self.page.on("response", lambda r: r.status >= 400 and self.failed.append(f"{r.url} ({r.status})"))
        self.page.on("dialog", lambda d: (self.dialogs.append(d.message), d.dismiss()))

        def route(r):
            if urllib.parse.urlsplit(r.request.url).netloc == origin:
                r.continue_()
            else:
                self.outside.append(r.request.url)
                r.abort()
        self.page.route("**/*", route)
        self.page.goto(url, wait_until="load")

    def close(self):
        self.context.close()

    def assert_clean(self):
        assert self.errors == [], f"console errors: {self.errors}"
        assert self.failed == [], f"failed requests: {self.failed}"
        assert self.outside == [], f"requests outside the site: {self.outside}"
        assert self.dialogs == [], f"dialogs opened: {self.dialogs}"


def visit(browser, url, **kw):
    v = Visit(browser, url, **kw)
    return contextlib.closing(v)


@pytest.fixture(scope="module")
def served(built):
    root, _ = built
    with serve(root / "site") as base:
        yield root / "site", base


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


def test_every_page_loads_clean_with_figures_and_math_laid_out(served, browser):
    site, base = served
    for name in pages_of(site):
        with visit(browser, base + name) as v:
            v.assert_clean()
            images = v.page.eval_on_selector_all("img", """els => els.map(e => ({
                src: e.getAttribute('src'), complete: e.complete, natural: e.naturalWidth,
                w: e.getBoundingClientRect().width, h: e.getBoundingClientRect().height}))""")
            for img in images:
                assert img["complete"] and img["natural"] > 0, f"{name}: {img['src']} not rendered"
                assert img["w"] > 0 and img["h"] > 0, f"{name}: {img['src']} has no box"
            svgs = v.page.eval_on_selector_all("svg", "els => els.map(e => e.getBoundingClientRect().width)")
            assert all(w > 0 for w in svgs), f"{name}: an inline SVG has no box"
            math = v.page.eval_on_selector_all("math", """els => els.map(e => {
                const r = e.getBoundingClientRect(); return [r.width, r.height]; })""")
            if name.startswith("terms/"):
                figures = v.page.eval_on_selector_all("figure.plot img", "els => els.length")
                assert figures >= 2, f"{name}: no figures"
                assert math, f"{name}: no MathML"
                assert v.page.locator("pre.code .k").count() > 0, f"{name}: the demo's source is not highlighted"
            assert all(w > 0 and h > 0 for w, h in math), f"{name}: MathML not laid out: {math}"


def test_every_internal_link_and_download_resolves(served, browser):
    site, base = served
    targets, outside = {}, set()
    for name in pages_of(site):
        with visit(browser, base + name) as v:
            for ref in v.page.eval_on_selector_all(
                    "a[href], link[href], img[src]",
                    "els => els.map(e => e.href || e.src)"):
                parts = urllib.parse.urlsplit(ref)
                if parts.netloc != urllib.parse.urlsplit(base).netloc:
                    outside.add(parts.netloc)
                    continue
                targets.setdefault(parts._replace(fragment="").geturl(), set()).add(parts.fragment)
            downloads = v.page.eval_on_selector_all("a[download]", "els => els.map(e => e.href)")
            if name.startswith("terms/"):
                assert any(d.endswith(".ipynb") for d in downloads) and any(d.endswith(".py") for d in downloads)
                assert v.page.get_by_role("link", name="Open in Colab", exact=True).count() == 1
    assert outside <= OUTSIDE, f"links outside the site: {outside - OUTSIDE}"
    for url, fragments in sorted(targets.items()):
        try:
            with urllib.request.urlopen(url) as r:
                body = r.read()
        except urllib.error.HTTPError as err:
            pytest.fail(f"{url}: {err.code}")
        assert body, url
        local = site / urllib.parse.unquote(urllib.parse.urlsplit(url).path).lstrip("/")
        assert body == (local.read_bytes() if local.is_file() else (local / "index.html").read_bytes())
        for fragment in fragments - {""}:
            assert f'id="{fragment}"'.encode() in body, f"{url}#{fragment}: no such id"


def test_what_a_browser_asks_for_by_itself_is_answered(served, browser):
    """Every page names its icon (favicon.svg), and /favicon.ico, which browsers request by name for
    what has no page of its own (terms.json or llms.txt opened in a tab), is there: no request goes
    unanswered, whatever the reader opens."""
    site, base = served
    for name in pages_of(site):
        with visit(browser, base + name) as v:
            v.assert_clean()
            icon = v.page.eval_on_selector('link[rel="icon"]', "e => e.href")
            with urllib.request.urlopen(icon) as r:
                assert r.status == 200 and r.read().startswith(b"<svg")
    with urllib.request.urlopen(base + "favicon.ico") as r:
        ico = r.read()
    assert ico[:4] == b"\x00\x00\x01\x00", "not an ICO file"
    for other in ("terms.json", "llms.txt", "sitemap.xml"):
        with visit(browser, base + other) as v:
            assert not v.failed, f"{other}: {v.failed}"


def test_readable_from_1280_to_360_px_in_both_schemes(served, browser):
    """Screenshots at 1280 and 390 px; at 360 px nothing scrolls sideways but code and
    formulas in their own boxes; the prose keeps a measure of about 70 characters."""
    site, base = served
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for name in pages_of(site):
        stem = name.removesuffix(".html").replace("/", "-")
        for width, scheme in ((1280, "light"), (390, "light"), (390, "dark"), (360, "dark")):
            with visit(browser, base + name, width=width, scheme=scheme) as v:
                v.assert_clean()
                if width != 360:     # the whole page in the light scheme, the top of it in the dark one
                    suffix = "" if scheme == "light" else "-dark"
                    v.page.screenshot(path=str(ARTIFACTS / f"{stem}-{width}{suffix}.png"),
                                      full_page=scheme == "light")
                page_width = v.page.evaluate("document.documentElement.scrollWidth")
                assert page_width <= width, f"{name} at {width} px scrolls sideways ({page_width} px)"
                background = v.page.evaluate("getComputedStyle(document.body).backgroundColor")
                rgb = [int(x) for x in background[background.index("(") + 1:-1].split(",")[:3]]
                assert (sum(rgb) < 150) == (scheme == "dark"), f"{name}: {scheme} scheme has background {background}"
                if width == 1280 and name.startswith("terms/"):
                    # Characters per full line of the prose's paragraphs.
                    measure = v.page.evaluate("""() => {
                        const out = [];
                        for (const p of document.querySelectorAll('.prose p')) {
                          const r = document.createRange(); r.selectNodeContents(p);
                          const bottoms = [...r.getClientRects()].map(x => x.bottom).sort((a, b) => a - b);
                          let lines = 0, last = -1e9;
                          for (const b of bottoms) { if (b - last > 12) lines += 1; last = b; }
                          if (lines >= 4) out.push(p.textContent.replace(/\\s+/g, ' ').length / lines);
                        }
                        return out; }""")
                    assert measure, f"{name}: no paragraph of four lines to measure"
                    average = sum(measure) / len(measure)
                    assert 55 <= average <= 85, f"{name}: {average:.0f} characters a line"
    assert len(list(ARTIFACTS.glob("*.png"))) >= 3 * len(pages_of(site))


def test_every_page_passes_the_nu_html_checker(built):
    """vnu.jar (npm's vnu-jar, `make setup`) on every page and on the stylesheet: no error."""
    root, _ = built
    site = root / "site"
    if shutil.which("java") is None:
        pytest.fail("java is missing; install Debian's default-jre-headless: apt-get install default-jre-headless")
    if not VNU.is_file():
        pytest.fail(f"{VNU.relative_to(REPO)} is missing; run `make setup` (npm ci installs the Nu HTML checker)")
    files = [str(site / name) for name in pages_of(site)] + [str(site / "style.css")]
    # one short run: the JVM's first-tier compiler and one GC thread cost half the CPU of its defaults
    run = subprocess.run(["java", "-Xss8m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-jar", str(VNU),
                          "--format", "json", "--also-check-css", *files], capture_output=True, text=True)
    messages = json.loads(run.stderr or run.stdout)["messages"]
    errors = [f"{Path(urllib.parse.urlsplit(m.get('url', '')).path).name}:{m.get('lastLine')}: {m['message']}"
              for m in messages if m["type"] == "error" or m.get("subType") == "fatal"]
    assert errors == [], "\n".join(errors)
    assert len(files) >= 3
