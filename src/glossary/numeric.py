"""The numeric platform every computing job runs on.

The settings live in config.yaml (`numeric_env`).  Snakemake puts them in the
environment of every job it starts (see workflow/rules/common.smk); a
computing step calls `require()` first, which fails loudly when the process
did not start with them: GLIBC_TUNABLES, for one, is read only when a process
starts, so setting it later has no effect.
"""
import os
import platform
from pathlib import Path

# A caller's variable that would undo NPY_DISABLE_CPU_FEATURES; computing jobs
# run without it.  (Snakemake itself sets the *_NUM_THREADS of a job to its
# `threads`, 1 here, which agrees with the pinned OPENBLAS_NUM_THREADS.)
UNSET = ("NPY_ENABLE_CPU_FEATURES",)


def apply(env, environ=os.environ):
    """Put the pinned settings into `environ` (for the jobs started from it)."""
    for name in UNSET:
        environ.pop(name, None)
    environ.update({k: str(v) for k, v in env.items()})


def environ_at_start():
    """The environment this process was started with (glibc reads its tunables only then)."""
    raw = Path("/proc/self/environ")
    if not raw.exists():
        return dict(os.environ)
    pairs = (item.split(b"=", 1) for item in raw.read_bytes().split(b"\0") if b"=" in item)
    return {k.decode(errors="replace"): v.decode(errors="replace") for k, v in pairs}


def require(env):
    """Check that this process computes on the pinned platform; raise, naming every gap, if not."""
    wrong = {k: os.environ.get(k) for k, v in env.items() if os.environ.get(k) != str(v)}
    wrong.update({k: os.environ[k] for k in UNSET if k in os.environ})
    if "GLIBC_TUNABLES" in env and environ_at_start().get("GLIBC_TUNABLES") != env["GLIBC_TUNABLES"]:
        wrong["GLIBC_TUNABLES at process start"] = environ_at_start().get("GLIBC_TUNABLES")
    problems = [f"{k}={v!r}" for k, v in sorted(wrong.items())]
    # here: 58-86 ms (numpy, threadpoolctl) that the jobs importing this module without computing
    # (publish_demo, notebook) do without
    import numpy  # noqa: F401  (what numpy and OpenBLAS chose when they loaded)
    import threadpoolctl
    from numpy._core._multiarray_umath import __cpu_features__
    still_on = [f for f in env.get("NPY_DISABLE_CPU_FEATURES", "").split() if __cpu_features__.get(f)]
    if still_on:
        problems.append(f"numpy still dispatches to {still_on}")
    blas = [i for i in threadpoolctl.threadpool_info() if i["user_api"] == "blas"]
    if platform.machine() not in ("x86_64", "AMD64"):
        blas = []   # other kernels there: the bytes are not promised, verify lists the differences
    for info in blas:
        core = env.get("OPENBLAS_CORETYPE")
        if core and info.get("architecture", "").lower() != core.lower():
            problems.append(f"OpenBLAS runs {info.get('architecture')} kernels, not {core}")
        threads = env.get("OPENBLAS_NUM_THREADS")
        if threads and info["num_threads"] != int(threads):
            problems.append(f"OpenBLAS uses {info['num_threads']} threads, not {threads}")
    if problems:
        raise RuntimeError("numeric platform not in effect: " + "; ".join(problems)
                           + "; run the step through Snakemake (make site), which starts it with "
                           "config.yaml's numeric_env")


def preamble(env):
    """The lines a published demo starts with, so a reader's run matches the page."""
    pairs = "".join(f"    {k!r}: {str(v)!r},\n" for k, v in sorted(env.items()))
    return (
        "# Pin the numeric platform before numpy loads: the training is chaotic, and the\n"
        "# CPU kernels numpy, OpenBLAS and libm would otherwise pick change the model.\n"
        "import os, sys\n"
        "PINNED = {\n" + pairs + "}\n"
        "if any(os.environ.get(k) != v for k, v in PINNED.items()) or \"NPY_ENABLE_CPU_FEATURES\" in os.environ:\n"
        "    os.environ.update(PINNED)\n"
        "    os.environ.pop(\"NPY_ENABLE_CPU_FEATURES\", None)\n"
        "    if __name__ == \"__main__\" and \"ipykernel\" not in sys.modules:\n"
        "        os.execv(sys.executable, [sys.executable] + sys.argv)  # glibc reads its settings at start\n"
        "    print(\"note: restart the kernel with these variables set to reproduce the page exactly:\",\n"
        "          \" \".join(f\"{k}='{v}'\" for k, v in PINNED.items()))\n"
    )
