"""The dictionary's own pictures (tikzpicture environments inside term descriptions), compiled once.

A picture is drawn with the dictionary's preamble, so each compiles as a standalone page from a
pdflatex format of that preamble (packages, libraries, styles, colours, macros), dumped once and
cached by the preamble's hash.  Each picture's PDF and SVG (pdftocairo) land in a cache folder under
the picture's key: the hash of the picture, the preamble and only the macros it uses, so editing an
unrelated macro recompiles nothing.  A picture that fails is told as the dictionary's file and line,
the term and TeX's own message.

The stale pictures of a job compile in one pdflatex run per thread, one page each (a run costs a
fixed 0.08 s or so, loading the format, whatever it holds), cut into one PDF per picture by
glossary.pdfpages: each picture's PDF is a function of its own page, not of the pictures compiled
with it (fonts re-subset, resources renamed, no /ID of the run), so the cache stays keyed on the
picture alone and an incremental build gives the bytes of a clean one.
"""
import functools
import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from glossary import inprocess, latex, pdfpages, svgink
from glossary.entries import EntryError
from glossary.readers.latex import glossaries, references
from glossary.readers.latex.lexer import group_end, strip_comments
from glossary.readers.latex.lexer import groups as arguments
from glossary.readers.latex.reads import FILE_REFERENCE, OUTSIDE_FIX, outside, outside_reads, picture_read

# Packages that serve the printed dictionary, not a standalone picture: the glossary and its index and
# links, QR codes, the bibliography's layout, algorithm/equation-array environments (no picture uses
# them; algorithm and algpseudocode need Debian's texlive-science, IEEEtrantools texlive-publishers) and
# microtype (paragraph justification; its font expansion fails on T1 text without Debian's cm-super).
DROPPED_PACKAGES = {"glossaries", "glossaries-extra", "hyperref", "imakeidx", "makeidx", "qrcode", "breakurl",
                    "tocbibind", "algorithm", "algorithmic", "algpseudocode", "IEEEtrantools", "bookmark",
                    "microtype"}
# Commands that set up the glossary, the index or links: they need the dropped packages.
DROPPED_COMMAND = re.compile(r"(gls|Gls|GLS|newglossary|makeglossaries|printglossar|setglossary|"
                             r"loadglsentries|makeindex|printindex|hypersetup|newacronym|setabbreviationstyle)")
# The line that starts the macro file's part of a picture preamble (see `split_preamble`).
MACRO_MARK = "%% glossary.pictures: the macro file follows"
# Pictures compiled in one pdflatex run (one page each): None, all of a job's stale ones, shared out
# over its threads (compile_all).
PER_RUN = None

# \gls and friends without glossaries-extra: a term's text (given per picture by `term_lines`),
# else its key, so a picture still says which term it means.
GLOSSARY_FALLBACK = r"""\makeatletter
\newcommand\glspictureterm[5]{\@namedef{glspic@0@#1}{#2}\@namedef{glspic@1@#1}{#3}%
\@namedef{glspic@2@#1}{#4}\@namedef{glspic@3@#1}{#5}}
\newcommand\glspic@show[2]{\ifcsname glspic@#1@#2\endcsname\csname glspic@#1@#2\endcsname\else#2\fi}
\newcommand\gls[2][]{\glspic@show0{#2}}
\newcommand\Gls[2][]{\glspic@show1{#2}}
\newcommand\glspl[2][]{\glspic@show2{#2}}
\newcommand\Glspl[2][]{\glspic@show3{#2}}
\newcommand\glstext[2][]{\glspic@show0{#2}}
\newcommand\glsdisp[3][]{#3}
\newcommand\glslink[3][]{#3}
\makeatother"""
GLOSSARY_COMMANDS = glossaries.PICTURE_COMMANDS


def filter_usepackage(groups, seen, drop):
    """The \\usepackage statement left once dropped and already loaded packages are removed ("" if none)."""
    options = [g for g in groups if g.startswith("[")]
    names = [n.strip() for n in groups[-1][1:-1].split(",") if n.strip()]
    keep = [n for n in names if n not in DROPPED_PACKAGES | set(drop) and (n, tuple(options)) not in seen]
    seen.update((n, tuple(options)) for n in keep)
    return rf"\usepackage{''.join(options)}{{{','.join(keep)}}}" if keep else ""


def filter_preamble(text, drop=()):
    """The main file's preamble without the glossary, index, link and \\input statements."""
    out, at, seen = [], 0, set()
    for found in re.finditer(r"\\(usepackage|RequirePackage|input|[A-Za-z]+)\*?", text):
        if found.start() < at:
            continue
        name = found.group(1)
        if name in ("usepackage", "RequirePackage"):
            end, groups = arguments(text, found.end(), 2)
            out.append(text[at:found.start()] + filter_usepackage(groups, seen, drop))
        elif name == "input" or DROPPED_COMMAND.match(name):
            end, _ = arguments(text, found.end(), 1 if name == "input" else None)
            out.append(text[at:found.start()])
        else:
            continue
        at = end
    out.append(text[at:])
    return "".join(out)


def document_class(text):
    """The standalone class line, keeping the main class's font size (pictures' text scales with it)."""
    found = re.search(r"\\documentclass\s*(\[[^\]]*\])?", text)
    size = re.search(r"\b(10|11|12)pt\b", found.group(1) or "") if found else None
    return rf"\documentclass[{size.group(0) + ',' if size else ''}multi=glspicture]{{standalone}}"


def tidy(text):
    """Trailing spaces and runs of blank lines removed: the preamble's hash ignores layout noise."""
    lines = [line.rstrip() for line in text.split("\n")]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip("\n")


def picture_preamble(main_preamble: str, macro_text: str, drop=()) -> str:
    """The preamble of a standalone picture: the dictionary's packages (less DROPPED_PACKAGES and `drop`),
    libraries, styles, colours and commands, fallbacks for \\gls, then the macro file after MACRO_MARK."""
    body = strip_comments(main_preamble)
    body = re.sub(r"\\documentclass\s*(\[[^\]]*\])?\s*\{[^}]*\}", "", body, count=1)
    body = body.split(r"\begin{document}")[0]
    parts = [document_class(main_preamble), r"\newenvironment{glspicture}{}{}", tidy(filter_preamble(body, drop)),
             GLOSSARY_FALLBACK, MACRO_MARK, tidy(strip_comments(macro_text))]
    return "\n".join(parts) + "\n"


def split_preamble(preamble):
    """(the preamble before the macro file, the macro file's text)."""
    head, found, macros = preamble.partition(MACRO_MARK)
    return (head, macros) if found else (preamble, "")


DEFINITION = re.compile(r"\\(newcommand|renewcommand|providecommand|DeclareMathOperator|DeclareRobustCommand)"
                        r"\*?\s*(\{\s*\\([A-Za-z@]+)\s*\}|\\([A-Za-z@]+))|\\[egx]?def\s*\\([A-Za-z@]+)")


def definitions(macro_text):
    """[(name, start, end)] of each macro definition in a macro file."""
    found, text = [], strip_comments(macro_text)
    for match in DEFINITION.finditer(text):
        name = match.group(3) or match.group(4) or match.group(5)
        if match.group(5):  # \def\name#1#2{body}: parameters up to the body's brace
            params = re.match(r"[^{]*", text[match.end():]).end()
            end = group_end(text, match.end() + params)
            if end is None:
                raise ValueError(f"unbalanced {{ at offset {match.end() + params}")
        else:
            end, _ = arguments(text, match.end(), 3)
        found.append((name, match.start(), end))
    return found


def macro_definitions(macro_text: str) -> dict:
    """{macro name (no backslash): its whole definition statement} of a macro file."""
    text = strip_comments(macro_text)
    return {name: text[start:end] for name, start, end in definitions(macro_text)}


def macro_rest(macro_text):
    """The macro file without its definitions: packages and settings every picture depends on."""
    text, out, at = strip_comments(macro_text), [], 0
    for _, start, end in definitions(macro_text):
        out.append(text[at:start])
        at = end
    # A definition's comment leaves a lone % behind: dropped, so a comment edit changes no key.
    return tidy(re.sub(r"(?m)^[ \t]*%[ \t]*$", "", "".join(out + [text[at:]])))


def used_macros(tex, macros):
    """The names of `macros` that tex uses, directly or through other macros' definitions, sorted."""
    used, todo = set(), [tex]
    while todo:
        for name in re.findall(r"\\([A-Za-z@]+)", todo.pop()):
            if name in macros and name not in used:
                used.add(name)
                todo.append(macros[name])
    return sorted(used)


def glossary_keys(tex):
    """The glossary keys that \\gls and friends name in tex, sorted."""
    commands = "|".join(GLOSSARY_COMMANDS)
    return sorted(set(re.findall(rf"\\(?:{commands})\s*(?:\[[^\]]*\])?\s*\{{([^}}]*)\}}", tex)))


def capitalised(text):
    return text[:1].upper() + text[1:]


def term_lines(tex, terms=None):
    """\\glspictureterm lines giving the forms of each term the picture names: singular, capitalised,
    plural and capitalised plural.  `terms` maps a glossary key to the term's forms ({"text",
    "plural", ...}, as the entry model holds them) or to its text alone; a plural the forms do not
    give is glossaries' default, text + s, and a key `terms` lacks shows as itself."""
    lines = []
    for name in glossary_keys(tex):
        given = (terms or {}).get(name, name)
        given = {"text": given} if isinstance(given, str) else given
        text = given.get("text", name)
        plural = given.get("plural") or text + "s"
        forms = [text, capitalised(text), plural, capitalised(plural)]
        lines.append(rf"\glspictureterm{{{name}}}" + "".join(f"{{{form}}}" for form in forms))
    return lines


# \ref and its kin in a picture: the labels whose numbers the picture prints.
LABEL_REFERENCE = references.LABEL_REFERENCE


def picture_labels(tex, labels, slug=None, titles=None):
    """{label: what \\ref prints} of the labels the picture refers to, from the dictionary's labels
    ({label: {"slug", "number", ...}}): a label of the picture's own term (`slug`) its number, another
    term's its number named by that term's title (`titles`: {slug: title}), "1 of gradient descent"."""
    found = {}
    for name in sorted({n.strip() for n in LABEL_REFERENCE.findall(tex)}):
        target = (labels or {}).get(name)
        if target is None:
            continue
        number = str(target["number"])
        if slug is not None and target["slug"] != slug:
            number += f" of {(titles or {}).get(target['slug'], target['slug'])}"
        found[name] = number
    return found


def label_lines(labels):
    """The lines that give each label its number, as LaTeX's .aux would (\\r@label holds {number}{page}):
    a standalone picture then prints \\ref and \\eqref as the page and the PDFs do, not "??"."""
    return [rf"\expandafter\gdef\csname r@{name}\endcsname{{{{{number}}}{{}}}}" for name, number in
            sorted((labels or {}).items())]


@functools.lru_cache(maxsize=None)
def tex_versions():
    """pdflatex's and pgfplots' versions: a TeX Live upgrade changes every key (asked once a process)."""
    return json.dumps(latex.versions(), sort_keys=True)


# Files a picture reads: \input parts, \includegraphics photos, pgfplots tables (a name, not inline data).
GRAPHIC_SUFFIXES = ("", ".pdf", ".png", ".jpg", ".jpeg", ".tex")


def referenced_files(tex, root):
    """{name as the picture writes it: sha256 of the file under `root` (None when there is none, or
    when the name reaches out of the folder: outside())}."""
    found = {}
    for name in sorted(set(FILE_REFERENCE.findall(tex))):
        path = None if outside(name) else next((Path(root) / (name + suffix) for suffix in GRAPHIC_SUFFIXES
                                                 if (Path(root) / (name + suffix)).is_file()), None)
        found[name] = hashlib.sha256(path.read_bytes()).hexdigest() if path else None
    return found


def check_reads(pictures):
    """The EntryError messages of the pictures that name a file outside the dictionary's folder
    (reads.outside_reads): the term, the dictionary's file and the line of the name (pictures: {"tex",
    "term", "path", "line", "n"}).  The reader tells them first (glossary.texdict); this is the job's guard."""
    found = []
    for pic in pictures:
        for offset, name in outside_reads(pic["tex"]):
            line = pic.get("line", 1) + pic["tex"].count("\n", 0, offset)
            found.append((pic["path"], line, f"{pic['path']}:{line}: term '{pic['term']}': "
                          f"{picture_read(pic.get('n', 1), name)}; {OUTSIDE_FIX}"))
    return [message for *_, message in sorted(found)]


def key(tex: str, preamble: str, macros: dict, terms: dict = None, root: str = None, labels: dict = None) -> str:
    """sha256 (hex) of the picture (with the terms it names and the numbers of the labels it refers to,
    `picture_labels`), the preamble before the macro file, the macro file's non-definition lines, the
    definitions of the macros the picture uses (transitively), TeX's versions, svgink's and, given the dictionary's
    `root`, the bytes of the files the picture reads."""
    head, macro_text = split_preamble(preamble)
    payload = {"picture": "\n".join(term_lines(tex, terms) + label_lines(labels) + [tex]), "preamble": head,
               "tex": tex_versions(), "svg": svgink.VERSION,
               "macro_file": macro_rest(macro_text),
               "macros": {name: macros[name] for name in used_macros(tex, macros)},
               "files": referenced_files(tex, root) if root else {}}
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()


def document(preamble, pictures, terms=None):
    """(the .tex of a run of pictures, one page each, [(first line of each picture's block, first line of
    its tex)] in that file)."""
    lines = (preamble.rstrip("\n") + "\n" + latex.END_OF_DUMP + "\n"
             + "\\pdfinfoomitdate=1\n\\pdftrailerid{}\n\\pdfsuppressptexinfo=-1\n\\begin{document}").split("\n")
    starts = []
    for picture in pictures:
        block = len(lines) + 1
        lines += term_lines(picture["tex"], terms) + label_lines(picture.get("labels")) + [r"\begin{glspicture}%"]
        starts.append((block, len(lines) + 1))
        # A blank line cannot occur in a description (CONTRIBUTING.md), so one here is a reader's stripped
        # comment line: a % keeps it from ending a paragraph mid-path, and keeps the line count.
        lines += [row if row.strip() else "%" for row in picture["tex"].split("\n")] + [r"\end{glspicture}"]
    return "\n".join(lines + [r"\end{document}", ""]), starts


# The Debian packages of what Debian 12's TeX Live base lacks and the dictionary's preamble loads.
DEBIAN = {"algorithm.sty": "texlive-science", "algpseudocode.sty": "texlive-science",
          "IEEEtrantools.sty": "texlive-publishers", "phv": "texlive-fonts-recommended",
          "ptm": "texlive-fonts-recommended", "pcr": "texlive-fonts-recommended"}


def debian_hint(message):
    """'; install Debian's <package>: ...' for a missing package file or PostScript font (phvr8t: phv)."""
    missing = re.search(r"File `([^']+)' not found|=(p[a-z]{2})[a-z0-9]* not loadable", message)
    package = missing and DEBIAN.get(missing.group(1) or missing.group(2))
    if package:
        return f"; install Debian's {package}: apt-get install {package}"
    return latex.missing_file_hint(message)


def outside_root(preamble, root):
    """(preamble, folders): a `\\usepackage{../../assets/pdfplots}` or `\\input{../x}` reaches out of
    the main file's folder (a translation's main file sits below its base's), and kpathsea looks such
    a path up from the current folder only, not in TEXINPUTS: each becomes its file's name, with its
    folder to search."""
    folders = []

    def sub(m):
        path = (Path(root) / m.group(2)).resolve()
        folders.append(str(path.parent))
        return f"{m.group(1)}{{{path.name}}}"
    text = re.sub(r"(\\(?:usepackage|RequirePackage|input)\s*(?:\[[^]]*\])?)\{(\.\./[^{}]*)\}", sub, preamble)
    return text, sorted(set(folders))


# The name a picture's TeX run gives the dictionary's folder (latex.mirror) in its job folder.
DICTIONARY = "dictionary"


class View:
    """What the pictures' TeX runs may read of the dictionary: `folder` (its own, the base's for a
    translation; `root`, the main file's folder, by default) mirrored once under `work` (latex.mirror),
    searched at `root` and at the folders the preamble's packages lie in.  A folder outside it is an
    EntryError."""

    def __init__(self, work, root, folder=None, folders=()):
        self.folder = Path(folder or root).resolve()
        if not Path(root).resolve().is_relative_to(self.folder):      # an edition kept elsewhere: its own
            self.folder = Path(root).resolve()
        self.path = Path(work) / "view"
        # the build's own folders, when it runs inside the dictionary's folder
        latex.mirror(self.folder, self.path, skip=[Path.cwd() / name for name in ("", "results", "logs", "site")])
        self.search = [self.name(f) for f in [root, *folders]]

    def name(self, folder):
        rel = Path(os.path.relpath(Path(folder).resolve(), self.folder))
        if rel.parts[:1] == ("..",):
            raise EntryError(f"the pictures' preamble reads {folder}, outside the dictionary's folder "
                             f"{self.folder}; move the package into that folder")
        return (Path(DICTIONARY) / rel).as_posix()

    def run(self, args, tex, log, work, jobname):
        latex.run_pdflatex(args, tex, log, work, jobname, links={DICTIONARY: self.path}, search=self.search)


def preamble_origin(preamble, line, sources, message=""):
    """'file:line' of the author's line that line `line` of a picture preamble comes from, found by its
    text (comments stripped): in the macro files (`sources["macros"]`) after MACRO_MARK, else in the main
    file (`sources["main"]`); None when no line reads so.  TeX names the line after a \\usepackage of a
    missing file (`message`: TeX's), having looked there for an option: the line that names it, then."""
    rows = preamble.split("\n")
    if not sources or line is None or not 0 < line <= len(rows):
        return None
    missing = re.search(r"File `([^']+)' not found", message)
    if missing:
        stem = Path(missing.group(1)).stem
        line = next((n for n in range(line, max(0, line - 3), -1) if stem in rows[n - 1]), line)
    if rows[line - 1].strip() in ("", "%"):
        return None
    text = rows[line - 1].strip()
    mark = rows.index(MACRO_MARK) + 1 if MACRO_MARK in rows else len(rows) + 1
    files = (sources.get("macros") or []) if line > mark else [sources.get("main")]
    texts = {f: Path(f).read_text(encoding="utf-8", errors="replace").split("\n")
             for f in files if f and Path(f).is_file()}
    for same in (lambda row: row == text, lambda row: text in row):
        found = [f"{f}:{n}" for f, rows_ in texts.items() for n, row in enumerate(rows_, 1)
                 if strip_comments(row).strip() and same(strip_comments(row).strip())]
        if found:
            return found[0]
    return None


def compile_format(preamble, fmt_path, root, folder=None, sources=None, view=None):
    """The preamble dumped as a pdflatex format (mylatexformat), `root` searched for its packages (`view`:
    the View of the dictionary's `folder`); a failing line is told as the main file's or the macro
    file's (`sources`: {"main", "macros"}, preamble_origin)."""
    preamble, folders = outside_root(preamble, root)
    with tempfile.TemporaryDirectory() as work:
        view = View(work, root, folder, folders) if view is None else view
        tex = Path(work) / "pictures.tex"
        tex.write_text(preamble.rstrip("\n") + "\n" + latex.END_OF_DUMP + "\n", encoding="utf-8")
        try:
            view.run(["-ini", "-jobname=pictures", "&pdflatex", "mylatexformat.ltx", tex.name],
                     tex, Path(work) / "format.log", work, "pictures")
        except latex.LatexError as err:
            message = str(err).splitlines()[0]
            where = preamble_origin(preamble, error_line(getattr(err, "log_text", "")), sources, message)
            if where:
                message = f"{where}: {message.split(': ', 1)[-1] if message.startswith(str(tex)) else message}"
            fix = "that line" if where else "the main file's preamble or the macro file"
            raise EntryError(f"the pictures' preamble does not compile: {message}{debian_hint(message)}; fix {fix}"
                             ) from None
        tmp = inprocess.temporary(fmt_path)
        shutil.copyfile(Path(work) / latex.OUT / "pictures.fmt", tmp)
        os.replace(tmp, fmt_path)


def error_line(log_text):
    """The line (l.NN) TeX names with the first error of a log, or None."""
    lines = log_text.splitlines()
    first = next((i for i, line in enumerate(lines) if line.startswith("! ")), None)
    if first is None:
        return None
    found = next((re.match(r"l\.(\d+)", row) for row in lines[first + 1:first + 12] if re.match(r"l\.\d+", row)),
                 None)
    return int(found.group(1)) if found else None


def page_of(log_text, starts):
    """The index of the picture whose block holds the first error of a log, or None."""
    line = error_line(log_text)
    before = [i for i, (block, _) in enumerate(starts) if line is not None and block <= line]
    return before[-1] if before else None


def missing_hint(message):
    """Where a file TeX could not find should be: the dictionary's folder for a path (assets/x.csv),
    else a Debian package (latex.missing_file_hint)."""
    missing = re.search(r"File `([^']+)' not found|Could not read table file '([^']+)'", message)
    name = missing and (missing.group(1) or missing.group(2))
    if name and ("/" in name or missing.group(2)):
        return f"; {name} is looked for in the dictionary's folder: add it there or fix its name"
    return latex.missing_file_hint(message)


def failure(picture, log_text, tex_path, start, refused=()):
    """The EntryError message of a picture that does not compile: the dictionary's file and line (of the
    offending line, when TeX names one inside the picture), the term, TeX's message (and the files it
    was refused, `refused`: outside the dictionary's folder)."""
    message = latex.first_error(log_text, tex_path)
    message = message.split(": ", 1)[1] if message.startswith(str(tex_path)) else message
    line, at = picture.get("line", 1), error_line(log_text)
    if at is not None and 0 <= at - start <= picture["tex"].count("\n"):
        line += at - start
    message += latex.refused_hint(refused) or missing_hint(message)
    return (f"{picture['path']}:{line}: term '{picture['term']}': picture {picture.get('n', 1)} does not "
            f"compile: {message}; fix the picture")


def to_svg(pdf, svg):
    """pdftocairo's SVG of a one-page PDF, its pale strokes darkened (svgink), written atomically."""
    tmp = inprocess.temporary(svg, ".tmp.svg")
    subprocess.run(["pdftocairo", "-svg", str(pdf), str(tmp)], check=True, capture_output=True)
    tmp.write_text(svgink.legible(tmp.read_text(encoding="utf-8")), encoding="utf-8")
    os.replace(tmp, svg)


def run_batch(batch, preamble, fmt, view, cache, terms):
    """Compile a run of pictures into cache/<key>.pdf and .svg (`view`: what the run may read of the
    dictionary, a View); returns [(picture, message)] of those that fail.  A failing run is retried
    without the picture its error lies in, so each error is that picture's."""
    with tempfile.TemporaryDirectory() as work:
        tex = Path(work) / "pictures.tex"
        text, starts = document(preamble, batch, terms)
        tex.write_text(text, encoding="utf-8")
        try:
            view.run([f"-fmt={Path(fmt).resolve().with_suffix('')}", tex.name], tex, Path(work) / "pictures.log",
                     work, "pictures")
        except latex.LatexError as err:
            log_text = (Path(work) / "pictures.log").read_text(errors="replace")
            bad = page_of(log_text, starts)
            if bad is None and len(batch) > 1:  # an error outside any picture: find it one picture at a time
                return [fail for one in batch for fail in run_batch([one], preamble, fmt, view, cache, terms)]
            bad = bad or 0
            failed = [(batch[bad], failure(batch[bad], log_text, tex, starts[bad][1], getattr(err, "refused", ())))]
            rest = batch[:bad] + batch[bad + 1:]
            return failed + (run_batch(rest, preamble, fmt, view, cache, terms) if rest else [])
        pdf = Path(work) / latex.OUT / "pictures.pdf"
        pages = pdfpages.page_count(pdf)
        if pages != len(batch) and len(batch) > 1:  # a picture of no page, or of several: one at a time
            return [fail for one in batch for fail in run_batch([one], preamble, fmt, view, cache, terms)]
        split(pdf, batch, cache, pages)
    return []


def split(pdf, batch, cache, pages):
    """Page i of a run's PDF becomes cache/<key of picture i>.pdf (glossary.pdfpages: its bytes its own)
    and .svg; a picture alone in its run keeps all its `pages`."""
    targets = [Path(cache) / f"{picture['key']}.pdf" for picture in batch]
    tmps = [inprocess.temporary(target, ".tmp.pdf") for target in targets]
    last = {1: pages} if len(batch) == 1 else {}
    pdfpages.split(pdf, [{"first": page, "last": last.get(page, page), "output": tmp, "info": None}
                         for page, tmp in enumerate(tmps, 1)])
    for picture, target, tmp in zip(batch, targets, tmps):
        to_svg(tmp, Path(cache) / f"{picture['key']}.svg")
        os.replace(tmp, target)


def format_path(preamble, cache):
    """cache/pictures-<hash>.fmt: the format's name changes with the preamble and with TeX's versions."""
    digest = hashlib.sha256(json.dumps([preamble, tex_versions()]).encode()).hexdigest()[:16]
    return Path(cache) / f"pictures-{digest}.fmt"


def compile_all(pictures: list, preamble: str, root: str, cache: str, jobs: int = 1, terms: dict = None,
                per_run: int = PER_RUN, folder: str = None, sources: dict = None) -> dict:
    """{key: {"pdf": cache/<key>.pdf, "svg": cache/<key>.svg}} for every picture ({"key", "tex", "term",
    "path", "line", "n"}); those not in `cache` compile from the preamble's format (built once, cached),
    `per_run` to a pdflatex run (None: all, shared out over the `jobs` runs at a time), `root` searched
    for packages and \\input files; a run reads nothing of the machine but the dictionary's `folder`
    (View) and TeX Live, and a picture that names a file outside it fails before
    (check_reads).  Raises EntryError naming each picture that does not compile (the others are cached
    first), or the main file's or macro file's line where the preamble fails (`sources`: compile_format)."""
    outside_folder = check_reads(pictures)
    if outside_folder:
        raise EntryError("\n".join(outside_folder))
    Path(cache).mkdir(parents=True, exist_ok=True)
    result = {p["key"]: {"pdf": str(Path(cache) / f"{p['key']}.pdf"), "svg": str(Path(cache) / f"{p['key']}.svg")}
              for p in pictures}
    todo = {p["key"]: p for p in pictures
            if not (Path(result[p["key"]]["pdf"]).is_file() and Path(result[p["key"]]["svg"]).is_file())}
    if not todo:
        return result
    fmt = format_path(preamble, cache)
    order = [todo[k] for k in sorted(todo, key=lambda k: (todo[k]["path"], todo[k]["line"], k))]
    per_run = per_run or -(-len(order) // max(1, jobs))
    batches = [order[i:i + per_run] for i in range(0, len(order), per_run)]
    # its threads write to the job's log, as the job does (glossary.inprocess)
    with tempfile.TemporaryDirectory() as work, ThreadPoolExecutor(
            max(1, jobs), initializer=inprocess.adopt, initargs=(inprocess.current_log(),)) as pool:
        view = View(work, root, folder, outside_root(preamble, root)[1])
        if not fmt.is_file():
            compile_format(preamble, fmt, root, sources=sources, view=view)
        failed = [f for found in pool.map(lambda b: run_batch(b, preamble, fmt, view, cache, terms), batches)
                  for f in found]
    if failed:
        raise EntryError("\n".join(message for _, message in failed))
    return result
