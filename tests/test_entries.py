"""Entry metadata: every mistake stops the build before any job runs, with one message
naming the file, the field and the fix; after the export job the demo's CSVs are held
to the `csv` field."""
import copy
import os
import subprocess

import pytest
import yaml
from conftest import BIN, REPO, copy_repo, snakemake

from glossary import entries

SCHEMA = REPO / "workflow" / "schemas" / "entry.schema.yaml"

ALPHA = {
    "title": "Alpha",
    "summary": "The first letter.",
    "demo": "alpha.py",
    "see_also": ["beta"],
    "csv": [{"name": "alpha_loss.csv", "columns": ["iter", "loss"]},
            {"name": "alpha_grid.csv", "columns": ["q", "k", "w"]}],
    "figures": [
        {"name": "loss", "kind": "line", "csv": "alpha_loss.csv", "x": "iter", "y": "loss",
         "caption": "Loss.", "alt": "A falling line."},
        {"name": "grid", "kind": "heatmap", "csv": "alpha_grid.csv", "x": "k", "y": "q", "value": "w",
         "labels": "tokens", "caption": "Weights.", "alt": "A heat map."},
    ],
}
BETA = {
    "title": "Beta",
    "summary": "The second letter.",
    "demo": "beta.py",
    "csv": [{"name": "beta.csv", "columns": ["pos", "one", "two"]}],
    "figures": [{"name": "bars", "kind": "bar", "csv": "beta.csv", "x": "pos", "y": ["one", "two"],
                 "labels": "tokens", "legend": ["one", "two"], "caption": "Bars.", "alt": "Bars."}],
}


def write_entry(root, slug, meta, body="Some *prose*.\n"):
    folder = root / "entries" / slug
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "entry.md").write_text("---\n" + yaml.safe_dump(meta, sort_keys=False) + "---\n" + body)
    if isinstance(meta, dict) and isinstance(meta.get("demo"), str):
        (folder / meta["demo"]).write_text("def prepare():\n    return {}\n")
    return folder


@pytest.fixture
def site(tmp_path, monkeypatch):
    """A folder with entries/alpha and entries/beta, both valid; the tests run from it,
    so messages name `entries/...` as a build does."""
    write_entry(tmp_path, "alpha", ALPHA)
    write_entry(tmp_path, "beta", BETA)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def load():
    return entries.load_all("entries", SCHEMA)


def error_of(site, change, slug="alpha", base=ALPHA):
    """The message load_all gives once `change` has edited a copy of the entry's metadata."""
    meta = copy.deepcopy(base)
    change(meta)
    write_entry(site, slug, meta)
    with pytest.raises(entries.EntryError) as info:
        load()
    message = str(info.value)
    assert "\n" not in message, "one message, one line"
    return message


def test_valid_entries_load(site):
    loaded = load()
    assert list(loaded) == ["alpha", "beta"]
    assert loaded["alpha"]["csv"] == ALPHA["csv"]
    assert loaded["beta"]["see_also"] == [] and loaded["beta"]["preview"] == "beta.png"
    assert loaded["alpha"]["path"] == "entries/alpha/entry.md"


def test_the_repository_entries_declare_their_csvs():
    loaded = entries.load_all(REPO / "entries", SCHEMA)
    assert loaded["attention"]["csv"] == [{"name": "attention_loss.csv", "columns": ["iter", "loss"]},
                                          {"name": "attention_weights.csv", "columns": ["q", "k", "w"]}]
    assert {c["name"] for c in loaded["multi-head-attention"]["csv"]} == {"mha_attention.csv", "mha_ffn_loss.csv"}


def test_unknown_field(site):
    message = error_of(site, lambda m: m.update(colour="blue"))
    assert message.startswith("entries/alpha/entry.md: colour: unknown field 'colour'; remove it or use one of: ")
    assert all(f in message.split("use one of: ")[1].split(", ") for f in ("csv", "demo", "figures", "title"))


def test_misspelt_field_suggests_the_known_one(site):
    def change(m):
        m["titel"] = m.pop("title")
    message = error_of(site, change)
    assert message.startswith("entries/alpha/entry.md: titel: unknown field 'titel'; did you mean 'title'?")


def test_unknown_field_inside_a_figure(site):
    message = error_of(site, lambda m: m["figures"][1].update(colour="red"))
    assert message.startswith("entries/alpha/entry.md: figures[1].colour: unknown field 'colour'; ")


def test_missing_title(site):
    message = error_of(site, lambda m: m.pop("title"))
    assert message == "entries/alpha/entry.md: title: missing; add it (the term, as the page heads it)"


def test_title_that_yaml_reads_as_a_number(site):
    message = error_of(site, lambda m: m.update(title=2024))
    assert message == "entries/alpha/entry.md: title: 2024 is not text; quote it, as YAML reads it as something else"


def test_first_mistake_in_file_order(site):
    def change(m):
        m["figures"] = [dict(m["figures"][0], name=f"f{i}") for i in range(12)]
        m["figures"][10]["kind"] = "pie"
        m["figures"][2]["kind"] = "donut"
    message = error_of(site, change)
    assert message.startswith("entries/alpha/entry.md: figures[2].kind: 'donut' is not one of ['line', 'heatmap', "
                              "'bar'") and message.endswith("]; pick one")


def test_missing_csv_field(site):
    message = error_of(site, lambda m: m.pop("csv"))
    assert message.startswith("entries/alpha/entry.md: csv: missing; add it (every CSV the demo's export() writes")


def test_csv_entry_without_columns(site):
    message = error_of(site, lambda m: m["csv"][1].pop("columns"))
    assert message.startswith("entries/alpha/entry.md: csv[1].columns: missing; add it")


def test_empty_csv_list(site):
    message = error_of(site, lambda m: m.update(csv=[]))
    assert message == "entries/alpha/entry.md: csv: empty; list at least one item"


@pytest.mark.parametrize("name, suggestion", [("Alpha_One", "alpha-one"), ("über", "ber"), ("a.b", "a-b")])
def test_slug_outside_the_allowed_characters(site, name, suggestion):
    write_entry(site, name, ALPHA)
    with pytest.raises(entries.EntryError) as info:
        load()
    assert str(info.value) == (f"entries/{name}: slug: the folder name {name!r} is not a slug (only a-z, 0-9 "
                               f"and '-'); rename the folder, e.g. to {suggestion!r}")


def test_hidden_folders_are_not_entries(site):
    (site / "entries" / ".ipynb_checkpoints").mkdir()
    (site / "entries" / "__pycache__").mkdir()
    assert list(load()) == ["alpha", "beta"]


def test_see_also_naming_no_entry(site):
    message = error_of(site, lambda m: m.update(see_also=["gamma"]))
    assert message == "entries/alpha/entry.md: see_also[0]: no entry 'gamma'; name one of: beta"


def test_see_also_typo_suggests_the_entry(site):
    message = error_of(site, lambda m: m.update(see_also=["betta"]))
    assert message == "entries/alpha/entry.md: see_also[0]: no entry 'betta'; did you mean 'beta'? name one of: beta"


def test_see_also_naming_itself(site):
    message = error_of(site, lambda m: m.update(see_also=["alpha"]))
    assert message == "entries/alpha/entry.md: see_also[0]: 'alpha' is this entry itself; remove it"


def test_figure_naming_an_undeclared_csv(site):
    message = error_of(site, lambda m: m["figures"][1].update(csv="alpha_weights.csv"))
    assert message == ("entries/alpha/entry.md: figures[1].csv: 'alpha_weights.csv' is not declared under csv; "
                       "name one of: alpha_loss.csv, alpha_grid.csv (or declare it under csv with its columns)")


@pytest.mark.parametrize("field, change, column, declared", [
    ("figures[0].x", lambda f: f[0].update(x="step"), "step", "iter, loss"),
    ("figures[0].y", lambda f: f[0].update(y="los"), "los", "iter, loss"),
    ("figures[1].value", lambda f: f[1].update(value="weight"), "weight", "q, k, w"),
    ("figures[0].y[1]", lambda f: f[0].update(y=["loss", "accuracy"]), "accuracy", "iter, loss"),
])
def test_figure_naming_an_undeclared_column(site, field, change, column, declared):
    message = error_of(site, lambda m: change(m["figures"]))
    csv_name = "alpha_grid.csv" if field.startswith("figures[1]") else "alpha_loss.csv"
    k = 1 if csv_name == "alpha_grid.csv" else 0
    assert message == (f"entries/alpha/entry.md: {field}: {csv_name} declares no column {column!r}; "
                       f"use one of: {declared} (or add it to csv[{k}].columns)")


def test_bar_figure_needs_labels(site):
    message = error_of(site, lambda m: m["figures"][0].pop("labels"), slug="beta", base=BETA)
    assert message.startswith("entries/beta/entry.md: figures[0].labels: missing; a bar figure needs it: add the name")


def test_heatmap_needs_a_value_column(site):
    message = error_of(site, lambda m: m["figures"][1].pop("value"))
    assert message.startswith("entries/alpha/entry.md: figures[1].value: missing; a heatmap figure needs it")


def test_legend_needs_one_entry_per_y(site):
    message = error_of(site, lambda m: m["figures"][0].update(legend=["one"]), slug="beta", base=BETA)
    assert message == ("entries/beta/entry.md: figures[0].legend: 1 entries for 2 y columns; "
                       "give one legend entry per y column")


def test_csv_declared_twice(site):
    message = error_of(site, lambda m: m["csv"].append(copy.deepcopy(m["csv"][0])))
    assert message == ("entries/alpha/entry.md: csv[2].name: 'alpha_loss.csv' is declared twice (also csv[0]); "
                       "declare each CSV once")


def test_column_declared_twice(site):
    message = error_of(site, lambda m: m["csv"][0].update(columns=["iter", "loss", "iter"]))
    assert message.startswith("entries/alpha/entry.md: csv[0].columns[2]: 'iter' appears twice")


def test_column_name_with_a_comma(site):
    message = error_of(site, lambda m: m["csv"][0].update(columns=["iter", "loss,x"]))
    assert message.startswith("entries/alpha/entry.md: csv[0].columns[1]: 'loss,x' does not match")


def test_figure_name_used_twice(site):
    message = error_of(site, lambda m: m["figures"][1].update(name="loss"))
    assert message == "entries/alpha/entry.md: figures[1].name: 'loss' is used twice; give each figure its own name"


def test_missing_demo_file(site):
    (site / "entries/alpha/alpha.py").unlink()
    with pytest.raises(entries.EntryError) as info:
        load()
    message = str(info.value)
    assert message.startswith("entries/alpha/entry.md: demo: 'alpha.py' is not a file in entries/alpha; ")


def test_front_matter_not_yaml(site):
    (site / "entries/alpha/entry.md").write_text("---\ntitle: [unclosed\n---\nprose\n")
    with pytest.raises(entries.EntryError) as info:
        load()
    assert str(info.value).startswith("entries/alpha/entry.md: front matter (line ")
    assert str(info.value).endswith("; fix the syntax")


def test_missing_entries_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(entries.EntryError) as info:
        entries.load_all("entries", SCHEMA)
    assert str(info.value).startswith("config.yaml: entries_dir: no folder 'entries'; ")


# ---- after the export job: exactly the declared CSVs, with exactly their headers ----

DECLARED = ALPHA["csv"]


def exported(tmp_path, files):
    out = tmp_path / "data"
    out.mkdir()
    for name, text in files.items():
        (out / name).write_text(text)
    (out / ".snakemake_timestamp").write_text("")      # Snakemake's marker is not the demo's
    return out


def test_export_as_declared_passes(tmp_path):
    out = exported(tmp_path, {"alpha_loss.csv": "iter,loss\n1,0.5\n", "alpha_grid.csv": "q,k,w\n0,0,1\n"})
    entries.check_exported(DECLARED, out, "entries/alpha/entry.md")


def test_export_missing_a_declared_csv(tmp_path):
    out = exported(tmp_path, {"alpha_loss.csv": "iter,loss\n1,0.5\n"})
    with pytest.raises(entries.EntryError) as info:
        entries.check_exported(DECLARED, out, "entries/alpha/entry.md")
    assert str(info.value) == ("entries/alpha/entry.md: csv: the demo's export() wrote no alpha_grid.csv "
                               "(it wrote: alpha_loss.csv); make export() write it into out_dir or remove it from csv")


def test_export_writing_an_undeclared_file(tmp_path):
    out = exported(tmp_path, {"alpha_loss.csv": "iter,loss\n", "alpha_grid.csv": "q,k,w\n", "extra.csv": "a\n"})
    with pytest.raises(entries.EntryError) as info:
        entries.check_exported(DECLARED, out, "entries/alpha/entry.md")
    assert str(info.value) == ("entries/alpha/entry.md: csv: the demo's export() also wrote extra.csv, which csv "
                               "does not declare; declare it under csv (name, columns) or stop export() writing it")


@pytest.mark.parametrize("header, shown", [("iter,los\n", "iter,los"), ("loss,iter\n", "loss,iter"),
                                           ("iter,loss,extra\n", "iter,loss,extra"), ("", "")])
def test_export_with_another_header(tmp_path, header, shown):
    out = exported(tmp_path, {"alpha_loss.csv": header, "alpha_grid.csv": "q,k,w\n"})
    with pytest.raises(entries.EntryError) as info:
        entries.check_exported(DECLARED, out, "entries/alpha/entry.md")
    assert str(info.value) == (f"entries/alpha/entry.md: csv[0].columns: alpha_loss.csv has the header {shown!r} "
                               "but csv declares 'iter,loss'; make export() write the declared header or "
                               "declare the one it writes")


# ---- through a real Snakemake start ------------------------------------------------

BROKEN = "entries/attention/entry.md: figures[0].y: attention_loss.csv declares no column 'los'; " \
         "use one of: iter, loss (or add it to csv[0].columns)"


@pytest.fixture
def broken_repo(tmp_path):
    root = copy_repo(tmp_path / "repo")
    md = root / "entries/attention/entry.md"
    text = md.read_text()
    assert "    y: loss\n" in text
    md.write_text(text.replace("    y: loss\n", "    y: los\n", 1))
    return root


def test_snakemake_stops_before_any_job(broken_repo):
    run, ran = snakemake(broken_repo, "-n", check=False)
    assert run.returncode != 0
    assert BROKEN in run.stdout + run.stderr
    assert ran == [] and "Finished jobid" not in run.stdout + run.stderr
    assert not (broken_repo / "results").exists() and not (broken_repo / "logs").exists()


def test_make_site_prints_the_one_message(broken_repo):
    """`make site` runs glossary.build: its summary of a load-time error is the message alone."""
    run = subprocess.run([str(BIN / "python"), "-m", "glossary.build", "--cores", "2"], cwd=broken_repo,
                         env=dict(os.environ, PYTHONPATH=str(broken_repo / "src")), capture_output=True, text=True)
    assert run.returncode == 1
    lines = run.stderr.splitlines()
    assert lines[0] == f"error: {BROKEN}", run.stderr
    assert len(lines) <= 3 and not any("Traceback" in line or 'File "' in line for line in lines), run.stderr
    # Nothing but the build's own lock file: no job ran.
    assert [p.name for p in (broken_repo / "results").rglob("*")] in ([], [".build.lock"])
    assert not (broken_repo / "site").exists()


def test_snakemake_prints_no_traceback(broken_repo):
    run, _ = snakemake(broken_repo, "-n", check=False)
    # Snakemake's own first line names the workflow profile it read (profiles/default); then the
    # WorkflowError the entries raise: where it was raised, our message, no Python traceback.
    lines = (run.stdout + run.stderr).strip().splitlines()
    assert run.returncode != 0
    assert "Using workflow specific profile profiles/default for setting default command line arguments." in lines
    at = next(i for i, line in enumerate(lines) if line.startswith("WorkflowError in file "))
    assert lines[at + 1] == BROKEN, lines
    assert not any("Traceback" in line for line in lines)


def test_export_job_stops_on_an_undeclared_header(tmp_path):
    """A demo whose CSV header differs from entry.md's `csv` fails its export job, saying so."""
    root = copy_repo(tmp_path / "repo")
    subprocess.run([str(BIN / "python"), "scripts/new_entry.py", "toy-fit"], cwd=root, check=True, capture_output=True)
    demo = root / "entries/toy-fit/toy_fit.py"
    demo.write_text(demo.read_text().replace('f.write("step,loss\\n")', 'f.write("step,mse\\n")'))
    run = subprocess.run([str(BIN / "python"), "-m", "glossary.build", "--cores", "2",
                          "results/site/terms/toy-fit/data"], cwd=root,
                         env=dict(os.environ, PYTHONPATH=str(root / "src")), capture_output=True, text=True)
    message = ("entries/toy-fit/entry.md: csv[0].columns: toy_fit_loss.csv has the header 'step,mse' but csv "
               "declares 'step,loss'; make export() write the declared header or declare the one it writes")
    assert run.returncode == 1
    assert "error: rule compute failed" in run.stderr
    assert f"  error: {message}" in run.stderr.splitlines()
    assert not (root / "results/site/terms/toy-fit/data").exists()
