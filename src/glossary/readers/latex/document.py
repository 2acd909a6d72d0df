"""The main file of a glossaries-extra dictionary: its preamble, the glossaries it declares, the
\\printglossary sections, the files it \\input's and its bibliography.  Each mistake is collected in
a list (glossary.errors.Mistake) and the reading goes on without the construct at fault."""
import re

from glossary.errors import EntryError, fault, mistakes_of
from glossary.readers.latex import glossaries
from glossary.readers.latex.lexer import argument, optional, skip_space, split_options

DEFAULT_TYPE = "main"
DEFAULT_TITLE = "Glossary"  # glossaries' \glossaryname for the default type


def read_main(src, mistakes):
    """The main file's structure: (preamble, declared {type: title}, inputs [(name, before
    \\begin{document}, offset)], sections, bibliography)."""
    text = src.text
    doc = text.find("\\begin{document}")
    preamble = text[:doc] if doc >= 0 else text
    declared = {DEFAULT_TYPE: DEFAULT_TITLE}
    if glossaries.SYMBOLS_OPTION.search(preamble):   # \usepackage[symbols]{glossaries-extra}
        declared[glossaries.SYMBOLS_TYPE] = glossaries.SYMBOLS_TITLE
    for m in re.finditer(r"\\newglossary(\*?)(?![A-Za-z])", preamble):
        pos = optional(preamble, m.end())
        args = []
        try:
            for _ in range(2 if m.group(1) else 4):
                value, _, pos = argument(preamble, pos, src, "\\newglossary")
                args.append(value.strip())
        except EntryError as err:
            mistakes += mistakes_of(err)
            continue
        declared[args[0]] = args[-1]
    inputs = []
    for m in re.finditer(r"\\(?:input|include)(?![A-Za-z])", text):
        try:
            name, start, _ = argument(text, m.end(), src, "\\input")
        except EntryError as err:
            mistakes += mistakes_of(err)
            continue
        inputs.append((name.strip(), m.start() < doc or doc < 0, start))
    sections = sections_of(text[doc:] if doc >= 0 else "", declared, src, doc, mistakes)
    try:
        bib = bibliography_of(text, src)
    except EntryError as err:
        mistakes += mistakes_of(err)
        bib = None
    return preamble, declared, inputs, sections, bib


def sections_of(body, declared, src, offset, mistakes):
    """The \\printglossary calls in order: [{"id", "title"}]; \\printglossaries prints every type."""
    sections = []
    for m in re.finditer(r"\\print(?:unsrt)?glossar(y|ies)(?![A-Za-z])", body):
        if m.group(1) == "ies":
            sections += [{"id": t, "title": title} for t, title in declared.items()]
            continue
        end = optional(body, m.end())
        opts = dict((k, v) for k, v, _ in split_options(body[skip_space(body, m.end()) + 1:end - 1], 0)) \
            if end > m.end() else {}
        kind = opts.get("type") or DEFAULT_TYPE
        if kind not in declared:
            mistakes += fault(src.position(offset + m.start()), f"\\printglossary[type={kind}]: no glossary "
                              f"{kind!r} is declared", f"add \\newglossary*{{{kind}}}{{Title}} to the preamble",
                              kind="no-glossary").mistakes
            continue
        sections.append({"id": kind, "title": opts.get("title") or declared[kind]})
    if not sections:  # no \printglossary: every glossary, the default type first
        sections = [{"id": t, "title": title} for t, title in declared.items()]
    return sections


def bibliography_of(text, src):
    m = re.search(r"\\bibliography(?![A-Za-z])", text)
    if not m:
        return None
    name = argument(text, m.end(), src, "\\bibliography")[0].split(",")[0].strip()
    return name if name.endswith(".bib") else name + ".bib"


def resolve_input(root, name, position):
    """The file an \\input names (with .tex added as LaTeX adds it); a missing one is a Mistake at
    `position` (a lexer Position, or a "file:line" text)."""
    path = root / name
    if not path.is_file() and path.suffix != ".tex":
        path = root / (name + ".tex")
    if not path.is_file():
        what, fix = f"\\input{{{name}}}: no such file under {root}", "fix the name or add the file"
        if isinstance(position, str):
            raise EntryError(f"{position}: {what}; {fix}")
        raise fault(position, what, fix, kind="missing-file")
    return path
