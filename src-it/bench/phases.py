#!/usr/bin/env python3
"""Where a kcshare start goes: the median JVM uptime at which marker classes load.

Usage: phases.py [--rounds N] [--cache DIR] -- KCSHARE_ARGS...

Runs the packaged launcher N times (default 11) with its usual JVM flags plus
-Xlog:class+load (uptime-stamped, to a file), and prints, for each marker class, the median
uptime at which it was loaded and the median gap to the previous marker. A marker that never
loads is left out. The class-load log itself costs a few milliseconds, so the totals run a
little above the benchmark's.

The markers follow one command through its stages: JVM start, picocli's command model, the
command itself (config load, identities, records, verdicts, output), exit.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
LAUNCHER = REPO / "shareability-cli/target/kcshare"
FLAGS = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xss4m"

MARKERS = [
    ("JVM started, Main loaded", "dev.kcshare.cli.Main"),
    ("picocli: command model built", "picocli.CommandLine$ParseResult$Builder"),
    ("command running", "dev.kcshare.cli.log.Verbosity"),
    ("config: loader started", "dev.kcshare.cli.config.HostConfigLoader"),
    ("config: first identity", "dev.kcshare.cli.records.ServerIdentity"),
    ("records: read started", "dev.kcshare.cli.records.RecordFile"),
    ("verdicts: assembled", "dev.kcshare.core.policy.EvidenceAssembly"),
    ("output: started", "dev.kcshare.cli.Output"),
    ("exit", "java.lang.Shutdown"),
]


def run_once(args, cache, log):
    env = dict(os.environ)
    env["XDG_CACHE_HOME"] = str(cache)
    env["KCSHARE_JAVA_OPTS"] = f"{FLAGS} -Xlog:class+load=info:file={log}:uptime"
    subprocess.run([str(LAUNCHER), *args], env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    seen = {}
    for line in Path(log).read_text().splitlines():
        # [0.123s] some.Class source: ...
        parts = line.split()
        if len(parts) >= 2 and parts[0].startswith("[") and parts[0].endswith("s]"):
            seen.setdefault(parts[1], float(parts[0][1:-2]) * 1000)
    return seen


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--rounds", type=int, default=11)
    p.add_argument("--cache", help="XDG_CACHE_HOME for the launcher (default: a temporary one)")
    p.add_argument("args", nargs=argparse.REMAINDER)
    a = p.parse_args()
    args = a.args[1:] if a.args[:1] == ["--"] else a.args
    with tempfile.TemporaryDirectory() as tmp:
        cache = Path(a.cache) if a.cache else Path(tmp) / "cache"
        log = Path(tmp) / "classes.log"
        run_once(["--version"], cache, log)  # creates the AppCDS archive, untimed
        samples = [run_once(args, cache, log) for _ in range(a.rounds)]
    print(f"kcshare {' '.join(args)}: median over {a.rounds} runs (ms of JVM uptime)")
    previous = 0.0
    for label, cls in MARKERS:
        times = [s[cls] for s in samples if cls in s]
        if len(times) < len(samples):
            continue
        at = statistics.median(times)
        print(f"  {at:6.0f}  (+{at - previous:4.0f})  {label}")
        previous = at


if __name__ == "__main__":
    sys.exit(main())
