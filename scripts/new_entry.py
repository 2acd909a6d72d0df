"""`make new-entry NAME=<slug>`: a new entry that builds at once, from templates/new-entry/.

Writes entries/<slug>/entry.md (the metadata, and a short prose quoting the
run's facts) and entries/<slug>/<slug with _>.py, a small demo following the
demo protocol (prepare, train, export, preview; blocks `# %% [B-name] text`)
with one CSV and one line figure.  A bad slug or an existing entry is refused
with one line, and nothing is written.

    python scripts/new_entry.py weight-decay
"""
import re
import shutil
import sys
from pathlib import Path

import jinja2
import yaml

ROOT = Path(__file__).resolve().parents[1]
TEMPLATES = ROOT / "templates" / "new-entry"
sys.path.insert(0, str(ROOT / "src"))
from glossary import entries  # noqa: E402 (after the path to src/ is set)

# Stricter than what the build accepts ([a-z0-9-]+): no leading, trailing or double hyphens.
NAME = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


def names(slug):
    """What the templates fill in for `slug`."""
    module = slug.replace("-", "_")
    return {"slug": slug, "title": slug.replace("-", " ").capitalize(), "module": module,
            "csv": f"{module}_loss.csv"}


def environment():
    # << >> and <% %>: the entry's own {{ facts }} pass through untouched.
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES), undefined=jinja2.StrictUndefined,
        block_start_string="<%", block_end_string="%>", variable_start_string="<<",
        variable_end_string=">>", comment_start_string="<#", comment_end_string="#>",
        keep_trailing_newline=True, autoescape=False)


def create(slug, root=ROOT):
    """Write the new entry under root's entries_dir; returns the files written."""
    if not slug:
        raise entries.EntryError("NAME: missing; run make new-entry NAME=<slug>, e.g. NAME=weight-decay")
    if not NAME.match(slug):
        raise entries.EntryError(f"NAME: {slug!r} is not a slug (lowercase letters and digits, single hyphens "
                                 f"between words); use e.g. NAME={entries.as_slug(slug)}")
    config = yaml.safe_load((Path(root) / "config.yaml").read_text(encoding="utf-8"))
    entries_dir = Path(root) / config["entries_dir"]
    folder = entries_dir / slug
    shown = f"{config['entries_dir']}/{slug}"
    if folder.exists():
        raise entries.EntryError(f"NAME: {shown} already exists; choose another NAME or edit {shown}/entry.md")
    values = names(slug)
    env = environment()
    files = {"entry.md": env.get_template("entry.md.j2").render(values),
             f"{values['module']}.py": env.get_template("demo.py.j2").render(values)}
    folder.mkdir(parents=True)
    try:
        for name, text in files.items():
            (folder / name).write_text(text, encoding="utf-8")
        # The skeleton must pass the build's own check; a template gone wrong is caught here.
        entries.load_entry(folder, entries.load_schema(Path(root) / "workflow/schemas/entry.schema.yaml"))
    except BaseException:
        shutil.rmtree(folder)
        raise
    return [f"{shown}/{name}" for name in files]


def main(argv):
    try:
        written = create(argv[0] if argv else "")
    except entries.EntryError as err:
        print(f"new-entry: {err}", file=sys.stderr)
        return 1
    print(f"new-entry: wrote {' and '.join(written)}; build it with `make site`, "
          "then replace the skeleton's prose and demo")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
