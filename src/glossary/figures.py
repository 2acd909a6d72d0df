"""pgfplots sources from an entry's figure specs (templates/figures/<kind>.tex.j2), and the page's views
of a figure's PDF."""
import subprocess
from pathlib import Path

import jinja2

from glossary import latex
from glossary.entries import EntryError

COLORS = ["blue!70!black", "orange!85!black", "green!50!black", "red!70!black"]
TEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
               "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}


def tex(text):
    """Text safe to typeset: TeX's special characters escaped."""
    return "".join(TEX_SPECIAL.get(c, c) for c in str(text))


def environment(template_dir):
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(template_dir), undefined=jinja2.StrictUndefined,
        block_start_string="<%", block_end_string="%>", variable_start_string="<<",
        variable_end_string=">>", comment_start_string="<#", comment_end_string="#>",
        trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True, autoescape=False)
    env.filters["tex"] = tex
    return env


PREAMBLE = "preamble.tex.j2"
# The resolution of a figure's PNG (the page's fallback for its SVG) and of a plain demo's PDF preview.
PNG_DPI = "192"


def render_preamble(template_dir, tex_path):
    """The lines of the figures' preamble that go into the format (rule latex_format)."""
    text = environment(template_dir).get_template(PREAMBLE).render()
    head, found, _ = text.partition(latex.END_OF_DUMP)
    if not found:
        raise ValueError(f"{Path(template_dir) / PREAMBLE}: no {latex.END_OF_DUMP} line: the format would "
                         "hold the whole preamble; put the line after the packages")
    Path(tex_path).write_text(head + found + "\n", encoding="utf-8")


def render_custom(spec, data_dir, tex_path, facts, template_path, preamble_dir, entry_file, index):
    """Write the .tex of a custom figure from the entry's own template (in its folder, which may
    include the shared preamble).  It gets `csvs` (every declared CSV by name, as a path under its
    TeX run's data link, latex.DATA), `csv` (the figure's own CSV, if it names one), `facts`, `spec` and `colors`."""
    template_path, where = Path(template_path), f"{entry_file}: figures[{index}]"
    env = environment(template_path.parent)
    env.loader = jinja2.ChoiceLoader([env.loader, jinja2.FileSystemLoader(preamble_dir)])
    relative = lambda name: f"{latex.DATA}/{name}"
    csvs = {p.name: relative(p.name) for p in sorted(Path(data_dir).glob("*.csv"))}
    try:
        text = env.get_template(template_path.name).render(
            spec=spec, csvs=csvs, csv=relative(spec["csv"]) if spec.get("csv") else None, facts=facts,
            colors=COLORS)
    except jinja2.TemplateSyntaxError as err:
        raise EntryError(f"{template_path}:{err.lineno}: {err.message}; fix the template") from None
    except jinja2.UndefinedError as err:
        raise EntryError(f"{template_path}: {err.message}; it may use csvs ({', '.join(csvs)}), csv, facts "
                         f"({', '.join(sorted(facts))}), spec and colors") from None
    if latex.END_OF_DUMP not in text:
        raise EntryError(f"{where}.source: {template_path} does not include the figures' preamble; start it "
                         f'with <% include "{PREAMBLE}" %> (then any packages of its own, then \\begin{{document}})')
    # The first line names the template, so that a LaTeX error names the file to fix (glossary.latex).
    Path(tex_path).write_text(f"% Rendered from {template_path} by rule figure; edit that file.\n" + text,
                              encoding="utf-8")


def render(spec, csv_path, tex_path, facts, template_dir, entry_file, index):
    """Write the .tex of one figure; the CSV is named under its TeX run's data link (latex.DATA): a
    relative name without ../, which kpathsea's paranoid mode lets TeX read."""
    # The CSV's name and columns were checked against entry.md when the entries loaded,
    # and the demo's written headers by the export job (glossary.entries).
    where = f"{entry_file}: figures[{index}]"
    ys = spec.get("y", [])
    ys = [ys] if isinstance(ys, str) else list(ys)
    labels = []
    if spec.get("labels"):
        labels = facts.get(spec["labels"])
        if not isinstance(labels, list):
            raise EntryError(f"{where}.labels: the demo's export() returned no list {spec['labels']!r}; "
                             f"name one of: {', '.join(k for k, v in sorted(facts.items()) if isinstance(v, list))}")
    elif spec["kind"] in ("heatmap", "bar"):
        raise EntryError(f"{where}.labels: a {spec['kind']} figure needs tick labels; name the list "
                         "its export() returns")
    relative = f"{latex.DATA}/{Path(csv_path).name}"
    template = environment(template_dir).get_template(f"{spec['kind']}.tex.j2")
    Path(tex_path).write_text(template.render(
        spec={"xlabel": "", "ylabel": "", "legend": [], **spec}, ys=ys, labels=labels,
        csv=relative, colors=COLORS), encoding="utf-8")


def _poppler(args, pdf):
    run = subprocess.run(args, capture_output=True, text=True, errors="replace")
    if run.returncode != 0:
        raise RuntimeError(f"{pdf}: {args[0]} failed: {run.stderr.strip() or run.returncode}")


def rasterise(pdf, png):
    """A one-page PDF as a PNG at PNG_DPI (poppler's pdftoppm)."""
    _poppler(["pdftoppm", "-png", "-r", PNG_DPI, "-singlefile", str(pdf), str(Path(png).with_suffix(""))], pdf)


def views(pdf, svg, png):
    """A figure's PDF as the page shows it: an SVG (poppler's pdftocairo) and its PNG fallback."""
    _poppler(["pdftocairo", "-svg", str(pdf), str(svg)], pdf)
    rasterise(pdf, png)
