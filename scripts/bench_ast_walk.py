"""Hand-written walks over pandoc's JSON AST against panflute's, on a dictionary's terms (issue 23).

    PYTHONPATH=src .venv/bin/python scripts/bench_ast_walk.py ../shared/adictml/dictionary.yaml

Parses every term's description in one pandoc process (glossary.texprose), then times, the least of
REPEAT rounds: the hand-written walk that finds the figures' images (glossary.alttext.figures) with
the deep copy glossary.alttext.with_alt makes, and the same with panflute: the blocks loaded into
panflute's elements, walked, and dumped back to the JSON the writers take.  Prints one line each.
"""
import io
import json
import sys
import time
from pathlib import Path

from glossary import alttext, plan, texprose

try:
    import panflute  # not in requirements.lock: the build keeps its hand-written walks (docs/architecture.md)
except ImportError:
    sys.exit("bench_ast_walk: panflute is not installed; .venv/bin/pip install --no-deps panflute==2.3.1")

REPEAT = 5


def least(fn):
    best = None
    for _ in range(REPEAT):
        start = time.perf_counter()
        fn()
        took = time.perf_counter() - start
        best = took if best is None else min(best, took)
    return best


def hand(asts):
    copy = json.loads(json.dumps(asts))
    return sum(len(alttext.figures(blocks, [])) for blocks in copy.values())


def with_panflute(asts):
    found = 0
    out = {}
    for slug, blocks in asts.items():
        doc = panflute.load(io.StringIO(json.dumps({"pandoc-api-version": texprose.API_VERSION, "meta": {},
                                                    "blocks": blocks})))
        images = []

        def collect(elem, doc, images=images):
            if isinstance(elem, panflute.Image) and not elem.content:
                images.append(elem)
        doc.walk(collect)
        found += len(images)
        text = io.StringIO()
        panflute.dump(doc, text)
        out[slug] = json.loads(text.getvalue())["blocks"]
    return found


def main(source):
    read = plan.Source(Path(source).resolve()).read()
    terms = [{"key": t["key"], "slug": t["slug"], "body": t["body"], "path": t["path"], "body_line": t["body_line"]}
             for t in read["entries"].values()]
    macros = "".join((Path(read["root"]) / m).read_text(encoding="utf-8") for m in read["macro_files"])
    targets = {t["key"]: {"slug": t["slug"], "forms": t["forms"]} for t in read["entries"].values()}
    start = time.perf_counter()
    asts = texprose.parse(terms, texprose.normalise_macros(macros), targets)
    print(f"{len(asts)} terms parsed in {time.perf_counter() - start:.2f} s (one pandoc process)")
    print(f"hand-written walk (alttext.figures, with its copy): {least(lambda: hand(asts)) * 1000:.1f} ms, "
          f"{hand(asts)} images")
    print(f"panflute (load, walk, dump): {least(lambda: with_panflute(asts)) * 1000:.1f} ms, "
          f"{with_panflute(asts)} images")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "../shared/adictml/dictionary.yaml")
