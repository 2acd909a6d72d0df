"""The reading aids' figures on a built site (issue 18): what the search transfers before its first
results (gzip, as a server would send it), the index's size, the time from the last keystroke to
the first results, the previews' data, and a term page's load from file:// (DOMContentLoaded), in
Debian's Chromium.  It prints numbers; it asserts nothing.

    python scripts/bench_reading.py SITE [QUERY ...]      # SITE: a built site/ folder
"""
import gzip
import statistics
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO / "src"))

SEARCH_FILES = ("reading.js", "lunr.js", "search-index.js")     # and the shards of search/ a query loads


def gz(path):
    return len(gzip.compress(Path(path).read_bytes(), 9))


def kb(n):
    return f"{n / 1000:.1f} KB"


def main(site, queries):
    from test_browser import chromium
    site = Path(site).resolve()
    terms = sorted((site / "terms").glob("*.html"))
    print(f"site: {site} ({len(terms)} term pages)")
    for name in SEARCH_FILES + ("previews.js",):
        print(f"  {name:18} {kb((site / name).stat().st_size):>10} raw {kb(gz(site / name)):>10} gzip")
    print(f"script added to every page (gzip): {kb(gz(site / 'reading.js'))} (budget 30 KB; previews.js and the "
          f"index load on first use)")
    with chromium() as browser:
        page, fetched = browser.new_page(), []
        page.on("request", lambda r: fetched.append(r.url.split(site.as_uri() + "/", 1)[-1]))
        page.goto((site / "index.html").as_uri())
        page.fill("#search-input", queries[0])
        page.wait_for_function("q => document.getElementById('search-results').dataset.query === q", arg=queries[0])
        transfer = sum(gz(site / n) for n in fetched if n.endswith(".js") and (site / n).is_file())
        print(f"search transfer before the first results of {queries[0]!r} (gzip): {kb(transfer)} (budget 300 KB; "
              f"{len(list(site.glob('search/*.js')))} shards in search/)")
        times = {}
        for q in queries:
            runs = []
            for _ in range(5):
                page.fill("#search-input", "")
                runs.append(page.evaluate("""q => new Promise(done => {
                    const input = document.getElementById('search-input');
                    const list = document.getElementById('search-results');
                    const t0 = performance.now();
                    new MutationObserver((m, o) => { if (list.dataset.query === q) { o.disconnect();
                        done(performance.now() - t0); } }).observe(list, {attributes: true, childList: true});
                    input.value = q; input.dispatchEvent(new Event('input')); })""", q))
            times[q] = statistics.median(runs)
        first = page.evaluate("""() => new Promise(done => { const t0 = performance.now();
            const s = document.createElement('script'); s.src = 'search-index.js?again';
            s.onload = () => done(performance.now() - t0); document.head.appendChild(s); })""")
        print(f"search-index.js (the head) from file://: {first:.1f} ms to load")
        for q, ms in times.items():
            print(f"  last keystroke to first results, {q!r}: {ms:.1f} ms (median of 5; budget 100 ms)")
        loads = []
        for path in terms[:: max(1, len(terms) // 25)]:
            page.goto(path.as_uri(), wait_until="load")
            loads.append(page.evaluate("performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd"))
        print(f"term page DOMContentLoaded from file://: median {statistics.median(loads):.1f} ms, "
              f"max {max(loads):.1f} ms over {len(loads)} pages (budget 100 ms)")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2:] or ["gradient", "ml", "regularization", "loss func"])
