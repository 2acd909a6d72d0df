"""Numbers behind glossary.pictures: the real dictionary's pictures compiled cold, per_run pictures to
a pdflatex run, twice (byte stability), and whether the files are the same whatever per_run (each
picture's PDF its own: glossary.pdfpages); which fail and why; time per picture; SVG sizes.

    PYTHONPATH=src .venv/bin/python scripts/bench_pictures.py /work/shared/adictml/ADictML_Main.tex \
        [--per-run 1 16 all] [--jobs 1] [--drop helvet]

The dictionary is read by glossary.texdict: its preamble, macro files, and each term's pictures, keyed
as the build keys them (the terms' texts for \\gls, the files under the dictionary's folder).
"""
import argparse
import hashlib
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

from glossary import pictures
from glossary.entries import EntryError


def dictionary(main, drop):
    """(the pictures' preamble, the pictures keyed, the dictionary's folder, the terms' texts)."""
    from glossary import texdict
    read = texdict.load(main)
    root = read["root"]
    macro_text = "".join((Path(root) / m).read_text(encoding="utf-8") for m in read["macro_files"])
    preamble = pictures.picture_preamble(read["preamble"], macro_text, drop)
    macros = pictures.macro_definitions(macro_text)
    texts = {e["key"]: e["forms"]["text"] for e in read["entries"].values()}
    found = [dict(p, term=e["key"], path=e["path"]) for e in read["entries"].values() for p in e["pictures"]]
    for picture in found:
        picture["key"] = pictures.key(picture["tex"], preamble, macros, texts, root)
    return preamble, found, root, texts


def digests(cache):
    """{file name: sha256} of the pictures' PDFs and SVGs in a cache folder."""
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(Path(cache).iterdir())
            if p.suffix in (".pdf", ".svg")}


def child_cpu():
    """CPU seconds (user + system) of the finished child processes (pdflatex, pdftocairo) and of this
    one (the split, glossary.pdfpages): unlike wall time, not stretched by other jobs on the machine."""
    return sum(u.ru_utime + u.ru_stime for u in map(resource.getrusage, (resource.RUSAGE_CHILDREN,
                                                                          resource.RUSAGE_SELF)))


def cold_run(found, preamble, root, texts, per_run, jobs):
    """(seconds for the format, wall and CPU seconds for the pictures, failure lines, cache folder's
    digests, svg sizes)."""
    with tempfile.TemporaryDirectory() as cache:
        start = time.perf_counter()
        pictures.compile_format(preamble, pictures.format_path(preamble, cache), root)
        fmt_s = time.perf_counter() - start
        start, cpu = time.perf_counter(), child_cpu()
        try:
            pictures.compile_all(found, preamble, root, cache, jobs=jobs, terms=texts, per_run=per_run)
            failed = []
        except EntryError as err:
            failed = str(err).splitlines()
        pics_s, cpu_s = time.perf_counter() - start, child_cpu() - cpu
        start = time.perf_counter()
        try:  # warm: only the failing pictures (never cached) compile again
            pictures.compile_all(found, preamble, root, cache, jobs=jobs, terms=texts, per_run=per_run)
        except EntryError:
            pass
        print(f"  warm cache: {time.perf_counter() - start:.2f} s")
        sizes = [p.stat().st_size for p in Path(cache).glob("*.svg")]
        pdfs = sum(p.stat().st_size for p in Path(cache).glob("*.pdf"))
        print(f"  PDF bytes: total {pdfs}")
        return fmt_s, pics_s, cpu_s, failed, digests(cache), sizes


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("main", help="the dictionary's main .tex file")
    parser.add_argument("--per-run", type=lambda s: None if s == "all" else int(s), nargs="+", default=[1, None],
                        help="pictures to a pdflatex run, each a number or 'all' (all, one run per job)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--drop", nargs="*", default=[], help="packages this TeX Live lacks (e.g. helvet)")
    args = parser.parse_args()
    preamble, found, root, texts = dictionary(args.main, args.drop)
    axes = sum("begin{axis}" in p["tex"] or "begin{groupplot}" in p["tex"] for p in found)
    print(f"pictures: {len(found)} ({axes} pgfplots), distinct keys: {len({p['key'] for p in found})}")
    runs = {}
    for per_run in args.per_run:
        for attempt in (1, 2):
            fmt_s, pics_s, cpu_s, failed, sums, sizes = cold_run(found, preamble, root, texts, per_run, args.jobs)
            runs.setdefault(per_run, []).append(sums)
            done = len(sizes)
            print(f"per_run={per_run} jobs={args.jobs} run {attempt}: format {fmt_s:.2f} s, pictures {pics_s:.1f} s "
                  f"({pics_s / max(done, 1) * 1000:.0f} ms per compiled picture; CPU {cpu_s:.1f} s, "
                  f"{cpu_s / max(done, 1) * 1000:.0f} ms per picture), compiled {done}, "
                  f"failed {len(failed)}")
        stable = runs[per_run][0] == runs[per_run][1]
        print(f"  byte-identical across the two runs: {stable} ({len(runs[per_run][0])} files)")
        if sizes:
            print(f"  SVG bytes: total {sum(sizes)}, median {int(statistics.median(sizes))}, max {max(sizes)}")
    first = [found[0] for found in runs.values()]
    print(f"byte-identical across per_run values {list(runs)}: {all(f == first[0] for f in first)}")
    print("failures:")
    for line in failed:
        print("  " + line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
