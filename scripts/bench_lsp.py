"""The language server's latency on the real dictionary (569 terms), as an editor sees it: the server
started as `python -m glossary.lsp` in the dictionary's folder, spoken to over stdio
(glossary.lspclient).

    python scripts/bench_lsp.py [--folder ../shared/adictml] [--rounds 20]

It prints, in milliseconds: the first diagnostics after opening the largest glossary file (the server's
start and its first check of every edition), the diagnostic latency after an edit (a keystroke that
breaks a \\gls key, then one that mends it: from didChange sent to the publishDiagnostics that shows the
new state), and the completion latency of a \\gls key. Nothing is written to the dictionary: the edits
stay in the unsaved buffer. Without the dictionary it prints why and exits 0.
"""
import argparse
import asyncio
import re
import statistics
import sys
import time
from pathlib import Path

from lsprotocol import types

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

from glossary.lspclient import Session, where  # noqa: E402  (the package from this checkout)

DEFAULT = REPO.parent / "shared" / "adictml"
GLS = re.compile(r"\\gls\{([a-z]{4,})\}")


def ms(seconds):
    return f"{seconds * 1000:7.1f}"


async def bench(folder, rounds, log=None):
    """{scenario: [seconds]} and the notes of the run."""
    files = sorted(folder.glob("*.tex"), key=lambda p: p.stat().st_size)
    target = files[-1]
    text = target.read_text(encoding="utf-8")
    m = GLS.search(text, len(text) // 2)
    broken = text[:m.start(1)] + m.group(1) + "x" + text[m.end(1):]
    found = {}
    async with Session(folder, args=["--log", str(log)] if log else []) as s:
        opened = time.perf_counter()
        uri = await s.open(target)
        at, _ = await s.diagnostics(uri, timeout=120)
        note = (f"{target.name}, {len(text) // 1000} kB, an unsaved edit of \\gls{{{m.group(1)}}} at line "
                f"{text.count(chr(10), 0, m.start()) + 1}")
        found["first diagnostics after opening"] = [at - opened]
        # Let the first checks of the other editions end, as they do while an author reads.
        await asyncio.sleep(2)
        wrong, right = [], []
        for _ in range(rounds):
            sent = await s.change(uri, broken)
            at, _ = await s.diagnostics(uri, lambda ds: any("x'" in d.message for d in ds), after=sent)
            wrong.append(at - sent)
            sent = await s.change(uri, text)
            at, _ = await s.diagnostics(uri, lambda ds: not any(d.severity == 1 for d in ds), after=sent)
            right.append(at - sent)
        found["diagnostic after a keystroke (key broken)"] = wrong
        found["diagnostic after a keystroke (key mended)"] = right
        position = types.Position(*where(text, m.group(0), len("\\gls{")))
        times = []
        for _ in range(rounds):
            start = time.perf_counter()
            items = await s.client.text_document_completion_async(
                types.CompletionParams(types.TextDocumentIdentifier(uri), position))
            times.append(time.perf_counter() - start)
        found[f"completion of a \\gls key ({len(items.items)} keys)"] = times
        start = time.perf_counter()
        await s.client.text_document_hover_async(types.HoverParams(types.TextDocumentIdentifier(uri), position))
        found["hover on a key (its summary: two pandoc runs)"] = [time.perf_counter() - start]
    return found, note


def lsp_part(row, folder=DEFAULT, rounds=20):
    """make bench's rows (bench.py's row(part, scenario, seconds, jobs, note)): median seconds."""
    if not (folder / "ADictML_Main.tex").is_file():
        row("lsp", "language server rows", "skipped", "", f"no real dictionary at {folder}")
        return
    found, note = asyncio.run(bench(folder.resolve(), rounds))
    for scenario, values in found.items():
        spread = f"max {max(values):.3f} s of {len(values)}; " if len(values) > 1 else ""
        row("lsp", f"language server: {scenario}", f"{statistics.median(values):.3f}", "", spread + note)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--folder", type=Path, default=DEFAULT)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--log", type=Path, help="the server's log (each check's time)")
    args = parser.parse_args(argv)
    if not (args.folder / "ADictML_Main.tex").is_file():
        print(f"bench_lsp: skipped: no real dictionary at {args.folder} (its ADictML_Main.tex); give --folder")
        return 0
    found, note = asyncio.run(bench(args.folder.resolve(), args.rounds, args.log))
    print(f"dictionary: {args.folder} ({note})")
    for scenario, values in found.items():
        values = sorted(values)
        spread = f"  max {ms(values[-1])}  (n={len(values)})" if len(values) > 1 else ""
        print(f"{scenario:<48} median {ms(statistics.median(values))} ms{spread}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
