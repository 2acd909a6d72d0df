"""A throwaway single-node Slurm on localhost, for building the site through Slurm.

    python scripts/slurm_cluster.py start DIR   # prints the `export` lines that point at it
    python scripts/slurm_cluster.py stop DIR

Each start writes DIR/slurm.conf with fresh state folders and free ports, and
starts slurmctld and slurmd (Debian's slurmctld, slurmd and slurm-client;
auth/none, no accounting, so no munge and no slurmdbd: for a throwaway
cluster on a machine of one's own only).  The jobs see the
cluster through SLURM_CONF; the executor plugin's job step drops SLURM_*
variables before it calls srun, so DIR/bin/srun puts SLURM_CONF back first.
"""
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

DAEMONS = ("slurmctld", "slurmd")
# The node offers this many CPUs per core: a Slurm job spends most of its time starting Snakemake
# twice (sbatch, then srun) and waiting for the plugin's next poll, not computing, so letting four
# jobs share a core runs the independent ones side by side instead of queueing them behind each other.
CPUS_PER_CORE = 4
CONF = """\
ClusterName=glossary
SlurmctldHost={host}(127.0.0.1)
SlurmctldPort={ctld_port}
SlurmdPort={d_port}
SlurmUser=root
SlurmdUser=root
AuthType=auth/none
CredType=cred/none
StateSaveLocation={dir}/state
SlurmdSpoolDir={dir}/spool
SlurmctldPidFile={dir}/slurmctld.pid
SlurmdPidFile={dir}/slurmd.pid
SlurmctldLogFile={dir}/slurmctld.log
SlurmdLogFile={dir}/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
ReturnToService=2
SlurmdParameters=config_overrides
# squeue must still see a finished job when the executor plugin next polls.
MinJobAge=600
NodeName={host} NodeAddr=127.0.0.1 CPUs={cpus} RealMemory={mem_mb} State=UNKNOWN
PartitionName=main Nodes={host} Default=YES MaxTime=INFINITE State=UP
"""


def which(program):
    return shutil.which(program) or shutil.which(program, path="/usr/sbin")


def available():
    """None if this machine can run the cluster, else why not."""
    missing = [p for p in DAEMONS + ("sbatch", "squeue", "srun", "sinfo") if which(p) is None]
    if missing:
        return f"Slurm binaries missing: {', '.join(missing)} (apt-get install slurmctld slurmd slurm-client)"
    return None


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def environ(folder, base=os.environ):
    """`base` with the cluster's SLURM_CONF, and its srun wrapper first on PATH."""
    folder = Path(folder).resolve()
    return dict(base, SLURM_CONF=str(folder / "slurm.conf"),
                PATH=f"{folder / 'bin'}{os.pathsep}{base.get('PATH', '')}")


def start(folder, timeout=60):
    """Start the cluster described by a fresh folder; returns the environment that uses it."""
    folder = Path(folder).resolve()
    for sub in ("state", "spool", "bin"):
        (folder / sub).mkdir(parents=True, exist_ok=True)
    host = socket.gethostname().split(".")[0]
    mem_mb = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 2**20 // 2
    (folder / "slurm.conf").write_text(CONF.format(
        host=host, dir=folder, ctld_port=free_port(), d_port=free_port(), cpus=CPUS_PER_CORE * os.cpu_count(),
        mem_mb=mem_mb))
    srun = folder / "bin/srun"
    srun.write_text(f"#!/bin/sh\nexport SLURM_CONF={folder}/slurm.conf\nexec {shutil.which('srun')} \"$@\"\n")
    srun.chmod(0o755)
    env = environ(folder)
    for daemon, args in (("slurmctld", ["-i"]), ("slurmd", ["-N", host])):
        with open(folder / f"{daemon}.out", "w") as log:
            proc = subprocess.Popen([which(daemon), "-D", "-f", str(folder / "slurm.conf"), *args], env=env,
                                    stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        (folder / f"{daemon}.run").write_text(str(proc.pid))
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = subprocess.run(["sinfo", "-h", "-o", "%t"], env=env, capture_output=True, text=True).stdout.split()
        if state and all(s in ("idle", "mix", "alloc") for s in state):
            return env
        time.sleep(0.5)
    stop(folder)
    raise RuntimeError(f"Slurm did not come up in {timeout} s; see {folder}/slurmctld.log and slurmd.log")


def stop(folder):
    """End the daemons that start() started in this folder (by their recorded pids)."""
    for daemon in reversed(DAEMONS):
        run = Path(folder) / f"{daemon}.run"
        if not run.exists():
            continue
        pid = int(run.read_text())
        for sig in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                break
            if wait_gone(pid, 10):
                break
        run.unlink()


def wait_gone(pid, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if os.waitpid(pid, os.WNOHANG)[0]:
                return True         # our own child, now reaped
        except ChildProcessError:
            pass                    # started by another process
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.1)
    return False


@contextmanager
def cluster(folder):
    env = start(folder)
    try:
        yield env
    finally:
        stop(folder)


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("start", "stop"):
        sys.exit(__doc__)
    if sys.argv[1] == "start":
        env = start(sys.argv[2])
        print(f"export SLURM_CONF={env['SLURM_CONF']}\nexport PATH={env['PATH']}")
    else:
        stop(sys.argv[2])
