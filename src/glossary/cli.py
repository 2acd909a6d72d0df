"""`glossary`: the command an installed package brings (docs/install.md), run in a dictionary's own folder.

    glossary build [--source FILE] [--out DIR] ...   build the site into DIR/site (default: _build/site)
    glossary serve [--source FILE] [--port N] ...    the live preview (make serve)
    glossary verify [--update] ...                   clean rebuild compared with the YAML file's manifest
    glossary init [MAIN.tex]                         write dictionary.yaml naming the main file
    glossary lsp                                     the language server, over stdio
    glossary mcp [--site DIR]                        the MCP server over the built site, over stdio

Without --source each command finds the dictionary in the current folder: dictionary.yaml, else the one
YAML file naming a main file (`main: X.tex`), else the one main .tex file (a \\documentclass with glossaries).
Each command's other options are those of the module it runs (glossary.build, glossary.preview,
glossary.verify, glossary.mcpserver): `glossary build --help` lists them.
"""
import argparse
import sys
from pathlib import Path

from glossary import assets, build, dictionary, plan, preview, verify
from glossary.readers.latex import config

# The build's folder in a dictionary's repository (results/, logs/ and the site under it), as Sphinx's _build.
OUT = "_build"
YAML_FILE = config.YAML_FILE
COMMANDS = {
    "build": "build the dictionary's site into OUT/site (default: _build/site)",
    "serve": "the live preview on 127.0.0.1 (builds in OUT; never writes OUT/site)",
    "verify": "rebuild in a temporary folder and compare with the YAML file's manifest (--update: rewrite it)",
    "init": "write dictionary.yaml, the dictionary's YAML file, from its main .tex file",
    "lsp": "the language server (diagnostics, completion, hover, rename) over stdio",
    "mcp": "the MCP server over the built site (OUT/site), over stdio",
}


class NoDictionary(Exception):
    """The current folder holds no dictionary, or more than one: the message says which to name."""


def find_source(folder="."):
    """The dictionary the current folder holds (config.sources_in): its YAML file, else its main .tex file."""
    folder = Path(folder)
    candidates = config.sources_in(folder)
    if len(candidates) == 1:
        return candidates[0]
    if candidates:
        names = ", ".join(p.name for p in candidates)
        raise NoDictionary(f"{folder.resolve()} holds {len(candidates)} candidates ({names}); name one with "
                           f"--source, or write {YAML_FILE} with `glossary init <main>.tex`")
    raise NoDictionary(f"no dictionary in {folder.resolve()}: no {YAML_FILE}, no YAML file naming a main file and "
                       "no main .tex file (\\documentclass with glossaries); run in the dictionary's folder or "
                       "name it with --source")


def given(args, option):
    """Whether the command line `args` gives `option` (as `--out DIR` or `--out=DIR`)."""
    return any(a == option or a.startswith(option + "=") for a in args)


def with_defaults(args, source=True, out=True):
    """`args` with --source (found here) and --out (_build) added unless given; --help needs neither."""
    if given(args, "--help") or given(args, "-h"):
        return args
    added = []
    if source and not given(args, "--source"):
        added += ["--source", str(find_source())]
    if out and not given(args, "--out"):
        added += ["--out", OUT]
    return added + args


def run_build(args):
    return build.main(with_defaults(args))


def run_serve(args):
    return preview.main(with_defaults(args))


def run_verify(args):
    # --update describes the site `glossary build` published (verify's default is a clone's site/)
    extra = ["--site", str(Path(OUT) / "site")] if "--update" in args and not given(args, "--site") else []
    return verify.main(with_defaults(args, out=False) + extra, repo_default=assets.ROOT)


def yaml_text(main, folder):
    """dictionary.yaml for `main`: the main file, what the build reads from it (as comments, which a line
    written here would override), and a manifest for `glossary verify`."""
    book = dictionary.book_of(main, {})
    read = [f"# title: {book['title']}"]
    read += [f"# authors: [{', '.join(book['authors'])}]"] if book["authors"] else []
    read += [f"# year: {book['year']}"] if book["year"] else []
    read += [f"# license: {book['license']['name']}"] if book["license"] else []
    return "\n".join([
        "# The dictionary's YAML file (glossary init); its fields: docs/dictionary.md, \"The YAML file\".",
        "# Paths are relative to this file.",
        f"main: {Path(main).resolve().relative_to(Path(folder).resolve()).as_posix()}",
        "# Read from the main file; a line without its '#' overrides it:",
        *read,
        "# url: https://example.org/where-the-site-is-served/",
        "# The manifest `glossary verify` compares a clean rebuild with (`glossary verify --update` writes it):",
        "manifest: site.manifest.json",
        "",
    ])


def run_init(args):
    parser = argparse.ArgumentParser(prog="glossary init", description=COMMANDS["init"])
    parser.add_argument("main", nargs="?", type=Path, help="the main .tex file (default: the one in this folder)")
    parser.add_argument("--output", "-o", type=Path, default=None,
                        help=f"the YAML file to write (default: {YAML_FILE} beside the main file)")
    parser.add_argument("--force", action="store_true", help="overwrite an existing YAML file")
    opts = parser.parse_args(args)
    mains = [opts.main] if opts.main else config.main_files(".")
    if len(mains) != 1:
        raise NoDictionary(f"{len(mains)} main .tex files here ({', '.join(p.name for p in mains) or 'none'}); "
                           "name one: glossary init <main>.tex")
    main = mains[0]
    if not main.is_file() or main.suffix != ".tex":
        raise NoDictionary(f"{main}: not a .tex file; name the dictionary's main .tex file")
    out = opts.output or main.parent / YAML_FILE
    if out.exists() and not opts.force:
        raise NoDictionary(f"{out} exists; --force overwrites it")
    out.write_text(yaml_text(main, out.parent), encoding="utf-8")
    # read back as the build reads it: a field it refused would say its line
    main = plan.Source(out.resolve()).config["main"]
    print(f"wrote {out}, naming {Path(main).name}: `glossary build` builds the dictionary into {OUT}/site")
    return 0


def run_lsp(args):
    try:
        # pygls and the project's reader: about 0.3 s, which no other command should pay; `import glossary.lsp`,
        # not `from glossary import lsp`, whose absence would be an ImportError like any other
        import glossary.lsp
    except ModuleNotFoundError as err:
        if err.name not in ("glossary.lsp", "pygls", "lsprotocol"):
            raise
        print(f"error: the language server is not installed ({err.name} is missing)", file=sys.stderr)
        return 1
    sys.argv[1:] = args     # its main() reads its options from the command line
    return glossary.lsp.main() or 0


def run_mcp(args):
    # the MCP SDK: 0.49 s to import (python -X importtime), which no other command should pay
    from glossary import mcpserver
    if not given(args, "--site") and not given(args, "--help") and (Path(OUT) / "site").is_dir():
        args = ["--site", str(Path(OUT) / "site"), *args]
    return mcpserver.main(args) or 0


RUN = {"build": run_build, "serve": run_serve, "verify": run_verify, "init": run_init, "lsp": run_lsp,
       "mcp": run_mcp}


def parser():
    top = argparse.ArgumentParser(prog="glossary", description=__doc__.split("\n\n")[0],
                                  formatter_class=argparse.RawDescriptionHelpFormatter,
                                  epilog="`glossary COMMAND --help` lists a command's options.")
    commands = top.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, what in COMMANDS.items():
        # each command's options are parsed by the module it runs
        commands.add_parser(name, help=what, add_help=False)
    return top


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    command = parser().parse_args(argv[:1]).command
    # the modules' own parsers then name themselves `glossary build`, ...
    sys.argv[0] = f"glossary {command}"
    try:
        return RUN[command](argv[1:])
    except NoDictionary as err:
        print(f"error: {err}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
