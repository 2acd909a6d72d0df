"""How long a saved edit takes to show on the open page: a preview server started in a folder, Chromium
under Playwright watching the page, and the server stopped as a terminal's Ctrl-C stops it.

    times = measure_save_to_screen(root, "attention", n=10)     # seconds, one per edit
"""
import contextlib
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

from glossary.browser import CHROMIUM, CHROMIUM_ARGS


def measure_save_to_screen(root, slug, n=10, port=None, timeout=600, browser=None):
    """Seconds from saving a prose edit of entries/<slug>/entry.md to the new sentence on the open page,
    for n edits, through a preview server started in root (Chromium under Playwright, or the given
    Playwright browser).  entry.md is restored afterwards."""
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
