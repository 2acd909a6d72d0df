"""The book's pdflatex runs: its pieces (glossary.typeset.book_pieces), each its own run, rerun until
every one has settled, then joined into one PDF (glossary.pdfpages.join).

Besides its LaTeX, a piece's run reads its own auxiliary files of its last run (OWN), the page it
starts on (piece-state.tex: where the piece before it ended, as that one's .aux tells), the labels of
other pieces it refers to (piece-labels.tex), and, for the front matter, the contents' lines of every
piece (its .toc), for the back, the Index sorted from every piece's \\index words (its .ind); a book
typeset whole reads its own .toc and .ind, as LaTeX's passes do.  Each run is keyed on all of these,
the format and every file of the dictionary the last run read (figures, pictures): a piece reruns
while its key changes, all stale pieces side by side, until none is stale.  The keys, the auxiliary
files and the PDFs are kept (`cache`), so that an edit reruns its piece alone, and the pieces after
it only when it ends on another page; a run from nothing settles on the same files.
"""
import concurrent.futures
import hashlib
import os
import re
import shutil
import tempfile
from pathlib import Path

import pikepdf

from glossary import jsonio, latex, pdfjoin
from glossary.links import destination_names, link_refs

# What a piece writes and reads back in its next run; the contents' lines and \index words it writes
# are gathered for the front matter and the back (a whole book reads its own).
OWN = (".aux", ".out", ".lof")
WRITTEN = (*OWN, ".toc", ".idx")
# Each piece's links as its PDF holds them (glossary.links.link_refs) and its page count, beside it.
LINKS = ".links.json"
# Each piece's segment of the joined book (glossary.pdfjoin), kept with it.
SEGMENT = (".seg", ".seg.json")
WHOLE, FRONT, BACK = "whole", "front", "back"
# The page after a piece's last, which its .aux tells (templates/print/book.tex.j2).
END = re.compile(rb"\\glossarypieceend\{(-?\d+)\}")
NEWLABEL = re.compile(rb"^\\newlabel\{([^}]*)\}.*\n", re.M)
# What a piece's LaTeX refers to by label.
REFERS = re.compile(r"\\(?:hyperref\[|(?:eq|page|auto|name)?ref\*?\{)([^\]}]+)")
# pdfTeX's word for a link to a name the run does not define (another piece's): it points the name
# at a page of its own, which the join leaves out.
UNDEFINED = re.compile(r"name\{([^}]*)\} has been referenced but does not exist")
# A book that has not settled after this many runs of a piece fails, rather than loop.
ROUNDS = 8
RECORDS = "pieces.json"
STATE = "piece-state.tex"
SET_PAGE = re.compile(rb"\\setcounter\{page\}\{(\d+)\}")


def compile_book(pieces, tex_dir, pdf_path, log_path, cache, fmt=None, fmt_source=None, inputs=(), links=None,
                 jobs=1):
    """Typeset `pieces` ([{"name", "kind", "tex", "nested"}]) into pdf_path: each piece's LaTeX written
    to tex_dir/<name>.tex, run from the format `fmt` when given (dumped from `fmt_source`, whose preamble
    must be each piece's: latex.check_preamble) with `inputs` and `links` as in latex.run_pdflatex,
    `jobs` runs at a time; their logs, in order, into log_path; the pieces joined (glossary.pdfjoin),
    each one's segment kept beside it.  Returns ({name: its runs} of the pieces that ran, the names of
    the book's named destinations)."""
    tex_dir, cache = Path(tex_dir), Path(cache)
    for piece in pieces if fmt else ():
        latex.check_preamble(piece["tex"], tex_dir / f"{piece['name']}.tex", fmt, fmt_source)
    tex_dir.mkdir(parents=True, exist_ok=True)
    cache.mkdir(parents=True, exist_ok=True)
    for piece in pieces:
        (tex_dir / f"{piece['name']}.tex").write_text(piece["tex"], encoding="utf-8")
    records = jsonio.read(cache / RECORDS) if (cache / RECORDS).is_file() else {}
    names = [p["name"] for p in pieces]
    records = {n: r for n, r in records.items()
               if n in names and (cache / f"{n}.pdf").is_file() and (cache / f"{n}{LINKS}").is_file()}
    for stale in sorted(set(os.listdir(cache)) - {RECORDS} - {f"{n}{e}" for n in records
                                                              for e in (*WRITTEN, ".pdf", ".log", LINKS, *SEGMENT)}):
        os.unlink(cache / stale)
    folders = {**{f"tex-inputs-{i}": Path(f) for i, f in enumerate(inputs)},
               **{k: Path(v) for k, v in (links or {}).items()}}
    shared = hashlib.sha256(Path(fmt).read_bytes()).hexdigest() if fmt else ""
    refers = {p["name"]: set(REFERS.findall(p["tex"])) for p in pieces}
    ran = {}
    try:
        with concurrent.futures.ThreadPoolExecutor(max(1, jobs)) as pool:
            for _ in range(ROUNDS):
                defined = labels_defined(pieces, cache)
                given = {p["name"]: given_files(pieces, i, records, cache, defined, refers[p["name"]])
                         for i, p in enumerate(pieces)}
                keys = {p["name"]: key(p, given[p["name"]], records.get(p["name"]), folders, shared)
                        for p in pieces}
                stale = [p for p in pieces if records.get(p["name"], {}).get("key") != keys[p["name"]]]
                if not stale:
                    break
                runs = [pool.submit(run, p, tex_dir, given[p["name"]], cache, fmt, inputs, links)
                        for p in stale]
                for piece, done in zip(stale, runs):
                    records[piece["name"]] = dict(done.result(), key=keys[piece["name"]])
                    ran[piece["name"]] = ran.get(piece["name"], 0) + 1
                jsonio.write(cache / RECORDS, records)
            else:
                raise latex.LatexError(f"{tex_dir}: the book's pieces did not settle in {ROUNDS} runs; "
                                       f"see {log_path}")
    finally:
        # the pieces' last logs, in order, where a failing job's message points
        Path(log_path).write_text("".join((cache / f"{n}.log").read_text(errors="replace") for n in names
                                          if (cache / f"{n}.log").is_file()))
    if len(pieces) == 1:
        shutil.copyfile(cache / f"{names[0]}.pdf", pdf_path)
        with pikepdf.open(pdf_path) as book:
            return ran, destination_names(book)
    # joined beside the pieces and moved into place here: a join that fails writes no book
    joined = cache / "joined.pdf"
    found = pdfjoin.join([part(p, records, cache) for p in pieces], joined, store=cache)
    os.replace(joined, pdf_path)
    return ran, found


def piece_links(pieces, cache):
    """[(addresses, refs, pages)] of each piece's PDF in `cache` as its run left it (LINKS), in order: what
    glossary.links.joined_links makes the book's links of."""
    return [tuple(jsonio.read_compact(Path(cache) / f"{p['name']}{LINKS}")) for p in pieces]


def part(piece, records, cache):
    """The join's part of a piece (glossary.pdfjoin.join)."""
    return {"pdf": Path(cache) / f"{piece['name']}.pdf", "nested": piece["nested"],
            "undefined": set(records[piece["name"]]["undefined"])}


def own(cache, name, ext):
    path = cache / f"{name}{ext}"
    return path.read_bytes() if path.is_file() else None


def given_files(pieces, i, records, cache, defined, refers):
    """{file name: bytes} a piece's next run reads besides its LaTeX (names under out/ are TeX's
    output folder), from the pieces' last runs (`defined`: labels_defined; `refers`: the labels its
    LaTeX refers to)."""
    piece, name = pieces[i], pieces[i]["name"]
    files = {f"out/{name}{ext}": data for ext in OWN if (data := own(cache, name, ext)) is not None}
    if piece["kind"] == WHOLE:
        files.update(toc_and_index(name, [name], cache, toc=True, index=True))
        return files
    if piece["kind"] == FRONT:
        files.update(toc_and_index(name, [p["name"] for p in pieces], cache, toc=True))
        return files
    if piece["kind"] == BACK:
        files.update(toc_and_index(name, [p["name"] for p in pieces], cache, index=True))
    # its pages are numbered on from the pieces' before it (a piece's count does not depend on where
    # it starts, so a build from nothing settles in two runs, not one a piece)
    start = 1 + sum(records.get(p["name"], {}).get("pages", 0) for p in pieces[:i] if p["kind"] != FRONT)
    files[STATE] = b"\\setcounter{page}{%d}\n" % start
    # the labels it refers to that other pieces define, in the order of the book
    files["piece-labels.tex"] = b"".join(line for _, line, where in sorted(
        defined[label] for label in refers if label in defined) if where != name)
    return files


def toc_and_index(name, names, cache, toc=False, index=False):
    """The contents' lines of `names` (in order) as <name>.toc, and their \\index words sorted by makeindex
    as <name>.ind."""
    files = {}
    if toc:
        files[f"out/{name}.toc"] = b"".join(own(cache, n, ".toc") or b"" for n in names)
    words = b"".join(own(cache, n, ".idx") or b"" for n in names)
    if index and words:
        with tempfile.TemporaryDirectory() as work:
            (Path(work) / "index.idx").write_bytes(words)
            latex.index_pass(work, "index")
            files[f"out/{name}.ind"] = (Path(work) / "index.ind").read_bytes()
    return files


def labels_defined(pieces, cache):
    """{label: (its place in the book, its \\newlabel line, the piece)} of the pieces' last runs (a label
    two pieces define: the later one's, as LaTeX's \\newlabel keeps the last it reads)."""
    found = {}
    for i, piece in enumerate(pieces):
        for m in NEWLABEL.finditer(own(cache, piece["name"], ".aux") or b""):
            found[m.group(1).decode("utf-8", "replace")] = ((i, m.start()), m.group(0), piece["name"])
    return found


def key(piece, given, record, folders, shared):
    """What a piece's run depends on, hashed: its LaTeX, the files it is given, the format, and the
    files of the dictionary its last run read (figures, pictures: by their bytes now)."""
    digest = hashlib.sha256(piece["tex"].encode("utf-8") + shared.encode())
    for name in sorted(given):
        digest.update(f"\0{name}\0{len(given[name])}\0".encode() + given[name])
    for read in (record or {}).get("reads", []):
        top, _, rest = read.partition("/")
        path = folders[top] / rest
        digest.update(f"\0{read}\0".encode() + (path.read_bytes() if path.is_file() else b"\0missing"))
    return digest.hexdigest()


def run(piece, tex_dir, given, cache, fmt, inputs, links):
    """One pdflatex run of a piece, its outputs kept in `cache`: {"undefined": the names it links to
    and does not define, "reads": the files under its links and inputs it read}."""
    name = piece["name"]
    with tempfile.TemporaryDirectory() as work:
        work = Path(work)
        for file, data in given.items():
            (work / file).parent.mkdir(exist_ok=True)
            (work / file).write_bytes(data)
        tex = tex_dir / f"{name}.tex"
        log = cache / f"{name}.log"
        start = [f"-fmt={Path(fmt).resolve().with_suffix('')}"] if fmt else []
        latex.run_pdflatex([*start, tex.name], tex, log, work, name, inputs, links)
        out = work / latex.OUT
        for ext in WRITTEN:
            if (out / f"{name}{ext}").is_file():
                shutil.copyfile(out / f"{name}{ext}", cache / f"{name}{ext}")
            elif (cache / f"{name}{ext}").is_file():
                os.unlink(cache / f"{name}{ext}")
        shutil.copyfile(out / f"{name}.pdf", cache / f"{name}.pdf")
        fls = (out / f"{name}.fls").read_text(errors="replace")
    # its links, read once as it is made (the book's are its pieces', glossary.links.joined_links)
    with pikepdf.open(cache / f"{name}.pdf") as pdf:
        kept = cache / f".{name}{LINKS}.{os.getpid()}"
        jsonio.write(kept, [*link_refs(pdf), len(pdf.pages)], compact=True)
        os.replace(kept, cache / f"{name}{LINKS}")      # whole or not at all: a killed job leaves none
    tops = {f"tex-inputs-{i}" for i in range(len(inputs))} | set(links or {})
    reads = sorted({line[6:] for line in fls.splitlines() if line.startswith("INPUT ")
                    and line[6:].partition("/")[0] in tops})
    found = {"undefined": sorted(set(UNDEFINED.findall(log.read_text(errors="replace")))), "reads": reads}
    if STATE in given:
        end = END.search(own(cache, name, ".aux") or b"")
        found["pages"] = int(end.group(1)) - int(SET_PAGE.match(given[STATE]).group(1)) if end else 0
    return found
