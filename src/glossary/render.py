"""A batch of entries' prose: each entry's source parsed by its reader into pandoc's AST, one pass
over the AST (cross-references, citations, pictures, references to labels), then every entry of the
batch written as HTML (MathML), LaTeX and Markdown by one pandoc process per format.

    out = render_batch(entries, facts, context)
    out[slug] = {"html", "latex", "markdown", "refs", "summary", "references"}

The reader is the only part that knows an entry's source format (entry["body_format"]): Markdown
entries are parsed by glossary.prose (with the run's facts filled in), LaTeX descriptions by
glossary.texprose, all of a batch in one pandoc process.  Everything after works on the AST.
"""
import json
import re

from glossary import prose
from glossary.entries import EntryError

# Between two entries in a batch's document: a raw block each writer copies as it is.
MARK = {"html": "<!--glossary-entry {slug}-->", "latex": "%glossary-entry {slug}",
        "markdown": "<!--glossary-entry {slug}-->"}
MARK_FORMAT = {"html": "html", "latex": "latex", "markdown": "markdown"}
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z(])")


# --- readers: source -> AST ---------------------------------------------------------

def parse_markdown(entry, facts, macros):
    body = prose.fill(entry["body"], facts, entry["path"])
    return prose.parse(body, macros)["blocks"]


def parse_all(entries, facts, context):
    """{slug: pandoc blocks} for a batch, each entry by the reader of its format."""
    blocks = {}
    latex = [e for e in entries if e["body_format"] == "latex"]
    for e in entries:
        if e["body_format"] == "markdown":
            blocks[e["slug"]] = parse_markdown(e, facts.get(e["slug"], {}), context["markdown_macros"])
    if latex:
        from glossary import texprose
        blocks.update(texprose.parse(latex, context["latex_macros"], context["targets"]))
    return blocks


# --- the pass over the AST ------------------------------------------------------------

class EntryPass(prose.Pass):
    """prose.Pass (wikilinks, raw TeX as text, unsafe addresses, formulas checked), plus what any
    reader's AST may hold: cross-reference links made by the reader, figures of compiled pictures,
    references to labels."""

    def __init__(self, entry, titles, labels):
        super().__init__(entry["body"], entry["path"], titles)
        self.entry, self.labels, self.figures = entry, labels, 0

    def inline(self, x):
        t, c = x["t"], x.get("c")
        if t == "Link" and "xref" in c[0][1]:
            self.refs.append(c[2][0])
            return [prose.node("Link", [c[0], self.inlines(c[1]), c[2]])]
        if t == "Link" and dict(c[0][2]).get("reference-type"):
            return [self.label_ref(dict(c[0][2]))]
        if t == "Image" and c[2][0].startswith(("picture:", "graphic:")):
            kind, n = c[2][0].split(":", 1)
            folder = "pictures" if kind == "picture" else "graphics"
            return [prose.node("Image", [c[0], self.inlines(c[1]), [f"{folder}:{self.entry['slug']}/{n}", c[2][1]]])]
        return super().inline(x)

    def block(self, b):
        if b["t"] == "Figure":
            self.figures += 1
            attr, caption, body = b["c"]
            short, long = caption
            label = [prose.node("Strong", [prose.node("Str", f"Figure\u00a0{self.figures}.")]), prose.node("Space")]
            first = long[0] if long else None
            if first and first["t"] in ("Plain", "Para"):
                long = [prose.node(first["t"], label + self.inlines(first["c"]))] + self.blocks(long[1:])
            else:
                long = [prose.node("Plain", label)] + self.blocks(long)
            return [prose.node("Figure", [attr, [short, long], self.blocks(body)])]
        return super().block(b)

    def label_ref(self, attrs):
        label = attrs.get("reference", "")
        target = self.labels.get(label)
        if target is None:
            self.error(re.escape(label), f"\\ref{{{label}}}: no figure, equation or table has this label; "
                       "fix the label or add it")
        number = str(target["number"])
        shown = {"figure": f"Figure\u00a0{number}", "table": f"Table\u00a0{number}"}.get(
            target["kind"], f"({number})" if attrs.get("reference-type") == "eqref" else number)
        page = "" if target["slug"] == self.entry["slug"] else f"xref-page:{target['slug']}"
        return prose.node("Link", [["", ["ref"], []], [prose.node("Str", shown)], [f"{page}#{label}", ""]])


# --- writing a batch ----------------------------------------------------------------------

def resolve(value, fmt):
    """Addresses that depend on the output format: pictures, graphics and other pages."""
    if isinstance(value, list):
        return [resolve(v, fmt) for v in value]
    if isinstance(value, dict):
        if value.get("t") in ("Image", "Link"):
            attr, content, (url, title) = value["c"]
            url = address(url, fmt)
            return {"t": value["t"], "c": [attr, resolve(content, fmt), [url, title]]}
        return {k: resolve(v, fmt) for k, v in value.items()}
    return value


def address(url, fmt):
    kind, _, rest = url.partition(":")
    if kind in ("pictures", "graphics"):
        slug, n = rest.split("/", 1)
        ext = {"html": "svg", "latex": "pdf", "markdown": "svg"}[fmt] if kind == "pictures" else None
        name = f"{n}.{ext}" if ext else n
        return f"{slug}/{kind}/{name}"
    if kind == "xref-page":
        slug, _, anchor = rest.partition("#")
        return {"html": f"{slug}.html", "markdown": f"{slug}.md", "latex": f"{slug}.html"}[fmt] + f"#{anchor}"
    return url


def write_batch(asts, fmt, bodies):
    """Every entry's blocks written in `fmt` by one pandoc process: {slug: text}."""
    blocks = []
    for slug, ast in asts.items():
        blocks.append(prose.node("RawBlock", [MARK_FORMAT[fmt], MARK[fmt].format(slug=slug)]))
        blocks.extend(resolve(prose.for_format(ast, fmt), fmt))
    doc = {"pandoc-api-version": API_VERSION[0], "meta": {}, "blocks": blocks}
    text = json.dumps(doc)
    if fmt == "html":
        out = write_html(text, asts, bodies)
    else:
        out = prose.run_pandoc(["-f", "json", *prose.WRITERS[fmt]], text)
    return split(out, fmt, list(asts))


def write_html(text, asts, bodies):
    import tempfile
    from pathlib import Path
    with tempfile.TemporaryDirectory() as tmp:
        log = str(Path(tmp) / "log.json")
        out = prose.run_pandoc(["-f", "json", *prose.WRITERS["html"]], text, log=log)
        failures = prose.math_failures(log)
    for formula, message in failures:
        for slug, ast in asts.items():
            if formula in json.dumps(ast):
                entry = bodies[slug]
                where = prose.line_of(entry["body"], re.escape(formula[:20]), entry["path"])
                raise EntryError(f"{entry['path']}: {where}: term {entry['key']!r}: the formula ${formula}$ "
                                 f"does not convert to MathML ({' '.join(message.split())}); fix it")
        raise EntryError(f"a formula does not convert to MathML: ${formula}$ ({message})")
    return out


def split(out, fmt, slugs):
    pieces = {}
    marks = [MARK[fmt].format(slug=s) for s in slugs]
    positions = [out.index(m) for m in marks]
    for i, slug in enumerate(slugs):
        start = positions[i] + len(marks[i])
        end = positions[i + 1] if i + 1 < len(slugs) else len(out)
        pieces[slug] = out[start:end].strip("\n") + "\n"
    return pieces


API_VERSION = [None]


def summary_of(blocks):
    """The first sentence of the first paragraph, as plain text: an entry's summary when its
    source gives none."""
    for b in blocks:
        if b["t"] in ("Para", "Plain"):
            text = " ".join(prose.stringify(b["c"]).split())
            return SENTENCE_END.split(text, maxsplit=1)[0] if text else ""
    return ""


def render_batch(entries, facts, context):
    """The prose of each entry of a batch (see the module's docstring)."""
    asts = parse_all(entries, facts, context)
    if API_VERSION[0] is None:
        API_VERSION[0] = json.loads(prose.run_pandoc(["-f", "markdown", "-t", "json"], ""))["pandoc-api-version"]
    done, by_slug = {}, {e["slug"]: e for e in entries}
    results = {}
    for e in entries:
        walker = EntryPass(e, context["titles"], context["labels"])
        done[e["slug"]] = walker.blocks(asts[e["slug"]])
        results[e["slug"]] = {"refs": walker.refs, "summary": e.get("summary") or summary_of(done[e["slug"]])}
    for fmt in ("html", "latex", "markdown"):
        for slug, text in write_batch(done, fmt, by_slug).items():
            results[slug][fmt] = text
    return results
