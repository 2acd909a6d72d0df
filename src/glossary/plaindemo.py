"""Plain demos: a dictionary author's script run as a script, its CSVs taken as a demo's outputs.

A LaTeX dictionary's YAML file may give a term a plain script (`demos: {key: {script, kind: plain,
csv, figures, preview}}`), written to run as `python acc.py` and to save its CSVs (and a matplotlib
image) beside itself.  run() runs a copy of it in a scratch folder (so the dictionary's own folder is
never written), on the environment of the job, which carries the pinned numeric platform, then:

- its *.csv files are the demo's data, held to the declared `csv` as an entry.md's export() is
  (glossary.entries.check_exported): exactly those files, each with exactly its header;
- its stdout lines are its check lines (the scratch folder's path taken out, so they stay the same
  from run to run);
- the image it saves (`preview`, by default <script>.png or <script>.pdf) becomes the page's preview
  PNG: copied, or a PDF rasterised by poppler's pdftoppm at the figures' resolution.

A failure is one EntryError naming the script, the term, and the tail of the script's stderr.
"""
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from glossary import entries, figures

STDERR_LINES = 12     # as much of a failing script's stderr as a message shows


def stderr_tail(text, scratch, script, lines=STDERR_LINES):
    """The last `lines` lines of a failed script's stderr, indented, naming the script where it is
    (not its scratch copy); without the traceback's header line, which says nothing."""
    text = text.replace(str(Path(scratch).resolve() / Path(script).name), str(script))
    text = text.replace(str(Path(scratch) / Path(script).name), str(script))
    kept = [line for line in text.rstrip("\n").split("\n")
            if line.strip() and line.strip() != "Traceback (most recent call last):"][-lines:]
    return "\n".join("    " + line for line in kept) or "    (nothing on stderr)"


def execute(script, key, scratch, environ=None):
    """Run a copy of `script` in `scratch` (its working folder); the completed process.  A failure is
    an EntryError whose first line names the script, the term, the error and the fix, and whose
    other lines are the end of the script's stderr."""
    copy = Path(scratch) / Path(script).name
    shutil.copyfile(script, copy)
    env = dict(os.environ if environ is None else environ)
    env["MPLBACKEND"] = "Agg"            # no display; matplotlib saves files only
    env["SOURCE_DATE_EPOCH"] = "0"        # matplotlib's PDF and PNG metadata carry no date
    env["PYTHONDONTWRITEBYTECODE"] = "1"  # no __pycache__ among the script's outputs
    done = subprocess.run([sys.executable, copy.name], cwd=scratch, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        tail = stderr_tail(done.stderr, scratch, script)
        last = tail.rsplit("\n", 1)[-1].strip()
        raise entries.EntryError(
            f"{script}: term {key!r}: the demo script failed (exit status {done.returncode}): {last}; fix the "
            f"script (it runs as `python {copy.name}` in a scratch folder, on config.yaml's numeric_env) and "
            f"build again\n{tail}")
    return done


def check_lines(stdout, scratch):
    """The script's stdout as check lines, with the scratch folder's path (absolute, so different
    from run to run) taken out: `Saved /tmp/x/acc_data.csv` reads `Saved acc_data.csv`."""
    text = stdout
    for folder in sorted({str(Path(scratch)), str(Path(scratch).resolve())}, key=len, reverse=True):
        text = text.replace(folder + os.sep, "").replace(folder, ".")
    return text


def collect_csvs(scratch, out_dir, script, key, declared):
    """Copy the CSVs the script wrote into `out_dir`, held to the declared `csv`."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    for path in sorted(Path(scratch).glob("*.csv")):
        shutil.copyfile(path, out_dir / path.name)
    try:
        entries.check_exported(declared, out_dir, f"{script}: term {key!r} (demos.{key} of the dictionary's YAML)")
    except entries.EntryError as err:
        # check_exported speaks of a blocks demo's export(); a plain script writes the files itself.
        raise entries.EntryError(str(err).replace("the demo's export()", f"the script {Path(script).name}")
                                 .replace("export()", "the script")) from None


def image_of(scratch, script, key, image=None):
    """The preview image the script saved: `image` if the YAML names one, else <stem>.png or .pdf."""
    stem = Path(script).stem
    names = [image] if image else [f"{stem}.png", f"{stem}.pdf"]
    for name in names:
        if (Path(scratch) / name).is_file():
            return Path(scratch) / name
    wrote = sorted(p.name for p in Path(scratch).iterdir() if p.name != Path(script).name)
    raise entries.EntryError(
        f"{script}: term {key!r}: the script saved no preview image {' or '.join(names)} (it wrote: "
        f"{', '.join(wrote) or 'nothing'}); save its matplotlib figure beside itself under that name, or name "
        f"the image it saves in demos.{key}.preview")


def to_png(image, png):
    """The page's preview PNG: a PNG as it is, a PDF rasterised by pdftoppm."""
    png = Path(png)
    png.parent.mkdir(parents=True, exist_ok=True)
    if image.suffix == ".png":
        shutil.copyfile(image, png)
        return png
    figures.rasterise(image, png)
    return png


def run(script, key, declared, data_dir, preview_png, image=None, environ=None):
    """Run the plain demo `script` of term `key`: its declared CSVs into `data_dir`, its preview image
    as `preview_png`; returns its check lines (one string, lines ending in newlines)."""
    with tempfile.TemporaryDirectory(prefix="plain-demo-") as scratch:
        done = execute(script, key, scratch, environ)
        collect_csvs(scratch, data_dir, script, key, declared)
        to_png(image_of(scratch, script, key, image), preview_png)
        return check_lines(done.stdout, scratch)
