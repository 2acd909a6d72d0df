"""The numeric platform every computing job runs on.

The settings live in config.yaml (`numeric_env`).  Snakemake puts them in the
environment of every job it starts (see workflow/rules/common.smk); a
computing step calls `require()` first, which fails loudly when the process
did not start with them: GLIBC_TUNABLES, for one, is read only when a process
starts, so setting it later has no effect.
"""
import os

# A caller's variable that would undo NPY_DISABLE_CPU_FEATURES; computing jobs
# run without it.  (Snakemake itself sets the *_NUM_THREADS of a job to its
# `threads`, 1 here, which agrees with the pinned OPENBLAS_NUM_THREADS.)
UNSET = ("NPY_ENABLE_CPU_FEATURES",)


def apply(env, environ=os.environ):
    """Put the pinned settings into `environ` (for the jobs started from it)."""
    for name in UNSET:
        environ.pop(name, None)
    environ.update({k: str(v) for k, v in env.items()})


def require(env):
    """Check that this process computes on the pinned platform; raise if not."""
    wrong = {k: os.environ.get(k) for k, v in env.items() if os.environ.get(k) != str(v)}
    wrong.update({k: os.environ[k] for k in UNSET if k in os.environ})
    if wrong:
        raise RuntimeError(
            "numeric platform not pinned: " + ", ".join(f"{k}={v!r}" for k, v in sorted(wrong.items()))
            + "; run the step through Snakemake (make site), which sets config.yaml's numeric_env")
    import numpy  # noqa: F401  (only now: the settings above must come first)
    from numpy._core._multiarray_umath import __cpu_features__
    import threadpoolctl
    disabled = env.get("NPY_DISABLE_CPU_FEATURES", "").split()
    still_on = [f for f in disabled if __cpu_features__.get(f)]
    blas = [i for i in threadpoolctl.threadpool_info() if i["user_api"] == "blas"]
    problems = []
    if still_on:
        problems.append(f"numpy still dispatches to {still_on}")
    for info in blas:
        core = env.get("OPENBLAS_CORETYPE")
        if core and info.get("architecture", "").lower() != core.lower():
            problems.append(f"OpenBLAS runs {info.get('architecture')} kernels, not {core}")
        threads = env.get("OPENBLAS_NUM_THREADS")
        if threads and info["num_threads"] != int(threads):
            problems.append(f"OpenBLAS uses {info['num_threads']} threads, not {threads}")
    if problems:
        raise RuntimeError("numeric platform not in effect: " + "; ".join(problems))


def preamble(env):
    """The lines a published demo starts with, so a reader's run matches the page."""
    pairs = "".join(f"    {k!r}: {str(v)!r},\n" for k, v in sorted(env.items()))
    return (
        "# Pin the numeric platform before numpy loads: the training is chaotic, and the\n"
        "# CPU kernels numpy, OpenBLAS and libm would otherwise pick change the model.\n"
        "import os, sys\n"
        "PINNED = {\n" + pairs + "}\n"
        "if any(os.environ.get(k) != v for k, v in PINNED.items()):\n"
        "    os.environ.update(PINNED)\n"
        "    if __name__ == \"__main__\" and \"ipykernel\" not in sys.modules:\n"
        "        os.execv(sys.executable, [sys.executable] + sys.argv)  # glibc reads its settings at start\n"
        "    print(\"note: restart the kernel with these variables set to reproduce the page exactly:\",\n"
        "          \" \".join(f\"{k}='{v}'\" for k, v in PINNED.items()))\n"
    )
