"""`make verify SOURCE=` and `make manifest SOURCE=` for a dictionary kept elsewhere: the manifest
lives where the dictionary's YAML file says, and a clean rebuild in another folder matches it byte
for byte; a changed byte is found."""
import json
import shutil
import subprocess
import sys

import pytest
from conftest import REPO
from test_audit import fixture_site

FIXTURE = REPO / "tests/fixtures/texdict"
VERIFY = [sys.executable, str(REPO / "scripts/verify.py")]


def run(*args, cwd=REPO):
    return subprocess.run([*args], cwd=cwd, capture_output=True, text=True, check=False,
                          env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO / "src"), "HOME": "/tmp"})


@pytest.fixture(scope="module")
def dictionary(tmp_path_factory):
    """A copy of the fixture dictionary with the manifest (make manifest) of its build, test_audit's (shared):
    (the copy, the build's folder)."""
    work = tmp_path_factory.mktemp("verify")
    source = shutil.copytree(FIXTURE, work / "dict")
    out = fixture_site(tmp_path_factory).parent
    wrote = run(*VERIFY, "--update", "--source", str(source / "dictionary.yaml"), "--site", str(out / "site"))
    assert wrote.returncode == 0, wrote.stdout + wrote.stderr
    return source, out


def test_manifest_is_written_where_the_yaml_says(dictionary):
    source, out = dictionary
    manifest = json.loads((source / "tiny.manifest.json").read_text())
    assert "index.html" in manifest["files"] and "dictionary.pdf" in manifest["files"]
    assert not (REPO / "tiny.manifest.json").exists()


def test_clean_rebuild_elsewhere_matches_the_manifest(dictionary):
    source, _ = dictionary
    checked = run(*VERIFY, "--source", str(source / "dictionary.yaml"))
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "OK" in checked.stdout


def test_a_changed_byte_is_found(dictionary, tmp_path):
    source, out = dictionary
    site = shutil.copytree(out / "site", tmp_path / "site")
    page = next(site.glob("terms/*.html"))
    page.write_text(page.read_text().replace("</main>", "<p>drift</p></main>"))
    checked = run(*VERIFY, "--source", str(source / "dictionary.yaml"), "--site", str(site))
    assert checked.returncode == 1
    assert f"terms/{page.name}" in checked.stdout + checked.stderr


def test_a_main_tex_source_names_no_manifest(dictionary):
    source, _ = dictionary
    checked = run(*VERIFY, "--source", str(source / "TinyDict_Main.tex"))
    assert checked.returncode == 2
    assert "names no manifest" in checked.stderr and "manifest:" in checked.stderr
