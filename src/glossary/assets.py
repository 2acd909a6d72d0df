"""Where the build's own files are: the Snakefile, workflow/ (rules and schemas), scripts/, templates/,
profiles/, config.yaml and requirements.lock.

In a clone they are the repository's top level (src/glossary/ sits two folders below it).  An installed
package (pip, pipx: docs/install.md) carries a copy of them in glossary/_assets/, laid out as in the
repository (pyproject.toml's force-include), so that the Snakefile's relative `script:` and `include:`
paths hold in both.

    ROOT         the folder of the Snakefile
    SRC          the folder that holds the glossary package (a clone's src/, or site-packages)
    path(name)   one of ROOT's files, e.g. path("templates/notation.sty")
    command(n)   what a message tells the user to run ("make site" in a clone, "glossary build" installed)
"""
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
SRC = _PACKAGE.parent
# A clone: src/glossary/ under the repository that holds the Snakefile; anywhere else, the package's copy.
CLONE = SRC.name == "src" and (SRC.parent / "Snakefile").is_file()
ROOT = SRC.parent if CLONE else _PACKAGE / "_assets"

# The project's files every build reads, under a clone's root (what the stamp of a no-op build hashes).
SOURCES = ("Snakefile", "config.yaml", "requirements.lock", "profiles", "workflow", "scripts", "templates", "src",
           "entries")
# The same for an installed package: its two packages under SRC (the copy of ROOT is inside glossary/).
PACKAGES = ("glossary", "snakemake_logger_plugin_glossary")
# What a message tells the user to run: a clone's make target, or the installed package's command.
COMMANDS = {"site": ("make site", "glossary build"), "manifest": ("make manifest", "glossary verify --update")}


def command(name):
    """The command that does `name` (a COMMANDS key) where the project runs: make in a clone, glossary
    installed."""
    return COMMANDS[name][0 if CLONE else 1]


def path(name):
    """One of the build's own files (a template, a schema, the Snakefile) as an absolute path."""
    return ROOT / name


def src_of(root):
    """The folder that holds the glossary package a build from `root` imports: root/src in a clone
    (another checkout, a copy `make verify` builds), SRC for the installed copy."""
    if Path(root).resolve() == ROOT and not CLONE:
        return SRC
    return Path(root) / "src"


def own_files(root):
    """(folder, names under it) of the project's own files a build from `root` reads (glossary.stamp)."""
    if Path(root).resolve() == ROOT and not CLONE:
        return str(SRC), PACKAGES
    return str(root), SOURCES
