"""A batch of entries' prose: each entry's source parsed by its reader into pandoc's AST, one pass
over the AST (cross-references, citations, pictures, references to labels), then every entry of the
batch written as HTML (MathML), LaTeX and Markdown by one pandoc process per format.

    out = render_batch(entries, facts, context)
    out[slug] = {"html", "latex", "markdown", "refs", "summary", "summary_html", "summary_latex", ...}

An entry's summary, when its source gives none, is its first sentence: as text ("summary"), and as
HTML and LaTeX written like its prose (formulas as MathML, or typeset by LaTeX).

Each entry (a glossary.model.Entry) is parsed by the reader of its document (glossary.documents.parse:
Markdown with the run's facts filled in, LaTeX descriptions all of a batch in one pandoc process);
nothing here knows an entry's source format.  Everything after works on the AST.
"""
import hashlib
import json
import os
import re
import sys
import tempfile
from dataclasses import replace
from pathlib import Path, PurePath

from glossary import (
    alttext,
    citations,
    dictionary,
    documents,
    eqnumbers,
    jsonio,
    labelrefs,
    mathml,
    model,
    plaintext,
    prose,
)
from glossary.entries import EntryError
from glossary.sentences import caption_text, first_sentence, referring_sentences, without_citations

# Between two entries in a batch's document: a raw block each writer copies as it is.
MARK = {"html": "<!--glossary-entry {slug}-->", "latex": "%glossary-entry {slug}",
        "markdown": "<!--glossary-entry {slug}-->"}
MARK_FORMAT = {"html": "html", "latex": "latex", "markdown": "markdown"}
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z(])")


# --- the readers' ASTs: the entries' names --------------------------------------------------

def titles(names, by_slug):
    """{slug: {"html", "latex", "text"}} of the entries whose name their reader parsed (`names`:
    glossary.documents.parse_names): the name as the page, the print edition and the feeds show it,
    without links."""
    names = {slug: [prose.node("Plain", without_citations(prose.inlines_of(blocks)))]
             for slug, blocks in names.items()}
    if not names:
        return {}
    # a formula that does not convert is told at the entry's first line, where its name is
    bodies = {slug: replace(by_slug[slug], document=replace(by_slug[slug].document, source=by_slug[slug].title,
                                                            line=by_slug[slug].line))
              for slug in names}
    html, latex = (write_batch(names, fmt, bodies) for fmt in ("html", "latex"))
    text = plaintext.texts(names)
    return {slug: {"html": html[slug].strip(), "latex": latex[slug].strip(), "text": text[slug]} for slug in names}


def names_read(entries, context, memo=None):
    """titles() of the entries (glossary.model.Entry) whose reader reads their name as prose, for
    names.json (glossary.dictionary.names): read once for the whole build, before any job, so that no
    page or print job waits for the catalog to learn a name.  `context`: {"latex_macros", "targets"};
    `memo`: a JSON file that keeps each name's result under the key of its name, its reader, the context
    and this package's code, so that a build reads again only the names that changed."""
    from glossary.texdict import code_digest  # the reader's: the prose jobs need it not
    read = [(e, reader) for e in entries if (reader := documents.name_reader(e))]
    shared = hashlib.sha256(code_digest() + context["latex_macros"].encode("utf-8")
                            + jsonio.dumps(context["targets"], compact=True).encode("utf-8")).hexdigest()
    keys = {e.slug: dictionary.content_key(shared, reader, e.title) for e, reader in read}
    kept = {}
    if memo and Path(memo).is_file():
        try:
            kept = json.loads(Path(memo).read_text(encoding="utf-8"))
        except ValueError:      # a build killed while it wrote (the write below replaces it whole)
            kept = {}
    todo = [e for e, _ in read if keys[e.slug] not in kept]
    fresh = titles(documents.parse_names(todo, context), {e.slug: e for e in todo}) if todo else {}
    found = {e.slug: kept.get(keys[e.slug]) or fresh[e.slug] for e, _ in read}
    if memo and set(kept) != set(keys.values()):
        tmp = Path(memo).with_name(f".{Path(memo).name}.{os.getpid()}")
        tmp.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(json.dumps({keys[s]: v for s, v in sorted(found.items())}, sort_keys=True), encoding="utf-8")
        os.replace(tmp, memo)
    return dict(sorted(found.items()))


# --- the pass over the AST ------------------------------------------------------------

class EntryPass(prose.Pass):
    """prose.Pass (wikilinks, raw TeX as text, unsafe addresses, formulas checked), plus what any
    reader's AST may hold: cross-reference links made by the reader, figures of compiled pictures,
    references to labels."""

    def __init__(self, entry, titles, labels, words=None):
        super().__init__(entry.document.source, entry.path, titles)
        self.entry, self.labels, self.figures, self.unknown = entry, labels, 0, []
        self.words = words or {}
        self.subfigures = None      # inside a figure: how many figures it holds so far

    def inlines(self, items):
        """prose.Pass's, a reference named by its entry not named twice (labelrefs.unrepeated)."""
        return labelrefs.unrepeated(super().inlines(items))

    def note_unknown(self, attr):
        """A construct the reader did not know, shown as text: reported by the build."""
        if "unknown-tex" in attr[1]:
            self.unknown.append(dict(attr[2])["construct"])

    def inline(self, x):
        t, c = x["t"], x.get("c")
        if t == "Span" and "math-xref" in c[0][1]:
            return [self.math_refs(c)]
        if t == "Span":
            self.note_unknown(c[0])
        if t == "Link" and "xref" in c[0][1]:
            self.refs.append(c[2][0])
            return [prose.node("Link", [c[0], self.inlines(c[1]), c[2]])]
        if t == "Link" and dict(c[0][2]).get("reference-type"):
            return [self.label_ref(dict(c[0][2]))]
        if t == "Image" and c[2][0].startswith(("picture:", "graphic:")):
            kind, n = c[2][0].split(":", 1)
            if kind == "picture":
                url = f"pictures:{self.entry.slug}/{n}"
            else:
                suffix = PurePath(self.entry.graphics[int(n) - 1]["path"]).suffix.lower()
                url = f"graphics:{self.entry.slug}/{n}{suffix}"
            return [prose.node("Image", [c[0], self.inlines(c[1]), [url, c[2][1]]])]
        return super().inline(x)

    def block(self, b):
        if b["t"] == "Div":
            self.note_unknown(b["c"][0])
        if b["t"] == "Figure":
            attr, caption, body = b["c"]
            short, long = caption
            # The page numbers its figures in the caption; LaTeX numbers them itself (resolve() drops it):
            # a figure "Figure 2.", a figure inside one (a subfigure) "(a)", "(b)" as LaTeX's subcaption,
            # which letters a subfigure only by its \caption (the authors may draw the letter themselves).
            # A \caption* (class "unnumbered") shows no number, though the figure counts as the reader's labels do.
            if self.subfigures is None:
                self.figures += 1
                shown = (None if "unnumbered" in attr[1]
                         else f"{self.words.get('Figure', 'Figure')}\u00a0{self.figures}.")
            elif not long or "unnumbered" in attr[1]:
                shown = None
            else:
                self.subfigures += 1
                shown = f"({chr(ord('a') + (self.subfigures - 1) % 26)})"
            label = [prose.node("Span", [["", ["figure-label"], []],
                                         [prose.node("Strong", [prose.node("Str", shown)]), prose.node("Space")]])
                     ] if shown else []
            outer, self.subfigures = self.subfigures, 0 if self.subfigures is None else self.subfigures
            body = self.blocks(body)
            self.subfigures = outer
            if outer is None:
                attr = self.figure_id(attr, body)
            first = long[0] if long else None
            if first and first["t"] in ("Plain", "Para"):
                long = [prose.node(first["t"], label + self.inlines(first["c"]))] + self.blocks(long[1:])
            else:
                long = ([prose.node("Plain", label)] if label else []) + self.blocks(long)
            return [prose.node("Figure", [attr, [short, long], body])]
        return super().block(b)

    def figure_id(self, attr, body):
        """A figure's identifier: pandoc gives a figure of subfigures the last subfigure's label, so
        it takes its own (the label of its number that no subfigure has; LaTeX's \\label in its caption)."""
        inner = {b["c"][0][0] for b in body if b["t"] == "Figure"}
        if not inner or attr[0] not in inner | {""}:
            return attr
        own = [name for name, t in self.labels.items() if t["slug"] == self.entry.slug and t["kind"] == "figure"
               and t["number"] == self.figures and name not in inner]
        return [own[0] if own else "", *attr[1:]]

    def math_refs(self, c):
        """A formula's references (glossary.texprose wrote an \\eqref in it as "(label)", recorded as
        ["#label", "(label)"] on the Span): each shows its equation's number, "(3)", in the formula
        (and in its LaTeX, data-latex) and links to its place, in this entry or on the entry that
        has it ("slug#label")."""
        (ident, classes, attrs), content = c
        attrs = dict(attrs)
        links, numbers = [], {}
        for target, text in json.loads(attrs.get("data-xrefs", "[]")):
            if target.startswith("#"):
                label = target[1:]
                found = self.labels.get(label)
                if found is None:
                    self.error(re.escape(label), f"\\eqref{{{label}}}: no equation has this label; fix the label")
                numbers[text] = f"({found['number']})"
                if found["slug"] != self.entry.slug:     # another entry's equation: named by its entry
                    numbers[text] = labelrefs.named_text(numbers[text], found["slug"], self.titles, self.words)
                    target = f"{found['slug']}{target}"
                text = numbers[text]
            links.append([target, text])

        def renumbered(tex):
            for old, new in numbers.items():
                tex = tex.replace(old, new)
            return tex

        out = []
        for x in content:
            if x["t"] == "Math":
                self.check_math(x["c"][1])
                x = prose.node("Math", [x["c"][0], renumbered(x["c"][1])])
            out.append(x)
        attrs["data-xrefs"] = json.dumps(links, ensure_ascii=False)
        if "data-latex" in attrs:
            attrs["data-latex"] = renumbered(attrs["data-latex"])
        return prose.node("Span", [[ident, classes, sorted(attrs.items())], out])

    def label_ref(self, attrs):
        label = attrs.get("reference", "")
        target = self.labels.get(label)
        if target is None:
            self.error(re.escape(label), f"\\ref{{{label}}}: no figure, equation or table has this label; "
                       "fix the label or add it")
        # as LaTeX prints them: \ref the number alone (the prose says "Fig."), \eqref in parentheses
        number = str(target["number"])
        shown = f"({number})" if attrs.get("reference-type") == "eqref" else number
        if target["slug"] == self.entry.slug:
            return prose.node("Link", [["", ["ref"], []], [prose.node("Str", shown)], [f"#{label}", ""]])
        return labelrefs.named_ref(shown, target["slug"], label, self.titles, self.words)


def references_block(refs, slug, heading="References"):
    """An entry's references, as its prose ends with them in every format (a Div each writer renders
    from the records citeproc formatted: resolve() swaps in each format's own list)."""
    if not refs:
        return []
    return [prose.node("Div", [["", ["references"], [["data-slug", slug], ["data-heading", heading]]],
                               [prose.node("RawBlock", ["references", json.dumps(refs, ensure_ascii=False)])]])]


# --- writing a batch ----------------------------------------------------------------------

def resolve(value, fmt):
    """What depends on the output format: addresses of pictures, graphics and other pages, citation
    links (a LaTeX hyperlink to the reference's target needs no second pass) and reference lists."""
    if isinstance(value, list):
        return [resolve(v, fmt) for v in value]
    if isinstance(value, dict) and value.get("t") == "Div" and "references" in value["c"][0][1]:
        return references_in(value, fmt)
    if isinstance(value, dict) and value.get("t") == "Span" and "figure-label" in value["c"][0][1] and fmt != "html":
        return prose.node("Span", [["", [], []], []])
    if fmt == "latex" and isinstance(value, dict) and value.get("t") == "Link" and "citation" in value["c"][0][1]:
        target = value["c"][2][0].lstrip("#")
        opening = prose.node("RawInline", ["latex", f"\\protect\\hyperlink{{{target}}}{{"])
        return prose.node("Span", [["", [], []], [opening, *value["c"][1], prose.node("RawInline", ["latex", "}"])]])
    if fmt == "latex" and isinstance(value, dict) and value.get("t") == "Link" \
            and value["c"][2][0].startswith(labelrefs.OTHER):
        return labelrefs.latex_ref(value)
    if isinstance(value, dict):
        if value.get("t") in ("Image", "Link"):
            attr, content, (url, title) = value["c"]
            url = address(url, fmt)
            return {"t": value["t"], "c": [attr, resolve(content, fmt), [url, title]]}
        return {k: resolve(v, fmt) for k, v in value.items()}
    return value


def references_in(div, fmt):
    """The reference list of an entry in `fmt`: a heading and the formatted records."""
    attrs = dict(div["c"][0][2])
    refs = json.loads(div["c"][1][0]["c"][1])
    prefix = f"ref-{attrs['data-slug']}-"
    title = attrs.get("data-heading", "References")
    if fmt == "html":
        body = prose.node("RawBlock", ["html", citations.references_html(refs, prefix)])
        heading = prose.node("Header", [2, ["references", [], []], [prose.node("Str", title)]])
        return prose.node("Div", [["", ["references"], []], [heading, body]])
    if fmt == "latex":
        return prose.node("Div", [["", [], []], [prose.node("RawBlock", ["latex", f"\\glossarypart{{{title}}}\n"
                                                                         + citations.references_latex(refs, prefix)])]])
    return prose.node("Div", [["", [], []], [prose.node("Header", [2, ["", [], []], [prose.node("Str", title)]]),
                                              prose.node("RawBlock", ["markdown", citations.references_text(refs)])]])


def address(url, fmt):
    kind, _, rest = url.partition(":")
    if kind in ("pictures", "graphics"):
        slug, n = rest.split("/", 1)
        ext = {"html": "svg", "latex": "pdf", "markdown": "svg"}[fmt] if kind == "pictures" else None
        name = f"{n}.{ext}" if ext else n
        return f"{slug}/{kind}/{name}"
    if kind == "xref-page":
        slug, _, anchor = rest.partition("#")
        # in print every label is the book's own (an entry's PDF shows the reference unlinked)
        return {"html": f"{slug}.html", "markdown": f"{slug}.md", "latex": ""}[fmt] + f"#{anchor}"
    return url


def write_batch(asts, fmt, bodies, macros=""):
    """Every entry's blocks written in `fmt` by one pandoc process: {slug: text}."""
    if fmt == "html":
        pages, failures = html_pieces(asts)
        if failures:
            raise_formula(failures[0], asts, bodies, macros)
        return pages
    text = json.dumps(document(asts, fmt))
    out = prose.run_pandoc(["-f", "json", *prose.WRITERS[fmt]], text)
    return split(prose.latex_widths(out) if fmt == "latex" else out, fmt, list(asts))


def document(asts, fmt):
    """One pandoc document of every entry's blocks in `fmt`'s form, each after its marker."""
    blocks = []
    for slug, ast in asts.items():
        blocks.append(prose.node("RawBlock", [MARK_FORMAT[fmt], MARK[fmt].format(slug=slug)]))
        blocks.extend(unwrap_spans(resolve(prose.for_format(ast, fmt), fmt), fmt))
    return {"pandoc-api-version": api_version(), "meta": {}, "blocks": blocks}


def html_pieces(asts):
    """({slug: HTML}, [(formula, message)]): every entry's HTML from one pandoc process (math as
    MathML, references inside formulas linked) and the formulas texmath could not convert."""
    with tempfile.TemporaryDirectory() as tmp:
        log = str(Path(tmp) / "log.json")
        out = prose.run_pandoc(["-f", "json", *prose.WRITERS["html"]], json.dumps(document(asts, "html")), log=log)
        failures = prose.math_failures(log)
    pieces = split(out, "html", list(asts))
    # The MathML set as TeX sets it (glossary.mathml) once the numbers stand beside their formulas.
    return {slug: mathml.tidy(eqnumbers.equation_numbers(mathml.link_math(piece)))
            for slug, piece in pieces.items()}, failures


def raise_formula(failure, asts, bodies, macros=""):
    """The EntryError of a formula that does not convert, told by its entry's reader (`bodies`:
    {slug: glossary.model.Entry})."""
    formula, message = failure
    for slug, ast in asts.items():
        # the formulas as pandoc read them (json.dumps(ast) would double every backslash)
        if formula in prose.formulas(ast):
            documents.raise_formula(failure, ast, bodies[slug], macros)
    raise EntryError(f"a formula does not convert to MathML: ${formula}$ ({' '.join(message.split())}); fix it")


def unwrap_spans(value, fmt):
    """The HTML keeps the spans a reader made around formulas (their ids and links; not the
    formula's LaTeX, data-latex); the other formats show only what they hold, LaTeX the formula
    of data-latex (its references links) when the span has one."""
    if fmt == "html":
        return equation_ids(without_attr(value, "data-latex"))
    if isinstance(value, list):
        out = []
        for v in value:
            if isinstance(v, dict) and v.get("t") == "Span" and {"equation", "math-xref"} & set(v["c"][0][1]):
                content, latex = v["c"][1], dict(v["c"][0][2]).get("data-latex")
                if fmt == "latex" and latex is not None:
                    content = [prose.node("Math", [x["c"][0], latex]) if x["t"] == "Math" else x for x in content]
                out.extend(unwrap_spans(content, fmt))
            else:
                out.append(unwrap_spans(v, fmt))
        return out
    if isinstance(value, dict):
        return {k: unwrap_spans(v, fmt) for k, v in value.items()}
    return value


def equation_ids(value):
    """The blocks with each labelled equation's Span identified by its label, for the HTML only:
    LaTeX keeps the \\label inside the formula, and a Span's identifier would label it twice."""
    if isinstance(value, list):
        return [equation_ids(v) for v in value]
    if isinstance(value, dict):
        if value.get("t") == "Span" and "equation" in value["c"][0][1]:
            (_, classes, attrs), content = value["c"]
            label = dict(attrs)["label"]
            return prose.node("Span", [[label, classes, [a for a in attrs if a[0] != "label"]], content])
        return {k: equation_ids(v) for k, v in value.items()}
    return value


def without_attr(value, name):
    """The AST without the attribute `name` on its Spans."""
    if isinstance(value, list):
        return [without_attr(v, name) for v in value]
    if isinstance(value, dict):
        if value.get("t") == "Span":
            (ident, classes, attrs), content = value["c"]
            return prose.node("Span", [[ident, classes, [a for a in attrs if a[0] != name]],
                                       without_attr(content, name)])
        return {k: without_attr(v, name) for k, v in value.items()}
    return value


def split(out, fmt, slugs):
    pieces = {}
    marks = [MARK[fmt].format(slug=s) for s in slugs]
    positions = [out.index(m) for m in marks]
    for i, slug in enumerate(slugs):
        start = positions[i] + len(marks[i])
        end = positions[i + 1] if i + 1 < len(slugs) else len(out)
        pieces[slug] = out[start:end].strip("\n") + "\n"
    return pieces


API_VERSION = []


def api_version():
    """The JSON AST version of the pinned pandoc."""
    if not API_VERSION:
        API_VERSION.append(json.loads(prose.run_pandoc(["-f", "markdown", "-t", "json"], ""))["pandoc-api-version"])
    return API_VERSION[0]


def cache_key(entry, facts, context):
    """The key of an entry's prose in the batch's cache: everything its outputs are made of (its
    model and facts, the macros, the code, and of the other entries only what it names)."""
    named = {m.name for m in entry.links}
    labels = {m.name for m in entry.label_refs}
    cited = sorted({m.name for m in entry.citations})
    return dictionary.content_key(
        entry.to_json(), facts, context["markdown_macros"], context["latex_macros"], context.get("code", ""),
        {k: v for k, v in context["targets"].items() if k in named},
        {k: v for k, v in context["titles"].items() if k in named},
        {k: v for k, v in context["labels"].items() if k in labels},
        {k: context.get("references", {}).get(k) for k in cited}, context.get("words", {}))


FORMATS = ("html", "latex", "markdown")


def render_batch(entries, facts, context, cache=None, formats=FORMATS, quotes=True):
    """The prose of each entry of a batch (see the module's docstring); with `cache` (a folder),
    an entry whose cache_key() is there is not parsed again.  `formats`: those written, and `quotes`:
    whether the sentences that refer to other entries are (their pages quote them): the preview asks
    for the page's HTML alone; what is written does not depend on what else is."""
    if cache and (tuple(formats) != FORMATS or not quotes):
        raise ValueError("a cached batch is written in every format: its cache holds them all")
    entries = [model.Entry.from_json(e) for e in entries]
    keys = {e.slug: cache_key(e, facts.get(e.slug, {}), context) for e in entries} if cache else {}
    results = {}
    for e in entries:
        path = Path(cache) / f"{keys[e.slug]}.json" if cache else None
        if path and path.is_file():
            results[e.slug] = json.loads(path.read_text(encoding="utf-8"))
    todo = [e for e in entries if e.slug not in results]
    if todo:
        fresh = render_fresh(todo, facts, context, formats, quotes)
        for slug, done in fresh.items():
            if cache:
                Path(cache).mkdir(parents=True, exist_ok=True)
                Path(cache, f"{keys[slug]}.json").write_text(json.dumps(done, sort_keys=True), encoding="utf-8")
        results.update(fresh)
    print(f"prose: {len(todo)} of {len(entries)} entries converted, {len(entries) - len(todo)} from the cache",
          file=sys.stderr)
    return results


def render_fresh(entries, facts, context, formats=FORMATS, quotes=True):
    """render_batch's work for the entries not in its cache (glossary.model.Entry)."""
    asts = documents.parse(entries, facts, context)
    done, by_slug = {}, {e.slug: e for e in entries}
    results, summaries = {}, {}
    for e in entries:
        walker = EntryPass(e, context["titles"], context["labels"], context.get("words"))
        blocks, refs = citations.number(walker.blocks(asts[e.slug]), context.get("references", {}),
                                        prefix=f"ref-{e.slug}-")
        done[e.slug] = blocks + references_block(refs, e.slug,
                                                    context.get("words", {}).get("References", "References"))
        given = e.summary
        first = without_citations(labelrefs.Quote(e.slug, context).walk(first_sentence(done[e.slug])))
        summaries[e.slug] = [prose.node("Plain", first)]
        results[e.slug] = {"refs": walker.refs, "summary": given, "unknown": walker.unknown}
    reset = [prose.node("RawBlock", ["latex", eqnumbers.PRINT_RESET])]
    shown = {"html": alttext.with_alt(done, caption_text),
             "latex": {slug: reset + blocks for slug, blocks in done.items()}}
    for fmt in formats:
        for slug, text in write_batch(shown.get(fmt, shown["html"]), fmt, by_slug, context["markdown_macros"]).items():
            results[slug][fmt] = text
    derived = {slug: blocks for slug, blocks in summaries.items() if not by_slug[slug].summary}
    for slug, text in plaintext.texts(derived).items():     # the summary as text: formulas as characters
        results[slug]["summary"] = text
    for slug in summaries:
        results[slug]["summary_html"] = results[slug]["summary_latex"] = None
    for fmt in [f for f in ("html", "latex") if f in formats] if derived else ():
        for slug, text in write_batch(derived, fmt, by_slug).items():
            results[slug][f"summary_{fmt}"] = text.strip()
    quoting = done if quotes else {}
    sentences = {f"{slug}{REFERS}{target}":
                 [prose.node("Plain", without_citations(labelrefs.Quote(slug, context).walk(inlines), keep_refs=True))]
                 for slug in quoting for target, inlines in referring_sentences(done[slug], slug).items()}
    for slug in done:
        results[slug]["contexts"] = {}
    if sentences:
        bodies = {key: by_slug[key.split(REFERS)[0]] for key in sentences}
        for key, text in write_batch(sentences, "html", bodies).items():
            slug, target = key.split(REFERS)
            results[slug]["contexts"][target] = text.strip()
    return results


REFERS = ">refers>"       # in the keys of one pandoc run's pieces: <entry>>refers><entry it refers to>
