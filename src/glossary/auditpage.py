"""The browser's side of the site audit (glossary.audit): what one loaded page shows, measured in
Debian's Chromium under Playwright.

- `collect(page)`: the numbers the page shows (figure and table captions "Figure N", "Table N",
  equation numbers "(N)"), the targets of its ids, its references (links whose text is a number),
  its title, descriptions and alt texts, whether its text holds "??", and its MathML script and
  fraction elements with the wrong number of children;
- `too_wide(page)`: None, or how far the page scrolls sideways and the outermost element at fault;
- `axe_violations(page)`: axe-core's violations (npm's axe-core, injected);
- `figure_contrasts(page)`: each drawn figure (an `img` of an SVG picture) screenshotted as shown
  now, its strokes' WCAG contrast against its own background, measured on the rendered pixels.
"""
import io
from pathlib import Path

import numpy as np
from PIL import Image

from glossary import assets, mathml, sentences
from glossary.browser import CHROMIUM, CHROMIUM_ARGS

REPO = assets.ROOT
AXE = REPO / "node_modules/axe-core/axe.min.js"

# Where an equation number is shown: in a display formula's box (a MathML label row, or text beside).
COLLECT = r"""() => {
  const main = document.querySelector('main') || document.body;
  const CAPTION = /^\s*(Figure|Fig\.?|Table)\s*(\d+)/i, EQNO = /^\((\d+)\)$/;
  const NUMBER = /^\(?(\d+)[a-z]?\)?(?:\s+\S+\s.+)?$/;     // "(1)", "1", "(1) of gradient descent"
  const DISPLAY = '.equation, .math-display, math[display="block"], mlabeledtr, .eqno, .equation-number';
  const items = [];
  for (const f of main.querySelectorAll('figure, table')) {
    const cap = [...f.children].find(c => c.matches('figcaption, caption'));
    // a figure's number is its label's ("Fig. 1.", "Abbildung 1."), whatever the word; else the caption's
    const label = f.matches('figure') && cap && cap.querySelector('.figure-label strong, span.label');
    const own = label && /(\d+)\.?$/.exec(label.textContent.trim());
    const m = cap && CAPTION.exec(cap.textContent);
    if (own) items.push({kind: 'figure', n: own[1], el: f});
    else if (m) items.push({kind: /^table$/i.test(m[1]) ? 'table' : 'figure', n: m[2], el: f});
  }
  const labels = new Set();
  for (const row of main.querySelectorAll('mlabeledtr')) {
    const cell = row.firstElementChild, m = cell && EQNO.exec(cell.textContent.replace(/\s+/g, ''));
    if (m) { items.push({kind: 'equation', n: m[1], el: cell}); labels.add(cell); }
  }
  // The numbers the page writes beside its displays: <a class="eqno" href="#anchor">(N)</a>.
  for (const a of main.querySelectorAll('a.eqno')) {
    const m = EQNO.exec(a.textContent.replace(/\s+/g, ''));
    if (m) { items.push({kind: 'equation', n: m[1], el: a}); labels.add(a); }
  }
  const texts = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
  for (let t; (t = texts.nextNode());) {
    const m = EQNO.exec(t.data.trim()), el = t.parentElement;
    if (!m || el.closest('a, annotation, script, style') || !el.closest(DISPLAY)) continue;
    if ([...labels].some(cell => cell.contains(el))) continue;
    items.push({kind: 'equation', n: m[1], el});
  }
  for (const el of main.querySelectorAll('.equation, .equation *, .math-display, .eqno, .equation-number')) {
    for (const pseudo of ['::before', '::after']) {
      let c = getComputedStyle(el, pseudo).content;
      const attr = /^attr\(([\w-]+)\)$/.exec(c);
      c = attr ? (el.getAttribute(attr[1]) || '') : c.replace(/^"(.*)"$/, '$1');
      const m = EQNO.exec(c.trim());
      if (m) items.push({kind: 'equation', n: m[1], el});
    }
  }
  const shown = el => {
    for (let f = el.closest('figure, table'); f; f = f.parentElement && f.parentElement.closest('figure, table')) {
      const it = items.find(i => i.el === f);
      if (it) return [[it.kind, it.n]];
    }
    const inside = b => items.filter(i => b.contains(i.el)).map(i => [i.kind, i.n]);
    return inside(el).length ? inside(el) : inside(el.closest(DISPLAY) || el);
  };
  const targets = {};
  for (const el of main.querySelectorAll('[id]')) targets[el.id] = shown(el);
  const refs = [];
  for (const a of main.querySelectorAll('a[href*="#"]')) {
    const text = a.textContent.trim(), m = NUMBER.exec(text);
    if (!m || a.matches('.citation, .footnote-ref, .footnote-back, [role^="doc-"]')) continue;
    const before = a.previousSibling ? (a.previousSibling.textContent || '').slice(-12) : '';
    refs.push({href: a.href, text, n: m[1], before});
  }
  // The words just before each link to a term (its article) and before each citation (its space).
  const before = a => { const p = a.previousSibling;
                        return p === null ? '' : p.nodeType === Node.TEXT_NODE ? p.data.slice(-6) : '\u0000'; };
  const words = a => a.textContent.replace(/\s+/g, ' ').trim();
  const articles = [...main.querySelectorAll('a.xref')].map(a => [before(a), words(a)]);
  const cites = [...main.querySelectorAll('a.citation')].map(a => [before(a), a.textContent.trim()]);
  const meta = [...document.querySelectorAll('meta[name="description"], meta[property^="og:"], meta[name^="twitter:"]')]
    .map(e => [e.getAttribute('name') || e.getAttribute('property'), e.getAttribute('content') || '']);
  // What a citation taken out of a sentence (a summary, a quote) can leave behind: a space before the
  // stop ("information ."), a parenthesis of connecting words alone ("(see )"); text outside formulas.
  const LEFT = new RegExp(String.raw`\p{L}[ \u00a0]+[.,;)](?=\s|$)|` + String.raw`EMPTIED`, 'giu');
  const leftovers = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    if (n.parentElement.closest('math, pre, code, script, style')) continue;
    for (const m of n.data.matchAll(LEFT))
      leftovers.push(n.data.slice(Math.max(0, m.index - 30), m.index + m[0].length).replace(/\s+/g, ' '));
  }
  const text = document.body.innerText, qq = text.indexOf('??');
  // A script or fraction element with more or fewer children than its base and scripts lays out as
  // a row (Chromium): "‖x‖ 22" for ‖x‖₂².
  const ARITY = {msub: 2, msup: 2, munder: 2, mover: 2, mfrac: 2, mroot: 2, msubsup: 3, munderover: 3};
  const malformed = [...document.querySelectorAll(Object.keys(ARITY).join(','))]
    .filter(e => e.children.length !== ARITY[e.localName])
    .map(e => { const a = e.closest('math') && e.closest('math').querySelector('annotation');
                return `<${e.localName}> of ${e.children.length} in ${a ? a.textContent.trim().slice(0, 60) : '?'}`; });
  // A formula's table cell whose content does not sit as its column says (columnalign: a matrix's
  // entries centred, an align environment's columns right and left of the relation).
  const misaligned = [];
  for (const td of main.querySelectorAll('mtd[columnalign]')) {
    const kids = [...td.children], cell = td.getBoundingClientRect(), how = td.getAttribute('columnalign');
    if (!kids.length || !cell.width) continue;
    const left = Math.min(...kids.map(k => k.getBoundingClientRect().left)) - cell.left;
    const right = cell.right - Math.max(...kids.map(k => k.getBoundingClientRect().right));
    if (how === 'center' ? Math.abs(left - right) > 2 : how === 'right' ? right > left + 2
        : how === 'left' ? left > right + 2 : false) {
      const note = td.closest('math') && td.closest('math').querySelector('annotation');
      misaligned.push(`a ${how} column's cell set ${left > right ? 'right' : 'left'} in `
                      + (note ? note.textContent.trim().replace(/\s+/g, ' ').slice(0, 40) : '?'));
    }
  }
  // A photo given a share of the line (its link's --share, from width=0.8\textwidth): the width it shows
  // at, over its box's.
  const shares = [...main.querySelectorAll('a.picture[style*="--share"]')].map(a => {
    const box = a.parentElement, css = getComputedStyle(box);
    const inner = box.clientWidth - parseFloat(css.paddingLeft) - parseFloat(css.paddingRight);
    return [a.getAttribute('href'), parseFloat(a.style.getPropertyValue('--share')),
            inner > 0 ? a.getBoundingClientRect().width / inner : 0];
  });
  // A side-by-side panel's formula (a minipage given a share of the line) that scrolls in its panel.
  const panels = [...main.querySelectorAll('figure .minipage[style] .math-display')]
    .filter(e => e.scrollWidth > e.clientWidth + 1)
    .map(e => { const a = e.querySelector('annotation');
                return [(a ? a.textContent : e.textContent).replace(/\s+/g, ' ').trim().slice(0, 40),
                        e.clientWidth, e.scrollWidth]; });
  // The label of each numbered figure's caption ("Fig. 1.", the prose's and the demo's; not a subfigure's "(a)").
  const captions = [...main.querySelectorAll('figcaption .figure-label strong, figcaption > span.label')]
    .map(e => e.textContent.replace(/\s+/g, ' ').trim()).filter(t => t && !t.startsWith('('));
  return {numbers: items.map(i => [i.kind, i.n]), targets, refs, title: document.title, meta, malformed,
          articles, cites, leftovers, shares, panels, misaligned, captions,
          alts: [...document.querySelectorAll('img[alt]')].map(i => [i.getAttribute('src'), i.alt]),
          labels: [...document.querySelectorAll('[aria-label]')].map(e => e.getAttribute('aria-label')),
          qq: qq < 0 ? null : text.slice(Math.max(0, qq - 40), qq + 40).replace(/\s+/g, ' ')};
}""".replace("EMPTIED", sentences.EMPTIED.pattern)

# The element that reaches farthest past the viewport's right edge with no clipping box around it
# (a formula named by its text).
TOO_WIDE = r"""() => {
  const w = window.innerWidth, wide = document.documentElement.scrollWidth;
  if (wide <= w) return null;
  const clipped = el => {
    for (let p = el.parentElement; p && p !== document.documentElement; p = p.parentElement)
      if (getComputedStyle(p).overflowX !== 'visible') return true;
    return false;
  };
  let worst = null, right = w + 1;
  for (const el of document.body.querySelectorAll('*')) {
    const r = el.getBoundingClientRect();
    if (r.right > right && r.width > 0 && !clipped(el)) [worst, right] = [el, r.right];
  }
  if (worst) {
    const at = worst.closest('math') || worst, src = at.getAttribute('src');
    const notes = [...at.querySelectorAll('annotation')].map(a => a.textContent);
    const text = notes.reduce((s, n) => s.replace(n, ''), at.textContent || '').replace(/\s+/g, ' ').trim();
    const name = at.tagName.toLowerCase() + (at.id ? '#' + at.id : '')
      + (at.classList.length ? '.' + [...at.classList].join('.') : '')
      + (src ? `[src="${src}"]` : text ? ` "${text.slice(0, 40)}${text.length > 40 ? '…' : ''}"` : '');
    return {wide, culprit: name, right: Math.round(right)};
  }
  return {wide, culprit: null, right: wide};
}"""

# Punctuation that touches an inline formula ("x.", "x),") and starts the line after it: its first
# character's box lies below the formula's (glossary.mathml.tidy keeps them on one line).
STRANDED = r"""() => {
  const found = [];
  for (const m of document.querySelectorAll('main math:not([display="block"])')) {
    const t = m.nextSibling;
    if (!t || t.nodeType !== Node.TEXT_NODE || !/^[STOP_CHARS]/.test(t.data)) continue;
    const range = document.createRange();
    range.setStart(t, 0);
    range.setEnd(t, 1);
    const stop = range.getBoundingClientRect(), box = m.getBoundingClientRect();
    if (stop.height && box.height && stop.top >= box.bottom - 2) {
      const note = m.querySelector('annotation');
      found.push(`${t.data[0]} after ${note ? note.textContent.trim().slice(0, 40) : m.textContent.slice(0, 40)}`);
    }
  }
  return found;
}""".replace("STOP_CHARS", mathml.STOP_CHARS)

# A table's caption that runs past the box its table scrolls in: its end is out of view until the
# reader scrolls the table.
CUT_CAPTIONS = r"""() => [...document.querySelectorAll('main table > caption')].filter(c => {
    const box = c.parentElement.getBoundingClientRect(), own = c.getBoundingClientRect();
    return own.width && (own.right > box.right + 1 || own.left < box.left - 1);
  }).map(c => c.textContent.replace(/\s+/g, ' ').trim().slice(0, 50))"""

AXE_RUN = """async rules => {
  const r = await axe.run(document, Object.assign({resultTypes: ['violations']}, rules ? {runOnly: rules} : {}));
  return r.violations.flatMap(v => v.nodes.map(n => v.id + ': ' + n.target.join(' ') + ' ('
      + (n.failureSummary || '').split('\\n').slice(1, 2).join('').trim() + ')')); }"""

# Every image loaded (a lazy one too) before anything is measured or screenshotted.
IMAGES_LOADED = """() => Promise.all([...document.images].map(img => {
  img.loading = 'eager';
  return img.complete ? null : new Promise(done => { img.onload = img.onerror = done; });
}))"""

DRAWN = 'main img[src$=".svg"]'


class MissingTool(Exception):
    """What the audit needs and lacks, with the fix."""


def collect(page):
    return page.evaluate(COLLECT)


def too_wide(page):
    return page.evaluate(TOO_WIDE)


def stranded(page):
    return page.evaluate(STRANDED)


def cut_captions(page):
    return page.evaluate(CUT_CAPTIONS)


def known(line):
    """A formula whose \\text{} holds a cross-reference (glossary.render puts the link inside the
    MathML, and test_dictionary_build asks for it there): axe reads <math> as role=math, whose
    children are presentational, and reports nested-interactive.  Left to render.py's owner (issue 18)."""
    return line.startswith("nested-interactive: ") and "math" in line.split(" (")[0]


def axe_violations(page, rules=None):
    """axe-core's violations of the page as it is now (of `rules` only, if given): ["rule: target
    (summary)", ...], less the known one."""
    if not AXE.is_file():
        raise MissingTool(f"{AXE} is missing; run `make test-setup` (npm ci installs axe-core)")
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    return [f for f in page.evaluate(AXE_RUN, rules) if not known(f)]


def luminance(rgb):
    """WCAG 2 relative luminance of an sRGB colour (0-255 channels)."""
    c = np.asarray(rgb, dtype=float) / 255
    c = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    return float(c @ [0.2126, 0.7152, 0.0722])


def contrast(a, b):
    """WCAG contrast ratio of two colours, 1 to 21."""
    la, lb = sorted((luminance(a), luminance(b)))
    return (lb + 0.05) / (la + 0.05)


def stroke_contrast(png):
    """(contrast, stroke colour, background colour) of a screenshot of a figure.  The background is
    what the figure lies on: the commonest colour of the screenshot's outer frame (its panel or the
    page).  The strokes are the pixels that differ from it (by more than 6 of 255 in a channel) and
    are not inside a uniform area (a fill: the same colour 2 px around), of which the most distinct
    tenth is taken (a stroke's colour is its core: its anti-aliased edges, and the whole of a line
    thinner than a pixel, are blends with the background) and its median colour compared with the
    background.  With no strokes at all, 1:1."""
    image = np.asarray(Image.open(io.BytesIO(png)).convert("RGB"), dtype=np.int32)
    frame = np.concatenate([image[:2].reshape(-1, 3), image[-2:].reshape(-1, 3),
                            image[:, :2].reshape(-1, 3), image[:, -2:].reshape(-1, 3)])
    packed = frame[:, 0] << 16 | frame[:, 1] << 8 | frame[:, 2]
    values, counts = np.unique(packed, return_counts=True)
    top = int(values[counts.argmax()])
    background = np.array([top >> 16, top >> 8 & 255, top & 255])
    padded = np.pad(image, ((2, 2), (2, 2), (0, 0)), mode="edge")
    height, width = image.shape[:2]
    edge = np.zeros((height, width), dtype=bool)
    for dy, dx in ((-2, 0), (-1, 0), (1, 0), (2, 0), (0, -2), (0, -1), (0, 1), (0, 2)):
        shifted = padded[2 + dy:2 + dy + height, 2 + dx:2 + dx + width]
        edge |= np.abs(shifted - image).max(axis=2) > 6
    pixels = image.reshape(-1, 3)
    distance = np.abs(pixels - background).max(axis=1)
    ink = (distance > 6) & edge.reshape(-1)
    if ink.sum() < 8:
        return 1.0, background.tolist(), background.tolist()
    core = pixels[ink][distance[ink] >= np.percentile(distance[ink], 90)]
    stroke = np.median(core, axis=0)
    return contrast(stroke, background), stroke.round().astype(int).tolist(), background.tolist()


def figure_contrasts(page):
    """[(src, contrast, stroke, background)] of the page's drawn figures as shown now."""
    found = []
    figures = page.locator(DRAWN)
    for i in range(figures.count()):
        figure = figures.nth(i)
        if not figure.is_visible():
            continue
        found.append((figure.get_attribute("src"), *stroke_contrast(figure.screenshot(animations="disabled"))))
    return found


def launch(playwright):
    """Debian's Chromium (no browser download: executable_path)."""
    if not Path(CHROMIUM).exists():
        raise MissingTool(f"{CHROMIUM} is missing; install Debian's: apt-get install chromium-headless-shell")
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
