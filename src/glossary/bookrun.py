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
import ctypes
import hashlib
import os
import pickle
import re
import shutil
import signal
import sys
import tempfile
import threading
import traceback
from pathlib import Path

import pikepdf

from glossary import jsonio, latex, pdfpages
from glossary.links import link_refs

# What a piece writes and reads back in its next run; the contents' lines and \index words it writes
# are gathered for the front matter and the back (a whole book reads its own).
OWN = (".aux", ".out", ".lof")
WRITTEN = (*OWN, ".toc", ".idx")
# Each piece's links as its PDF holds them (glossary.links.link_refs) and its page count, beside it.
LINKS = ".links.json"
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
                 jobs=1, then=None):
    """Typeset `pieces` ([{"name", "kind", "tex", "nested"}]) into pdf_path: each piece's LaTeX written
    to tex_dir/<name>.tex, run from the format `fmt` when given (dumped from `fmt_source`, whose preamble
    must be each piece's: latex.check_preamble) with `inputs` and `links` as in latex.run_pdflatex,
    `jobs` runs at a time; their logs, in order, into log_path.  Returns ({name: its runs} of the pieces
    that ran, then(the book as an open pikepdf.Pdf) or None): what the book holds is read before it is
    freed, and not read again from its file."""
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
                                                              for e in (*WRITTEN, ".pdf", ".log", LINKS)}):
        os.unlink(cache / stale)
    folders = {**{f"tex-inputs-{i}": Path(f) for i, f in enumerate(inputs)},
               **{k: Path(v) for k, v in (links or {}).items()}}
    shared = hashlib.sha256(Path(fmt).read_bytes()).hexdigest() if fmt else ""
    refers = {p["name"]: set(REFERS.findall(p["tex"])) for p in pieces}
    ran, ahead, told = {}, None, False
    # joined beside the pieces and moved into place here: a join that outlives its job writes no book
    joined = cache / "joined.pdf"
    try:
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
                    first = pieces.index(stale[0])
                    if not ran and first:
                        # an edit's: the pieces before the first stale one are joined while it runs (forked
                        # before the pool's threads start); without a fork, they are joined after it
                        try:
                            ahead = JoinAhead([part(p, records, cache) for p in pieces[:first]], joined, kept(then))
                        except OSError:
                            ahead = None
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
            if then is None:
                return ran, None
            with pikepdf.open(pdf_path) as book:
                return ran, then(book)
        parts = [part(p, records, cache) for p in pieces]
        done = None
        if ahead:
            told, done = True, ahead.finish(parts)
            # the job's log (the tests read it)
            print(f"join begun as the stale pieces were typeset: {'yes' if done else 'no, joined anew'}",
                  file=sys.stderr)
        found = done[0] if done else apart(pdfpages.join, parts, joined, then=kept(then))
    finally:
        if ahead and not told:      # a failure, an interrupt: the join begun ahead is stopped
            ahead.cancel()
    os.replace(joined, pdf_path)
    return ran, found


def piece_links(pieces, cache):
    """[(addresses, refs, pages)] of each piece's PDF in `cache` as its run left it (LINKS), in order: what
    glossary.links.joined_links makes the book's links of."""
    return [tuple(jsonio.read(Path(cache) / f"{p['name']}{LINKS}")) for p in pieces]


def kept(then):
    """`then` (or nothing), keeping the Pdf it is given alive to the end of the process (apart())."""
    held = []

    def keep(pdf):
        held.append(pdf)
        return then(pdf) if then else None
    return keep


def apart(function, *args, **kwargs):
    """function(*args, **kwargs) in a forked process, which ends (os._exit) without Python freeing what
    it made: a joined book's objects took 1.1 s to free at 5,000 terms, the process's end none.  Returns
    function's result (pickled through a pipe); raises again what it raised, with the forked process's
    traceback as a note.  The forked process ends with this one (Linux: PR_SET_PDEATHSIG)."""
    return Forked(function, *args, **kwargs).result()


class Forked:
    """function(*args, **kwargs) started in a forked process (apart()); result() waits for its answer.
    `closed`: this process's file descriptors the forked one closes at once (the ends of pipes it
    reads, so that it sees their end when this process closes them)."""

    def __init__(self, function, *args, closed=(), **kwargs):
        self.name = getattr(function, "__name__", str(function))
        sys.stdout.flush()
        sys.stderr.flush()
        parent = os.getpid()
        reading, writing = os.pipe()
        pid = os.fork()
        if pid == 0:
            try:
                os.close(reading)
                for fd in closed:
                    os.close(fd)
                _ends_with_parent(parent)
                try:
                    told = pickle.dumps((True, function(*args, **kwargs), ""))
                except Exception as err:        # what function raises, told to the parent
                    trace = traceback.format_exc()
                    try:
                        told = pickle.dumps((False, err, trace))
                    except Exception:
                        told = pickle.dumps((False, RuntimeError(f"{type(err).__name__}: {err}"), trace))
                with os.fdopen(writing, "wb") as out:
                    out.write(told)
                sys.stdout.flush()
                sys.stderr.flush()
            finally:
                os._exit(0)
        os.close(writing)
        self.pid, self.reading = pid, reading

    def result(self):
        with os.fdopen(self.reading, "rb") as told:
            data = told.read()
        code = os.waitstatus_to_exitcode(os.waitpid(self.pid, 0)[1])
        try:
            ok, value, trace = pickle.loads(data)
        except Exception:
            raise RuntimeError(f"{self.name}, in a forked process, ended without a readable answer "
                               f"(exit code {code})") from None
        if not ok:
            value.add_note(f"in the forked process of bookrun.apart:\n{trace}")
            raise value
        return value


class GaveUp(Exception):
    """A join begun ahead took a piece that is not the list's, or was not given the list."""


class JoinAhead:
    """The book's join begun while its stale pieces run (their pdflatex, in processes of their own): a
    forked process joins the pieces before the first stale one, which the run leaves as they are, then
    waits for the book's whole list of parts (finish()).  It goes on only when the parts it took are the
    list's first ones, the same as parts (part(): the path, the nesting, the undefined names, and the
    file's inode, device, size and time); else it gives up and finish() returns None, for compile_book
    to join them anew.  Either way the bytes are one join's of the list: the same steps, in the same
    order, on the same files."""

    def __init__(self, taken, output, then):
        reading, self.telling = os.pipe()
        try:
            self.forked = Forked(_join_ahead, taken, reading, output, then, closed=(self.telling,))
        except BaseException:
            os.close(self.telling)
            raise
        finally:
            os.close(reading)

    def finish(self, parts):
        """then's answer for the book joined into its output, as (answer,); None when the join gave up,
        or failed (the job's log says how: a join anew fails as it would have)."""
        def tell():
            try:
                with os.fdopen(self.telling, "wb") as told:
                    pickle.dump(parts, told)
            except BrokenPipeError:     # it ended already (it failed): its answer says how
                pass
        # told from a thread: the forked process may be writing an answer larger than a pipe holds
        telling = threading.Thread(target=tell)
        telling.start()
        try:
            return (self.forked.result(),)
        except GaveUp:
            return None
        except Exception as err:
            print(f"the join begun ahead failed ({type(err).__name__}: {err}); joined anew", file=sys.stderr)
            return None
        finally:
            telling.join()

    def cancel(self):
        """No list will come: the forked process, which writes nothing before it has the list, is
        stopped at once."""
        os.close(self.telling)
        try:
            os.kill(self.forked.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        try:
            self.forked.result()
        except Exception:
            pass


def _join_ahead(taken, reading, output, then):
    def parts():
        yield from taken
        with os.fdopen(reading, "rb") as told:
            try:
                given = pickle.load(told)
            except EOFError:
                raise GaveUp("no list of parts came") from None
        if given[:len(taken)] != taken:
            raise GaveUp("a part it took is not the list's")
        yield from given[len(taken):]
    return pdfpages.join(parts(), output, then=then)


def part(piece, records, cache):
    """The join's part of a piece (glossary.pdfpages.join), with what tells its PDF file from a later
    one (JoinAhead)."""
    pdf = Path(cache) / f"{piece['name']}.pdf"
    st = os.stat(pdf)
    return {"pdf": pdf, "nested": piece["nested"], "undefined": set(records[piece["name"]]["undefined"]),
            "file": (st.st_ino, st.st_dev, st.st_size, st.st_mtime_ns)}


def _ends_with_parent(parent):
    """The calling (forked) process is killed when `parent` ends (Linux's prctl PR_SET_PDEATHSIG)."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)     # 1: PR_SET_PDEATHSIG
    except (OSError, AttributeError):   # not Linux: the forked process ends when its function does
        return
    if os.getppid() != parent:          # the parent ended before the setting took
        os._exit(1)


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
        jsonio.write(kept, [*link_refs(pdf), len(pdf.pages)])
        os.replace(kept, cache / f"{name}{LINKS}")      # whole or not at all: a killed job leaves none
    tops = {f"tex-inputs-{i}" for i in range(len(inputs))} | set(links or {})
    reads = sorted({line[6:] for line in fls.splitlines() if line.startswith("INPUT ")
                    and line[6:].partition("/")[0] in tops})
    found = {"undefined": sorted(set(UNDEFINED.findall(log.read_text(errors="replace")))), "reads": reads}
    if STATE in given:
        end = END.search(own(cache, name, ".aux") or b"")
        found["pages"] = int(end.group(1)) - int(SET_PAGE.match(given[STATE]).group(1)) if end else 0
    return found
