"""Reading a large dictionary (issue 18, docs/reading.md): sections, the search, the previews of
cross-references and citations, on a built copy of the fixture dictionary with one hostile term
added, in Debian's Chromium from file:// and over http under a prefix."""
import gzip
import html as htmllib
import json
import os
import re
import shutil
import subprocess
import sys

import pytest
from conftest import REPO, made_once
from test_browser import chromium, serve

from glossary import batchfiles, dictionary, plan, reading
from glossary import catalog as glossary_catalog

FIXTURE = REPO / "tests" / "fixtures" / "texdict"
# A term whose name and definition hold markup and script: they must show as text, and run nothing.
HOSTILE_NAME = "<img src=x onerror=alert(1)> <script>alert(2)</script> hostile"
HOSTILE = r"""
\newglossaryentry{hostile}
{name={<img src=x onerror=alert(1)> <script>alert(2)</script> hostile},
	description={A hostile term\index{hostile} holds <img src=x onerror=alert(3)> and <script>alert(4)</script>
		in its text; the \gls{hostile} refers to a \gls{vector}.},
	type=math,
	text={hostile}
}
"""
# A term whose name holds "gradient" after its first word: "gradient" ranks it below the names that
# start with it (its plural "zero-gradient conditions" holds the word too); one whose name and forms
# hold TeX's en dash (--); and one whose name, forms and first sentence hold formulas (their text shows
# the characters, never the TeX).
CONTAINING = r"""
\newglossaryentry{zerogradient}
{name={zero-gradient condition},
	description={The zero-gradient condition asks that the \gls{gradient} of a \gls{function} vanishes.},
	type=math,
	text={zero-gradient condition}
}

\newglossaryentry{kkt}
{name={Karush--Kuhn--Tucker conditions},
	description={The Karush--Kuhn--Tucker conditions tell when a point minimises a \gls{function} under
		constraints.},
	type=math,
	first={Karush--Kuhn--Tucker (KKT) conditions},
	text={KKT conditions}
}

\newglossaryentry{kmeans}
{name={$k$-means},
	description={The $k$-means method splits a \gls{dataset} of $\samplesize$ points into
		$k \leq \sqrt{\samplesize}$ groups, each with a mean $\frac{1}{k}\sum_{i} \featurevec^{(i)}$.},
	text={$k$-means}
}
"""
# A term with the book's \caption*: one under each picture of a figure's minipages (the figure has its
# own caption too), and a table's only caption, numbered in its text by \refstepcounter and \thetable;
# the minipages as wide as the book's, one above two side by side (the real dictionary's random
# projection, data point, learning task and relational model).
CAPTIONS = r"""
\newglossaryentry{relationalmodel}
{name={relational model},
	description={A relational model stores a \gls{dataset} as a table (Table~\ref{tab:rows}), and
		Fig.~\ref{fig:views} shows one photo three ways.
		\begin{figure}[H]
			\centering
			\begin{minipage}[t]{0.95\textwidth}
				\centering
				\includegraphics[width=2cm]{assets/tiny}
				\caption*{original}
			\end{minipage}
			\begin{minipage}[t]{.45\textwidth}
				\includegraphics[width=\linewidth]{assets/tiny}
				\caption*{95 \% masked}
			\end{minipage}\hfill
			\begin{minipage}[t]{0.45\linewidth}
				\includegraphics[width=\linewidth]{assets/tiny}
				\caption*{a single \gls{datapoint}}
			\end{minipage}
			\caption{One photo, three ways.}
			\label{fig:views}
		\end{figure}
		\begin{table}[H]
			\refstepcounter{table}
			\caption*{
				\centering
				\scshape TABLE \thetable \\[0.5ex]
				\scshape Rows of a \gls{dataset}
			}
			\label{tab:rows}
			\centering
			\begin{tabular}{lc}
				\hline
				Name & Weight \\
				\hline
				Zenzi & 100 \\
				\hline
			\end{tabular}
		\end{table}},
	text={relational model}
}
"""
# A record only the List of Symbols cites.
KIEFER = """
@article{Kiefer1952,
  author = {Kiefer, J. and Wolfowitz, J.},
  title = {Stochastic Estimation of the Maximum of a Regression Function},
  journal = {The Annals of Mathematical Statistics},
  volume = {23},
  number = {3},
  pages = {462--466},
  year = {1952}
}
"""
# A List of Symbols, \input after \begin{document} as the large dictionary's is: the notation page's.
SYMBOLS = r"""% The symbols, in the manner of ListSymbols_English.tex.
\section*{List of Symbols}
\subsection*{Vectors and \Glspl{matrix}}
\begin{align}
	&\featurevec & \quad & \parbox{.85\textwidth}{The \glspl{feature} of a \gls{datapoint}, a \gls{vector}
		of length $\nrfeatures$.} \nonumber \\[2mm] \hline \nonumber\\[-5mm]
	&\mathbf{A}\,^{T} & \quad & \mbox{The transpose of a \gls{matrix} $\mathbf{A}$.} \nonumber
\end{align}
\subsection*{Training}
\begin{align}
	&\lrate & \quad & \parbox{.85\textwidth}{The \gls{learningrate} of \gls{gd} \cite{Robbins1951},
		\cite[Sec. 2]{Kiefer1952}.}
		\nonumber \\[2mm] \hline \nonumber\\[-5mm]
%	&\weights & \quad & \mbox{A row the authors left out.} \nonumber \\
	&\lossfunc{y}{\hat{y}} & \quad & \parbox{.85\textwidth}{The \gls{loss function} of a prediction
		$\hat{y}$ for the label $y$. \\ See also: \gls{loss function}.} \nonumber
\end{align}
"""


def reading_site(tmp_path_factory):
    """One build per test run (shared by the xdist workers) of the fixture (no demos) with the hostile
    term, the CONTAINING terms and a List of Symbols: its folder."""
    return made_once(tmp_path_factory, "reading", build_reading)[0] / "out"


def build_reading(root):
    source = root / "dict"
    shutil.copytree(FIXTURE, source)
    config = source / "dictionary.yaml"
    config.write_text(re.sub(r"^demos:\n(?:[ \t]+.*\n?)*", "", config.read_text(), flags=re.M))
    with (source / "TinyDict_Math.tex").open("a") as f:
        f.write(HOSTILE + CONTAINING + CAPTIONS)
    (source / "TinyDict_Symbols.tex").write_text(SYMBOLS)
    with (source / "assets" / "tiny.bib").open("a") as f:
        f.write(KIEFER)
    main = source / "TinyDict_Main.tex"
    main.write_text(main.read_text().replace("\\maketitle\n", "\\maketitle\n\\input{TinyDict_Symbols.tex}\n"))
    run = subprocess.run([sys.executable, "-m", "glossary.build", "--cores", "2", "--source", str(config),
                          "--out", str(root / "out")], cwd=REPO, capture_output=True, text=True, timeout=900,
                         env={**__import__("os").environ, "PYTHONPATH": str(REPO / "src")})
    assert run.returncode == 0, f"build failed:\n{run.stdout[-3000:]}\n{run.stderr[-3000:]}"


@pytest.fixture(scope="module")
def out(tmp_path_factory):
    return reading_site(tmp_path_factory)


@pytest.fixture(scope="module")
def site(out):
    return out / "site"


@pytest.fixture(scope="module")
def catalog(out):
    return json.loads((out / "results/catalog.json").read_text())


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


@pytest.fixture(scope="module", params=["file", "http"])
def base(request, out):
    """The site's address: from disk, or over http under a prefix (the server serves a parent)."""
    if request.param == "file":
        yield (out / "site").as_uri() + "/"
    else:
        with serve(out.parent) as root:
            yield root + "out/site/"


class Page:
    """A page in a fresh context, with its errors, dialogs and requests recorded."""

    def __init__(self, browser, url, **kw):
        self.context = browser.new_context(viewport={"width": 1280, "height": 900}, **kw)
        self.page = self.context.new_page()
        self.errors, self.dialogs, self.requests = [], [], []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        self.page.on("dialog", lambda d: (self.dialogs.append(d.message), d.dismiss()))
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.goto(url, wait_until="load")

    def loaded(self, name):
        return [u for u in self.requests if u.rsplit("/", 1)[-1] == name]

    def close(self):
        assert self.errors == [], self.errors
        assert self.dialogs == [], f"a script ran: {self.dialogs}"
        self.context.close()


@pytest.fixture()
def opened(browser):
    pages = []

    def open_(url, **kw):
        pages.append(Page(browser, url, **kw))
        return pages[-1]
    yield open_
    for p in pages:
        p.close()


# The results of what the box holds now: the list names the query it answers (a new word's shard loads
# before its results replace the last word's).
SETTLED = """() => { const l = document.getElementById('search-results');
    return l.dataset.query === document.getElementById('search-input').value; }"""


def result_names(page):
    page.wait_for_function(SETTLED)
    page.wait_for_selector("#search-results:not([hidden]) li")
    return page.eval_on_selector_all("#search-results li .result-name", "els => els.map(e => e.textContent)")


# ------------------------------------------------------------------------------------ sections

def test_index_groups_terms_by_section_with_counts_and_each_section_has_a_page(site, catalog):
    index = (site / "index.html").read_text()
    listed = re.findall(r'<li><a href="sections/([a-z0-9-]+)\.html">(.*?)</a> <span class="count">(\d+) terms?</span>',
                        index)
    expected = [(s["id"], s["title"], str(s["count"])) for s in reading.sections(catalog)]
    assert [(i, htmllib.unescape(t), c) for i, t, c in listed] == expected and len(expected) == 3
    for sec in reading.sections(catalog):
        text = (site / f"sections/{sec['id']}.html").read_text()
        slugs = re.findall(r'<dt><a href="\.\./terms/([a-z0-9-]+)\.html">', text)
        rows = [r for r in catalog["entries"] if r["section"] == sec["id"]]       # A to Z, then "#"
        assert slugs == [r["slug"] for r in sorted(rows, key=lambda r: not r["title"][0].isalpha())]
        assert len(slugs) == sec["count"] and (sec["id"] != "math" or slugs[-1] == "hostile")


def test_term_pages_name_their_section_and_step_through_it(site, catalog):
    titles = {s["id"]: s["title"] for s in catalog["sections"]}
    for sec in reading.sections(catalog):
        slugs = [r["slug"] for r in sec["entries"]]          # the index's order
        for i, slug in enumerate(slugs):
            text = (site / f"terms/{slug}.html").read_text()
            assert (f'<p class="section-of">In <a href="../sections/{sec["id"]}.html">'
                    f'{htmllib.escape(titles[sec["id"]])}</a></p>') in text
            prev = re.search(r'<a class="prev" rel="prev" href="([a-z0-9-]+)\.html">', text)
            nxt = re.search(r'<a class="next" rel="next" href="([a-z0-9-]+)\.html">', text)
            assert (prev.group(1) if prev else None) == (slugs[i - 1] if i else None)
            assert (nxt.group(1) if nxt else None) == (slugs[i + 1] if i + 1 < len(slugs) else None)


def test_the_a_to_z_bar_jumps_by_letter(site, base, opened):
    v = opened(base + "index.html")
    letters = v.page.eval_on_selector_all("nav.az a", "els => els.map(e => e.textContent)")
    assert "M" in letters and "#" in letters and "A" not in letters     # no term starts with A
    v.page.click("nav.az a:text-is('M')")
    assert v.page.evaluate("location.hash") == "#letter-m"
    top = v.page.eval_on_selector("#letter-m", "e => e.getBoundingClientRect().top")
    assert 0 <= top < 50
    first = v.page.eval_on_selector("#letter-m + dl dt", "e => e.textContent")
    assert first == "matrix"


# -------------------------------------------------------------------------------------- search

def test_a_word_finds_its_term_first_and_the_index_loads_on_first_use(base, opened):
    v = opened(base + "terms/vector.html")
    assert v.page.is_visible("#search-input")
    assert not v.loaded("search-index.js") and not v.loaded("lunr.js")
    v.page.fill("#search-input", "gradient")
    assert result_names(v.page)[0] == "gradient"
    assert len(v.loaded("search-index.js")) == 1
    assert [f for f in shards_loaded(v) if not f.startswith("shown-")] == ["g.js"]     # the word's shard only
    v.page.fill("#search-input", "matri")            # the start of a word
    assert result_names(v.page)[0] == "matrix"
    v.page.fill("#search-input", "diagonal")         # a word of a definition only: from its shard
    assert "matrix" in result_names(v.page)
    assert "d.js" in shards_loaded(v) and len(shards_loaded(v)) < len(reading.search_paths()) - 1


def shards_loaded(v):
    """The files of search/ the page loaded, in the order it asked for them."""
    return [u.rsplit("/", 1)[-1] for u in v.requests if u.rsplit("/", 2)[-2] == "search"]


def test_a_short_form_finds_its_term(base, opened):
    v = opened(base + "index.html")
    v.page.fill("#search-input", "GD")
    assert result_names(v.page)[0] == "gradient descent (GD)"
    v.page.fill("#search-input", "loss")             # text= of "loss function"
    assert result_names(v.page)[0] == "loss function"


def test_search_by_keyboard_alone(base, opened):
    v = opened(base + "sections/math.html")
    v.page.keyboard.press("/")
    assert v.page.evaluate("document.activeElement.id") == "search-input"
    v.page.keyboard.type("vector")
    result_names(v.page)
    v.page.keyboard.press("ArrowDown")
    v.page.keyboard.press("ArrowDown")
    v.page.keyboard.press("ArrowUp")
    selected = v.page.eval_on_selector("#search-results [aria-selected=true] .result-name", "e => e.textContent")
    assert selected == "vector"
    assert v.page.get_attribute("#search-input", "aria-activedescendant") == "search-result-0"
    with v.page.expect_navigation():
        v.page.keyboard.press("Enter")
    assert v.page.url == base + "terms/vector.html"


def test_tab_reaches_the_search_from_the_top_of_the_page(base, opened):
    v = opened(base + "terms/gd.html")
    seen = []
    for _ in range(8):
        v.page.keyboard.press("Tab")
        seen.append(v.page.evaluate("document.activeElement.id || document.activeElement.textContent"))
        if seen[-1] == "search-input":
            break
    else:
        pytest.fail(f"Tab went {seen} and never reached the search")
    v.page.keyboard.type("matrix")
    v.page.keyboard.press("Enter")              # the first result, without arrowing to it
    v.page.wait_for_url("**/terms/matrix.html")


def test_first_results_within_100_ms_of_the_keystroke(base, opened):
    """Each word's shard is fetched on its keystroke; the best of three words, so that a moment the loaded
    test machine takes the tab off the CPU is not taken for the search's time (10-50 ms when quiet)."""
    v = opened(base + "index.html")
    v.page.fill("#search-input", "model")              # loads the index
    v.page.wait_for_selector("#search-results:not([hidden])")
    times = {}
    for word, first in (("overfit", "overfitting"), ("vector", "vector"), ("feature", "feature")):
        times[word] = v.page.evaluate("""([word, first]) => new Promise(done => {
            const input = document.getElementById('search-input'), list = document.getElementById('search-results');
            const t0 = performance.now();
            setTimeout(() => done(null), 5000);
            new MutationObserver((m, o) => { if (list.querySelector('li .result-name')?.textContent === first) {
                o.disconnect(); done(performance.now() - t0); } }).observe(list, {childList: true, subtree: true});
            input.value = word; input.dispatchEvent(new Event('input')); })""", [word, first])
    assert None not in times.values(), f"a word's first result never came: {times}"
    assert min(times.values()) < 100, f"ms to the first results: {times}"


def test_formulas_are_not_indexed_as_markup(site):
    index, _ = reading.load_search(site)
    tokens = " ".join(t for t, _ in index["invertedIndex"])
    assert "mathml" not in tokens and "math" not in tokens.split() and "mathbf" not in tokens
    text = "".join((site / p).read_text() for p in reading.search_paths())
    assert "mathml" not in text.lower() and "<math" not in text


# ------------------------------------------------------------------------------------ previews

def test_a_cross_reference_previews_on_hover_and_focus_and_esc_closes(base, opened):
    v = opened(base + "terms/vector.html")
    assert not v.loaded("previews.js")
    link = v.page.locator(".prose a.xref[href='datapoint.html']").first
    link.hover()
    tip = v.page.locator("#preview")
    tip.wait_for(state="visible")
    assert tip.locator(".preview-name").text_content() == "data point"
    assert tip.locator(".preview-section").text_content() == "Machine Learning Concepts"
    assert tip.locator(".preview-summary").text_content().startswith("A data point is one observation")
    assert tip.locator(".preview-summary math").count() >= 1          # math included, as MathML
    assert tip.locator("a, img, script").count() == 0
    assert link.get_attribute("aria-describedby") == "preview"
    # The pointer moves onto the preview: it stays open (WCAG 1.4.13); away from both, it closes.
    box = tip.bounding_box()
    v.page.mouse.move(box["x"] + 10, box["y"] + 10, steps=4)
    v.page.wait_for_timeout(500)
    assert tip.is_visible()
    v.page.mouse.move(5, 880)
    tip.wait_for(state="hidden")
    # By keyboard: focus opens it, Esc closes it, the focus stays on the link.
    v.page.locator(".prose a.xref[href='feature.html']").first.focus()
    tip.wait_for(state="visible")
    assert tip.locator(".preview-name").text_content() == "feature"
    v.page.keyboard.press("Escape")
    tip.wait_for(state="hidden")
    assert v.page.evaluate("document.activeElement.getAttribute('href')") == "feature.html"


def test_a_citation_previews_its_reference(base, opened):
    v = opened(base + "terms/vector.html")
    v.page.locator("a.citation").first.focus()
    tip = v.page.locator("#preview")
    tip.wait_for(state="visible")
    assert "Strang" in tip.text_content()
    assert tip.locator("[id]").count() == 0


def test_previews_reached_by_tab_alone(base, opened):
    v = opened(base + "terms/gradient.html")
    for _ in range(80):
        v.page.keyboard.press("Tab")
        if v.page.evaluate("document.activeElement.classList.contains('xref')"):
            break
    else:
        pytest.fail("Tab never reached a cross-reference")
    v.page.locator("#preview").wait_for(state="visible")


def test_without_javascript_links_stay_plain_links(base, opened):
    v = opened(base + "terms/vector.html", java_script_enabled=False)
    assert not v.page.is_visible("#search")
    v.page.locator(".prose a.xref").first.hover()
    assert v.page.locator("#preview").count() == 0
    assert v.page.get_attribute(".prose a.xref", "href").endswith(".html")


# ---------------------------------------------------------------------------- hostile text

def test_hostile_text_shows_as_text_in_the_page_the_results_and_the_preview(base, opened):
    v = opened(base + "terms/hostile.html")
    assert v.page.locator("main img[src=x], main script").count() == 0
    assert HOSTILE_NAME in v.page.text_content("h1")
    v.page.fill("#search-input", "hostile")
    assert result_names(v.page)[0] == HOSTILE_NAME
    assert v.page.locator("#search-results img, #search-results script").count() == 0
    v.page.locator(".prose a.xref[href='hostile.html']").first.hover()
    tip = v.page.locator("#preview")
    tip.wait_for(state="visible")
    assert tip.locator(".preview-name").text_content() == HOSTILE_NAME
    assert "<img src=x onerror=alert(3)>" in tip.locator(".preview-summary").text_content()
    assert tip.locator("img, script").count() == 0
    v.page.wait_for_timeout(300)
    # Page.close asserts that no dialog opened and no error was raised.


def test_published_scripts_make_no_eval_and_build_no_html_from_strings():
    source = (REPO / "templates/reading.js").read_text()
    for bad in ("eval(", "new Function", "innerHTML", "outerHTML", "insertAdjacentHTML", "document.write"):
        assert bad not in source, bad
    lunr = (REPO / "templates/vendor" / reading.LUNR_JS).read_text()
    assert "eval(" not in lunr and "innerHTML" not in lunr


# ------------------------------------------------------------------------- weights, determinism

def test_script_weight_and_search_transfer(site):
    gz = {name: len(gzip.compress((site / name).read_bytes(), 9)) for name in
          ["reading.js", "lunr.js", "previews.js"] + reading.search_paths()}
    assert gz["reading.js"] <= 30_000, gz
    assert gz["lunr.js"] + gz["search-index.js"] <= 300_000, gz


def test_the_first_results_load_the_head_and_the_shards_of_the_query_only(base, opened, site):
    """What a query transfers before its first results: reading.js, lunr.js, the head, the shards of
    its words and the summaries of its results; within a budget of the head and the largest shards,
    and below the whole index's weight."""
    gz = {name: len(gzip.compress((site / name).read_bytes(), 9)) for name in
          ["reading.js", "lunr.js"] + reading.search_paths()}
    largest = sorted((gz[reading.shard_file(k)] for k in reading.SHARDS), reverse=True)
    largest_shown = sorted((gz[reading.shown_file(k)] for k in reading.SHARDS), reverse=True)
    whole = sum(gz[p] for p in reading.search_paths())
    for query, words in (("gradient", 1), ("loss func", 2)):
        v = opened(base + "index.html")
        v.page.fill("#search-input", query)
        result_names(v.page)
        fetched = [u.split(base, 1)[-1] for u in v.requests if u.endswith(".js") and u.startswith(base)]
        transfer = sum(gz[f] for f in fetched if f in gz)
        assert {"reading.js", "lunr.js", "search-index.js"} <= set(fetched), fetched
        assert [f for f in fetched if f.startswith("search/") and "shown" not in f] == \
            sorted({reading.shard_file(reading.shard_key(w)) for w in query.split()}), fetched
        budget = gz["reading.js"] + gz["lunr.js"] + gz["search-index.js"] + sum(largest[:words]) + \
            sum(largest_shown[:10])
        assert transfer <= budget and transfer < gz["reading.js"] + gz["lunr.js"] + whole, (transfer, budget, fetched)


def test_the_shards_add_up_to_lunrs_whole_index(catalog, out):
    """reading.assembled_index of the published head and shards is lunr.py's index of the same
    documents: the same tokens, postings and weights (term numbers aside)."""
    prose = {slug: done["html"] for slug, done in batchfiles.read_build(out).items()}
    docs = reading.search_documents(catalog, prose, json.loads((out / "results/forms.json").read_text()))
    files = reading.search_files(docs)
    assert files == {p: (out / "site" / p).read_text() for p in reading.search_paths()}
    head = reading.read_script(files["search-index.js"])
    shards = {k: reading.read_script(files[reading.shard_file(k)]) for k in reading.SHARDS}

    def by_token(index):
        token = {p["_index"]: t for t, p in index["invertedIndex"]}
        postings = {t: {f: v for f, v in p.items() if f != "_index"} for t, p in index["invertedIndex"]}
        vectors = {ref: {token[v[i]]: v[i + 1] for i in range(0, len(v), 2)} for ref, v in index["fieldVectors"]}
        return postings, vectors, index["fields"], index["pipeline"]
    whole = by_token(reading.search_index(docs))
    assert by_token(reading.assembled_index(head, shards)) == whole
    assert len(whole[0]) > 100 and sum(len(v) for v in whole[1].values()) > 500
    assert all(t.startswith(k) or k in "0_" for k, postings in shards.items() for t in postings)


def test_the_english_index_is_built_without_nltk_and_the_german_one_with_its_stemmer():
    """lunr's package imports nltk only to learn what it may offer; the English index does without it
    (reading.default_builder), and a German index built after it in the same process still stems."""
    code = ("import sys; from glossary import reading\n"
            "docs = [{'name': 'Learning rates', 'forms': '', 'summary': 'rates', 'body': 'learning'}]\n"
            "en = reading.search_index(docs)\n"
            "print('nltk' in sys.modules)\n"
            "de = reading.search_index([dict(docs[0], body='Lernraten lernen')], 'de')\n"
            "tokens = sorted(t for t, _ in de['invertedIndex'])\n"
            "print('nltk' in sys.modules, tokens, en['pipeline'], de['pipeline'])\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env=dict(os.environ, PYTHONPATH=str(REPO / "src")))
    before, after = run.stdout.splitlines()
    assert before == "False", run.stdout
    assert after.startswith("True") and "'lern'" in after and "stemmer-de" in after, run.stdout


def test_the_search_job_makes_the_catalog_that_rule_catalog_wrote(catalog, out):
    """The search job makes the catalog for itself from the prose (catalog.from_prose), so that it runs
    beside rule catalog rather than after it: it is the catalog that rule wrote, and the rule reads no
    file of the catalog's."""
    made = glossary_catalog.from_prose(batchfiles.read_build(out), json.loads((out / plan.CATALOG_PLAN).read_text()),
                                       json.loads((out / dictionary.NAMES).read_text()))[0]
    assert made == catalog and len(made["entries"]) > 10
    rule = re.search(r"(?s)^rule search_index:.*?\n\n\n", (REPO / "workflow/rules/reading.smk").read_text(), re.M)
    assert "after_catalog" not in rule.group(0) and "plan.CATALOG," not in rule.group(0)


def test_the_search_job_parses_only_the_prose_it_has_not_kept(catalog, out, monkeypatch):
    """The build's search job left each entry's prose and summary as text by its HTML (reading.keep_texts);
    with them, an edited entry's prose alone is parsed again, the documents are those made from nothing,
    and the texts kept are the present prose's and summaries' only."""
    prose = {slug: done["html"] for slug, done in batchfiles.read_build(out).items()}
    summaries = {row.get("summary_html") or htmllib.escape(row["summary"] or "") for row in catalog["entries"]}
    kept = reading.texts_kept(out / "results/cache/search-text.json")
    assert len(kept) == len(set(prose.values()) | summaries) > 10
    edited = dict(prose, feature=prose["feature"].replace("</p>", " gathered anew</p>", 1))
    fresh = reading.search_documents(catalog, edited, {})
    parsed = []
    text_of = reading.text_of
    monkeypatch.setattr(reading, "text_of", lambda h: parsed.append(h) or text_of(h))
    texts = dict(kept)
    assert reading.search_documents(catalog, edited, {}, texts) == fresh
    assert parsed == [edited["feature"]]
    assert len(texts) == len(set(edited.values()) | summaries) and "gathered anew" in " ".join(texts.values())


def test_the_search_job_counts_only_the_documents_it_has_not_kept(catalog, out, monkeypatch):
    """The build's search job left each document's terms as lunr counts them (reading.keep_counts); with
    them, an edited document alone goes through lunr's pipeline, the files are those made from nothing,
    and what is kept is the present documents' only."""
    prose = {slug: done["html"] for slug, done in batchfiles.read_build(out).items()}
    forms = json.loads((out / "results/forms.json").read_text())
    kept = reading.counts_kept(out / "results/cache/search-counts.json", "en")
    docs = reading.search_documents(catalog, prose, forms)
    assert len(kept) == len(docs) > 10
    assert reading.search_files(docs, "en", dict(kept)) == {p: (out / "site" / p).read_text()
                                                          for p in reading.search_paths()}
    edited = reading.search_documents(catalog, dict(prose, feature=prose["feature"].replace(
        "</p>", " gathered anew</p>", 1)), forms)
    counted = []
    filled = reading._filled
    monkeypatch.setattr(reading, "_filled", lambda docs, lang: counted.extend(docs) or filled(docs, lang))
    counts = dict(kept)
    files = reading.search_files(edited, "en", counts)
    assert [d["slug"] for d in counted] == ["feature"]
    monkeypatch.setattr(reading, "_filled", filled)
    assert files == reading.search_files(edited)
    assert len(counts) == len(edited) and set(counts) != set(kept)
    assert reading.counts_kept(out / "results/cache/search-counts.json", "de") == {}     # another language's


def test_index_and_previews_are_pure_functions(catalog, site):
    prose = {r["slug"]: "<p>A <math><mi>x</mi></math> word.</p>" for r in catalog["entries"]}
    docs = reading.search_documents(catalog, prose, {})
    assert reading.search_files(docs) == reading.search_files(reading.search_documents(catalog, prose, {}))
    assert all(d["body"] == "A word." for d in docs)
    assert reading.previews_script(catalog) == (site / "previews.js").read_text()
    assert "</" not in (site / "previews.js").read_text()
    assert all("</" not in (site / p).read_text() for p in reading.search_paths())


def test_result_summaries_show_a_formulas_characters_not_its_tex(site, catalog):
    summary = ('A <math display="inline"><semantics><mi>𝒙</mi><mo>+</mo><mn>1</mn>'
               '<annotation encoding="application/x-tex">\\mathbf{x}+1</annotation></semantics></math> '
               '&lt;b&gt; sum.')
    assert reading.text_of(summary) == "A <b> sum."          # what the index reads: no formula
    shown = {d[0]: d[3] for d in reading.load_search(site)[1]}  # what a result shows: the summary as text
    assert shown["function"].endswith("written f: 𝒳 → 𝒴.") and shown["function"] == \
        {r["slug"]: r["summary"] for r in catalog["entries"]}["function"]
    assert reading.shortened("word " * 50) == ("word " * 32).strip() + "\u2026"
    assert len(reading.shortened("word " * 50)) <= 161 and reading.shortened("short") == "short"


def test_letters_and_section_neighbours():
    assert [reading.letter(t) for t in ("matrix", "$k$-means", "Éclair", "<b>", "1-norm")] == ["M", "K", "E", "#", "#"]
    rows = [{"slug": s, "section": sec} for s, sec in (("a", "x"), ("b", "y"), ("c", "x"), ("d", "x"))]
    assert reading.section_neighbours(rows, "c") == (rows[0], rows[3])
    assert reading.section_neighbours(rows, "b") == (None, None)
    assert reading.section_neighbours([{"slug": "a"}, {"slug": "b"}], "a") == (None, {"slug": "b"})


# --------------------------------------------------------------- finding and sharing (issue 22)

def test_a_name_that_starts_with_the_words_ranks_above_one_that_holds_them(base, opened):
    v = opened(base + "index.html")
    v.page.fill("#search-input", "gradient")
    names = result_names(v.page)
    assert names[0] == "gradient"                       # the name typed whole first
    assert names.index("gradient descent (GD)") < names.index("zero-gradient condition"), names
    v.page.fill("#search-input", "gradient descent")   # a name without its short form, typed whole
    assert result_names(v.page)[0] == "gradient descent (GD)"


def test_every_term_found_is_counted_and_ten_are_listed(base, opened):
    v = opened(base + "index.html")
    v.page.fill("#search-input", "s")                   # the start of many words
    names = result_names(v.page)
    status = v.page.text_content("#search-status")
    count = int(status.split()[0])
    assert len(names) == 10 < count and status == f"{count} terms found, 10 shown", status
    v.page.fill("#search-input", "gradient descent")
    names = result_names(v.page)
    status = v.page.text_content("#search-status")
    assert status == f"{len(names)} terms found", status


def test_a_page_address_finds_its_term(base, opened):
    v = opened(base + "index.html")
    v.page.fill("#search-input", "learningrate")       # terms/learningrate.html, "learning rate"
    assert result_names(v.page)[0] == "learning rate"


def test_results_are_links_that_open_in_a_new_tab(base, opened):
    v = opened(base + "terms/vector.html")
    v.page.fill("#search-input", "matrix")
    result_names(v.page)
    links = v.page.eval_on_selector_all("#search-results [role=option]",
                                        "els => els.map(e => [e.tagName, e.href, e.id])")
    assert links and all(tag == "A" for tag, _, _ in links)
    assert links[0][1] == base + "terms/matrix.html" and links[0][2] == "search-result-0"
    with v.context.expect_page() as tab:              # Ctrl+click: the browser's own new tab
        v.page.click("#search-result-0", modifiers=["Control"])
    # a new tab opens on about:blank and then goes to the link (the headless shell reports both loads)
    tab.value.wait_for_url(base + "terms/matrix.html")
    assert v.page.url == base + "terms/vector.html"
    v.page.keyboard.press("ArrowDown")                  # the keyboard, as before: arrows, then Enter
    assert v.page.get_attribute("#search-input", "aria-activedescendant") == "search-result-0"
    with v.page.expect_navigation():
        v.page.keyboard.press("Enter")
    assert v.page.url == base + "terms/matrix.html"


TEX = re.compile(r"\\[A-Za-z]+|\$[^$\s][^$]*\$|[_^]\{|(?<=\w)--(?=\w)|``")


def texts_of_page(text):
    """What a page says as text, not markup: <title>, descriptions (meta name/property) and alt texts."""
    found = re.findall(r"<title>(.*?)</title>", text, re.S)
    found += re.findall(r'<meta (?:name|property)="[^"]*description"[^>]*content="([^"]*)"', text)
    found += re.findall(r'<img\b[^>]*\balt="([^"]*)"', text)
    return [htmllib.unescape(t) for t in found]


def strings(value, skip=("bibtex",)):
    if isinstance(value, dict):
        return [s for k, v in value.items() if k not in skip for s in strings(v, skip)]
    if isinstance(value, list):
        return [s for v in value for s in strings(v, skip)]
    return [value] if isinstance(value, str) else []


def test_no_tex_in_titles_descriptions_alt_texts_terms_json_or_llms_txt(site):
    pages = sorted(site.rglob("*.html"))
    found = {str(p.relative_to(site)): t for p in pages for t in texts_of_page(p.read_text()) if TEX.search(t)}
    terms = json.loads((site / "terms.json").read_text())
    found.update({f"terms.json: {t}": t for t in strings(terms) if TEX.search(t)})    # its BibTeX is TeX
    found.update({f"llms.txt: {line}": line for line in (site / "llms.txt").read_text().splitlines()
                  if TEX.search(line)})
    assert found == {}
    description = texts_of_page((site / "terms/function.html").read_text())[1]
    assert description.endswith("written f: 𝒳 → 𝒴.")            # the formula's characters
    kmeans = next(t for t in terms["terms"] if t["slug"] == "kmeans")
    assert kmeans["name"] == "k-means" and kmeans["forms"]["text"] == "k-means" and "√" in kmeans["abstract"]
    kkt = next(t for t in terms["terms"] if t["slug"] == "kkt")
    assert kkt["name"] == "Karush\u2013Kuhn\u2013Tucker conditions", kkt["name"]
    assert kkt["forms"]["first"] == "Karush\u2013Kuhn\u2013Tucker (KKT) conditions", kkt["forms"]
    assert "Karush\u2013Kuhn\u2013Tucker conditions</h1>" in (site / "terms/kkt.html").read_text()
    # its BibTeX record writes the dash as BibTeX does, which the PDF's typewriter font can show
    assert "title = {{Karush--Kuhn--Tucker conditions}}" in " ".join(kkt["bibtex"].split())
    assert len(pages) > 20


def test_the_notation_page_shows_the_list_of_symbols_as_mathml(site):
    text = (site / "notation.html").read_text()
    rows = [line for line in SYMBOLS.splitlines() if re.match(r"\s*&", line)]
    symbols = re.findall(r"<dt>(.*?)</dt>\s*<dd>(.*?)</dd>", text, re.S)
    assert len(symbols) == len(rows) == 4
    assert all(s.startswith("<math") and "</math>" in s for s, _ in symbols)
    assert all('displaystyle="true"' in s.split(">", 1)[0] for s, _ in symbols)    # as the list's align sets them
    assert [htmllib.unescape(re.sub(r"<[^>]+>", "", h)) for h in re.findall(r"<h2[^>]*>(.*?)</h2>", text)] == \
        ["Vectors and Matrices", "Training", "References"]
    assert 'href="terms/learningrate.html"' in symbols[2][1] and "<math" in symbols[3][1]
    assert 'href="terms/loss-function.html"' in symbols[3][1]
    # its citations as the terms' are, numbered in the page's order, one of them of a record no term cites
    cited = re.findall(r'<a href="#ref-(\d+)" class="citation">(.*?)</a>', symbols[2][1])
    assert cited == [("1", "[1]"), ("2", "[2,\u00a0Sec.\u00a02]")] and "\\cite" not in text
    listed = re.findall(r'<p id="ref-(\d+)"><span class="reference-label">\[\d+\]</span> ([^<]*)', text)
    assert [(n, "Robbins" in r, "Kiefer" in r) for n, r in listed] == [("1", True, False), ("2", False, True)]


def test_the_abbreviations_page_lists_the_terms_with_short_forms(site, out, catalog):
    from glossary import notation
    text = (site / "abbreviations.html").read_text()
    listed = re.findall(r'<dt id="abbr-([a-z0-9-]+)"><abbr[^>]*>(.*?)</abbr></dt>\s*<dd><a href="terms/([a-z0-9-]+)'
                        r'\.html">(.*?)</a></dd>', text)
    forms = json.loads((out / "results/forms.json").read_text())
    expected = [(r["slug"], r["short"], r["slug"], r["long"]) for r in notation.abbreviations(catalog, forms)]
    assert [(a, htmllib.unescape(b), c, htmllib.unescape(d)) for a, b, c, d in listed] == expected
    assert ("gd", "GD", "gd", "gradient descent") in expected and "matrix" not in {e[0] for e in expected}


def test_notation_and_abbreviations_are_linked_from_every_page_and_in_the_sitemap(site, out):
    for page in sorted(site.rglob("*.html")):
        nav = re.search(r'<nav aria-label="Site">(.*?)</nav>', page.read_text()).group(1)
        for name in ("notation.html", "abbreviations.html"):
            href = re.search(rf'href="([./]*{name})"', nav)
            assert href, f"{page.relative_to(site)} does not link to {name}"
            assert (page.parent / href.group(1)).resolve() == (site / name).resolve()
    sitemap = (site / "sitemap.xml").read_text()
    assert "<loc>notation.html</loc>" in sitemap or "notation.html</loc>" in sitemap
    assert "abbreviations.html</loc>" in sitemap
    assert " 0 dead" in (out / "results/links/report.txt").read_text().splitlines()[0]


def pdf_lines(path):
    run = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True)
    return [" ".join(line.split()) for line in run.stdout.splitlines() if line.strip()]


def test_a_caption_star_shows_under_its_picture_and_a_tables_own_is_unnumbered(site, out):
    """\\caption* as the book sets it (CAPTIONS): under each picture of a figure's minipages, and as the
    table's only caption, with no "Table 1:" before the book's own "TABLE 1"; in the page, the term's PDF
    and the book, where the minipages keep their widths.  The table's caption leaves the paragraphs after
    it as they were (\\captionof outside a group set \\parskip to zero for the rest of the book's section:
    the book tells, and sets back, what an entry leaves set)."""
    page = (site / "terms/relationalmodel.html").read_text(encoding="utf-8")
    figure = page[page.index('<figure id="fig:views"'):page.index("</figure>")]
    rows = re.findall(r'<div class="minipage[^"]*" style="--share: [\d.]+">\s*<p><a class="picture" [^>]*>'
                      r'<img [^>]*alt="([^"]*)" /></a>\s*</p>\s*<div class="subcaption">\s*(.*?)\s*</div>\s*</div>',
                      figure, flags=re.S)
    shown = [(alt, re.sub(r"<[^>]+>", "", text)) for alt, text in rows]
    assert shown == [("original", "original"), ("95 % masked", "95 % masked"),
                     ("a single data point", "a single data point")]
    assert figure.count("figure-label") == 1 and "One photo, three ways." in figure
    table = page[page.index('<div id="tab:rows">'):]
    assert re.search(r"<caption>\s*<span class=\"smallcaps\">TABLE 1<br />", table)
    for pdf in (site / "terms/relationalmodel.pdf", site / "dictionary.pdf"):
        lines = pdf_lines(pdf)
        text = " ".join(lines)
        # the 0.95 minipage above the two of 0.45, side by side, as the book's widths set them
        assert "original" in lines and "95 % masked a single data point" in lines, pdf
        assert "TABLE 1 Rows of a dataset" in text and "Table 1: TABLE" not in text, pdf
        assert "Fig. 1. One photo, three ways." in text or pdf.name == "dictionary.pdf", pdf
    book_log = (out / "logs/book/dictionary.tex.log").read_text(encoding="latin-1")
    assert "left \\parskip" not in " ".join(book_log.split()), re.findall(r"entry \S+ left.*", book_log)


def test_a_figures_minipages_take_their_printed_share_where_the_column_is_wide(site, browser):
    """At 1280 px the 0.95 minipage stands above the two of 0.45, side by side, each its share of the
    column; at 390 px a minipage is as wide as what it holds (pictures stack when they do not fit)."""
    found = {}
    for width in (1280, 390):
        context = browser.new_context(viewport={"width": width, "height": 900})
        page = context.new_page()
        page.goto((site / "terms/relationalmodel.html").as_uri(), wait_until="load")
        found[width] = page.eval_on_selector_all("#fig\\:views .minipage", """els => els.map(e => [
            Math.round(e.getBoundingClientRect().y),
            e.getBoundingClientRect().width / e.parentElement.getBoundingClientRect().width])""")
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        context.close()
    (top1, share1), (top2, share2), (top3, share3) = found[1280]
    assert top1 < top2 == top3 and 0.9 < share1 < 0.95 and 0.4 < share2 == share3 < 0.45, found
    assert found[390][0][1] < 0.9, found
