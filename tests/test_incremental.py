"""Incremental equals clean (issue 25): after a sequence of edits, each built in turn in one folder (a
term added, one renamed, one deleted, a demo attached then detached, a picture added then removed),
the published site/ is byte-identical, file for file, to a clean build of the final sources in
another folder, and the staged results/site holds the same files: nothing the deleted sources made is
left behind.  A link to a deleted term stays an error and leaves site/ as it was.  One test a
side: the fixture LaTeX dictionary (its YAML `demos:`), and a Markdown dictionary (entries/, a
demo beside its entry.md, a ```tikz picture).  The builds are real (`python -m glossary.build`)."""
import os
import shutil
import subprocess
import sys

import pytest
from conftest import REPO, copy_repo, tree_bytes
from test_plain_demo import LR_YAML

from glossary import publish, stamp

FIXTURE = REPO / "tests" / "fixtures" / "texdict"

# A term added to the fixture, and a picture given to a term that has none (then taken away).
EPOCH = r"""
\newglossaryentry{epoch}
{name={epoch},
	description={An epoch\index{epoch} is one pass of \gls{gd} over the \gls{dataset}.},
	type=models,
	text={epoch}
}
"""
MSE_END = r"See also: \gls{norm}, \gls{loss function}.},"
MSE_PICTURE = r"""\begin{figure}[H]
			\centering
			\begin{tikzpicture}
				\draw[->] (0,0) -- (2,1) node[right] {error};
			\end{tikzpicture}
			\caption{The errors of a \gls{model} as one arrow.}
		\end{figure}
		""" + MSE_END


def build(cwd, *args):
    """`make site` (glossary.build) in cwd, with cwd's own src/ on the path when it has one."""
    src = cwd / "src" if (cwd / "src").is_dir() else REPO / "src"
    env = dict(os.environ, PYTHONPATH=str(src))
    for name in ("GLOSSARY_EVENTS", "SNAKEMAKE_OUTPUT_CACHE"):
        env.pop(name, None)
    return subprocess.run([sys.executable, "-m", "glossary.build", "--cores", "2", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=900)


def built(cwd, *args):
    run = build(cwd, *args)
    assert run.returncode == 0, f"build failed:\n{run.stdout[-3000:]}\n{run.stderr[-3000:]}"
    return run


def edit(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, (path, old)
    path.write_text(text.replace(old, new), encoding="utf-8")


def without_term(path, key):
    """`path` without the \\newglossaryentry of `key` (up to the next one, or the file's end)."""
    text = path.read_text(encoding="utf-8")
    start = text.index(f"\\newglossaryentry{{{key}}}")
    end = text.find("\\newglossaryentry{", start + 1)
    path.write_text(text[:start] + (text[end:] if end > 0 else ""), encoding="utf-8")


def staged(root):
    return publish.names(root / "results/site")


def assert_same_as_clean(incremental, clean):
    """incremental's site/ and staged tree hold exactly clean's files, with the same bytes."""
    got, want = tree_bytes(incremental / "site"), tree_bytes(clean / "site")
    assert sorted(set(got) - set(want)) == [], "left behind"
    assert sorted(set(want) - set(got)) == [], "missing"
    assert [name for name in want if got[name] != want[name]] == []
    assert staged(incremental) == staged(clean)


@pytest.mark.slow
def test_latex_dictionary_edited_equals_its_clean_build(tmp_path):
    src, out = shutil.copytree(FIXTURE, tmp_path / "dict"), tmp_path / "out"
    config, audit = src / "dictionary.yaml", src / "TinyDict_Audit.tex"
    originals = {p: p.read_text(encoding="utf-8") for p in (config, audit, src / "TinyDict_Numbers.tex")}
    # its book in pieces (glossary.bookrun), so that each piece's kept runs are checked too
    (tmp_path / "pieces.yaml").write_text("book_piece: 4\n")
    (tmp_path / "profile").mkdir()
    (tmp_path / "profile/config.yaml").write_text(f"cores: 2\nconfigfile: [{tmp_path / 'pieces.yaml'}]\n")
    profile = ("--profile", str(tmp_path / "profile"))
    built(REPO, "--source", str(config), "--out", str(out), *profile)
    assert len(list((out / "results/print/book").glob("body-*.tex"))) > 3
    terms = out / "site/terms"
    assert {"iid.html", "pipeline.html", "pipeline/graphics/1.png", "pipeline/pictures/1.svg"} <= {
        p.relative_to(terms).as_posix() for p in terms.rglob("*")}

    # A term added, one renamed (its key), one deleted (with its picture and graphic), the lr demo
    # attached through the YAML file's demos:, a picture drawn in a term that had none.
    with open(src / "TinyDict_Models.tex", "a", encoding="utf-8") as f:
        f.write(EPOCH)
    edit(audit, r"\newglossaryentry{iid}", r"\newglossaryentry{iidsample}")
    without_term(audit, "pipeline")
    config.write_text(originals[config].rstrip("\n") + "\n" + LR_YAML, encoding="utf-8")
    edit(audit, MSE_END, MSE_PICTURE)
    built(REPO, "--source", str(config), "--out", str(out), *profile)
    names = {p.relative_to(terms).as_posix() for p in terms.rglob("*")}
    assert {"epoch.html", "iidsample.pdf", "learningrate.py", "learningrate.ipynb", "learningrate/data/lr_steps.csv",
            "learningrate/figures/steps.svg", "mse/pictures/1.svg"} <= names
    assert not {n for n in names if n.startswith(("iid.", "iid/", "pipeline"))}

    # A link to a deleted term is an error: the build stops, site/ stays as it was.
    before = tree_bytes(out / "site")
    without_term(src / "TinyDict_Numbers.tex", "stepsize")       # leastsquares links to it
    run = build(REPO, "--source", str(config), "--out", str(out), *profile)
    assert run.returncode != 0 and "stepsize" in run.stderr, run.stdout[-2000:] + run.stderr[-2000:]
    assert tree_bytes(out / "site") == before
    (src / "TinyDict_Numbers.tex").write_text(originals[src / "TinyDict_Numbers.tex"], encoding="utf-8")

    # The demo detached, the picture taken away again.
    config.write_text(originals[config], encoding="utf-8")
    edit(audit, MSE_PICTURE, MSE_END)
    built(REPO, "--source", str(config), "--out", str(out), *profile)

    clean_src = shutil.copytree(src, tmp_path / "clean-dict")
    built(REPO, "--source", str(clean_src / "dictionary.yaml"), "--out", str(tmp_path / "clean"), *profile)
    assert_same_as_clean(out, tmp_path / "clean")


def entry(title, prose, extra=""):
    return f"---\ntitle: {title}\nsummary: {title}, in one line.\n{extra}---\n{prose}\n"


PICTURE = "\n```tikz\n% caption: Two steps.\n\\draw[->] (0,0) -- (1,0) -- (1,1);\n```\n"


@pytest.mark.slow
def test_markdown_dictionary_edited_equals_its_clean_build(tmp_path):
    root = copy_repo(tmp_path / "md")
    shutil.rmtree(root / "entries")
    texts = {"alpha": entry("Alpha", "Alpha comes before [[beta]]."), "beta": entry("Beta", "Beta follows alpha."),
             "gamma": entry("Gamma", "Gamma is the third."), "delta": entry("Delta", "Delta is the fourth."),
             "omega": entry("Omega", "Omega is the last.")}
    for slug, text in texts.items():
        (root / "entries" / slug).mkdir(parents=True)
        (root / "entries" / slug / "entry.md").write_text(text, encoding="utf-8")
    built(root)

    # zeta added, beta renamed beta-two (alpha's link with it), omega deleted, gamma given a demo (the
    # skeleton of `make new-entry`), delta a picture.
    entries = root / "entries"
    (entries / "zeta").mkdir()
    (entries / "zeta/entry.md").write_text(entry("Zeta", "Zeta is new."), encoding="utf-8")
    (entries / "beta").rename(entries / "beta-two")
    edit(entries / "alpha/entry.md", "[[beta]]", "[[beta-two]]")
    shutil.rmtree(entries / "omega")
    shutil.rmtree(entries / "gamma")
    made = subprocess.run([sys.executable, "scripts/new_entry.py", "gamma"], cwd=root, capture_output=True, text=True)
    assert made.returncode == 0, made.stderr
    (entries / "delta/entry.md").write_text(texts["delta"] + PICTURE, encoding="utf-8")
    built(root)
    terms = root / "site/terms"
    names = {p.relative_to(terms).as_posix() for p in terms.rglob("*")}
    assert {"zeta.html", "beta-two.md", "gamma.py", "gamma.ipynb", "gamma/gamma.png", "gamma/data/gamma_loss.csv",
            "gamma/figures/loss.png", "delta/pictures/1.svg"} <= names
    assert not {n for n in names if n.startswith(("beta.", "omega"))}

    # gamma's demo detached, delta's picture taken away.
    (entries / "gamma/gamma.py").unlink()
    (entries / "gamma/entry.md").write_text(texts["gamma"], encoding="utf-8")
    (entries / "delta/entry.md").write_text(texts["delta"], encoding="utf-8")
    built(root)

    clean = copy_repo(tmp_path / "clean")
    shutil.rmtree(clean / "entries")
    shutil.copytree(entries, clean / "entries")
    built(clean)
    assert_same_as_clean(root, clean)


def test_publish_takes_the_listed_files_and_prunes_the_staged_tree(tmp_path):
    staged, site = tmp_path / "results/site", tmp_path / "site"
    for name in ("index.html", "terms/a.html", "terms/a/data/x.csv", "terms/a/data/.snakemake_timestamp",
                 "terms/gone.html", "terms/gone/pictures/1.svg"):
        (staged / name).parent.mkdir(parents=True, exist_ok=True)
        (staged / name).write_text(name)
    listed = [staged / "index.html", staged / "terms/a.html", staged / "terms/a/data"]
    publish.write_listing(listed, staged)
    assert publish.publish(staged, site) is True
    assert sorted(tree_bytes(site)) == ["index.html", "terms/a.html", "terms/a/data/x.csv"]
    # The staged tree is pruned as a clean build leaves it: the folder Snakemake made keeps its mark.
    assert sorted(p.relative_to(staged).as_posix() for p in staged.rglob("*")) == [
        "index.html", "terms", "terms/a", "terms/a.html", "terms/a/data", "terms/a/data/.snakemake_timestamp",
        "terms/a/data/x.csv"]
    assert publish.publish(staged, site) is False
    # A file the plan lists and the build did not make (a dry run): nothing published, nothing pruned.
    publish.write_listing(listed + [staged / "terms/b.html"], staged)
    (staged / "terms/stale.html").write_text("stale")
    before = tree_bytes(site)
    with pytest.raises(publish.Unbuilt, match="terms/b.html"):
        publish.publish(staged, site)
    assert tree_bytes(site) == before and (staged / "terms/stale.html").is_file()


def test_a_dry_run_publishes_nothing_and_succeeds(tmp_path):
    """`-- --dry-run` plans the build and stops: no site/ is made, and the run is no failure."""
    run = build(REPO, "--source", str(FIXTURE / "dictionary.yaml"), "--out", str(tmp_path), "--", "--dry-run")
    assert run.returncode == 0, run.stderr[-2000:]
    assert "a dry run" in run.stdout and "Traceback" not in run.stderr
    assert not (tmp_path / "site").exists()


def test_publish_compares_only_the_files_changed_since_it_last_looked(tmp_path, monkeypatch):
    """A publish reads and compares the bytes only of the files whose size, time or inode changed since
    the last publish recorded them (results/published.json); a file written less than a second before
    that record is compared again, so that an edit in the same clock tick is still published."""
    staged, site = tmp_path / "results/site", tmp_path / "site"
    for name in ("index.html", "terms/a.html", "terms/b.html"):
        (staged / name).parent.mkdir(parents=True, exist_ok=True)
        (staged / name).write_text(name)
    assert publish.publish(staged, site) is True
    old = os.stat(staged / "index.html").st_mtime_ns - 10**10        # as if written ten seconds ago
    for path in [*staged.rglob("*.html"), *site.rglob("*.html")]:
        os.utime(path, ns=(old, old))
    assert publish.publish(staged, site) is False      # records them, now old enough to trust
    compared, same_file = [], publish.same_file
    monkeypatch.setattr(publish, "same_file",
                        lambda a, b: compared.append(os.path.relpath(a, staged)) or same_file(a, b))
    (staged / "terms/a.html").write_text("terms/a.html, edited")
    assert publish.publish(staged, site) is True
    assert compared == ["terms/a.html"] and (site / "terms/a.html").read_text() == "terms/a.html, edited"
    # The same size, in place, and its time set back to what the last publish saw: that publish did
    # not record a time so recent, so the bytes are compared and the edit published.
    seen = os.stat(staged / "terms/a.html").st_mtime_ns
    (staged / "terms/a.html").write_text("terms/a.html, EDITED")
    os.utime(staged / "terms/a.html", ns=(seen, seen))
    assert publish.publish(staged, site) is True and (site / "terms/a.html").read_text() == "terms/a.html, EDITED"
    assert tree_bytes(site) == tree_bytes(staged)


def test_the_stamp_records_the_published_files_as_a_walk_of_site_finds_them(tmp_path):
    """The publish hands the stamp each published file's size, time and inode (glossary.publish's
    `stats`), so that the stamp need not walk site/ again: through publishes that copy, link and keep
    files, they are what a walk of site/ finds, and so the stamp's record and its digest."""
    staged, site = tmp_path / "results/site", tmp_path / "site"
    for name in ("index.html", "terms/a.html", "terms/b.html", "terms/a/pictures/1.svg"):
        (staged / name).parent.mkdir(parents=True, exist_ok=True)
        (staged / name).write_text(name)
    for edit in (None, "terms/a.html", "terms/a/pictures/1.svg", "index.html"):
        if edit:
            (staged / edit).write_text(f"{edit}, edited")
        given = {}
        assert publish.publish(staged, site, stats=given) is True
        walked = stamp.hashes(tmp_path, [stamp.SITE])
        handed = stamp.hashes(tmp_path, [stamp.SITE], given={f"site/{rel}": st for rel, st in given.items()})
        assert handed == walked and handed.stats == walked.stats and len(given) == 4
        assert stamp.digest(handed) == stamp.digest(walked)


def test_publish_links_the_files_it_keeps_and_copies_the_changed(tmp_path):
    """An edit publishes a whole new site/ swapped in at once; the files the old one held byte for byte are
    linked from it, not copied again, and no published file shares its inode with the staged tree."""
    staged, site = tmp_path / "results/site", tmp_path / "site"
    for name in ("index.html", "terms/a.html", "terms/b.html"):
        (staged / name).parent.mkdir(parents=True, exist_ok=True)
        (staged / name).write_text(name)
    assert publish.publish(staged, site) is True
    before = {name: (site / name).stat().st_ino for name in ("index.html", "terms/a.html", "terms/b.html")}
    (staged / "terms/a.html").write_text("a, edited")
    assert publish.publish(staged, site) is True
    assert (site / "terms/a.html").read_text() == "a, edited" and (site / "terms/b.html").read_text() == "terms/b.html"
    assert (site / "terms/b.html").stat().st_ino == before["terms/b.html"]
    assert (site / "terms/a.html").stat().st_ino != before["terms/a.html"]
    staged_inodes = {p.stat().st_ino for p in staged.rglob("*") if p.is_file()}
    assert not staged_inodes & {p.stat().st_ino for p in site.rglob("*") if p.is_file()}
    assert {oct(p.stat().st_mode & 0o777) for p in site.rglob("*") if p.is_file()} == {"0o644"}
    # the modes whatever the staged files' and the umask: a copied file's is set, a linked one keeps its
    old_umask = os.umask(0o077)
    try:
        (staged / "terms/b.html").write_text("b, edited")
        (staged / "terms/b.html").chmod(0o600)
        (staged / "terms/c").mkdir()
        (staged / "terms/c/d.html").write_text("d")
        assert publish.publish(staged, site) is True
    finally:
        os.umask(old_umask)
    assert {oct(p.stat().st_mode & 0o777) for p in site.rglob("*") if p.is_file()} == {"0o644"}
    assert {oct(p.stat().st_mode & 0o777) for p in [site, *site.rglob("*")] if p.is_dir()} == {"0o755"}


def test_publish_brings_the_site_before_the_last_up_to_date(tmp_path):
    """The site as it was before the last publish stays beside the staged tree (publish.SPARE) and the
    next publish is made in it: through a sequence of edits (a file changed, added, removed, a file
    that becomes a folder and a folder that becomes a file, a spare that is gone or a file in it
    changed by hand) each published site is the staged one, the spare holds the site it replaced, and
    no published file is written in place: what the spare shares with the site is its published files."""
    staged, site = tmp_path / "results/site", tmp_path / "site"
    spare = staged.with_name(publish.SPARE)

    def stage(files):
        shutil.rmtree(staged, ignore_errors=True)
        for name, text in files.items():
            (staged / name).parent.mkdir(parents=True, exist_ok=True)
            (staged / name).write_text(text)
        publish.write_listing([staged / n for n in files], staged)

    steps = [
        {"index.html": "i", "terms/a.html": "a", "terms/a/pictures/1.svg": "1", "terms/b.html": "b"},
        {"index.html": "i", "terms/a.html": "a, edited", "terms/a/pictures/1.svg": "1", "terms/b.html": "b"},
        {"index.html": "i", "terms/a.html": "a, edited", "terms/c.html": "c", "terms/b.html": "b"},
        {"index.html": "i2", "terms/a.html": "a, edited", "terms/c.html": "c", "terms/b": "b, a file now"},
        {"index.html": "i2", "terms/a.html": "a", "terms/c.html/x.html": "a folder now", "terms/b": "b"},
        {"index.html": "i3", "terms/a.html": "a", "terms/b": "b"},
    ]
    published = None
    for i, files in enumerate(steps):
        stage(files)
        if i == 4:
            shutil.rmtree(spare)                                   # gone: made anew
        if i == 5:
            (spare / "terms/b").unlink()
            (spare / "terms/b").write_text("changed by hand")     # a file of its own, not the site's
        assert publish.publish(staged, site) is True
        assert tree_bytes(site) == {n: t.encode() for n, t in files.items()}, i
        if published is not None and i != 4:
            assert tree_bytes(spare) == published, i
        shared = {p.stat().st_ino for p in spare.rglob("*") if p.is_file()} & {
            p.stat().st_ino for p in site.rglob("*") if p.is_file()}
        assert shared == {(site / n).stat().st_ino for n in files
                          if (spare / n).is_file() and (spare / n).read_bytes() == (site / n).read_bytes()}, i
        assert {oct(p.stat().st_mode & 0o777) for p in [site, *site.rglob("*")] if p.is_dir()} == {"0o755"}
        published = tree_bytes(site)
    assert publish.publish(staged, site) is False
