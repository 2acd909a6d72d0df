"""Demo scripts: import one as a module, run one of its steps, split it into blocks.

A demo is a standalone script whose blocks start with `# %% [B-name] text`.
The build calls four of its functions, in this order, each printing its
check lines: prepare() -> data, train(data) -> model, export(data, model,
out_dir) -> facts, preview(csv_dir, png).
"""
import contextlib
import importlib.util
import io
import re
import sys
from pathlib import Path

BLOCK = re.compile(r"^# %% \[(B-[a-z0-9-]+)\] ?(.*)$")


def load(path):
    """Import the demo at `path` without running its script sections."""
    path = Path(path)
    name = "demo_" + re.sub(r"\W", "_", path.stem)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@contextlib.contextmanager
def checks_to(path):
    """Run a step, keeping the check lines it prints (and echoing them to the log)."""
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        try:
            yield
        finally:
            sys.stderr.write(buffer.getvalue())
    Path(path).write_text(buffer.getvalue(), encoding="utf-8")


def facts_of(result):
    """The scalars of a step's result: the numbers an entry's prose may quote."""
    return {k: to_json(v) for k, v in (result or {}).items()
            if isinstance(v, (int, float, str)) and not isinstance(v, bool)}


def to_json(obj):
    """numpy arrays and scalars, tuples and dicts as plain JSON values (floats exact)."""
    if hasattr(obj, "tolist"):
        return obj.tolist()
    if isinstance(obj, dict):
        return {str(k): to_json(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [to_json(v) for v in obj]
    return obj


def blocks(source):
    """Split a demo's source into (head, [(name, description, code), ...])."""
    head, parts, current = [], [], None
    for line in source.splitlines():
        match = BLOCK.match(line)
        if match:
            current = (match.group(1), match.group(2).strip(), [])
            parts.append(current)
        elif current is None:
            head.append(line)
        else:
            current[2].append(line)
    tidy = lambda lines: "\n".join(lines).strip("\n")
    return tidy(head), [(name, text, tidy(code)) for name, text, code in parts]
