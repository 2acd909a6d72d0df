"""What a reader of a large dictionary needs besides the pages: its sections (the index groups
the terms by section, each section has a page, a term's previous and next are those of its
section), the full-text search (a lunr index built here, read by the vendored lunr.js) and the
previews of cross-references.

The search index and the previews are published as .js files that assign one global each (a
<script> element loads them from file:// as well as over http, where a fetch() of a JSON file
fails from disk).  Everything is a pure function of the catalog and the prose: sorted, no clock,
no absolute paths, so two builds write the same bytes."""
import hashlib
import html
import json
import math
import re
import sys
from html.parser import HTMLParser
from pathlib import Path

from glossary import assets, dictionary, jsonio
from glossary.layout import title_order

# The lunr.js build the site publishes (templates/vendor/), and lunr.py writes an index for.
LUNR_JS = "lunr-2.3.9.min.js"
# lunr-languages (templates/vendor/): the stemmer support, and per language its pipeline functions.
VENDOR = assets.path("templates/vendor")
LUNR_SUPPORT = "lunr.stemmer.support.min.js"
# nltk's Snowball stemmers by lunr-languages' language code.
SNOWBALL = {"de": "german", "fr": "french", "es": "spanish", "it": "italian", "fi": "finnish"}
# How much more a match counts in each field: names first, then short forms, summaries, definitions.
BOOSTS = {"name": 10, "forms": 6, "summary": 2, "body": 1}
# The forms of a name a reader may type besides it (the entry model's `forms`): text= is the short
# form ("ML"), first= the long one with it ("machine learning (ML)").
FORM_KEYS = ("text", "first", "plural", "short", "long")


# --- sections ------------------------------------------------------------------------------------

def letter(title, sort_as=None):
    """The letter of the A–Z bar a title files under ("#" for one that starts with no letter); a
    catalog row's sort_as is the name's letters ($\\nabla$-gradient files under N)."""
    key = (sort_as if sort_as is not None else title_order("", title)[0]).lstrip()
    first = key[:1].upper()
    return first if "A" <= first <= "Z" else "#"


def letters(rows):
    """[(letter, [rows])] in the rows' (the index's) order."""
    groups = {}
    for row in rows:
        groups.setdefault(letter(row["title"], row.get("sort_as")), []).append(row)
    return sorted(groups.items(), key=lambda kv: (kv[0] == "#", kv[0]))


def sections(catalog):
    """The dictionary's sections that hold terms, in its order: {"id", "title", "count", "entries"}
    (entries in the index's order)."""
    out = []
    for sec in catalog["sections"]:
        rows = [r for r in catalog["entries"] if r["section"] == sec["id"]]
        if rows:
            out.append({"id": sec["id"], "title": sec["title"], "count": len(rows), "entries": rows})
    return out


def section_titles(catalog_sections):
    return {s["id"]: s["title"] for s in catalog_sections}


def section_neighbours(others, slug):
    """The previous and next entries of `slug`'s section, in the index's order, or None."""
    mine = next(o for o in others if o["slug"] == slug)
    same = [o for o in others if o.get("section") == mine.get("section")]
    i = [o["slug"] for o in same].index(slug)
    return (same[i - 1] if i > 0 else None), (same[i + 1] if i + 1 < len(same) else None)


def section_page(section_id):
    """A section's page, relative to the site's root."""
    return f"sections/{section_id}.html"


# --- the text of a page, as the search reads it ------------------------------------------------------

class _Text(HTMLParser):
    """The text of prose HTML without its formulas (MathML is markup, not words), its figures'
    pictures, and its list of references (the bibliography is not the definition)."""
    SKIP = {"script", "style", "svg", "math"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts, self.skip = [], []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag in self.SKIP or (tag == "section" and "references" in (attrs.get("class") or "").split()):
            self.skip.append(tag)
        elif self.skip and tag == self.skip[-1]:
            self.skip.append(tag)
        if tag in ("p", "li", "br", "div", "figcaption", "td", "th", "h2", "h3"):
            self.parts.append(" ")

    def handle_endtag(self, tag):
        if self.skip and tag == self.skip[-1]:
            self.skip.pop()

    def handle_data(self, data):
        if not self.skip:
            self.parts.append(data)


def text_of(prose_html):
    """Prose HTML as plain text for the index: one line, formulas and references left out."""
    parser = _Text()
    parser.feed(prose_html)
    parser.close()
    return " ".join("".join(parser.parts).split())


def other_forms(forms, title):
    """The forms of an entry's name that differ from its title (as text: results/forms.json), in
    FORM_KEYS' order."""
    seen, out = {title.lower()}, []
    for key in FORM_KEYS:
        value = (forms or {}).get(key)
        if value and value.lower() not in seen:
            seen.add(value.lower())
            out.append(value)
    return out


def forms_text(forms, title):
    """The forms of an entry's name that differ from its title, as one field."""
    return " ".join(other_forms(forms, title))


def shortened(text, limit=160):
    """A result's summary: at most `limit` characters, cut at a space."""
    if len(text) <= limit:
        return text
    return text[:limit].rsplit(" ", 1)[0].rstrip(",;:") + "…"


# --- the search --------------------------------------------------------------------------------------

def search_documents(catalog, prose, forms, texts=None):
    """One document per entry, in the index's order: prose {slug: HTML}, forms {slug: {...}}.  `texts`:
    {sha256 of an entry's prose or summary HTML: its text_of}, as the last search job left them
    (texts_kept), so that only what changed is parsed again; it is left holding this dictionary's alone."""
    titles = section_titles(catalog["sections"])
    kept, texts = dict(texts or {}), {} if texts is None else texts
    texts.clear()

    def text(some_html):
        key = hashlib.sha256(some_html.encode("utf-8")).hexdigest()
        texts[key] = kept[key] if key in kept else text_of(some_html)
        return texts[key]
    docs = []
    for row in catalog["entries"]:
        slug = row["slug"]
        # the page's address among the forms: a reader may type "kmeans" for "k-means"
        docs.append({"slug": slug, "name": row["title"],
                     "forms": " ".join(filter(None, (forms_text(forms.get(slug), row["title"]), slug))),
                     "form_list": other_forms(forms.get(slug), row["title"]),
                     "referrers": len(catalog.get("referenced_by", {}).get(slug, [])),
                     "summary": text(row.get("summary_html") or html.escape(row["summary"] or "")),
                     # the summary as text (glossary.plaintext: a formula as its characters)
                     "shown": shortened(" ".join((row["summary"] or "").split())),
                     "body": text(prose.get(slug, "")),
                     "section": titles.get(row["section"], row["section"])})
    return docs


# The code the kept texts were made by: another text_of parses everything again.
_CODE = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()


def texts_kept(path):
    """search_documents' `texts` as the last search job of this code left them in `path` ({} when none)."""
    try:
        kept = jsonio.read_compact(path)
    except (OSError, ValueError):       # none yet, or a job killed while it wrote (before its rename)
        return {}
    return kept["texts"] if kept.get("code") == _CODE else {}


def keep_texts(path, texts):
    """Keep `texts` for the next search job, written whole or not at all."""
    dictionary.write_if_changed(Path(path), jsonio.dumps({"code": _CODE, "texts": texts}, compact=True))


def counts_kept(path, lang):
    """counts_of's `kept` as the last search job of this code, lunr and language left it in `path` ({} when
    none)."""
    try:
        kept = jsonio.read_compact(path)
    except (OSError, ValueError):       # none yet, or a job killed while it wrote (before its rename)
        return {}
    made_by = _counts_made_by(lang)
    return kept["counts"] if all(kept.get(k) == v for k, v in made_by.items()) else {}


def keep_counts(path, lang, counts):
    """Keep counts_of's `kept` for the next search job, written whole or not at all."""
    dictionary.write_if_changed(Path(path), jsonio.dumps({**_counts_made_by(lang), "counts": counts}, compact=True))


def _counts_made_by(lang):
    """What a language's counts are made by: this code, lunr, and for a language of lunr-languages
    (language_builder) its file (the word characters, the stop words) and nltk's stemmer."""
    from importlib.metadata import version
    pipeline = lang if not language_file(lang) else [
        lang, hashlib.sha256((VENDOR / language_file(lang)).read_bytes()).hexdigest(), version("nltk")]
    return {"code": _CODE, "lunr": version("lunr"), "lang": pipeline}


def language_file(lang):
    """lunr-languages' file of a language (templates/vendor/lunr.<lang>.min.js), or None (English:
    lunr's own pipeline)."""
    return f"lunr.{lang}.min.js" if lang in SNOWBALL else None


def language_builder(lang):
    """A lunr.py builder with the language's pipeline as lunr-languages has it in the browser: its
    trimmer (word characters) and stop words read from the vendored file itself, so that both sides
    agree, and nltk's Snowball stemmer, the algorithm lunr-languages' stemmer implements.  Each is
    registered under lunr-languages' label (trimmer-de, stopWordFilter-de, stemmer-de), the names the
    serialized index gives lunr.js."""
    # here: lunr and nltk cost 150-180 ms, which the main process (glossary.plan) and the page jobs
    # that import this module would pay for the one job that builds the index
    from lunr.builder import Builder
    from lunr.languages.stemmer import nltk_stemmer
    from lunr.languages.trimmer import generate_trimmer
    from lunr.pipeline import Pipeline
    from lunr.stop_word_filter import generate_stop_word_filter
    from nltk.stem.snowball import SnowballStemmer
    source = (VENDOR / language_file(lang)).read_text(encoding="utf-8")
    chars = re.search(r'wordCharacters="([^"]*)"', source).group(1)
    stops = re.search(r"generateStopWordFilter\(\s*[\"']([^\"']*)[\"']\.split", source).group(1).split()
    trimmer = generate_trimmer(chars)
    Pipeline.register_function(trimmer, f"trimmer-{lang}")
    stop = generate_stop_word_filter(stops, language=lang)
    snowball = SnowballStemmer(SNOWBALL[lang])

    def stemmer(token, i=None, tokens=None):
        return nltk_stemmer(snowball, token, i, tokens)
    Pipeline.register_function(stemmer, f"stemmer-{lang}")
    builder = Builder()
    builder.pipeline.add(trimmer, stop, stemmer)
    builder.search_pipeline.add(stemmer)
    return builder


def default_builder():
    """lunr.py's own (English) builder.  lunr's package imports nltk on its way in only to learn whether
    it may offer other languages, a quarter of a second of the search job; English needs none of it, so
    nltk is hidden from that first import (language_builder imports nltk itself, later or not)."""
    if "lunr" not in sys.modules and "nltk" not in sys.modules:
        sys.modules["nltk"] = None      # `import nltk` raises ImportError while this is here
        try:
            import lunr  # noqa: F401
        finally:
            del sys.modules["nltk"]
    from lunr.lunr import get_default_builder  # see language_builder
    return get_default_builder()


def _builder(lang):
    """A lunr.py builder with the search's fields and the language's pipeline."""
    builder = language_builder(lang) if language_file(lang) else default_builder()
    builder.ref("i")
    for name, boost in BOOSTS.items():
        builder.field(name, boost=boost)
    return builder


def _filled(docs, lang):
    """The builder with every document added: its postings and lengths, no vectors yet."""
    builder = _builder(lang)
    for i, d in enumerate(docs):
        builder.add({"i": str(i), **{k: d[k] for k in BOOSTS}})
    return builder


def counts_of(docs, lang="en", kept=None):
    """Each document's terms as lunr's builder counts them (its pipeline: tokens, stop words, stems):
    [{field: [its length in terms, {term: how often}]}] in docs' order.  `kept`: {a document's key (its
    fields' text): its counts}, as the last search job left them (counts_kept), so that only the documents
    that changed go through the pipeline (most of the job's time at 5,000 terms); it is left holding these
    documents' alone."""
    before, kept = dict(kept or {}), {} if kept is None else kept
    kept.clear()
    keys = [hashlib.sha256(json.dumps([d[f] for f in BOOSTS]).encode()).hexdigest() for d in docs]
    new = [(key, d) for key, d in dict(zip(keys, docs)).items() if key not in before]
    if new:
        builder = _filled([d for _, d in new], lang)
        for i, (key, _) in enumerate(new):
            before[key] = {f: [builder.field_lengths[f"{f}/{i}"], dict(builder.field_term_frequencies[f"{f}/{i}"])]
                           for f in BOOSTS}
    kept.update((key, before[key]) for key in keys)
    return [kept[key] for key in keys]


def search_index(docs, lang="en"):
    """The whole lunr index of the documents (lunr.py: the same pipeline and format as lunr.js 2.3),
    each document referred to by its position; a language lunr-languages knows gets its stemming.
    The site publishes it split (search_files); this is what the split adds up to."""
    return _filled(docs, lang).build().serialize()


def shard_key(token):
    """The shard of a token (or of a typed word's prefix, reading.js's shardKey): its first
    character, digits together, any other character in "_"."""
    c = token[:1]
    return c if "a" <= c <= "z" else "0" if "0" <= c <= "9" else "_"


# The shards' keys, a fixed list so that the plan names their files before the index is built.
SHARDS = [chr(c) for c in range(ord("a"), ord("z") + 1)] + ["0", "_"]


def shard_file(key):
    return f"search/{key}.js"


def shown_file(key):
    return f"search/shown-{key}.js"


def search_paths():
    """What search_files writes, under site/, in a fixed list (the plan's and the rule's)."""
    return ["search-index.js"] + [shard_file(k) for k in SHARDS] + [shown_file(k) for k in SHARDS]


def search_files(docs, lang="en", kept=None):
    """The search as the site publishes it, {path under site/: text}, so that the first results
    load little of a large dictionary (docs/reading.md):

    - search-index.js: for each document its page, name, section, other forms, referrers and its
      fields' lengths in tokens, and the pipeline and fields of the index;
    - search/<key>.js, one per SHARDS key: the postings of the tokens that start with it, per field
      [document, or [document, term frequency] where it is above 1];
    - search/shown-<key>.js: the summaries the results show, by page, of the pages whose address
      starts with the key.

    reading.js (and load_search) compute lunr's BM25 vectors from the postings and the lengths as
    lunr's builder does, so the index they assemble is lunr.py's.  A shard holds counts, not
    weights: an edit of one term rewrites the shards of the words it changed, not all of them.
    `kept`: counts_of's."""
    counts = counts_of(docs, lang, kept)
    fields = list(BOOSTS)
    sections = sorted({d["section"] for d in docs})
    from lunr import __TARGET_JS_VERSION__  # see language_builder
    head = {"version": __TARGET_JS_VERSION__, "pipeline": _builder(lang).search_pipeline.serialize(),
            "fields": [[f, BOOSTS[f]] for f in fields], "sections": sections,
            "docs": [[d["slug"], d["name"], sections.index(d["section"]), d["form_list"], d["referrers"],
                      [counts[i][f][0] for f in fields]] for i, d in enumerate(docs)]}
    # each token's postings, per field: the documents (in order) that have it, with how often if more than once
    shards = {key: {} for key in SHARDS}
    for i, count in enumerate(counts):
        for n, field in enumerate(fields):
            for token, tf in count[field][1].items():
                postings = shards[shard_key(token)].get(token)
                if postings is None:
                    postings = shards[shard_key(token)][token] = [[] for _ in fields]
                postings[n].append(i if tf == 1 else [i, tf])
    shown = {key: {} for key in SHARDS}
    for d in docs:
        shown[shard_key(d["slug"])][d["slug"]] = d["shown"]
    files = {"search-index.js": as_script("GLOSSARY_SEARCH", head)}
    files.update({shard_file(k): as_script(f"GLOSSARY_SEARCH_{k}", v) for k, v in shards.items()})
    files.update({shown_file(k): as_script(f"GLOSSARY_SHOWN_{k}", v) for k, v in shown.items()})
    return files


def as_script(name, value):
    """`window.<name> = <JSON>;`: ASCII only, and no "</" (safe in any page, whatever the text)."""
    data = json.dumps(value, ensure_ascii=True, sort_keys=True, separators=(",", ":"))
    return f"window.{name}={data.replace('</', '<' + chr(92) + '/')};\n"


def read_script(text):
    """The value an as_script file assigns."""
    return json.loads(text[text.index("=") + 1:].rstrip().rstrip(";"))


def assembled_index(head, shards, k1=1.2, b=0.75):
    """The serialized lunr index that search_files' head and shards {key: postings} add up to:
    lunr's builder's BM25 weights (lunr.idf, its k1 and b, rounded to 3 places), its terms numbered
    in sorted order (reading.js does the same in JavaScript)."""
    fields = [f for f, _ in head["fields"]]
    boosts = dict(head["fields"])
    lengths = [d[5] for d in head["docs"]]
    count = len(lengths)
    average = [sum(row[j] for row in lengths) / count for j in range(len(fields))]
    vectors = {f"{f}/{i}": [] for i in range(count) for f in fields}
    inverted = []
    tokens = sorted(t for postings in shards.values() for t in postings)
    merged = {t: p for postings in shards.values() for t, p in postings.items()}
    for n, token in enumerate(tokens):
        per_field = [[p if isinstance(p, list) else [p, 1] for p in ps] for ps in merged[token]]
        with_term = sum(len(ps) for ps in per_field)
        x = (count - with_term + 0.5) / (with_term + 0.5)
        idf = math.log(1 + abs(x))
        posting = {"_index": n}
        for j, (field, ps) in enumerate(zip(fields, per_field)):
            posting[field] = {str(i): {} for i, _ in ps}
            for i, tf in ps:
                score = idf * ((k1 + 1) * tf) / (k1 * (1 - b + b * (lengths[i][j] / average[j])) + tf)
                vectors[f"{field}/{i}"] += [n, round(score * boosts[field], 3)]
        inverted.append([token, posting])
    return {"version": head["version"], "fields": fields, "pipeline": head["pipeline"],
            "fieldVectors": [[ref, v] for ref, v in vectors.items()], "invertedIndex": inverted}


def load_search(folder):
    """A built site's search (its folder's search-index.js and search/): (the serialized lunr index,
    [[slug, name, section, summary, other forms, referrers] per document])."""
    folder = Path(folder)
    head = read_script((folder / "search-index.js").read_text(encoding="utf-8"))
    shards = {k: read_script((folder / shard_file(k)).read_text(encoding="utf-8")) for k in SHARDS}
    shown = {}
    for k in SHARDS:
        shown.update(read_script((folder / shown_file(k)).read_text(encoding="utf-8")))
    docs = [[d[0], d[1], head["sections"][d[2]], shown[d[0]], d[3], d[4]] for d in head["docs"]]
    return assembled_index(head, shards), docs


# --- the previews of cross-references ----------------------------------------------------------------

def previews_script(catalog):
    """previews.js: for each entry, its name and first sentence as the pages show them (HTML the
    build rendered and escaped, math included) and its section's title."""
    titles = section_titles(catalog["sections"])
    data = {r["slug"]: [r.get("title_html") or html.escape(r["title"]), titles.get(r["section"], r["section"]),
                        r.get("summary_html") or html.escape(r["summary"] or "")]
            for r in catalog["entries"]}
    return as_script("GLOSSARY_PREVIEWS", data)
