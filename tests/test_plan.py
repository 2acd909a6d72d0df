"""The build's plan (glossary.plan): what SOURCE= names is decided once, the YAML file is parsed once,
and the rule files hold rules by stage with their input functions in common.smk, none unused."""
import os
import re
import shutil
from pathlib import Path

import pytest
from conftest import REPO

from glossary import plan, stamp, texdict
from glossary.entries import EntryError

FIXTURE = REPO / "tests" / "fixtures" / "texdict"
RULES = REPO / "workflow" / "rules"
CONFIG = {"entries_dir": "entries", "site_title": "T", "site_description": "d", "batch_size": 48}


@pytest.fixture
def reads(monkeypatch):
    """The calls of texdict.read_config: each one parses the YAML file."""
    calls = []
    real = texdict.read_config
    monkeypatch.setattr(texdict, "read_config", lambda path: calls.append(path) or real(path))
    return calls


def test_a_yaml_source_is_parsed_once_for_every_question(reads):
    source = plan.Source(FIXTURE / "dictionary.yaml")
    assert source.is_yaml and source.main == FIXTURE / "TinyDict_Main.tex"
    assert source.language == "en" and source.editions == {}
    assert plan.edition_runs(source) == [{"lang": "en", "source": str(source.path), "prefix": "", "folder": "."}]
    assert source.roots(REPO)[1:] == [(str(FIXTURE), ["dictionary.yaml"]), (str(FIXTURE), ["."])]
    read = source.read()
    assert read["config"]["demos"]["gd"]["kind"] == "plain"
    assert len(reads) == 1
    assert sorted(read["entries"]) == sorted(texdict.read(source.main)["entries"])     # the main file's terms


def test_a_main_tex_file_is_its_own_main_and_no_yaml_is_read(reads):
    source = plan.Source(FIXTURE / "TinyDict_Main.tex")
    assert not source.is_yaml and source.main == FIXTURE / "TinyDict_Main.tex"
    assert source.read()["config"] == {"main": str(FIXTURE / "TinyDict_Main.tex"), "demos": {}}
    assert reads == []


def test_the_stamp_hashes_the_folder_of_the_main_file_the_yaml_names(tmp_path):
    (tmp_path / "tex").mkdir()
    (tmp_path / "tex" / "Main.tex").write_text("\\documentclass{article}\n")
    (tmp_path / "site.yaml").write_text("main: tex/Main.tex\n")
    roots = stamp.source_roots(REPO, tmp_path / "site.yaml")
    assert roots == [(str(REPO), plan.SOURCES), (str(tmp_path), ["site.yaml"]), (str(tmp_path / "tex"), ["."])]


def test_no_source_is_the_repositorys_own_entries():
    source = plan.Source(None)
    assert not source and source.main is None and source.roots(REPO) == [(str(REPO), plan.SOURCES)]
    assert plan.edition_runs(source) == [{"lang": "en", "source": None, "prefix": "", "folder": "."}]
    with pytest.raises(ValueError, match="give its SOURCE= too"):
        plan.edition_runs(source, "de=x.tex")


def test_a_source_that_is_neither_tex_nor_yaml_is_refused(tmp_path):
    other = tmp_path / "dictionary.txt"
    other.write_text("x")
    with pytest.raises(EntryError, match="its main .tex file or a .yaml config"):
        plan.Source(other).read()


def test_a_demo_for_a_key_the_dictionary_lacks_is_named_with_the_closest(tmp_path):
    source = tmp_path / "dict"      # a copy: the YAML file names only files in its folder
    shutil.copytree(FIXTURE, source)
    (source / "demo.py").write_text("print(1)\n")
    (source / "d.yaml").write_text("main: TinyDict_Main.tex\n"
                                   "demos:\n  gradient-descnt: {script: demo.py, kind: plain}\n")
    with pytest.raises(EntryError, match="demos.gradient-descnt: no term has the key"):
        plan.Source(source / "d.yaml").read()


def test_the_plan_of_the_fixture_names_every_file_of_its_site():
    p = plan.Plan.from_config(dict(CONFIG, source=str(FIXTURE / "dictionary.yaml")), REPO)
    files = p.site_files()
    assert len(files) == len(set(files))
    for slug in p.entries:
        assert {f"results/site/terms/{slug}.{x}" for x in ("html", "md", "pdf")} <= set(files)
    # gd's plain demo: its script, notebook, data and the image the YAML file's demo gives it
    assert {"results/site/terms/gd.py", "results/site/terms/gd.ipynb", "results/site/terms/gd/gd.png"} <= set(files)
    sections = [f"results/site/sections/{s}.html" for s in p.reading_sections()]
    assert sections and set(sections) <= set(files)
    assert p.plain_slugs() == ["gd"] and p.demo(p.plain_slugs()[0]).endswith("demos/gd_demo.py")
    # the pages sitemap.xml lists are the staged HTML pages, each once
    pages = p.site_pages()
    assert sorted(pages) == sorted(f[len("results/site/"):] for f in files if f.endswith(".html"))


def test_the_rule_files_are_the_snakefiles_includes():
    included = re.findall(r'^include: "workflow/rules/(\w+\.smk)"', (REPO / "Snakefile").read_text(), re.M)
    assert sorted(included) == sorted(p.name for p in RULES.glob("*.smk"))
    assert included[0] == "common.smk"


def test_every_input_function_is_in_common_smk_and_used():
    """The rule files hold rules only; every function common.smk defines is called by some rule."""
    for path in RULES.glob("*.smk"):
        if path.name != "common.smk":
            assert not re.search(r"^def ", path.read_text(), re.M), f"{path.name} defines a function"
    common = (RULES / "common.smk").read_text()
    rules = "\n".join(p.read_text() for p in RULES.glob("*.smk") if p.name != "common.smk")
    defined = re.findall(r"^def (\w+)", common, re.M)
    assert defined
    for name in defined:
        used = re.search(rf"\b{name}\b", rules) or len(re.findall(rf"\b{name}\(", common)) > 1
        assert used, f"common.smk's {name} is called by no rule"


def test_one_stage_one_file():
    """Each batch rule sits with the rules of its stage."""
    homes = {"prose": "prose.smk", "page": "pages.smk", "section": "print.smk", "print": "print.smk",
             "pictures": "figures.smk"}
    for stage, home in homes.items():
        holders = [p.name for p in RULES.glob("*.smk") if f'f"{stage}_{{batch}}"' in p.read_text()]
        assert holders == [home], (stage, holders)


def test_the_sources_site_facts_are_the_plans_without_reading_the_terms(reads):
    source = plan.Source(FIXTURE / "dictionary.yaml")
    site = dict(plan.Plan(source, config=CONFIG, repo=REPO).site)
    assert {site.pop("notation"), site.pop("abbreviations")} <= {True, False}
    assert source.site_facts() == site and site["title"] == "A Tiny Dictionary of Machine Learning"
    assert len(reads) == 1


def test_what_the_catalog_writes_is_read_after_it_ran():
    """Rule catalog is a checkpoint, and every rule reads catalog.json and the batches' views through
    common.smk's after_catalog: Snakemake decides on those readers once the catalog ran, so one run of
    it serves an edit (glossary.build runs it once)."""
    prose = (RULES / "prose.smk").read_text()
    assert re.search(r"^checkpoint catalog:", prose, re.M)
    readers = 0
    for path in RULES.glob("*.smk"):
        text = re.sub(r"(?s)^checkpoint catalog:.*?\n\n\n", "", path.read_text(), flags=re.M)   # its outputs
        for line in text.splitlines():
            if re.search(r"plan\.CATALOG\b|view_path\(", line):
                assert "=after_catalog(" in line.replace(" ", ""), f"{path.name}: {line.strip()}"
                readers += 1
    # the page batches and catalog_pages (the search index makes its own; the print edition reads names.json)
    assert readers >= 2


def test_the_plan_finds_unchanged_snapshots_by_their_stat_and_rewrites_changed_ones(tmp_path, monkeypatch):
    """Each build's plan writes every entry's two snapshots (its model, its pictures) only when their text
    changes.  Its record of what it wrote lets it find an unchanged file by a stat, without reading it; a
    file changed, removed or replaced behind its back is written again, and so is every file after a record
    cut short."""
    from glossary import dictionary
    built = plan.Plan.from_config({"source": str(FIXTURE / "dictionary.yaml")}, REPO)
    built.write_snapshots(tmp_path)
    slugs = sorted(built.entries)
    snapshots = [dictionary.snapshot_path(s) for s in slugs] + [dictionary.pictures_snapshot_path(s) for s in slugs]
    made = {name: (tmp_path / name).read_bytes() for name in snapshots}
    assert (tmp_path / dictionary.WRITTEN).is_file()
    compared = []       # the files the plan opens, to read or write (a snapshot's temporary file: <name>.<pid>.tmp)

    def opened(path, mode="r", *args, **kwargs):
        if Path(path).is_relative_to(tmp_path):
            compared.append(str(Path(path).relative_to(tmp_path)))
        return open(path, mode, *args, **kwargs)
    monkeypatch.setattr(dictionary, "open", opened, raising=False)

    def again():
        compared.clear()
        plan.Plan.from_config({"source": str(FIXTURE / "dictionary.yaml")}, REPO).write_snapshots(tmp_path)
        assert {name: (tmp_path / name).read_bytes() for name in snapshots} == made
        return sorted(n for n in snapshots if any(c == n or c.startswith(f"{n}.") for c in compared))

    assert again() == []            # none read: each one's stat is the record's
    changed, removed, replaced = snapshots[0], snapshots[-1], snapshots[1]
    (tmp_path / changed).write_bytes(made[changed].replace(b"{", b"{ ", 1))
    (tmp_path / removed).unlink()
    st = (tmp_path / replaced).stat()     # the same bytes, touched: its time is not the record's
    os.utime(tmp_path / replaced, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))
    assert again() == sorted([changed, removed, replaced])
    assert again() == []
    (tmp_path / dictionary.WRITTEN).write_text('{"results/_entries/')      # a record cut short
    assert again() == sorted(snapshots)
    assert again() == []
