"""The `glossary` command of an installed package (issue 24 item 1, glossary.cli, docs/install.md): a wheel built
from this clone offline (hatchling, pinned in requirements.lock) and installed into a fresh venv that reuses this
venv's packages; run in a copy of the fixture dictionary, it builds there the site `python -m glossary.build`
builds from the clone, byte for byte, finds nothing to do a second time, writes a YAML file the reader accepts,
and serves the built site over MCP."""
import importlib.util
import json
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
import zipfile

import anyio
import pytest
from conftest import REPO, pinned_environ, tree_bytes
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from packaging.utils import canonicalize_name
from test_audit import fixture_site
from test_ci_workflow import actionlint

FIXTURE = REPO / "tests" / "fixtures" / "texdict"
COMMANDS = ("build", "serve", "verify", "init", "lsp", "mcp")


def pins(requirements):
    """{canonical name: version} of `name==version` lines (a wheel's metadata writes names canonically)."""
    found = (r.split("==") for r in requirements)
    return {canonicalize_name(name): version for name, version in found}


def lock_pins():
    lines = (REPO / "requirements.lock").read_text(encoding="utf-8").splitlines()
    return pins(pin for pin in (line.split("#", 1)[0].strip() for line in lines) if pin)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    # hatchling is in requirements.lock: a venv without it predates the lock, and `make` rebuilds it
    assert importlib.util.find_spec("hatchling"), "hatchling is missing from the venv: `make setup` rebuilds it"
    out = tmp_path_factory.mktemp("wheel")
    run = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
                          "--disable-pip-version-check", "-w", str(out), str(REPO)], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    [built] = out.glob("glossary-*.whl")
    return built


@pytest.fixture(scope="module")
def glossary(wheel, tmp_path_factory):
    """The installed `glossary` program: the wheel alone in a fresh venv, whose .pth file reuses this venv's
    packages (the locked dependencies) without their network install."""
    venv = tmp_path_factory.mktemp("venv") / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    purelib = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             capture_output=True, text=True, check=True).stdout.strip()
    # every site-packages folder this interpreter sees (a venv's own, and any a .pth file there adds)
    folders = [p for p in sys.path if p.endswith("site-packages")]
    (venv / purelib / "_project_venv.pth").write_text("".join(f"{p}\n" for p in folders))
    subprocess.run([str(python), "-m", "pip", "install", "--no-deps", "--no-index", "--disable-pip-version-check",
                    "--quiet", str(wheel)], check=True)
    return venv / "bin" / "glossary"


def run(glossary, *args, cwd, timeout=900):
    # no PYTHONPATH: the installed package, not this clone's src/, must do the work
    env = pinned_environ()
    env.pop("PYTHONPATH")
    return subprocess.run([str(glossary), *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)


def test_the_wheel_carries_the_build_files_and_pins_the_lock(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for name in ("Snakefile", "config.yaml", "requirements.lock", "workflow/rules/common.smk",
                 "workflow/schemas/config.schema.yaml", "scripts/page.py", "templates/entry.html.j2",
                 "templates/notation.sty", "profiles/default/config.yaml"):
        assert f"glossary/_assets/{name}" in names, name
    assert "glossary/cli.py" in names and "snakemake_logger_plugin_glossary/__init__.py" in names
    assert not [n for n in names if "__pycache__" in n or n.startswith(("tests/", "entries/"))]
    [metadata] = [n for n in names if n.endswith(".dist-info/METADATA")]
    text = zipfile.ZipFile(wheel).read(metadata).decode()
    required = [line.split(": ", 1)[1] for line in text.splitlines() if line.startswith("Requires-Dist: ")]
    assert pins(required) == lock_pins() and len(required) == len(lock_pins())
    [entry_points] = [n for n in names if n.endswith(".dist-info/entry_points.txt")]
    assert "glossary = glossary.cli:main" in zipfile.ZipFile(wheel).read(entry_points).decode()


def test_help_lists_the_commands(glossary, tmp_path):
    shown = run(glossary, "--help", cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    listed = re.findall(r"^ {4}(\w+) ", shown.stdout, re.M)     # a command's line; its wrapped help is deeper
    assert tuple(listed) == COMMANDS


def test_a_folder_without_a_dictionary_is_told(glossary, tmp_path):
    told = run(glossary, "build", cwd=tmp_path)
    assert told.returncode == 1
    assert f"error: no dictionary in {tmp_path.resolve()}" in told.stderr and "--source" in told.stderr
    assert not (tmp_path / "_build").exists()
    # the installed package's messages name its own commands, not a clone's make targets
    served = run(glossary, "mcp", cwd=tmp_path, timeout=60)
    assert "`glossary build` in the dictionary's folder" in served.stderr, served.stderr
    assert "make site" not in served.stderr


@pytest.mark.slow
def test_build_in_the_dictionary_folder_is_the_clones_build(glossary, tmp_path, tmp_path_factory):
    shutil.copytree(FIXTURE, tmp_path / "texdict")
    # the reference: this clone's driver, as make site SOURCE= OUT= runs it (test_audit's build, shared)
    reference = fixture_site(tmp_path_factory)

    built = run(glossary, "build", "--cores", "2", cwd=tmp_path / "texdict")
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    site = tmp_path / "texdict" / "_build" / "site"
    assert f"site published: open {site}/index.html" in built.stdout
    assert (site / "index.html").is_file() and (site / "dictionary.pdf").is_file()
    mine, theirs = tree_bytes(site), tree_bytes(reference)
    assert sorted(mine) == sorted(theirs)
    assert [name for name in mine if mine[name] != theirs[name]] == []

    # _build/ lies in the dictionary's folder, but is no source of it: nothing to do the second time
    again = run(glossary, "build", cwd=tmp_path / "texdict")
    assert again.returncode == 0 and again.stdout.startswith("site up to date"), again.stdout + again.stderr

    # `glossary mcp` in the same folder serves that site
    async def talk():
        params = StdioServerParameters(command=str(glossary), args=["mcp"], cwd=str(tmp_path / "texdict"))
        with anyio.fail_after(120):
            async with Client(params) as client:
                return await client.call_tool("list_terms", {})
    listed = anyio.run(talk)
    assert not listed.is_error, listed.content[0].text
    assert len(listed.structured_content["result"]) == len(list((site / "terms").glob("*.html")))

    # `glossary serve` there builds in _build/, and does not take its own build's writes for edits (which
    # rebuilt every few seconds, each build's log a "change")
    said = serve(glossary, tmp_path / "texdict", settle=10)
    assert said.count("preview: building") == 1 and "preview: built in" in said, said
    assert f"<title>{title(site / 'index.html')}</title>" in said.split("PAGE:", 1)[1]


def title(page):
    return re.search(r"<title>(.*?)</title>", page.read_text(encoding="utf-8")).group(1)


def serve(glossary, folder, settle):
    """What `glossary serve` printed in `folder` until its first build ended and `settle` seconds more,
    stopped by SIGINT, then PAGE: and the index page it served."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = pinned_environ()
    env.pop("PYTHONPATH")
    proc = subprocess.Popen([str(glossary), "serve", "--port", str(port), "--cores", "2"], cwd=folder, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines = []
    reader = threading.Thread(target=lambda: lines.extend(proc.stdout), daemon=True)
    reader.start()
    try:
        deadline = time.monotonic() + 600
        while not any("preview: built in" in line for line in lines) and time.monotonic() < deadline:
            assert proc.poll() is None, "".join(lines)
            time.sleep(0.5)
        time.sleep(settle)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=30) as r:
            page = r.read().decode()
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=60)
        reader.join(timeout=10)
    return "".join(lines) + "PAGE:" + page


def test_init_writes_a_yaml_file_the_reader_accepts(glossary, tmp_path):
    shutil.copytree(FIXTURE, tmp_path / "texdict", ignore=shutil.ignore_patterns("*.yaml"))
    wrote = run(glossary, "init", cwd=tmp_path / "texdict")
    assert wrote.returncode == 0, wrote.stderr
    yaml_file = tmp_path / "texdict" / "dictionary.yaml"
    assert "main: TinyDict_Main.tex\n" in yaml_file.read_text(encoding="utf-8")
    assert "# title: A Tiny Dictionary of Machine Learning\n" in yaml_file.read_text(encoding="utf-8")
    # read by the installed package's reader, as its build reads it: the main file's terms, every one
    python = glossary.with_name("python")
    count = ("import sys; from glossary import plan, texdict; read = plan.Source(sys.argv[1]).read(); "
             "print(len(read['entries']), len(texdict.read(sys.argv[2])['entries']))")
    counted = subprocess.run([str(python), "-c", count, str(yaml_file), str(tmp_path / "texdict/TinyDict_Main.tex")],
                             capture_output=True, text=True, check=True).stdout.split()
    assert counted[0] == counted[1] and int(counted[0]) > 0
    # and a second init does not overwrite it
    again = run(glossary, "init", cwd=tmp_path / "texdict")
    assert again.returncode == 1 and "exists; --force overwrites it" in again.stderr


def test_lsp_says_when_the_language_server_is_not_installed(glossary, tmp_path):
    if importlib.util.find_spec("glossary.lsp") is None:      # this package has none: the command as it is
        told = run(glossary, "lsp", cwd=tmp_path, timeout=60)
        assert told.returncode == 1 and "error: the language server is not installed" in told.stderr, told.stderr
    python = glossary.with_name("python")
    # the installed package without glossary.lsp (or pygls), as a branch or an install without it has it
    absent = "import sys; sys.modules['glossary.lsp'] = None; from glossary import cli; sys.exit(cli.main(['lsp']))"
    told = subprocess.run([str(python), "-c", absent], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert told.returncode == 1 and "error: the language server is not installed" in told.stderr, told.stderr


def message(body):
    data = json.dumps(body).encode()
    return f"Content-Length: {len(data)}\r\n\r\n".encode() + data


def test_lsp_speaks_lsp_over_stdio(glossary, tmp_path):
    pytest.importorskip("glossary.lsp", reason="the language server's branch is not merged yet")
    shutil.copytree(FIXTURE, tmp_path / "texdict")
    talk = b"".join(message(m) for m in (
        {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"processId": None, "rootUri": (tmp_path / "texdict").as_uri(), "capabilities": {}}},
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
        {"jsonrpc": "2.0", "id": 2, "method": "shutdown"},
        {"jsonrpc": "2.0", "method": "exit"}))
    served = subprocess.run([str(glossary), "lsp"], cwd=tmp_path / "texdict", input=talk, capture_output=True,
                            timeout=120)
    assert b'"id":1' in served.stdout.replace(b" ", b"") and b"capabilities" in served.stdout, served.stderr[-2000:]


def test_the_dictionarys_workflow_in_the_docs_passes_actionlint(tmp_path):
    text = (REPO / "docs" / "install.md").read_text(encoding="utf-8")
    [workflow] = re.findall(r"^```yaml\n(.*?)^```", text, re.M | re.S)
    path = tmp_path / ".github" / "workflows" / "site.yml"
    path.parent.mkdir(parents=True)
    path.write_text(workflow, encoding="utf-8")
    assert "glossary build" in workflow and "path: _build/site" in workflow
    assert actionlint(path) == []
