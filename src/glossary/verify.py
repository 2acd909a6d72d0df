"""`make verify`: rebuild the site from a clean copy of the sources and compare it with
the committed manifest (site.manifest.json); `make manifest` rewrites the manifest.

The manifest holds, for every file of site/, its size and sha256, and for a CSV
also its text, line by line, so that a difference can be told as the first row
that differs and the largest absolute difference of the numbers.  It is
deterministic JSON (sorted keys, fixed indentation, final newline) with no
dates and no absolute paths.

The same bytes are promised only on x86-64 Linux with the packages of
requirements.lock: elsewhere (aarch64, for one) OpenBLAS, numpy and libm have
other kernels, the chaotic training ends in another model (or the build stops
at numeric.require()), and verify says so, with the platform it ran on.
"""
import argparse
import csv
import difflib
import hashlib
import io
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
from importlib import metadata
from pathlib import Path

import yaml

from glossary import assets, entries, jsonio, numeric, plan, publish
from glossary.entries import EntryError

MANIFEST = "site.manifest.json"
FORMAT = 1
PROMISE = ("The same bytes are promised only on x86-64 Linux with the packages of requirements.lock. "
           "Elsewhere (aarch64, for one) OpenBLAS, numpy and libm have other kernels and the pinned "
           "x86 settings do not apply: the build stops at numeric.require(), or trains another "
           "model and its files differ.")


# --- the manifest -----------------------------------------------------------------

# Besides the CSVs, the manifest keeps the text of build-info.json: when the bytes
# differ, the versions it records (numpy, TeX Live, poppler, ...) often say why.
TEXT = ("build-info.json",)
FORMATS = ("text", "markdown", "json")
BUILD_TAIL = 40     # lines of a failed clean build's output that the markdown and json reports keep


def file_entry(data, name):
    """What the manifest records of one file: size, sha256 and, for a CSV (and
    build-info.json), its lines."""
    entry = {"sha256": hashlib.sha256(data).hexdigest(), "size": len(data)}
    if name.endswith(".csv"):
        entry["csv"] = data.decode("utf-8").splitlines()
    elif name in TEXT:
        entry["text"] = data.decode("utf-8").splitlines()
    return entry


def manifest_of(site):
    """The manifest of a published site/ (Snakemake's directory markers left out)."""
    site = Path(site)
    return {"format": FORMAT,
            "note": "written by `make manifest` (scripts/verify.py --update); checked by `make verify`",
            "files": {name: file_entry((site / name).read_bytes(), name) for name in publish.names(site)}}


def write_manifest(path, manifest):
    Path(path).write_text(jsonio.dumps(manifest), encoding="utf-8")


def read_manifest(path):
    manifest = json.loads(Path(path).read_text(encoding="utf-8"))
    if manifest.get("format") != FORMAT or not isinstance(manifest.get("files"), dict):
        raise ValueError(f"{path}: not a site manifest of format {FORMAT}; rewrite it with `make manifest`")
    return manifest


# --- the comparison ---------------------------------------------------------------

def _number(text):
    try:
        return float(text)
    except ValueError:
        return None


def _rows(lines):
    return list(csv.reader(io.StringIO("\n".join(lines) + "\n")))


def csv_difference(expected_lines, actual_lines):
    """Lines telling how two CSVs differ: the first differing row, the largest
    absolute difference of the numbers (and where), how many rows differ."""
    old, new = _rows(expected_lines), _rows(actual_lines)
    header = old[0] if old else []
    out = []
    if len(old) != len(new):
        out.append(f"{len(new)} rows instead of {len(old)} (header included)")
    first = next((i for i in range(max(len(old), len(new)))
                  if i >= len(old) or i >= len(new) or old[i] != new[i]), None)
    if first is None:
        return out or ["same rows; the bytes differ (line endings or quoting)"]
    show = lambda rows, i: repr(",".join(rows[i])) if i < len(rows) else "(no row)"
    label = f" ({header[0]}={old[first][0]})" if 0 < first < len(old) and header and old[first] else ""
    out.append(f"first differing row: line {first + 1}{label}: expected {show(old, first)}, "
               f"got {show(new, first)}")
    largest, where, differing = None, None, 0
    for i in range(1, min(len(old), len(new))):
        if old[i] != new[i]:
            differing += 1
        for j in range(min(len(old[i]), len(new[i]))):
            a, b = _number(old[i][j]), _number(new[i][j])
            if a is not None and b is not None and (largest is None or abs(a - b) > largest):
                largest, where = abs(a - b), (i, j, old[i][j], new[i][j])
    if largest is not None and largest > 0:
        i, j, a, b = where
        column = header[j] if j < len(header) else f"#{j + 1}"
        out.append(f"largest absolute difference: {largest:.6g} in column {column}, line {i + 1} "
                   f"(expected {a}, got {b})")
    elif largest == 0:
        out.append("largest absolute difference: 0 (the numbers agree; their text differs)")
    out.append(f"rows differing: {differing} of {max(len(old) - 1, 0)}")
    return out


def text_difference(expected_lines, actual_lines, most=12):
    """The changed lines of a small text file, as `- expected` / `+ got`."""
    body = list(difflib.unified_diff(expected_lines, actual_lines, lineterm="", n=0))[2:]   # no file header
    diff = [f"{line[0]} {line[1:].strip()}" for line in body if not line.startswith("@@")]
    return diff[:most] + ([f"... {len(diff) - most} more changed lines"] if len(diff) > most else [])


class Report:
    """The outcome of a comparison: changed, missing and extra files, each with its lines."""

    def __init__(self, checked):
        self.checked, self.changed, self.missing, self.extra = checked, {}, [], []

    @property
    def ok(self):
        return not (self.changed or self.missing or self.extra)

    def lines(self, manifest_name=MANIFEST):
        if self.ok:
            return [f"verify: OK: all {self.checked} files of the fresh site match {manifest_name}"]
        out = []
        for name, details in sorted(self.changed.items()):
            out.append(f"changed: {name}")
            out += ["  " + d for d in details]
        out += [f"missing: {name} (in {manifest_name}, not in the fresh site)" for name in self.missing]
        out += [f"extra: {name} (in the fresh site, not in {manifest_name})" for name in self.extra]
        out.append(f"verify: FAILED: {self.summary()} of {self.checked} files in {manifest_name}")
        return out

    def summary(self):
        return f"{len(self.changed)} changed, {len(self.missing)} missing, {len(self.extra)} extra"

    def as_dict(self, manifest_name=MANIFEST, platform=None):
        """For machines (--format json): which files moved, and how."""
        out = {"status": "ok" if self.ok else "differs", "manifest": manifest_name, "checked": self.checked,
               "changed": {name: details for name, details in sorted(self.changed.items())},
               "missing": self.missing, "extra": self.extra}
        if platform is not None:
            out["platform"] = platform
        return out

    def markdown(self, manifest_name=MANIFEST, platform=None):
        """For a CI job summary (--format markdown): a table of the files that differ."""
        if self.ok:
            return ["## make verify: OK", "",
                    f"All {self.checked} files of the fresh site match `{manifest_name}`."]
        out = ["## make verify: FAILED", "",
               f"{self.summary()}, of {self.checked} files in `{manifest_name}`.", "",
               "| file | status | difference |", "| --- | --- | --- |"]
        for name, details in sorted(self.changed.items()):
            out.append(f"| {_code(name)} | changed | {'<br>'.join(_cell(d) for d in details)} |")
        out += [f"| {_code(name)} | missing | in `{manifest_name}`, not in the fresh site |" for name in self.missing]
        out += [f"| {_code(name)} | extra | in the fresh site, not in `{manifest_name}` |" for name in self.extra]
        return out + _markdown_platform(platform)


def _cell(text):
    """Text for one cell of a Markdown table."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace("|", "\\|").replace("\n", " ")


def _code(name):
    """A file name as code in a Markdown table cell (a '|' would end the cell, even in code)."""
    return "`" + name.replace("|", "\\|") + "`"


def _markdown_platform(platform):
    if not platform:
        return []
    return ["", "<details><summary>The platform it ran on</summary>", ""] + \
        [f"- {_cell(line)}" for line in platform] + ["", "</details>"]


def compare(manifest, site):
    """Compare a site/ folder with a manifest; returns a Report."""
    expected = manifest["files"]
    actual = manifest_of(site)["files"]
    report = Report(len(expected))
    report.missing = sorted(set(expected) - set(actual))
    report.extra = sorted(set(actual) - set(expected))
    for name in sorted(set(expected) & set(actual)):
        want, got = expected[name], actual[name]
        if want["sha256"] == got["sha256"]:
            continue
        if "csv" in want and "csv" in got:
            report.changed[name] = csv_difference(want["csv"], got["csv"])
        elif "text" in want and "text" in got:
            report.changed[name] = text_difference(want["text"], got["text"])
        else:
            report.changed[name] = [(f"sha256 {got['sha256'][:16]}..., expected {want['sha256'][:16]}...; "
                                     f"{got['size']} bytes, expected {want['size']}")]
    return report


# --- the clean rebuild ------------------------------------------------------------

def _git_lines(args, cwd, env=None):
    run = subprocess.run(["git", *args], check=False, cwd=cwd, env=env, capture_output=True)
    if run.returncode != 0:
        raise RuntimeError(f"{cwd}: git {' '.join(args)}: {run.stderr.decode().strip()}")
    return [n for n in run.stdout.decode().split("\0") if n]


def source_files(repo):
    """The sources of `repo`: tracked and untracked files that git does not ignore.
    A folder that is no git checkout of its own (an unpacked copy, a test's copy) is
    listed through a throwaway git folder, by its .gitignore."""
    repo = Path(repo).resolve()
    top = subprocess.run(["git", "rev-parse", "--show-toplevel"], cwd=repo, capture_output=True, text=True,
                         check=False)
    if top.returncode == 0 and Path(top.stdout.strip()).resolve() == repo:
        names = _git_lines(["ls-files", "-co", "--exclude-standard", "-z"], repo)
    else:
        with tempfile.TemporaryDirectory() as tmp:
            env = dict(os.environ, GIT_DIR=str(Path(tmp) / "git"), GIT_WORK_TREE=str(repo))
            _git_lines(["init", "-q"], repo, env)
            names = _git_lines(["ls-files", "-co", "--exclude-standard", "-z"], repo, env)
    return [n for n in names if (repo / n).is_file()]


def copy_sources(repo, dst):
    repo, dst = Path(repo), Path(dst)
    for name in source_files(repo):
        (dst / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(repo / name, dst / name)
    return dst


def rebuild(repo, work, cores="2", python=sys.executable, source=None):
    """Copy the sources of `repo` to `work` and build and publish there, as `make site` does (with
    `source`, a dictionary kept elsewhere: built into work/out, as `make site SOURCE= OUT=` does).
    Returns (ok, output)."""
    copy_sources(repo, work)
    env = dict(os.environ, PYTHONPATH=str(Path(work) / "src"))
    env.pop("SNAKEMAKE_OUTPUT_CACHE", None)      # recompute everything: no trained results from a cache
    extra = ["--source", str(source), "--out", str(Path(work) / "out")] if source else []
    run = subprocess.run([python, "-m", "glossary.build", "--cores", str(cores), *extra], cwd=work, env=env,
                         check=False, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return run.returncode == 0, run.stdout


def source_manifest(source):
    """Where a dictionary kept elsewhere keeps its manifest: the `manifest:` of its YAML file."""
    source = plan.Source(source)
    if not source.is_yaml:
        raise entries.EntryError(f"SOURCE={source.path}: a main .tex file names no manifest; point SOURCE at the "
                                 "dictionary's YAML file, with `manifest: <path>` in it")
    config = source.config
    if not config.get("manifest"):
        raise entries.EntryError(f"{source.path}: manifest: missing; add `manifest: site.manifest.json` (a path "
                                 "relative to the YAML file) for make verify and make manifest")
    return Path(config["manifest"])


# --- the platform -----------------------------------------------------------------

PROBE = """
import json, os, sys
sys.path.insert(0, sys.argv[1])
import numpy, threadpoolctl
from numpy._core._multiarray_umath import __cpu_baseline__, __cpu_dispatch__, __cpu_features__
blas = [i for i in threadpoolctl.threadpool_info() if i["user_api"] == "blas"]
try:    # the environment the process started with: glibc read its tunables from it
    start = dict(v.split("=", 1) for v in open("/proc/self/environ").read().split("\\0") if "=" in v)
except OSError:
    start = {}
print(json.dumps({"numpy": numpy.__version__, "tunables": start.get("GLIBC_TUNABLES"),
                  "baseline": list(__cpu_baseline__),
                  "dispatch": [f for f in __cpu_dispatch__ if __cpu_features__.get(f)],
                  "blas": [{k: i.get(k) for k in ("internal_api", "version", "architecture",
                            "num_threads", "filepath")} for i in blas]}))
"""


def cpu_model():
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith(("model name", "Processor", "CPU part")):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def locked_mismatches(lock):
    """Installed packages whose version differs from requirements.lock."""
    out = []
    for line in Path(lock).read_text().splitlines():
        line = line.split("#")[0].strip()
        if "==" not in line:
            continue
        name, want = (s.strip() for s in line.split("==", 1))
        try:
            have = metadata.version(name)
        except metadata.PackageNotFoundError:
            have = None
        if have != want:
            out.append(f"{name} {have or 'not installed'} (locked: {want})")
    return out


def platform_lines(repo, python=sys.executable):
    """What verify ran on: machine, CPU, Python, numpy and OpenBLAS as a pinned job sees them."""
    repo = Path(repo)
    pinned = yaml.safe_load((repo / "config.yaml").read_text())["numeric_env"]
    env = dict(os.environ)
    numeric.apply(pinned, env)
    lines = [(f"platform: {platform.system()} {platform.machine()}, {cpu_model()}, "
              f"Python {platform.python_version()}, {' '.join(platform.libc_ver()) or 'no glibc'}")]
    run = subprocess.run([python, "-c", PROBE, str(repo / "src")], env=env, capture_output=True, text=True,
                         check=False)
    if run.returncode == 0:
        probe = json.loads(run.stdout)
        lines.append(f"numpy {probe['numpy']}: baseline {' '.join(probe['baseline'])}, dispatches under "
                     f"the pin to {' '.join(probe['dispatch']) or 'nothing beyond the baseline'}")
        for b in probe["blas"]:
            lines.append(f"BLAS under the pin: {b['internal_api']} {b['version']}, "
                         f"{b['architecture']} kernels, {b['num_threads']} thread(s) "
                         f"({Path(b['filepath'] or '?').name})")
        lines.append(f"libm: GLIBC_TUNABLES={probe['tunables'] or '(none)'} at the start of a pinned job")
    else:
        lines.append("numpy/OpenBLAS: could not be probed: " + (run.stderr.strip().splitlines() or ["?"])[-1])
    lock = repo / "requirements.lock"
    if lock.is_file():
        wrong = locked_mismatches(lock)
        lines.append("packages: as locked" if not wrong else "packages not as locked: " + "; ".join(wrong))
    if platform.system() != "Linux" or platform.machine() not in ("x86_64", "AMD64"):
        lines.append("this is not x86-64 Linux: differences are expected here")
    lines.append(PROMISE)
    return lines


# --- the command ------------------------------------------------------------------

def main(argv=None, repo_default=None):
    parser = argparse.ArgumentParser(
        prog="verify.py",
        description="Rebuild the site from a clean copy of the sources and compare it with the manifest.")
    parser.add_argument("--repo", type=Path, default=repo_default or Path.cwd(),
                        help="the checkout to rebuild from (default: the repository of this script)")
    parser.add_argument("--manifest", type=Path, default=None,
                        help=f"the manifest (default: REPO/{MANIFEST})")
    parser.add_argument("--update", action="store_true",
                        help="rewrite the manifest from the published site (REPO/site, or --site)")
    parser.add_argument("--site", type=Path, default=None,
                        help="with --update: the site to describe; without: compare this site "
                             "instead of rebuilding")
    parser.add_argument("--cores", default=os.environ.get("CORES", "2"))
    parser.add_argument("--source", type=Path, default=None,
                        help="a dictionary kept elsewhere: its YAML file, whose `manifest:` is the manifest")
    parser.add_argument("--keep", type=Path, default=None,
                        help="rebuild in this (new or empty) folder and keep it, instead of a temporary one")
    parser.add_argument("--format", choices=FORMATS, default="text",
                        help="the comparison's report: text (the default), markdown (e.g. for a CI job "
                             "summary) or json (which files moved, for other tools); markdown and json go "
                             "to standard output, whatever the outcome")
    args = parser.parse_args(argv)
    repo = args.repo.resolve()
    source = args.source.resolve() if args.source else None
    if source and args.manifest is None:
        try:
            args.manifest = source_manifest(source)
        except EntryError as err:
            print(f"verify: {err}", file=sys.stderr)
            return 2
    manifest_path = args.manifest or repo / MANIFEST
    name = manifest_path.name if args.manifest is None else str(manifest_path)

    if args.update:
        site = args.site or repo / "site"
        if not site.is_dir():
            print(f"verify: {site} does not exist; run `{assets.command('site')}` first", file=sys.stderr)
            return 2
        manifest = manifest_of(site)
        write_manifest(manifest_path, manifest)
        print(f"verify: wrote {name}: {len(manifest['files'])} files of {site.name}/; commit it "
              "with the change that made these bytes")
        return 0

    if not manifest_path.is_file():
        print(f"verify: no manifest {manifest_path}; make one with `{assets.command('manifest')}`",
              file=sys.stderr)
        return 2
    try:
        manifest = read_manifest(manifest_path)
    except ValueError as err:
        print(f"verify: {err}", file=sys.stderr)
        return 2

    if args.site is not None:
        return _report(compare(manifest, args.site), name, repo, args.format)
    if args.keep is not None:
        args.keep.mkdir(parents=True, exist_ok=True)
        return _rebuild_and_compare(repo, args.keep, manifest, name, args.cores, args.format, source)
    with tempfile.TemporaryDirectory(prefix="glossary-verify-") as tmp:
        return _rebuild_and_compare(repo, Path(tmp) / "glossary", manifest, name, args.cores, args.format, source)


def _rebuild_and_compare(repo, work, manifest, name, cores, fmt="text", source=None):
    # With a report for machines on standard output, the progress goes to standard error.
    # a dictionary's folder, not the installed package's copy of the build files (glossary.assets)
    print(f"verify: clean build of {(source.parent if source else repo).name} in a temporary folder ...", flush=True,
          file=sys.stdout if fmt == "text" else sys.stderr)
    try:
        ok, output = rebuild(repo, work, cores, source=source)
    except (OSError, RuntimeError) as err:
        print(f"verify: cannot copy the sources: {err}", file=sys.stderr)
        return 2
    if not ok:
        print(output.rstrip(), file=sys.stderr)
        print("verify: FAILED: the clean build did not finish", file=sys.stderr)
        platform = platform_lines(repo)
        if fmt == "text":
            print("\n".join(platform), file=sys.stderr)
        elif fmt == "json":
            print(jsonio.dumps({"status": "build failed", "manifest": name, "platform": platform,
                                "output": output.rstrip().splitlines()[-BUILD_TAIL:]}), end="")
        else:
            print("\n".join(["## make verify: FAILED: the clean build did not finish", "", "```"]
                            + output.rstrip().splitlines()[-BUILD_TAIL:] + ["```"]
                            + _markdown_platform(platform)))
        return 2
    return _report(compare(manifest, Path(work) / ("out/site" if source else "site")), name, repo, fmt)


def _report(report, name, repo, fmt="text"):
    platform = None if report.ok else platform_lines(repo)
    if fmt == "json":
        print(jsonio.dumps(report.as_dict(name, platform)), end="")
    elif fmt == "markdown":
        print("\n".join(report.markdown(name, platform)))
    elif report.ok:
        print(report.lines(name)[0])
    else:
        print("\n".join(report.lines(name)), file=sys.stderr)
        print("\n".join(platform), file=sys.stderr)
    return 0 if report.ok else 1
