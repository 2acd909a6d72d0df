"""Measures the LaTeX path's parse (glossary.texprose) on the real dictionary and prints the numbers:

    PYTHONPATH=src .venv/bin/python scripts/bench_math.py [/work/shared/adictml] [--reader FILE.py]

- formulas, and how many texmath cannot convert, with the macro file as written (pandoc's own
  expansion, \\gls untouched) and with texprose.normalise_macros and texprose.parse;
- the backslash commands left in the HTML text (MathML's TeX annotations not counted);
- the raw TeX pandoc left in the AST, by command: count and first place (term key);
- the time of the one pandoc parse of all descriptions, and of the one HTML writer.

The terms come from glossary.texdict (its read of ADictML_Main.tex), or from the module FILE.py
given with --reader that defines terms(root) -> [term dict] (a stand-in reader).
"""
import collections
import importlib.util
import json
import re
import sys
import tempfile
import time
from pathlib import Path

from glossary import render, texprose
from glossary.prose import math_failures, run_pandoc

MACROS = "assets/ml_macros.tex"


def load_terms(root, reader=None):
    """The dictionary's terms: [{"key", "slug", "body", "path", "body_line", "forms"}]."""
    if reader:
        spec = importlib.util.spec_from_file_location("reader", reader)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module.terms(root)
    from glossary import texdict
    return list(texdict.read(root / "ADictML_Main.tex")["entries"].values())


def targets_of(terms):
    return {t["key"]: {"slug": t["slug"], "forms": t["forms"]} for t in terms}


def baseline(terms, root):
    """(formulas, failures) with the macro file as written and the bodies untouched."""
    text = (root / MACROS).read_text(encoding="utf-8")
    source = text + "\n\n" + "\n\n".join(t["body"] for t in terms)
    ast = run_pandoc(texprose.READER, source)
    count = len(texprose.formulas(json.loads(ast)["blocks"]))
    with tempfile.TemporaryDirectory() as tmp:
        log = str(Path(tmp) / "log.json")
        run_pandoc(texprose.HTML, ast, log=log)
        return count, len(math_failures(log))


def tex_in_html(pages):
    """Backslash commands in the HTML outside MathML's TeX annotations: Counter of names, first slug."""
    found, first = collections.Counter(), {}
    for slug, html in pages.items():
        text = re.sub(r"<annotation[^>]*>.*?</annotation>", "", html, flags=re.S)
        for name in re.findall(r"\\([A-Za-z]+)", text):
            found[name] += 1
            first.setdefault(name, slug)
    return found, first


def nodes(value, t):
    """The nodes of type t in value, outermost only."""
    if isinstance(value, dict):
        return [value] if value.get("t") == t else nodes(list(value.values()), t)
    if isinstance(value, list):
        return [n for v in value for n in nodes(v, t)]
    return []


def raw_constructs(parsed, terms):
    """The raw TeX pandoc left, by command name: Counter and first place (file:line, key)."""
    found, first = collections.Counter(), {}
    for term in terms:
        for raw in texprose.unknown(parsed[term["slug"]]):
            m = re.match(r"\s*\\(begin\{[^}]*\}|[A-Za-z]+|.)", raw)
            name = m.group(1) if m else raw.strip()[:20]
            found[name] += 1
            at = term["body"].find(raw.strip().split("\n")[0])
            line = term["body_line"] + term["body"][:max(at, 0)].count("\n")
            first.setdefault(name, f"{term['path']}:{line} {term['key']}")
    return found, first


def timed_pandoc():
    """A list that collects the seconds of each texprose pandoc run from now on."""
    spent, real = [], texprose.run_pandoc

    def run(*args, **kwargs):
        start = time.perf_counter()
        try:
            return real(*args, **kwargs)
        finally:
            spent.append(time.perf_counter() - start)
    texprose.run_pandoc = run
    return spent


def main(argv):
    reader = argv[argv.index("--reader") + 1] if "--reader" in argv else None
    args = [a for a in argv if a != "--reader" and a != reader]
    root = Path(args[0] if args else "/work/shared/adictml")
    terms = load_terms(root, reader)
    print(f"terms: {len(terms)}")
    count, failed = baseline(terms, root)
    print(f"as written: {count} formulas, {failed} CouldNotConvertTeXMath")

    macros = texprose.normalise_macros((root / MACROS).read_text(encoding="utf-8"))
    in_pandoc = timed_pandoc()
    start = time.perf_counter()
    parsed = texprose.parse(terms, macros, targets_of(terms))
    parse_s = time.perf_counter() - start
    start = time.perf_counter()
    pages, failures = render.html_pieces({t["slug"]: parsed[t["slug"]] for t in terms})
    html_s = time.perf_counter() - start
    total = sum(len(texprose.formulas(b)) for b in parsed.values())
    print(f"normalised: {total} formulas, {len(failures)} CouldNotConvertTeXMath")
    for formula, message in failures[:40]:
        print(f"  FAIL {formula[:150]!r}: {' '.join(message.split())[:150]}")
    print(f"time: parse (one pandoc, all bodies) {parse_s:.2f} s, HTML writer {html_s:.2f} s, "
          f"total {parse_s + html_s:.2f} s; of which inside pandoc: reader {in_pandoc[0]:.2f} s, "
          f"writer {in_pandoc[1]:.2f} s")
    found, first = tex_in_html(pages)
    print(f"backslash commands in the HTML text: {sum(found.values())}")
    for name, n in found.most_common(30):
        print(f"  \\{name}: {n} (first: {first[name]})")
    spans = [x for blocks in parsed.values() for x in nodes(blocks, "Span") if "math-xref" in x["c"][0][1]]
    recorded = sum(len(json.loads(dict(x["c"][0][2])["data-xrefs"])) for x in spans)
    maths = [m for html in pages.values() for m in re.findall(r"<math.*?</math>", html, re.S)]
    linked = sum(m.count('<a class="xref"') for m in maths)
    print(f"references inside formulas: {recorded} recorded, {linked} linked in the MathML")
    figures = [f for blocks in parsed.values() for f in nodes(blocks, "Figure")]
    loose = sum(len(nodes(b, "Image")) for b in parsed.values()) - sum(len(nodes(f, "Image")) for f in figures)
    print(f"figures: {len(figures)}, {sum(1 for f in figures if f['c'][0][0])} with a label as identifier; "
          f"images outside a figure: {loose}")
    found, first = raw_constructs(parsed, terms)
    print(f"raw TeX left by pandoc: {sum(found.values())} pieces")
    for name, n in found.most_common():
        print(f"  \\{name}: {n} (first: {first[name]})")


if __name__ == "__main__":
    main(sys.argv[1:])
