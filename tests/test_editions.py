"""Language editions (issue 19, glossary.editions): the fixture dictionary with its German edition
(tests/fixtures/texdict/editions.yaml, de/), built once; hreflang, the switcher, a missing
translation, the edition's words, its search with German stemming, its book in babel's German, and
the mistakes of a translation."""
import os
import posixpath
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest
from conftest import REPO, made_once
from test_browser import chromium

from glossary import batchfiles

FIXTURE = REPO / "tests" / "fixtures" / "texdict"
ALTERNATE = re.compile(r'<link rel="alternate" hreflang="([a-z-]+)" href="([^"]+)">')


def build(source, out):
    return subprocess.run([sys.executable, "-m", "glossary.build", "--cores", "2", "--source", str(source),
                           "--out", str(out)], cwd=REPO, capture_output=True, text=True, timeout=900,
                          env={**os.environ, "PYTHONPATH": str(REPO / "src")})


def editions_built(tmp_path_factory):
    """One build per test run (shared by the xdist workers and by test_mcp) of the fixture with its
    editions: (its source folder, its output folder)."""
    root = made_once(tmp_path_factory, "editions", build_editions)[0]
    return root / "dict", root / "out"


def build_editions(root):
    shutil.copytree(FIXTURE, root / "dict")
    run = build(root / "dict" / "editions.yaml", root / "out")
    assert run.returncode == 0, f"build failed:\n{run.stdout[-3000:]}\n{run.stderr[-3000:]}"


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    return editions_built(tmp_path_factory)


@pytest.fixture(scope="module")
def site(built):
    return built[1] / "site"


def pages(site):
    return sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html"))


def alternates(site, page):
    """{hreflang: whole-site path} of a page's <link rel="alternate" hreflang>."""
    text = (site / page).read_text(encoding="utf-8")
    return {lang: posixpath.normpath(posixpath.join(posixpath.dirname(page), href))
            for lang, href in ALTERNATE.findall(text)}


def test_each_edition_has_its_own_pages_feeds_and_book(site):
    for prefix in ("", "de/"):
        for name in ("index.html", "terms.json", "llms.txt", "sitemap.xml", "dictionary.pdf", "search-index.js"):
            assert (site / prefix / name).is_file(), prefix + name
    assert (site / "de/terms/vector.html").is_file() and (site / "terms/vector.html").is_file()
    assert not (site / "de/terms/gd.html").exists()            # not translated: not invented
    assert "Ein kleines Wörterbuch" in (site / "de/llms.txt").read_text()
    assert '"Vektor"' in (site / "de/terms.json").read_text() or "Vektor" in (site / "de/terms.json").read_text()
    assert "<html lang=\"de\">" in (site / "de/terms/vector.html").read_text()
    assert "<html lang=\"en\">" in (site / "terms/vector.html").read_text()


def test_hreflang_is_reciprocal_and_points_only_to_pages_that_exist(site):
    checked = 0
    for page in pages(site):
        alts = alternates(site, page)
        if not alts:
            continue
        own = page[:2] if page[2:3] == "/" else "en"
        assert alts[own] == page, (page, alts)
        for lang, target in alts.items():
            assert (site / target).is_file(), f"{page}: hreflang {lang} -> {target} is no page"
            back = alternates(site, target)
            if lang != "x-default":
                assert back.get(own) == page, f"{target} does not point back to {page} ({back})"
                checked += 1
        english = page[3:] if own != "en" else page
        if (site / english).is_file():
            assert alts["x-default"] == english
    assert checked > 20
    # a term that only one edition has names no other
    assert set(alternates(site, "terms/gd.html")) == {"en", "x-default"}
    assert set(alternates(site, "de/terms/hyperparameter.html")) == {"de"}


def test_the_sitemaps_carry_the_same_alternates(site):
    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9", "x": "http://www.w3.org/1999/xhtml"}
    root = ET.parse(site / "de/sitemap.xml").getroot()
    base = "https://example.org/tiny-dictionary/"
    rows = {u.find("s:loc", ns).text: {a.get("hreflang"): a.get("href") for a in u.findall("x:link", ns)}
            for u in root.findall("s:url", ns)}
    assert rows[base + "de/terms/vector.html"] == {
        "en": base + "terms/vector.html", "de": base + "de/terms/vector.html", "el": base + "el/terms/vector.html",
        "x-default": base + "terms/vector.html"}
    for loc, alts in rows.items():
        page = loc[len(base):]
        assert {lang: base + path for lang, path in alternates(site, page).items()} == alts, loc


def test_the_switcher_lands_on_the_same_term_or_on_the_notice(site):
    with chromium() as browser:
        page = browser.new_page()
        page.goto((site / "de/terms/vector.html").as_uri())
        page.click("nav.languages a[hreflang=en]")
        assert page.url.endswith("/site/terms/vector.html")
        page.click("nav.languages a[hreflang=de]")
        assert page.url.endswith("/site/de/terms/vector.html")
        page.goto((site / "terms/gd.html").as_uri())          # no German gradient descent
        page.click("nav.languages a[hreflang=de]")
        assert page.url.endswith("/site/de/index.html#missing-gd")
        notice = page.eval_on_selector("#missing-gd", "e => e.textContent")
        assert "gradient descent" in notice and "English" in notice
        page.click("#missing-gd a")
        assert page.url.endswith("/site/terms/gd.html")


def test_a_key_only_english_has_links_to_the_english_term_with_a_marker(site):
    text = (site / "de/terms/datapoint.html").read_text(encoding="utf-8")
    assert re.search(r'<a href="\.\./\.\./terms/gd\.html" class="xref-other" hreflang="en">gradient descent \(GD\)'
                     r'</a><sup>EN</sup>', text), text
    index = (site / "de/index.html").read_text(encoding="utf-8")
    assert '<li id="missing-gd"><a href="../terms/gd.html" hreflang="en" lang="en">gradient descent (GD)</a>' in index
    # and the English index lists the term only German has
    assert '<li id="missing-hyperparameter"><a href="de/terms/hyperparameter.html"' in \
        (site / "index.html").read_text(encoding="utf-8")


def test_the_words_of_the_pages_are_the_editions(site):
    de = (site / "de/terms/vector.html").read_text(encoding="utf-8")
    for word in ("Zum Inhalt springen", "Alle Begriffe", "Abschnitte", "Diesen Eintrag zitieren",
                 'placeholder="Begriffe durchsuchen (Taste /)"', "Mathematische Werkzeuge", 'data-stemmer="de"'):
        assert word in de, word
    en = (site / "terms/vector.html").read_text(encoding="utf-8")
    for word in ("Skip to the content", "All terms", "Cite this entry", "Mathematical Tools",
                 '<h2>References</h2>'):
        assert word in en, word
    assert '<h2>Literatur</h2>' in de        # the prose's own words too
    assert "\\glossarypart{Literatur}" in batchfiles.read_build(site.parent / "editions/de")["vector"]["latex"]
    assert "data-stemmer" not in en
    el = (site / "el/terms/vector.html").read_text(encoding="utf-8")
    for word in ('<html lang="el">', "Όλοι οι όροι", "Μαθηματικά εργαλεία"):
        assert word in el, word
    assert "data-stemmer" not in el        # lunr.py (nltk) has no Greek stemmer: lunr's default pipeline


def test_each_editions_search_finds_its_own_words_with_its_stemming(site):
    assert '"pipeline":["stemmer-de"]' in (site / "de/search-index.js").read_text()
    assert '"pipeline":["stemmer"]' in (site / "search-index.js").read_text()
    with chromium() as browser:
        page = browser.new_page()
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto((site / "de/terms/matrix.html").as_uri())
        # a dative plural no page holds: German stemming finds "Merkmal" (lunr's English one keeps "merkmalen")
        page.fill("#search-input", "Merkmalen")
        page.wait_for_selector("#search-results:not([hidden]) li")
        names = page.eval_on_selector_all("#search-results li .result-name", "els => els.map(e => e.textContent)")
        assert names[0] == "Merkmal", names
        assert "Begriff" in page.text_content("#search-status")
        page.fill("#search-input", "vector")                 # the English word is not German
        page.wait_for_selector("#search-status:has-text('Kein Begriff gefunden'), #search-results li")
        page.goto((site / "terms/matrix.html").as_uri())
        page.fill("#search-input", "vectors")
        page.wait_for_selector("#search-results:not([hidden]) li")
        names = page.eval_on_selector_all("#search-results li .result-name", "els => els.map(e => e.textContent)")
        assert names[0] == "vector", names
        assert errors == []


def test_each_editions_book_uses_its_babel_language(built, site):
    out = built[1]
    assert "\\usepackage[ngerman]{babel}" in (out / "editions/de/results/print/book/dictionary.tex").read_text()
    assert "babel" not in (out / "results/print/book/dictionary.tex").read_text()
    de = subprocess.run(["pdftotext", str(site / "de/dictionary.pdf"), "-"], capture_output=True, text=True).stdout
    en = subprocess.run(["pdftotext", str(site / "dictionary.pdf"), "-"], capture_output=True, text=True).stdout
    assert "Inhaltsverzeichnis" in de and "Vektor" in de
    assert "Inhaltsverzeichnis" not in en
    # Greek: babel's greek, its fonts from Debian's texlive-lang-greek
    assert "\\usepackage[greek]{babel}" in (out / "editions/el/results/print/book/dictionary.tex").read_text()
    el = subprocess.run(["pdftotext", str(site / "el/dictionary.pdf"), "-"], capture_output=True, text=True).stdout
    assert "Περιεχόμενα" in el and "διάνυσμα" in el
    fonts = subprocess.run(["pdffonts", str(site / "el/terms/vector.pdf")], capture_output=True, text=True).stdout
    assert "Type 3" not in fonts and "Type 1" in fonts


@pytest.mark.parametrize("case", ["unknown", "complete"])
def test_a_translations_mistakes_are_told_as_in_english(built, tmp_path, case):
    source = tmp_path / "dict"
    shutil.copytree(built[0], source)
    out = tmp_path / "out"
    glossary = source / "de/TinyDict_Glossary_German.tex"
    if case == "unknown":
        text = glossary.read_text().replace("\\gls{matrix} mit einem", "\\gls{matirx} mit einem")
    else:
        text = glossary.read_text()
        (source / "editions.yaml").write_text((source / "editions.yaml").read_text().replace(
            "    main: de/TinyDict_German.tex\n", "    main: de/TinyDict_German.tex\n    complete: true\n"))
    glossary.write_text(text)
    run = build(source / "editions.yaml", out)
    assert run.returncode != 0
    err = run.stderr
    # each mistake names its column and its edition (file:line:column (de edition): ...)
    if case == "unknown":
        assert re.search(r"TinyDict_Glossary_German\.tex:\d+:\d+ \(de edition\): term 'matrix': \\gls key 'matirx' is "
                         r"not defined; did you mean matrix\?", err), err
    else:
        assert re.search(r"TinyDict_Glossary_German\.tex:\d+:\d+ \(de edition\): term 'datapoint': \\gls key 'gd' is a "
                         r"term of the base edition but not of this one", err), err
    assert not (out / "site").exists()
    several = re.search(r"^error: (\d+) mistakes", err, re.M)     # one line per mistake when there are several
    assert len(err.strip().splitlines()) <= (10 if not several else int(several[1]) + 3), err


def test_an_edition_of_another_language_than_the_known_is_refused(tmp_path):
    run = subprocess.run([sys.executable, "-m", "glossary.build", "--source", str(FIXTURE / "dictionary.yaml"),
                          "--editions", "xx=" + str(FIXTURE / "de/TinyDict_German.tex"), "--out", str(tmp_path)],
                         cwd=REPO, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(REPO / "src")})
    assert run.returncode == 1
    assert "EDITIONS: 'xx=" in run.stderr and "no language 'xx'; use one of: de, el, en" in run.stderr


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_editions_pages_have_no_accessibility_violations(site, scheme):
    from test_a11y import audit_all
    with chromium() as browser:
        found = {**audit_all(site, browser, scheme),
                 **{f"{lang}/{k}": v for lang in ("de", "el")
                    for k, v in audit_all(site / lang, browser, scheme).items()}}
    assert {k: v for k, v in found.items() if v} == {}
    assert {"de/index.html", "de/terms/datapoint.html", "terms/gd.html"} <= set(found)


def test_every_term_only_english_has_is_a_target_of_the_german_edition():
    """What the German edition shares with the English one (the List of Symbols) may name any English
    term, not only those its own entries name: each one the German edition lacks links to the English
    page (the real dictionary's \\gls{indicatorfunc} in ListSymbols_English.tex failed its notation page)."""
    from glossary import dictionary, editions, plan
    source = plan.Source(FIXTURE / "editions.yaml")
    several = editions.plan(FIXTURE / "editions.yaml", "en", {"de": {"main": str(FIXTURE / "de/TinyDict_German.tex")}})
    base = source.read()
    read, _, _, fallback, _ = dictionary.load_edition(several, "de", base)
    english = {e["key"] for e in base["entries"].values()}
    german = {e["key"] for e in read["entries"].values()}
    assert set(fallback) == english - german and set(read["fallback_keys"]) < set(fallback)
    assert all(t["slug"].startswith("en:") for t in fallback.values())
