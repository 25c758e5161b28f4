#!/usr/bin/env python3
"""What the pre-flight's reads of /proc cost: `kcshare measure SERVER` of this build against an
older one (--baseline), on the host as it is and on a host with more processes.

One run, interleaved rounds (the order of the two builds alternates every round), wall time of the
whole process around subprocess.run and its CPU time (user + system of the whole tree, from the
children's resource usage), output discarded, a fresh --records-dir every run and its row checked
(`ran: true`) outside the timing. Both launchers run with their AppCDS archives in private cache
directories, created by untimed warm-up runs.

  host        the machine as it is
  busy        the same plus --extra idle processes (`sleep`), started before any timing: half run
              as the invoking user, and when that is root, half as nobody (setpriv), as on a
              desktop where most processes are another user's or older than the pass

Then, outside the timing and once per build and host state, `strace -f` of one run (when strace is
installed): how many /proc/PID/stat, status and environ files were opened, how many other files
under /proc/PID, how many /proc/PID directories were stat'ed, and the number of system calls.

  src-it/bench/sweep_cost.py --baseline OLD/kcshare [--server memory|everything|fixture]
                             [--rounds 21] [--extra 400] [--json-out F]
"""

import argparse
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
NOBODY = 65534


def args():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--rounds", type=int, default=21)
    p.add_argument("--launcher", default=str(REPO / "shareability-cli/target/kcshare"))
    p.add_argument("--baseline", required=True, help="an older build's launcher")
    p.add_argument("--server", default="fixture", choices=["fixture", "memory", "everything"])
    p.add_argument("--extra", type=int, default=400, help="idle processes of the busy host")
    p.add_argument("--json-out")
    return p.parse_args()


def definition(server, work):
    if server == "fixture":
        return {"command": "node", "args": [str(REPO / "src-it/fixtures/mcp-fixture.mjs"), "stable"]}
    bin_dir = Path(os.environ.get("KCSHARE_IT_SERVERS", REPO / ".it-servers")) / "node_modules/.bin"
    d = {"command": str(bin_dir / f"mcp-server-{server}")}
    if server == "memory":
        d["env"] = {"MEMORY_FILE_PATH": str(work / "memory.jsonl")}
    return d


def spawn_extra(n):
    """n idle processes; half as nobody when we are root and setpriv is there."""
    procs = []
    other = os.geteuid() == 0 and shutil.which("setpriv")
    for i in range(n):
        cmd = ["sleep", "3600"]
        if other and i % 2 == 1:
            cmd = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"] + cmd
        procs.append(subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                      stderr=subprocess.DEVNULL))
    return procs


def stop(procs):
    for p in procs:
        p.kill()
    for p in procs:
        p.wait()


PROC_FILE = re.compile(r'openat\([^"]*"/proc/\d+/([^"]+)"')
PROC_DIR_STAT = re.compile(r'(?:stat|statx|lstat|newfstatat)\([^"]*"/proc/\d+"')


def strace_counts(cmd, env, cwd):
    trace = Path(tempfile.mkstemp(prefix="kcshare-sweep-", suffix=".trace")[1])
    try:
        subprocess.run(["strace", "-f", "-qq", "-o", str(trace)] + cmd, env=env, cwd=cwd,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        counts = {"stat": 0, "status": 0, "environ": 0, "other": 0, "dirStats": 0, "syscalls": 0}
        for line in trace.read_text(errors="replace").splitlines():
            if "resumed>" in line:
                continue  # the second half of a call strace printed in two lines
            counts["syscalls"] += 1
            m = PROC_FILE.search(line)
            if m:
                name = m.group(1)
                counts[name if name in ("stat", "status", "environ") else "other"] += 1
            elif PROC_DIR_STAT.search(line):
                counts["dirStats"] += 1
        return counts
    finally:
        trace.unlink(missing_ok=True)


def main():
    a = args()
    work = Path(tempfile.mkdtemp(prefix="kcshare-sweep-bench-"))
    config = work / "one.json"
    config.write_text(json.dumps({"mcpServers": {"srv": definition(a.server, work)}}))
    launchers = {"before": a.baseline, "after": a.launcher}
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KCSHARE_", "XDG_"))}
    env["KCSHARE_CDS"] = "1"
    counter = [0]

    def command(name):
        counter[0] += 1
        records = work / f"rec-{name}-{counter[0]}"
        return [launchers[name], "measure", "srv", "--config", str(config),
                "--records-dir", str(records)], records

    def environment(name):
        return dict(env, XDG_CACHE_HOME=str(work / f"cache-{name}"))

    def run(name):
        cmd, records = command(name)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        p = subprocess.run(cmd, cwd=work, env=environment(name), stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE)
        elapsed = time.perf_counter() - t
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if p.returncode != 0:
            sys.exit(f"{name}: exit {p.returncode}: {p.stderr.decode()}")
        row = json.loads((records / "shareability-verdicts.json").read_text())["entries"]["srv"]
        if not row.get("ran"):
            sys.exit(f"{name}: the row was not measured: {row}")
        shutil.rmtree(records)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        return elapsed * 1000, cpu * 1000

    for name in launchers:  # untimed: creates each launcher's archive, then uses it once
        run(name)
        run(name)

    def q(xs, f):
        xs = sorted(xs)
        return xs[min(len(xs) - 1, int(f * (len(xs) - 1) + 0.5))]

    report = {}
    print(f"server={a.server} rounds={a.rounds} cpus={os.cpu_count()}"
          f" load={os.getloadavg()[0]:.1f}")
    for state, extra in [("host", 0), ("busy", a.extra)]:
        procs = spawn_extra(extra)
        try:
            time.sleep(0.5)
            processes = sum(1 for d in os.listdir("/proc") if d.isdigit())
            wall = {n: [] for n in launchers}
            cpu = {n: [] for n in launchers}
            names = list(launchers)
            for r in range(a.rounds):
                for n in (names if r % 2 == 0 else names[::-1]):
                    w, c = run(n)
                    wall[n].append(w)
                    cpu[n].append(c)
            counts = {}
            if shutil.which("strace"):
                for n in names:
                    cmd, records = command(n)
                    counts[n] = strace_counts(cmd, environment(n), work)
                    shutil.rmtree(records, ignore_errors=True)
        finally:
            stop(procs)
        paired = statistics.median(x / y for x, y in zip(wall["after"], wall["before"]))
        cpu_paired = statistics.median(x / y for x, y in zip(cpu["after"], cpu["before"]))
        print(f"\n{state}: {processes} processes, load {os.getloadavg()[0]:.1f}")
        print(f"{'build':<7} {'wall ms':>8} {'IQR':>11} {'CPU ms':>7}"
              f" {'stat':>5} {'status':>6} {'environ':>7} {'other':>5} {'dirs':>5} {'syscalls':>8}")
        for n in names:
            c = counts.get(n, {})
            print(f"{n:<7} {statistics.median(wall[n]):8.0f}"
                  f" {q(wall[n], .25):5.0f}–{q(wall[n], .75):<5.0f}"
                  f" {statistics.median(cpu[n]):7.0f}"
                  f" {c.get('stat', '-'):>5} {c.get('status', '-'):>6} {c.get('environ', '-'):>7}"
                  f" {c.get('other', '-'):>5} {c.get('dirStats', '-'):>5} {c.get('syscalls', '-'):>8}")
        print(f"after/before: wall paired {paired:.3f}"
              f" (ratio of medians {statistics.median(wall['after']) / statistics.median(wall['before']):.3f}),"
              f" CPU paired {cpu_paired:.3f}")
        report[state] = {"processes": processes, "wall": wall, "cpu": cpu, "strace": counts,
                         "wallPaired": paired, "cpuPaired": cpu_paired}
    if a.json_out:
        Path(a.json_out).write_text(json.dumps(report, indent=1))
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
