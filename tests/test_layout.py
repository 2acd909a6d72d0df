"""The pages as the authors' book sets them, in Debian's Chromium (issue 22): no page scrolls sideways
from 320 to 1920 px (a wide formula scrolls in its own box, a wide picture is scaled down and links to
itself at full size); figures are centred and keep their strokes readable (3:1, measured on screenshot
pixels) in both colour schemes; \\mathbf is upright and \\boldsymbol italic, operator names and
\\left( \\right) spaced as TeX spaces them; headings and figures show a permalink on hover and on
keyboard focus; a page's text starts once (no summary repeating its first sentence).

On a copy of the fixture dictionary (no demos) with one term added: a picture four times as wide as
the column, drawn black on a transparent background as a print figure is, a TikZ picture drawn in pale
colours (green and yellow: below 3:1 on white paper), and a first sentence (the
index's summary, quoted under "Referenced by" on the page of the vector) holding a formula wider than
a phone."""
import io
import re
import shutil
import subprocess
import sys

import pytest
from conftest import REPO, made_once
from test_browser import chromium, pages_of, serve

from glossary import auditpage, pages

FIXTURE = REPO / "tests" / "fixtures" / "texdict"
SUM = " + ".join(f"a_{{{i}}} x_{{{i}}}" for i in range(1, 25))
WIDE = rf"""
\newglossaryentry{{wide}}
{{name={{wide term}},
	description={{A wide term\index{{wide term}} multiplies a \gls{{vector}} as
		\begin{{equation*}} y = {SUM} \end{{equation*}}
		in its first sentence.
		Its text has $\mathbf{{A}}\mathbf{{x}} = \boldsymbol{{\mu}} + \bm{{w}}$, $\log x$, $\log(x)$,
		$f\left(\mathbf{{x}}\right)$, $\max_{{i}} a_{{i}}$ and $\big( x \big)^{{T}}$ (with ($k = 1$)), and the
		photo of Fig.~\ref{{fig:wide-photo}}.
		\begin{{figure}}[H]
			\centering
			\includegraphics[width=\textwidth]{{assets/wide}}
			\caption{{A picture four times as wide as the column.}}
			\label{{fig:wide-photo}}
		\end{{figure}}
		Its pale lines, drawn for paper in TikZ's green and yellow:
		\begin{{figure}}[H]
			\centering
			\begin{{tikzpicture}}
				\draw[green, thick] (0,0) -- (3,1);
				\draw[yellow, very thick] (0,1) -- (3,0);
			\end{{tikzpicture}}
			\caption{{Pale strokes.}}
		\end{{figure}}
		See also: \gls{{vector}}.}},
	type=math,
	text={{wide term}}
}}
"""
WIDTHS = (320, 390, 1280, 1920)
def wide_png(path, width=2400, height=600):
    """Black strokes on a transparent background, as the dictionary's own pictures are drawn."""
    from PIL import Image, ImageDraw
    image = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    for x in range(40, width - 40, 160):
        draw.line([(x, 40), (x + 120, height - 40)], fill=(0, 0, 0, 255), width=12)
    draw.rectangle([20, 20, width - 20, height - 20], outline=(0, 0, 0, 255), width=12)
    image.save(path)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    return made_once(tmp_path_factory, "layout", build_layout)[0] / "out" / "site"


def build_layout(root):
    source = root / "dict"
    shutil.copytree(FIXTURE, source)
    config = source / "dictionary.yaml"
    config.write_text(re.sub(r"^demos:\n(?:[ \t]+.*\n?)*", "", config.read_text(), flags=re.M))
    wide_png(source / "assets" / "wide.png")
    with (source / "TinyDict_Math.tex").open("a") as f:
        f.write(WIDE)
    run = subprocess.run([sys.executable, "-m", "glossary.build", "--cores", "2", "--source", str(config),
                          "--out", str(root / "out")], cwd=REPO, capture_output=True, text=True, timeout=900,
                         env={**__import__("os").environ, "PYTHONPATH": str(REPO / "src")})
    assert run.returncode == 0, f"build failed:\n{run.stdout[-3000:]}\n{run.stderr[-3000:]}"


@pytest.fixture(scope="module")
def served(site):
    with serve(site) as base:
        yield site, base


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


def open_page(browser, url, width=1280, scheme="light"):
    context = browser.new_context(viewport={"width": width, "height": 900}, color_scheme=scheme)
    page = context.new_page()
    page.goto(url, wait_until="load")
    return context, page


def test_no_page_scrolls_sideways_from_320_to_1920_px(served, browser):
    """Each page loaded once and laid out at each width, as a reader turning a phone or resizing a
    window sees it (and as the site audit measures: glossary.audit)."""
    site, base = served
    wide = []
    context, page = open_page(browser, base + "index.html", width=WIDTHS[0])
    for name in pages_of(site):
        page.set_viewport_size({"width": WIDTHS[0], "height": 900})
        page.goto(base + name, wait_until="load")
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": 900})
            scrolled = page.evaluate("document.documentElement.scrollWidth")
            if scrolled > width:
                wide.append(f"{name} at {width} px: {scrolled} px")
    context.close()
    assert len(pages_of(site)) >= 20 and wide == []
    # The wide formula is there, and scrolls in its own box where the column is narrow.
    context, page = open_page(browser, base + "index.html", width=390)
    boxes = page.eval_on_selector_all("dd math", """els => els.map(e => [e.scrollWidth, e.clientWidth,
        getComputedStyle(e).overflowX])""")
    assert any(s > c and o == "auto" for s, c, o in boxes), boxes
    context.close()


@pytest.mark.parametrize("name, selector", [("terms/wide.html", ".prose .math-display"), ("index.html", "dd math"),
                                            ("terms/vector.html", "div.scroll")])
def test_a_box_that_scrolls_sideways_shows_a_shadow_where_more_lies(served, browser, name, selector):
    """At 390 px the wide term's display formula scrolls in its box, its first sentence's formula in the
    index's line, and a BibTeX record in its box: a shadow at the right edge, none at the left;
    scrolled to its end, the other way round (measured on the box's edge pixels)."""
    from PIL import Image
    site, base = served
    context, page = open_page(browser, base + name, width=390)
    box = next(b for b in page.locator(selector).all() if b.evaluate("e => e.scrollWidth > e.clientWidth + 20"))

    def edges():
        shot = Image.open(io.BytesIO(box.screenshot())).convert("L")
        w, h = shot.size
        # a column's median: a shadow darkens all of it, a glyph that reaches the edge a few pixels
        column = lambda x: sorted(shot.getpixel((x, y)) for y in range(h))[h // 2]   # noqa: E731
        return column(1), column(w - 2)
    left, right = edges()
    box.evaluate("e => { e.scrollLeft = e.scrollWidth; }")
    left_end, right_end = edges()
    context.close()
    assert right < 235 and left > 245, (left, right)
    assert left_end < 235 and right_end > 245, (left_end, right_end)


def test_pictures_fit_their_column_and_link_to_full_size(served, browser):
    site, base = served
    for width in (390, 1280):
        context, page = open_page(browser, base + "terms/wide.html", width=width)
        pictures = page.eval_on_selector_all(".prose img", """els => els.map(e => {
            const r = e.getBoundingClientRect(), c = e.closest('.prose').getBoundingClientRect();
            const a = e.closest('a');
            return {src: e.getAttribute('src'), left: r.left, right: r.right, natural: e.naturalWidth,
                    shown: r.width, colLeft: c.left, colRight: c.right, href: a && a.getAttribute('href')}; })""")
        assert pictures, "no picture on the page"
        for p in pictures:
            assert p["colLeft"] - 0.5 <= p["left"] and p["right"] <= p["colRight"] + 0.5, p
            assert p["href"] == p["src"], f"{p['src']} does not link to itself: {p['href']}"
        assert max(p["natural"] - p["shown"] for p in pictures) > 0, "the wide picture is not scaled down"
        context.close()
    # The link opens the picture itself, at its full size.
    context, page = open_page(browser, base + "terms/wide.html", width=390)
    page.click(".prose a.picture")
    page.wait_for_load_state("load")
    assert page.url.endswith(".png") and page.evaluate("document.images[0].naturalWidth") == 2400
    context.close()


def test_figures_are_centred_as_in_the_book(served, browser):
    site, base = served
    context, page = open_page(browser, base + "terms/gd.html", width=1280)
    offsets = page.eval_on_selector_all(".prose figure img", """els => els.map(e => {
        const r = e.getBoundingClientRect(), c = e.closest('.prose').getBoundingClientRect();
        return (r.left + r.right) / 2 - (c.left + c.right) / 2; })""")
    context.close()
    assert offsets and all(abs(o) <= 1 for o in offsets), offsets


def test_drawn_figures_keep_a_contrast_of_3_to_1_in_both_schemes(served, browser):
    """The strokes of every picture of the prose (TikZ drawings as SVG, among them one drawn in TikZ's
    pale green and yellow; a transparent PNG) against what is behind them, on the screenshot's pixels,
    in the light and the dark scheme, by the site audit's measure."""
    site, base = served
    measured = {}
    for scheme in ("light", "dark"):
        for name in ("terms/gd.html", "terms/overfitting.html", "terms/wide.html"):
            context, page = open_page(browser, base + name, width=1280, scheme=scheme)
            for i, picture in enumerate(page.locator(".prose figure img").all()):
                picture.scroll_into_view_if_needed()
                ratio, stroke, background = auditpage.stroke_contrast(picture.screenshot())
                measured[f"{name} #{i + 1} {scheme}"] = round(ratio, 2)
            context.close()
    assert len(measured) == 12, measured
    assert min(measured.values()) >= 3, measured


def test_bold_letters_and_operators_as_tex_sets_them(served, browser):
    site, base = served
    context, page = open_page(browser, base + "terms/wide.html")
    letters = page.eval_on_selector_all(".prose math mi", "els => els.map(e => e.textContent)")
    codes = {ord(c) for t in letters for c in t}
    assert {0x1D400, 0x1D431} <= codes, "\\mathbf{A}, \\mathbf{x}: not Unicode's bold upright letters"
    assert 0x1D498 in codes, "\\bm{w}: not bold italic, as TeX prints it"
    assert not codes & {0x1D468, 0x1D499}, "a \\mathbf letter is still bold italic"
    gaps = page.evaluate("""() => {
        const out = {};
        for (const m of document.querySelectorAll('.prose math')) {
          const tex = m.querySelector('annotation').textContent.trim();
          const parts = [...m.querySelectorAll('mi, mo, mn')].filter(e => e.textContent !== '\\u2061');
          const box = e => e.getBoundingClientRect();
          out[tex] = parts.slice(1).map((e, i) => box(e).left - box(parts[i]).right);
          out[tex + ' widths'] = parts.map(e => e.getBoundingClientRect().width);
          out[tex + ' em'] = parseFloat(getComputedStyle(m).fontSize);
        }
        return out; }""")
    em, log_x = gaps["\\log x em"], gaps["\\log x"]
    assert log_x[0] >= 0.12 * em, f"\\log x: no thin space ({log_x})"
    assert gaps["\\log(x)"][0] < 0.05 * em, "\\log(x): a space before the parenthesis"
    assert gaps["\\max_{i} a_{i}"][1] >= 0.12 * em, gaps["\\max_{i} a_{i}"]
    # f\left(x\right): parentheses as narrow as the plain ones of \log(x), a thin space before them.
    fenced, plain = gaps["f\\left(\\mathbf{x}\\right) widths"], gaps["\\log(x) widths"]
    assert fenced[1] <= plain[1] + 1 and fenced[3] <= plain[3] + 1, (fenced, plain)
    assert 0.12 * em <= gaps["f\\left(\\mathbf{x}\\right)"][0] < 0.3 * em, gaps
    # \big( x \big)^T: both parentheses a size up from the plain ones (the scripted one too), as narrow
    # as a plain one at that size, and touching what they enclose, as TeX sets them
    sized = page.evaluate("""() => {
        const m = [...document.querySelectorAll('.prose math')]
          .find(m => m.querySelector('annotation').textContent.includes('big'));
        return [...m.querySelectorAll('mo, mi')].map(e => { const b = e.getBoundingClientRect();
                                                            return [e.textContent, b.left, b.right, b.height]; }); }""")
    opening, x, closing = sized[0], sized[1], sized[2]
    plain_height = page.evaluate("""() => [...document.querySelectorAll('.prose math')]
        .find(m => m.querySelector('annotation').textContent.trim() === '\\\\log(x)')
        .querySelector('mo[stretchy="false"]').getBoundingClientRect().height""")
    assert opening[0] == "(" and closing[0] == ")" and x[0] == "x", sized
    assert opening[3] >= 1.15 * plain_height and closing[3] >= 1.15 * plain_height, (sized, plain_height)
    assert x[1] - opening[2] < 0.1 * em and closing[1] - x[2] < 0.1 * em, sized
    assert opening[2] - opening[1] <= 1.3 * fenced[1], (sized, fenced)
    context.close()


def test_an_inline_formula_paints_nothing_over_the_parenthesis_before_it(served, browser):
    """The real dictionary's lagrangian showed a sliver of the "(" of "constraint (k = 1)": the formula's
    padding, which holds its glyphs' overhang, lay over the "(" and its scroll covers painted the page's
    colour on it.  The "(" shows as much ink as one in plain text."""
    import numpy as np
    from PIL import Image
    site, base = served
    context, page = open_page(browser, base + "terms/wide.html")
    page.evaluate("""() => { const s = document.createElement('span'); s.id = 'alone'; s.textContent = '(';
        const p = document.querySelector('.math-before').closest('p'); p.append(' ', s); }""")

    def ink(selector):
        box = page.locator(selector).first.bounding_box()
        png = page.screenshot(clip={"x": box["x"], "y": box["y"], "width": box["width"], "height": box["height"]})
        pixels = np.asarray(Image.open(io.BytesIO(png)).convert("L"), dtype=float)
        return float((255 - pixels).sum())
    alone, before = ink("#alone"), ink(".math-before")
    assert before >= 0.9 * alone, f"the '(' before a formula shows {before / alone:.0%} of its ink"
    context.close()


def test_a_panels_centred_label_is_centred_under_its_panel_on_a_phone(served, browser):
    """specclustering's and lapmat's "(b)" under a formula (a centred minipage inside the panel's) sat at
    the panel's left on a phone, where its box shrank to the label."""
    site, base = served
    context, page = open_page(browser, base + "terms/wide.html", width=390)
    offset = page.evaluate("""() => {
        const f = document.createElement('figure');
        f.innerHTML = '<div class="center"><div class="minipage" style="--share: 0.4"><p><span class="math-display">'
          + document.querySelector('.prose math').outerHTML + '</span></p><div class="minipage centering" '
          + 'style="--share: 1"><p><span id="label">(b)</span></p></div></div></div>';
        document.querySelector('.prose').prepend(f);
        const panel = f.querySelector('.minipage').getBoundingClientRect();
        const label = f.querySelector('#label').getBoundingClientRect();
        return (label.left + label.right) / 2 - (panel.left + panel.right) / 2; }""")
    assert abs(offset) <= 2, f"the label sits {offset:.0f} px from its panel's centre"
    context.close()


def test_headings_and_figures_show_a_permalink_on_hover_and_on_focus(served, browser):
    site, base = served
    context, page = open_page(browser, base + "terms/overfitting.html")
    heading = page.locator("h2#cite")
    link = heading.locator("a.self")
    assert link.get_attribute("href") == "#cite"
    mark = "e => getComputedStyle(e, '::after').visibility"
    assert link.evaluate(mark) == "hidden"
    heading.hover()
    assert link.evaluate(mark) == "visible" and link.evaluate("e => getComputedStyle(e, '::after').content") == '"#"'
    page.mouse.move(0, 0)
    assert link.evaluate(mark) == "hidden"
    numbers = page.eval_on_selector_all(".prose figcaption a.self", """els => els.map(e =>
        [e.getAttribute('href'), '#' + e.closest('figure').id])""")
    assert len(numbers) == 3 and all(href == own for href, own in numbers), numbers     # (a), (b), Figure 1.
    for _ in range(60):      # the keyboard alone reaches the figure's permalink, and shows its mark
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.matches('figcaption a.self')"):
            break
    assert page.evaluate("getComputedStyle(document.activeElement, '::after').visibility") == "visible"
    context.close()


def test_the_text_starts_once(served, browser):
    """The summary, taken from the text's first sentence, is the page's description and the index's
    line, not said again above the text."""
    site, base = served
    said = {}
    context, page = open_page(browser, base + "index.html")
    for name in pages_of(site):
        if not name.startswith("terms/"):
            continue
        page.goto(base + name, wait_until="load")
        summary = page.eval_on_selector('meta[name="description"]', "e => e.content")
        text = page.evaluate("""() => [...document.querySelectorAll('header.entry, .prose')]
            .map(e => e.innerText).join(' ').replace(/\\s+/g, ' ')""")
        opening = " ".join(summary.split()[:6])
        said[name] = text.count(opening)
    context.close()
    assert sum(n == 1 for n in said.values()) >= 8, said     # a summary with a formula reads otherwise
    assert max(said.values()) == 1, said


def test_a_picture_link_without_a_description_is_still_named():
    """A picture whose figure has no caption has alt="": the link that opens it needs a name (axe's
    link-name), and a described picture's link is named by its image."""
    html = pages.linked_figures('<img src="vcdim/pictures/2.svg" alt=""><img src="a/pictures/1.svg" alt="A plot.">')
    assert '<a class="picture" href="vcdim/pictures/2.svg" aria-label="Picture 2 at full size">' in html
    assert '<a class="picture" href="a/pictures/1.svg"><img' in html
